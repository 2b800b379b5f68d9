//! Every rule id the binary can print must be in `docs/rules/`.
//!
//! Refusals, `--help` and the board's texts cite rule ids; a user who gets
//! `(B5.1)` must be able to read B5.1 with `ball rules B5.1`. The engine's
//! messages are spread over the whole of `src/`, and new ones arrive with
//! every change, so the check reads the source itself: every id in a
//! string literal (and in the `///` comments of `src/cli/`, which clap
//! prints as `--help`) must be found by `rules_text::lookup`.

use std::path::{Path, PathBuf};
use std::process::Command;

use ball::rules_text;

/// A piece of text the binary may print, with the source line of each of
/// its bytes (a literal may span lines).
struct Printable {
    text: String,
    lines: Vec<usize>,
}

impl Printable {
    fn new() -> Self {
        Printable {
            text: String::new(),
            lines: Vec::new(),
        }
    }

    fn push(&mut self, c: char, line: usize) {
        self.text.push(c);
        self.lines.extend(std::iter::repeat_n(line, c.len_utf8()));
    }
}

/// The string literals of a Rust source (plain, raw and byte strings),
/// and, with `docs`, its `///` comments. Comments and char literals are
/// skipped so that a `"` inside them does not start a string. A `\` line
/// continuation is joined as the compiler joins it, so that a citation
/// split over two lines is read whole. The block after `#[cfg(test)]` is
/// left out: the binary never prints a test's strings, and tests name
/// unknown ids on purpose.
fn printables(src: &str, docs: bool) -> Vec<Printable> {
    let c: Vec<char> = src.chars().collect();
    let mut found = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let ident = |k: usize| k > 0 && (c[k - 1].is_alphanumeric() || c[k - 1] == '_');
    let (mut depth, mut test_depth, mut pending_test) = (0, None, false);
    let keep = |found: &mut Vec<Printable>, p: Printable, in_test: bool| {
        if !in_test {
            found.push(p);
        }
    };
    while i < c.len() {
        let in_test = test_depth.is_some();
        match c[i] {
            '#' if c[i..].starts_with(&"#[cfg(test)]".chars().collect::<Vec<_>>()) => {
                pending_test = true;
                i += 1;
            }
            ';' => {
                pending_test = false;
                i += 1;
            }
            '{' => {
                depth += 1;
                if pending_test && test_depth.is_none() {
                    test_depth = Some(depth);
                }
                pending_test = false;
                i += 1;
            }
            '}' => {
                if test_depth == Some(depth) {
                    test_depth = None;
                }
                depth -= 1;
                i += 1;
            }
            '\n' => {
                line += 1;
                i += 1;
            }
            '/' if c.get(i + 1) == Some(&'/') => {
                let doc = c.get(i + 2) == Some(&'/') && c.get(i + 3) != Some(&'/');
                let mut p = Printable::new();
                i += 2;
                while i < c.len() && c[i] != '\n' {
                    p.push(c[i], line);
                    i += 1;
                }
                if doc && docs {
                    keep(&mut found, p, in_test);
                }
            }
            '/' if c.get(i + 1) == Some(&'*') => {
                let mut depth = 0;
                while i < c.len() {
                    if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                        depth += 1;
                        i += 2;
                    } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        if c[i] == '\n' {
                            line += 1;
                        }
                        i += 1;
                    }
                }
            }
            '\'' => {
                // A char literal ('x', '\n', '"'), else a lifetime or label.
                if c.get(i + 1) == Some(&'\\') {
                    i += 2;
                    while i < c.len() && c[i] != '\'' {
                        i += 1;
                    }
                    i += 1;
                } else if c.get(i + 2) == Some(&'\'') {
                    i += 3;
                } else {
                    i += 1;
                }
            }
            'r' if !ident(i) || (i > 0 && c[i - 1] == 'b' && !ident(i - 1)) => {
                let hashes = c[i + 1..].iter().take_while(|&&h| h == '#').count();
                if c.get(i + 1 + hashes) != Some(&'"') {
                    i += 1;
                    continue;
                }
                i += 2 + hashes;
                let mut p = Printable::new();
                while i < c.len() {
                    let closes = c[i] == '"'
                        && c[i + 1..]
                            .iter()
                            .take(hashes)
                            .filter(|&&h| h == '#')
                            .count()
                            == hashes;
                    if closes {
                        i += 1 + hashes;
                        break;
                    }
                    if c[i] == '\n' {
                        line += 1;
                    }
                    p.push(c[i], line);
                    i += 1;
                }
                keep(&mut found, p, in_test);
            }
            '"' => {
                i += 1;
                let mut p = Printable::new();
                while i < c.len() && c[i] != '"' {
                    if c[i] == '\\' && c.get(i + 1) == Some(&'\n') {
                        i += 1;
                        while i < c.len() && c[i].is_whitespace() {
                            if c[i] == '\n' {
                                line += 1;
                            }
                            i += 1;
                        }
                        continue;
                    }
                    if c[i] == '\\' {
                        // An escape: keep the escaped character as it is.
                        i += 1;
                    }
                    if c[i] == '\n' {
                        line += 1;
                    }
                    p.push(c[i], line);
                    i += 1;
                }
                i += 1;
                keep(&mut found, p, in_test);
            }
            _ => i += 1,
        }
    }
    found
}

