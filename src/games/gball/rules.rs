//! Derived state and the legal actions.
//!
//! A position stores no cursor beyond `pending` (notation, "Derived
//! state"): the movement order, who may catch, who has already moved, are
//! rebuilt here from the fields, so that a position read from JSON resumes
//! exactly where a played one would.
//!
//! The generator is a visitor ([`legal_visit`]) that can stop early: the
//! engine asks it for at most two actions to find the decisions it takes
//! itself (G5.4), [`legal_into`] collects all of them.

use super::action::{Action, Way};
use super::board::{self, NONE};
use super::position::{
    Pending, Position, ResKind, STAR_C, STAR_J, STAR_T, Status, TackleKind, bit, members,
    team_of,
};
use super::{Gball, Team};

/// A star counts only while effective: not while its team is demoralised
/// (G2.2, G15.4).
#[inline]
pub fn effective(pos: &Position, p: u8, star: u8) -> bool {
    pos.with_star(star) & bit(p) != 0 && pos.demoralised != Some(team_of(p))
}

pub fn star_catcher(pos: &Position, p: u8) -> bool {
    effective(pos, p, STAR_C)
}

pub fn star_tackler(pos: &Position, p: u8) -> bool {
    effective(pos, p, STAR_T)
}

/// The movement order of the current phase (G5.3) as its four groups
/// a–d, each a mask of every roster player in it (in play or not: callers
/// skip those not in play, so a place in the order stays valid for the
/// phase). The order is the groups in turn, each by ascending id. A
/// player's *key* is `32 × group + id`: ascending keys are the order, and
/// a key is the cursor of the decisions that go in movement order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Groups(pub [u32; 4]);

pub fn groups(pos: &Position) -> Groups {
    let init = pos.initiative.unwrap_or(Team::Red);
    let mut jumpers = pos.with_star(STAR_J) & pos.roster;
    if let Some(t) = pos.demoralised {
        jumpers &= !t.mask();
    }
    let (mine, theirs) = (pos.roster & init.mask(), pos.roster & init.other().mask());
    Groups([
        theirs & !jumpers,
        mine & !jumpers,
        theirs & jumpers,
        mine & jumpers,
    ])
}

/// `groups(pos).key(p)` from `p` alone: a decision's action asks for its
/// player's place in the order, once per action greedy weighs, and the
/// whole order is a pass over every player.
pub fn order_key(pos: &Position, p: u8) -> usize {
    if pos.roster & bit(p) == 0 {
        return 4 * 32;
    }
    let team = team_of(p);
    let jumper = pos.with_star(STAR_J) & bit(p) != 0 && pos.demoralised != Some(team);
    let mine = pos.initiative.unwrap_or(Team::Red) == team;
    let group = 2 * usize::from(jumper) + usize::from(mine);
    group * 32 + p as usize
}

impl Groups {
    /// `p`'s key; past every key if `p` is in no group.
    pub fn key(&self, p: u8) -> usize {
        (0..4)
            .find(|&g| self.0[g] & bit(p) != 0)
            .map_or(4 * 32, |g| g * 32 + p as usize)
    }

    /// The players with a key from `from` on, in order, with their keys.
    pub fn from(&self, from: usize) -> OrderIter {
        let g = from / 32;
        if g >= 4 {
            return OrderIter {
                groups: self.0,
                g: 4,
                m: 0,
            };
        }
        OrderIter {
            groups: self.0,
            g,
            m: self.0[g] & !((1u32 << (from % 32)) - 1),
        }
    }

    /// The players before `p` in the order.
    pub fn before(&self, p: u8) -> u32 {
        let k = self.key(p);
        let g = (k / 32).min(4);
        let mut m = 0;
        for i in 0..g {
            m |= self.0[i];
        }
        if g < 4 {
            m |= self.0[g] & (bit(p) - 1);
        }
        m
    }
}

/// See [`Groups::from`].
pub struct OrderIter {
    groups: [u32; 4],
    g: usize,
    m: u32,
}

impl Iterator for OrderIter {
    type Item = (usize, u8);

