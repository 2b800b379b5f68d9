//! The position JSON: the canonical writer, and a malformed corpus — each
//! position refused with a reason naming the field and a rule, none
//! panicking — built by editing one field of a valid position.

use ball::games::gball::{Gball, json};
use ball::kernel::rng::SplitMix64;
use serde_json::{Value, json};

use crate::gball_support::*;

fn base() -> Value {
    let text = include_str!("gball/mid-act.json");
    serde_json::from_str(text).unwrap()
}

fn read(g: &Gball, v: &Value) -> Result<(), String> {
    json::read(g, &v.to_string())
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Sets (or with `None` removes) the value at a JSON pointer.
fn edit(v: &mut Value, pointer: &str, new: Option<Value>) {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    let target = if parent.is_empty() {
        &mut *v
    } else {
        v.pointer_mut(parent).unwrap()
    };
    match (target, new) {
        (Value::Object(m), Some(n)) => {
            m.insert(key.to_string(), n);
        }
        (Value::Object(m), None) => {
            m.remove(key);
        }
        (Value::Array(a), Some(n)) => a[key.parse::<usize>().unwrap()] = n,
        _ => panic!("{pointer}"),
    }
}

#[test]
fn the_base_position_is_valid_and_canonical() {
    let g = standard();
    let text = include_str!("gball/mid-act.json");
    let pos = json::read(&g, text).unwrap();
    assert_eq!(
        json::write(&pos),
        text,
        "the writer's layout is the fixture's"
    );
}

#[test]
fn malformed_positions_name_the_field_and_the_rule() {
    let g = standard();
    assert!(read(&g, &base()).is_ok());
    let cases: Vec<(&str, Option<Value>, &str)> = vec![
        ("/game", None, "game: missing"),
        ("/game", Some(json!("ball")), "game:"),
        ("/score/sets/RED", Some(json!("x")), "score.sets.RED:"),
        ("/turn", Some(json!(-1)), "turn:"),
        ("/phase", Some(json!("phase3")), "phase:"),
        ("/home", Some(json!("GRN")), "home:"),
        ("/players/0/id", Some(json!("RED0")), "players[0].id:"),
        ("/players/0/id", Some(json!("RED1")), "players"),
        ("/players/1/id", Some(json!("BLU1")), "players[1].id:"),
        (
            "/players/0/stars",
            Some(json!("CJ")),
            "players[0].stars: \"CJ\" is not a subset of JCT",
        ),
        (
            "/players/8/stars",
            Some(json!("T")),
            "players[8].stars: a veteran has no stars (G2.2)",
        ),
        ("/players/0/at", Some(json!("L1")), "players[0].at:"),
        ("/players/0/facing", Some(Value::Null), "players[0].facing:"),
        ("/players/2/facing", Some(json!("N")), "players[2].facing:"),
        ("/players/0/out", Some(json!("hurt")), "players[0].out:"),
        ("/players/0/out", Some(json!("point")), "players[0].out:"),
        ("/players/0/misses", Some(json!(-1)), "players[0].misses:"),
        (
            "/players/0/set_stats",
            None,
            "players[0].set_stats: missing",
        ),
        (
            "/players/0/set_stats/won",
            Some(json!(1.5)),
            "players[0].set_stats.won:",
        ),
        (
            "/players/2",
            Some(
                json!({"id": "BLU3", "stars": "C", "veteran": false, "at": "B2", "facing": "N",
                        "out": null, "misses": 0,
                        "set_stats": {"streak": 0, "catches": 0, "caught": 0, "tackles": 0, "won": 0}}),
            ),
            "players: 6 BLU players on court",
        ),
        ("/pending", Some(Value::Null), "pending:"),
        ("/pending/kind", Some(json!("move")), "pending.kind:"),
        ("/pending/kind", Some(json!("jump")), "pending.kind:"),
        ("/pending/team", Some(json!("BLU")), "pending.player:"),
        ("/pending/player", Some(json!("RED3")), "pending.player:"),
        ("/winner", Some(json!("RED")), "winner:"),
        ("/turn", Some(json!(0)), "turn:"),
        ("/initiative", Some(Value::Null), "initiative:"),
        ("/home", Some(Value::Null), "home:"),
        ("/morale", Some(json!({"BLU": 1, "RED": 1})), "morale:"),
        ("/demoralised", Some(json!("BLU")), "demoralised:"),
        (
            "/resolution/square",
            Some(json!("D3")),
            "resolution.square:",
        ),
        ("/resolution/kind", Some(json!("scrum")), "resolution.kind:"),
        (
            "/resolution/catchers",
            Some(json!(["RED9", "RED9"])),
            "resolution.catchers:",
        ),
        (
            "/ball/holder",
            Some(json!("BLU3")),
            "pending.player: the act's player is the holder (G10.1)",
        ),
        ("/ball/holder", Some(json!("RED5")), "pending.player:"),
        ("/ball/possession", Some(json!("BLU")), "ball.possession:"),
        ("/ball/dir", Some(json!("N")), "ball:"),
        ("/ball/spin", Some(json!("no")), "ball.spin:"),
        ("/rng", Some(json!("XYZ")), "rng:"),
        ("/rng", Some(json!("3C6EF372FE94F82A")), "rng:"),
        ("/dice", Some(json!([0])), "dice[0]:"),
        ("/dice", Some(json!(["a"])), "dice[0]:"),
        (
            "/turn_flags/lost_tackle",
            Some(json!(["RED1", "BLU1"])),
            "turn_flags.lost_tackle:",
        ),
        (
            "/turn_flags/lost_tackle",
            Some(json!(["RED0"])),
            "turn_flags.lost_tackle[0]:",
        ),
        (
            "/ball_start",
            Some(json!({"at": "F3", "dir": "N"})),
            "ball_start:",
        ),
    ];
    for (pointer, new, want) in cases {
        let mut v = base();
        edit(&mut v, pointer, new.clone());
        let e = read(&g, &v).expect_err(&format!("{pointer} = {new:?} was accepted"));
        assert!(e.starts_with(want), "{pointer} = {new:?}: {e}");
        assert!(
            e.contains("(G")
                || e.contains("gball-notation")
                || e.contains("must be")
                || e.contains("not JSON"),
            "no rule: {e}"
        );
        assert!(!e.contains('\n'), "{e}");
    }
}

#[test]
fn malformed_positions_between_fields() {
    let g = standard();
    // A moving ball pointing along the wall (G6.2).
    let mut v = base();
    edit(
        &mut v,
        "/ball",
        Some(json!({"at": "C1", "dir": "E", "spin": false, "holder": null, "possession": "RED"})),
    );
    edit(&mut v, "/resolution", Some(Value::Null));
    edit(
        &mut v,
        "/pending",
        Some(json!({"kind": "catch", "team": "RED"})),
    );
    let e = read(&g, &v).unwrap_err();
    assert!(
        e.starts_with("ball.dir:") || e.starts_with("pending.kind:"),
        "{e}"
    );
    // A decision with one legal action is never a resting position
    // (G5.4): RED9 alone on his square, left with only `spin`? No: make
    // the catch decision of a player who already tried.
    let mut v = base();
    edit(
        &mut v,
        "/ball",
        Some(json!({"at": "F3", "dir": "E", "spin": false, "holder": null, "possession": null})),
    );
    edit(
        &mut v,
        "/pending",
        Some(json!({"kind": "catch", "team": "RED"})),
    );
    let e = read(&g, &v).unwrap_err();
    assert!(e.starts_with("pending:") && e.contains("G5.4"), "{e}");
    // In placement a player stands on his own half's wall, facing forward.
    let start = g.start(0);
    let mut v: Value = serde_json::from_str(&json::write(&start)).unwrap();
    edit(&mut v, "/players/0/at", Some(json!("J3")));
    edit(&mut v, "/players/0/facing", Some(json!("W")));
    let e = read(&g, &v).unwrap_err();
    assert!(e.starts_with("players[0].at:") && e.contains("G4.3"), "{e}");
    // A final position has every player off court.
    let mut over = start.clone();
    ball::games::gball::flow::finish(&mut over, ball::games::gball::position::Winner::Draw);
    assert!(json::read(&g, &json::write(&over)).is_ok());
    let mut v: Value = serde_json::from_str(&json::write(&over)).unwrap();
    edit(&mut v, "/players/0/at", Some(json!("K1")));
    edit(&mut v, "/players/0/facing", Some(json!("W")));
    let e = read(&g, &v).unwrap_err();
    assert!(e.contains("G3.7"), "{e}");
    // Not JSON, and too long.
    assert!(
        json::read(&g, "{")
            .unwrap_err()
            .to_string()
            .starts_with("(json): not JSON")
    );
    let long = " ".repeat(json::MAX_BYTES + 1);
    assert!(json::read(&g, &long).is_err());
}

/// Random damage to valid positions: refused or read, never a panic.
#[test]
fn damaged_positions_never_panic() {
    let g = standard();
    let texts: Vec<String> = [
        "act",
        "block",
        "catch",
        "decline",
        "move",
        "receivers",
        "turn",
    ]
    .iter()
    .map(|k| {
        std::fs::read_to_string(format!(
            "{}/tests/gball/mid-{k}.json",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    })
    .collect();
    let mut rng = SplitMix64::new(11);
    let mut accepted = 0;
    let pool = [
        json!(null),
        json!(0),
        json!(-3),
        json!(9999999999u64),
        json!("RED1"),
        json!("K6"),
        json!("N"),
        json!([]),
        json!({}),
        json!(true),
        json!(["BLU1", "RED1"]),
    ];
    for round in 0..3000 {
        let mut v: Value = serde_json::from_str(&texts[round % texts.len()]).unwrap();
        for _ in 0..1 + rng.below(3) {
            damage(&mut v, &mut rng, &pool);
        }
        // A damaged position the reader accepts is one the engine plays
        // on: every legal action applies without a panic.
        if let Ok(pos) = json::read(&g, &v.to_string()) {
            accepted += 1;
            for a in g.legal(&pos) {
                let mut p = pos.clone();
                let _ = g.play(&mut p, a, &mut Vec::new());
            }
        }
    }
    assert!(
        accepted > 50,
        "only {accepted} damaged positions were readable"
    );
    // Byte-level damage too.
    for round in 0..2000 {
        let mut b = texts[round % texts.len()].clone().into_bytes();
        let i = rng.below(b.len());
        b[i] = b"{}[]\",:0aZ \n"[rng.below(12)];
        if let Ok(s) = String::from_utf8(b) {
            let _ = json::read(&g, &s);
        }
    }
}

fn damage(v: &mut Value, rng: &mut SplitMix64, pool: &[Value]) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            let keys: Vec<String> = m.keys().cloned().collect();
            let k = &keys[rng.below(keys.len())];
            match rng.below(4) {
                0 => {
                    m.remove(k);
                }
                1 => {
                    m.insert(k.clone(), pool[rng.below(pool.len())].clone());
                }
                _ => damage(m.get_mut(k).unwrap(), rng, pool),
            }
        }
        Value::Array(a) if !a.is_empty() => {
            let i = rng.below(a.len());
            match rng.below(4) {
                0 => {
                    a.remove(i);
                }
                1 => a[i] = pool[rng.below(pool.len())].clone(),
                _ => damage(&mut a[i], rng, pool),
            }
        }
        other => *other = pool[rng.below(pool.len())].clone(),
    }
}

