//! BALL through the platform's game interface (`kernel::game`): the hot
//! path goes straight to the move generator and `apply`; everything else
//! is a thin call into the rules' own modules.

use super::Ball;
use super::action::{self, Action};
use super::event::Event;
use super::piece::Team;
use super::position::{Outcome as BallOutcome, Position};
use super::ruleset::Ruleset;
use super::{apply, json, movegen, show};
use crate::kernel::game::{End, Game, Outcome, Seat, SeatResult, Title};

/// B3.6: the end by touchdowns.
pub const TOUCHDOWNS: End = End {
    name: "touchdowns",
    by_limit: false,
};
/// B3.6: the end after the last turn.
pub const TURN_LIMIT: End = End {
    name: "turn-limit",
    by_limit: true,
};
/// A variant's or a card's `game.end_game()` (B11).
pub const SCRIPT_END: End = End {
    name: "script",
    by_limit: false,
};

impl Ball {
    /// [`Game::legal_into`] with an extension, out of line for the reason
    /// [`Ball::apply_extended`] is. Card mode's plain list is the rules'
    /// list and `convert` (B11.4), listed here; the extension is asked
    /// only when a card may be in the list (most lists: EP comes slowly).
    #[inline(never)]
    fn legal_extended(&self, ext: &dyn super::extension::Extension, pos: &Position, out: &mut Vec<Action>) {
        let params = &self.params;
        movegen::legal_into(pos, params, out);
        match &self.plain {
            Some(plain) if !plain.card_affordable(pos, params) => {
                if pos.phase == super::position::Phase::Action && !pos.is_over() {
                    super::extension::PlainCards::convert_into(pos, params, out);
                }
            }
            _ => ext.extend_legal(pos, params, out),
        }
    }

    /// [`Game::apply`] with an extension, out of line: inlined, card
    /// mode's second copy of the rules' apply made the native playout
    /// loop ~2.5 % slower on the clock for +0.3 % instructions.
    #[inline(never)]
    fn apply_extended(&self, ext: &dyn super::extension::Extension, pos: &mut Position, action: Action) {
        match &self.plain {
            Some(plain) if !matches!(action, Action::Card { .. }) => {
                plain.apply(pos, &self.params, action, &mut ())
            }
            _ => {
                let _ = ext.apply_quiet(pos, &self.params, action);
            }
        }
    }
}

impl Game for Ball {
    type Position = Position;
    type Action = Action;
    type Event = Event;

    /// Card mode's list goes through the extension only when a card may
    /// be in it (`Extension::plain_cards`).
    #[inline]
    fn legal_into(&self, pos: &Position, out: &mut Vec<Action>) {
        match &self.extension {
            None => movegen::legal_into(pos, &self.params, out),
            Some(ext) => self.legal_extended(ext.as_ref(), pos, out),
        }
    }

    /// A failing card effect leaves the position unchanged; the extension
    /// then drops that card from later lists, so a bot cannot loop on it.
    /// A native action no script sees earns its EP in
    /// [`Ball::apply_extended`], without a call through the trait.
    #[inline]
    fn apply(&self, pos: &mut Position, action: Action) {
        match &self.extension {
            None => apply::apply(pos, &self.params, action, &mut ()),
            Some(ext) => self.apply_extended(ext.as_ref(), pos, action),
        }
    }

    fn apply_logged(&self, pos: &mut Position, action: Action, log: &mut Vec<Event>) {
        match &self.extension {
            None => apply::apply(pos, &self.params, action, log),
            Some(ext) => {
                let mut log: &mut dyn crate::kernel::events::Sink<Event> = log;
                let _ = ext.apply(pos, &self.params, action, &mut log);
            }
        }
    }

    fn play(&self, pos: &mut Position, action: Action, log: &mut Vec<Event>) -> Result<(), String> {
        Ball::play(self, pos, action, log).map_err(|e| e.to_string())
    }

    #[inline]
    fn to_move(&self, pos: &Position) -> Option<Seat> {
        pos.outcome.is_none().then_some(pos.to_move as Seat)
    }

