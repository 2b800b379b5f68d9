-- Keeps 11 MiB alive between calls: under 16 MiB a state, but 64 of them
-- would take 700 MiB. The process caps what all states reserve together.
local kept = {}
return {
  id = "memory_hog", name = "Hog", text = "Hoards memory.", cost = 0, args = {},
  targets = {},
  resolve = function(game)
    if #kept == 0 then
      for i = 1, 11 do kept[i] = string.rep(string.char(64 + i), 1024 * 1024) end
    end
  end,
}
