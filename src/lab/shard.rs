//! Sharded runs: the run header of a `ball sim --out` file, and the merge
//! of shard files back into the run they are parts of.
//!
//! **The file.** Line 1 is the run header, `{"run": {…}}` ([`RunHeader`]):
//! what the run was (game, ruleset and its hash, seed, bots, number of
//! games, the first seat) and which shard of it this file holds (`0/1`
//! for a whole run). Every other line is one game, a serialized
//! [`GameResult`] with the game's own tally, in game order. So each file
//! says by itself which run it belongs to, a game line stays exactly a
//! game result, and a reader that looks for games by their `game` index
//! (`ball replay FILE.jsonl:N`) skips the header.
//!
//! **The merge.** [`Merger`] takes the lines of every file, checks that
//! they are one run's — same header but for the shard, each shard once,
//! each of its games once, every game's seed the one the run gives it —
//! and returns the games in game order, which is all a report reads: the
//! merged report is the unsharded run's, byte for byte, but for its
//! throughput. Any problem is one line naming the file and line.
//!
//! A header may also stand inside a file, starting a new part: the
//! concatenation of shard files (`cat shard-*.jsonl`) merges like the
//! files themselves.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::sim::{GameResult, Shard, game_seed};

/// The version of the `--out` layout; a reader refuses any other. 2: each
/// game line has its actions by kind (`kinds`), which a report reads, so
/// a shard of layout 1 merged with one of 2 would count wrong.
pub const FORMAT: &str = "ball-sim-out/2";

/// What a run was, and which shard of it a file holds: the first line of
/// every `--out` file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunHeader {
    /// [`FORMAT`].
    pub format: String,
    /// The binary that played the games (`ball 0.1.0`): shards of other
    /// builds may play other games from the same seeds.
    pub engine: String,
    /// The game's `game` name.
    pub game: String,
    pub ruleset: String,
    pub ruleset_hash: String,
    /// The seat that moves first at the start of every game (`None`: it
    /// varies with the seed).
    pub first: Option<usize>,
    pub seed: u64,
    /// Bot specs A and B.
    pub bots: [String; 2],
    /// Games of the whole run.
    pub games: usize,
    pub shard: Shard,
}

impl RunHeader {
    /// The header line (no newline).
    pub fn line(&self) -> String {
        serde_json::to_string(&serde_json::json!({ "run": self })).expect("a header serializes")
    }

    /// The first field in which `self` and `other` are not the same run,
    /// as `(name, self's value, other's value)`; the shard is not compared.
    fn differs(&self, other: &RunHeader) -> Option<(&'static str, String, String)> {
        let fields: [(&str, String, String); 9] = [
            ("format", self.format.clone(), other.format.clone()),
            ("engine", self.engine.clone(), other.engine.clone()),
            ("game", self.game.clone(), other.game.clone()),
            ("ruleset", self.ruleset.clone(), other.ruleset.clone()),
            (
                "ruleset hash",
                self.ruleset_hash.clone(),
                other.ruleset_hash.clone(),
            ),
            ("seed", self.seed.to_string(), other.seed.to_string()),
            ("bots", self.bots.join(","), other.bots.join(",")),
            ("games", self.games.to_string(), other.games.to_string()),
            (
                "number of shards",
                self.shard.count.to_string(),
                other.shard.count.to_string(),
            ),
        ];
        fields.into_iter().find(|(_, a, b)| a != b).or_else(|| {
            (self.first != other.first).then(|| {
                (
                    "first seat",
                    format!("{:?}", self.first),
                    format!("{:?}", other.first),
                )
            })
        })
    }
}

