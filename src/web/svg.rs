//! The board as SVG: what a game supplies ([`Svg`], in its folder's
//! `svg.rs`) and the small drawing kit it draws with ([`Sheet`]).
//!
//! One renderer serves the web page, `ball show --svg` and the card
//! gallery, so a board looks the same wherever it is seen. A cell is a
//! `<g class="cell …" data-cell="NAME">` — `data-choice="LABEL"` when it
//! may be chosen now — so the page finds what a click means without
//! knowing the game: it sends the cell's name, and the server's `Chooser`
//! decides. Everything a colour says is also said by a class name, which
//! the tests read.

use std::fmt::Write;

use crate::shell::{Flow, Session};
use crate::tui::Board;

/// What the drawing marks: the cells that may be chosen now (with the
/// label of the choice made there), the cells chosen so far, and the
/// cells of the last action played.
#[derive(Clone, Debug)]
pub struct Marks<C> {
    pub options: Vec<(C, String)>,
    pub chosen: Vec<C>,
    pub last: Vec<C>,
}

impl<C: Copy + PartialEq> Marks<C> {
    /// Nothing marked: a position on its own (`ball show --svg`).
    pub fn none() -> Self {
        Marks {
            options: Vec::new(),
            chosen: Vec::new(),
            last: Vec::new(),
        }
    }

    /// The marks of a session's flow, as the terminal board makes them:
    /// the offered cells, else — in a menu step — the cells of the step
    /// after the `highlighted` choice (BALL: where the highlighted kind of
    /// action goes); the chosen cells; the last action's cells.
    pub fn of<G: Flow<Cell = C>>(s: &Session<G>, highlighted: Option<usize>) -> Self {
        let mut options: Vec<(C, String)> = s
            .options()
            .iter()
            .filter_map(|c| c.cell.map(|cell| (cell, c.label.clone())))
            .collect();
        if options.is_empty()
            && let Some(c) = highlighted.and_then(|i| s.options().get(i))
        {
            let mut prefix = s.chosen().to_vec();
            prefix.push(c.clone());
            options = s
                .chooser()
                .options_after(&prefix)
                .into_iter()
                .filter_map(|d| d.cell.map(|cell| (cell, String::new())))
                .collect();
        }
        let chosen = s.chosen().iter().filter_map(|c| c.cell).collect();
        let last = match s.played().last() {
            Some(p) => s
                .choices_of(&p.before, p.action)
                .into_iter()
                .filter_map(|c| c.cell)
                .collect(),
            None => Vec::new(),
        };
        Marks {
            options,
            chosen,
            last,
        }
    }

    /// The mark's class of a cell: `chosen`, `option`, `last` or none.
    pub fn class(&self, cell: C) -> &'static str {
        if self.chosen.contains(&cell) {
            "chosen"
        } else if self.options.iter().any(|(c, _)| *c == cell) {
            "option"
        } else if self.last.contains(&cell) {
            "last"
        } else {
            ""
        }
    }

    /// The label of the choice made on a cell now, if one is.
    pub fn choice(&self, cell: C) -> Option<&str> {
        self.options
            .iter()
            .find(|(c, l)| *c == cell && !l.is_empty())
            .map(|(_, l)| l.as_str())
    }
}

/// A game's board as SVG; implemented in the game's folder (`svg.rs`).
pub trait Svg: Board {
    /// The board of `pos` with `marks`, a whole `<svg>` document whose
    /// cells are drawn with [`Sheet::cell`] (so that they carry their
    /// names and choices).
    fn svg(&self, pos: &Self::Position, marks: &Marks<Self::Cell>) -> String;

    /// A cell's name as the notation spells it (`G9`, `K10`).
    fn cell_name(&self, cell: Self::Cell) -> String;

    /// The cell of a name, if the board has it: how a click comes back.
    fn cell_named(&self, name: &str) -> Option<Self::Cell>;

    /// What the board marks of a session; a game may mark more (Gateball:
    /// where each power move ends).
    fn marks(&self, s: &Session<Self>, highlighted: Option<usize>) -> Marks<Self::Cell> {
        Marks::of(s, highlighted)
    }

    /// The cards of the game's rules, for the gallery; none by default.
    fn gallery_cards(&self) -> Vec<crate::web::gallery::Card> {
        Vec::new()
    }
}

/// The drawing kit: cells, texts, discs, lines on a sheet of a given size,
/// with one style sheet for every game (cell grounds are classes the
/// games pick from: `ground`, `zone`, `line`, `wall`, `goal`, `start`,
/// `finish`, `void`).
pub struct Sheet {
    width: f64,
    height: f64,
    body: String,
}

