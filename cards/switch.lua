-- Switch: two of your pieces trade places.
return {
  id = "switch",
  name = "Switch",
  text = "Two of your active pieces at most 2 squares apart, neither in a stack, trade squares. A held ball goes with its holder. Twice a game.",
  cost = 1,
  uses = 2,
  args = { "piece", "piece" },
  targets = {
    { team = "own", down = false, stacked = false },
    { team = "own", down = false, stacked = false, from = 1, distance = { 1, 2 }, after = 1 },
  },
  resolve = function(game, a, b)
    game.swap(a, b)
  end,
}