    #[inline]
    fn next(&mut self) -> Option<(usize, u8)> {
        loop {
            if self.m != 0 {
                let p = self.m.trailing_zeros() as u8;
                self.m &= self.m - 1;
                return Some((self.g * 32 + p as usize, p));
            }
            self.g += 1;
            if self.g >= 4 {
                return None;
            }
            self.m = self.groups[self.g];
        }
    }
}

/// The movement order as a list of ids, for tests and front ends.
pub fn order(pos: &Position) -> Vec<u8> {
    groups(pos).from(0).map(|(_, p)| p).collect()
}

/// The players in play on the ball's square (none when it is off court).
pub fn on_ball(pos: &Position) -> u32 {
    if pos.ball.at == NONE {
        0
    } else {
        pos.in_play_on(pos.ball.at)
    }
}

/// The tackle square of the phase (G7.2): the ball's square when players
/// in play of both teams are on it ([`on_ball`], given); else [`NONE`].
pub fn tackle_square(pos: &Position, on_ball: u32) -> u8 {
    if on_ball & Team::Red.mask() != 0 && on_ball & Team::Blu.mask() != 0 {
        pos.ball.at
    } else {
        NONE
    }
}

/// The players of the resolution who did not decline and are in play on
/// its square (G8.3).
pub fn participants(pos: &Position) -> u32 {
    match &pos.resolution {
        Some(r) => pos.in_play_on(r.square) & !r.declined_mask(),
        None => 0,
    }
}

/// Whether `p` won every pair of the given kinds he is in (and is in one).
fn won_every(pos: &Position, p: u8, kind: Option<TackleKind>) -> (bool, bool) {
    let Some(r) = &pos.resolution else {
        return (false, false);
    };
    let mut any = false;
    let mut all = true;
    for t in r.tackles() {
        if kind.is_some_and(|k| k != t.kind) || !t.involves(p) {
            continue;
        }
        any = true;
        if t.winner() != Some(p) {
            all = false;
        }
    }
    (any, all)
}

/// The receivers who may catch without a contest, or who contest
/// (G8.4 step 5): in play, and won every block pair they were in.
pub fn eligible_receivers(pos: &Position) -> u32 {
    let Some(r) = &pos.resolution else { return 0 };
    let mut m = 0;
    for p in members(r.receivers_mask()) {
        if !pos.in_play(p) {
            continue;
        }
        let (_, all) = won_every(pos, p, Some(TackleKind::Block));
        if all {
            m |= bit(p);
        }
    }
    m
}

/// Who may try the next catch of the resolution, and whether `catch
/// none` is open: `(team, allowed, none_ok)`. `allowed` is empty when no
/// `catch` decision is due (G5.4: none is asked).
pub fn catch_options(pos: &Position) -> (Team, u32, bool) {
    let empty = (Team::Red, 0, true);
    let Some(r) = &pos.resolution else {
        return empty;
    };
    if pos.ball.holder != NONE || r.n_catchers >= 2 {
        return empty;
    }
    let tried = r.catchers_mask();
    let on = pos.in_play_on(r.square);
    let team_of_mask = |m: u32| {
        if m & Team::Red.mask() != 0 {
            Team::Red
        } else {
            Team::Blu
        }
    };
    match r.kind {
        ResKind::Catch => {
            let t = team_of_mask(on);
            (t, on & t.mask() & !tried, true)
        }
        ResKind::Ruck if r.receivers == [None, None] => {
            let part = on & !r.declined_mask();
            let t = team_of_mask(part);
            if part & t.other().mask() != 0 {
                return empty;
            }
            (t, part & !tried, true)
        }
        ResKind::Ruck => {
            let contest = r.tackles().iter().any(|t| t.kind == TackleKind::Contest);
            if contest {
                let mut cands = 0u32;
                let mut top = 0u8;
                for p in members(r.receivers_mask()) {
                    if !pos.in_play(p) {
                        continue;
                    }
                    let (any, all) = won_every(pos, p, Some(TackleKind::Contest));
                    if any && all {
                        cands |= bit(p);
                        top = top.max(contest_roll(pos, p));
                    }
                }
                let t = team_of_mask(cands);
                let allowed = if tried == 0 {
                    members(cands)
                        .filter(|&p| contest_roll(pos, p) == top)
                        .fold(0, |m, p| m | bit(p))
                } else {
                    cands & !tried
                };
                (t, allowed, true)
            } else {
                let el = eligible_receivers(pos);
                let t = team_of_mask(el);
                if el & t.other().mask() != 0 {
                    return empty;
                }
                (t, el & !tried, true)
            }
        }
        ResKind::Maul => {
            let mut cands = 0u32;
            let mut tackling = Team::Red;
            for t in r.tackles() {
                if t.kind == TackleKind::Carrier {
                    tackling = team_of(t.y);
                    if t.ry > t.rx && pos.in_play(t.y) {
                        cands |= bit(t.y);
                    }
                }
            }
            (tackling, cands & !tried, tried != 0)
        }
    }
}

