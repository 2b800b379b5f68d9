//! One or more unit tests per rule of `docs/rules/ball.md`, B3.4 through B10.4.
//!
//! Each test is named after its rule and cites it. Positions are built with
//! the scenario `setup:` mini-language (pieces not placed stay on their
//! B3.1 squares), so every board here passed the same validation as any
//! position input. Expectations are worked out by hand from the spec, not
//! copied from the engine's output.

use ball::games::ball::Ball;
use ball::games::ball::action::{self, Action};
use ball::games::ball::board::Sq;
use ball::games::ball::event::{Event, Taking};
use ball::games::ball::params::Params;
use ball::games::ball::piece::{PieceId, Team};
use ball::games::ball::position::{BallState, Outcome, Phase, Position, Stack};
use ball::scenario;

// ---------------------------------------------------------------- helpers

fn game() -> Ball {
    Ball::default()
}

/// The start position edited by `setup:` lines (one a line).
fn setup(lines: &str) -> Position {
    let text = format!("setup:\n{lines}\n");
    scenario::parse(&text, &game())
        .unwrap_or_else(|e| panic!("bad test setup: {e}\n{lines}"))
        .start
}

fn sq(s: &str) -> Sq {
    Sq::parse(s).unwrap_or_else(|_| panic!("`{s}` is not a playable square"))
}

fn id(s: &str) -> PieceId {
    PieceId::parse(s).unwrap_or_else(|| panic!("`{s}` is not a piece id"))
}

fn act(s: &str) -> Action {
    action::parse(s).unwrap_or_else(|e| panic!("{e}"))
}

/// The canonical legal list.
fn legal(pos: &Position) -> Vec<String> {
    game().canonical_legal(pos)
}

fn is_legal(pos: &Position, s: &str) -> bool {
    legal(pos).contains(&act(s).to_string())
}

/// The legal actions starting with `prefix` (e.g. `"move DEF3 "`).
fn legal_with(pos: &Position, prefix: &str) -> Vec<String> {
    legal(pos)
        .into_iter()
        .filter(|a| a.starts_with(prefix))
        .collect()
}

/// The legal actions whose acting piece (first argument) is `piece`.
fn legal_of(pos: &Position, piece: &str) -> Vec<String> {
    legal(pos)
        .into_iter()
        .filter(|a| a.split(' ').nth(1) == Some(piece))
        .collect()
}

/// `list` in canonical (byte) order.
fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Plays a legal action, returning its events; panics if it is refused.
fn play(pos: &mut Position, s: &str) -> Vec<Event> {
    let mut log = Vec::new();
    game()
        .play(pos, act(s), &mut log)
        .unwrap_or_else(|e| panic!("`{s}` was refused: {e}"));
    log
}

/// Asserts that `s` is refused, not listed, and leaves `pos` unchanged;
/// returns the rule id the refusal names.
fn refused(pos: &Position, s: &str) -> &'static str {
    assert!(!is_legal(pos, s), "`{s}` is in the legal list");
    let mut copy = *pos;
    let e = game()
        .play(&mut copy, act(s), &mut ())
        .expect_err(&format!("`{s}` should be refused"));
    assert_eq!(copy, *pos, "refusing `{s}` changed the position");
    e.rule
}

fn at(pos: &Position, piece: &str) -> String {
    pos.piece(id(piece)).at.to_string()
}

fn is_down(pos: &Position, piece: &str) -> bool {
    pos.piece(id(piece)).down
}

fn is_restricted(pos: &Position, piece: &str) -> bool {
    pos.piece(id(piece)).restricted
}

fn held_by(piece: &str) -> BallState {
    BallState::Held(id(piece))
}

fn loose(s: &str) -> BallState {
    BallState::Loose(sq(s))
}

fn stack(at: &str, top: &str, bottom: &str, formed: u16) -> Stack {
    Stack {
        at: sq(at),
        top: id(top),
        bottom: id(bottom),
        formed,
    }
}

fn stacks(pos: &Position) -> Vec<Stack> {
    pos.stacks.as_slice().to_vec()
}

// ------------------------------------------------------- B3.4 touchdown

/// B3.4: a move that brings the holder into its scoring end zone (ATK:
/// rows 16–17, B1.4) scores at the end of the action.
#[test]
fn b3_4_move_into_scoring_end_zone_with_ball_scores() {
    let mut pos = setup("turn 4 ATK action 2\nplace ATK5 G15");
    assert_eq!(pos.ball, held_by("ATK5"));
    let log = play(&mut pos, "move ATK5 H16");
    assert_eq!(pos.score, [1, 0]);
    assert!(log.contains(&Event::Touchdown { team: Team::Atk }));
}

/// B3.4: the holder scores "in any state": a top that takes the ball from
/// its bottom (B7.3) inside the end zone scores though it is stacked.
#[test]
fn b3_4_stacked_holder_in_end_zone_scores() {
    let mut pos = setup("turn 4 ATK action 2\nplace ATK3 G15\nplace DEF3 H16\nball held DEF3");
    let log = play(&mut pos, "block ATK3 H16");
    assert_eq!(pos.score, [1, 0]);
    assert_eq!(
        log[..3],
        [
            Event::StackFormed {
                top: id("ATK3"),
                bottom: id("DEF3"),
                at: sq("H16")
            },
            Event::BallTaken {
                piece: id("ATK3"),
                how: Taking::Stack
            },
            Event::Touchdown { team: Team::Atk },
        ]
    );
}

/// B3.4 with B9.2: taking the loose ball inside the end zone scores.
#[test]
fn b3_4_taking_loose_ball_in_end_zone_scores() {
    let mut pos = setup("turn 4 ATK action 2\nball loose H16\nplace ATK3 G15");
    play(&mut pos, "move ATK3 H16");
    assert_eq!(pos.score, [1, 0]);
}

/// B3.4: a hand-off (0 AP) is an action-phase action and scores too.
#[test]
fn b3_4_handoff_to_piece_in_end_zone_scores() {
    let mut pos = setup("turn 4 ATK action 2\nplace ATK5 G15\nplace ATK3 H16");
    play(&mut pos, "handoff ATK5 ATK3");
    assert_eq!(pos.score, [1, 0]);
}

/// B3.4, B1.4: holding the ball in one's *own* end zone scores nothing,
/// and a long pass into the scoring zone leaves the ball loose: no score.
#[test]
fn b3_4_own_end_zone_and_loose_ball_do_not_score() {
    let mut pos = setup("turn 4 ATK action 2\nplace ATK5 G1");
    play(&mut pos, "move ATK5 F2");
    assert_eq!(pos.score, [0, 0]);
    assert_eq!((pos.turn, pos.ap), (4, 1));

    let mut pos = setup("turn 4 ATK action 2");
    play(&mut pos, "lpass ATK5 G17");
    assert_eq!(pos.ball, loose("G17"));
    assert_eq!(pos.score, [0, 0]);
}

/// B3.4: release-phase tasks never score; the holder left in the zone
/// scores with its team's next action-phase action (here `end`), and the
/// other team's actions never score for it.
#[test]
fn b3_4_release_task_never_scores_next_own_action_does() {
    let mut pos = setup("turn 6 ATK release 0\nstack G15 ATK3 DEF3 5\nball held ATK3");
    // F14 (DEF6) and H14 (DEF7) are taken: F16 and H16 remain.
    assert_eq!(
        legal(&pos),
        sorted(&[
            "release ATK3 F16 H16 keep ATK3",
            "release ATK3 F16 H16 keep DEF3",
            "release ATK3 H16 F16 keep ATK3",
            "release ATK3 H16 F16 keep DEF3",
        ])
    );
    let log = play(&mut pos, "release ATK3 H16 F16 keep ATK3");
    assert!(!log.iter().any(|e| matches!(e, Event::Touchdown { .. })));
    assert_eq!(pos.score, [0, 0]);
    assert_eq!(pos.ball, held_by("ATK3"));
    assert_eq!(
        (pos.turn, pos.to_move, pos.phase),
        (7, Team::Def, Phase::Action)
    );

    play(&mut pos, "end"); // DEF's action: ATK3 sits in ATK's zone, no score
    assert_eq!(pos.score, [0, 0]);
    assert_eq!((pos.turn, pos.to_move), (8, Team::Atk));

    let log = play(&mut pos, "end");
    assert!(log.contains(&Event::Touchdown { team: Team::Atk }));
    assert_eq!(pos.score, [1, 0]);
}

/// B3.4, B5.4: a forced fumble whose exit is in the scoring end zone
/// scores at once.
#[test]
fn b3_4_forced_fumble_exit_in_end_zone_scores() {
    let mut pos = setup("turn 4 ATK action 2\nplace ATK3 G13\nplace DEF5 I15\nball held DEF5");
    // G13-I15 over H14 (DEF7, active): a dodge; exit H16 is in DEF's end zone.
    let log = play(&mut pos, "dodge ATK3 I15 H16");
    assert!(log.contains(&Event::Touchdown { team: Team::Atk }));
    assert_eq!(pos.score, [1, 0]);
}

/// B3.4: a stand-up (a release task) carrying the ball into the scoring
/// end zone does not score; the team's next action-phase action does.
#[test]
fn b3_4_standup_with_ball_into_end_zone_does_not_score() {
    let mut pos = setup("turn 6 ATK release 0\nplace ATK3 G15 down\nball held ATK3");
    play(&mut pos, "standup ATK3 H16");
    assert_eq!(pos.score, [0, 0]);
    assert_eq!((pos.turn, pos.to_move), (7, Team::Def));
    assert_eq!(pos.ball, held_by("ATK3"));
    play(&mut pos, "end"); // DEF's turn: no score for ATK
    assert_eq!(pos.score, [0, 0]);
    let log = play(&mut pos, "end"); // ATK's turn 8
    assert!(log.contains(&Event::Touchdown { team: Team::Atk }));
    assert_eq!(pos.score, [1, 0]);
}

// ------------------------------------------------ B3.5 touchdown reset

