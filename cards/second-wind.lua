-- Second Wind: stand a knocked-down piece up now, not in the release phase.
--
-- Costs 2 EP, not 1: see cards/switch.lua and scripts/ep_table.lua.
return {
  id = "second-wind",
  name = "Second Wind",
  text = "One of your down pieces that is not in a stack stands up where it lies, active at once.",
  cost = 2,
  args = { "piece" },
  targets = {
    { team = "own", down = true, stacked = false },
  },
  resolve = function(game, piece)
    game.stand_up(piece)
  end,
}
