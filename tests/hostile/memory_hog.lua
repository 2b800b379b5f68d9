-- Keeps 11 MiB alive for the whole game (made at load: a hook may keep
-- nothing between calls): under 16 MiB a state, but 64 of them would take
-- 700 MiB. The process caps what all states reserve together.
local kept = {}
for i = 1, 11 do kept[i] = string.rep(string.char(64 + i), 1024 * 1024) end
return {
  id = "memory_hog", name = "Hog", text = "Hoards memory.", cost = 0, args = {},
  targets = {},
  resolve = function(game)
    assert(#kept == 11)
  end,
}
