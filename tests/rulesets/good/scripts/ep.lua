-- Test fixture for tests/rulesets.rs: an EP table.
return {
  block = 1,
}
