-- Tries to read a file at load time.
local f = io.open("/etc/passwd")
return { id = "io_open", name = "IO", text = "Reads files.", cost = 0, args = {}, targets = {}, resolve = function() end }
