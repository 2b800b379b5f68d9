-- Quick Step: an AP back, once a turn.
return {
  id = "quick-step",
  name = "Quick Step",
  text = "Gain 1 AP this turn (never more than a turn's AP). Once a turn.",
  cost = 2,
  per_turn = 1,
  args = {},
  requires = { ap_below_turn = true },
  targets = {},
  resolve = function(game)
    game.add_ap(1)
  end,
}
