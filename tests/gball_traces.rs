//! Every event trace of `gball-notation.md` ("Traces"), line for line,
//! and G19's worked example step by step with its position JSON.
//!
//! A trace starts where its phase starts (`phase 2 RED`), so each test
//! builds the position at the last decision before that phase and
//! compares the events from the trace's first line on.

use ball::games::gball::json;
use ball::games::gball::position::{Pending, Phase, Position};
use serde_json::Value;

use crate::gball_support::*;

/// G19 before the first decision of its phase 2: BLU's decline.
fn g19_decline() -> (ball::games::gball::Gball, Position) {
    let g = standard();
    let mut pos = blank(&g);
    place(
        &mut pos,
        &[
            ("RED1", "D3", "NE"),
            ("RED4", "D3", "E"),
            ("BLU2", "D3", "W"),
            ("BLU5", "D3", "SW"),
        ],
    );
    loose(&mut pos, "D3", "NE", Some(team("RED")));
    pos.points = [1, 0];
    pos.match_turns = 17;
    pos.prev_winner = Some(team("RED"));
    std::sync::Arc::make_mut(&mut pos.stats)[id("RED1") as usize].streak = 1;
    pos.rng = ball::kernel::rng::SplitMix64::new(0x3c6e_f372_fe94_f82a);
    pos.phase = Phase::Phase2;
    pos.turn = 6;
    ball::games::gball::flow::settle(&g, &mut pos);
    pos.resolution = Some(ball::games::gball::position::Resolution::new(
        ball::games::gball::position::ResKind::Ruck,
        sq("D3"),
    ));
    pos.pending = Some(Pending::Decline(team("BLU")));
    forced(&mut pos, &[3, 4, 5, 2, 2, 4, 6]);
    reread(&g, &pos);
    (g, pos)
}

const G19_JSON: &str = r#"{
  "game": "gball",
  "score": {"sets": {"BLU": 0, "RED": 0}, "points": {"BLU": 0, "RED": 1}},
  "turn": 6,
  "match_turns": 17,
  "phase": "phase2",
  "home": "RED",
  "prev_winner": "RED",
  "initiative": "RED",
  "morale": null,
  "demoralised": null,
  "ball": {"at": "D3", "dir": "NE", "spin": false, "holder": null, "possession": "RED"},
  "players": [
    {"id": "BLU2", "stars": "T", "veteran": false, "at": "D3", "facing": "W",
     "out": null, "misses": 0,
     "set_stats": {"streak": 0, "catches": 0, "caught": 0, "tackles": 1, "won": 0}},
    {"id": "BLU8", "stars": "", "veteran": true, "at": null, "facing": null,
     "out": null, "misses": 0,
     "set_stats": {"streak": 0, "catches": 0, "caught": 0, "tackles": 0, "won": 0}},
    {"id": "RED1", "stars": "JC", "veteran": false, "at": "D3", "facing": "NE",
     "out": null, "misses": 0,
     "set_stats": {"streak": 1, "catches": 0, "caught": 0, "tackles": 1, "won": 1}}
  ],
  "resolution": {
    "kind": "ruck",
    "square": "D3",
    "declined": {"BLU": [], "RED": []},
    "receivers": {"BLU": ["BLU2"], "RED": ["RED1"]},
    "blocks": [["BLU5", "RED1"], ["RED4", "BLU2"]],
    "tackles": [
      {"kind": "block", "players": ["BLU2", "RED4"], "rolls": [4, 4]},
      {"kind": "block", "players": ["RED1", "BLU5"], "rolls": [5, 3]}
    ],
    "catchers": [],
    "turned": []
  },
  "turn_flags": {"lost_tackle": ["BLU5"], "failed_catch": []},
  "pending": {"kind": "catch", "team": "RED"},
  "rng": "3c6ef372fe94f82a",
  "dice": [2, 4, 6],
  "winner": null
}"#;

