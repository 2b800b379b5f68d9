//! The court (T1): its size, Start Area, Finish Space and gates, and the
//! geometry questions the rules ask of it. A court is data — loaded from a
//! court file (`court_file.rs`) or from a position's `court` — and the
//! default one is `courts/standard.toml`.

use super::space::{Dir, Space};

/// A gate (T1.6): the directed edge `bottom` → `top` between two
/// orthogonally adjacent court spaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Gate {
    pub bottom: Space,
    pub top: Space,
}

/// A court as T1.1–T1.8 describe it. Validity (T1.8) is checked by
/// [`Court::validate`]; the rules assume a valid court.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Court {
    pub name: String,
    pub description: Option<String>,
    /// Court spaces west–east and south–north, Inside Line included.
    pub width: u8,
    pub height: u8,
    /// In board order.
    pub start_area: Vec<Space>,
    pub finish: Space,
    /// Gates 1, 2, 3 at indices 0, 1, 2.
    pub gates: [Gate; 3],
}

/// How a step crosses a gate (T1.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Crossing {
    /// 1, 2 or 3.
    pub gate: u8,
    pub forward: bool,
}

impl Court {
    /// The default court of T1.9, the same as `courts/standard.toml` (a
    /// test holds them equal).
    pub fn standard() -> Court {
        let s = |name: &str| Space::parse(name).expect("a space name");
        Court {
            name: "standard".into(),
            description: None,
            width: 20,
            height: 15,
            start_area: vec![s("S1"), s("T1"), s("U1")],
            finish: s("K9"),
            gates: [
                Gate {
                    bottom: s("T3"),
                    top: s("T4"),
                },
                Gate {
                    bottom: s("N14"),
                    top: s("M14"),
                },
                Gate {
                    bottom: s("D10"),
                    top: s("D9"),
                },
            ],
        }
    }

    /// Columns of the board, the Outside Line included (T1.1).
    pub fn board_cols(&self) -> u8 {
        self.width + 2
    }

    pub fn board_rows(&self) -> u8 {
        self.height + 2
    }

    /// Whether `s` is on the board at all (court or Outside Line).
    pub fn on_board(&self, s: Space) -> bool {
        (1..=self.board_cols()).contains(&s.col) && (1..=self.board_rows()).contains(&s.row)
    }

    /// Whether `s` is an Outside-Line space (T1.1).
    pub fn is_outside(&self, s: Space) -> bool {
        self.on_board(s)
            && (s.col == 1
                || s.row == 1
                || s.col == self.board_cols()
                || s.row == self.board_rows())
    }

    /// Whether `s` is a court space (Inside Line included, T1.3).
    pub fn is_court(&self, s: Space) -> bool {
        self.on_board(s) && !self.is_outside(s)
    }

    /// Whether `s` is on the Inside Line (T1.3).
    pub fn is_inside_line(&self, s: Space) -> bool {
        self.is_court(s)
            && (s.col == 2 || s.row == 2 || s.col == self.width + 1 || s.row == self.height + 1)
    }

    pub fn is_start(&self, s: Space) -> bool {
        self.start_area.contains(&s)
    }

    /// The gate an orthogonal step from `from` to `to` crosses, if any.
    /// Diagonal steps never cross one (T1.7).
    pub fn crossing(&self, from: Space, to: Space) -> Option<Crossing> {
        self.gates.iter().zip(1u8..).find_map(|(g, gate)| {
            if g.bottom == from && g.top == to {
                Some(Crossing {
                    gate,
                    forward: true,
                })
            } else if g.top == from && g.bottom == to {
                Some(Crossing {
                    gate,
                    forward: false,
                })
            } else {
                None
            }
        })
    }

    /// The entry space of an Outside-Line space (T8.4): the court space
    /// orthogonally next to it, or for a ring corner the diagonal court
    /// corner.
    pub fn entry_space(&self, out: Space) -> Space {
        let col = out.col.clamp(2, self.width + 1);
        let row = out.row.clamp(2, self.height + 1);
        Space::new(col, row)
    }

    /// Every Outside-Line space in board order.
    pub fn outside_spaces(&self) -> impl Iterator<Item = Space> + '_ {
        (1..=self.board_cols())
            .flat_map(move |col| (1..=self.board_rows()).map(move |row| Space::new(col, row)))
            .filter(|&s| self.is_outside(s))
    }

    /// Checks T1.8; the error names the rule's broken condition and the
    /// offending value, e.g. `gate 2: bottom "N14" and top "M15" are not
    /// orthogonally adjacent (T1.8)`.
    pub fn validate(&self) -> Result<(), String> {
        todo!("court validation")
    }

    /// The step from `s` in `dir`, if it stays on the board.
    pub fn step(&self, s: Space, dir: Dir) -> Option<Space> {
        s.step(dir).filter(|&t| self.on_board(t))
    }
}
