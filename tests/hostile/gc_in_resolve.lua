-- A finalizer made during resolve: it would run whenever the collector
-- chose, inside another card's hook and with its write access.
return {
  id = "gc_in_resolve", name = "Sleeper", text = "Plants a finalizer.", cost = 0, args = {},
  targets = {},
  resolve = function(game)
    local keep = {}
    keep[#keep + 1] = 1
    setmetatable({}, { __gc = function() game.knock_down("ATK1") end })
  end,
}
