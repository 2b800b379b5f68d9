//! `ball show`: the position drawn as a text board, 13 × 17, row 17 on top.
//!
//! Only every other square of a row is playable, so a playable square's
//! label may spill into the blank unplayable square beside it: each label
//! gets 10 columns of text (a stack with the ball, `D3X*/a2O`, needs 8)
//! while the grid stays 5 columns a square, 68 in all.

use super::board::{COLS, ROWS, Sq, is_playable};
use super::params::Params;
use super::piece::{PieceId, Team};
use super::position::{BallState, Outcome, Phase, Position};
use crate::kernel::grid::Coord;

const CELL: usize = 5;

/// The legend printed under every board.
pub const LEGEND: &str = "legend: D3X = DEF3, an X (kinds X, O, #) | lower-case team letter (d3X) = down \
| * = holds the ball | @ = loose ball | D3X/a2O = stack, top/bottom | : = end zone";

/// Draws the board, the state line, and lists of down, restricted and
/// stacked pieces.
pub fn render(pos: &Position, params: &Params) -> String {
    let mut out = String::new();
    let header: String = (0..COLS)
        .map(|c| format!("{:<CELL$}", (b'A' + c) as char))
        .collect();
    let depth = params.end_zone_depth;
    out.push_str(&format!(
        "    rows {}-{ROWS}: DEF's end zone, where ATK scores\n",
        ROWS - depth + 1
    ));
    out.push_str(&format!("    {}\n", header.trim_end()));
    for row in (1..=ROWS).rev() {
        let mut line = vec![b' '; CELL * COLS as usize + CELL];
        for col in 1..=COLS {
            if !is_playable(col, row) {
                continue;
            }
            let sq = Sq::from_coord(Coord { col, row }).expect("playable");
            let text = label(pos, params, sq);
            let start = (col as usize - 1) * CELL;
            for (i, b) in text.bytes().enumerate().take(2 * CELL - 1) {
                line[start + i] = b;
            }
        }
        let line = String::from_utf8(line).expect("ascii");
        out.push_str(&format!("{row:>2}  {}\n", line.trim_end()));
    }
    out.push_str(&format!("    {}\n", header.trim_end()));
    out.push_str(&format!(
        "    rows 1-{depth}: ATK's end zone, where DEF scores\n"
    ));
    out.push('\n');
    out.push_str(&status(pos));
    out.push('\n');
    let ball = match pos.ball {
        BallState::Held(p) => format!("ball: held by {p} on {}", pos.piece(p).at),
        BallState::Loose(sq) => format!("ball: loose on {sq}"),
    };
    out.push_str(&ball);
    out.push('\n');
    let list = |f: &dyn Fn(PieceId) -> bool| -> Vec<String> {
        PieceId::all()
            .filter(|&p| f(p))
            .map(|p| p.to_string())
            .collect()
    };
    let down = list(&|p| pos.piece(p).down);
    if !down.is_empty() {
        out.push_str(&format!("down: {}\n", down.join(", ")));
    }
    let restricted = list(&|p| pos.piece(p).restricted);
    if !restricted.is_empty() {
        out.push_str(&format!(
            "restricted this turn: {}\n",
            restricted.join(", ")
        ));
    }
    for s in pos.stacks.as_slice() {
        let kind = if s.top.team() == s.bottom.team() {
            "protect"
        } else {
            "block"
        };
        out.push_str(&format!(
            "stack on {}: {} on {} ({kind}, formed turn {})\n",
            s.at, s.top, s.bottom, s.formed
        ));
    }
    out.push_str(LEGEND);
    out.push('\n');
    out
}

/// One line: whose turn, phase, AP, EP, score, or the result.
pub fn status(pos: &Position) -> String {
    let score = format!(
        "score ATK {} - DEF {}",
        pos.score[Team::Atk as usize],
        pos.score[Team::Def as usize]
    );
    if let Some(outcome) = pos.outcome {
        let result = match outcome {
            Outcome::Winner(t) => format!("{t} wins"),
            Outcome::Draw => "draw".to_string(),
        };
        return format!("game over after turn {}: {result} | {score}", pos.turn);
    }
    let phase = match pos.phase {
        Phase::Action => "action phase",
        Phase::Release => "release phase",
    };
    let mut s = format!(
        "turn {} | {} to play | {phase} | AP {} | {score}",
        pos.turn, pos.to_move, pos.ap
    );
    if pos.ep != [0, 0] {
        s.push_str(&format!(
            " | EP ATK {} - DEF {}",
            pos.ep[Team::Atk as usize],
            pos.ep[Team::Def as usize]
        ));
    }
    s
}

fn label(pos: &Position, params: &Params, sq: Sq) -> String {
    let piece = |id: PieceId| {
        let p = pos.piece(id);
        let team = id.team().name().as_bytes()[0] as char;
        let team = if p.down {
            team.to_ascii_lowercase()
        } else {
            team
        };
        let ball = if pos.ball == BallState::Held(id) {
            "*"
        } else {
            ""
        };
        format!("{team}{}{}{ball}", id.number(), p.kind.symbol())
    };
    if let Some(s) = pos.stacks.at(sq) {
        return format!("{}/{}", piece(s.top), piece(s.bottom));
    }
    if let Some(id) = PieceId::all().find(|&p| pos.piece(p).at == sq) {
        return piece(id);
    }
    if pos.ball == BallState::Loose(sq) {
        return "@".into();
    }
    let row = sq.row();
    if row > ROWS - params.end_zone_depth || row <= params.end_zone_depth {
        ":".into()
    } else {
        ".".into()
    }
}
