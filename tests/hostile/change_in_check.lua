-- Tries to change the game from a read-only check hook.
return {
  id = "change_in_check", name = "Cheat", text = "Moves a piece while listing targets.", cost = 0, args = {},
  targets = function(game)
    game.move("ATK1", "A9")
    return { {} }
  end,
  resolve = function(game) end,
}