/// A contestant's modified roll in the receivers' contest (G8.5).
pub fn contest_roll(pos: &Position, p: u8) -> u8 {
    let Some(r) = &pos.resolution else { return 0 };
    for t in r.tackles() {
        if t.kind == TackleKind::Contest {
            if t.x == p {
                return t.rx;
            }
            if t.y == p {
                return t.ry;
            }
        }
    }
    0
}

/// The team-mates in play who come before `p` in the movement order:
/// those who "already moved" this phase (G6.5).
pub fn moved_before(pos: &Position, p: u8) -> u32 {
    let mut m = 0;
    for q in members(groups(pos).before(p) & team_of(p).mask()) {
        if pos.in_play(q) {
            m |= bit(q);
        }
    }
    m
}

/// G6.5: whether the wall player `p` may jump in direction `d`, given
/// the team-mates who already moved ([`moved_before`]).
pub fn move_ok_after(pos: &Position, p: u8, d: u8, before: u32) -> bool {
    let sq = pos.players[p as usize].at;
    if pos.ball.holder == p || sq == NONE || !board::wall_step_ok(sq, d) {
        return false;
    }
    let n = board::neighbour(sq, d);
    // GANGING: a team-mate who already moved this phase stands on n
    // facing d.
    !(board::is_air(n)
        && members(before).any(|q| {
            let ql = &pos.players[q as usize];
            ql.at == n && ql.facing == d
        }))
}

/// G6.5 for one direction.
pub fn move_ok(pos: &Position, p: u8, d: u8) -> bool {
    move_ok_after(pos, p, d, moved_before(pos, p))
}

/// The directions G6.5's GANGING bars the wall player `p` from: those
/// of a team-mate who already moved this phase ([`moved_before`]) and
/// stands on the air square that way facing it. The same judgement as
/// [`move_ok_after`]'s, found from the team-mates' side: a team-mate in
/// that place is rare, so the movement order, the costly part, is
/// worked out only when one is — this is asked for every wall player's
/// decision, and the engine asks for each whether it has a choice.
pub fn ganging_barred(pos: &Position, p: u8) -> u8 {
    let sq = pos.players[p as usize].at;
    if sq == NONE {
        return 0;
    }
    // Whether any team-mate (in play or not) stands on an air square
    // next to `sq` at all, without a branch: mostly none does, and the
    // judgement stops here.
    let mut around = 0u64;
    for ql in pos.team_players(team_of(p)) {
        around |= 1 << (ql.at & 63);
    }
    if around & board::air_around(sq) == 0 {
        return 0;
    }
    let mut near = 0u32;
    for q in members(pos.roster & team_of(p).mask() & !bit(p)) {
        let ql = &pos.players[q as usize];
        if ql.at != NONE
            && ql.out == Status::None
            && ql.facing < 8
            && board::is_air(ql.at)
            && board::neighbour(sq, ql.facing) == ql.at
        {
            near |= bit(q);
        }
    }
    if near == 0 {
        return 0;
    }
    let mut barred = 0u8;
    for q in members(groups(pos).before(p) & near) {
        barred |= 1 << pos.players[q as usize].facing;
    }
    barred
}

