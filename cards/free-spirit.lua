-- Free Spirit: lift a restriction (B11.8).
--
-- Costs 2 EP, not 1: see cards/switch.lua and scripts/ep_table.lua.
return {
  id = "free-spirit",
  name = "Free Spirit",
  text = "One of your restricted pieces may act again this turn: its restriction ends.",
  cost = 2,
  args = { "piece" },
  targets = {
    { team = "own", restricted = true },
  },
  resolve = function(game, piece)
    game.unrestrict(piece)
  end,
}
