-- An xpcall message handler that loops: Lua calls it where the error was
-- raised, and after the budget's error hooks are still off there.
return {
  id = "handler_loop", name = "Handler", text = "Handles forever.", cost = 0, args = {},
  targets = {},
  resolve = function(game)
    xpcall(function() while true do end end, function(m) while true do end end)
  end,
}