/// G9.1: whether turning `v` to face `d` would make him face like a
/// team-mate in play on his square (judged now, G20 #64).
pub fn turn_blocked(pos: &Position, v: u8, d: u8) -> bool {
    let sq = pos.players[v as usize].at;
    let mates = pos.in_play_on(sq) & team_of(v).mask() & !bit(v);
    members(mates).any(|q| pos.players[q as usize].facing == d)
}

/// The direction a turn gives.
pub fn turned(facing: u8, way: Way) -> u8 {
    match way {
        Way::Left => board::left(facing),
        Way::Right => board::right(facing),
        Way::None => facing,
    }
}

/// G10.2.
pub fn throw_ok(pos: &Position, h: u8, d: u8) -> bool {
    let sq = pos.players[h as usize].at;
    if sq == NONE || board::neighbour(sq, d) == NONE {
        return false;
    }
    if board::is_wall(sq) && !board::wall_step_ok(sq, d) {
        return false;
    }
    let team = team_of(h);
    if board::is_forward(d, team) && !(board::is_air(sq) || board::is_end_wall_of(sq, team)) {
        return false;
    }
    true
}

/// Why `q` may not receive a hand-off from `h`, or `None` (G10.4).
pub fn handoff_bar(pos: &Position, h: u8, q: u8) -> Option<&'static str> {
    let sq = pos.players[h as usize].at;
    let team = team_of(h);
    if q == h || team_of(q) != team {
        return Some("a hand-off goes to a team-mate (G10.4)");
    }
    if !pos.in_play(q) || pos.players[q as usize].at != sq {
        return Some("the receiver must be a team-mate in play on the holder's square (G10.4)");
    }
    if board::is_goal_of(sq, team) {
        return Some("no hand-off on the holder's own goal square (G10.4, G10.5 OFFSIDE)");
    }
    if let Some(r) = &pos.resolution {
        if r.declined_mask() & bit(q) != 0 {
            return Some("the receiver declined in this phase (G8.3, G10.4)");
        }
        if r.fumbled_receivers() & bit(q) != 0 {
            return Some(
                "the receiver fumbled a block as a receiver in this phase (G8.4 step 5, G10.4)",
            );
        }
    }
    if (pos.lost_tackle | pos.failed_catch) & bit(q) != 0 {
        return Some("the receiver lost a tackle or failed a catch roll in this turn (G5.5, G10.4)");
    }
    if board::is_wall(sq) {
        let declined = pos.resolution.as_ref().map_or(0, |r| r.declined_mask());
        let opp = pos.in_play_on(sq) & team.other().mask() & !declined;
        if members(opp).any(|o| star_tackler(pos, o)) {
            return Some(
                "an effective star tackler of the other team is on the wall square (G10.4)",
            );
        }
    }
    None
}

/// The players a decline may name (G8.3).
pub fn decliners(pos: &Position, team: Team) -> u32 {
    match &pos.resolution {
        Some(r) => {
            let mut m = pos.in_play_on(r.square) & team.mask();
            if pos.ball.holder != NONE {
                m &= !bit(pos.ball.holder);
            }
            m
        }
        None => 0,
    }
}

/// The opponents a blocker may choose (G8.4 step 4, G8.7 step 3).
pub fn block_targets(pos: &Position, b: u8) -> u32 {
    let Some(r) = &pos.resolution else { return 0 };
    let other = team_of(b).other();
    match r.kind {
        ResKind::Ruck => r.receivers[other.index()].unwrap_or(0),
        ResKind::Maul => participants(pos) & other.mask(),
        ResKind::Catch => 0,
    }
}

/// Calls `f` with every legal action until it returns false: the rules'
/// list, less what a ruleset's variants refuse (`allow`).
#[inline]
pub fn legal_visit(g: &Gball, pos: &Position, f: &mut impl FnMut(Action) -> bool) {
    if let Some(s) = &g.script
        && s.hooks(super::script::Point::Allow)
    {
        return visit_allowed(g, pos, s, f);
    }
    raw_visit(g, pos, f);
}

