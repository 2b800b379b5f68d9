-- Guardian: protect a team-mate from a distance.
return {
  id = "guardian",
  name = "Guardian",
  text = "An active, unrestricted piece of yours leaps onto a team-mate up to 3 squares away that is not in a stack, forming a protect stack on top of it (it takes the ball if the team-mate has it).",
  cost = 2,
  args = { "piece", "piece" },
  targets = {
    { team = "own", down = false, stacked = false, restricted = false },
    { team = "own", stacked = false, from = 1, distance = { 1, 3 } },
  },
  resolve = function(game, top, bottom)
    game.stack(top, bottom)
  end,
}
