//! `ball init DIR`: a designer's workspace, ready for `ball check` and
//! `ball test` from inside it — a ruleset (for BALL one extending `cards`,
//! with an example card), an example house rule, a scenario for each with
//! the snapshot its report makes now, the editor annotations and a short
//! README.
//!
//! The files are the ones under `templates/workspace/`, compiled in; the
//! snapshot and the annotations are made by this binary when the folder
//! is written, so they always match the binary that wrote them.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::UsageError;
use crate::kernel::game::Title;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "BALL (the default): writes DIR/ruleset.toml (card mode as shipped, plus the example card \
and the example house rule with its option), DIR/cards/leap.lua, DIR/variants/long-pass.lua, \
DIR/scenarios/leap_works.scn and long-pass_refused.scn with their snapshots in DIR/snapshots/, \
DIR/lua/ball.lua (`ball api --stubs`) with DIR/.luarc.json for lua-language-server, and \
DIR/README.md. With --game gateball: a Gateball ruleset with an example house rule \
(DIR/variants/big-goal.lua), its scenario and snapshot, DIR/lua/gateball.lua and a README; \
with --game gball the same for G-ball (DIR/variants/easy-catch.lua). \
DIR must be new or empty: nothing is overwritten.\n\n\
Examples:\n  ball init my-cards\n  ball init --game gateball my-gateball\n  ball init --game gball my-gball\n  \
cd my-cards && ball check --ruleset ruleset.toml && ball test scenarios\n\n\
Exit status: 0 written; 2 DIR is not empty or cannot be written (one line on stderr)."
)]
pub struct InitArgs {
    /// The folder to create (or an empty one to fill).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

/// One game's workspace: its fixed files, its example scenarios, the
/// editor annotations' file name, and what `init` says it wrote.
struct Workspace {
    files: &'static [(&'static str, &'static str)],
    /// The example scenarios, under DIR.
    scenarios: &'static [&'static str],
    /// Where the editor annotations go, under DIR.
    stubs: &'static str,
    summary: &'static str,
}

/// BALL's: card mode with one example card and one example house rule.
const BALL: Workspace = Workspace {
    files: &[
        (
            "ruleset.toml",
            include_str!("../../templates/workspace/ruleset.toml"),
        ),
        (
            "cards/leap.lua",
            include_str!("../../templates/workspace/cards/leap.lua"),
        ),
        (
            "variants/long-pass.lua",
            include_str!("../../templates/workspace/variants/long-pass.lua"),
        ),
        (
            "scenarios/leap_works.scn",
            include_str!("../../templates/workspace/scenarios/leap_works.scn"),
        ),
        (
            "scenarios/long-pass_refused.scn",
            include_str!("../../templates/workspace/scenarios/long-pass_refused.scn"),
        ),
        (
            "README.md",
            include_str!("../../templates/workspace/README.md"),
        ),
        (
            ".luarc.json",
            include_str!("../../templates/workspace/.luarc.json"),
        ),
    ],
    scenarios: &[
        "scenarios/leap_works.scn",
        "scenarios/long-pass_refused.scn",
    ],
    stubs: "lua/ball.lua",
    summary: "ruleset.toml                     card mode (extends `cards`) with your card and house rule\n  \
cards/leap.lua                   the example card\n  \
variants/long-pass.lua           the example house rule (a long pass costs 3 AP)\n  \
scenarios/leap_works.scn         a scenario for each; snapshots/ holds their reviewed reports\n  \
scenarios/long-pass_refused.scn\n  \
lua/ball.lua, .luarc.json        editor annotations for lua-language-server",
};

/// Gateball's: the rulebook with one example house rule.
const GATEBALL: Workspace = Workspace {
    files: &[
        (
            "ruleset.toml",
            include_str!("../../templates/workspace-gateball/ruleset.toml"),
        ),
        (
            "variants/big-goal.lua",
            include_str!("../../templates/workspace-gateball/variants/big-goal.lua"),
        ),
        (
            "scenarios/big-goal_works.scn",
            include_str!("../../templates/workspace-gateball/scenarios/big-goal_works.scn"),
        ),
        (
            "README.md",
            include_str!("../../templates/workspace-gateball/README.md"),
        ),
        (
            ".luarc.json",
            include_str!("../../templates/workspace/.luarc.json"),
        ),
    ],
    scenarios: &["scenarios/big-goal_works.scn"],
    stubs: "lua/gateball.lua",
    summary: "ruleset.toml                  the rulebook with your house rule and its option\n  \
variants/big-goal.lua         the example house rule (a Goal worth more)\n  \
scenarios/big-goal_works.scn  a scenario; snapshots/ holds its reviewed report\n  \
lua/gateball.lua, .luarc.json editor annotations for lua-language-server",
};

