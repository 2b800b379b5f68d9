-- Magnet: take the loose ball from range.
return {
  id = "magnet",
  name = "Magnet",
  text = "An active, unrestricted piece of yours within 3 squares of the loose ball takes it where it stands, and is restricted.",
  cost = 3,
  args = { "piece" },
  requires = { ball = "loose" },
  targets = {
    { team = "own", down = false, stacked = false, restricted = false, ball_distance = { 0, 3 } },
  },
  resolve = function(game, piece)
    game.take_ball(piece)
  end,
}
