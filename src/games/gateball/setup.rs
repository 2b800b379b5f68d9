//! Setups (`docs/rules/gateball-notation.md`, "Rulesets and setups (TOML)"; T2.2–T2.4,
//! T14.5): who plays, on which side, and which side goes first — and
//! [`create`], which turns a ruleset, a court and a setup into a game.
//!
//! ```toml
//! first = "coin"            # "a" (default), "b" or "coin"
//! [a]
//! players = ["Ann", "Bob"]
//! [b]
//! players = ["Cy"]
//! [a.slots]                 # optional: each player's balls by team slot
//! Ann = [1, 3, 5]
//! Bob = [2, 4]
//! ```

use std::path::Path;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::court::Court;
use super::court_file::first;
use super::event::{Event, PlayKind, Side};
use super::position::{Position, Team};
use super::{First, Gateball, Player, Rules, Setup};
use crate::diagnostic::Problem;
use crate::games::ball::ruleset::type_name;
use crate::kernel::rng::SplitMix64;
use crate::toml_doc::{Doc, unknown};

/// Where shipped setups live, under the data root.
pub const SETUPS_DIR: &str = "setups";

/// The top-level keys of a setup file (`description` is optional, one
/// line, and only for people).
pub const KEYS: &[&str] = &["first", "a", "b", "description"];

/// The keys of a side's table, `[a]` or `[b]`.
pub const SIDE_KEYS: &[&str] = &["players", "slots"];

/// The values of `first` (T2.3).
pub const FIRST_VALUES: &[&str] = &["a", "b", "coin"];

/// The longest player name, in characters.
pub const MAX_NAME: usize = 32;

/// The setup of the file `file` (as messages name it) with text `text`,
/// or every problem it has, in line order.
pub fn parse(file: &str, text: &str) -> Result<Setup, Vec<Problem>> {
    let (mut doc, table) = Doc::parse(file, text);
    let setup = fields(&mut doc, &table);
    match setup {
        Some(s) if doc.problems.is_empty() => Ok(s),
        _ => Err(doc.finish()),
    }
}

/// Reads and parses the setup file at `path`, named `shown` in messages.
pub fn read(path: &Path, shown: &str) -> Result<Setup, Vec<Problem>> {
    // Bounded, and never a FIFO or a device.
    match crate::files::read_text(path, crate::files::MAX_RULESET) {
        Ok(text) => parse(shown, &text),
        Err(e) => Err(vec![Problem::new(
            shown,
            None,
            format!("cannot read the setup file: {e}"),
        )]),
    }
}

/// Every problem of the setup file at `path` (named as given); empty when
/// it is valid.
pub fn check(path: &Path) -> Vec<Problem> {
    read(path, &path.display().to_string())
        .err()
        .unwrap_or_default()
}

/// The setup of the file at `path`, or its first problem as one line.
pub fn load(path: &Path) -> Result<Setup, String> {
    // `--setup -`: standard input, read as every `-` is (`files::read_input`).
    if path.as_os_str() == "-" {
        let shown = "standard input";
        let text = crate::files::read_input(path, crate::files::MAX_RULESET)
            .map_err(|e| format!("{shown}: cannot read the setup file: {e}"))?;
        return parse(shown, &text).map_err(first);
    }
    read(path, &path.display().to_string()).map_err(first)
}

