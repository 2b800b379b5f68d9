-- An endless loop inside pcall inside a coroutine, in a targets hook.
return {
  id = "loop_in_targets", name = "Loop", text = "Loops forever.", cost = 0, args = {},
  targets = function(game)
    coroutine.wrap(function()
      while true do pcall(function() while true do end end) end
    end)()
    return {}
  end,
  resolve = function(game) end,
}
