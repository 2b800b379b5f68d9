-- House rule: sudden death after the turn limit. If the last turn ends
-- with level scores, play goes on and the next touchdown wins; after
-- `extra_turns` more turns still level, the game is a draw.
return {
  name = "overtime",
  text = "Level at the turn limit: play on, the next touchdown wins.",
  options = {
    extra_turns = { default = 10, min = 0, max = 100, text = "Turns of overtime before a level game is a draw." },
  },
  ending = function(game, why)
    if why ~= "turn-limit" then
      return nil
    end
    local level = game.score("ATK") == game.score("DEF")
    local last = game.param("turn_limit") + game.param("extra_turns")
    if level and game.turn() < last then
      return false -- play on
    end
    if not level and game.turn() > game.param("turn_limit") then
      return { reason = "overtime" } -- decided in overtime
    end
    return nil -- decided in regulation, or still level: the rules' end
  end,
}
