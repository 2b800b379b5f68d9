-- Guardian: protect your ball holder from a distance.
--
-- Onto the ball holder only: the card is there to shield the ball, and a
-- leap onto any team-mate offered a dozen targets that mostly did not.
return {
  id = "guardian",
  name = "Guardian",
  text = "An active, unrestricted piece of yours leaps onto your ball holder up to 3 squares away, if the holder is not in a stack, forming a protect stack on top of it; the top takes the ball (B7.3).",
  cost = 2,
  args = { "piece", "piece" },
  requires = { ball = "own" },
  targets = {
    { team = "own", down = false, stacked = false, restricted = false },
    { team = "own", ball = true, stacked = false, from = 1, distance = { 1, 3 } },
  },
  resolve = function(game, top, bottom)
    game.stack(top, bottom)
  end,
}
