//! Gateball through the platform's game interface (`kernel::game`).
//!
//! Chance: every die comes from the position's generator after its
//! forced-dice queue (T4.5, T4.6). [`Game::resample`] gives a search its
//! own future dice; [`Game::chance_outcomes`] lists the rolls of `power`
//! and `tech` (T4.3: the type is chosen before the dice are rolled).

use super::action::{self, Action};
use super::apply;
use super::event::Event;
use super::position::{Phase, Position, ShotKind, Team, Winner};
use super::rules;
use super::ruleset::{self, GateballRuleset};
use super::{Gateball, json, setup, show};
use crate::kernel::game::{
    Chance, End, Game, GameOption, Outcome, Outcomes, Seat, SeatResult, Title,
};
use crate::kernel::hash::fingerprint;
use crate::kernel::rng::SplitMix64;

/// T12.5: the game ends after the last turn's last play.
pub const TURNS_PLAYED: End = End {
    name: "turns-played",
    by_limit: false,
};
/// T12.3: a Perfect Game ends it at once.
pub const PERFECT_GAME: End = End {
    name: "perfect-game",
    by_limit: false,
};

fn seat(team: Team) -> Seat {
    match team {
        Team::Red => 0,
        Team::Blue => 1,
    }
}

impl Game for Gateball {
    type Position = Position;
    type Action = Action;
    type Event = Event;

    const HAS_CHANCE: bool = true;

    fn legal_into(&self, pos: &Position, out: &mut Vec<Action>) {
        super::rules::legal_into(self, pos, out);
    }

    fn apply(&self, pos: &mut Position, action: Action) {
        apply::apply(self, pos, action, &mut ());
    }

    fn apply_logged(&self, pos: &mut Position, action: Action, log: &mut Vec<Event>) {
        apply::apply(self, pos, action, log);
    }

    fn play(&self, pos: &mut Position, action: Action, log: &mut Vec<Event>) -> Result<(), String> {
        Gateball::play(self, pos, action, log).map_err(|e| e.to_string())
    }

    fn to_move(&self, pos: &Position) -> Option<Seat> {
        (!pos.is_over()).then(|| seat(Team::of_ball(pos.ball)))
    }

    fn outcome(&self, pos: &Position) -> Option<Outcome> {
        let winner = pos.winner?;
        let results = [Team::Red, Team::Blue].map(|t| match winner {
            Winner::Draw => SeatResult::Draw,
            Winner::Team(w) if w == t => SeatResult::Win,
            Winner::Team(_) => SeatResult::Loss,
        });
        let named = self.scripts.layout().and_then(|l| {
            let name = l.end_name(pos.ended_by)?;
            Some(End {
                by_limit: l.is_limit(pos.ended_by),
                ..End::named(name, "variant")
            })
        });
        Some(Outcome {
            results,
            score: self.score_text(pos),
            end: match named {
                Some(end) => end,
                None if pos.perfect => PERFECT_GAME,
                None => TURNS_PLAYED,
            },
        })
    }

    fn turn(&self, pos: &Position) -> u32 {
        u32::from(pos.turn)
    }

    fn take_errors(&self) -> Vec<String> {
        self.scripts
            .get()
            .map(super::script::Scripted::take_errors)
            .unwrap_or_default()
    }

    fn reset(&self) {
        if let Some(s) = self.scripts.get() {
            s.host.reset();
        }
    }

    /// `red 12 - blue 9`.
    fn score_text(&self, pos: &Position) -> String {
        format!(
            "red {} - blue {}",
            pos.score(Team::Red),
            pos.score(Team::Blue)
        )
    }

    /// The generator's state and the forced dice are the future; the roll
    /// on the table (`dice`) has been seen and stays.
    fn resample(&self, pos: &mut Position, rng: &mut SplitMix64) {
        pos.rng = SplitMix64::new(rng.next_u64());
        pos.dice_queue.clear();
    }

    /// The shots and sparks come with their outcomes from the move
    /// generator, so each is carried out without being judged again; the
    /// rest (and every action of a ruleset with variants, whose `apply`
    /// asks them) goes the default way.
    fn children(
        &self,
        pos: &Position,
        legal: &mut Vec<Action>,
        next: &mut Option<Position>,
        prepare: &mut impl FnMut(&mut Position),
        visit: &mut impl FnMut(Action, &Position),
    ) {
        let spark = match pos.phase {
            _ if self.scripts.get().is_some() => None,
            Phase::Move => Some(false),
            Phase::Spark => Some(true),
            Phase::Shot | Phase::Over => None,
        };
        let Some(spark) = spark else {
            return crate::kernel::game::children_by_apply(self, pos, legal, next, prepare, visit);
        };
        rules::moves(self, pos, &mut |m, outcome| {
            let next = crate::kernel::game::copy_into(next, pos);
            prepare(next);
            apply::apply_listed_move(self, next, outcome);
            visit(if spark { Action::Spark(m) } else { Action::Shot(m) }, next);
        });
    }

