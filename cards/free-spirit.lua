-- Free Spirit: lift a restriction (B11.8).
return {
  id = "free-spirit",
  name = "Free Spirit",
  text = "One of your restricted pieces may act again this turn: its restriction ends.",
  cost = 1,
  args = { "piece" },
  targets = {
    { team = "own", restricted = true },
  },
  resolve = function(game, piece)
    game.unrestrict(piece)
  end,
}