/// B3.5: a touchdown ends the turn at once; pieces go back to the setup,
/// all active, no stacks or restrictions, the conceding team's #5 holds
/// the ball, the scorer moves next with turn + 1 and fresh AP; EP stay.
#[test]
fn b3_5_touchdown_resets_to_setup_and_scorer_moves_next() {
    let mut pos = setup(
        "turn 4 ATK action 2\nscore 0 1\nplace ATK5 G15\nplace DEF1 A9 down\n\
         stack C3 DEF2 ATK2 3\nplace ATK3 K9 restricted",
    );
    pos.ep = [3, 5];
    let log = play(&mut pos, "move ATK5 H16");

    let params = Params::default();
    let mut expected = Position::start(&params);
    expected.turn = 5;
    expected.to_move = Team::Atk;
    expected.score = [1, 1];
    expected.ep = [3, 5];
    expected.ball = held_by("DEF5");
    assert_eq!(pos, expected);
    assert!(pos.stacks.is_empty());
    assert!(pos.pieces.iter().all(|p| !p.down && !p.restricted));
    assert_eq!(at(&pos, "DEF1"), "C11");
    assert_eq!(at(&pos, "ATK2"), "E7");
    assert_eq!(
        log,
        [
            Event::Touchdown { team: Team::Atk },
            Event::TurnStarted {
                team: Team::Atk,
                turn: 5
            }
        ]
    );
    // No release phase was played: ATK (not DEF) is to move, in its action phase.
    assert_eq!((pos.phase, pos.ap), (Phase::Action, 2));
}

/// B3.5: a DEF touchdown gives the ball to ATK5 and DEF the next turn.
#[test]
fn b3_5_def_touchdown_gives_ball_to_atk5() {
    let mut pos = setup("turn 9 DEF action 2\nplace DEF3 H4\nball held DEF3\nplace ATK7 M3");
    play(&mut pos, "move DEF3 G3"); // row 3: not yet
    assert_eq!(pos.score, [0, 0]);
    play(&mut pos, "move DEF3 F2");
    assert_eq!(pos.score, [0, 1]);
    assert_eq!((pos.turn, pos.to_move, pos.ap), (10, Team::Def, 2));
    assert_eq!(pos.ball, held_by("ATK5"));
    assert_eq!(at(&pos, "DEF3"), "I11");
    assert_eq!(at(&pos, "ATK7"), "H4");
}

/// B3.5: a touchdown scored by `end` skips the release phase: the own
/// down piece gets no stand-up, everything is reset, the scorer plays on.
#[test]
fn b3_5_touchdown_on_end_skips_release_phase() {
    let mut pos = setup("turn 7 DEF action 2\nplace DEF3 H2\nball held DEF3\nplace DEF5 G9 down");
    let log = play(&mut pos, "end");
    assert_eq!(
        log,
        [
            Event::Touchdown { team: Team::Def },
            Event::TurnStarted {
                team: Team::Def,
                turn: 8
            }
        ]
    );
    assert_eq!(pos.score, [0, 1]);
    assert_eq!(
        (pos.turn, pos.to_move, pos.phase, pos.ap),
        (8, Team::Def, Phase::Action, 2)
    );
    assert_eq!(pos.ball, held_by("ATK5"));
    assert_eq!(at(&pos, "DEF5"), "G13");
    assert!(!is_down(&pos, "DEF5"));
}

// ----------------------------------------------------------- B3.6 end

/// B3.6: the winning touchdown freezes the position as it stood: no
/// reset, no new turn, phase action with the AP left; no legal actions.
#[test]
fn b3_6_winning_touchdown_freezes_the_position() {
    let mut pos = setup("turn 10 ATK action 2\nscore 2 0\nplace ATK5 G15\nplace DEF1 A9 down");
    let log = play(&mut pos, "move ATK5 H16");
    assert_eq!(pos.outcome, Some(Outcome::Winner(Team::Atk)));
    assert_eq!(pos.score, [3, 0]);
    assert_eq!(
        (pos.turn, pos.to_move, pos.phase, pos.ap),
        (10, Team::Atk, Phase::Action, 1)
    );
    assert_eq!(at(&pos, "ATK5"), "H16");
    assert_eq!(pos.ball, held_by("ATK5"));
    assert!(is_down(&pos, "DEF1"));
    assert_eq!(
        log,
        [
            Event::Touchdown { team: Team::Atk },
            Event::GameOver {
                outcome: Outcome::Winner(Team::Atk)
            }
        ]
    );
    assert!(legal(&pos).is_empty());
    assert_eq!(refused(&pos, "end"), "B3.6");
}

/// B3.6, B3.4: a touchdown scored by `end` (a down holder left in the zone
/// by the other coach's `keep`) keeps phase action with AP 0; the down
/// holder is not stood up, nothing is reset.
#[test]
fn b3_6_touchdown_on_end_keeps_ap_zero() {
    let mut pos = setup("turn 11 DEF action 2\nscore 0 2\nplace DEF3 H2 down\nball held DEF3");
    play(&mut pos, "end");
    assert_eq!(pos.outcome, Some(Outcome::Winner(Team::Def)));
    assert_eq!(pos.score, [0, 3]);
    assert_eq!(
        (pos.turn, pos.to_move, pos.phase, pos.ap),
        (11, Team::Def, Phase::Action, 0)
    );
    assert_eq!(at(&pos, "DEF3"), "H2");
    assert!(is_down(&pos, "DEF3"));
    assert!(legal(&pos).is_empty());
    assert_eq!(refused(&pos, "standup DEF3 G1"), "B3.6");
}

/// B3.6: when turn `turn_limit` (60) has ended the game ends, frozen in
/// phase release with AP 0; more touchdowns wins.
#[test]
fn b3_6_turn_limit_ends_game_in_release_phase() {
    let mut pos = setup("turn 60 ATK action 2\nscore 1 0");
    let log = play(&mut pos, "end");
    assert_eq!(pos.outcome, Some(Outcome::Winner(Team::Atk)));
    assert_eq!(
        (pos.turn, pos.to_move, pos.phase, pos.ap),
        (60, Team::Atk, Phase::Release, 0)
    );
    assert_eq!(
        log,
        [Event::GameOver {
            outcome: Outcome::Winner(Team::Atk)
        }]
    );
    assert!(legal(&pos).is_empty());
    assert_eq!(refused(&pos, "move ATK3 H8"), "B3.6");
}

/// B3.6, B10.1: the last turn's release tasks are played first; equal
/// touchdowns is a draw.
#[test]
fn b3_6_turn_limit_after_release_tasks_is_a_draw() {
    let mut pos = setup("turn 60 DEF action 1\nscore 1 1\nplace DEF3 G9 down");
    play(&mut pos, "end");
    assert_eq!(pos.outcome, None);
    assert_eq!(pos.phase, Phase::Release);
    assert_eq!(
        legal(&pos),
        sorted(&[
            "standup DEF3 F10",
            "standup DEF3 F8",
            "standup DEF3 H10",
            "standup DEF3 H8"
        ])
    );
    play(&mut pos, "standup DEF3 F8");
    assert_eq!(pos.outcome, Some(Outcome::Draw));
    assert_eq!((pos.turn, pos.phase, pos.ap), (60, Phase::Release, 0));
    assert!(!is_down(&pos, "DEF3"));
    assert!(legal(&pos).is_empty());
}

/// B3.6: a touchdown in the last turn ends the game too (no reset).
#[test]
fn b3_6_touchdown_in_last_turn_ends_game() {
    let mut pos = setup("turn 60 ATK action 2\nplace ATK5 G15");
    play(&mut pos, "move ATK5 H16");
    assert_eq!(pos.outcome, Some(Outcome::Winner(Team::Atk)));
    assert_eq!(pos.score, [1, 0]);
    assert_eq!((pos.turn, pos.phase, pos.ap), (60, Phase::Action, 1));
    assert_eq!(at(&pos, "ATK5"), "H16");
}

/// B3.6: `touchdowns_to_win` is a parameter.
#[test]
fn b3_6_touchdowns_to_win_is_a_parameter() {
    let one = Ball::new(Params {
        touchdowns_to_win: 1,
        ..Params::default()
    });
    let mut pos = setup("turn 4 ATK action 2\nplace ATK5 G15");
    one.play(&mut pos, act("move ATK5 H16"), &mut ()).unwrap();
    assert_eq!(pos.outcome, Some(Outcome::Winner(Team::Atk)));
    assert!(one.canonical_legal(&pos).is_empty());
}

// -------------------------------------------------- B4 turn structure

/// B4.1: a turn is an action phase, then a release phase (same turn, same
/// coach, only tasks), then the turn passes.
#[test]
fn b4_1_turn_is_action_phase_then_release_phase() {
    let mut pos = setup("turn 3 DEF action 2\nplace DEF3 G9 down");
    assert!(is_legal(&pos, "end"));
    assert!(legal_with(&pos, "standup").is_empty());
    assert_eq!(refused(&pos, "standup DEF3 F8"), "B10.1");

    play(&mut pos, "end");
    assert_eq!(
        (pos.turn, pos.to_move, pos.phase, pos.ap),
        (3, Team::Def, Phase::Release, 0)
    );
    assert_eq!(
        legal(&pos),
        sorted(&[
            "standup DEF3 F10",
            "standup DEF3 F8",
            "standup DEF3 H10",
            "standup DEF3 H8"
        ])
    );
    let log = play(&mut pos, "standup DEF3 H8");
    assert_eq!(
        (pos.turn, pos.to_move, pos.phase, pos.ap),
        (4, Team::Atk, Phase::Action, 2)
    );
    assert_eq!(
        log,
        [
            Event::StoodUp { piece: id("DEF3") },
            Event::TurnStarted {
                team: Team::Atk,
                turn: 4
            }
        ]
    );
}

