//! Actions and their notation (`docs/rules/ball-notation.md`): parse and print.
//!
//! Parsing only checks syntax: that the verb exists, the arguments are
//! there and each names a real piece, a playable square or a number.
//! Whether the action is allowed is a question for the rules
//! ([`super::rules::check`]), so the two kinds of error never mix.

use super::board::Sq;
use super::params::Verb;
use super::piece::PieceId;

/// One action of BALL, small and `Copy` so move lists cost nothing to fill.
/// Eight bytes: the card variant's two-byte id and three arguments fill
/// them, and the discriminant lives in a niche of an argument's tag (a
/// `repr(align)` would forbid the niche and double the size).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// B5.1 plain move.
    Move { piece: PieceId, to: Sq },
    /// B5.4: `to` is the opponent's square, `exit` where the mover ends.
    Dodge { piece: PieceId, to: Sq, exit: Sq },
    /// B6: `to` is the landing square, `push` where the jumped opponent goes.
    TDodge { piece: PieceId, to: Sq, push: Sq },
    /// B7.1 onto an opponent.
    Block { piece: PieceId, to: Sq },
    /// B7.1 onto a team-mate.
    Protect { piece: PieceId, to: Sq },
    /// B8.1.
    Handoff { from: PieceId, to: PieceId },
    /// B8.2: `at` is the reception square.
    SPass { from: PieceId, to: PieceId, at: Sq },
    /// B8.3.
    LPass { from: PieceId, to: Sq },
    /// B11.4.
    Convert { ap: u8 },
    /// B11.6: a card's special action, with up to three typed arguments.
    Card { card: CardId, args: [Arg; 3] },
    /// B4.3.
    End,
    /// B10.2.
    StandUp { piece: PieceId, to: Sq },
    /// B10.3: top's and bottom's destinations, and who keeps the ball.
    Release {
        top: PieceId,
        top_to: Sq,
        bottom_to: Sq,
        keep: Option<PieceId>,
    },
}

impl Action {
    /// True for the release-phase tasks of B10.
    pub fn is_task(self) -> bool {
        matches!(self, Action::StandUp { .. } | Action::Release { .. })
    }

    pub fn verb(self) -> Verb {
        match self {
            Action::Move { .. } => Verb::Move,
            Action::Dodge { .. } => Verb::Dodge,
            Action::TDodge { .. } => Verb::TDodge,
            Action::Block { .. } => Verb::Block,
            Action::Protect { .. } => Verb::Protect,
            Action::Handoff { .. } => Verb::Handoff,
            Action::SPass { .. } => Verb::SPass,
            Action::LPass { .. } => Verb::LPass,
            Action::Convert { .. } => Verb::Convert,
            Action::Card { .. } => Verb::Card,
            Action::End => Verb::End,
            Action::StandUp { .. } => Verb::StandUp,
            Action::Release { .. } => Verb::Release,
        }
    }
}

/// A card id, interned: the notation names cards by their text id
/// (`sprint`), actions hold a one-byte handle so they stay `Copy` and
/// small. The table is process-wide and append-only, so a handle prints
/// the same id wherever it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CardId([u8; 2]);

static CARD_IDS: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());

/// How many different card ids one process can name: every id a card
/// script, a position or an action names takes a slot for the life of the
/// process, so the table is far larger than any set of rulesets needs
/// (a `ball test` run over many scenarios, each with its own bogus ids,
/// must not run out).
pub const MAX_CARD_IDS: usize = 1 << 16;

impl CardId {
    /// The handle of a card id text. Fails when the text is not a card id
    /// (lower-case letters, digits, `_` and `-`, starting with a letter,
    /// at most 32 characters), or, distinctly, when the process has named
    /// [`MAX_CARD_IDS`] different ids already.
    pub fn intern(id: &str) -> Result<CardId, String> {
        // A variant's action is kept as `@id` (see `intern_action`): it
        // can never be taken for a card of the same name.
        if !is_card_id(id.strip_prefix('@').unwrap_or(id)) {
            return Err(format!(
                "`{}` is not a card id (lower-case letters, digits, `_`, `-`)",
                id.chars().take(40).collect::<String>()
            ));
        }
        let mut ids = CARD_IDS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = ids.iter().position(|s| *s == id) {
            return Ok(CardId::from_index(i));
        }
        if ids.len() >= MAX_CARD_IDS {
            return Err(format!(
                "card `{id}`: this process has already named {MAX_CARD_IDS} different card ids"
            ));
        }
        ids.push(Box::leak(id.to_string().into_boxed_str()));
        Ok(CardId::from_index(ids.len() - 1))
    }

