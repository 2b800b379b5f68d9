//! G-ball through the platform's game interface (`kernel::game`).
//!
//! Chance: every die comes from the position's generator after its
//! forced-dice queue (G14.1–G14.3). [`Game::resample`] gives a search its
//! own future dice; [`Game::chance_outcomes`] lists only the actions
//! that roll a single die (a catch): others can roll dozens (a maul, a
//! whole turn of `auto` moves), too many outcomes to list. It also says
//! which actions roll nothing, the most of any list.

use super::action::{self, Action};
use super::event::Event;
use super::position::{Position, Winner};
use super::ruleset::{self, GballRuleset};
use super::{Gball, Team, flow, json, show, teams};
use crate::kernel::game::{
    Chance, End, Game, GameOption, Outcome, Outcomes, Seat, SeatResult, Title,
};
use crate::kernel::hash::fingerprint;
use crate::kernel::rng::SplitMix64;

/// G3.1: a team won `sets_to_win_match` sets.
pub const SETS: End = End {
    name: "sets",
    by_limit: false,
};
/// G3.6: the match turn limit ended it.
pub const TURN_LIMIT: End = End {
    name: "turn-limit",
    by_limit: true,
};
/// G4.2: neither team had an available player.
pub const NO_PLAYERS: End = End {
    name: "no-players",
    by_limit: false,
};

/// A variant's end whose name is no longer known.
pub const SCRIPT_END: End = End {
    name: "variant",
    by_limit: false,
};

pub fn seat(team: Team) -> Seat {
    team.index()
}

/// How a final position's match ended (see [`SETS`] and the others).
pub fn end_of(g: &Gball, pos: &Position) -> End {
    if pos.sets.iter().any(|&s| s >= g.params.sets_to_win_match) {
        SETS
    } else if g.params.match_turn_limit > 0 && pos.match_turns >= g.params.match_turn_limit {
        TURN_LIMIT
    } else {
        NO_PLAYERS
    }
}

/// `RED 4 - BLU 2`, with the points when they decided (G3.6).
pub fn score_text(pos: &Position) -> String {
    let mut s = format!("RED {} - BLU {}", pos.sets[0], pos.sets[1]);
    if pos.sets[0] == pos.sets[1] || pos.points != [0, 0] {
        s.push_str(&format!(" (points {} - {})", pos.points[0], pos.points[1]));
    }
    s
}

impl Game for Gball {
    type Position = Position;
    type Action = Action;
    type Event = Event;

    fn legal_into(&self, pos: &Position, out: &mut Vec<Action>) {
        super::rules::legal_into(self, pos, out);
    }

    const HAS_CHANCE: bool = true;
    /// A random match runs to about 86,000 decisions.
    const MAX_ACTIONS: usize = 2_000_000;

    fn apply(&self, pos: &mut Position, action: Action) {
        self.apply_any(pos, action, &mut ());
    }

    fn apply_logged(&self, pos: &mut Position, action: Action, log: &mut Vec<Event>) {
        self.apply_any(pos, action, log);
    }

    fn play(&self, pos: &mut Position, action: Action, log: &mut Vec<Event>) -> Result<(), String> {
        flow::play(self, pos, action, log)
    }

    fn to_move(&self, pos: &Position) -> Option<Seat> {
        pos.pending.map(|p| seat(p.team()))
    }

    fn outcome(&self, pos: &Position) -> Option<Outcome> {
        let winner = pos.winner?;
        let results = Team::BOTH.map(|t| match winner {
            Winner::Draw => SeatResult::Draw,
            Winner::Team(w) if w == t => SeatResult::Win,
            Winner::Team(_) => SeatResult::Loss,
        });
        let end = match self.layout().and_then(|l| l.end_name(pos.ended_by)) {
            Some(name) => End {
                by_limit: self.layout().is_some_and(|l| l.is_limit(pos.ended_by)),
                ..End::named(name, SCRIPT_END.name)
            },
            None => end_of(self, pos),
        };
        Some(Outcome {
            results,
            score: score_text(pos),
            end,
        })
    }

    fn take_errors(&self) -> Vec<String> {
        self.script
            .as_ref()
            .map(|s| s.take_errors().iter().map(ToString::to_string).collect())
            .unwrap_or_default()
    }

    fn reset(&self) {
        if let Some(s) = &self.script {
            s.host.reset();
        }
    }

    /// The match turn in progress, counting from 1 (G3.6).
    fn turn(&self, pos: &Position) -> u32 {
        pos.match_turns + 1
    }

    fn score_text(&self, pos: &Position) -> String {
        score_text(pos)
    }

    /// The six outcomes of an action that rolls exactly one six-sided die
    /// before the next decision — a catch attempt (G7.4), a hand-off in
    /// the air (G10.4) — so that a one-ply bot weighs a catch by its odds
    /// instead of by one sampled roll. Found by playing the action with
    /// each value forced (G14.3) and nothing else queued: when the
    /// generator is untouched and the forced die used, the action rolled
    /// that die and no other. A forced die left unused by the first play
    /// means no die at all: [`Chance::Sure`], so that greedy need not
    /// play most actions twice. Any other action (several dice, a smaller
    /// die) is sampled. The outcomes depend on neither the generator nor
    /// the queue, so no bot learns a future die from them.
    fn chance_outcomes(&self, pos: &Position, action: Action, out: &mut Outcomes<Position>) -> Chance {
        out.clear();
        for v in 1..=6 {
            let next = out.push_copy(1.0 / 6.0, pos);
            next.dice.clear();
            next.dice.push_back(v);
            let rng = next.rng;
            if self.apply_any(next, action, &mut ()).is_some() || next.rng != rng {
                return Chance::Sampled;
            }
            if !next.dice.is_empty() {
                return if v == 1 { Chance::Sure } else { Chance::Sampled };
            }
        }
        Chance::Listed
    }