#[test]
fn g19_worked_example_step_by_step() {
    let (g, mut pos) = g19_decline();
    // Step 1: D3 is the tackle square: no team-mate turns, so the first
    // decision is BLU's decline (step 2).
    let l = legal(&g, &pos);
    assert_eq!(l.len(), 4, "{l:?}"); // none, BLU2, BLU5, both
    assert!(l.contains(&"decline none".to_string()));
    let ev = play(&g, &mut pos, &["decline none"]);
    assert_eq!(ev, ["act decline none"]);
    assert_eq!(pos.pending, Some(Pending::Decline(team("RED"))));
    let ev = play(&g, &mut pos, &["decline none"]);
    assert_eq!(ev, ["act decline none"]);
    // Step 3: receivers, BLU first.
    assert_eq!(
        legal(&g, &pos),
        [
            "receivers BLU2",
            "receivers BLU2 BLU5",
            "receivers BLU5",
            "receivers none"
        ]
    );
    play(&g, &mut pos, &["receivers BLU2"]);
    assert_eq!(pos.pending, Some(Pending::Receivers(team("RED"))));
    // Steps 4–5: the allocations are automatic, then the blocks by
    // receiver id.
    let ev = play(&g, &mut pos, &["receivers RED1"]);
    assert_eq!(
        ev,
        [
            "act receivers RED1",
            "auto block BLU5 RED1",
            "auto block RED4 BLU2",
            "roll tackle BLU2 3",
            "roll tackle RED4 4",
            "tackle BLU2 4 RED4 4 fumble",
            "roll tackle RED1 5",
            "roll tackle BLU5 2",
            "tackle RED1 5 BLU5 3 RED1",
        ]
    );
    // Step 6: RED's catch decision is the notation's JSON example.
    assert_eq!(legal(&g, &pos), ["catch RED1", "catch none"]);
    let mine: Value = serde_json::from_str(&json::write(&pos)).unwrap();
    let want: Value = serde_json::from_str(G19_JSON).unwrap();
    for (k, v) in want.as_object().unwrap() {
        if k == "players" {
            for p in v.as_array().unwrap() {
                let got = mine["players"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|q| q["id"] == p["id"])
                    .unwrap();
                assert_eq!(got, p, "player {}", p["id"]);
            }
        } else {
            assert_eq!(&mine[k], v, "field {k}");
        }
    }
    // Steps 6–9: the first trace of the notation.
    let ev = play(&g, &mut pos, &["catch RED1"]);
    assert_eq!(
        ev,
        [
            "act catch RED1",
            "roll catch RED1 2",
            "catch RED1 3 ok",
            "roll accident BLU2 4",
            "roll accident RED4 6",
            "turned RED4 SE",
        ]
    );
    assert_eq!(
        legal(&g, &pos),
        ["turn RED1 BLU5 left", "turn RED1 BLU5 none"],
        "right would make BLU5 face W like BLU2"
    );
    let ev = play(&g, &mut pos, &["turn RED1 BLU5 left"]);
    assert_eq!(ev, ["act turn RED1 BLU5 left", "turned BLU5 S"]);
    assert_eq!(
        legal(&g, &pos),
        [
            "turn RED1 RED1 left",
            "turn RED1 RED1 none",
            "turn RED1 RED1 right"
        ]
    );
    play(&g, &mut pos, &["turn RED1 RED1 none"]);
    let acts = legal(&g, &pos);
    assert!(acts.contains(&"handoff RED1 RED4".to_string()), "{acts:?}");
    assert!(acts.contains(&"throw RED1 E".to_string()));
    let ev = play(&g, &mut pos, &["throw RED1 E"]);
    assert_eq!(
        &ev[..3],
        ["act throw RED1 E", "phase 3 RED", "ball D3 E3 E"]
    );
}

#[test]
fn trace_g19_ruck_from_the_json_example() {
    // The same, started from the notation's JSON example itself (with the
    // players it leaves out on the bench).
    let (g, mut pos) = g19_decline();
    play(
        &g,
        &mut pos,
        &[
            "decline none",
            "decline none",
            "receivers BLU2",
            "receivers RED1",
        ],
    );
    let ev = play(
        &g,
        &mut pos,
        &[
            "catch RED1",
            "turn RED1 BLU5 left",
            "turn RED1 RED1 none",
            "throw RED1 E",
        ],
    );
    let trace = lines(
        "act catch RED1
         roll catch RED1 2
         catch RED1 3 ok
         roll accident BLU2 4
         roll accident RED4 6
         turned RED4 SE
         act turn RED1 BLU5 left
         turned BLU5 S
         act turn RED1 RED1 none
         act throw RED1 E
         phase 3 RED
         ball D3 E3 E",
    );
    assert_eq!(&ev[..trace.len()], &trace[..]);
}

#[test]
fn trace_spinball() {
    let g = standard();
    let mut pos = blank(&g);
    // Turn 7, phase 1: RED3 jumps from A1 to B2; RED1 moves B3 → C3.
    place(
        &mut pos,
        &[
            ("RED1", "B3", "E"),
            ("RED3", "A1", "NE"),
            ("BLU2", "G6", "N"),
        ],
    );
    held(&mut pos, "RED1");
    ready(&g, &mut pos, Phase::Phase1, 7, Pending::Move(id("RED3")));
    forced(&mut pos, &[2, 1]);
    let mut ev = play(&g, &mut pos, &["move RED3 NE"]);
    ev.extend(play(
        &g,
        &mut pos,
        &[
            "spin RED1",
            "move BLU2 SW",
            "catch RED3",
            "throw RED3 E",
            "catch RED1",
        ],
    ));
    let trace = lines(
        "phase 2 RED
         act spin RED1
         turn 8
         phase 1 RED
         act move BLU2 SW
         moved BLU2 G6 F5
         moved RED3 B2 C3
         moved RED1 C3 D3
         phase 2 RED
         act catch RED3
         roll catch RED3 2
         catch RED3 3 ok
         act throw RED3 E
         phase 3 RED
         ball C3 D3 E
         phase 4 RED
         act catch RED1
         roll catch RED1 1
         catch RED1 2 miss
         turn 9",
    );
    assert_eq!(from_first(&ev, &trace), &trace[..]);
}

