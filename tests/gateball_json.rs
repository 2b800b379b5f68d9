//! The Gateball position JSON against its files: the malformed corpus
//! (`tests/gateball/malformed_positions/`) is refused with a line naming
//! the field and the rule, and the valid positions
//! (`tests/gateball/positions/`) read back and write out unchanged.
//!
//! Corpus format: `NAME.json` is a valid position with one malformed
//! condition; `NAME.expect` holds the substrings the error line must
//! contain, one a line (a leading `!`: must not contain). `#` lines are
//! comments.

use std::path::{Path, PathBuf};

use ball::games::gateball::{json, show};

fn dir(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/gateball")
        .join(sub)
}

fn json_files(sub: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir(sub))
        .unwrap_or_else(|e| panic!("{sub}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

struct Case {
    name: String,
    text: String,
    expects: Vec<String>,
}

fn corpus() -> Vec<Case> {
    json_files("malformed_positions")
        .into_iter()
        .map(|file| {
            let name = file.file_name().unwrap().to_string_lossy().into_owned();
            let expect = std::fs::read_to_string(file.with_extension("expect"))
                .unwrap_or_else(|e| panic!("{name}: no .expect: {e}"));
            let mut expects = Vec::new();
            for line in expect.lines() {
                if !line.trim().is_empty() && !line.starts_with('#') {
                    expects.push(line.to_string());
                }
            }
            assert!(!expects.is_empty(), "{name}: empty .expect");
            Case {
                name,
                text: std::fs::read_to_string(&file).unwrap(),
                expects,
            }
        })
        .collect()
}

/// What is wrong with the reader's answer to one case, if anything.
fn problems(case: &Case) -> Option<String> {
    let message = match json::read(&case.text) {
        Ok(_) => return Some(format!("{}: read it as a valid position", case.name)),
        Err(e) => e.to_string(),
    };
    let mut wrong = Vec::new();
    if message.contains('\n') {
        wrong.push("the error is more than one line".to_string());
    }
    for expect in &case.expects {
        match expect.strip_prefix('!') {
            Some(not) if message.contains(not) => wrong.push(format!("contains {not:?}")),
            None if !message.contains(expect.as_str()) => {
                wrong.push(format!("lacks {expect:?}"));
            }
            _ => {}
        }
    }
    (!wrong.is_empty()).then(|| format!("{}: {} — {message:?}", case.name, wrong.join(", ")))
}

fn check(cases: &[Case]) {
    let failures: Vec<String> = cases.iter().filter_map(problems).collect();
    assert!(
        failures.is_empty(),
        "{} of {} malformed positions are not refused properly:\n  {}",
        failures.len(),
        cases.len(),
        failures.join("\n  ")
    );
}

/// Every malformed position, the court's T1.8 and the no-legal-action
/// cases included.
#[test]
fn malformed_positions_are_refused() {
    let cases = corpus();
    assert!(cases.len() >= 40, "the corpus is {} files", cases.len());
    check(&cases);
}

/// The valid positions read, and write back byte for byte (they are
/// stored in the canonical layout).
#[test]
fn valid_positions_round_trip() {
    let files = json_files("positions");
    assert!(files.len() >= 3);
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let (game, pos) = json::read(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert_eq!(json::write(&game, &pos), text, "{}", file.display());
    }
}

/// `positions/spark.json` is the notation's `ball show` example.
#[test]
fn spark_position_shows_as_the_notation_example() {
    let text = std::fs::read_to_string(dir("positions").join("spark.json")).unwrap();
    let (game, pos) = json::read(&text).unwrap();
    let expected = std::fs::read_to_string(dir("show_example.txt")).unwrap();
    assert_eq!(show::render(&game, &pos), expected);
}
