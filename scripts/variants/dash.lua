-- House rule: dash. A new action for both coaches, card mode or not: an
-- active, unrestricted piece runs exactly 2 squares straight ahead along a
-- diagonal onto an empty square, for 2 AP, and may not act again this turn.
-- In the notation: `dash ATK3 G9`.
return {
  name = "dash",
  text = "New action `dash PIECE SQUARE`: 2 squares straight ahead on a diagonal, for 2 AP; the piece is then restricted.",
  actions = {
    {
      id = "dash",
      name = "Dash",
      text = "Run 2 squares straight ahead along a diagonal onto an empty square; the piece may not act again this turn.",
      ap = 2,
      args = { "piece", "square" },
      targets = {
        { team = "own", down = false, stacked = false, restricted = false },
        { from = 1, distance = { 2, 2 }, line = true, forward = true, empty = true },
      },
      resolve = function(game, piece, square)
        game.move(piece, square)
        game.restrict(piece)
      end,
    },
  },
}