/// [`legal_visit`] through the variants' `allow`: out of line.
#[cold]
#[inline(never)]
fn visit_allowed(
    g: &Gball,
    pos: &Position,
    s: &super::script::Script,
    f: &mut impl FnMut(Action) -> bool,
) {
    for a in s.allowed(g, pos) {
        if !f(a) {
            return;
        }
    }
}

/// Whether the rules (without the variants' `allow`) allow `action`.
pub fn is_legal_by_rules(g: &Gball, pos: &Position, action: Action) -> bool {
    let mut found = false;
    raw_visit(g, pos, &mut |a| {
        found = a == action;
        !found
    });
    found
}

/// Calls `f` with every action the rules allow until it returns false.
pub fn raw_visit(g: &Gball, pos: &Position, f: &mut impl FnMut(Action) -> bool) {
    let Some(pending) = pos.pending else { return };
    macro_rules! emit {
        ($a:expr) => {
            if !f($a) {
                return;
            }
        };
    }
    match pending {
        Pending::Place(team) => {
            let squares = match team {
                Team::Red => &board::RED_PLACEMENT,
                Team::Blu => &board::BLU_PLACEMENT,
            };
            for p in members(pos.roster & team.mask()) {
                let pl = &pos.players[p as usize];
                if pl.at == NONE && pl.out == super::position::Status::None {
                    for &sq in squares {
                        emit!(Action::Place {
                            player: p,
                            square: sq
                        });
                    }
                }
            }
        }
        Pending::Move(p) => {
            // `move_ok` for every direction at once: the steps from the
            // square, less the bar (none for the holder, G6.5).
            let sq = pos.players[p as usize].at;
            let mut moves = 0;
            if pos.ball.holder != p {
                moves = board::wall_steps(sq);
                if moves != 0 {
                    moves &= !ganging_barred(pos, p);
                }
            }
            let any = moves != 0;
            while moves != 0 {
                let d = moves.trailing_zeros() as u8;
                moves &= moves - 1;
                emit!(Action::Move { player: p, dir: d });
            }
            let on_goal = {
                let sq = pos.players[p as usize].at;
                sq != NONE && board::kind(sq) == board::Kind::Goal
            };
            if !(on_goal && any) {
                emit!(Action::Stay { player: p });
                if let Some(s) = &g.script {
                    for a in s.actions_for(pos, p) {
                        emit!(a);
                    }
                }
            }
        }
        Pending::Turn { actor, target } => {
            emit!(Action::Turn {
                actor,
                target,
                way: Way::None
            });
            let facing = pos.players[target as usize].facing;
            for way in [Way::Left, Way::Right] {
                if facing != NONE && !turn_blocked(pos, target, turned(facing, way)) {
                    emit!(Action::Turn {
                        actor,
                        target,
                        way
                    });
                }
            }
        }
        Pending::Decline(team) => {
            emit!(Action::Decline(0));
            let m = decliners(pos, team);
            let mut s = m;
            while s != 0 {
                emit!(Action::Decline(s));
                s = (s - 1) & m;
            }
        }
        Pending::Receivers(team) => {
            emit!(Action::Receivers(0));
            let part = participants(pos) & team.mask();
            for a in members(part) {
                emit!(Action::Receivers(bit(a)));
                for b in members(part & !((bit(a) << 1) - 1)) {
                    emit!(Action::Receivers(bit(a) | bit(b)));
                }
            }
        }
        Pending::Block(b) => {
            for r in members(block_targets(pos, b)) {
                emit!(Action::Block {
                    blocker: b,
                    opponent: r
                });
            }
        }
        Pending::Catch(_) => {
            let (_, allowed, none_ok) = catch_options(pos);
            for p in members(allowed) {
                emit!(Action::Catch(Some(p)));
            }
            if none_ok {
                emit!(Action::Catch(None));
            }
        }
        Pending::Aim(_) => {
            for d in 0..8 {
                emit!(Action::Aim(d));
            }
        }
        Pending::Act(h) => {
            let pl = &pos.players[h as usize];
            let team = team_of(h);
            if !board::is_goal_of(pl.at, team) && pl.out == super::position::Status::None {
                emit!(Action::Keep(h));
            }
            for d in 0..8 {
                if throw_ok(pos, h, d) {
                    emit!(Action::Throw { holder: h, dir: d });
                }
            }
            emit!(Action::Spin(h));
            let mates = pos.in_play_on(pl.at) & team.mask() & !bit(h);
            for q in members(mates) {
                if handoff_bar(pos, h, q).is_none() {
                    emit!(Action::Handoff { holder: h, to: q });
                }
            }
        }
    }
    let _ = g;
}

