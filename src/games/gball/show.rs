//! The text board (`ball show`).
//!
//! ```text
//! G-ball   sets RED 0 - BLU 0   points RED 1 - BLU 0   turn 6 (17 played)   phase2   initiative RED
//!
//!        A     B     C     D     E     F     G     H     I     J     K
//!   6   [+]   ---   ---   ---   ---   =N=   ---   ---   ---   ---   [+]
//!   5   |R|    .     .     .     .     n     .     .     .     .    |B|
//!   4   |R|    .     .     .     .     n     .     .     .     .    |B|
//!   3   |R|    .     .   R2B2o   .     n     .     .     .     .    |B|
//!   2   |R|    .     .     .     .     n     .     .     .     .    |B|
//!   1   [+]   ---   ---   ---   ---   =N=   ---   ---   ---   ---   [+]
//!
//! ball: loose on D3, moving NE; possession RED
//! D3: BLU2 W T, BLU5 SW T, RED1 NE JC, RED4 E J
//! bench: BLU1 BLU3 BLU4 BLU6 BLU7 BLU8 BLU9 RED2 RED3 RED5 RED6 RED7 RED8 RED9; out: -
//! to decide: catch, RED
//! ```
//!
//! Legend: an empty square shows its kind — `[+]` corner, `---` side
//! wall, `=N=` neutral-zone wall square, `|R|` RED's goal, `|B|` BLU's
//! goal, `.` air, `n` neutral-zone air (G1.9). An occupied square shows
//! how many players of each team are on it (`R2B2`) and `o` for the ball
//! (`o` alone: the ball with nobody). Below the grid, each occupied
//! square lists its players with their facing and stars; `*` marks the
//! holder, `!` a leaving holder (G10.6), `~` a decliner of this phase.

use super::board::{self, Kind, NONE, Sq, dir_name};
use super::position::{Id, Phase, Position, Status, Winner, members, stars_name, team_of};
use super::{Gball, Team};

fn background(sq: u8) -> &'static str {
    match board::kind(sq) {
        Kind::Corner => "[+]",
        Kind::Goal if board::col(sq) == 0 => "|R|",
        Kind::Goal => "|B|",
        Kind::SideWall if board::col(sq) == 5 => "=N=",
        Kind::SideWall => "---",
        Kind::Air if board::col(sq) == 5 => "n",
        Kind::Air => ".",
    }
}

fn centre(s: &str, w: usize) -> String {
    let n = s.chars().count();
    if n >= w {
        return s.to_string();
    }
    let left = (w - n) / 2;
    format!("{}{}{}", " ".repeat(left), s, " ".repeat(w - n - left))
}

