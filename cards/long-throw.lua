-- Long Throw: a short pass that reaches 2 squares farther than B8.2 allows.
return {
  id = "long-throw",
  name = "Long Throw",
  text = "Your ball holder, if active and unrestricted, throws to an active team-mate 5 or 6 squares away, beyond the standard short-pass range of 4. The receiver catches it and is restricted.",
  cost = 2,
  args = { "piece", "piece" },
  targets = {
    { team = "own", ball = true, down = false, stacked = false, restricted = false },
    { team = "own", down = false, stacked = false, from = 1, distance = { 5, 6 } },
  },
  resolve = function(game, holder, receiver)
    game.give_ball(receiver)
    game.restrict(receiver)
  end,
}
