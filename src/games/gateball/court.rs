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

/// The court sizes T1.8 allows, for `width` and `height` alike.
pub const COURT_SIZE: std::ops::RangeInclusive<u8> = 5..=30;

/// The part of a court a T1.8 problem concerns ([`Court::problems`]): a
/// court file reports the problem at that part's line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CourtPart {
    Width,
    Height,
    StartArea,
    Finish,
    /// Gate 1, 2 or 3.
    Gate(u8),
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
        // The ring only, in board order: whole edge columns, the two edge
        // rows of each column between (an out-ball's placement searches it).
        let (cols, rows) = (self.board_cols(), self.board_rows());
        (1..=cols).flat_map(move |col| {
            let step = if col == 1 || col == cols { 1 } else { rows - 1 };
            (1..=rows)
                .step_by(usize::from(step))
                .map(move |row| Space::new(col, row))
        })
    }

    /// Checks T1.8; the error names the rule's broken condition and the
    /// offending value, e.g. `gate 2: bottom "N14" and top "M15" are not
    /// orthogonally adjacent (T1.8)`. The first of [`Court::problems`].
    pub fn validate(&self) -> Result<(), String> {
        match self.problems().into_iter().next() {
            Some((_, message)) => Err(message),
            None => Ok(()),
        }
    }

    /// Every broken condition of T1.8, in the order T1.8 states them, each
    /// with the part of the court it concerns (a court file names that
    /// part's line). The last condition — some start passes gate 1 — is
    /// judged only when every other one holds: it plays start shots on the
    /// court, which needs a sound court.
    pub fn problems(&self) -> Vec<(CourtPart, String)> {
        let mut out = self.local_problems();
        if out.is_empty() && !super::rules::start_can_pass_gate1(self) {
            let area: Vec<String> = self.start_area.iter().map(Space::to_string).collect();
            out.push((
                CourtPart::Gate(1),
                format!(
                    "gate 1: no start shot from {} can pass it on the empty court (T1.8)",
                    area.join(" ")
                ),
            ));
        }
        out
    }

    /// T1.8's conditions but the last: each is judged on the court's data
    /// alone.
    fn local_problems(&self) -> Vec<(CourtPart, String)> {
        let mut out = Vec::new();
        for (part, what, value) in [
            (CourtPart::Width, "width", self.width),
            (CourtPart::Height, "height", self.height),
        ] {
            if !COURT_SIZE.contains(&value) {
                out.push((
                    part,
                    format!(
                        "{what} must be {}–{}, found {value} (T1.8)",
                        COURT_SIZE.start(),
                        COURT_SIZE.end()
                    ),
                ));
            }
        }
        out.extend(
            self.start_area_problems()
                .into_iter()
                .map(|m| (CourtPart::StartArea, m)),
        );
        let finish = self.finish;
        if !self.is_court(finish) {
            out.push((
                CourtPart::Finish,
                format!("finish \"{finish}\" is not a court space (T1.8)"),
            ));
        } else if self.is_inside_line(finish) {
            out.push((
                CourtPart::Finish,
                format!("finish \"{finish}\" is on the Inside Line: the Finish Space must be off it (T1.8)"),
            ));
        }
        for (i, (g, n)) in self.gates.iter().zip(1u8..).enumerate() {
            let part = CourtPart::Gate(n);
            let mut spaces_ok = true;
            for (end, s) in [("bottom", g.bottom), ("top", g.top)] {
                if !self.is_court(s) {
                    spaces_ok = false;
                    out.push((
                        part,
                        format!("gate {n}: {end} \"{s}\" is not a court space (T1.8)"),
                    ));
                }
            }
            if spaces_ok && g.bottom.dist2(g.top) != 1 {
                out.push((
                    part,
                    format!(
                        "gate {n}: bottom \"{}\" and top \"{}\" are not orthogonally adjacent (T1.8)",
                        g.bottom, g.top
                    ),
                ));
            }
            let joins = |h: &Gate| {
                (h.bottom == g.bottom && h.top == g.top) || (h.bottom == g.top && h.top == g.bottom)
            };
            if let Some(m) = self.gates[..i].iter().position(joins) {
                out.push((
                    part,
                    format!(
                        "gate {n} joins the same spaces as gate {}: \"{}\" and \"{}\" (T1.8)",
                        m + 1,
                        g.bottom,
                        g.top
                    ),
                ));
            }
            for (end, s) in [("bottom", g.bottom), ("top", g.top)] {
                if s == finish {
                    out.push((
                        part,
                        format!("gate {n}: {end} \"{s}\" is the Finish Space (T1.8)"),
                    ));
                }
            }
        }
        out
    }

    /// T1.8's Start-Area conditions: one to five distinct, adjacent
    /// Outside-Line spaces along one side of the ring, none a corner, in
    /// board order.
    fn start_area_problems(&self) -> Vec<String> {
        let area = &self.start_area;
        if !(1..=5).contains(&area.len()) {
            return vec![format!(
                "start_area must have 1 to 5 spaces, found {} (T1.8)",
                area.len()
            )];
        }
        let mut out = Vec::new();
        for (i, &s) in area.iter().enumerate() {
            if area[..i].contains(&s) {
                out.push(format!("start_area: \"{s}\" is listed twice (T1.8)"));
            } else if !self.is_outside(s) {
                out.push(format!(
                    "start_area: \"{s}\" is not on the Outside Line (T1.8)"
                ));
            } else if self.ring_side(s).is_none() {
                out.push(format!(
                    "start_area: \"{s}\" is a corner of the ring (T1.8)"
                ));
            }
        }
        if !out.is_empty() {
            return out;
        }
        for pair in area.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            if a > b {
                out.push(format!(
                    "start_area is not in board order: \"{a}\" before \"{b}\" (T1.8)"
                ));
            } else if self.ring_side(a) != self.ring_side(b) {
                out.push(format!(
                    "start_area: \"{a}\" and \"{b}\" are not on one side of the ring (T1.8)"
                ));
            } else if a.dist2(b) != 1 {
                out.push(format!(
                    "start_area: \"{a}\" and \"{b}\" are not adjacent (T1.8)"
                ));
            }
        }
        out
    }

    /// The side of the ring an Outside-Line space lies on: 0 south, 1
    /// north, 2 west, 3 east; `None` for a ring corner or a space off the
    /// Outside Line.
    fn ring_side(&self, s: Space) -> Option<u8> {
        if !self.is_outside(s) {
            return None;
        }
        let west_east = s.col == 1 || s.col == self.board_cols();
        let south_north = s.row == 1 || s.row == self.board_rows();
        match (west_east, south_north) {
            (true, true) | (false, false) => None,
            (false, true) => Some(if s.row == 1 { 0 } else { 1 }),
            (true, false) => Some(if s.col == 1 { 2 } else { 3 }),
        }
    }

    /// The step from `s` in `dir`, if it stays on the board.
    pub fn step(&self, s: Space, dir: Dir) -> Option<Space> {
        s.step(dir).filter(|&t| self.on_board(t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(name: &str) -> Space {
        Space::parse(name).expect("a space name")
    }

    /// The messages of T1.8's local conditions (all but gate 1's start).
    fn local(court: &Court) -> Vec<String> {
        court.local_problems().into_iter().map(|(_, m)| m).collect()
    }

    fn with(f: impl FnOnce(&mut Court)) -> Vec<String> {
        let mut c = Court::standard();
        f(&mut c);
        local(&c)
    }

    #[test]
    fn t1_9_standard_court_is_locally_valid() {
        assert!(local(&Court::standard()).is_empty());
    }

    /// T1.8 in full, the start check included.
    #[test]
    fn t1_8_standard_court_is_valid() {
        assert_eq!(Court::standard().validate(), Ok(()));
    }

    /// T1.8: a court whose gate 1 no start shot can reach is refused, last.
    #[test]
    fn t1_8_gate1_unreachable() {
        let mut c = Court::standard();
        // Gate 1 far from the Start Area: a start shot's power moves run
        // north in columns S–U (diagonals pass no gate, T1.7) and its
        // technical paths are at most 6 steps long.
        c.gates[0] = Gate {
            bottom: s("F12"),
            top: s("F13"),
        };
        assert_eq!(
            c.validate(),
            Err("gate 1: no start shot from S1 T1 U1 can pass it on the empty court (T1.8)".into())
        );
    }

    #[test]
    fn t1_8_size() {
        // A narrower court also moves the spaces off it: those follow.
        assert_eq!(
            with(|c| c.width = 4)[0],
            "width must be 5–30, found 4 (T1.8)"
        );
        assert_eq!(
            with(|c| c.width = 31),
            ["width must be 5–30, found 31 (T1.8)"]
        );
        assert_eq!(
            with(|c| c.height = 31),
            ["height must be 5–30, found 31 (T1.8)"]
        );
    }

    #[test]
    fn t1_8_start_area() {
        assert_eq!(
            with(|c| c.start_area.clear()),
            ["start_area must have 1 to 5 spaces, found 0 (T1.8)"]
        );
        assert_eq!(
            with(|c| c.start_area = ["N1", "O1", "P1", "Q1", "R1", "S1"].map(s).to_vec()),
            ["start_area must have 1 to 5 spaces, found 6 (T1.8)"]
        );
        assert_eq!(
            with(|c| c.start_area = vec![s("S1"), s("S1")]),
            ["start_area: \"S1\" is listed twice (T1.8)"]
        );
        assert_eq!(
            with(|c| c.start_area = vec![s("S2")]),
            ["start_area: \"S2\" is not on the Outside Line (T1.8)"]
        );
        assert_eq!(
            with(|c| c.start_area = vec![s("V1")]),
            ["start_area: \"V1\" is a corner of the ring (T1.8)"]
        );
        assert_eq!(
            with(|c| c.start_area = vec![s("T1"), s("S1")]),
            ["start_area is not in board order: \"T1\" before \"S1\" (T1.8)"]
        );
        assert_eq!(
            with(|c| c.start_area = vec![s("S1"), s("U1")]),
            ["start_area: \"S1\" and \"U1\" are not adjacent (T1.8)"]
        );
        // Two sides of the ring meet only at a corner: U1 and V2 are not
        // along one side.
        assert_eq!(
            with(|c| c.start_area = vec![s("U1"), s("V2")]),
            ["start_area: \"U1\" and \"V2\" are not on one side of the ring (T1.8)"]
        );
        // Off the board altogether.
        assert_eq!(
            with(|c| c.start_area = vec![s("Z1")]),
            ["start_area: \"Z1\" is not on the Outside Line (T1.8)"]
        );
        // A side other than the south one, five spaces: valid.
        assert!(with(|c| c.start_area = ["A3", "A4", "A5", "A6", "A7"].map(s).to_vec()).is_empty());
    }

    #[test]
    fn t1_8_finish() {
        assert_eq!(
            with(|c| c.finish = s("K1")),
            ["finish \"K1\" is not a court space (T1.8)"]
        );
        assert_eq!(
            with(|c| c.finish = s("K2")),
            ["finish \"K2\" is on the Inside Line: the Finish Space must be off it (T1.8)"]
        );
        assert_eq!(
            with(|c| c.finish = s("U9")),
            ["finish \"U9\" is on the Inside Line: the Finish Space must be off it (T1.8)"]
        );
    }

    #[test]
    fn t1_8_gates() {
        assert_eq!(
            with(|c| c.gates[1].top = s("M15")),
            ["gate 2: bottom \"N14\" and top \"M15\" are not orthogonally adjacent (T1.8)"]
        );
        assert_eq!(
            with(|c| c.gates[1].top = s("N14")),
            ["gate 2: bottom \"N14\" and top \"N14\" are not orthogonally adjacent (T1.8)"]
        );
        assert_eq!(
            with(|c| {
                c.gates[0] = Gate {
                    bottom: s("T1"),
                    top: s("T2"),
                }
            }),
            ["gate 1: bottom \"T1\" is not a court space (T1.8)"]
        );
        // Inside-Line spaces are court spaces (T1.3): a gate may join them.
        assert!(
            with(|c| {
                c.gates[0] = Gate {
                    bottom: s("T2"),
                    top: s("T3"),
                }
            })
            .is_empty()
        );
        assert_eq!(
            with(|c| {
                c.gates[2] = Gate {
                    bottom: s("T4"),
                    top: s("T3"),
                }
            }),
            ["gate 3 joins the same spaces as gate 1: \"T4\" and \"T3\" (T1.8)"]
        );
        assert_eq!(
            with(|c| c.gates[2] = c.gates[1]),
            ["gate 3 joins the same spaces as gate 2: \"N14\" and \"M14\" (T1.8)"]
        );
        assert_eq!(
            with(|c| c.finish = s("D9")),
            ["gate 3: top \"D9\" is the Finish Space (T1.8)"]
        );
    }

    #[test]
    fn t1_8_problems_are_all_listed() {
        let p = with(|c| {
            c.width = 40;
            c.finish = s("B5");
            c.gates[1].top = s("M15");
        });
        assert_eq!(p.len(), 3, "{p:?}");
    }
}