/// B4.2: move 1 AP, hand-off 0, short pass 1; the same piece may act twice.
#[test]
fn b4_2_move_handoff_short_pass_costs() {
    let mut pos = setup("turn 2 ATK action 2");
    assert_eq!(pos.ap, 2);
    play(&mut pos, "move ATK3 H8");
    assert_eq!(pos.ap, 1);
    play(&mut pos, "handoff ATK5 ATK6");
    assert_eq!(pos.ap, 1);
    play(&mut pos, "spass ATK6 ATK2 D6");
    assert_eq!(pos.ap, 0);

    let mut pos = setup("turn 2 ATK action 2");
    play(&mut pos, "move ATK3 H8");
    play(&mut pos, "move ATK3 G9");
    assert_eq!((pos.ap, at(&pos, "ATK3").as_str()), (0, "G9"));
    // 0 AP: nothing that costs AP is left.
    assert_eq!(refused(&pos, "move ATK3 H10"), "B4.2");
    assert_eq!(refused(&pos, "spass ATK5 ATK2 D6"), "B4.2");
    assert_eq!(refused(&pos, "lpass ATK5 G11"), "B4.2");
}

/// B4.2: a long pass costs 2 AP, so it needs both.
#[test]
fn b4_2_long_pass_costs_two() {
    let mut pos = setup("turn 2 ATK action 2");
    play(&mut pos, "lpass ATK5 G9");
    assert_eq!(pos.ap, 0);
    assert_eq!(pos.ball, loose("G9"));

    let mut pos = setup("turn 2 ATK action 2");
    play(&mut pos, "move ATK3 H8");
    assert_eq!(pos.ap, 1);
    assert!(legal_with(&pos, "lpass").is_empty());
    assert_eq!(refused(&pos, "lpass ATK5 G11"), "B4.2");
    assert!(is_legal(&pos, "spass ATK5 ATK2 D6"));
}

/// B4.2: dodge, tactical dodge, block and protect cost 1 AP each.
#[test]
fn b4_2_dodge_tdodge_block_protect_cost_one() {
    let base = "turn 2 ATK action 2\nplace ATK3 G9\nplace DEF3 H10\nplace DEF5 E11\nplace DEF2 A15\nplace ATK2 F10";
    for a in [
        "tdodge ATK3 I11 I9",
        "block ATK3 H10",
        "protect ATK2 G9",
        "dodge ATK3 E11 D12",
    ] {
        let mut pos = setup(base);
        play(&mut pos, a);
        assert_eq!(pos.ap, 1, "{a}");
    }
}

/// B4.3: `end` is always legal in the action phase, at 2 AP or at 0, and
/// unspent AP are lost (AP 0 until the turn passes).
#[test]
fn b4_3_end_always_legal_and_unspent_ap_lost() {
    let mut pos = setup("turn 2 ATK action 2");
    assert!(is_legal(&pos, "end"));
    let log = play(&mut pos, "end");
    assert_eq!(
        log,
        [Event::TurnStarted {
            team: Team::Def,
            turn: 3
        }]
    );
    assert_eq!((pos.turn, pos.to_move, pos.ap), (3, Team::Def, 2));

    // At 0 AP `end` is still there.
    play(&mut pos, "move DEF3 H10");
    play(&mut pos, "move DEF3 G9");
    assert_eq!(pos.ap, 0);
    assert_eq!(legal(&pos), ["end"]);

    // With a task left the release phase shows AP 0.
    let mut pos = setup("turn 2 ATK action 2\nplace ATK3 G9 down");
    play(&mut pos, "end");
    assert_eq!((pos.phase, pos.ap), (Phase::Release, 0));
    assert_eq!(refused(&pos, "end"), "B10.1");
}

/// B4.4: only an active, unrestricted, own piece starts an action.
#[test]
fn b4_4_only_own_active_piece_starts_an_action() {
    let pos = setup("turn 2 ATK action 2\nplace ATK3 G9 down");
    assert_eq!(refused(&pos, "move DEF3 H10"), "B4.4");
    assert_eq!(refused(&pos, "move ATK3 H10"), "B4.4");
    assert_eq!(refused(&pos, "block ATK3 H10"), "B4.4");
    assert!(legal_of(&pos, "ATK3").is_empty());
    assert!(legal(&pos).iter().all(|a| !a.contains("DEF")));
}

/// B4.4: an action that cannot be completed legally cannot be started: a
/// dodge with no free exit (B5.4) and a tactical dodge with no push
/// square (B6.2) are not offered, though the jumps themselves are fine.
#[test]
fn b4_4_action_that_cannot_be_completed_cannot_start() {
    // Dodge: K11's exits J10 J12 L10 L12 all hold pieces.
    let pos = setup(
        "turn 2 ATK action 2\nplace DEF3 K11\nplace DEF5 J10\nplace DEF1 J12\n\
         place DEF2 L12\nplace DEF4 L10\nplace ATK3 I9",
    );
    assert!(legal_with(&pos, "dodge ATK3").is_empty());
    assert_eq!(refused(&pos, "dodge ATK3 K11 J12"), "B5.4");
    // Tactical dodge: both squares beside the path (G11, I9) are taken.
    let pos =
        setup("turn 2 ATK action 2\nplace ATK3 G9\nplace DEF3 H10\nplace ATK2 G11\nplace DEF5 I9");
    assert!(legal_with(&pos, "tdodge").is_empty());
    assert!(is_legal(&pos, "move ATK3 I11"));
    assert_eq!(refused(&pos, "tdodge ATK3 I11 G11"), "B6.2");
}

/// B4.5: ending a move on the loose ball restricts the taker: no further
/// action this turn, hand-off included.
#[test]
fn b4_5_loose_ball_taker_cannot_act_even_handoff() {
    let mut pos = setup("turn 2 ATK action 2\nball loose H8\nplace ATK5 G7");
    play(&mut pos, "move ATK3 H8");
    assert_eq!(pos.ball, held_by("ATK3"));
    assert!(is_restricted(&pos, "ATK3"));
    assert_eq!(pos.ap, 1);
    assert_eq!(refused(&pos, "move ATK3 G9"), "B4.5");
    assert_eq!(refused(&pos, "handoff ATK3 ATK5"), "B4.5");
    assert_eq!(refused(&pos, "spass ATK3 ATK2 D8"), "B4.5");
    assert!(legal_of(&pos, "ATK3").is_empty());
}

/// B4.5: a restricted piece may still receive a hand-off or a pass, but
/// holding the ball it still may not act.
#[test]
fn b4_5_restricted_piece_may_receive_but_not_act() {
    let mut pos = setup("turn 2 ATK action 2\nplace ATK3 H6 restricted");
    assert!(is_legal(&pos, "handoff ATK5 ATK3"));
    assert_eq!(
        legal_with(&pos, "spass ATK5 ATK3 "),
        sorted(&[
            "spass ATK5 ATK3 G7",
            "spass ATK5 ATK3 I5",
            "spass ATK5 ATK3 I7"
        ])
    );
    play(&mut pos, "handoff ATK5 ATK3");
    assert_eq!(pos.ball, held_by("ATK3"));
    assert!(is_restricted(&pos, "ATK3"));
    assert_eq!(refused(&pos, "handoff ATK3 ATK5"), "B4.5");
    assert_eq!(refused(&pos, "move ATK3 H8"), "B4.5");
    assert_eq!(refused(&pos, "spass ATK3 ATK2 F8"), "B4.5");
    assert!(legal_of(&pos, "ATK3").is_empty());
    assert_eq!(
        legal(&pos)
            .iter()
            .filter(|a| a.contains("pass") || a.starts_with("handoff"))
            .count(),
        0
    );
}

/// B4.5: hand-off, a stack's top taking the ball and `keep` do not
/// restrict.
#[test]
fn b4_5_handoff_stack_and_keep_do_not_restrict() {
    let mut pos = setup("turn 2 ATK action 2");
    play(&mut pos, "handoff ATK5 ATK6");
    assert!(!is_restricted(&pos, "ATK6"));
    assert!(is_legal(&pos, "move ATK6 E5"));

    let mut pos = setup("turn 2 ATK action 2\nplace ATK3 H6");
    play(&mut pos, "protect ATK3 G5");
    assert_eq!(pos.ball, held_by("ATK3"));
    assert!(!is_restricted(&pos, "ATK3"));

    let mut pos = setup("turn 6 ATK release 0\nstack H10 ATK3 DEF3 5\nball held ATK3");
    play(&mut pos, "release ATK3 G9 I9 keep DEF3");
    assert_eq!(pos.ball, held_by("DEF3"));
    assert!(!is_restricted(&pos, "DEF3"));
}

/// B4.5: restrictions end when the turn passes.
#[test]
fn b4_5_restriction_ends_when_turn_passes() {
    let mut pos = setup("turn 2 ATK action 2\nball loose H8");
    play(&mut pos, "move ATK3 H8");
    assert!(is_restricted(&pos, "ATK3"));
    play(&mut pos, "end");
    assert!(pos.pieces.iter().all(|p| !p.restricted));
    play(&mut pos, "end");
    assert_eq!((pos.turn, pos.to_move), (4, Team::Atk));
    assert!(is_legal(&pos, "move ATK3 G9"));
}

// ------------------------------------------------- B5 movement, dodge

/// B5.1: `X` moves 1 or 2 squares diagonally, never orthogonally.
#[test]
fn b5_1_x_moves_one_or_two_diagonally() {
    let mut pos =
        setup("turn 3 DEF action 2\nplace DEF3 G9\nplace ATK2 A3\nplace ATK3 M3\nplace DEF2 A15");
    assert_eq!(
        legal_with(&pos, "move DEF3 "),
        sorted(&[
            "move DEF3 E11",
            "move DEF3 E7",
            "move DEF3 F10",
            "move DEF3 F8",
            "move DEF3 H10",
            "move DEF3 H8",
            "move DEF3 I11",
            "move DEF3 I7",
        ])
    );
    assert_eq!(refused(&pos, "move DEF3 G11"), "B5.1");
    assert_eq!(refused(&pos, "move DEF3 E9"), "B5.1");
    assert_eq!(refused(&pos, "move DEF3 D6"), "B5.1");
    // Two 1-square moves are two actions.
    play(&mut pos, "move DEF3 H10");
    play(&mut pos, "move DEF3 I11");
    assert_eq!(pos.ap, 0);
}

