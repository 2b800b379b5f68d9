-- My house rule: a long pass costs `long_pass_ap` AP (B8.3 says 2). Edit it,
-- then run `ball check --ruleset ruleset.toml` and `ball test scenarios`.
-- `ball api` lists every rule point (`cost`, `allow`, `ending`, `on_event`,
-- `actions`, `state`, ...) with an example.
---@type Variant
return {
  name = "long-pass",
  text = "A long pass costs long_pass_ap AP.",
  options = {                  -- set in ruleset.toml's [options]; read with game.param
    long_pass_ap = { default = 3, min = 0, max = 20, text = "The AP a long pass costs." },
  },
  ---@param game Game
  cost = function(game, action) -- read-only: an action's AP, nil for the rules' price
    if action.verb == "lpass" then
      return game.param("long_pass_ap")
    end
  end,
}
