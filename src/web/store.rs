//! The server's games on disk: in its directory, a game `ID` is
//! `ID.record` (its match record, the format `ball play --load` and
//! `ball replay --check` read) and `ID.links` (its tokens, JSON), each
//! written atomically (a temporary file, then a rename), so that a
//! restart finds every game as it was last saved and no half-written
//! file. The record is written after every action; the links once.

use std::path::{Path, PathBuf};

use crate::files;
use crate::web::seats::Links;

/// At most this many games are read back on start.
pub const MAX_STORED: usize = 10_000;

pub struct Store {
    dir: PathBuf,
}

/// A game read back from the directory.
pub struct Stored {
    pub id: String,
    pub record: String,
    pub links: Links,
}

/// An id the server made: 16 hex digits (and so a safe file name).
pub fn is_id(id: &str) -> bool {
    id.len() == 16 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

impl Store {
    /// The store in `dir`, made if it is missing.
    pub fn open(dir: &Path) -> Result<Store, String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot make the games directory `{}`: {e}", dir.display()))?;
        Ok(Store {
            dir: dir.to_path_buf(),
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self, id: &str, ext: &str) -> PathBuf {
        self.dir.join(format!("{id}.{ext}"))
    }

    pub fn save_links(&self, id: &str, links: &Links) -> Result<(), String> {
        let text = serde_json::to_string(links).map_err(|e| e.to_string())?;
        files::write_atomic(&self.path(id, "links"), text.as_bytes())
    }

    pub fn save_record(&self, id: &str, record: &str) -> Result<(), String> {
        files::write_atomic(&self.path(id, "record"), record.as_bytes())
    }

    /// Every game of the directory with its record and well-formed
    /// links, in id order; the problems of the others, by file.
    pub fn load_all(&self) -> (Vec<Stored>, Vec<String>) {
        let mut games = Vec::new();
        let mut problems = Vec::new();
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(e) => e,
            Err(e) => return (games, vec![format!("{}: {e}", self.dir.display())]),
        };
        let mut ids: Vec<String> = entries
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                let id = name.strip_suffix(".links")?;
                is_id(id).then(|| id.to_string())
            })
            .collect();
        ids.sort();
        ids.truncate(MAX_STORED);
        for id in ids {
            let links = files::read_text(&self.path(&id, "links"), 4096).and_then(|t| {
                serde_json::from_str::<Links>(&t).map_err(|e| format!("malformed links: {e}"))
            });
            let record = files::read_text(&self.path(&id, "record"), files::MAX_RECORD);
            match (links, record) {
                (Ok(links), Ok(record)) if links.well_formed() => {
                    games.push(Stored { id, record, links })
                }
                (Ok(_), Ok(_)) => problems.push(format!("{id}.links: malformed tokens")),
                (Err(e), _) => problems.push(format!("{id}.links: {e}")),
                (_, Err(e)) => problems.push(format!("{id}.record: {e}")),
            }
        }
        (games, problems)
    }
}