/// B5.1: `O` moves 1 square diagonally or 2 orthogonally.
#[test]
fn b5_1_o_moves_one_diagonally_or_two_orthogonally() {
    let pos = setup("turn 3 DEF action 2\nplace DEF2 G9");
    assert_eq!(
        legal_with(&pos, "move DEF2 "),
        sorted(&[
            "move DEF2 E9",
            "move DEF2 F10",
            "move DEF2 F8",
            "move DEF2 G11",
            "move DEF2 G7",
            "move DEF2 H10",
            "move DEF2 H8",
            "move DEF2 I9",
        ])
    );
    assert_eq!(refused(&pos, "move DEF2 E7"), "B5.1");
    assert_eq!(refused(&pos, "move DEF2 I11"), "B5.1");
    assert_eq!(refused(&pos, "move DEF2 G13"), "B5.1");
}

/// B5.1: `#` moves 1 or 2 squares diagonally, or 2 orthogonally.
#[test]
fn b5_1_square_moves_diagonally_and_orthogonally() {
    let pos = setup(
        "turn 3 DEF action 2\nplace DEF1 G9\nplace ATK2 A3\nplace ATK3 M3\nplace DEF2 A15\nplace DEF3 M15",
    );
    assert_eq!(
        legal_with(&pos, "move DEF1 "),
        sorted(&[
            "move DEF1 E11",
            "move DEF1 E7",
            "move DEF1 F10",
            "move DEF1 F8",
            "move DEF1 H10",
            "move DEF1 H8",
            "move DEF1 I11",
            "move DEF1 I7",
            "move DEF1 E9",
            "move DEF1 I9",
            "move DEF1 G11",
            "move DEF1 G7",
        ])
    );
    assert_eq!(refused(&pos, "move DEF1 G13"), "B5.1");
}

/// B5.2: the middle square of a 2-square diagonal may not hold a down
/// piece, of either team: no move, no tactical dodge, no dodge across it.
#[test]
fn b5_2_down_piece_blocks_two_square_diagonal() {
    let pos = setup("turn 3 DEF action 2\nplace DEF3 G9\nplace ATK3 H10 down\nplace DEF5 H8 down");
    assert_eq!(refused(&pos, "move DEF3 I11"), "B5.2");
    assert_eq!(refused(&pos, "move DEF3 I7"), "B5.2");
    assert!(legal_with(&pos, "tdodge").is_empty());
    // The 1-square moves onto them are block and protect (B7.1).
    assert!(is_legal(&pos, "block DEF3 H10"));
    assert!(is_legal(&pos, "protect DEF3 H8"));

    // A dodge across a down piece is blocked as well.
    let pos = setup("turn 3 DEF action 2\nplace DEF3 G9\nplace ATK2 H10 down\nplace ATK3 I11");
    assert!(legal_with(&pos, "dodge DEF3").is_empty());
    assert_eq!(refused(&pos, "dodge DEF3 I11 J12"), "B5.2");
}

/// B5.2: an active piece of either team or the loose ball on the middle
/// square does not block.
#[test]
fn b5_2_active_piece_or_loose_ball_in_middle_does_not_block() {
    let pos = setup(
        "turn 3 DEF action 2\nplace DEF3 G9\nplace ATK3 H10\nball loose H8\nplace DEF5 F10\nplace DEF2 A15",
    );
    assert!(is_legal(&pos, "move DEF3 I11")); // over an active opponent
    assert!(is_legal(&pos, "move DEF3 I7")); // over the loose ball
    assert!(is_legal(&pos, "move DEF3 E11")); // over an active team-mate
}

/// B5.2, B7.4: a stack on the middle square blocks.
#[test]
fn b5_2_stack_in_middle_blocks() {
    let pos = setup("turn 3 DEF action 2\nplace DEF3 G9\nstack H10 ATK3 DEF4 2");
    assert_eq!(refused(&pos, "move DEF3 I11"), "B5.2");
    assert!(legal_with(&pos, "tdodge").is_empty());
}

/// B5.2: a 2-square orthogonal jump has no playable middle square and is
/// blocked by nothing but its destination.
#[test]
fn b5_2_orthogonal_jump_blocked_only_by_destination() {
    let pos = setup(
        "turn 3 DEF action 2\nplace DEF2 G9\nplace ATK3 F10 down\nplace ATK2 H10 down\n\
         stack H8 ATK4 DEF4 2\nplace DEF6 G7",
    );
    assert!(is_legal(&pos, "move DEF2 G11"));
    assert!(is_legal(&pos, "move DEF2 I9"));
    assert_eq!(refused(&pos, "move DEF2 G7"), "B5.3");
}

/// B5.3: the destination decides: empty → move; one piece 1 square away
/// → block/protect; a lone active opponent 2 squares away → dodge;
/// anything else (own piece, down opponent 2 away) is illegal.
#[test]
fn b5_3_destination_decides_the_action() {
    // DEF3 on G9. H10: active ATK3; F10: own DEF5; E7: active ATK2 (path F8
    // free); I7: ATK7 down (path H8 free); I11: own DEF4; E11: own DEF2.
    let pos = setup(
        "turn 3 DEF action 2\nplace DEF3 G9\nplace ATK3 H10\nplace DEF5 F10\n\
         place ATK7 I7 down\nplace DEF4 I11",
    );
    assert_eq!(
        legal_of(&pos, "DEF3"),
        sorted(&[
            "block DEF3 H10",
            "dodge DEF3 E7 D6",
            "dodge DEF3 E7 D8",
            "dodge DEF3 E7 F6",
            "dodge DEF3 E7 F8",
            "move DEF3 F8",
            "move DEF3 H8",
            "protect DEF3 F10",
        ])
    );
    assert_eq!(refused(&pos, "move DEF3 H10"), "B5.3");
    assert_eq!(refused(&pos, "move DEF3 I11"), "B5.3");
    assert_eq!(refused(&pos, "dodge DEF3 I11 J12"), "B5.3");
    assert_eq!(refused(&pos, "dodge DEF3 E11 D12"), "B5.3");
    assert_eq!(refused(&pos, "dodge DEF3 I7 J8"), "B5.3");
    assert_eq!(refused(&pos, "dodge DEF3 H10 I11"), "B5.3");
    assert_eq!(refused(&pos, "move DEF3 I7"), "B5.3");
}

/// B5.4: the dodged opponent is knocked down where it stands; the mover
/// ends on the chosen exit. One action per free exit.
#[test]
fn b5_4_dodge_knocks_down_and_exits() {
    let mut pos = setup("turn 3 DEF action 2\nplace DEF3 G9");
    assert_eq!(
        legal_with(&pos, "dodge DEF3 E7 "),
        sorted(&[
            "dodge DEF3 E7 D6",
            "dodge DEF3 E7 D8",
            "dodge DEF3 E7 F6",
            "dodge DEF3 E7 F8"
        ])
    );
    let log = play(&mut pos, "dodge DEF3 E7 D6");
    assert_eq!(at(&pos, "DEF3"), "D6");
    assert_eq!(at(&pos, "ATK2"), "E7");
    assert!(is_down(&pos, "ATK2"));
    assert!(!is_down(&pos, "DEF3"));
    assert!(!is_restricted(&pos, "DEF3"));
    assert_eq!(pos.ball, held_by("ATK5"));
    assert_eq!(pos.ap, 1);
    assert_eq!(
        log,
        [Event::KnockedDown {
            piece: id("ATK2"),
            at: sq("E7")
        }]
    );
    assert_eq!(refused(&pos, "move DEF3 E7"), "B5.3");
    assert!(is_legal(&pos, "block DEF3 E7"));
}

/// B5.4: an exit must be next to the opponent's square and hold no piece.
#[test]
fn b5_4_exit_must_be_adjacent_and_empty() {
    let pos = setup("turn 3 DEF action 2\nplace DEF3 G9\nplace DEF5 D6");
    assert_eq!(refused(&pos, "dodge DEF3 E7 D6"), "B5.4");
    assert_eq!(refused(&pos, "dodge DEF3 E7 C5"), "B5.4");
    assert_eq!(refused(&pos, "dodge DEF3 E7 E9"), "B5.4");
    assert_eq!(legal_with(&pos, "dodge DEF3 E7 ").len(), 3);
}

/// B5.4: a dodge with no exit (every square next to the opponent holds a
/// piece) cannot be started.
#[test]
fn b5_4_dodge_with_no_exit_cannot_start() {
    let pos = setup(
        "turn 2 ATK action 2\nplace DEF3 K11\nplace DEF5 J10\nplace DEF1 J12\n\
         place DEF2 L12\nplace DEF4 L10\nplace ATK3 I9",
    );
    assert!(legal_with(&pos, "dodge").is_empty());
    for exit in ["J10", "J12", "L10", "L12"] {
        assert_eq!(refused(&pos, &format!("dodge ATK3 K11 {exit}")), "B5.4");
    }
    // Freeing one exit makes exactly that dodge legal.
    let pos = setup(
        "turn 2 ATK action 2\nplace DEF3 K11\nplace DEF5 J10\nplace DEF1 J12\n\
         place DEF2 L12\nplace DEF4 M15\nplace ATK3 I9",
    );
    assert_eq!(legal_with(&pos, "dodge"), ["dodge ATK3 K11 L10"]);
}

/// B5.4, B4.5: dodging the ball holder is a forced fumble: the mover takes
/// the ball and is restricted (no move, no hand-off).
#[test]
fn b5_4_forced_fumble_restricts_the_dodger() {
    let mut pos = setup("turn 3 DEF action 2\nplace DEF3 G9\nball held ATK2\nplace DEF5 C5");
    let log = play(&mut pos, "dodge DEF3 E7 D6");
    assert_eq!(pos.ball, held_by("DEF3"));
    assert!(is_restricted(&pos, "DEF3"));
    assert!(is_down(&pos, "ATK2"));
    assert_eq!(pos.ap, 1);
    assert_eq!(
        log,
        [
            Event::KnockedDown {
                piece: id("ATK2"),
                at: sq("E7")
            },
            Event::BallTaken {
                piece: id("DEF3"),
                how: Taking::Fumble
            },
        ]
    );
    assert!(legal_of(&pos, "DEF3").is_empty());
    assert_eq!(refused(&pos, "move DEF3 E5"), "B4.5");
    assert_eq!(refused(&pos, "handoff DEF3 DEF5"), "B4.5");
    assert!(is_legal(&pos, "move DEF5 B4"));
}

