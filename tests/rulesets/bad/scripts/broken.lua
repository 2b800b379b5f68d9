-- Test fixture: a card with a Lua syntax error (the value of `cost` is missing).
return {
  id = "broken",
  cost = ,
}
