-- A pathological pattern: refused (pattern matching is not offered).
return {
  id = "pattern_bomb", name = "Pattern", text = "Backtracks for hours.", cost = 0, args = {},
  targets = {},
  resolve = function(game)
    local s = string.rep("a", 3000)
    return s:match(".-.-.-.-b")
  end,
}
