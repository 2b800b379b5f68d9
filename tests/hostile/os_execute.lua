-- Tries to run a program in a hook.
return {
  id = "os-execute", name = "OS", text = "Runs programs.", cost = 0, args = {},
  targets = {},
  resolve = function(game) os.execute("touch /tmp/pwned") end,
}
