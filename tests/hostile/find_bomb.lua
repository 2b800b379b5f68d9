-- Lua's plain search compares the pattern at every position: 4 MiB by
-- 2 MiB was 12.7 s for one play. Searched in linear time now, and loops of
-- it run out of budget.
return {
  id = "find_bomb", name = "Seeker", text = "Searches hard.", cost = 0, args = {},
  targets = {},
  resolve = function(game)
    local hay = string.rep("a", 4 * 1024 * 1024)
    local needle = string.rep("a", 2 * 1024 * 1024) .. "b"
    while true do
      local found = string.find(hay, needle)
    end
  end,
}
