-- Stacks three pieces: the kernel refuses the second stack, and the first
-- one, already made on the copy, is dropped with it (B11.7).
return {
  id = "breaks_rules", name = "Pile", text = "Piles pieces up.", cost = 0, args = {},
  targets = {},
  resolve = function(game)
    game.stack("DEF3", "DEF2")
    game.stack("DEF4", "DEF2")
  end,
}
