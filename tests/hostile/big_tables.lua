-- Table library calls over big tables in a loop: each call is one C call
-- of a million steps, charged to the budget.
return {
  id = "big_tables", name = "Shuffler", text = "Sorts forever.", cost = 0, args = {},
  targets = {},
  resolve = function(game)
    local t = {}
    for i = 1, 200000 do t[i] = 200000 - i end
    while true do
      table.insert(t, 1, 0)
      table.remove(t, 1)
      table.sort(t)
      local s = table.concat(t, ",", 1, 1000)
    end
  end,
}