pub fn render(g: &Gball, pos: &Position) -> String {
    let _ = g;
    let mut out = String::new();
    let team = |t: Option<Team>| t.map_or("-".to_string(), |t| t.name().to_string());
    out.push_str(&format!(
        "G-ball   sets RED {} - BLU {}   points RED {} - BLU {}   turn {} ({} played)   {}   initiative {}\n",
        pos.sets[0],
        pos.sets[1],
        pos.points[0],
        pos.points[1],
        pos.turn,
        pos.match_turns,
        pos.phase.name(),
        team(pos.initiative),
    ));
    if let Some(m) = pos.morale {
        out.push_str(&format!(
            "morale RED {} - BLU {}{}\n",
            m[0],
            m[1],
            pos.demoralised
                .map_or(String::new(), |t| format!("   {t} demoralised"))
        ));
    }
    out.push('\n');
    out.push_str("     ");
    for c in 0..board::COLS {
        out.push_str(&centre(&((b'A' + c) as char).to_string(), 6));
    }
    out.truncate(out.trim_end_matches(' ').len());
    out.push('\n');
    for r in (0..board::ROWS).rev() {
        out.push_str(&format!("  {}  ", r + 1));
        for c in 0..board::COLS {
            let sq = board::square(c, r);
            let on: Vec<u8> = members(pos.roster)
                .filter(|&p| pos.players[p as usize].at == sq)
                .collect();
            let reds = on.iter().filter(|&&p| team_of(p) == Team::Red).count();
            let blus = on.len() - reds;
            let mut cell = String::new();
            if reds > 0 {
                cell.push_str(&format!("R{reds}"));
            }
            if blus > 0 {
                cell.push_str(&format!("B{blus}"));
            }
            if pos.ball.at == sq {
                cell.push('o');
            }
            if cell.is_empty() {
                cell = background(sq).to_string();
            }
            out.push_str(&centre(&cell, 6));
        }
        out.truncate(out.trim_end_matches(' ').len());
        out.push('\n');
    }
    out.push('\n');
    for line in details(pos) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The lines under the grid: the ball, each occupied square's players
/// with facing and stars, the bench and the statuses, and the decision
/// (the terminal board's panel shows them too).
pub fn details(pos: &Position) -> Vec<String> {
    let team = |t: Option<Team>| t.map_or("-".to_string(), |t| t.name().to_string());
    let mut out = String::new();
    let b = &pos.ball;
    let ball = if b.at == NONE {
        "off court".to_string()
    } else if b.holder != NONE {
        format!("held by {} on {}", Id(b.holder), Sq(b.at))
    } else if b.spin {
        format!("spinball on {}", Sq(b.at))
    } else if b.dir == NONE {
        format!("loose on {}, beaten loose (no direction)", Sq(b.at))
    } else if pos.phase == Phase::Place {
        format!("waiting on {}, pointing {}", Sq(b.at), dir_name(b.dir))
    } else {
        format!("loose on {}, moving {}", Sq(b.at), dir_name(b.dir))
    };
    out.push_str(&format!(
        "ball: {ball}; possession {}\n",
        team(b.possession)
    ));
    let declined = pos.resolution.map_or(0, |r| r.declined_mask());
    for sq in 0..board::SQUARES as u8 {
        let on: Vec<u8> = members(pos.roster)
            .filter(|&p| pos.players[p as usize].at == sq)
            .collect();
        if on.is_empty() {
            continue;
        }
        let items: Vec<String> = on
            .iter()
            .map(|&p| {
                let pl = &pos.players[p as usize];
                let mut s = format!("{} {}", Id(p), dir_name(pl.facing));
                let st = stars_name(pos.stars(p));
                if !st.is_empty() {
                    s.push(' ');
                    s.push_str(&st);
                }
                if pos.veterans & (1 << p) != 0 {
                    s.push_str(" vet");
                }
                if b.holder == p {
                    s.push(if pl.out == Status::None { '*' } else { '!' });
                }
                if declined & (1 << p) != 0 {
                    s.push('~');
                }
                s
            })
            .collect();
        out.push_str(&format!("{}: {}\n", Sq(sq), items.join(", ")));
    }
    let bench: Vec<String> = members(pos.roster)
        .filter(|&p| pos.players[p as usize].at == NONE && pos.players[p as usize].out == Status::None)
        .map(|p| Id(p).to_string())
        .collect();
    let outs: Vec<String> = members(pos.roster)
        .filter(|&p| pos.players[p as usize].out != Status::None)
        .map(|p| format!("{} ({})", Id(p), pos.players[p as usize].out.name()))
        .collect();
    out.push_str(&format!(
        "bench: {}; out: {}\n",
        if bench.is_empty() { "-".into() } else { bench.join(" ") },
        if outs.is_empty() { "-".into() } else { outs.join(" ") }
    ));
    match (pos.pending, pos.winner) {
        (Some(p), _) => out.push_str(&format!("to decide: {}, {}\n", p.kind(), p.team())),
        (None, Some(Winner::Draw)) => out.push_str("match over: a draw\n"),
        (None, Some(Winner::Team(t))) => out.push_str(&format!("match over: {t} wins\n")),
        (None, None) => {}
    }
    out.lines().map(str::to_string).collect()
}
