-- Allocates without end: stopped by the memory limit.
return {
  id = "memory_bomb", name = "Bomb", text = "Eats memory.", cost = 0, args = {},
  targets = {},
  resolve = function(game)
    local t = {}
    for i = 1, 1e9 do t[i] = string.rep("x", 1000) .. i end
  end,
}
