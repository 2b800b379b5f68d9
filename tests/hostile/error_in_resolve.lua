-- Moves a piece, then fails: the move must not stick (B11.7).
return {
  id = "error_in_resolve", name = "Oops", text = "Fails halfway.", cost = 0, args = {},
  targets = {},
  resolve = function(game)
    game.move("DEF3", "H10")
    local x = nil
    return x.field
  end,
}