/// Every legal action, in generation order (not sorted: the canonical
/// list is `Title::canonical_legal`).
pub fn legal_into(g: &Gball, pos: &Position, out: &mut Vec<Action>) {
    out.clear();
    legal_visit(g, pos, &mut |a| {
        out.push(a);
        true
    });
}

/// The number of legal actions, counted up to 2, and the first one.
pub fn first_two(g: &Gball, pos: &Position) -> (usize, Option<Action>) {
    let mut n = 0;
    let mut first = None;
    legal_visit(g, pos, &mut |a| {
        if n == 0 {
            first = Some(a);
        }
        n += 1;
        n < 2
    });
    (n, first)
}

/// [`first_two`] of the rules' list (without the variants' `allow`).
pub fn first_two_by_rules(g: &Gball, pos: &Position) -> (usize, Option<Action>) {
    let mut n = 0;
    let mut first = None;
    raw_visit(g, pos, &mut |a| {
        if n == 0 {
            first = Some(a);
        }
        n += 1;
        n < 2
    });
    (n, first)
}

pub fn is_legal(g: &Gball, pos: &Position, action: Action) -> bool {
    let mut found = false;
    legal_visit(g, pos, &mut |a| {
        found = a == action;
        !found
    });
    found
}

/// `STAR_C`/`STAR_T` bonus for a roll (G2.2).
pub fn bonus(g: &Gball, pos: &Position, p: u8, star: u8) -> u32 {
    if effective(pos, p, star) {
        u32::from(g.params.star_bonus)
    } else {
        0
    }
}

pub const CATCH: u8 = STAR_C;
pub const TACKLE: u8 = STAR_T;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::game::Game;
    use crate::kernel::rng::SplitMix64;

    /// [`ganging_barred`] is G6.5's judgement of [`move_ok_after`] with
    /// [`moved_before`], direction by direction, on every wall player's
    /// decision of random matches — some of which a team-mate bars; and
    /// [`order_key`] is the key of the whole order, for every player.
    #[test]
    fn ganging_barred_is_move_ok_after() {
        let g = Gball::standard();
        let mut barring = 0;
        for seed in 0..4u64 {
            let mut pos = g.start(seed);
            let mut pick = SplitMix64::new(seed);
            let mut legal = Vec::new();
            for _ in 0..40_000 {
                legal_into(&g, &pos, &mut legal);
                if legal.is_empty() {
                    break;
                }
                for p in 0..18 {
                    assert_eq!(order_key(&pos, p), groups(&pos).key(p), "seed {seed}, {p}");
                }
                if let Some(Pending::Move(p)) = pos.pending {
                    let before = moved_before(&pos, p);
                    let barred = ganging_barred(&pos, p);
                    barring += usize::from(barred != 0);
                    for d in 0..8 {
                        assert_eq!(
                            move_ok_after(&pos, p, d, before),
                            barred & (1 << d) == 0 && move_ok_after(&pos, p, d, 0),
                            "seed {seed}, player {p}, direction {d}"
                        );
                    }
                }
                let a = legal[pick.below(legal.len())];
                g.apply(&mut pos, a);
            }
        }
        assert!(barring > 0, "no position where a team-mate bars a jump");
    }
}
