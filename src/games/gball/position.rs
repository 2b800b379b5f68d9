//! The state between two decisions: a small value (arrays, bit masks,
//! no heap but the rarely used forced-dice queue) so that perft and
//! playouts clone and update it cheaply.
//!
//! A player is an index 0–17 in id byte order — `BLU1`…`BLU9` are 0–8,
//! `RED1`…`RED9` 9–17 — so "by ascending id" (G8.2, G9.3) is ascending
//! index and a player set is a `u32` mask.

use std::collections::VecDeque;
use std::fmt;
use std::sync::Arc;

use super::Team;
use super::board::{self, NONE};
use crate::kernel::rng::SplitMix64;

pub const PLAYERS: usize = 18;

/// The index of `team`'s player `number` (1–9).
pub const fn pid(team: Team, number: u8) -> u8 {
    match team {
        Team::Blu => number - 1,
        Team::Red => 9 + number - 1,
    }
}

pub const fn team_of(p: u8) -> Team {
    if p < 9 { Team::Blu } else { Team::Red }
}

pub const fn number_of(p: u8) -> u8 {
    p % 9 + 1
}

pub const fn bit(p: u8) -> u32 {
    1 << p
}

/// The players of a mask, ascending.
pub fn members(mask: u32) -> impl Iterator<Item = u8> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let p = m.trailing_zeros() as u8;
        m &= m - 1;
        Some(p)
    })
}

pub struct Id(pub u8);

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", team_of(self.0).name(), number_of(self.0))
    }
}

pub fn id_name(p: u8) -> String {
    Id(p).to_string()
}

pub fn parse_id(s: &str) -> Option<u8> {
    if s.len() != 4 {
        return None;
    }
    let team = Team::parse(&s[..3])?;
    let n = s.as_bytes()[3];
    (b'1'..=b'9').contains(&n).then(|| pid(team, n - b'0'))
}

/// Star bits (G2.2), written `JCT` in that order.
pub const STAR_J: u8 = 1;
pub const STAR_C: u8 = 2;
pub const STAR_T: u8 = 4;

pub fn stars_name(stars: u8) -> String {
    let mut s = String::new();
    for (b, c) in [(STAR_J, 'J'), (STAR_C, 'C'), (STAR_T, 'T')] {
        if stars & b != 0 {
            s.push(c);
        }
    }
    s
}

/// A player's status (G2.5, G13.4), least to most severe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(u8)]
pub enum Status {
    #[default]
    None,
    Point,
    Sinbin,
    Set,
    Match,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::None => "none",
            Status::Point => "point",
            Status::Sinbin => "sinbin",
            Status::Set => "set",
            Status::Match => "match",
        }
    }
}

/// Games to miss after the match (G13.1, G13.2, G17.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Misses {
    #[default]
    None,
    Games(u32),
    Season,
    Retired,
}

/// G16.1's set counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct SetStats {
    pub streak: u32,
    pub catches: u32,
    pub caught: u32,
    pub tackles: u32,
    pub won: u32,
}

/// What the engine and the evaluation read of every player on every
/// action, in three bytes aligned to four: the position's copies for
/// every action greedy weighs move 72 bytes of players rather than 648,
/// and a player's place is its index shifted (three bytes apart cost
/// the per-player passes a tenth more instructions). The rarely read
/// facts are the position's [`Position::veterans`],
/// [`Position::star_sets`], [`Position::misses`] and [`Position::stats`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C, align(4))]
pub struct Player {
    /// A square, or [`NONE`] off court.
    pub at: u8,
    pub out: Status,
    /// A direction on court, [`NONE`] off.
    pub facing: u8,
}

impl Default for Player {
    fn default() -> Player {
        Player {
            at: NONE,
            out: Status::None,
            facing: NONE,
        }
    }
}

/// The ball (G2.6). `holder` and `at` are [`NONE`] when unset; `dir` is
/// [`NONE`] unless it is loose and moving (or waiting at its G4.5 start).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ball {
    pub at: u8,
    pub dir: u8,
    pub spin: bool,
    pub holder: u8,
    pub possession: Option<Team>,
}

impl Ball {
    pub const OFF: Ball = Ball {
        at: NONE,
        dir: NONE,
        spin: false,
        holder: NONE,
        possession: None,
    };

    pub fn is_loose(&self) -> bool {
        self.at != NONE && self.holder == NONE
    }