/// B5.4, B5.3: an `O` dodges over 2 orthogonal squares.
#[test]
fn b5_4_orthogonal_dodge() {
    let mut pos = setup("turn 3 DEF action 2\nplace DEF2 G9\nplace ATK3 I9");
    assert_eq!(
        legal_with(&pos, "dodge DEF2 "),
        sorted(&[
            "dodge DEF2 I9 H10",
            "dodge DEF2 I9 H8",
            "dodge DEF2 I9 J10",
            "dodge DEF2 I9 J8"
        ])
    );
    play(&mut pos, "dodge DEF2 I9 J10");
    assert_eq!(at(&pos, "DEF2"), "J10");
    assert!(is_down(&pos, "ATK3"));
    assert_eq!(at(&pos, "ATK3"), "I9");
}

/// B5.5: a move ending on the loose ball takes it (1 or 2 squares).
#[test]
fn b5_5_move_ending_on_loose_ball_takes_it() {
    let mut pos = setup("turn 2 ATK action 2\nball loose G9");
    let log = play(&mut pos, "move ATK3 G9");
    assert_eq!(pos.ball, held_by("ATK3"));
    assert_eq!(
        log,
        [Event::BallTaken {
            piece: id("ATK3"),
            how: Taking::Loose
        }]
    );
}

/// B5.5: a dodge whose exit is the loose ball's square takes it.
#[test]
fn b5_5_dodge_exit_on_loose_ball_takes_it() {
    let mut pos = setup("turn 3 DEF action 2\nplace DEF3 G9\nball loose D6");
    assert!(is_legal(&pos, "dodge DEF3 E7 D6"));
    play(&mut pos, "dodge DEF3 E7 D6");
    assert_eq!(pos.ball, held_by("DEF3"));
    assert!(is_restricted(&pos, "DEF3"));
    assert!(is_down(&pos, "ATK2"));
}

// --------------------------------------------------- B6 tactical dodge

/// B6.1: a 2-square diagonal over a lone active opponent onto an empty
/// landing square is a tactical dodge (1 AP); the plain jump stays legal.
#[test]
fn b6_1_tactical_dodge_over_lone_active_opponent() {
    let mut pos = setup("turn 2 ATK action 2\nplace ATK3 G9\nplace DEF3 H10");
    assert_eq!(
        legal_with(&pos, "tdodge"),
        sorted(&["tdodge ATK3 I11 G11", "tdodge ATK3 I11 I9"])
    );
    assert!(is_legal(&pos, "move ATK3 I11"));
    let log = play(&mut pos, "tdodge ATK3 I11 G11");
    assert_eq!(at(&pos, "ATK3"), "I11");
    assert_eq!(at(&pos, "DEF3"), "G11");
    assert!(is_down(&pos, "DEF3"));
    assert!(!is_down(&pos, "ATK3"));
    assert_eq!(pos.ap, 1);
    assert_eq!(pos.ball, held_by("ATK5"));
    assert_eq!(
        log,
        [Event::KnockedDown {
            piece: id("DEF3"),
            at: sq("G11")
        }]
    );
}

/// B6.1: no tactical dodge over a team-mate, for an `O`, or onto a
/// landing square holding a piece.
#[test]
fn b6_1_no_tactical_dodge_over_team_mate_for_o_or_onto_piece() {
    let pos = setup("turn 2 ATK action 2\nplace ATK3 G9\nplace ATK2 H10\nplace DEF3 M15");
    assert_eq!(refused(&pos, "tdodge ATK3 I11 G11"), "B6.1");
    assert!(is_legal(&pos, "move ATK3 I11"));

    let pos = setup("turn 2 ATK action 2\nplace ATK3 G9\nplace DEF3 H10\nplace DEF2 I11");
    assert_eq!(refused(&pos, "tdodge ATK3 I11 G11"), "B6.1");
    assert!(legal_with(&pos, "tdodge").is_empty());

    let pos = setup("turn 2 ATK action 2\nplace ATK2 G9\nplace DEF3 H10");
    assert_eq!(refused(&pos, "tdodge ATK2 I11 G11"), "B5.1");

    let pos = setup("turn 2 ATK action 2\nplace ATK3 G9\nstack H10 DEF3 DEF2 1");
    assert!(legal_with(&pos, "tdodge").is_empty());
}

/// B6.1: a `#` tactical-dodges too (it moves 2 squares diagonally).
#[test]
fn b6_1_square_piece_tactical_dodges() {
    let mut pos = setup("turn 2 ATK action 2\nplace ATK1 G9\nplace DEF3 H10");
    assert_eq!(
        legal_with(&pos, "tdodge"),
        sorted(&["tdodge ATK1 I11 G11", "tdodge ATK1 I11 I9"])
    );
    play(&mut pos, "tdodge ATK1 I11 I9");
    assert_eq!(
        (at(&pos, "ATK1").as_str(), at(&pos, "DEF3").as_str()),
        ("I11", "I9")
    );
    assert!(is_down(&pos, "DEF3"));
}

/// B6.2: the push square is beside the path, holds no piece and no ball,
/// and is neither the landing nor the starting square.
#[test]
fn b6_2_push_square_beside_path_free_of_piece_and_ball() {
    let pos = setup("turn 2 ATK action 2\nplace ATK3 G9\nplace DEF3 H10\nplace ATK2 G11");
    assert_eq!(legal_with(&pos, "tdodge"), ["tdodge ATK3 I11 I9"]);
    assert_eq!(refused(&pos, "tdodge ATK3 I11 G11"), "B6.2");
    assert_eq!(refused(&pos, "tdodge ATK3 I11 I11"), "B6.2");
    assert_eq!(refused(&pos, "tdodge ATK3 I11 G9"), "B6.2");
    assert_eq!(refused(&pos, "tdodge ATK3 I11 J8"), "B6.2");

    let pos = setup("turn 2 ATK action 2\nplace ATK3 G9\nplace DEF3 H10\nball loose I9");
    assert_eq!(legal_with(&pos, "tdodge"), ["tdodge ATK3 I11 G11"]);
    assert_eq!(refused(&pos, "tdodge ATK3 I11 I9"), "B6.2");
}

/// B6.3: the jumped holder's ball moves 1 square diagonally from the
/// middle square, opposite to the push, and lies loose; the mover does
/// not take it.
#[test]
fn b6_3_ball_goes_opposite_the_push() {
    let base = "turn 2 ATK action 2\nplace ATK3 G9\nplace DEF3 H10\nball held DEF3";
    let mut pos = setup(base);
    let log = play(&mut pos, "tdodge ATK3 I11 G11");
    assert_eq!(pos.ball, loose("I9"));
    assert_eq!(at(&pos, "DEF3"), "G11");
    assert!(is_down(&pos, "DEF3"));
    assert!(!is_restricted(&pos, "ATK3"));
    assert_eq!(
        log,
        [
            Event::KnockedDown {
                piece: id("DEF3"),
                at: sq("G11")
            },
            Event::BallLoose { at: sq("I9") }
        ]
    );

    let mut pos = setup(base);
    play(&mut pos, "tdodge ATK3 I11 I9");
    assert_eq!(pos.ball, loose("G11"));
    assert_eq!(at(&pos, "DEF3"), "I9");
}

/// B6.3: when the square opposite the push holds a piece (any team, any
/// state), the ball lies loose on the middle square; the mover can take
/// it only with a later action.
#[test]
fn b6_3_ball_falls_on_middle_when_opposite_square_holds_piece() {
    for blocker in [
        "place ATK2 I9",
        "place DEF5 I9 down",
        "stack I9 ATK2 DEF5 1",
    ] {
        let mut pos = setup(&format!(
            "turn 2 ATK action 2\nplace ATK3 G9\nplace DEF3 H10\nball held DEF3\n{blocker}"
        ));
        play(&mut pos, "tdodge ATK3 I11 G11");
        assert_eq!(pos.ball, loose("H10"), "{blocker}");
        assert_eq!(at(&pos, "ATK3"), "I11");
        assert!(!is_restricted(&pos, "ATK3"));
        play(&mut pos, "move ATK3 H10");
        assert_eq!(pos.ball, held_by("ATK3"));
        assert!(is_restricted(&pos, "ATK3"));
    }
}

/// B6.3 (decision): the square opposite the push can never be off the
/// board. The middle square of a 2-square diagonal lies strictly inside
/// the board (columns B–L, rows 2–16), so all four of its diagonal
/// neighbours exist; the engine's "off-board → middle square" fallback is
/// unreachable on the 13 × 17 board.
#[test]
fn b6_3_square_opposite_the_push_is_always_on_the_board() {
    for from in Sq::all() {
        for to in Sq::all() {
            if from.distance(to) != 2 {
                continue;
            }
            let Some(mid) = from.midpoint(to) else {
                continue;
            };
            if mid.distance(from) != 1 || mid.distance(to) != 1 {
                continue; // not a straight diagonal
            }
            let neighbours = Sq::all().filter(|s| s.distance(mid) == 1).count();
            assert_eq!(neighbours, 4, "{from}-{to} over {mid}");
        }
    }
}

/// B6.4: landing a tactical dodge on the loose ball takes it (restricted).
#[test]
fn b6_4_landing_on_loose_ball_takes_it() {
    let mut pos = setup("turn 2 ATK action 2\nplace ATK3 G9\nplace DEF3 H10\nball loose I11");
    let log = play(&mut pos, "tdodge ATK3 I11 G11");
    assert_eq!(pos.ball, held_by("ATK3"));
    assert!(is_restricted(&pos, "ATK3"));
    assert!(log.contains(&Event::BallTaken {
        piece: id("ATK3"),
        how: Taking::Loose
    }));
}

// ------------------------------------------------- B7 block / protect

