-- House rule: every turn has 3 AP instead of 2 (B4.2).
return {
  name = "three-ap",
  text = "Each coach has 3 AP per turn.",
  params = { ap_per_turn = 3 },
}
