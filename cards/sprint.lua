-- Sprint: a burst of speed outside the normal move patterns (B11.6), open
-- even to a restricted piece (B11.8).
return {
  id = "sprint",
  name = "Sprint",
  text = "One of your active pieces, even a restricted one, runs to any empty square exactly 3 squares away, jumping whatever is in between. It is restricted afterwards.",
  cost = 2,
  args = { "piece", "square" },
  targets = {
    { team = "own", down = false, stacked = false },      -- restricted pieces too (B11.8)
    { from = 1, distance = { 3, 3 }, empty = true },
  },
  resolve = function(game, piece, square)
    game.move(piece, square)
    game.restrict(piece)
  end,
}