/// Every refusal of the damaged corpus names a rule or the notation.
#[test]
fn every_refusal_names_a_rule() {
    let g = standard();
    let text = include_str!("gball/mid-move.json");
    let mut rng = SplitMix64::new(12);
    let pool = [json!(null), json!(7), json!("X"), json!([1]), json!({})];
    for _ in 0..1500 {
        let mut v: Value = serde_json::from_str(text).unwrap();
        damage(&mut v, &mut rng, &pool);
        if let Err(e) = json::read(&g, &v.to_string()) {
            let e = e.to_string();
            assert!(e.contains("(G") || e.contains("(gball-notation.md"), "{e}");
            assert!(!e.contains('\n'), "{e}");
        }
    }
}

/// How many damaged positions the reader accepts is itself checked above;
/// here each accepted one is played on for a whole random stretch.
#[test]
fn accepted_damaged_positions_play_on() {
    use ball::kernel::game::Game;
    let g = standard();
    let texts: Vec<String> = [
        "act",
        "block",
        "catch",
        "decline",
        "move",
        "receivers",
        "turn",
    ]
    .iter()
    .map(|k| {
        std::fs::read_to_string(format!(
            "{}/tests/gball/mid-{k}.json",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    })
    .collect();
    let mut rng = SplitMix64::new(13);
    let pool = [
        json!(null),
        json!(0),
        json!(1),
        json!("RED2"),
        json!("BLU4"),
        json!("C3"),
        json!("NE"),
        json!(true),
    ];
    let mut legal = Vec::new();
    for round in 0..1500 {
        let mut v: Value = serde_json::from_str(&texts[round % texts.len()]).unwrap();
        damage(&mut v, &mut rng, &pool);
        let Ok(mut pos) = json::read(&g, &v.to_string()) else {
            continue;
        };
        for _ in 0..300 {
            g.legal_into(&pos, &mut legal);
            if legal.is_empty() {
                break;
            }
            let a = legal[rng.below(legal.len())];
            if g.play(&mut pos, a, &mut Vec::new()).is_err() {
                break;
            }
        }
    }
}
