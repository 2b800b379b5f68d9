-- Test fixture for tests/rulesets.rs: a variant that changes nothing.
return {
  name = "v1",
  text = "Test fixture.",
}