    /// The handle of a variant's own action `id` (`rally ATK3 G9` in the
    /// notation, not `card rally …`).
    pub fn intern_action(id: &str) -> Result<CardId, String> {
        if !is_card_id(id) {
            return Err(format!(
                "`{}` is not an action id (lower-case letters, digits, `_`, `-`)",
                id.chars().take(40).collect::<String>()
            ));
        }
        CardId::intern(&format!("@{id}"))
    }

    /// The variant action `verb` names, if one was loaded in this process;
    /// never adds an id (junk verbs must not fill the table).
    pub fn find_action(verb: &str) -> Option<CardId> {
        let key = format!("@{verb}");
        let ids = CARD_IDS.lock().unwrap_or_else(|e| e.into_inner());
        ids.iter()
            .position(|s| *s == key)
            .map(CardId::from_index)
    }

    /// Whether this is a variant's action rather than a card.
    pub fn is_action(self) -> bool {
        self.key().starts_with('@')
    }

    /// The id as stored: a card's id, or `@` and a variant action's id
    /// (what a position's card-use record writes, so it reads back the
    /// same handle).
    pub fn key(self) -> &'static str {
        let ids = CARD_IDS.lock().unwrap_or_else(|e| e.into_inner());
        ids.get(self.index()).copied().unwrap_or("?")
    }

    /// Two bytes, high first (so the derived order is the index order),
    /// not a `u16`: with byte alignment `Action` stays 8 bytes.
    fn from_index(i: usize) -> CardId {
        CardId((i as u16).to_be_bytes())
    }

    fn index(self) -> usize {
        usize::from(u16::from_be_bytes(self.0))
    }

    /// The id as the notation writes it.
    pub fn name(self) -> &'static str {
        let key = self.key();
        key.strip_prefix('@').unwrap_or(key)
    }
}

/// What a card id may look like.
pub fn is_card_id(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 32
        && s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

/// One argument of a card action, typed so it prints without the card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arg {
    None,
    Piece(PieceId),
    Square(Sq),
    Number(u8),
}

impl Arg {
    /// Reads an argument by its shape: a piece id, a playable square, or a
    /// whole number 0–255.
    pub fn parse(s: &str) -> Option<Arg> {
        if let Some(p) = PieceId::parse(s) {
            return Some(Arg::Piece(p));
        }
        if let Ok(sq) = Sq::parse(s) {
            return Some(Arg::Square(sq));
        }
        if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
            return s.parse::<u8>().ok().map(Arg::Number);
        }
        None
    }
}

impl std::fmt::Display for Arg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Arg::None => Ok(()),
            Arg::Piece(p) => p.fmt(f),
            Arg::Square(s) => s.fmt(f),
            Arg::Number(n) => n.fmt(f),
        }
    }
}

impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Action::Move { piece, to } => write!(f, "move {piece} {to}"),
            Action::Dodge { piece, to, exit } => write!(f, "dodge {piece} {to} {exit}"),
            Action::TDodge { piece, to, push } => write!(f, "tdodge {piece} {to} {push}"),
            Action::Block { piece, to } => write!(f, "block {piece} {to}"),
            Action::Protect { piece, to } => write!(f, "protect {piece} {to}"),
            Action::Handoff { from, to } => write!(f, "handoff {from} {to}"),
            Action::SPass { from, to, at } => write!(f, "spass {from} {to} {at}"),
            Action::LPass { from, to } => write!(f, "lpass {from} {to}"),
            Action::Convert { ap } => write!(f, "convert {ap}"),
            Action::Card { card, args } => {
                if card.is_action() {
                    f.write_str(card.name())?;
                } else {
                    write!(f, "card {}", card.name())?;
                }
                for a in args.iter().filter(|a| **a != Arg::None) {
                    write!(f, " {a}")?;
                }
                Ok(())
            }
            Action::End => f.write_str("end"),
            Action::StandUp { piece, to } => write!(f, "standup {piece} {to}"),
            Action::Release {
                top,
                top_to,
                bottom_to,
                keep,
            } => {
                write!(f, "release {top} {top_to} {bottom_to}")?;
                if let Some(k) = keep {
                    write!(f, " keep {k}")?;
                }
                Ok(())
            }
        }
    }
}

