-- The EP table (B11.3): energy points a coach earns, per action it takes
-- and per event its action causes. Card mode only.
--
-- The official table is lost (none of the three rulebooks has it); this is
-- the project's proposal. The idea: plain moves earn nothing, contact and
-- risk earn a little, what turns a game earns most. A coach earns roughly
-- one card every three or four turns from play, and can always buy EP with
-- AP (`convert N`, B11.4) when it wants a card sooner.
--
-- Keys: the verbs move dodge tdodge block protect handoff spass lpass card
-- end standup release, and the events knock_down (per piece knocked down),
-- forced_fumble, take_loose_ball, pass_received, touchdown. A key left out
-- earns 0. Values are whole numbers 0-100. `ball check --ruleset cards`
-- reports unknown keys.
return {
  dodge = 1,            -- B5.4: a dodge knocks an opponent down ...
  tdodge = 1,           -- B6: ... so does a tactical dodge
  block = 1,            -- B7.1
  lpass = 1,            -- B8.3: a risk taken
  forced_fumble = 2,    -- B5.4: taking the ball off an opponent
  take_loose_ball = 1,  -- B9.2
  pass_received = 1,    -- B8.2
  touchdown = 3,        -- B3.4
}
