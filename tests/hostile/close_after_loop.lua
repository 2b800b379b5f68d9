-- A to-be-closed variable whose close handler loops, closed after the
-- budget stops the loop above it: mlua's own hook ran that handler with
-- hooks off, and it never ended.
return {
  id = "close_after_loop", name = "Closer", text = "Cleans up forever.", cost = 0, args = {},
  targets = {},
  resolve = function(game)
    local guard <close> = setmetatable({}, { __close = function() while true do end end })
    while true do end
  end,
}