fn fields(doc: &mut Doc, table: &DeTable) -> Option<Setup> {
    doc.unknown_keys(table, KEYS, "key");
    let mut ok = true;
    if let Some(v) = table.get("description") {
        ok &= doc.line_string("description", v).is_some();
    }
    let first = match table.get("first") {
        None => First::Side(Side::A),
        Some(v) => match doc.string("first", v) {
            Some("a") => First::Side(Side::A),
            Some("b") => First::Side(Side::B),
            Some("coin") => First::Coin,
            Some(other) => {
                let near = unknown("value", other, FIRST_VALUES);
                doc.problem(
                    v.span().start,
                    format!("`first` must be \"a\", \"b\" or \"coin\" (T2.3): {near}"),
                );
                return None;
            }
            None => return None,
        },
    };
    let default = Setup::default();
    let mut sides = Vec::new();
    for (side, key) in [(Side::A, "a"), (Side::B, "b")] {
        let players = match table.get(key) {
            None => Some((
                match side {
                    Side::A => default.a.clone(),
                    Side::B => default.b.clone(),
                },
                None,
            )),
            Some(v) => doc
                .table(key, v, &format!("[{key}] with `players`"))
                .and_then(|t| side_table(doc, key, v.span().start, t))
                .map(|(players, at)| (players, Some(at))),
        };
        match players {
            Some(p) => sides.push((side, p)),
            None => ok = false,
        }
    }
    if !ok || sides.len() != 2 {
        return None;
    }
    // Names are unique over both sides, a left-out side's default player
    // included (T2.2).
    let mut seen: Vec<(&str, Side, Option<usize>)> = Vec::new();
    for (side, (players, at)) in &sides {
        for (i, (name, _)) in players.iter().enumerate() {
            let here = at.as_ref().map(|a| a[i]);
            if let Some((_, other, first)) = seen.iter().find(|(n, _, _)| n == name) {
                let (offset, message) = match (here, first) {
                    (Some(h), Some(f)) => (
                        h,
                        format!(
                            "player name {name:?} is used twice (first on line {}) (T2.2)",
                            doc.line(*f)
                        ),
                    ),
                    // One of the two is a left-out side's default player.
                    (at, _) => {
                        let default = if at.is_none() { side } else { other };
                        (
                            at.or(*first).unwrap_or(0),
                            format!(
                                "player name {name:?} is also side {d}'s default player, \
as the setup leaves side {d} out: names are unique (T2.2)",
                                d = default.name()
                            ),
                        )
                    }
                };
                doc.problem(offset, message);
                ok = false;
            } else {
                seen.push((name, *side, here));
            }
        }
    }
    if !ok {
        return None;
    }
    let [(_, (a, _)), (_, (b, _))] = <[_; 2]>::try_from(sides).ok()?;
    Some(Setup { a, b, first })
}

/// `[a]` or `[b]`: its players (with their slots, when `[a.slots]`
/// gives them) and where each name was written.
#[allow(clippy::type_complexity)]
fn side_table(
    doc: &mut Doc,
    key: &str,
    at: usize,
    t: &DeTable,
) -> Option<(Vec<(String, Vec<u8>)>, Vec<usize>)> {
    doc.unknown_keys(t, SIDE_KEYS, &format!("key in [{key}]"));
    let Some(list) = t.get("players") else {
        doc.missing(
            at,
            "players",
            &format!(" in [{key}] (its players' names, one to five, T2.2)"),
        );
        return None;
    };
    let items = doc.array("players", list, "player names")?;
    let mut players: Vec<(String, Vec<u8>)> = Vec::new();
    let mut offsets = Vec::new();
    let mut ok = true;
    for item in items {
        let o = item.span().start;
        match item.get_ref().as_str() {
            Some(name) => {
                let trimmed = name.trim();
                if trimmed.is_empty()
                    || trimmed != name
                    || name.chars().count() > MAX_NAME
                    || name.chars().any(char::is_control)
                {
                    doc.problem(
                        o,
                        format!(
                            "player name {name:?}: a name is 1–{MAX_NAME} characters on one \
line, without leading or trailing spaces"
                        ),
                    );
                    ok = false;
                }
                players.push((name.to_string(), Vec::new()));
                offsets.push(o);
            }
            None => {
                doc.problem(
                    o,
                    format!(
                        "`players` must be an array of player names, found {} in it",
                        type_name(item.get_ref())
                    ),
                );
                ok = false;
            }
        }
    }
    if ok && !(1..=5).contains(&players.len()) {
        doc.problem(
            list.span().start,
            format!(
                "side {key} must have 1 to 5 players, found {} (T2.2: every player needs \
one of the team's five balls)",
                players.len()
            ),
        );
        ok = false;
    }
    if let Some(v) = t.get("slots")
        && ok
    {
        let how = format!("[{key}.slots] with each player's slots");
        match doc.table("slots", v, &how) {
            Some(slots) => ok &= assign_slots(doc, key, v, slots, &mut players),
            None => ok = false,
        }
    }
    ok.then_some((players, offsets))
}

