-- House rule (the project's own): a coach two touchdowns ahead wins at
-- once. An event hook: it runs once per touchdown, never per action.
return {
  name = "mercy-rule",
  text = "A coach two touchdowns ahead wins at once.",
  on_touchdown = function(game, team)
    if math.abs(game.score("ATK") - game.score("DEF")) >= 2 then
      game.end_game()
    end
  end,
}
