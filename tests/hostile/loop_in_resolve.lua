-- An endless loop in resolve: stopped by the instruction budget.
return {
  id = "loop_in_resolve", name = "Loop", text = "Loops forever.", cost = 0, args = {},
  targets = {},
  resolve = function(game)
    while true do end
  end,
}
