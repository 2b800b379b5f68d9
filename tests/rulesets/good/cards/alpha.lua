-- Test fixture for tests/rulesets.rs: a minimal card (an AP back).
return {
  id = "alpha",
  name = "alpha",
  text = "Test fixture: gain 1 AP this turn.",
  cost = 1,
  args = {},
  requires = { ap_below_turn = true },
  targets = {},
  resolve = function(game)
    game.add_ap(1)
  end,
}