    pub fn is_moving(&self) -> bool {
        self.is_loose() && self.dir != NONE
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    Place,
    Phase1,
    Phase2,
    Phase4,
    Over,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Place => "place",
            Phase::Phase1 => "phase1",
            Phase::Phase2 => "phase2",
            Phase::Phase4 => "phase4",
            Phase::Over => "over",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResKind {
    Catch,
    Ruck,
    Maul,
}

impl ResKind {
    pub fn name(self) -> &'static str {
        match self {
            ResKind::Catch => "catch",
            ResKind::Ruck => "ruck",
            ResKind::Maul => "maul",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TackleKind {
    Block,
    Contest,
    Carrier,
}

impl TackleKind {
    pub fn name(self) -> &'static str {
        match self {
            TackleKind::Block => "block",
            TackleKind::Contest => "contest",
            TackleKind::Carrier => "carrier",
        }
    }
}

/// One resolved pair (`resolution.tackles`): X the lone player of its
/// engagement (the lower id in a contest), the two modified rolls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tackle {
    pub kind: TackleKind,
    pub x: u8,
    pub y: u8,
    pub rx: u8,
    pub ry: u8,
}

impl Tackle {
    /// The winner of the pair, `None` on a fumble (G8.1).
    pub fn winner(&self) -> Option<u8> {
        match self.rx.cmp(&self.ry) {
            std::cmp::Ordering::Greater => Some(self.x),
            std::cmp::Ordering::Less => Some(self.y),
            std::cmp::Ordering::Equal => None,
        }
    }

    pub fn involves(&self, p: u8) -> bool {
        self.x == p || self.y == p
    }
}

/// The most pairs one phase can resolve: a ruck's blocks (at most every
/// player on the square but the receivers) plus a contest of 2 × 2.
pub const MAX_TACKLES: usize = 24;
pub const MAX_BLOCKS: usize = 18;

/// The ball resolution of the current phase (G7.2), as the JSON's
/// `resolution`. Team-indexed fields use [`Team::index`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Resolution {
    pub kind: ResKind,
    pub square: u8,
    pub declined: [Option<u32>; 2],
    pub receivers: [Option<u32>; 2],
    pub blocks: [(u8, u8); MAX_BLOCKS],
    pub n_blocks: u8,
    pub tackles: [Tackle; MAX_TACKLES],
    pub n_tackles: u8,
    pub catchers: [u8; 2],
    pub n_catchers: u8,
    /// Players whose turn of the phase is used up in the turn step.
    pub turned: u32,
}

impl Resolution {
    pub fn new(kind: ResKind, square: u8) -> Resolution {
        Resolution {
            kind,
            square,
            declined: [None; 2],
            receivers: [None; 2],
            blocks: [(NONE, NONE); MAX_BLOCKS],
            n_blocks: 0,
            tackles: [Tackle {
                kind: TackleKind::Block,
                x: NONE,
                y: NONE,
                rx: 0,
                ry: 0,
            }; MAX_TACKLES],
            n_tackles: 0,
            catchers: [NONE; 2],
            n_catchers: 0,
            turned: 0,
        }
    }

    pub fn blocks(&self) -> &[(u8, u8)] {
        &self.blocks[..self.n_blocks as usize]
    }

    pub fn tackles(&self) -> &[Tackle] {
        &self.tackles[..self.n_tackles as usize]
    }

    pub fn catchers(&self) -> &[u8] {
        &self.catchers[..self.n_catchers as usize]
    }

    pub fn catchers_mask(&self) -> u32 {
        self.catchers().iter().fold(0, |m, &p| m | bit(p))
    }

    pub fn declined_mask(&self) -> u32 {
        self.declined[0].unwrap_or(0) | self.declined[1].unwrap_or(0)
    }

    pub fn receivers_mask(&self) -> u32 {
        self.receivers[0].unwrap_or(0) | self.receivers[1].unwrap_or(0)
    }

    pub fn push_tackle(&mut self, t: Tackle) {
        if (self.n_tackles as usize) < MAX_TACKLES {
            self.tackles[self.n_tackles as usize] = t;
            self.n_tackles += 1;
        }
    }

    pub fn push_block(&mut self, b: u8, r: u8) {
        if (self.n_blocks as usize) < MAX_BLOCKS {
            self.blocks[self.n_blocks as usize] = (b, r);
            self.n_blocks += 1;
        }
    }

