-- Sprint: a burst straight ahead, outside the normal move patterns (B11.6),
-- open even to a restricted piece (B11.8).
--
-- Forward along a diagonal only: a sprint is a run at the end zone, not a
-- jump to any square around (that offered some 50 targets a list, and a
-- random player took it whenever it could pay).
return {
  id = "sprint",
  name = "Sprint",
  text = "One of your active pieces, even a restricted one, runs exactly 3 squares straight ahead along a diagonal, toward the end zone it attacks, onto an empty square, jumping whatever is in between. It is restricted afterwards.",
  cost = 2,
  args = { "piece", "square" },
  targets = {
    { team = "own", down = false, stacked = false },      -- restricted pieces too (B11.8)
    { from = 1, distance = { 3, 3 }, line = true, forward = true, empty = true },
  },
  resolve = function(game, piece, square)
    game.move(piece, square)
    game.restrict(piece)
  end,
}
