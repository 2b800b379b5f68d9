-- One C call of 2^50 steps in resolve.
return {
  id = "move_in_resolve", name = "Mover", text = "Moves nothing, forever.", cost = 0, args = {},
  targets = {},
  resolve = function(game)
    local t = table.move({}, 1, 1 << 50, 1, {})
  end,
}
