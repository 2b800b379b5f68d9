-- One C call of 2^50 steps at load: the count hook never fires inside it.
local t = table.move({}, 1, 1 << 50, 1, {})
return {
  id = "move_at_load", name = "Mover", text = "Moves nothing, forever.", cost = 0, args = {},
  targets = {},
  resolve = function(game) end,
}
