//! Text helpers of the board: word wrap, the tail of a long path, the
//! too-small screen's lines.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};

/// Word-wraps `text` to `width` columns. With an `indent`, the first line
/// is indented by it and the next ones by two more, so a long log entry
/// reads as one. A word longer than a line is cut across lines.
pub fn wrap(text: &str, width: usize, indent: usize) -> Vec<String> {
    let width = width.max(indent + 4);
    let mut out = Vec::new();
    let mut line = " ".repeat(indent);
    let mut empty = true;
    let next_indent = if indent > 0 { indent + 2 } else { 0 };
    for word in text.split(' ') {
        let mut word: String = word.to_string();
        loop {
            let wl = word.chars().count();
            let ll = line.chars().count();
            if !empty && ll + 1 + wl > width {
                out.push(std::mem::take(&mut line));
                line = " ".repeat(next_indent);
                empty = true;
                continue;
            }
            let room = width.saturating_sub(ll + usize::from(!empty));
            if wl > room && empty && room > 0 {
                // A word wider than a whole line: cut it.
                let head: String = word.chars().take(room).collect();
                word = word.chars().skip(room).collect();
                line.push_str(&head);
                out.push(std::mem::take(&mut line));
                line = " ".repeat(next_indent);
                continue;
            }
            if !empty {
                line.push(' ');
            }
            line.push_str(&word);
            empty = false;
            break;
        }
    }
    out.push(line);
    out
}

/// The end of `text` that fits in `width` columns, `…` marking a cut: a
/// long path being typed shows where the typing is.
pub fn tail(text: &str, width: usize) -> String {
    let n = text.chars().count();
    if n <= width {
        return text.to_string();
    }
    let keep: String = text.chars().skip(n + 1 - width.max(1)).collect();
    format!("…{keep}")
}

/// Lines one a row from the top, cut to the area: the too-small screen.
pub fn warning_lines(buf: &mut Buffer, area: Rect, lines: &[String]) {
    for (i, line) in lines.iter().enumerate() {
        let y = area.y + i as u16;
        if y >= area.y + area.height {
            break;
        }
        buf.set_stringn(
            area.x,
            y,
            line,
            area.width as usize,
            Style::default().fg(Color::Yellow),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_keeps_words_and_indents() {
        assert_eq!(wrap("move DEF3 H10", 21, 1), vec![" move DEF3 H10"]);
        assert_eq!(
            wrap("release DEF2 D10 F10 keep DEF2", 21, 1),
            vec![" release DEF2 D10 F10", "   keep DEF2"]
        );
    }

    #[test]
    fn a_word_longer_than_the_line_is_cut_not_lost() {
        let lines = wrap("hash 0123456789abcdef0123 end", 10, 0);
        assert!(lines.iter().all(|l| l.chars().count() <= 10), "{lines:?}");
        assert_eq!(
            lines.join("").replace(' ', ""),
            "hash0123456789abcdef0123end"
        );
    }
}