/// B7.1: a 1-square diagonal move onto one piece forms a stack: onto an
/// opponent (active or down) it is `block`, onto a team-mate `protect`.
#[test]
fn b7_1_block_and_protect_form_stacks() {
    let base = "turn 4 ATK action 2\nplace ATK3 G9\nplace DEF3 H10\nplace ATK2 F10";
    let mut pos = setup(base);
    let log = play(&mut pos, "block ATK3 H10");
    assert_eq!(stacks(&pos), [stack("H10", "ATK3", "DEF3", 4)]);
    assert_eq!(at(&pos, "ATK3"), "H10");
    assert_eq!(at(&pos, "DEF3"), "H10");
    assert_eq!(pos.ap, 1);
    assert_eq!(
        log,
        [Event::StackFormed {
            top: id("ATK3"),
            bottom: id("DEF3"),
            at: sq("H10")
        }]
    );

    let mut pos = setup(base);
    play(&mut pos, "protect ATK2 G9");
    assert_eq!(stacks(&pos), [stack("G9", "ATK2", "ATK3", 4)]);

    let pos = setup(base);
    assert_eq!(refused(&pos, "protect ATK3 H10"), "B7.1");
    assert_eq!(refused(&pos, "block ATK2 G9"), "B7.1");
    assert_eq!(refused(&pos, "block ATK3 I11"), "B7.1");
    assert_eq!(refused(&pos, "block ATK3 H8"), "B7.1");

    // Onto a down opponent.
    let mut pos = setup("turn 4 ATK action 2\nplace ATK3 G9\nplace DEF3 H10 down");
    play(&mut pos, "block ATK3 H10");
    assert_eq!(stacks(&pos), [stack("H10", "ATK3", "DEF3", 4)]);
}

/// B7.2: stacked pieces may not act, hand off, pass or receive; blocking
/// knocks nothing down.
#[test]
fn b7_2_stacked_pieces_take_no_part() {
    let mut pos = setup("turn 4 ATK action 2\nplace ATK3 G9\nplace DEF3 H10");
    play(&mut pos, "block ATK3 H10");
    assert!(!is_down(&pos, "DEF3"));
    assert!(!is_down(&pos, "ATK3"));
    assert!(legal_of(&pos, "ATK3").is_empty());
    assert_eq!(refused(&pos, "move ATK3 I11"), "B7.2");

    // A stacked team-mate cannot receive.
    let pos = setup("turn 5 ATK action 2\nstack H6 ATK3 DEF3 4");
    assert_eq!(refused(&pos, "handoff ATK5 ATK3"), "B7.2");
    assert_eq!(refused(&pos, "spass ATK5 ATK3 I7"), "B7.2");
    assert!(legal(&pos).iter().all(|a| !a.contains("ATK3")));

    // A stacked holder cannot hand off or pass; a stacked bottom cannot act.
    let pos =
        setup("turn 5 ATK action 2\nstack H6 ATK3 DEF3 4\nball held ATK3\nstack I9 DEF2 ATK2 3");
    assert_eq!(refused(&pos, "handoff ATK3 ATK5"), "B7.2");
    assert_eq!(refused(&pos, "lpass ATK3 G11"), "B7.2");
    assert!(legal_with(&pos, "handoff").is_empty());
    assert!(legal_with(&pos, "spass").is_empty());
    assert!(legal_with(&pos, "lpass").is_empty());
    assert_eq!(refused(&pos, "move ATK2 J10"), "B7.2");
    assert!(legal_of(&pos, "ATK2").is_empty());
}

/// B7.3: if the bottom holds the ball the top takes it at once,
/// unrestricted (B4.5); works for block and protect.
#[test]
fn b7_3_top_takes_the_ball_from_the_bottom() {
    let mut pos = setup("turn 4 ATK action 2\nplace ATK3 G9\nplace DEF3 H10\nball held DEF3");
    let log = play(&mut pos, "block ATK3 H10");
    assert_eq!(pos.ball, held_by("ATK3"));
    assert!(!is_restricted(&pos, "ATK3"));
    assert_eq!(
        log[1],
        Event::BallTaken {
            piece: id("ATK3"),
            how: Taking::Stack
        }
    );

    let mut pos = setup("turn 4 ATK action 2\nplace ATK3 H6");
    play(&mut pos, "protect ATK3 G5");
    assert_eq!(pos.ball, held_by("ATK3"));
    assert_eq!(stacks(&pos), [stack("G5", "ATK3", "ATK5", 4)]);
}

/// B7.4: a stack's square is closed: no move passes over it or ends on
/// it, nothing is placed on it (no legal action names it at all).
#[test]
fn b7_4_stack_square_is_closed() {
    let pos = setup(
        "turn 5 ATK action 2\nstack H10 DEF3 ATK2 4\nplace ATK3 G9\nplace ATK4 H8\nplace ATK1 J12",
    );
    assert!(
        legal(&pos).iter().all(|a| !a.contains("H10")),
        "{:?}",
        legal(&pos)
    );
    assert_eq!(refused(&pos, "move ATK3 I11"), "B5.2");
    assert_eq!(refused(&pos, "block ATK3 H10"), "B7.4");
    assert_eq!(refused(&pos, "protect ATK3 H10"), "B7.4");
    assert_eq!(refused(&pos, "move ATK4 H10"), "B5.3"); // O's orthogonal jump
    assert_eq!(refused(&pos, "dodge ATK4 H10 I11"), "B5.3");
    assert_eq!(refused(&pos, "dodge ATK1 H10 G11"), "B5.3"); // # over I11
    assert_eq!(refused(&pos, "lpass ATK5 H10"), "B8.3");
}

/// B7.5: a stack records the turn it was formed and keeps the bottom's
/// state: a down bottom is still down after its release.
#[test]
fn b7_5_stack_remembers_turn_and_bottom_state() {
    let mut pos = setup("turn 4 ATK action 2\nplace ATK3 G9\nplace DEF3 H10 down");
    play(&mut pos, "block ATK3 H10");
    assert_eq!(stacks(&pos), [stack("H10", "ATK3", "DEF3", 4)]);
    assert!(is_down(&pos, "DEF3"));
    play(&mut pos, "end"); // formed this turn: nothing to release (B10.4)
    assert_eq!((pos.turn, pos.to_move), (5, Team::Def));
    play(&mut pos, "end"); // DEF3 is down but stacked: no stand-up (B10.2)
    assert_eq!((pos.turn, pos.to_move), (6, Team::Atk));
    play(&mut pos, "end");
    assert_eq!(pos.phase, Phase::Release);
    play(&mut pos, "release ATK3 G11 I9");
    assert!(pos.stacks.is_empty());
    assert_eq!(
        (at(&pos, "ATK3").as_str(), at(&pos, "DEF3").as_str()),
        ("G11", "I9")
    );
    assert!(!is_down(&pos, "ATK3"));
    assert!(
        is_down(&pos, "DEF3"),
        "the bottom returns to its state before the stack"
    );
    assert_eq!((pos.turn, pos.to_move), (7, Team::Def));

    // An active bottom comes back active.
    let mut pos = setup("turn 6 ATK release 0\nstack H10 ATK3 DEF3 4");
    play(&mut pos, "release ATK3 G11 I9");
    assert!(!is_down(&pos, "DEF3"));
}

// ------------------------------------------------- B8 hand-off, passes

/// B8.1: a hand-off gives the ball to an adjacent active, unstacked
/// team-mate for 0 AP; pieces do not move; chains are allowed; the
/// receiver is not restricted and may act.
#[test]
fn b8_1_handoff_to_adjacent_team_mate() {
    let mut pos = setup("turn 2 ATK action 2");
    assert_eq!(
        legal_with(&pos, "handoff"),
        sorted(&["handoff ATK5 ATK6", "handoff ATK5 ATK7"])
    );
    let before = pos.pieces;
    let log = play(&mut pos, "handoff ATK5 ATK6");
    assert_eq!(pos.pieces, before);
    assert_eq!(pos.ball, held_by("ATK6"));
    assert_eq!(pos.ap, 2);
    assert_eq!(
        log,
        [Event::BallTaken {
            piece: id("ATK6"),
            how: Taking::Handoff
        }]
    );
    play(&mut pos, "handoff ATK6 ATK5");
    play(&mut pos, "handoff ATK5 ATK7");
    assert_eq!((pos.ball, pos.ap), (held_by("ATK7"), 2));
    play(&mut pos, "move ATK7 I5");
    assert_eq!(pos.ap, 1);
}

/// B8.1: not to a piece at distance 2, an opponent, a down team-mate.
#[test]
fn b8_1_handoff_needs_adjacent_active_team_mate() {
    let pos = setup("turn 2 ATK action 2\nplace DEF3 H6\nplace ATK6 F6 down");
    assert_eq!(refused(&pos, "handoff ATK5 ATK2"), "B8.1");
    assert_eq!(refused(&pos, "handoff ATK5 DEF3"), "B8.1");
    assert_eq!(refused(&pos, "handoff ATK5 ATK6"), "B8.1");
    assert_eq!(refused(&pos, "handoff ATK5 ATK5"), "B8.1");
    assert_eq!(legal_with(&pos, "handoff"), ["handoff ATK5 ATK7"]);
}

/// B8.1, B4.2: a hand-off costs nothing, so it is legal at 0 AP.
#[test]
fn b8_1_handoff_at_zero_ap_is_legal() {
    let mut pos = setup("turn 2 ATK action 2");
    play(&mut pos, "move ATK3 H8");
    play(&mut pos, "move ATK3 G9");
    assert_eq!(pos.ap, 0);
    assert_eq!(
        legal(&pos),
        sorted(&["end", "handoff ATK5 ATK6", "handoff ATK5 ATK7"])
    );
    play(&mut pos, "handoff ATK5 ATK6");
    assert_eq!((pos.ap, pos.ball), (0, held_by("ATK6")));
    assert_eq!(legal(&pos), sorted(&["end", "handoff ATK6 ATK5"]));
}

