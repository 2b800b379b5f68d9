-- House rule for G-ball: a team behind by `gap` sets or more (G3.1)
-- catches more easily: its catch rolls (G7.4) need `ease` less.
---@type Variant
return {
  name = "comeback-catch",
  text = "A team behind by two sets or more needs one less on its catch rolls.",
  options = {
    gap = { default = 2, min = 1, max = 99, text = "Sets behind from which the catch target drops." },
    ease = { default = 1, min = 0, max = 5, text = "How much lower the catch target is." },
  },
  catch_target = function(game, player)
    local team = game.player(player).team
    local other = team == "RED" and "BLU" or "RED"
    if game.sets(other) - game.sets(team) >= game.param("gap") then
      return math.max(1, game.param("catch_target") - game.param("ease"))
    end
    return nil
  end,
}
