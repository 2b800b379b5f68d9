-- House rule: sudden death. Level scores after the last turn: play on,
-- and the first team ahead at the end of an action wins. After
-- `extra_turns` more turns still level, the game is a draw.
return {
  name = "sudden-death",
  text = "Level after the last turn: play on, the first team ahead wins.",
  options = {
    extra_turns = { default = 2, min = 1, max = 6, text = "Turns of sudden death before a level game is a draw." },
  },
  ending = function(game, why)
    if why ~= "turns-played" then
      return nil
    end
    local level = game.score("red") == game.score("blue")
    if level and game.turn() < game.turns() + game.param("extra_turns") then
      return false -- play another turn
    end
    return nil -- ahead, or still level at the end of sudden death: the rules' end
  end,
  ends_now = function(game)
    if game.turn() <= game.turns() then
      return nil
    end
    local red, blue = game.score("red"), game.score("blue")
    if red > blue then
      return { winner = "red" }
    elseif blue > red then
      return { winner = "blue" }
    end
    return nil
  end,
}