    /// `power` rolls two dice, `tech` one, all faces equally likely; the
    /// same team then chooses its shot on the roll (T4.3, T5.7).
    fn chance_outcomes(&self, pos: &Position, action: Action, out: &mut Outcomes<Position>) -> Chance {
        out.clear();
        let kind = match action {
            Action::Power => ShotKind::Power,
            Action::Tech => ShotKind::Tech,
            _ => return Chance::Sampled,
        };
        let rolls: Vec<Vec<u8>> = match kind {
            ShotKind::Power => (1..=6)
                .flat_map(|a| (1..=6).map(move |b| vec![a, b]))
                .collect(),
            ShotKind::Tech => (1..=6).map(|d| vec![d]).collect(),
        };
        let p = 1.0 / rolls.len() as f64;
        for dice in rolls {
            // Rolled from a queue, so that the engine's own
            // handling of the roll (a roll with no move, T5.7)
            // decides what follows.
            let next = out.push_copy(p, pos);
            next.dice_queue.clear();
            next.dice_queue.extend(dice);
            apply::apply(self, next, action, &mut ());
        }
        Chance::Listed
    }
}

impl Title for Gateball {
    const NAME: &'static str = "gateball";
    const TITLE: &'static str = "Gateball";
    const SEATS: [&'static str; 2] = ["red", "blue"];
    const DEFAULT_RULESET: &'static str = ruleset::DEFAULT;
    const OPTIONS: &'static [GameOption] = &[
        GameOption {
            name: "court",
            value: "FILE",
            help: "a court file replacing the ruleset's court (T1.8)",
        },
        GameOption {
            name: "setup",
            value: "FILE",
            help: "a setup file: players, sides, who plays first (T2.2-T2.4)",
        },
    ];

    type Ruleset = GateballRuleset;

    fn load_ruleset(spec: &str) -> Result<GateballRuleset, String> {
        ruleset::load(spec)
    }

    fn ruleset_name(r: &GateballRuleset) -> String {
        r.name.clone()
    }

    /// The values the files gave, not their text: a court file reformatted
    /// without a change plays the same games.
    fn fingerprint(r: &GateballRuleset) -> String {
        if r.variants.is_empty() && r.options.is_empty() {
            return fingerprint(format!("{:?}", (&r.rules, &r.court, &r.setup)).as_bytes());
        }
        // The variants' text, not their paths: one house rule however its
        // file is named.
        let texts: Vec<&str> = r.variants.iter().map(|v| v.text.as_str()).collect();
        let options: Vec<_> = r.options.iter().map(|(o, _)| o).collect();
        fingerprint(format!("{:?}", (&r.rules, &r.court, &r.setup, texts, options)).as_bytes())
    }

    fn check_ruleset(spec: &str) -> Vec<crate::diagnostic::Problem> {
        ruleset::check(spec)
    }

    fn ruleset_toml(r: &GateballRuleset) -> String {
        r.to_toml()
    }

    fn set_option(r: &mut GateballRuleset, name: &str, value: &str) -> Result<(), String> {
        let path = std::path::Path::new(value);
        match name {
            "court" => {
                r.court = super::court_file::load(path)?;
                r.court_file = Some(value.to_string());
            }
            "setup" => {
                r.setup = setup::load(path)?;
                r.setup_file = Some(value.to_string());
            }
            _ => return Err(format!("--{name} is not an option of Gateball")),
        }
        Ok(())
    }

    fn build(r: &GateballRuleset) -> Result<Gateball, String> {
        let mut game = setup::create(r.rules, r.court.clone(), &r.setup, 0).0;
        let given = super::ruleset::given(r);
        game.scripts = super::script::load(&r.variants, &given, r.rules).map_err(|e| {
            e.first()
                .map(crate::script::ScriptError::render)
                .unwrap_or_default()
        })?;
        Ok(game)
    }

    fn new_game(&self, seed: u64) -> (Gateball, Position, Vec<Event>) {
        let (mut game, mut pos, events) =
            setup::create(self.rules, self.court.clone(), &self.setup, seed);
        if let Some(layout) = self.scripts.layout() {
            pos.vars = vec![0; layout.slots()];
            layout.start_values(&mut pos.vars);
        }
        game.scripts = self.scripts.clone();
        (game, pos, events)
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        action::parse(text).or_else(|e| {
            self.scripts
                .get()
                .and_then(|s| s.action_named(text))
                .ok_or_else(|| e.to_string())
        })
    }

    fn write_position(&self, pos: &Position) -> String {
        json::write(self, pos)
    }

    fn write_public_position(&self, pos: &Position) -> String {
        json::write_public(self, pos)
    }

    fn read_position(&self, text: &str) -> Result<(Gateball, Position), String> {
        json::read_with(text, &self.scripts).map_err(|e| e.to_string())
    }

    fn show(&self, pos: &Position) -> String {
        show::render(self, pos)
    }

    /// T4.6: the values join the queue, used before the generator.
    fn force_dice(&self, pos: &mut Position, dice: &[u32]) -> Result<(), String> {
        for &d in dice {
            if !(1..=6).contains(&d) {
                return Err(format!("--dice: {d} is not a die value: a die shows 1-6 (T4.5)"));
            }
            pos.dice_queue.push_back(d as u8);
        }
        Ok(())
    }

    fn scenario_setup(&self, pos: &mut Position, line: &str) -> Result<(), String> {
        super::scenario::edit(pos, line)
    }

    fn script_api(stubs: bool) -> Option<String> {
        let api = &super::script::api::API;
        Some(if stubs { api.stubs() } else { api.reference() })
    }

    fn canonical_legal(&self, pos: &Position) -> Vec<String> {
        self.legal(pos).iter().map(|a| a.to_string()).collect()
    }
}