/// `[a.slots]`: each player's team slots 1–5; every slot belongs to
/// exactly one player of the side and every player has one (T2.2).
fn assign_slots(
    doc: &mut Doc,
    side: &str,
    value: &Spanned<DeValue>,
    slots: &DeTable,
    players: &mut [(String, Vec<u8>)],
) -> bool {
    let mut ok = true;
    // Who owns each slot, and where it was given.
    let mut owner: [Option<(usize, usize)>; 5] = [None; 5];
    for (key, list) in slots.iter() {
        let name = key.get_ref().as_ref();
        let Some(p) = players.iter().position(|(n, _)| n == name) else {
            let names: Vec<&str> = players.iter().map(|(n, _)| n.as_str()).collect();
            doc.problem(
                key.span().start,
                format!(
                    "[{side}.slots]: {} (T2.2)",
                    unknown(&format!("player of side {side}"), name, &names)
                ),
            );
            ok = false;
            continue;
        };
        let Some(items) = doc.array(name, list, "slots (1–5)") else {
            ok = false;
            continue;
        };
        for item in items {
            let at = item.span().start;
            let Some(slot) = doc.int(name, item, 1..=5, " (T2.2: a team's slots are 1–5)") else {
                ok = false;
                continue;
            };
            let slot = slot as u8;
            match owner[usize::from(slot - 1)] {
                Some((q, first)) => {
                    let whose = if p == q {
                        format!("to {name:?} twice")
                    } else {
                        format!("to {:?} and to {name:?}", players[q].0)
                    };
                    let line = doc.line(first);
                    doc.problem(
                        at,
                        format!(
                            "slot {slot} of side {side} is given {whose} (first on line {line}): \
each slot belongs to exactly one player (T2.2)"
                        ),
                    );
                    ok = false;
                }
                None => {
                    owner[usize::from(slot - 1)] = Some((p, at));
                    players[p].1.push(slot);
                }
            }
        }
    }
    if !ok {
        return false;
    }
    let at = value.span().start;
    for (i, o) in owner.iter().enumerate() {
        if o.is_none() {
            doc.problem(
                at,
                format!(
                    "[{side}.slots]: slot {} belongs to no player: with slots, every slot 1–5 \
belongs to exactly one player (T2.2)",
                    i + 1
                ),
            );
            ok = false;
        }
    }
    for (name, s) in players.iter_mut() {
        if s.is_empty() {
            doc.problem(
                at,
                format!(
                    "[{side}.slots]: player {name:?} has no slot: every player needs one (T2.2)"
                ),
            );
            ok = false;
        }
        s.sort_unstable();
    }
    ok
}

/// The team's ball in slot `k` (1–5): red 2k − 1, blue 2k.
pub fn slot_ball(team: Team, k: u8) -> u8 {
    match team {
        Team::Red => 2 * k - 1,
        Team::Blue => 2 * k,
    }
}

/// The players of `setup` when side `red` plays red (T2.3), in setup
/// order: side `a`'s, then side `b`'s. A side's players with slots get
/// those slots' balls; the team's other balls, ascending, are dealt
/// round-robin to its players without slots, in the order listed (T2.4).
/// `setup` must be valid ([`parse`] checks it).
pub fn players(setup: &Setup, red: Side) -> Vec<Player> {
    let mut out = Vec::new();
    for (side, list) in [(Side::A, &setup.a), (Side::B, &setup.b)] {
        let team = if side == red { Team::Red } else { Team::Blue };
        let mut players: Vec<Player> = list
            .iter()
            .map(|(name, slots)| Player {
                name: name.clone(),
                team,
                balls: slots.iter().map(|&k| slot_ball(team, k)).collect(),
            })
            .collect();
        let taken: Vec<u8> = players.iter().flat_map(|p| p.balls.clone()).collect();
        let free: Vec<usize> = (0..players.len())
            .filter(|&i| players[i].balls.is_empty())
            .collect();
        if !free.is_empty() {
            let balls = team.balls().filter(|b| !taken.contains(b));
            for (i, ball) in balls.enumerate() {
                players[free[i % free.len()]].balls.push(ball);
            }
        }
        for p in &mut players {
            p.balls.sort_unstable();
        }
        out.extend(players);
    }
    out
}

/// The setup that deals `players` again: red's players as side `a`, who
/// plays first, each with the team slots of its balls. A position's JSON
/// names its players but not the setup file they came from; a game read
/// from it deals the same players in a new game.
pub fn of_players(players: &[Player]) -> Setup {
    let side = |team: Team| -> Vec<(String, Vec<u8>)> {
        players
            .iter()
            .filter(|p| p.team == team)
            .map(|p| (p.name.clone(), p.balls.iter().map(|&b| b.div_ceil(2)).collect()))
            .collect()
    };
    Setup {
        a: side(Team::Red),
        b: side(Team::Blue),
        first: First::Side(Side::A),
    }
}