/// The header of a line, if it is one: `{"run": {…}}`. `Err` for a line
/// that is a header of another layout.
pub fn header_of(line: &str) -> Result<Option<RunHeader>, String> {
    if !line.trim_start().starts_with("{\"run\"") {
        return Ok(None);
    }
    let v: Value = crate::json_line::parse(line).map_err(|e| format!("not JSON: {e}"))?;
    let Some(run) = v.get("run") else {
        return Ok(None);
    };
    if let Some(f) = run.get("format").and_then(Value::as_str)
        && f != FORMAT
    {
        return Err(format!(
            "a run header of format `{f}`; this ball reads `{FORMAT}`"
        ));
    }
    serde_json::from_value(run.clone())
        .map(Some)
        .map_err(|e| format!("a malformed run header: {e}"))
}

/// Where a line is: `file:line`.
fn at(file: &str, line: usize) -> String {
    format!("{file}:{line}")
}

/// One shard seen: its header, where that header stood, and its games.
struct Part {
    header: RunHeader,
    at: String,
    games: usize,
}

/// Collects the lines of shard files and checks that they make one run.
pub struct Merger<T> {
    run: Option<(RunHeader, String)>,
    /// Shard index → the part that holds it.
    parts: BTreeMap<usize, Part>,
    /// The shard the lines now read belong to.
    current: Option<usize>,
    /// Game index → where it was read, and the game.
    games: BTreeMap<usize, (String, GameResult<T>)>,
}

impl<T: serde::de::DeserializeOwned> Default for Merger<T> {
    fn default() -> Self {
        Merger {
            run: None,
            parts: BTreeMap::new(),
            current: None,
            games: BTreeMap::new(),
        }
    }
}

