-- 4 MiB strings built and rebuilt in a loop.
return {
  id = "rep_loop", name = "Builder", text = "Builds forever.", cost = 0, args = {},
  targets = {},
  resolve = function(game)
    while true do
      local s = string.rep("x", 4 * 1024 * 1024)
      local t = s:upper()
    end
  end,
}
