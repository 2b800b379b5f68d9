-- B12: the Swedish rulebook's readings (docs/rules/ball.md B12.1-B12.3).
--   B12.1 a hand-off reaches any piece of the connected network of adjacent
--         active team-mates, as one hand-off;
--   B12.2 a short pass leaves the ball loose on the reception square;
--   B12.3 on release, the coach chooses who keeps the ball only when the
--         top held it. For that to matter a stack's bottom must be able to
--         keep the ball, so the top does not take it (B7.3 off).
return {
  name = "sv-rulebook",
  text = "Hand-offs along a chain of team-mates, short passes land loose, and a blocked holder keeps the ball.",
  params = {
    handoff_network = true,
    short_pass_loose = true,
    stack_top_takes_ball = false,
    keep_choice_needs_top = true,
  },
}
