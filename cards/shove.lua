-- Shove: push an adjacent opponent one square straight back; it stays up.
return {
  id = "shove",
  name = "Shove",
  text = "An active, unrestricted piece of yours pushes an adjacent active opponent (not in a stack) one square straight away from it, onto a free square. The opponent keeps its feet, and the ball if it has it.",
  cost = 2,
  args = { "piece", "piece", "square" },
  targets = {
    { team = "own", down = false, stacked = false, restricted = false },
    { team = "opponent", down = false, stacked = false, from = 1, distance = { 1, 1 } },
    { beyond = { 1, 2 }, free = true },
  },
  resolve = function(game, pusher, opponent, square)
    game.move(opponent, square)
  end,
}
