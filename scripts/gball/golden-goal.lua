-- House rule for G-ball: golden goal. A match level at the match turn
-- limit (G3.6: equal sets and equal points) does not end as a draw: play
-- goes on and the next goal wins it. After `extra_turns` more turns still
-- level, the rules' draw stands.
---@type Variant
return {
  name = "golden-goal",
  text = "Level at the match turn limit: play on, the next goal wins.",
  options = {
    extra_turns = { default = 200, min = 0, max = 100000, text = "Turns past the limit before a level match is a draw." },
  },
  ending = function(game, why)
    if why ~= "turn-limit" then
      return nil
    end
    local level = game.sets("RED") == game.sets("BLU") and game.points("RED") == game.points("BLU")
    local limit = game.param("match_turn_limit")
    if level and game.match_turns() < limit + game.param("extra_turns") then
      return false -- play on
    end
    if not level and game.match_turns() > limit then
      return {} -- decided past the limit: the leader (G3.6) wins by golden goal
    end
    return nil -- decided at the limit, or still level after the extra turns
  end,
}