/// G-ball's: the rulebook with one example house rule.
const GBALL: Workspace = Workspace {
    files: &[
        (
            "ruleset.toml",
            include_str!("../../templates/workspace-gball/ruleset.toml"),
        ),
        (
            "variants/easy-catch.lua",
            include_str!("../../templates/workspace-gball/variants/easy-catch.lua"),
        ),
        (
            "scenarios/easy-catch_works.scn",
            include_str!("../../templates/workspace-gball/scenarios/easy-catch_works.scn"),
        ),
        (
            "README.md",
            include_str!("../../templates/workspace-gball/README.md"),
        ),
        (
            ".luarc.json",
            include_str!("../../templates/workspace/.luarc.json"),
        ),
    ],
    scenarios: &["scenarios/easy-catch_works.scn"],
    stubs: "lua/gball.lua",
    summary: "ruleset.toml                    the rulebook with your house rule and its option\n  \
variants/easy-catch.lua         the example house rule (easier catches)\n  \
scenarios/easy-catch_works.scn  a scenario; snapshots/ holds its reviewed report\n  \
lua/gball.lua, .luarc.json      editor annotations for lua-language-server",
};

/// The workspace of `game` and its script API's stubs.
fn workspace(game: &str) -> Result<(&'static Workspace, String), UsageError> {
    use crate::games::gateball::Gateball;
    let (w, stubs) = match game {
        "ball" => (&BALL, crate::games::ball::Ball::script_api(true)),
        "gateball" => (&GATEBALL, Gateball::script_api(true)),
        "gball" => (&GBALL, crate::games::gball::Gball::script_api(true)),
        other => {
            return Err(UsageError(format!(
                "`ball init` has no workspace for {other} yet: its house rules are not scriptable"
            )));
        }
    };
    let stubs = stubs.ok_or_else(|| UsageError(format!("{game} has no script API to annotate")))?;
    Ok((w, stubs))
}

pub fn run(args: InitArgs, game: Option<&str>, out: &mut dyn Write) -> Result<(), UsageError> {
    let dir = &args.dir;
    let shown = dir.display();
    let (ws, stubs) = workspace(game.unwrap_or("ball"))?;
    if dir.exists() {
        if !dir.is_dir() {
            return Err(UsageError(format!("`{shown}` exists and is not a folder")));
        }
        let mut entries = std::fs::read_dir(dir)
            .map_err(|e| UsageError(format!("cannot read `{shown}`: {e}")))?;
        if entries.next().is_some() {
            return Err(UsageError(format!(
                "`{shown}` is not empty: `ball init` writes a new folder and overwrites nothing"
            )));
        }
    }
    for (rel, text) in ws
        .files
        .iter()
        .map(|(r, t)| (*r, *t))
        .chain([(ws.stubs, stubs.as_str())])
    {
        write(dir, rel, text.as_bytes())?;
    }
    // The scenario's report, as `ball test --accept` would write it: the
    // designer reads it in `snapshots/` and it is the reference from now.
    let mut sink = Vec::new();
    super::test::run(
        super::test::TestArgs {
            paths: vec![dir.join("scenarios")],
            accept: true,
            snapshots: None,
            json: false,
        },
        &mut sink,
    )
    .map_err(|_| {
        UsageError(format!(
            "the example scenario does not pass in `{shown}`: {}",
            String::from_utf8_lossy(&sink).trim()
        ))
    })?;
    // The header names each scenario as it is seen from inside DIR, where
    // the designer runs `ball test`.
    for scenario in ws.scenarios {
        let snap = super::test::snapshot_path(&dir.join(scenario), None);
        let text = crate::files::read_text(&snap, crate::files::MAX_SCENARIO)
            .map_err(|e| UsageError(format!("cannot read `{}`: {e}", snap.display())))?;
        let text: String = text
            .split_inclusive('\n')
            .map(|l| {
                if l.starts_with("input_file:") {
                    format!("input_file: {scenario}\n")
                } else {
                    l.to_string()
                }
            })
            .collect();
        let name = scenario.rsplit('/').next().unwrap_or(scenario);
        write(
            dir,
            &format!("snapshots/scenarios__check@{name}.snap"),
            text.as_bytes(),
        )?;
    }
    writeln!(
        out,
        "wrote a designer's workspace in {shown}:\n  {}\n\
next:\n  cd {shown}\n  ball check --ruleset ruleset.toml\n  ball test scenarios\n  \
ball play --ruleset ruleset.toml",
        ws.summary
    )?;
    Ok(())
}

/// Writes one file of the workspace, atomically, making its folder.
fn write(dir: &Path, rel: &str, bytes: &[u8]) -> Result<(), UsageError> {
    let path = dir.join(rel);
    let fail = |e: String| UsageError(format!("cannot write `{}`: {e}", path.display()));
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| fail(crate::files::io_reason(&e)))?;
    }
    crate::files::write_atomic(&path, bytes).map_err(fail)
}