/// The maul of the carrier-fumble trace, at RED6's phase-1 decision on
/// A1 (he is far from the ball; the trace does not name him).
#[test]
fn trace_carrier_fumble() {
    let g = standard();
    let mut pos = blank(&g);
    place(
        &mut pos,
        &[
            ("RED1", "C4", "E"),
            ("BLU2", "D4", "W"),
            ("BLU4", "E5", "SW"),
            ("BLU5", "D4", "NW"),
            ("RED6", "A1", "E"),
        ],
    );
    held(&mut pos, "RED1");
    ready(&g, &mut pos, Phase::Phase1, 4, Pending::Move(id("RED6")));
    forced(&mut pos, &[3, 2, 2, 2, 6, 3, 4, 2, 6]);
    let mut ev = play(&g, &mut pos, &["stay RED6"]);
    ev.extend(play(&g, &mut pos, &["decline none"]));
    let trace = lines(
        "phase 2 RED
         act decline none
         auto decline none
         roll tackle RED1 3
         roll tackle BLU2 2
         roll tackle BLU4 2
         roll tackle BLU5 2
         tackle RED1 3 BLU2 3 fumble
         tackle RED1 3 BLU4 2 RED1
         tackle RED1 3 BLU5 3 fumble
         roll injury BLU4 6
         injury BLU4 severe
         roll games BLU4 3
         games BLU4 3
         out BLU4 match injury
         roll foul RED1 4
         foul RED1 foul
         out RED1 sinbin foul
         roll pick - 2
         roll fumble RED1 6
         fumble NE
         phase 3 RED
         ball D4 E5 NE
         phase 4 RED",
    );
    assert_eq!(from_first(&ev, &trace), &trace[..]);
}

#[test]
fn trace_fouled_carrier_final_act() {
    let g = standard();
    let mut pos = blank(&g);
    place(
        &mut pos,
        &[
            ("RED1", "C4", "E"),
            ("RED3", "D4", "NE"),
            ("RED6", "D4", "SE"),
            ("BLU2", "D4", "W"),
            ("BLU4", "E5", "SW"),
            ("BLU6", "D4", "NW"),
            ("RED7", "A1", "E"),
        ],
    );
    held(&mut pos, "RED1");
    ready(&g, &mut pos, Phase::Phase1, 9, Pending::Move(id("RED7")));
    forced(&mut pos, &[3, 4, 2, 5, 4, 1, 1, 4, 3, 1, 4]);
    let mut ev = play(&g, &mut pos, &["stay RED7"]);
    ev.extend(play(
        &g,
        &mut pos,
        &[
            "decline none",
            "decline none",
            "block RED3 BLU2",
            "block RED6 BLU6",
        ],
    ));
    assert_eq!(
        legal(&g, &pos),
        ["turn RED6 BLU6 none", "turn RED6 BLU6 right"],
        "left is illegal: BLU2 faces W"
    );
    ev.extend(play(&g, &mut pos, &["turn RED6 BLU6 right"]));
    assert_eq!(
        legal(&g, &pos),
        [
            "turn RED6 RED6 left",
            "turn RED6 RED6 none",
            "turn RED6 RED6 right"
        ],
        "the leaving RED1's E does not stop left"
    );
    ev.extend(play(
        &g,
        &mut pos,
        &["turn RED6 RED6 none", "handoff RED1 RED6", "keep RED6"],
    ));
    let trace = lines(
        "phase 2 RED
         act decline none
         act decline none
         act block RED3 BLU2
         act block RED6 BLU6
         roll tackle BLU2 3
         roll tackle RED3 4
         tackle BLU2 4 RED3 4 fumble
         roll tackle BLU6 2
         roll tackle RED6 5
         tackle BLU6 2 RED6 5 RED6
         roll tackle RED1 4
         roll tackle BLU4 1
         tackle RED1 4 BLU4 1 RED1
         roll injury BLU4 1
         injury BLU4 stunned
         out BLU4 point injury
         roll foul RED1 4
         foul RED1 foul
         out RED1 sinbin foul
         roll accident BLU2 3
         roll accident RED3 1
         turned RED3 N
         act turn RED6 BLU6 right
         turned BLU6 N
         act turn RED6 RED6 none
         act handoff RED1 RED6
         roll catch RED6 4
         catch RED6 4 ok
         phase 3 RED
         phase 4 RED
         act keep RED6
         turn 10",
    );
    assert_eq!(from_first(&ev, &trace), &trace[..]);
}

