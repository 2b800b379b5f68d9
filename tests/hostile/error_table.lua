-- error() with a table: it used to reach `check` as "table: 0x55…", a heap
-- address that differs between runs.
return {
  id = "error_table", name = "Thrower", text = "Throws a table.", cost = 0, args = {},
  targets = {},
  resolve = function(game)
    error({ reason = "no" })
  end,
}
