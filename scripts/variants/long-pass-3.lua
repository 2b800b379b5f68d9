-- House rule: a long pass costs 3 AP instead of 2 (B8.3). One rule point,
-- `cost`: the legal list offers a long pass only to a coach with 3 AP.
return {
  name = "long-pass-3",
  text = "A long pass costs 3 AP.",
  cost = function(game, action)
    if action.verb == "lpass" then
      return 3
    end
  end,
}
