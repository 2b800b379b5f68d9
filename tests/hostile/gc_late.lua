-- A metatable given `__gc` after setmetatable: Lua marks an object for
-- finalization only when setmetatable sees `__gc`, so this one never runs
-- its finalizer. The card plays (and changes nothing).
return {
  id = "gc_late", name = "Late", text = "Adds __gc afterwards.", cost = 0, args = {},
  targets = {},
  resolve = function(game)
    local mt = {}
    local t = setmetatable({}, mt)
    mt.__gc = function() while true do end end
    t = nil
  end,
}