const STYLE: &str = "\
.cell rect{stroke:#111;stroke-width:1}\
.ground rect{fill:#3c3c3c}.zone rect{fill:#5d5a22}.line rect{fill:#4a4a4a}\
.wall rect{fill:#2a2a2a}.goal rect{fill:#4a2a4a}.start rect{fill:#5a4a1a}\
.finish rect{fill:#1f4f2f}.void rect{fill:#1b1b1b}\
.cell.last rect{fill:#24507a}\
.cell.option rect{fill:#1f7a1f;stroke:#9f9;stroke-width:2}\
.cell.chosen rect{fill:#a0522d;stroke:#fc8;stroke-width:2}\
.cell.option{cursor:pointer}\
text{font-family:DejaVu Sans,Verdana,sans-serif;text-anchor:middle;\
dominant-baseline:central;pointer-events:none}\
.t0{fill:#ff7b6b;font-weight:bold}.t1{fill:#7bbcff;font-weight:bold}\
.down{font-style:italic;font-weight:normal}\
.ball{fill:#ffd700;font-weight:bold}.mark{fill:#999}.label{fill:#aaa}\
.gate{fill:#e58fe5;font-weight:bold}\
.die rect{fill:#eee;stroke:#333}.die text{fill:#111;font-weight:bold}";

impl Sheet {
    pub fn new(width: f64, height: f64) -> Sheet {
        Sheet {
            width,
            height,
            body: String::new(),
        }
    }

    /// A cell: a square of `ground` (a class above) named `name`, marked
    /// as `marks` says of `cell`; its contents go in `inside`, drawn
    /// within the cell's group.
    #[allow(clippy::too_many_arguments)]
    pub fn cell<C: Copy + PartialEq>(
        &mut self,
        name: &str,
        cell: C,
        marks: &Marks<C>,
        (x, y, w, h): (f64, f64, f64, f64),
        ground: &str,
        inside: impl FnOnce(&mut Sheet),
    ) {
        let mark = marks.class(cell);
        let _ = write!(
            self.body,
            "<g class=\"cell {ground} {mark}\" data-cell=\"{}\"",
            esc(name)
        );
        if let Some(c) = marks.choice(cell) {
            let _ = write!(self.body, " data-choice=\"{}\"", esc(c));
        }
        let _ = write!(
            self.body,
            "><rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{h:.1}\"/>"
        );
        inside(self);
        self.body.push_str("</g>");
    }

    /// Text centred on (x, y), of `class`, `size` pixels high.
    pub fn text(&mut self, x: f64, y: f64, size: f64, class: &str, text: &str) {
        let _ = write!(
            self.body,
            "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"{size:.1}\" class=\"{class}\">{}</text>",
            esc(text)
        );
    }

    /// A die showing `value`, its top-left at (x, y).
    pub fn die(&mut self, x: f64, y: f64, size: f64, value: u32) {
        let _ = write!(
            self.body,
            "<g class=\"die\" data-die=\"{value}\"><rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{size:.1}\" \
height=\"{size:.1}\" rx=\"4\"/>"
        );
        self.text(
            x + size / 2.0,
            y + size / 2.0,
            size * 0.6,
            "",
            &value.to_string(),
        );
        self.body.push_str("</g>");
    }

    /// The document, titled `title` (what a screen reader says).
    pub fn finish(self, title: &str) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w:.0} {h:.0}\" \
width=\"{w:.0}\" height=\"{h:.0}\" role=\"img\"><title>{}</title><style>{STYLE}</style>\
<rect width=\"100%\" height=\"100%\" fill=\"#202020\"/>{}</svg>\n",
            esc(title),
            self.body,
            w = self.width,
            h = self.height,
        )
    }
}

/// Text made safe inside XML or HTML, attributes included.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_carries_its_name_choice_and_mark() {
        let marks = Marks {
            options: vec![(1u8, "G9".to_string())],
            chosen: vec![2],
            last: vec![],
        };
        let mut s = Sheet::new(10.0, 10.0);
        s.cell("G9", 1u8, &marks, (0.0, 0.0, 5.0, 5.0), "ground", |s| {
            s.text(1.0, 1.0, 3.0, "t0", "<X>")
        });
        let out = s.finish("t");
        assert!(out.contains("class=\"cell ground option\" data-cell=\"G9\" data-choice=\"G9\""));
        assert!(out.contains("&lt;X&gt;"), "{out}");
    }
}
