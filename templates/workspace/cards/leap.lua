-- Leap: an example card. Edit it, then run `ball check --ruleset ruleset.toml`
-- and `ball test scenarios`.
---@type Card
return {
  id = "leap",                 -- lower-case, used in the notation: `card leap DEF3 I15`
  name = "Leap",
  text = "One of your active pieces jumps to an empty square exactly 4 squares away.",
  cost = 1,                    -- EP; optional: ap = 1, uses = 2 (a game), per_turn = 1
  args = { "piece", "square" },
  targets = {                  -- one filter per argument, enumerated by the kernel
    { team = "own", down = false, stacked = false, restricted = false },
    { from = 1, distance = { 4, 4 }, empty = true },
  },
  ---@param game Game
  resolve = function(game, piece, square)   -- the effect, through kernel operations
    game.move(piece, square)
  end,
}