/// B8.2: a short pass to a team-mate at distance 1–4, one legal action per
/// empty reception square next to the receiver; the receiver takes the
/// ball, does not move, is restricted; the square is in the event log.
#[test]
fn b8_2_short_pass_one_action_per_reception_square() {
    let mut pos = setup("turn 2 ATK action 2");
    assert_eq!(
        legal_with(&pos, "spass ATK5 ATK2 "),
        sorted(&[
            "spass ATK5 ATK2 D6",
            "spass ATK5 ATK2 D8",
            "spass ATK5 ATK2 F6",
            "spass ATK5 ATK2 F8"
        ])
    );
    let log = play(&mut pos, "spass ATK5 ATK2 D8");
    assert_eq!(pos.ball, held_by("ATK2"));
    assert_eq!(at(&pos, "ATK2"), "E7");
    assert!(is_restricted(&pos, "ATK2"));
    assert_eq!(pos.ap, 1);
    assert_eq!(
        log,
        [
            Event::PassReceived {
                piece: id("ATK2"),
                at: sq("D8")
            },
            Event::BallTaken {
                piece: id("ATK2"),
                how: Taking::Pass
            }
        ]
    );
    assert!(legal_of(&pos, "ATK2").is_empty());
}

/// B8.2: range 4 (the receiver's distance; the reception square's
/// distance from the holder does not matter).
#[test]
fn b8_2_short_pass_range_is_four() {
    let pos = setup("turn 2 ATK action 2\nplace ATK3 G9\nplace ATK4 L10");
    assert_eq!(
        legal_with(&pos, "spass ATK5 ATK3 "),
        sorted(&[
            "spass ATK5 ATK3 F10",
            "spass ATK5 ATK3 F8",
            "spass ATK5 ATK3 H10",
            "spass ATK5 ATK3 H8"
        ])
    );
    assert!(legal_with(&pos, "spass ATK5 ATK4").is_empty());
    assert_eq!(refused(&pos, "spass ATK5 ATK4 K9"), "B8.2");
    assert_eq!(refused(&pos, "spass ATK5 ATK3 G11"), "B8.2");
    assert_eq!(refused(&pos, "spass ATK5 DEF3 H10"), "B8.1");
}

/// B8.2: with no empty reception square the pass cannot be made.
#[test]
fn b8_2_no_reception_square_no_pass() {
    let pos =
        setup("turn 2 ATK action 2\nball held ATK1\nplace ATK2 A5\nplace DEF1 B4\nplace DEF2 B6");
    assert!(legal_with(&pos, "spass ATK1 ATK2").is_empty());
    assert_eq!(refused(&pos, "spass ATK1 ATK2 B6"), "B8.2");
    assert_eq!(refused(&pos, "spass ATK1 ATK2 B4"), "B8.2");
}

/// B8.3: a long pass lands on any empty square at distance ≥ 2 from every
/// own piece, down and stacked ones included; opponents do not count and
/// there is no maximum range.
#[test]
fn b8_3_long_pass_distance_counts_own_down_and_stacked_pieces() {
    // ATK3 down on G11; ATK4 the bottom of DEF4's block on K13.
    let mut pos = setup("turn 5 ATK action 2\nplace ATK3 G11 down\nstack K13 DEF4 ATK4 4");
    let own: Vec<Sq> = PieceId::of_team(Team::Atk)
        .map(|p| pos.piece(p).at)
        .collect();
    let occupied: Vec<Sq> = pos.pieces.iter().map(|p| p.at).collect();
    let expected: Vec<String> = Sq::all()
        .filter(|s| !occupied.contains(s) && own.iter().all(|o| o.distance(*s) >= 2))
        .map(|s| format!("lpass ATK5 {s}"))
        .collect();
    let mut expected = expected;
    expected.sort();
    assert_eq!(legal_with(&pos, "lpass"), expected);
    for near in ["F12", "H10", "L14", "J12", "H6", "D8"] {
        assert_eq!(
            refused(&pos, &format!("lpass ATK5 {near}")),
            "B8.3",
            "{near}"
        );
    }
    for far in ["E13", "M15", "A17", "M17", "A1", "J10"] {
        assert!(is_legal(&pos, &format!("lpass ATK5 {far}")), "{far}");
    }
    assert_eq!(refused(&pos, "lpass ATK5 G13"), "B8.3"); // holds DEF5
    let log = play(&mut pos, "lpass ATK5 E13"); // next to DEF6 on F14
    assert_eq!(pos.ball, loose("E13"));
    assert_eq!(pos.ap, 0);
    assert_eq!(log, [Event::BallLoose { at: sq("E13") }]);
}

/// B8.4: only the ball holder, active and unrestricted, starts a hand-off
/// or a pass.
#[test]
fn b8_4_only_active_unrestricted_holder_passes() {
    let pos = setup("turn 2 ATK action 2");
    assert_eq!(refused(&pos, "handoff ATK6 ATK5"), "B8.4");
    assert_eq!(refused(&pos, "spass ATK3 ATK4 J8"), "B8.4");
    assert_eq!(refused(&pos, "lpass ATK3 G11"), "B8.4");

    let pos = setup("turn 2 ATK action 2\nplace ATK5 G5 down");
    assert_eq!(refused(&pos, "handoff ATK5 ATK6"), "B4.4");
    assert!(legal_with(&pos, "handoff").is_empty());
    assert!(legal_with(&pos, "spass").is_empty());
    assert!(legal_with(&pos, "lpass").is_empty());

    let pos = setup("turn 2 ATK action 2\nplace ATK5 G5 restricted");
    assert_eq!(refused(&pos, "handoff ATK5 ATK6"), "B4.5");
    assert_eq!(refused(&pos, "lpass ATK5 G11"), "B4.5");

    // The opponent's ball: DEF cannot pass during ATK's turn.
    let pos = setup("turn 2 ATK action 2\nball held DEF3");
    assert_eq!(refused(&pos, "handoff DEF3 DEF4"), "B4.4");
    assert!(
        legal(&pos)
            .iter()
            .all(|a| !a.contains("pass") && !a.starts_with("handoff"))
    );
}

// --------------------------------------------------- B9 taking the ball

/// B9.1: taking the ball costs no AP beyond the move that ends on it.
#[test]
fn b9_1_taking_the_ball_costs_no_ap() {
    let mut pos = setup("turn 2 ATK action 2\nball loose H8");
    play(&mut pos, "move ATK3 H8");
    assert_eq!(pos.ap, 1);
    assert_eq!(pos.ball, held_by("ATK3"));
}

/// B9.2: ending an action on the loose ball takes it and restricts.
#[test]
fn b9_2_ending_on_loose_ball_takes_it_and_restricts() {
    let mut pos = setup("turn 2 ATK action 2\nball loose G9");
    play(&mut pos, "move ATK3 G9");
    assert_eq!(pos.ball, held_by("ATK3"));
    assert!(is_restricted(&pos, "ATK3"));
    assert_eq!(refused(&pos, "move ATK3 H10"), "B4.5");
}

/// B9.3: a 2-square move that only jumps over the ball's square does not
/// take it; the piece stays free to act.
#[test]
fn b9_3_jumping_over_loose_ball_does_not_take_it() {
    let mut pos = setup("turn 2 ATK action 2\nball loose H8");
    let log = play(&mut pos, "move ATK3 G9");
    assert!(log.is_empty());
    assert_eq!(pos.ball, loose("H8"));
    assert!(!is_restricted(&pos, "ATK3"));
    play(&mut pos, "move ATK3 H8");
    assert_eq!(pos.ball, held_by("ATK3"));

    // A dodge path over the ball does not take it either.
    let mut pos = setup("turn 2 ATK action 2\nball loose H8\nplace DEF3 G9");
    play(&mut pos, "dodge ATK3 G9 F10");
    assert_eq!(pos.ball, loose("H8"));
    assert!(!is_restricted(&pos, "ATK3"));
}

// ----------------------------------------------------- B10 release phase

/// B10.1: after `end` the tasks are resolved one at a time, in the
/// coach's order; the turn passes when none is left.
#[test]
fn b10_1_tasks_one_at_a_time_then_turn_passes() {
    let mut pos = setup("turn 5 ATK action 2\nplace ATK3 G9 down\nplace ATK2 A9 down");
    play(&mut pos, "end");
    assert_eq!(
        (pos.turn, pos.to_move, pos.phase, pos.ap),
        (5, Team::Atk, Phase::Release, 0)
    );
    assert_eq!(
        legal(&pos),
        sorted(&[
            "standup ATK2 B10",
            "standup ATK2 B8",
            "standup ATK3 F10",
            "standup ATK3 F8",
            "standup ATK3 H10",
            "standup ATK3 H8",
        ])
    );
    play(&mut pos, "standup ATK2 B10");
    assert_eq!(pos.phase, Phase::Release);
    assert_eq!(
        legal(&pos),
        sorted(&[
            "standup ATK3 F10",
            "standup ATK3 F8",
            "standup ATK3 H10",
            "standup ATK3 H8"
        ])
    );
    play(&mut pos, "standup ATK3 H10");
    assert_eq!(
        (pos.turn, pos.to_move, pos.phase, pos.ap),
        (6, Team::Def, Phase::Action, 2)
    );
}

/// B10.1: with no task at `end` the turn passes at once.
#[test]
fn b10_1_no_task_at_end_passes_turn_at_once() {
    let mut pos = setup("turn 2 ATK action 2\nplace DEF3 G9 down");
    play(&mut pos, "end");
    assert_eq!(
        (pos.turn, pos.to_move, pos.phase, pos.ap),
        (3, Team::Def, Phase::Action, 2)
    );
}

/// B10.1: only tasks in the release phase; tasks only there.
#[test]
fn b10_1_release_phase_allows_only_tasks() {
    let pos = setup("turn 5 ATK release 0\nplace ATK3 G9 down");
    assert_eq!(refused(&pos, "end"), "B10.1");
    assert_eq!(refused(&pos, "move ATK2 D8"), "B10.1");
    assert_eq!(refused(&pos, "handoff ATK5 ATK6"), "B10.1");
    let pos = setup("turn 5 ATK action 2\nplace ATK3 G9 down");
    assert_eq!(refused(&pos, "standup ATK3 F8"), "B10.1");
}