#[test]
fn trace_empty_court() {
    let g = standard();
    let mut pos = blank(&g);
    // Turn 30, phase 4: RED2 holds on G3; BLU1 on I3. Both move onto H3.
    place(&mut pos, &[("RED2", "G3", "E"), ("BLU1", "I3", "W")]);
    held(&mut pos, "RED2");
    pos.points = [2, 1];
    pos.prev_winner = Some(team("RED"));
    pos.ball_start = Some((sq("F1"), dir("NE")));
    pos.match_turns = 139;
    ready(&g, &mut pos, Phase::Phase4, 30, Pending::Act(id("RED2")));
    forced(&mut pos, &[3, 1, 4, 6]);
    let mut ev = play(&g, &mut pos, &["keep RED2"]);
    assert_eq!(pos.match_turns, 140);
    ev.extend(play(&g, &mut pos, &["decline none", "spin RED2"]));
    let trace = lines(
        "phase 2 RED
         act decline none
         auto decline none
         roll tackle RED2 3
         roll tackle BLU1 1
         tackle RED2 4 BLU1 1 RED2
         roll injury BLU1 4
         injury BLU1 minor
         out BLU1 set injury
         roll foul RED2 6
         foul RED2 serious
         out RED2 match foul
         act spin RED2
         dead
         newpoint RED
         entry F1 NE",
    );
    assert_eq!(from_first(&ev, &trace), &trace[..]);
    assert_eq!(ev.last().unwrap(), "entry F1 NE");
    assert_eq!(pos.match_turns, 141);
    assert_eq!(pos.points, [2, 1]);
    assert_eq!(pos.prev_winner, Some(team("RED")));
    assert!(is_place(&pos));
}

#[test]
fn trace_set_won_at_a_neutral_venue() {
    let mut g = with(|p| p.venue = ball::games::gball::Venue::Neutral);
    g.teams = ball::games::gball::teams::parse(
        "t",
        r#"{"RED": [{"number": 1, "stars": "JC"}], "BLU": [{"number": 3, "stars": "C"}]}"#,
    )
    .unwrap();
    let mut pos = blank(&g);
    place(&mut pos, &[("RED1", "J3", "E"), ("BLU3", "H1", "N")]);
    held(&mut pos, "RED1");
    pos.points = [3, 1];
    pos.prev_winner = Some(team("RED"));
    pos.home = Some(team("RED"));
    ready(&g, &mut pos, Phase::Phase4, 11, Pending::Act(id("RED1")));
    forced(&mut pos, &[2, 5]);
    let mut ev = play(&g, &mut pos, &["keep RED1"]);
    ev.extend(play(
        &g,
        &mut pos,
        &["stay BLU3", "place RED1 E6", "place BLU3 G1"],
    ));
    let trace = lines(
        "phase 1 RED
         act stay BLU3
         moved RED1 J3 K3
         score RED1 K3
         set RED
         roll coin - 2
         coin BLU
         newpoint BLU
         act place RED1 E6
         act place BLU3 G1
         roll entry - 5
         entry F6 S
         turn 1
         phase 1 BLU",
    );
    assert_eq!(from_first(&ev, &trace), &trace[..]);
    assert_eq!(pos.sets, [1, 0]);
    assert_eq!(pos.points, [0, 0]);
}

/// The text board of G19's catch decision (docs/gball.md shows it).
#[test]
fn show_board_of_the_g19_catch() {
    use ball::kernel::game::Title;
    let (g, mut pos) = g19_decline();
    play(
        &g,
        &mut pos,
        &[
            "decline none",
            "decline none",
            "receivers BLU2",
            "receivers RED1",
        ],
    );
    let board = g.show(&pos);
    let lines: Vec<&str> = board.lines().collect();
    assert_eq!(
        lines[0],
        "G-ball   sets RED 0 - BLU 0   points RED 1 - BLU 0   turn 6 (17 played)   phase2   initiative RED"
    );
    assert_eq!(
        lines[2],
        "       A     B     C     D     E     F     G     H     I     J     K"
    );
    assert_eq!(
        lines[6],
        "  3   |R|    .     .   R2B2o   .     n     .     .     .     .    |B|"
    );
    assert!(lines.contains(&"ball: loose on D3, moving NE; possession RED"));
    assert!(lines.contains(&"D3: BLU2 W T, BLU5 SW T, RED1 NE JC, RED4 E J"));
    assert_eq!(*lines.last().unwrap(), "to decide: catch, RED");
}
