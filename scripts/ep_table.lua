-- The EP table (B11.3): energy points a coach earns, per action it takes
-- and per event its action causes. Card mode only.
--
-- The official table is lost (none of the three rulebooks has it); this is
-- the project's proposal. The idea: EP pay for what moves the ball, not
-- for contact. Plain moves, dodges, tactical dodges and blocks earn
-- nothing; a risk taken with the ball earns a little, winning it more, a
-- touchdown most. A coach earns roughly one card every three or four turns
-- from play, and can always buy EP with AP (`convert N`, B11.4) when it
-- wants a card sooner.
--
-- Why contact earns nothing, and no card costs 1 EP: with dodge, tactical
-- dodge and block at 1 and three cards at 1 EP, the balance lab's greedy
-- bots (`ball --ruleset cards sim --bots greedy,greedy`) earned 31 EP a
-- game, over a third of it from contact, and played a card nearly every
-- other turn (18 a coach in its 30 turns). Now they earn about 19 and play
-- about 9: one every three to four turns. Card plays (a Lua call each) and
-- the lists in which a coach can pay for a card are also most of what card
-- mode costs over the native rules (issue #3's bar of 1.3x, `cargo bench
-- --bench playout -- card_mode`).
--
-- Keys: the verbs move dodge tdodge block protect handoff spass lpass card
-- end standup release, and the events knock_down (per piece knocked down),
-- forced_fumble, take_loose_ball, pass_received, touchdown. A key left out
-- earns 0. Values are whole numbers 0-100. `ball check --ruleset cards`
-- reports unknown keys.
return {
  lpass = 1,            -- B8.3: a risk taken
  forced_fumble = 2,    -- B5.4: taking the ball off an opponent
  take_loose_ball = 1,  -- B9.2
  pass_received = 1,    -- B8.2
  touchdown = 3,        -- B3.4
}