    fn outcome(&self, pos: &Position) -> Option<Outcome> {
        let outcome = pos.outcome?;
        let results = [Team::Atk, Team::Def].map(|t| match outcome {
            BallOutcome::Draw => SeatResult::Draw,
            BallOutcome::Winner(w) if w == t => SeatResult::Win,
            BallOutcome::Winner(_) => SeatResult::Loss,
        });
        let end = if let Some(name) = self.params.layout.end_name(pos.ended_by) {
            End {
                by_limit: self.params.layout.limit_ends.iter().any(|e| e == name),
                ..End::named(name, SCRIPT_END.name)
            }
        } else if pos.score.iter().any(|&s| s >= self.params.touchdowns_to_win) {
            TOUCHDOWNS
        } else if pos.turn >= self.params.turn_limit {
            TURN_LIMIT
        } else {
            SCRIPT_END
        };
        Some(Outcome {
            results,
            score: self.score_text(pos),
            end,
        })
    }

    fn turn(&self, pos: &Position) -> u32 {
        u32::from(pos.turn)
    }

    /// `ATK 3 - DEF 1`.
    fn score_text(&self, pos: &Position) -> String {
        format!(
            "ATK {} - DEF {}",
            pos.score[Team::Atk as usize],
            pos.score[Team::Def as usize]
        )
    }

    fn take_errors(&self) -> Vec<String> {
        self.take_script_errors()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn reset(&self) {
        self.reset_scripts();
    }
}

impl Title for Ball {
    const NAME: &'static str = "ball";
    const TITLE: &'static str = "BALL";
    /// By `Team as usize`, so a seat is the team's index.
    const SEATS: [&'static str; 2] = ["ATK", "DEF"];
    const DEFAULT_RULESET: &'static str = "standard";

    type Ruleset = Ruleset;

    fn load_ruleset(spec: &str) -> Result<Ruleset, String> {
        Ruleset::load(spec).map_err(|e| e.to_string())
    }

    fn ruleset_name(ruleset: &Ruleset) -> String {
        ruleset.name.clone()
    }

    fn fingerprint(ruleset: &Ruleset) -> String {
        ruleset.fingerprint()
    }

    /// Variant and card scripts included (`script::game`): the native
    /// parameters alone would silently play a variant as `standard`.
    fn check_ruleset(spec: &str) -> Vec<crate::diagnostic::Problem> {
        Ruleset::check(spec)
    }

    /// The parameters the game is played with: variant scripts may set
    /// some (`params = {…}`, `forbid = {…}`).
    fn ruleset_toml(ruleset: &Ruleset) -> String {
        let mut ruleset = ruleset.clone();
        if let Ok(prepared) = super::script::prepare(&ruleset) {
            ruleset.params = prepared.params;
        }
        format!(
            "# after `extends` and the variant scripts\n{}",
            ruleset.to_toml()
        )
    }

    fn check_script(path: &std::path::Path) -> Option<Vec<crate::diagnostic::Problem>> {
        Some(super::script::check_card_file(path))
    }

    fn script_api(stubs: bool) -> Option<String> {
        Some(if stubs {
            super::script::api::stubs()
        } else {
            super::script::api::reference()
        })
    }

    fn build(ruleset: &Ruleset) -> Result<Ball, String> {
        super::script::game(ruleset).map_err(|errors| {
            let all: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            format!("ruleset `{}`: {}", ruleset.name, all.join("; "))
        })
    }

    /// BALL has no chance: every seed gives the start position (B3.1).
    fn new_game(&self, _seed: u64) -> (Ball, Position, Vec<Event>) {
        (self.clone(), self.start(), Vec::new())
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        action::parse(text).map_err(|e| e.to_string())
    }

    fn write_position(&self, pos: &Position) -> String {
        json::write_with(pos, &self.params.layout)
    }

    fn read_position(&self, text: &str) -> Result<(Ball, Position), String> {
        let pos = Ball::read_position(self, text).map_err(|e| e.to_string())?;
        Ok((self.clone(), pos))
    }

    fn show(&self, pos: &Position) -> String {
        let mut s = show::render(pos, &self.params);
        // A variant's counters are part of the game: a board that hid
        // them would hide why an action costs more or is refused.
        if pos.vars.iter().any(|&v| v != 0) {
            s.push_str(&format!(
                "counters: {}\n",
                json::vars_text(pos, &self.params.layout)
            ));
        }
        s
    }

    fn canonical_legal(&self, pos: &Position) -> Vec<String> {
        Ball::canonical_legal(self, pos)
    }

    fn scenario_setup(&self, pos: &mut Position, line: &str) -> Result<(), String> {
        super::scenario::edit_with(pos, line, &self.params.layout)
    }
}
