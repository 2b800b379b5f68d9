//! Embeds the shipped data (rulesets, cards, scripts, courts, setups and
//! the scenarios `check` runs) in the binary, so that an installed `ball`
//! works wherever it is and whatever happens to its source folder.
//!
//! It writes `$OUT_DIR/embedded.rs`: one `include_bytes!` per file (rustc
//! tracks those, so an edited file rebuilds) and a hash of the whole set
//! (the name of the folder `data` extracts them into).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The shipped folders, under the package root, and the file kinds taken
/// from each.
const DIRS: &[(&str, &[&str])] = &[
    ("rulesets", &["toml"]),
    ("cards", &["lua"]),
    ("scripts", &["lua"]),
    ("courts", &["toml"]),
    ("setups", &["toml"]),
    ("tests/scenarios", &["scn"]),
];

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let mut files = Vec::new();
    for (dir, exts) in DIRS {
        // A new or removed file changes the folder: cargo then reruns this.
        println!("cargo:rerun-if-changed={dir}");
        walk(&root, &root.join(dir), exts, &mut files);
    }
    files.sort();
    // FNV-1a over names and contents: a different set, a different folder.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut out =
        String::from("/// Every shipped file: its path under the data root, its bytes.\n");
    out.push_str("pub static FILES: &[(&str, &[u8])] = &[\n");
    for (rel, path) in &files {
        let bytes = std::fs::read(path).expect("a shipped file is readable");
        for b in rel.bytes().chain([0]).chain(bytes.iter().copied()) {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        writeln!(
            out,
            "    ({rel:?}, include_bytes!({:?})),",
            path.display().to_string()
        )
        .unwrap();
    }
    out.push_str("];\n/// A hash of [`FILES`].\npub const HASH: u64 = ");
    writeln!(out, "{hash:#018x};").unwrap();
    let dest =
        PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it")).join("embedded.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
    println!("cargo:rerun-if-changed=build.rs");
}

/// Adds the files `*.EXT` under `dir` (recursively) as (path under
/// `root` with `/`, absolute path).
fn walk(root: &Path, dir: &Path, exts: &[&str], files: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(root, &path, exts, files);
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| exts.contains(&e))
        {
            let rel = path.strip_prefix(root).expect("under the root");
            let rel: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            files.push((rel.join("/"), path));
        }
    }
}