/// B10.1: tasks are read afresh: a release frees the stack square, and a
/// down piece whose only neighbour it was gets a stand-up task.
#[test]
fn b10_1_freed_square_creates_a_task() {
    // ATK2 down on A1, whose only neighbour B2 holds ATK3's stack.
    let mut pos = setup("turn 5 ATK action 2\nplace ATK2 A1 down\nstack B2 ATK3 DEF3 3");
    play(&mut pos, "end");
    assert_eq!(
        legal(&pos),
        sorted(&[
            "release ATK3 A3 C1",
            "release ATK3 A3 C3",
            "release ATK3 C1 A3",
            "release ATK3 C1 C3",
            "release ATK3 C3 A3",
            "release ATK3 C3 C1",
        ])
    );
    play(&mut pos, "release ATK3 A3 C1");
    assert_eq!(pos.phase, Phase::Release);
    assert_eq!(legal(&pos), ["standup ATK2 B2"]);
    play(&mut pos, "standup ATK2 B2");
    assert_eq!(
        (pos.turn, pos.to_move, pos.phase),
        (6, Team::Def, Phase::Action)
    );
}

/// B10.1, B10.2: a released down bottom of the coach's own becomes a
/// stand-up task in the same release phase.
#[test]
fn b10_1_released_own_down_bottom_becomes_standup_task() {
    let mut pos = setup("turn 5 ATK action 2\nstack H10 ATK3 ATK2 3\nplace ATK2 H10 down");
    play(&mut pos, "end");
    assert!(legal(&pos).iter().all(|a| a.starts_with("release ATK3")));
    play(&mut pos, "release ATK3 G9 I9");
    assert!(is_down(&pos, "ATK2"));
    assert_eq!(pos.phase, Phase::Release);
    assert_eq!(
        legal(&pos),
        sorted(&[
            "standup ATK2 H10",
            "standup ATK2 H8",
            "standup ATK2 J10",
            "standup ATK2 J8"
        ])
    );
    play(&mut pos, "standup ATK2 H10");
    assert!(!is_down(&pos, "ATK2"));
    assert_eq!((pos.turn, pos.to_move), (6, Team::Def));
}

/// B10.2: a stand-up goes 1 square diagonally to a square with no piece
/// and no ball; the piece becomes active.
#[test]
fn b10_2_standup_to_square_without_piece_or_ball() {
    let mut pos = setup("turn 5 ATK action 2\nplace ATK3 G9 down\nball loose F8\nplace DEF3 H10");
    play(&mut pos, "end");
    assert_eq!(
        legal(&pos),
        sorted(&["standup ATK3 F10", "standup ATK3 H8"])
    );
    assert_eq!(refused(&pos, "standup ATK3 F8"), "B10.2");
    assert_eq!(refused(&pos, "standup ATK3 H10"), "B10.2");
    assert_eq!(refused(&pos, "standup ATK3 G11"), "B10.2");
    assert_eq!(refused(&pos, "standup ATK2 D8"), "B10.2"); // not down
    play(&mut pos, "standup ATK3 H8");
    assert_eq!(at(&pos, "ATK3"), "H8");
    assert!(!is_down(&pos, "ATK3"));
    assert_eq!(pos.ball, loose("F8"));
}

/// B10.2: with no free square the piece stays down this turn; opponents'
/// down pieces and stacked down pieces are not the coach's tasks.
#[test]
fn b10_2_no_free_square_stays_down() {
    let mut pos = setup(
        "turn 5 ATK action 2\nplace ATK3 A1 down\nplace DEF3 B2\nplace DEF5 G9 down\n\
         stack K9 DEF4 ATK4 3\nplace ATK4 K9 down",
    );
    play(&mut pos, "end");
    assert_eq!(
        (pos.turn, pos.to_move, pos.phase),
        (6, Team::Def, Phase::Action)
    );
    assert!(is_down(&pos, "ATK3"));
    assert_eq!(at(&pos, "ATK3"), "A1");
}

/// B10.3: releasing a stack holding the ball lists both `keep` choices for
/// each pair of squares; top and bottom go to two different empty squares
/// next to the stack; the keeper is not restricted.
#[test]
fn b10_3_release_with_ball_lists_both_keep_choices() {
    let mut pos = setup(
        "turn 5 ATK action 2\nstack H10 ATK3 DEF3 3\nball held ATK3\nplace DEF5 G11\nplace DEF2 I11",
    );
    play(&mut pos, "end");
    assert_eq!(
        legal(&pos),
        sorted(&[
            "release ATK3 G9 I9 keep ATK3",
            "release ATK3 G9 I9 keep DEF3",
            "release ATK3 I9 G9 keep ATK3",
            "release ATK3 I9 G9 keep DEF3",
        ])
    );
    assert_eq!(refused(&pos, "release ATK3 G9 I9"), "B10.3");
    assert_eq!(refused(&pos, "release ATK3 G9 I9 keep ATK5"), "B10.3");
    assert_eq!(refused(&pos, "release ATK3 G9 G9 keep ATK3"), "B10.3");
    assert_eq!(refused(&pos, "release ATK3 G9 G11 keep ATK3"), "B10.3");
    assert_eq!(refused(&pos, "release ATK3 G9 J8 keep ATK3"), "B10.3");
    assert_eq!(refused(&pos, "release ATK5 G9 I9"), "B10.3");
    let log = play(&mut pos, "release ATK3 G9 I9 keep DEF3");
    assert_eq!(
        log[..2],
        [
            Event::StackReleased {
                top: id("ATK3"),
                bottom: id("DEF3")
            },
            Event::BallTaken {
                piece: id("DEF3"),
                how: Taking::Keep
            }
        ]
    );
    assert!(pos.stacks.is_empty());
    assert_eq!(
        (at(&pos, "ATK3").as_str(), at(&pos, "DEF3").as_str()),
        ("G9", "I9")
    );
    assert_eq!(pos.ball, held_by("DEF3"));
    assert_eq!(pos.score, [0, 0]);
    assert_eq!((pos.turn, pos.to_move), (6, Team::Def));
    // The keeper is free to act in its own turn.
    assert!(is_legal(&pos, "move DEF3 J10"));
}

/// B10.3: a stack without the ball is released without `keep`.
#[test]
fn b10_3_release_without_ball_has_no_keep() {
    let pos = setup("turn 5 ATK release 0\nstack H10 ATK3 DEF3 3\nplace DEF5 G11\nplace DEF2 I11");
    assert_eq!(
        legal(&pos),
        sorted(&["release ATK3 G9 I9", "release ATK3 I9 G9"])
    );
    assert_eq!(refused(&pos, "release ATK3 G9 I9 keep ATK3"), "B10.3");
}

/// B10.3: a release square may hold neither a piece nor the loose ball.
#[test]
fn b10_3_release_squares_exclude_the_loose_ball() {
    let pos = setup("turn 5 ATK release 0\nstack H10 ATK3 DEF3 3\nball loose G9\nplace DEF5 G11");
    // H10's neighbours: G9 (ball), G11 (DEF5), I9, I11 (free since DEF3 moved).
    assert_eq!(
        legal(&pos),
        sorted(&["release ATK3 I11 I9", "release ATK3 I9 I11"])
    );
    assert_eq!(refused(&pos, "release ATK3 G9 I9"), "B10.3");
    assert_eq!(refused(&pos, "release ATK3 I9 G9"), "B10.3");
}

/// B10.3: the keeper may be a down bottom of either team ("whatever the
/// keeper's team or state").
#[test]
fn b10_3_keep_choice_includes_down_bottom() {
    let mut pos =
        setup("turn 5 ATK release 0\nstack H10 ATK3 DEF3 3\nplace DEF3 H10 down\nball held ATK3");
    assert!(is_legal(&pos, "release ATK3 G9 I9 keep DEF3"));
    play(&mut pos, "release ATK3 G9 I9 keep DEF3");
    assert_eq!(pos.ball, held_by("DEF3"));
    assert!(is_down(&pos, "DEF3"));
}

/// B10.3: with no pair of empty squares there is no release this turn.
#[test]
fn b10_3_no_pair_of_squares_no_release() {
    // A9's neighbours are B8 and B10; DEF5 takes B8.
    let mut pos = setup("turn 5 ATK action 2\nstack A9 ATK3 DEF3 3\nplace DEF5 B8");
    play(&mut pos, "end");
    assert_eq!(
        (pos.turn, pos.to_move, pos.phase),
        (6, Team::Def, Phase::Action)
    );
    assert_eq!(stacks(&pos), [stack("A9", "ATK3", "DEF3", 3)]);
}

/// B10.4: a stack formed this turn is not released, even with free
/// squares; it is released in the top's coach's next turn.
#[test]
fn b10_4_stack_formed_this_turn_is_not_released() {
    let mut pos = setup("turn 5 ATK action 2\nplace ATK3 G9\nplace DEF3 H10\nplace ATK2 A9 down");
    play(&mut pos, "block ATK3 H10");
    play(&mut pos, "end");
    assert_eq!(pos.phase, Phase::Release);
    assert_eq!(
        legal(&pos),
        sorted(&["standup ATK2 B10", "standup ATK2 B8"])
    );
    assert_eq!(refused(&pos, "release ATK3 G9 I9"), "B10.4");
    play(&mut pos, "standup ATK2 B8");
    assert_eq!((pos.turn, pos.to_move), (6, Team::Def));
    assert_eq!(stacks(&pos), [stack("H10", "ATK3", "DEF3", 5)]);
    play(&mut pos, "end");
    play(&mut pos, "end"); // ATK, turn 7
    assert_eq!(pos.phase, Phase::Release);
    assert!(is_legal(&pos, "release ATK3 G9 I9"));
}

/// B10.4: only the coach of the top piece releases the stack.
#[test]
fn b10_4_only_the_top_coach_releases() {
    let mut pos = setup("turn 5 ATK action 2\nstack H10 DEF3 ATK3 3\nplace ATK2 A9 down");
    play(&mut pos, "end");
    assert_eq!(
        legal(&pos),
        sorted(&["standup ATK2 B10", "standup ATK2 B8"])
    );
    assert_eq!(refused(&pos, "release DEF3 G9 I9"), "B10.4");
    play(&mut pos, "standup ATK2 B10");
    assert_eq!((pos.turn, pos.to_move), (6, Team::Def));
    play(&mut pos, "end");
    assert_eq!(pos.phase, Phase::Release);
    assert!(is_legal(&pos, "release DEF3 G9 I9"));
    assert!(legal(&pos).iter().all(|a| a.starts_with("release DEF3")));
}
