-- House rule: fatigue. Every action a piece takes tires it; a piece that
-- has acted `limit` times (once, by default) this turn may act again
-- only for 2 AP. Counters
-- live in the position (`state`), so a saved game plays on the same.
return {
  name = "fatigue",
  text = "A piece that has acted `limit` times this turn pays 2 AP an action.",
  state = { tired = "piece" },
  options = {
    limit = { default = 1, min = 1, max = 10, text = "Actions a turn a piece takes at the normal cost." },
  },
  cost = function(game, action)
    local who = action.piece or action.from
    if who and game.get("tired", who) >= game.param("limit") then
      return 2
    end
  end,
  after_action = function(game, action)
    local who = action.piece or action.from
    if who and action.verb ~= "standup" then
      game.set("tired", game.get("tired", who) + 1, who)
    end
  end,
  on_event = function(game, event)
    if event.kind == "turn_started" then
      for _, p in ipairs(game.pieces()) do
        game.set("tired", 0, p)
      end
    end
  end,
}
