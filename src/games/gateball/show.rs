//! `ball show` for Gateball (`docs/rules/gateball-notation.md`, "`ball show`
//! output"): the state line, the score line, the board as T1.9 draws it
//! with the balls on it, and the waiting and goal lists — byte for byte,
//! because snapshot tests and outside tools compare it.

use std::fmt::Write as _;

use super::Gateball;
use super::position::{Phase, Place, Position, Team};
use super::space::{Dir, Space, column_name};

/// Width of a column of the board: tokens are right-aligned in it.
const CELL: usize = 4;

/// Draws `pos` as the notation prints it. Every line ends with a newline;
/// no line has trailing spaces.
pub fn render(game: &Gateball, pos: &Position) -> String {
    let mut out = String::new();

    // 1. turn, ball, phase and the play's details.
    let team = Team::of_ball(pos.ball).name();
    let _ = write!(
        out,
        "turn {}/{} ball {} {team} phase {}",
        pos.turn,
        game.rules.turns,
        pos.ball,
        pos.phase.name()
    );
    if matches!(pos.phase, Phase::Move | Phase::Spark)
        && let Some(shot) = pos.shot
    {
        let dice: Vec<String> = pos.dice.iter().map(u8::to_string).collect();
        let _ = write!(out, " {} dice {}", shot.name(), dice.join(" "));
    }
    if pos.phase == Phase::Spark
        && let Some(c) = pos.spark
    {
        let _ = write!(out, " spark {c}");
    }
    if pos.continuation {
        out.push_str(" continuation");
    }
    out.push('\n');

    // 2. the score, and the result once the game is over.
    let _ = write!(
        out,
        "score red {} blue {}",
        pos.score(Team::Red),
        pos.score(Team::Blue)
    );
    if pos.phase == Phase::Over
        && let Some(w) = pos.winner
    {
        let _ = write!(out, " winner {}", w.name());
        if pos.perfect {
            out.push_str(" perfect");
        }
    }
    out.push('\n');

    // 3. the board.
    out.push_str(&board(game, pos));

    // 4. the balls off the board.
    let list = |place: Place| -> String {
        let balls: Vec<String> = (1..=10u8)
            .filter(|&n| pos.ball_state(n).place == place)
            .map(|n| n.to_string())
            .collect();
        if balls.is_empty() {
            "-".into()
        } else {
            balls.join(" ")
        }
    };
    let _ = writeln!(out, "waiting {}", list(Place::Waiting));
    let _ = writeln!(out, "goal {}", list(Place::Goal));
    out
}

/// The board part alone, as T1.9 draws it: header, rows from the top
/// down, header again.
pub fn board(game: &Gateball, pos: &Position) -> String {
    let court = &game.court;
    let mut header = String::from("   ");
    for col in 1..=court.board_cols() {
        let _ = write!(header, "{:>CELL$}", column_name(col));
    }
    header.push('\n');
    let mut out = header.clone();
    for row in (1..=court.board_rows()).rev() {
        let _ = write!(out, "{row:>3}");
        for col in 1..=court.board_cols() {
            let _ = write!(out, "{:>CELL$}", token(game, pos, Space::new(col, row)));
        }
        out.push('\n');
    }
    out.push_str(&header);
    out
}

/// What a space shows: a ball on it (the playing ball on a shared touch
/// space), else its mark.
fn token(game: &Gateball, pos: &Position, s: Space) -> String {
    let on: Vec<u8> = (1..=10u8)
        .filter(|&n| pos.ball_state(n).place.space() == Some(s))
        .collect();
    let ball = if on.contains(&pos.ball) {
        Some(pos.ball)
    } else {
        on.first().copied()
    };
    if let Some(n) = ball {
        let team = match Team::of_ball(n) {
            Team::Red => 'r',
            Team::Blue => 'b',
        };
        return format!("{team}{n}");
    }
    mark(game, s).to_string()
}

