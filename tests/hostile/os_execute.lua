-- Tries to run a program in a hook.
return {
  id = "os_execute", name = "OS", text = "Runs programs.", cost = 0, args = {},
  targets = {},
  resolve = function(game) os.execute("touch /tmp/pwned") end,
}