    /// The generator's state and the forced queue are the future; what
    /// has been rolled is in the position's fields and stays. The queue
    /// is dropped rather than redrawn: its dice have no known size until
    /// rolled.
    fn resample(&self, pos: &mut Position, rng: &mut SplitMix64) {
        pos.rng = SplitMix64::new(rng.next_u64());
        pos.dice.clear();
    }
}

impl Title for Gball {
    const NAME: &'static str = "gball";
    const TITLE: &'static str = "G-ball";
    const SEATS: [&'static str; 2] = ["RED", "BLU"];
    const DEFAULT_RULESET: &'static str = ruleset::DEFAULT;
    /// The log's `act` line names every action the coach sent.
    const ACTION_LINES: bool = false;
    const OPTIONS: &'static [GameOption] = &[GameOption {
        name: "teams",
        value: "FILE",
        help: "a teams file (JSON) with both match rosters (G2.1-G2.3)",
    }];

    type Ruleset = GballRuleset;

    fn load_ruleset(spec: &str) -> Result<GballRuleset, String> {
        ruleset::load(spec)
    }

    fn ruleset_name(r: &GballRuleset) -> String {
        r.name.clone()
    }

    /// The values the files gave, not their text.
    fn fingerprint(r: &GballRuleset) -> String {
        if r.variants.is_empty() && r.options.is_empty() {
            return fingerprint(format!("{:?}", (&r.params, &r.teams)).as_bytes());
        }
        fingerprint(
            format!(
                "{:?}",
                (&r.params, &r.teams, &r.variants, &r.options)
            )
            .as_bytes(),
        )
    }

    fn check_ruleset(spec: &str) -> Vec<crate::diagnostic::Problem> {
        ruleset::check(spec)
    }

    fn ruleset_toml(r: &GballRuleset) -> String {
        r.to_toml()
    }

    fn set_option(r: &mut GballRuleset, name: &str, value: &str) -> Result<(), String> {
        match name {
            "teams" => {
                r.teams = teams::load(value)?;
                r.teams_file = Some(value.to_string());
                Ok(())
            }
            _ => Err(format!("--{name} is not an option of G-ball")),
        }
    }

    fn build(r: &GballRuleset) -> Result<Gball, String> {
        r.build().map_err(|errors| {
            let all: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            format!("ruleset `{}`: {}", r.name, all.join("; "))
        })
    }

    fn new_game(&self, seed: u64) -> (Gball, Position, Vec<Event>) {
        let mut log = Vec::new();
        let pos = self.new_match_any(seed, &mut log);
        (self.clone(), pos, log)
    }

    /// A G-ball variant file alone, on the standard ruleset: loaded, then
    /// probed as `ball check` probes a ruleset's (`script::probe`).
    fn check_script(path: &std::path::Path) -> Option<Vec<crate::diagnostic::Problem>> {
        let shown = path.display().to_string();
        let text = match crate::files::read_input(path, crate::files::MAX_SCRIPT) {
            Ok(t) => t,
            Err(reason) => {
                return Some(vec![crate::diagnostic::Problem::new(
                    shown,
                    None,
                    format!("cannot read the variant: {reason}"),
                )]);
            }
        };
        let mut r = GballRuleset::standard();
        r.variants = vec![crate::script::variants::Source {
            path: if path.as_os_str() == "-" {
                "<stdin>/variant.lua".into()
            } else {
                shown
            },
            text,
        }];
        let errors = match r.build() {
            Err(errors) => errors,
            Ok(g) => super::script::probe(&g),
        };
        Some(errors.iter().map(|e| e.problem()).collect())
    }

    fn script_api(stubs: bool) -> Option<String> {
        Some(if stubs {
            super::script::api::stubs()
        } else {
            super::script::api::reference()
        })
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        action::parse(text).or_else(|e| {
            self.script
                .as_ref()
                .and_then(|s| s.parse_action(text))
                .ok_or(e)
        })
    }

    fn write_position(&self, pos: &Position) -> String {
        json::write_with(pos, self.layout())
    }

    fn write_public_position(&self, pos: &Position) -> String {
        json::write_public(pos, self.layout())
    }

    /// The game returned plays this ruleset with the position's rosters
    /// (stars as the match has left them), which is what a new match
    /// from it would field.
    fn read_position(&self, text: &str) -> Result<(Gball, Position), String> {
        let pos = json::read(self, text).map_err(|e| format!("malformed position: {e}"))?;
        let mut game = self.clone();
        game.teams = teams::of_position(&pos);
        Ok((game, pos))
    }

    fn show(&self, pos: &Position) -> String {
        show::render(self, pos)
    }

    /// Players, ball, score, dice, then `phase K` to run the engine to
    /// the first decision (`super::scenario`).
    fn scenario_setup(&self, pos: &mut Position, line: &str) -> Result<(), String> {
        super::scenario::edit(self, pos, line)
    }

    /// G14.3: the values join the queue. No G-ball die has more than six
    /// sides, so a value outside 1–6 is refused here; a value too large
    /// for a smaller die (the coin, `pick`) fails the action that rolls it.
    fn force_dice(&self, pos: &mut Position, dice: &[u32]) -> Result<(), String> {
        if let Some(&d) = dice.iter().find(|d| !(1..=6).contains(*d)) {
            return Err(format!(
                "--dice: {d} is not a die value: G-ball dice show 1-6 (G14.2, G14.3)"
            ));
        }
        if pos.dice.len() + dice.len() > json::MAX_DICE {
            return Err(format!(
                "--dice: at most {} forced dice may be queued (G14.3)",
                json::MAX_DICE
            ));
        }
        pos.dice.extend(dice.iter().copied());
        Ok(())
    }
}
