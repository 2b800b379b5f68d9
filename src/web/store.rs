//! The server's games on disk: one SQLite file (`ball serve --db`, the
//! project's store, `crate::store`), a row a game in the `games` table
//! (`crate::store::games`): its id, its match record's header, its links
//! (tokens, JSON) and its version; and a row an action in `game_actions`.
//! Header and actions together are the match record (the format `ball
//! play --load` and `ball replay --check` read).
//!
//! What the server acknowledges is committed first: a create is one
//! transaction that counts the games and adds the new one (so concurrent
//! creates cannot pass `--max-games`, and a refused create leaves
//! nothing), and a move is answered only once its change is saved — the
//! actions past the stored ones, the cut of a tail an undo took back,
//! the header if it changed, and the version, in one transaction: a save
//! costs what the action changed, not the game's length. A committed
//! transaction survives a `kill -9` (rollback journal, `synchronous =
//! FULL`).
//!
//! [`Store::import_dir`] reads the directory of `ID.record` and
//! `ID.links` files that servers kept before (`ball serve --import-dir`).

use std::path::Path;
use std::sync::Mutex;

use crate::files;
use crate::kernel::record::Record;
use crate::store::{Schema, games};
use crate::web::seats::Links;

/// At most this many games are read back on start.
pub const MAX_STORED: usize = 10_000;

/// A server's games file: `application_id` "BALs".
pub const SCHEMA: Schema = Schema {
    application_id: 0x4241_4C73,
    what: "a `ball serve` games",
    migrations: &games::MIGRATIONS,
    convert: Some(convert),
};

/// Moves the actions of the games a file before schema version 4 holds
/// whole (in `games.record`) into rows of their own. A record that does
/// not parse is left as it is: loading it says why, as it did before.
fn convert(tx: &rusqlite::Transaction, from: u32) -> Result<(), rusqlite::Error> {
    if from >= games::ACTIONS_APART {
        return Ok(());
    }
    for (id, record) in games::stored_records(tx)? {
        if let Ok((header, actions)) = split(&record) {
            games::store_apart(tx, &id, &header, &actions)?;
        }
    }
    Ok(())
}

/// A match record as the store keeps it: its header (a record without
/// actions, in the form `Record::write` gives) and its actions.
pub fn split(record: &str) -> Result<(String, Vec<String>), String> {
    let mut r = Record::parse(record).map_err(|e| e.to_string())?;
    let actions = std::mem::take(&mut r.actions);
    Ok((r.write(), actions))
}

pub struct Store {
    db: Mutex<crate::store::Store>,
}

/// A game read back from the store.
pub struct Stored {
    pub id: String,
    pub record: String,
    pub links: Links,
    pub version: u64,
}

