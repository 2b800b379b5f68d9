-- My house rule: a catch needs a total of `target` (G7.4 says 3).
-- `ball --game gball api` lists every rule point and every `game.*`.
---@type Variant
return {
  name = "easy-catch",
  text = "A catch roll needs `target` instead of G7.4's 3.",
  options = {
    target = { default = 2, min = 1, max = 13, text = "The total a catch roll needs." },
  },
  catch_target = function(game, player)
    return game.param("target")
  end,
}
