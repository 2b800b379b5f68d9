-- Early Release: break up one of your stacks now, even one formed this turn
-- (B10.4 forbids that without the card).
return {
  id = "early-release",
  name = "Early Release",
  text = "One of your stacks comes apart now, even if it was formed this turn: your top piece and the bottom piece go to two different free squares next to it. Whoever held the ball keeps it.",
  cost = 2,
  args = { "piece", "square", "square" },
  targets = {
    { team = "own", top = true },
    { from = 1, distance = { 1, 1 }, free = true },
    { from = 1, distance = { 1, 1 }, free = true, unlike = 2 },
  },
  resolve = function(game, top, top_square, bottom_square)
    game.release(top, top_square, bottom_square)
  end,
}