/// An id the server made: 16 hex digits (and so a safe file name).
pub fn is_id(id: &str) -> bool {
    id.len() == 16 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

impl Store {
    /// The games file at `path`, made if it is missing; an existing file
    /// that is not one (or is newer, or corrupt) is refused untouched.
    pub fn open(path: &Path) -> Result<Store, String> {
        let db = if path.exists() {
            crate::store::Store::open(path, &SCHEMA)?
        } else {
            crate::store::Store::create(path, &SCHEMA)?
        };
        Ok(Store { db: Mutex::new(db) })
    }

    fn db(&self) -> std::sync::MutexGuard<'_, crate::store::Store> {
        self.db.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds a new game, its record's header and actions as it starts, in
    /// one transaction that first counts the games: `Ok(false)` when
    /// there are `max` already (nothing is written then). `open` non-zero
    /// lists it in the lobby with those seats to claim, in the same
    /// transaction.
    #[allow(clippy::too_many_arguments)]
    pub fn add(
        &self,
        id: &str,
        header: &str,
        actions: &[String],
        links: &Links,
        version: u64,
        max: usize,
        open: u8,
    ) -> Result<bool, String> {
        let links = serde_json::to_string(links).map_err(|e| e.to_string())?;
        self.db().write(|tx| {
            let added = games::insert_within(tx, id, header, actions, &links, version, max)?;
            if added && open != 0 {
                games::list(tx, id, open)?;
            }
            Ok(added)
        })
    }

    /// Claims an open seat of a listed game (`seat`, or the first open):
    /// the seat, or `None` when none is open to this claim.
    pub fn claim(&self, id: &str, seat: Option<usize>) -> Result<Option<usize>, String> {
        self.db().write(|tx| games::claim(tx, id, seat))
    }

    /// Whether a game is listed in the lobby, and its open seats.
    pub fn lobby_state(&self, id: &str) -> Result<Option<(bool, u8)>, String> {
        self.db().read(|tx| Ok(games::lobby_state(tx, id)?))
    }

    /// The listed games with a seat to claim, newest first: id, record,
    /// open seats.
    pub fn open_games(&self, limit: usize) -> Result<Vec<(String, String, u8)>, String> {
        self.db().read(|tx| Ok(games::open_games(tx, limit)?))
    }

    /// Saves a game's change after an action and its version, in one
    /// transaction: the number of action rows written or deleted.
    pub fn save_tail(&self, id: &str, tail: &games::Tail, version: u64) -> Result<usize, String> {
        self.db()
            .write(|tx| games::save_tail(tx, id, tail, version))?
            .ok_or_else(|| format!("game {id} is not in the store"))
    }

    /// A game's whole record, as a restart would read it.
    pub fn record(&self, id: &str) -> Result<Option<String>, String> {
        self.db()
            .read(|tx| Ok(games::load(tx, id)?.map(|g| g.record)))
    }

    /// Every game of the store with its record and well-formed links, in
    /// id order; the problems of the others, by id.
    pub fn load_all(&self) -> (Vec<Stored>, Vec<String>) {
        let rows = match self.db().read(|tx| Ok(games::load_all(tx, MAX_STORED)?)) {
            Ok(rows) => rows,
            Err(e) => return (Vec::new(), vec![e]),
        };
        let mut games = Vec::new();
        let mut problems = Vec::new();
        for row in rows {
            match crate::json_line::from_str::<Links>(&row.links) {
                Ok(links) if links.well_formed() && is_id(&row.id) => games.push(Stored {
                    id: row.id,
                    record: row.record,
                    links,
                    version: row.version,
                }),
                Ok(_) => problems.push(format!("{}: malformed id or tokens", row.id)),
                Err(e) => problems.push(format!("{}: malformed links: {e}", row.id)),
            }
        }
        (games, problems)
    }

    /// Adds the games of a directory of `ID.record` and `ID.links` files
    /// (what servers kept before the store), each in a transaction of its
    /// own, keeping their ids and links; a game whose id the store holds
    /// already is left out, and so is every game past `max`. The number
    /// added, and the problems of the files that were not.
    pub fn import_dir(&self, dir: &Path, max: usize) -> Result<(usize, Vec<String>), String> {
        let entries = std::fs::read_dir(dir)
            .map_err(|e| format!("cannot read `{}`: {}", dir.display(), files::io_reason(&e)))?;
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
        let mut added = 0;
        let mut problems = Vec::new();
        for id in ids {
            let path = |ext: &str| dir.join(format!("{id}.{ext}"));
            let links = files::read_text(&path("links"), 4096).and_then(|t| {
                crate::json_line::from_str::<Links>(&t).map_err(|e| format!("malformed links: {e}"))
            });
            let record = files::read_text(&path("record"), files::MAX_RECORD);
            let (links, record) = match (links, record) {
                (Ok(links), Ok(record)) if links.well_formed() => (links, record),
                (Ok(_), Ok(_)) => {
                    problems.push(format!("{id}.links: malformed tokens"));
                    continue;
                }
                (Err(e), _) => {
                    problems.push(format!("{id}.links: {e}"));
                    continue;
                }
                (_, Err(e)) => {
                    problems.push(format!("{id}.record: {e}"));
                    continue;
                }
            };
            let (header, actions) = match split(&record) {
                Ok(parts) => parts,
                Err(e) => {
                    problems.push(format!("{id}.record: {e}"));
                    continue;
                }
            };
            let held = self.db().read(|tx| Ok(games::holds(tx, &id)?))?;
            if held {
                problems.push(format!("{id}: the store holds this game already; left out"));
                continue;
            }
            if self.add(&id, &header, &actions, &links, 0, max, 0)? {
                added += 1;
            } else {
                problems.push(format!(
                    "{id}: the store holds its most games ({max}); left out"
                ));
            }
        }
        Ok((added, problems))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A games file as schema version 3 made it: the whole record in
    /// `games.record`, no `game_actions`.
    fn old_file(path: &Path, games: &[(&str, &str)]) {
        let conn = rusqlite::Connection::open(path).unwrap();
        conn.pragma_update(None, "application_id", SCHEMA.application_id as i64)
            .unwrap();
        conn.execute_batch(
            "CREATE TABLE games (
                id TEXT PRIMARY KEY,
                record TEXT NOT NULL,
                links TEXT NOT NULL,
                saved INTEGER NOT NULL DEFAULT 0
            );
            ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE games ADD COLUMN listed INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE games ADD COLUMN open INTEGER NOT NULL DEFAULT 0;",
        )
        .unwrap();
        let links = serde_json::to_string(&Links::new().unwrap()).unwrap();
        for (id, record) in games {
            conn.execute(
                "INSERT INTO games (id, record, links, saved, version, listed, open)
                 VALUES (?1, ?2, ?3, 5, 7, 1, 2)",
                rusqlite::params![id, record, links],
            )
            .unwrap();
        }
        conn.pragma_update(None, "user_version", 3).unwrap();
    }

    /// A file of schema version 3 opens: each whole record is moved
    /// apart (header, action rows), reads back as it was, and goes on
    /// taking actions; a record that does not parse stays as it was.
    #[test]
    fn a_file_of_the_old_schema_loads_and_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        let mut r = Record::new("gball");
        r.set("ruleset", "gball");
        r.set("seed", "6");
        r.actions = vec!["a1".into(), "a2".into(), "a3".into()];
        let whole = r.write();
        let good = "00000000000000a1";
        let bad = "00000000000000a2";
        old_file(&path, &[(good, &whole), (bad, "not a record")]);
        let store = Store::open(&path).unwrap();
        let (games, problems) = store.load_all();
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].id, good);
        assert_eq!(games[0].record, whole);
        assert_eq!(games[0].version, 7);
        assert_eq!(games[1].record, "not a record");
        let (header, _) = split(&whole).unwrap();
        let (lobby_header, rows): (String, i64) = store
            .db()
            .read(|tx| {
                Ok(tx.query_row(
                    "SELECT record, (SELECT count(*) FROM game_actions WHERE id = ?1)
                     FROM games WHERE id = ?1",
                    [good],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )?)
            })
            .unwrap();
        assert_eq!((lobby_header.as_str(), rows), (header.as_str(), 3));
        // The lobby still reads the game's header.
        let open = store.open_games(10).unwrap();
        assert!(
            open.iter()
                .any(|(id, h, o)| id == good && *h == header && *o == 2)
        );
        // An action after an undo of two.
        let tail = games::Tail {
            header: None,
            from: 1,
            actions: vec!["b2".into()],
        };
        assert_eq!(store.save_tail(good, &tail, 8).unwrap(), 3);
        let mut expect = r.clone();
        expect.actions = vec!["a1".into(), "b2".into()];
        assert_eq!(store.record(good).unwrap().unwrap(), expect.write());
        drop(store);
        // Opened again: nothing more to convert, the same game.
        let store = Store::open(&path).unwrap();
        assert_eq!(store.record(good).unwrap().unwrap(), expect.write());
        assert!(store.save_tail("0000000000000000", &tail, 1).is_err());
    }
}
