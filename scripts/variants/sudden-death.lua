-- House rule: the first touchdown wins (B3.6 with touchdowns_to_win = 1).
return {
  name = "sudden-death",
  text = "The first touchdown wins the game.",
  params = { touchdowns_to_win = 1 },
}
