-- A finalizer that loops: Lua 5.4 runs __gc with hooks off, so no budget
-- could stop it. Refused where the metatable is set.
local trap = setmetatable({}, { __gc = function() while true do end end })
return {
  id = "gc_at_load", name = "Trap", text = "Leaves a finalizer behind.", cost = 0, args = {},
  targets = {},
  resolve = function(game) end,
}
