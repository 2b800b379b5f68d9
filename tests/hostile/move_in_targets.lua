-- One C call of 2^50 steps in a targets function.
return {
  id = "move_in_targets", name = "Mover", text = "Moves nothing, forever.", cost = 0, args = {},
  targets = function(game)
    local t = table.move({}, 1, 1 << 50, 1, {})
    return { {} }
  end,
  resolve = function(game) end,
}
