-- Switch: two neighbouring pieces of yours trade places.
--
-- Costs 2 EP, not 1: at 1 a coach could play it, second-wind or
-- free-spirit with any single EP, and the lab's greedy bots played a card
-- nearly every other turn (see scripts/ep_table.lua).
return {
  id = "switch",
  name = "Switch",
  text = "Two of your active pieces next to each other, neither in a stack, trade squares. A held ball goes with its holder. Twice a game.",
  cost = 2,
  uses = 2,
  args = { "piece", "piece" },
  targets = {
    { team = "own", down = false, stacked = false },
    { team = "own", down = false, stacked = false, from = 1, distance = { 1, 1 }, after = 1 },
  },
  resolve = function(game, a, b)
    game.swap(a, b)
  end,
}
