-- Recurses without end: stopped by Lua's stack limit.
local function dive(n) return 1 + dive(n + 1) end
return {
  id = "deep_recursion", name = "Dive", text = "Recurses forever.", cost = 0, args = {},
  targets = {},
  resolve = function(game) dive(1) end,
}