/// The mark of an empty space. A space that is the bottom of one gate and
/// the top of another shows the number: the number names its gate, an
/// arrow does not.
fn mark(game: &Gateball, s: Space) -> String {
    let court = &game.court;
    if court.is_outside(s) {
        return if court.is_start(s) { "S" } else { "#" }.into();
    }
    if let Some(n) = (1u8..)
        .zip(&court.gates)
        .find_map(|(n, g)| (g.bottom == s).then_some(n))
    {
        return n.to_string();
    }
    if let Some(g) = court.gates.iter().find(|g| g.top == s) {
        let arrow = Dir::ORTHOGONAL
            .into_iter()
            .find(|&d| g.bottom.step(d) == Some(g.top))
            .map_or("?", |d| match d {
                Dir::N => "^",
                Dir::S => "v",
                Dir::E => ">",
                _ => "<",
            });
        return arrow.into();
    }
    if s == court.finish {
        "F".into()
    } else if court.is_inside_line(s) {
        "+".into()
    } else {
        ".".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::gateball::position::{BallState, ShotKind, Winner};

    use crate::kernel::rng::SplitMix64;

    fn game() -> Gateball {
        Gateball::standard()
    }

    fn sp(s: &str) -> Space {
        Space::parse(s).unwrap()
    }

    fn place(pos: &mut Position, n: u8, place: Place, gates: u8) {
        *pos.ball_mut(n) = BallState { place, gates };
    }

    /// The notation's example, byte for byte: turn 2, ball 5 (from P4) has
    /// touched ball 2 on P8 with `power`, `shot N 7`; ball 1 on K5, ball 3
    /// out on A12.
    #[test]
    fn notation_example() {
        let mut pos = Position::start(SplitMix64::new(0));
        pos.turn = 2;
        pos.ball = 5;
        pos.phase = Phase::Spark;
        pos.shot = Some(ShotKind::Power);
        pos.dice = vec![3, 2];
        pos.continuation = true;
        pos.touched = 1 << 2;
        pos.spark = Some(2);
        place(&mut pos, 1, Place::Court(sp("K5")), 1);
        place(&mut pos, 2, Place::Court(sp("P8")), 1);
        place(&mut pos, 3, Place::Out(sp("A12")), 1);
        place(&mut pos, 5, Place::Court(sp("P8")), 1);
        let expected = include_str!("../../../tests/gateball/show_example.txt");
        assert_eq!(render(&game(), &pos), expected);
    }

    /// T1.9's drawing is the board of the empty default court.
    #[test]
    fn t1_9_default_court() {
        let expected = include_str!("../../../tests/gateball/t1_9_court.txt");
        let pos = Position::start(SplitMix64::new(0));
        assert_eq!(board(&game(), &pos), expected);
        let text = render(&game(), &pos);
        assert!(text.starts_with("turn 1/6 ball 1 red phase shot\nscore red 0 blue 0\n"));
        assert!(text.ends_with(&format!("{expected}waiting 1 2 3 4 5 6 7 8 9 10\ngoal -\n")));
    }

    #[test]
    fn lines_have_no_trailing_spaces() {
        let pos = Position::start(SplitMix64::new(0));
        for line in render(&game(), &pos).lines() {
            assert_eq!(line, line.trim_end());
        }
    }

    #[test]
    fn over_lines_and_goal_list() {
        let mut pos = Position::start(SplitMix64::new(0));
        pos.turn = 4;
        pos.ball = 9;
        pos.phase = Phase::Over;
        pos.winner = Some(Winner::Team(Team::Red));
        pos.perfect = true;
        for n in [1, 3, 5, 7, 9] {
            place(&mut pos, n, Place::Goal, 3);
        }
        place(&mut pos, 10, Place::Court(sp("B2")), 1);
        let text = render(&game(), &pos);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "turn 4/6 ball 9 red phase over");
        assert_eq!(lines[1], "score red 25 blue 1 winner red perfect");
        assert_eq!(lines[lines.len() - 2], "waiting 2 4 6 8");
        assert_eq!(lines[lines.len() - 1], "goal 1 3 5 7 9");
        assert!(lines[18].starts_with("  2   # b10   +"), "{}", lines[18]);
    }

    #[test]
    fn move_phase_and_wide_court_columns() {
        let mut g = game();
        g.court.width = 26; // the board's last column is AB
        let mut pos = Position::start(SplitMix64::new(0));
        pos.phase = Phase::Move;
        pos.shot = Some(ShotKind::Tech);
        pos.dice = vec![4];
        let text = render(&g, &pos);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "turn 1/6 ball 1 red phase move tech dice 4");
        assert!(lines[2].ends_with("   Y   Z  AA  AB"), "{}", lines[2]);
    }
}
