-- A new coroutine per iteration, each running fewer instructions than the
-- hook's period: Lua starts each thread's count afresh, so none fired.
local function work()
  local x = 0
  for i = 1, 30 do x = x + i end
  return x
end
return {
  id = "coroutine_storm", name = "Storm", text = "Spawns forever.", cost = 0, args = {},
  targets = {},
  resolve = function(game)
    while true do coroutine.wrap(work)() end
  end,
}
