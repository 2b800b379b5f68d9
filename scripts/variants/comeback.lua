-- House rule: comeback. The coach behind starts each turn with one AP
-- more, and a touchdown by a coach two behind counts double.
return {
  name = "comeback",
  text = "The coach behind gets +1 AP a turn; a touchdown two behind scores 2.",
  turn_ap = function(game, team)
    local other = team == "ATK" and "DEF" or "ATK"
    if game.score(team) < game.score(other) then
      return game.param("ap_per_turn") + 1
    end
  end,
  touchdown_value = function(game, team)
    local other = team == "ATK" and "DEF" or "ATK"
    if game.score(other) - game.score(team) == 2 then
      return 2
    end
  end,
}
