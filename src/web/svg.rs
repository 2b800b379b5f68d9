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
.die rect{fill:#eee;stroke:#333}.die text{fill:#111;font-weight:bold}\
.court rect{fill:transparent;stroke:rgba(255,255,255,.10);stroke-width:1}\
.cell.court.last rect{fill:rgba(90,160,240,.35)}\
.cell.court.option rect{fill:rgba(70,230,70,.42);stroke:#9f9;stroke-width:2}\
.cell.court.chosen rect{fill:rgba(240,130,60,.55);stroke:#fc8;stroke-width:2}\
.over,.cell circle,.cell path,.cell line,.cell g{pointer-events:none}.grass{fill:#2e6b35}.apron{fill:#4d3f2b}\
.chalk{stroke:#f4f4f4;stroke-width:3;fill:none}.chalk-thin{stroke:#f4f4f4;stroke-width:1.2;fill:none;stroke-dasharray:5 4;opacity:.7}\
.startarea{fill:#d8b23e;fill-opacity:.55;stroke:#f7dc7a;stroke-width:2}\
.gatebar{stroke:#fff;stroke-width:5;stroke-linecap:round}.gatepost{fill:#e58fe5;stroke:#222;stroke-width:1.5}\
.arrow{stroke:#e58fe5;stroke-width:2.5;fill:none;stroke-linecap:round;stroke-linejoin:round}\
.pole{fill:#ffd700;stroke:#222;stroke-width:2}.pole-ring{fill:none;stroke:#ffd700;stroke-width:2;opacity:.7}\
.disc0{fill:#d63b2f;stroke:#fff;stroke-width:2}.disc1{fill:#2f6fd6;stroke:#fff;stroke-width:2}\
.discnum{fill:#fff;font-weight:bold}.word{fill:#eee;text-anchor:start}.words{fill:#fff;font-weight:bold;opacity:.85}\
.tint0{fill:#d63b2f;fill-opacity:.22}.tint1{fill:#2f6fd6;fill-opacity:.22}\
.ballmark{fill:#ffd700;stroke:#6b5200;stroke-width:1.5}.swatch{stroke:#777;stroke-width:1}\
.piece0{fill:#d63b2f;stroke:#fff;stroke-width:2}.piece1{fill:#2f6fd6;stroke:#fff;stroke-width:2}\
.down .piece0,.down .piece1{fill-opacity:.35;stroke-dasharray:3 2}\
.zone0 rect{fill:#5a3a36}.zone1 rect{fill:#34425e}\
.kind{stroke:#fff;stroke-width:2.2;fill:none;stroke-linecap:round}.restricted{fill:#fff;stroke:#222}\
.facing0{fill:#ffb0a6;stroke:#222;stroke-width:1}.facing1{fill:#b0d4ff;stroke:#222;stroke-width:1}\
.spin{fill:none;stroke:#ffd700;stroke-width:2;stroke-dasharray:4 3}\
.flight{stroke:#ffd700;stroke-width:2.5;fill:none;stroke-linecap:round;stroke-linejoin:round}\
.pen0{stroke:#ff8b7b;stroke-width:3;fill:none;stroke-linecap:round}.pen1{stroke:#8bc4ff;stroke-width:3;fill:none;stroke-linecap:round}";

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

    /// SVG made by the caller (shapes of its own drawing), as it is.
    pub fn raw(&mut self, svg: &str) {
        self.body.push_str(svg);
    }

    /// A rectangle of `class`.
    pub fn rect(&mut self, (x, y, w, h): (f64, f64, f64, f64), class: &str) {
        let _ = write!(
            self.body,
            "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" class=\"{class}\"/>"
        );
    }

    /// A line of `class` from (x1, y1) to (x2, y2).
    pub fn line(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), class: &str) {
        let _ = write!(
            self.body,
            "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" class=\"{class}\"/>"
        );
    }

    /// A disc of `class` centred on (cx, cy), its number (or any short
    /// label) written on it in white.
    pub fn disc(&mut self, cx: f64, cy: f64, r: f64, class: &str, label: &str) {
        let _ = write!(
            self.body,
            "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{r:.1}\" class=\"{class}\"/>"
        );
        if !label.is_empty() {
            self.text(cx, cy + 0.5, r * 1.1, "discnum", label);
        }
    }

    /// Text that starts at (x, y) rather than centred on it: legends.
    pub fn words(&mut self, x: f64, y: f64, size: f64, text: &str) {
        let _ = write!(
            self.body,
            "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"{size:.1}\" class=\"word\">{}</text>",
            esc(text)
        );
    }

    /// Starts a group of drawing above the cells that clicks go through
    /// (lines, gates, pieces): close it with [`Sheet::end_group`].
    pub fn begin_over(&mut self, class: &str) {
        let _ = write!(self.body, "<g class=\"over {class}\">");
    }

    pub fn end_group(&mut self) {
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
