-- My house rule: a Goal is worth `goal_points` (T10.2 says 2).
-- `ball --game gateball api` lists every rule point and every `game.*`.
return {
  name = "big-goal",
  text = "A Goal scores goal_points instead of 2.",
  options = {
    goal_points = { default = 3, min = 0, max = 9, text = "What a Goal scores." },
  },
  goal_value = function(game, ball)
    return game.param("goal_points")
  end,
}
