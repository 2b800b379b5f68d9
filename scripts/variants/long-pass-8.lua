-- House rule: a long pass lands at most 8 squares from the holder (B8.3
-- has no maximum).
return {
  name = "long-pass-8",
  text = "A long pass reaches at most 8 squares.",
  params = { long_pass_max_distance = 8 },
}