/// A syntax error in an action: says what is malformed, never whether the
/// action would be legal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("malformed action `{text}`: {problem}")]
pub struct ParseActionError {
    pub text: String,
    pub problem: String,
}

/// The verbs and their arguments, for error messages and `--help`.
pub const VERBS: &[(&str, &str)] = &[
    ("block", "piece destination"),
    ("card", "card-id [arguments…]"),
    ("convert", "N"),
    ("dodge", "piece destination exit"),
    ("end", ""),
    ("handoff", "holder receiver"),
    ("lpass", "holder square"),
    ("move", "piece destination"),
    ("protect", "piece destination"),
    (
        "release",
        "top top-destination bottom-destination [keep piece]",
    ),
    ("spass", "holder receiver reception-square"),
    ("standup", "piece destination"),
    ("tdodge", "piece landing push-square"),
];

impl std::str::FromStr for Action {
    type Err = ParseActionError;

    fn from_str(text: &str) -> Result<Action, ParseActionError> {
        parse(text)
    }
}

/// Parses one action. Whitespace between tokens may be any run of spaces;
/// piece ids and squares are accepted in either case.
pub fn parse(text: &str) -> Result<Action, ParseActionError> {
    let err = |problem: String| ParseActionError {
        text: text.to_string(),
        problem,
    };
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let Some((&verb, args)) = tokens.split_first() else {
        return Err(err("it is empty".into()));
    };
    let Some(&(_, shape)) = VERBS.iter().find(|(v, _)| *v == verb) else {
        // A variant's own action: its id is its verb.
        if let Some(card) = CardId::find_action(verb) {
            return card_args(card, args, &err);
        }
        let verbs: Vec<&str> = VERBS.iter().map(|(v, _)| *v).collect();
        return Err(err(format!(
            "unknown verb `{verb}` (expected one of: {})",
            verbs.join(", ")
        )));
    };
    let arity = |n: usize| -> Result<(), ParseActionError> {
        if args.len() == n {
            Ok(())
        } else {
            Err(err(format!(
                "`{verb}` takes {n} argument{} ({shape}), got {}",
                if n == 1 { "" } else { "s" },
                args.len()
            )))
        }
    };
    let piece = |i: usize, role: &str| -> Result<PieceId, ParseActionError> {
        PieceId::parse(args[i]).ok_or_else(|| {
            err(format!(
                "{role} `{}` is not a piece id (B2.1: ATK1-ATK7 or DEF1-DEF7)",
                args[i]
            ))
        })
    };
    let square = |i: usize, role: &str| -> Result<Sq, ParseActionError> {
        Sq::parse(args[i]).map_err(|e| err(format!("{role} {}", e.describe(args[i]))))
    };
    Ok(match verb {
        "move" | "block" | "protect" | "standup" => {
            arity(2)?;
            let piece = piece(0, "piece")?;
            let to = square(1, "destination")?;
            match verb {
                "move" => Action::Move { piece, to },
                "block" => Action::Block { piece, to },
                "protect" => Action::Protect { piece, to },
                _ => Action::StandUp { piece, to },
            }
        }
        "dodge" => {
            arity(3)?;
            Action::Dodge {
                piece: piece(0, "piece")?,
                to: square(1, "destination")?,
                exit: square(2, "exit square")?,
            }
        }
        "tdodge" => {
            arity(3)?;
            Action::TDodge {
                piece: piece(0, "piece")?,
                to: square(1, "landing square")?,
                push: square(2, "push square")?,
            }
        }
        "handoff" => {
            arity(2)?;
            Action::Handoff {
                from: piece(0, "holder")?,
                to: piece(1, "receiver")?,
            }
        }
        "spass" => {
            arity(3)?;
            Action::SPass {
                from: piece(0, "holder")?,
                to: piece(1, "receiver")?,
                at: square(2, "reception square")?,
            }
        }
        "lpass" => {
            arity(2)?;
            Action::LPass {
                from: piece(0, "holder")?,
                to: square(1, "target square")?,
            }
        }
        "convert" => {
            arity(1)?;
            let n = args[0];
            if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
                return Err(err(format!("`{n}` is not a positive whole number")));
            }
            let ap = match n.parse::<u64>() {
                Ok(0) => return Err(err("`0`: convert at least 1 AP".into())),
                Ok(k) if k <= 255 => k as u8,
                _ => return Err(err(format!("`{n}` is too large: a turn has far fewer AP"))),
            };
            Action::Convert { ap }
        }
        "end" => {
            arity(0)?;
            Action::End
        }
        "release" => {
            if args.len() != 3 && args.len() != 5 {
                return Err(err(format!(
                    "`release` takes 3 arguments, or 5 with `keep` ({shape}), got {}",
                    args.len()
                )));
            }
            let keep = if args.len() == 5 {
                if !args[3].eq_ignore_ascii_case("keep") {
                    return Err(err(format!(
                        "expected `keep` as the 4th argument, got `{}`",
                        args[3]
                    )));
                }
                Some(piece(4, "keeper")?)
            } else {
                None
            };
            Action::Release {
                top: piece(0, "top piece")?,
                top_to: square(1, "top's destination")?,
                bottom_to: square(2, "bottom's destination")?,
                keep,
            }
        }
        "card" => {
            let Some((&id, rest)) = args.split_first() else {
                return Err(err("`card` needs a card id".into()));
            };
            if rest.len() > 3 {
                return Err(err(format!(
                    "`card {id}` takes at most 3 arguments, got {}",
                    rest.len()
                )));
            }
            // `card @x` is not how a variant action is written.
            if id.starts_with('@') {
                return Err(err(format!("`{id}` is not a card id")));
            }
            let card = CardId::intern(id).map_err(err)?;
            return card_args(card, rest, &err);
        }
        _ => unreachable!("every verb of VERBS is handled"),
    })
}

