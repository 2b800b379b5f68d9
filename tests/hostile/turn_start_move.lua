-- A variant whose turn-start hook runs one C call of 2^50 steps.
return {
  name = "turn_start_move",
  text = "Moves nothing at every turn start.",
  on_turn_start = function(game, team)
    local t = table.move({}, 1, 1 << 50, 1, {})
  end,
}