    pub fn push_catcher(&mut self, p: u8) {
        if (self.n_catchers as usize) < 2 {
            self.catchers[self.n_catchers as usize] = p;
            self.n_catchers += 1;
        }
    }

    /// The players who fumbled a block as its receiver (G8.4 step 5):
    /// barred from catching and from hand-offs for the rest of the phase.
    pub fn fumbled_receivers(&self) -> u32 {
        if self.kind != ResKind::Ruck {
            return 0;
        }
        self.tackles()
            .iter()
            .filter(|t| t.kind == TackleKind::Block && t.rx == t.ry)
            .fold(0, |m, t| m | bit(t.x))
    }
}

/// The decision awaited (the JSON's `pending`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pending {
    Place(Team),
    Move(u8),
    Turn { actor: u8, target: u8 },
    Decline(Team),
    Receivers(Team),
    Block(u8),
    Catch(Team),
    Aim(Team),
    Act(u8),
}

impl Pending {
    pub fn kind(&self) -> &'static str {
        match self {
            Pending::Place(_) => "place",
            Pending::Move(_) => "move",
            Pending::Turn { .. } => "turn",
            Pending::Decline(_) => "decline",
            Pending::Receivers(_) => "receivers",
            Pending::Block(_) => "block",
            Pending::Catch(_) => "catch",
            Pending::Aim(_) => "aim",
            Pending::Act(_) => "act",
        }
    }

    /// The team whose coach decides.
    pub fn team(&self) -> Team {
        match *self {
            Pending::Place(t)
            | Pending::Decline(t)
            | Pending::Receivers(t)
            | Pending::Catch(t)
            | Pending::Aim(t) => t,
            Pending::Move(p) | Pending::Block(p) | Pending::Act(p) => team_of(p),
            Pending::Turn { actor, .. } => team_of(actor),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Winner {
    Team(Team),
    Draw,
}

/// The whole state between two decisions (the notation's position).
#[derive(Debug, PartialEq, Eq)]
pub struct Position {
    /// By [`Team::index`].
    pub sets: [u8; 2],
    pub points: [u8; 2],
    pub turn: u32,
    pub match_turns: u32,
    pub phase: Phase,
    pub home: Option<Team>,
    pub prev_winner: Option<Team>,
    pub initiative: Option<Team>,
    pub morale: Option<[u8; 2]>,
    pub demoralised: Option<Team>,
    pub ball: Ball,
    /// The fixed ball start of the current point (G4.5, or a dead point's
    /// replay, G3.5): what a dead point replays. `None`: the entry die
    /// (G4.4). The JSON's `ball_start` (an extension of the notation).
    pub ball_start: Option<(u8, u8)>,
    /// Which of the 18 ids are on the match rosters.
    pub roster: u32,
    pub players: [Player; PLAYERS],
    /// The veterans (G2.2), as a mask.
    pub veterans: u32,
    /// The players with each star (G2.2), as masks by the star's bit
    /// index (J, C, T): the movement order's groups are the jumpers, and
    /// the flow works them out at every step of every action greedy
    /// weighs — from a mask, not a pass over the players' bytes. Read and
    /// written through [`Position::stars`] and [`Position::set_stars`].
    pub star_sets: [u32; 3],
    /// Games each player will miss after the match, by index. Shared
    /// between copies until one writes (`Arc::make_mut`): greedy copies
    /// the position for every action it weighs, and these 504 bytes of
    /// this and [`Position::stats`] change only on a catch roll, a
    /// tackle, an injury or a score.
    pub misses: Arc<[Misses; PLAYERS]>,
    /// Each player's G16.1 set counters, by index (shared, as `misses`).
    pub stats: Arc<[SetStats; PLAYERS]>,
    pub resolution: Option<Resolution>,
    pub lost_tackle: u32,
    pub failed_catch: u32,
    pub pending: Option<Pending>,
    pub rng: SplitMix64,
    pub dice: VecDeque<u32>,
    pub winner: Option<Winner>,
    /// The counters of the ruleset's variants (their `state`, slots as
    /// the layout gives them); empty without variants. Written to JSON
    /// only when one is not 0.
    pub vars: Vec<i16>,
    /// Which variant end finished the match (1-based in the layout's
    /// `ends`); 0: the rules'. Written only when not 0.
    pub ended_by: u8,
}

/// `clone_from` keeps the queue's and the counters' storage: greedy
/// copies a position into the same buffer once per action it weighs,
/// and the derived one allocated a queue every time.
impl Clone for Position {
    fn clone(&self) -> Position {
        Position {
            sets: self.sets,
            points: self.points,
            turn: self.turn,
            match_turns: self.match_turns,
            phase: self.phase,
            home: self.home,
            prev_winner: self.prev_winner,
            initiative: self.initiative,
            morale: self.morale,
            demoralised: self.demoralised,
            ball: self.ball,
            ball_start: self.ball_start,
            roster: self.roster,
            players: self.players,
            veterans: self.veterans,
            star_sets: self.star_sets,
            misses: self.misses.clone(),
            stats: self.stats.clone(),
            resolution: self.resolution,
            lost_tackle: self.lost_tackle,
            failed_catch: self.failed_catch,
            pending: self.pending,
            rng: self.rng,
            dice: self.dice.clone(),
            winner: self.winner,
            vars: self.vars.clone(),
            ended_by: self.ended_by,
        }
    }

    fn clone_from(&mut self, src: &Position) {
        // Every field by name, so that a new field cannot be forgotten.
        let Position {
            sets,
            points,
            turn,
            match_turns,
            phase,
            home,
            prev_winner,
            initiative,
            morale,
            demoralised,
            ball,
            ball_start,
            roster,
            players,
            veterans,
            star_sets,
            misses,
            stats,
            resolution,
            lost_tackle,
            failed_catch,
            pending,
            rng,
            dice,
            winner,
            vars,
            ended_by,
        } = self;
        *sets = src.sets;
        *points = src.points;
        *turn = src.turn;
        *match_turns = src.match_turns;
        *phase = src.phase;
        *home = src.home;
        *prev_winner = src.prev_winner;
        *initiative = src.initiative;
        *morale = src.morale;
        *demoralised = src.demoralised;
        *ball = src.ball;
        *ball_start = src.ball_start;
        *roster = src.roster;
        *players = src.players;
        *veterans = src.veterans;
        *star_sets = src.star_sets;
        // Mostly the very same counters (greedy copies one position
        // again and again): then not even the reference counts.
        if !Arc::ptr_eq(misses, &src.misses) {
            *misses = src.misses.clone();
        }
        if !Arc::ptr_eq(stats, &src.stats) {
            *stats = src.stats.clone();
        }
        // Mostly `None`: then only the tag, not the ~250 bytes of a
        // resolution's arrays that a plain assignment copies anyway.
        match &src.resolution {
            None => *resolution = None,
            Some(r) => *resolution = Some(*r),
        }
        *lost_tackle = src.lost_tackle;
        *failed_catch = src.failed_catch;
        *pending = src.pending;
        *rng = src.rng;
        // Mostly empty on both sides: `clone_from` of an empty queue
        // still walks `extend`'s machinery.
        if !(dice.is_empty() && src.dice.is_empty()) {
            dice.clone_from(&src.dice);
        }
        *winner = src.winner;
        if !(vars.is_empty() && src.vars.is_empty()) {
            vars.clone_from(&src.vars);
        }
        *ended_by = src.ended_by;
    }
}

impl Position {
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    pub fn player(&self, p: u8) -> &Player {
        &self.players[p as usize]
    }

    /// `team`'s nine slots of [`Position::players`] (roster or not),
    /// by number: a pass over them needs no mask of the team.
    #[inline]
    pub fn team_players(&self, team: Team) -> &[Player; 9] {
        let first = pid(team, 1) as usize;
        self.players[first..first + 9].try_into().expect("nine slots")
    }

    /// `p`'s stars, as `STAR_*` bits.
    pub fn stars(&self, p: u8) -> u8 {
        let mut s = 0;
        for (i, set) in self.star_sets.iter().enumerate() {
            s |= u8::from(set & bit(p) != 0) << i;
        }
        s
    }

    /// Gives `p` exactly the stars `stars` (`STAR_*` bits).
    pub fn set_stars(&mut self, p: u8, stars: u8) {
        for (i, set) in self.star_sets.iter_mut().enumerate() {
            *set = *set & !bit(p) | u32::from(stars >> i & 1) << p;
        }
    }

    /// Gives `p` `star` (one `STAR_*` bit), keeping the others: a star
    /// earned in play (G16).
    #[inline]
    pub fn give_star(&mut self, p: u8, star: u8) {
        self.star_sets[star_slot(star)] |= bit(p);
    }

    /// Whether `p` has `star` (one `STAR_*` bit).
    #[inline]
    pub fn has_star(&self, p: u8, star: u8) -> bool {
        self.with_star(star) & bit(p) != 0
    }

    /// The players with `star` (one `STAR_*` bit), as a mask.
    #[inline]
    pub fn with_star(&self, star: u8) -> u32 {
        self.star_sets[star_slot(star)]
    }

    /// On court with no status (G2.5).
    #[inline]
    pub fn in_play(&self, p: u8) -> bool {
        let pl = &self.players[p as usize];
        pl.at != NONE && pl.out == Status::None
    }

    /// A player's square and status as one number: `at` in the low byte,
    /// the status in the high one. In play (on a square, no status) is
    /// below [`NONE`], in play on `sq` is equal to `sq` — and `NONE`
    /// itself is "off court, no status", as `at == NONE && out == None`.
    #[inline(always)]
    fn place_key(pl: &Player) -> u16 {
        u16::from(pl.at) | u16::from(pl.out as u8) << 8
    }

    /// The players in play, as a mask. Over all 18 slots without a
    /// branch, then the roster: the flow and the evaluation ask this (and
    /// the two below) several times per action, and a loop over the
    /// roster's members cost a bounds check and a mispredicted branch per
    /// player. One comparison per player ([`Self::place_key`]).
    #[inline]
    pub fn in_play_mask(&self) -> u32 {
        let mut m = 0;
        for (i, pl) in self.players.iter().enumerate() {
            m |= u32::from(Self::place_key(pl) < u16::from(NONE)) << i;
        }
        m & self.roster
    }

    /// The players in play on `sq`.
    #[inline]
    pub fn in_play_on(&self, sq: u8) -> u32 {
        let key = u16::from(sq);
        let mut m = 0;
        for (i, pl) in self.players.iter().enumerate() {
            m |= u32::from(Self::place_key(pl) == key) << i;
        }
        m & self.roster
    }

    pub fn on_court(&self, team: Team) -> u32 {
        let mut m = 0;
        for (i, pl) in self.players.iter().enumerate() {
            m |= u32::from(pl.at != NONE) << i;
        }
        m & self.roster & team.mask()
    }

    pub fn score_of(&self, team: Team) -> (u8, u8) {
        (self.sets[team.index()], self.points[team.index()])
    }

    pub fn ball_square_name(&self) -> String {
        if self.ball.at == NONE {
            "off court".into()
        } else {
            board::square_name(self.ball.at)
        }
    }
}

/// The [`Position::star_sets`] entry of one `STAR_*` bit.
#[inline(always)]
fn star_slot(star: u8) -> usize {
    (star.trailing_zeros() as usize).min(2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::gball::Gball;

    /// Stars kept as masks read back as each player's bits, with every
    /// other player's untouched.
    #[test]
    fn stars_as_masks() {
        let g = Gball::default();
        let mut pos = g.start(1);
        let f = |p: u8| (3 * p + 1) % 8;
        let before: Vec<u8> = (0..18).map(|p| pos.stars(p)).collect();
        for p in 0..18u8 {
            for s in 0..8u8 {
                pos.set_stars(p, s);
                assert_eq!(pos.stars(p), s);
                for (star, i) in [(STAR_J, 0), (STAR_C, 1), (STAR_T, 2)] {
                    assert_eq!(pos.with_star(star) & bit(p) != 0, s >> i & 1 == 1);
                    assert_eq!(pos.has_star(p, star), s >> i & 1 == 1);
                    let mut given = pos.clone();
                    given.give_star(p, star);
                    assert_eq!(given.stars(p), s | star, "{p} given {star} over {s}");
                    for q in (0..18u8).filter(|&q| q != p) {
                        assert_eq!(given.stars(q), pos.stars(q));
                    }
                }
                for q in (0..18u8).filter(|&q| q != p) {
                    let want = if q < p { f(q) } else { before[q as usize] };
                    assert_eq!(pos.stars(q), want, "{q} after {p}");
                }
            }
            pos.set_stars(p, f(p));
        }
    }
}