/// A card's (or a variant action's) up to 3 arguments.
fn card_args(
    card: CardId,
    rest: &[&str],
    err: &dyn Fn(String) -> ParseActionError,
) -> Result<Action, ParseActionError> {
    if rest.len() > 3 {
        return Err(err(format!(
            "`{}` takes at most 3 arguments, got {}",
            card.name(),
            rest.len()
        )));
    }
    let mut out = [Arg::None; 3];
    for (slot, text) in out.iter_mut().zip(rest) {
        *slot = Arg::parse(text).ok_or_else(|| {
            err(format!(
                "{}argument `{text}` is not a piece id, a playable square or a number 0-255",
                if card.is_action() { "" } else { "card " }
            ))
        })?;
    }
    Ok(Action::Card { card, args: out })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every example of notation.md parses and prints back unchanged.
    #[test]
    fn notation_examples_round_trip() {
        for text in [
            "move DEF3 G9",
            "dodge ATK3 K9 L10",
            "tdodge DEF5 E11 C11",
            "spass ATK5 ATK2 D8",
            "release DEF2 D10 F10 keep DEF2",
            "release DEF2 D10 F10",
            "block ATK1 D8",
            "protect ATK1 D8",
            "handoff ATK5 ATK6",
            "lpass ATK5 G13",
            "standup DEF1 B10",
            "convert 2",
            "card sprint ATK3 H8",
            "card rally",
            "card boost 2",
            "end",
        ] {
            let a = parse(text).unwrap();
            assert_eq!(a.to_string(), text);
        }
    }

    #[test]
    fn lenient_input_canonical_output() {
        assert_eq!(
            parse("  move  def3   g9 ").unwrap().to_string(),
            "move DEF3 G9"
        );
    }

    #[test]
    fn malformed_actions_say_what() {
        let cases = [
            ("", "empty"),
            ("jump DEF3 G9", "unknown verb `jump`"),
            ("move DEF3", "takes 2 arguments"),
            ("move DEF8 G9", "`DEF8` is not a piece id"),
            ("move DEF3 G8", "not a playable square (B1.2"),
            ("move DEF3 Z9", "not a square (B1.1"),
            ("dodge ATK3 K9", "takes 3 arguments"),
            ("release DEF2 D10 F10 keep", "3 arguments, or 5"),
            ("release DEF2 D10 F10 hold DEF2", "expected `keep`"),
            ("convert 0", "convert at least 1 AP"),
            ("convert 300", "too large"),
            ("convert x", "not a positive whole number"),
            ("end now", "takes 0 arguments"),
            ("card Sprint ATK3", "is not a card id"),
            ("card sprint ATK3 H8 G9 F8", "at most 3 arguments"),
            ("card sprint ATK9", "is not a piece id, a playable square"),
            ("card", "needs a card id"),
        ];
        for (text, want) in cases {
            let e = parse(text).unwrap_err();
            assert!(e.to_string().contains(want), "{text}: {e}");
        }
    }
}
