//! The command-line contract tests' way of running the binary: with
//! standard input or none, and the two verdicts every game's contract
//! shares (exit 0; exit 2 with one `error:` line and nothing on stdout).

use std::io::Write;
use std::process::{Command, Stdio};

pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

pub fn ball(args: &[&str], stdin: Option<&str>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ball"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    } else {
        drop(child.stdin.take());
    }
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

pub fn ok(args: &[&str], stdin: Option<&str>) -> String {
    let r = ball(args, stdin);
    assert_eq!(r.code, Some(0), "{args:?}: {}", r.stderr);
    r.stdout
}

/// Exit 2, nothing on stdout, one `error: ` line on stderr; the line.
pub fn refused(args: &[&str], stdin: Option<&str>) -> String {
    let r = ball(args, stdin);
    assert_eq!(r.code, Some(2), "{args:?} succeeded: {}", r.stdout);
    assert_eq!(r.stdout, "", "{args:?} printed on stdout");
    assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {}", r.stderr);
    assert!(r.stderr.starts_with("error: "), "{args:?}: {}", r.stderr);
    r.stderr
}
