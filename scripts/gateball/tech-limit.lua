-- House rule: technical shots are rationed. Each team may play at most
-- `tech_shots` technical shots a turn (T5.3), and each one costs the
-- team `tech_cost` points.
return {
  name = "tech-limit",
  text = "At most N technical shots a team a turn, each costing points.",
  options = {
    tech_shots = { default = 2, min = 0, max = 30, text = "Technical shots a team may play each turn." },
    tech_cost = { default = 0, min = 0, max = 9, text = "Points a technical shot costs its team." },
  },
  state = { tech_used = "team" },
  allow = function(game, action)
    if action ~= "tech" then
      return nil
    end
    local team = game.team_of(game.ball())
    return game.get("tech_used", team) < game.param("tech_shots")
  end,
  cost = function(game, action)
    if action == "tech" then
      return game.param("tech_cost")
    end
    return nil
  end,
  after_action = function(game, action, team)
    if action == "tech" then
      game.set("tech_used", game.get("tech_used", team) + 1, team)
    end
  end,
  on_event = function(game, event)
    if event.kind == "turn" then
      game.set("tech_used", 0, "red")
      game.set("tech_used", 0, "blue")
    end
  end,
}