/// A new game (T2.3, T3.1, T9.1): the RNG starts at `seed` (T4.5); with
/// `first = coin` one 2-sided die decides which side plays red (1 → `a`,
/// 2 → `b`, event `coin`); then turn 1 begins with ball 1's start shot.
/// The position is the start position, its RNG after the coin. `court`
/// and `setup` must be valid.
pub fn create(
    rules: Rules,
    court: Court,
    setup: &Setup,
    seed: u64,
) -> (Gateball, Position, Vec<Event>) {
    let mut rng = SplitMix64::new(seed);
    let mut events = Vec::new();
    let red = match setup.first {
        First::Side(side) => side,
        First::Coin => {
            let side = if rng.die(2) == 1 { Side::A } else { Side::B };
            events.push(Event::Coin(side));
            side
        }
    };
    let game = Gateball {
        rules,
        court,
        players: players(setup, red),
        setup: setup.clone(),
        scripts: Default::default(),
    };
    events.push(Event::Turn(1));
    events.push(Event::Play(1, PlayKind::Start));
    (game, Position::start(rng), events)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(text: &str) -> Setup {
        parse("s.toml", text).unwrap_or_else(|p| panic!("{p:?}"))
    }

    fn problems(text: &str) -> Vec<String> {
        parse("s.toml", text)
            .expect_err("a broken setup")
            .iter()
            .map(Problem::to_string)
            .collect()
    }

    fn balls(game: &Gateball) -> Vec<(&str, Team, Vec<u8>)> {
        game.players
            .iter()
            .map(|p| (p.name.as_str(), p.team, p.balls.clone()))
            .collect()
    }

    /// T2.3: the default setup — "Red" on side a, "Blue" on side b, a first.
    #[test]
    fn t2_3_default_setup() {
        assert_eq!(setup(""), Setup::default());
        let (game, pos, events) = create(Rules::default(), Court::standard(), &Setup::default(), 0);
        assert_eq!(
            balls(&game),
            [
                ("Red", Team::Red, vec![1, 3, 5, 7, 9]),
                ("Blue", Team::Blue, vec![2, 4, 6, 8, 10])
            ]
        );
        assert_eq!(events, [Event::Turn(1), Event::Play(1, PlayKind::Start)]);
        // No coin: the RNG is untouched.
        assert_eq!(pos, Position::start(SplitMix64::new(0)));
    }

    /// T2.3: the side going first plays red; a left-out side keeps its
    /// default player, also when it plays the other colour.
    #[test]
    fn t2_3_first_b_plays_red() {
        let s = setup("first = \"b\"\n[a]\nplayers = [\"Ann\"]\n");
        let (game, _, _) = create(Rules::default(), Court::standard(), &s, 0);
        assert_eq!(
            balls(&game),
            [
                ("Ann", Team::Blue, vec![2, 4, 6, 8, 10]),
                ("Blue", Team::Red, vec![1, 3, 5, 7, 9])
            ]
        );
    }

    /// T2.3, T4.5: the coin is one 2-sided die from the game's RNG. From
    /// seed 0 the first output is 0xE220A8397B1DCDAF, in the upper half:
    /// 2 → side b. From seed 3 it is 1 → side a. The position's RNG is the
    /// state after the coin.
    #[test]
    fn t2_3_coin() {
        let s = setup("first = \"coin\"\n");
        let (game, pos, events) = create(Rules::default(), Court::standard(), &s, 0);
        assert_eq!(events[0], Event::Coin(Side::B));
        assert_eq!(events[0].to_string(), "coin b");
        assert_eq!(
            &events[1..],
            [Event::Turn(1), Event::Play(1, PlayKind::Start)]
        );
        assert_eq!(
            balls(&game),
            [
                ("Red", Team::Blue, vec![2, 4, 6, 8, 10]),
                ("Blue", Team::Red, vec![1, 3, 5, 7, 9])
            ]
        );
        assert_eq!(pos.rng.state(), 0x9E37_79B9_7F4A_7C15);

        let (game, pos, events) = create(Rules::default(), Court::standard(), &s, 3);
        assert_eq!(events[0], Event::Coin(Side::A));
        assert_eq!(game.players[0].team, Team::Red);
        assert_eq!(pos.rng.state(), 3u64.wrapping_add(0x9E37_79B9_7F4A_7C15));
    }

    /// T2.4: two red players are dealt 1 5 9 and 3 7; players are listed
    /// in setup order, side a's first.
    #[test]
    fn t2_4_round_robin() {
        let s = setup(
            "first = \"b\"\n[a]\nplayers = [\"Ann\", \"Bob\", \"Cy\"]\n\
             [b]\nplayers = [\"Di\", \"Ed\"]\n",
        );
        let (game, _, _) = create(Rules::default(), Court::standard(), &s, 0);
        assert_eq!(
            balls(&game),
            [
                ("Ann", Team::Blue, vec![2, 8]),
                ("Bob", Team::Blue, vec![4, 10]),
                ("Cy", Team::Blue, vec![6]),
                ("Di", Team::Red, vec![1, 5, 9]),
                ("Ed", Team::Red, vec![3, 7]),
            ]
        );
        let five = setup("[a]\nplayers = [\"p1\", \"p2\", \"p3\", \"p4\", \"p5\"]\n");
        let (game, _, _) = create(Rules::default(), Court::standard(), &five, 0);
        for (i, p) in game.players[..5].iter().enumerate() {
            assert_eq!(p.balls, [2 * i as u8 + 1]);
        }
    }

    /// T2.2, the notation: slot k is the team's k-th ball, red 2k − 1,
    /// blue 2k; each player's balls ascending.
    #[test]
    fn t2_2_slots() {
        let text = "first = \"coin\"\n[a]\nplayers = [\"Ann\", \"Bob\"]\n[b]\nplayers = [\"Cy\"]\n\
                    [a.slots]\nAnn = [5, 1, 3]\nBob = [2, 4]\n";
        let s = setup(text);
        assert_eq!(
            s.a,
            [
                ("Ann".to_string(), vec![1, 3, 5]),
                ("Bob".to_string(), vec![2, 4])
            ]
        );
        assert_eq!(s.b, [("Cy".to_string(), vec![])]);
        // Seed 3: side a plays red.
        let (game, _, _) = create(Rules::default(), Court::standard(), &s, 3);
        assert_eq!(
            balls(&game),
            [
                ("Ann", Team::Red, vec![1, 5, 9]),
                ("Bob", Team::Red, vec![3, 7]),
                ("Cy", Team::Blue, vec![2, 4, 6, 8, 10]),
            ]
        );
        // Seed 0: side a plays blue.
        let (game, _, _) = create(Rules::default(), Court::standard(), &s, 0);
        assert_eq!(game.players[0].balls, [2, 6, 10]);
        assert_eq!(game.players[1].balls, [4, 8]);
    }

    #[test]
    fn t2_2_setup_problems() {
        let p = problems("frist = \"a\"\n");
        assert_eq!(p, ["s.toml:1: unknown key `frist`; did you mean `first`?"]);
        let p = problems("first = \"coins\"\n");
        assert!(p[0].starts_with("s.toml:1: `first` must be"), "{p:?}");
        assert!(p[0].contains("did you mean `coin`?"), "{p:?}");
        let p = problems("[a]\nplayers = [\"A\", \"B\", \"C\", \"D\", \"E\", \"F\"]\n");
        assert!(p[0].starts_with("s.toml:2: side a must have 1 to 5 players, found 6"));
        let p = problems("[a]\nplayers = []\n");
        assert!(p[0].contains("found 0"), "{p:?}");
        let p = problems("[a]\nplayers = [\"Ann\"]\n[b]\nplayers = [\"Ann\"]\n");
        assert_eq!(
            p,
            ["s.toml:4: player name \"Ann\" is used twice (first on line 2) (T2.2)"]
        );
        let p = problems("[a]\nplayers = [\"Blue\"]\n");
        assert!(p[0].contains("side b's default player"), "{p:?}");
        let p = problems("[a]\nplayer = [\"Ann\"]\n");
        assert!(
            p.iter()
                .any(|m| m
                    .starts_with("s.toml:2: unknown key in [a] `player`; did you mean `players`?")),
            "{p:?}"
        );
        let slots = |body: &str| {
            problems(&format!(
                "[a]\nplayers = [\"Ann\", \"Bob\"]\n[a.slots]\n{body}"
            ))
        };
        let p = slots("Ann = [1, 2, 3]\nBob = [3, 4, 5]\n");
        assert_eq!(
            p,
            [
                "s.toml:5: slot 3 of side a is given to \"Ann\" and to \"Bob\" (first on line 4): \
each slot belongs to exactly one player (T2.2)"
            ]
        );
        let p = slots("Ann = [1, 2, 3]\nBob = [4]\n");
        assert!(p[0].contains("slot 5 belongs to no player"), "{p:?}");
        let p = slots("Ann = [1, 2, 3, 4, 5]\nBob = []\n");
        assert!(p[0].contains("player \"Bob\" has no slot"), "{p:?}");
        let p = slots("Ann = [1, 2, 3, 4, 5]\n");
        assert!(p[0].contains("player \"Bob\" has no slot"), "{p:?}");
        let p = slots("Ann = [1, 2, 3, 6]\nBob = [4, 5]\n");
        assert!(
            p[0].starts_with("s.toml:4: `Ann` must be 1–5, found 6"),
            "{p:?}"
        );
        let p = slots("Anne = [1, 2, 3]\nBob = [4, 5]\n");
        assert!(p[0].contains("did you mean `Ann`?"), "{p:?}");
    }
}
