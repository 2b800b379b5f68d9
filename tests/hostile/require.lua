local m = require("socket")
return { id = "require", name = "R", text = "Loads modules.", cost = 0, args = {}, targets = {}, resolve = function() end }