impl<T: serde::de::DeserializeOwned> Merger<T> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads line `n` (from 1) of `file`. Match records are dropped: no
    /// figure reads them, and they are most of a line's size.
    pub fn line(&mut self, file: &str, n: usize, line: &str) -> Result<(), String> {
        let here = at(file, n);
        if line.trim().is_empty() {
            return Ok(());
        }
        if let Some(h) = header_of(line).map_err(|e| format!("{here}: {e}"))? {
            return self.header(h, here);
        }
        let Some(shard) = self.current else {
            return Err(format!(
                "{here}: no run header before this line: not a `ball sim --out` file (format {FORMAT})"
            ));
        };
        let (run, _) = self.run.as_ref().expect("a part has a run");
        let mut g: GameResult<T> = crate::json_line::from_str(line)
            .map_err(|e| format!("{here}: not a game of a {} run: {e}", run.game))?;
        g.record = None;
        let part = &self.parts[&shard];
        if g.game >= run.games {
            return Err(format!(
                "{here}: game {} in a run of {}",
                g.game,
                crate::diagnostic::plural(run.games as u64, "game")
            ));
        }
        if !part.header.shard.holds(g.game) {
            return Err(format!(
                "{here}: game {} is not one of shard {}'s games",
                g.game, part.header.shard
            ));
        }
        let want = game_seed(run.seed, g.game);
        if g.seed != want {
            return Err(format!(
                "{here}: game {} has seed {}, but seed {} gives it {want}: a line of another run",
                g.game, g.seed, run.seed
            ));
        }
        if let Some((first, _)) = self.games.get(&g.game) {
            return Err(format!("{here}: game {} again (first at {first})", g.game));
        }
        self.parts.get_mut(&shard).expect("current part").games += 1;
        self.games.insert(g.game, (here, g));
        Ok(())
    }

    fn header(&mut self, h: RunHeader, here: String) -> Result<(), String> {
        if let Some((run, run_at)) = &self.run {
            if let Some((field, want, got)) = run.differs(&h) {
                // The hash is of the ruleset files' text, not their paths:
                // only other text gives another hash.
                let why = if field == "ruleset hash" {
                    ": the shards read ruleset files of different text"
                } else {
                    ""
                };
                return Err(format!(
                    "{here}: another run: {field} {got}, not {want} as at {run_at}{why}"
                ));
            }
        } else {
            if h.shard.count == 0 || h.shard.index >= h.shard.count {
                return Err(format!("{here}: shard {} does not exist", h.shard));
            }
            self.run = Some((h.clone(), here.clone()));
        }
        if let Some(p) = self.parts.get(&h.shard.index) {
            return Err(format!(
                "{here}: shard {} again (first at {})",
                h.shard, p.at
            ));
        }
        self.current = Some(h.shard.index);
        self.parts.insert(
            h.shard.index,
            Part {
                header: h,
                at: here,
                games: 0,
            },
        );
        Ok(())
    }

    /// The run and its games in game order, once every shard and every
    /// game is there.
    pub fn finish(self) -> Result<(RunHeader, Vec<GameResult<T>>), String> {
        let Some((mut run, _)) = self.run else {
            return Err("no run header in the files: nothing to merge".into());
        };
        for index in 0..run.shard.count {
            let shard = Shard {
                index,
                count: run.shard.count,
            };
            let Some(part) = self.parts.get(&index) else {
                let have: Vec<String> = self
                    .parts
                    .values()
                    .map(|p| format!("{} at {}", p.header.shard, p.at))
                    .collect();
                return Err(format!(
                    "shard {shard} is missing: none of the files holds it (given: {})",
                    have.join(", ")
                ));
            };
            let want = shard.len(run.games);
            if part.games != want {
                let missing = shard
                    .games(run.games)
                    .find(|g| !self.games.contains_key(g))
                    .expect("fewer games than the shard's");
                return Err(format!(
                    "{}: shard {shard} has {} of its {}: game {missing} is missing (a shard cut short?)",
                    part.at,
                    part.games,
                    crate::diagnostic::plural(want as u64, "game")
                ));
            }
        }
        run.shard = Shard::WHOLE;
        Ok((run, self.games.into_values().map(|(_, g)| g).collect()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::metrics::tests::game;

    fn header(shard: Shard, games: usize) -> RunHeader {
        RunHeader {
            format: FORMAT.into(),
            engine: "ball test".into(),
            game: "ball".into(),
            ruleset: "standard".into(),
            ruleset_hash: "0123".into(),
            first: Some(1),
            seed: 5,
            bots: ["A".into(), "B".into()],
            games,
            shard,
        }
    }

    /// The lines of shard `k` of `n` of a run of `games` synthetic games.
    fn file(k: usize, n: usize, games: usize) -> Vec<String> {
        let s = Shard { index: k, count: n };
        let mut v = vec![header(s, games).line()];
        for i in s.games(games) {
            let mut g = game(i, None, "cut", true, 1, 1, 1);
            g.seed = game_seed(5, i);
            g.record = Some("a record".into());
            v.push(serde_json::to_string(&g).unwrap());
        }
        v
    }

    fn merge(files: &[(&str, Vec<String>)]) -> Result<(RunHeader, Vec<GameResult<()>>), String> {
        let mut m = Merger::new();
        for (name, lines) in files {
            for (i, l) in lines.iter().enumerate() {
                m.line(name, i + 1, l)?;
            }
        }
        m.finish()
    }

    #[test]
    fn shards_merge_into_the_run_in_game_order() {
        let files: Vec<(&str, Vec<String>)> = vec![
            ("c", file(2, 3, 10)),
            ("a", file(0, 3, 10)),
            ("b", file(1, 3, 10)),
        ];
        let (run, games) = merge(&files).unwrap();
        assert_eq!(run.shard, Shard::WHOLE);
        assert_eq!(run.games, 10);
        assert_eq!(
            games.iter().map(|g| g.game).collect::<Vec<_>>(),
            (0..10).collect::<Vec<_>>()
        );
        assert!(games.iter().all(|g| g.record.is_none()));
        // Concatenated into one file: the same.
        let cat: Vec<String> = files.iter().flat_map(|f| f.1.clone()).collect();
        assert_eq!(merge(&[("all", cat)]).unwrap().1, games);
        // A whole run is one shard.
        assert_eq!(merge(&[("w", file(0, 1, 10))]).unwrap().1, games);
    }

    #[test]
    fn other_runs_and_missing_or_duplicate_games_are_refused() {
        let err = |files: &[(&str, Vec<String>)]| merge(files).unwrap_err();
        // Another seed.
        let mut b = file(1, 2, 6);
        let mut h = header(Shard { index: 1, count: 2 }, 6);
        h.seed = 6;
        b[0] = h.line();
        let e = err(&[("a", file(0, 2, 6)), ("b", b)]);
        assert_eq!(e, "b:1: another run: seed 6, not 5 as at a:1");
        // Other bots, another ruleset hash, another game count.
        for (field, change) in [
            (
                "bots",
                &(|h: &mut RunHeader| h.bots[1] = "C".into()) as &dyn Fn(&mut RunHeader),
            ),
            ("ruleset hash", &|h: &mut RunHeader| {
                h.ruleset_hash = "ffff".into()
            }),
            ("games", &|h: &mut RunHeader| h.games = 8),
            ("game", &|h: &mut RunHeader| h.game = "gateball".into()),
            ("number of shards", &|h: &mut RunHeader| h.shard.count = 3),
        ] {
            let mut b = file(1, 2, 6);
            let mut h = header(Shard { index: 1, count: 2 }, 6);
            change(&mut h);
            b[0] = h.line();
            let e = err(&[("a", file(0, 2, 6)), ("b", b)]);
            assert!(e.starts_with(&format!("b:1: another run: {field} ")), "{e}");
        }
        // A shard given twice; a shard missing.
        let e = err(&[("a", file(0, 2, 6)), ("a2", file(0, 2, 6))]);
        assert_eq!(e, "a2:1: shard 0/2 again (first at a:1)");
        let e = err(&[("a", file(0, 2, 6))]);
        assert_eq!(
            e,
            "shard 1/2 is missing: none of the files holds it (given: 0/2 at a:1)"
        );
        // A shard cut short: its last game is missing.
        let mut b = file(1, 2, 6);
        b.pop();
        let e = err(&[("a", file(0, 2, 6)), ("b", b)]);
        assert_eq!(
            e,
            "b:1: shard 1/2 has 2 of its 3 games: game 5 is missing (a shard cut short?)"
        );
        // A game line twice.
        let mut b = file(1, 2, 6);
        b.push(b[1].clone());
        let e = err(&[("a", file(0, 2, 6)), ("b", b)]);
        assert_eq!(e, "b:5: game 1 again (first at b:2)");
        // A game of another shard, a game whose seed is another run's.
        let mut b = file(1, 2, 6);
        b.push(file(0, 2, 6)[1].clone());
        assert_eq!(
            err(&[("a", file(0, 2, 6)), ("b", b)]),
            "b:5: game 0 is not one of shard 1/2's games"
        );
        let mut b = file(1, 2, 6);
        b[1] = b[1].replacen(&format!("\"seed\":{}", game_seed(5, 1)), "\"seed\":7", 1);
        let e = err(&[("a", file(0, 2, 6)), ("b", b)]);
        assert!(
            e.starts_with("b:2: game 1 has seed 7, but seed 5 gives it "),
            "{e}"
        );
        // No header; not JSON; another format.
        let e = err(&[("x", vec![file(0, 1, 2)[1].clone()])]);
        assert!(e.starts_with("x:1: no run header before this line"), "{e}");
        let e = err(&[("a", vec![file(0, 1, 2)[0].clone(), "hello".into()])]);
        assert!(e.starts_with("a:2: not a game of a ball run"), "{e}");
        let e = err(&[(
            "a",
            vec![file(0, 1, 2)[0].replace(FORMAT, "ball-sim-out/9")],
        )]);
        assert_eq!(
            e,
            "a:1: a run header of format `ball-sim-out/9`; this ball reads `ball-sim-out/2`"
        );
        assert_eq!(err(&[]), "no run header in the files: nothing to merge");
    }
}