fn rust_files(dir: &Path, into: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            into.push(path);
        }
    }
}

/// Every cited id in the source, as (`file:line`, id).
fn ids_in_source() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    files.sort();
    let mut ids = Vec::new();
    for file in files {
        let src = std::fs::read_to_string(&file).unwrap();
        let rel = file.strip_prefix(root).unwrap().display().to_string();
        let docs = rel.starts_with("src/cli/");
        for p in printables(&src, docs) {
            for (at, id) in rules_text::cited_ids(&p.text) {
                ids.push((format!("{rel}:{}", p.lines[at]), id.to_string()));
            }
        }
    }
    ids
}

#[test]
fn every_rule_id_in_the_source_is_in_the_rules_docs() {
    let ids = ids_in_source();
    // The scan must see the engine's refusals, or it proves nothing.
    for known in ["B4.4", "B5.1", "B11.6", "T1.8", "T3.5", "T13"] {
        assert!(
            ids.iter().any(|(_, id)| id == known),
            "the scan found no {known}: is it still reading the string literals?"
        );
    }
    let missing: Vec<String> = ids
        .iter()
        .filter(|(_, id)| rules_text::lookup(id).is_none())
        .map(|(at, id)| format!("{at}: {id}"))
        .collect();
    assert!(
        missing.is_empty(),
        "rule ids printed by the binary but not in docs/rules/*.md:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_scanner_reads_literals_and_skips_code_and_comments() {
    let src = r####"
        // "(B99.1)" in a comment is not printed
        /* nor "(B98.1)" here */
        let c = '"'; let s = "see (B5.1) and \
                              (B11, T13)";
        let r = r#"raw "quoted" T7.4"#;
        let life: &'static str = "G8.2";
        fail("B4.4", format!("{to} G9 is a square"));
        /// --help text (B3.6)
        #[cfg(test)]
        mod tests { fn t() { assert!(lookup("B99.9").is_none(), "{}", '}'); } }
        const AFTER: &str = "(T1.8)";
    "####;
    let cited = |docs| -> Vec<(usize, String)> {
        printables(src, docs)
            .iter()
            .flat_map(|p| {
                rules_text::cited_ids(&p.text)
                    .into_iter()
                    .map(|(at, id)| (p.lines[at], id.to_string()))
            })
            .collect()
    };
    let expect = |extra: Option<(usize, &str)>| {
        let mut v: Vec<(usize, String)> = [
            (4, "B5.1"),
            (5, "B11"),
            (5, "T13"),
            (6, "T7.4"),
            (7, "G8.2"),
            (8, "B4.4"),
        ]
        .iter()
        .map(|&(l, id)| (l, id.to_string()))
        .collect();
        v.extend(extra.map(|(l, id)| (l, id.to_string())));
        v
    };
    let mut with_docs = expect(Some((9, "B3.6")));
    with_docs.push((12, "T1.8".into()));
    let mut without = expect(None);
    without.push((12, "T1.8".into()));
    assert_eq!(cited(false), without);
    assert_eq!(cited(true), with_docs);
}

fn ball(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ball"))
        .args(args)
        .output()
        .expect("cannot run the ball binary")
}

#[test]
fn ball_rules_prints_the_rule() {
    let out = ball(&["rules", "B11.6"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("B11.6 Special actions (docs/rules/ball.md)\n"),
        "{text}"
    );
    assert!(text.contains(rules_text::lookup("B11.6").unwrap().text));
    assert!(!text.contains("B11.7 "), "one rule only:\n{text}");
    assert!(out.stderr.is_empty());
}

#[test]
fn ball_rules_takes_several_ids_and_sections() {
    let out = ball(&["rules", "t3.5", "G8"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("T3.5 No pass (docs/rules/gateball.md)\n"),
        "{text}"
    );
    assert!(
        text.contains("\nG8 Tackling (docs/rules/gball.md)\n"),
        "{text}"
    );
    assert!(
        text.contains("### G8.9 Ball lost"),
        "a section has its rules:\n{text}"
    );
}

#[test]
fn ball_rules_without_ids_lists_every_id_with_its_title() {
    let out = ball(&["rules"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let listed: Vec<&str> = text.lines().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(listed, rules_text::all_ids());
    assert!(
        text.lines()
            .any(|l| l == "B6.3   The ball of a pushed holder"),
        "{text}"
    );
}

#[test]
fn an_unknown_rule_exits_2_with_one_line() {
    let out = ball(&["rules", "B5.1", "X9.9"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty(), "nothing on stdout when failing");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        "error: no rule `X9.9` (rule ids look like B6.3, T7.4, G8.2; `ball rules` lists them)\n"
    );
    let out = ball(&["rules", "B6.9"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("no rule `B6.9`; the nearest is `B6.4`"),
        "{err}"
    );
}
