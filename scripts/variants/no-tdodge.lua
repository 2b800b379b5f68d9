-- House rule: no tactical dodge (B6). Legality declared as data: the kernel
-- drops `tdodge` from every list; no script runs per candidate action.
return {
  name = "no-tdodge",
  text = "Tactical dodges are not allowed.",
  forbid = { "tdodge" },
}
