//! A table of games for `ball serve` (not wired in yet: the server keeps
//! its file per game in `web::store`; moving it here is the next step).
//! The layout holds what that directory holds — a game `id` (16 hex
//! digits), its match record and its seat links (JSON) — one row a game,
//! so that saving a game after an action is one transaction:
//!
//! ```sql
//! CREATE TABLE games (
//!     id TEXT PRIMARY KEY,      -- web::store::is_id
//!     record TEXT NOT NULL,     -- the match record (kernel::record)
//!     links TEXT NOT NULL,      -- web::seats::Links as JSON
//!     saved INTEGER NOT NULL    -- how many saves: a change counter
//! );
//! ```
//!
//! A server's [`Schema`](super::Schema) lists [`MIGRATION`] among its
//! migrations (a league file does not carry the table).

use rusqlite::{OptionalExtension, Transaction, params};

/// The migration that adds the table.
pub const MIGRATION: &str = "CREATE TABLE games (
    id TEXT PRIMARY KEY,
    record TEXT NOT NULL,
    links TEXT NOT NULL,
    saved INTEGER NOT NULL DEFAULT 0
);";

/// A game as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    pub id: String,
    pub record: String,
    pub links: String,
}

/// Saves a game's record and links (a new game or a changed one).
pub fn save(tx: &Transaction, id: &str, record: &str, links: &str) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO games (id, record, links, saved) VALUES (?1, ?2, ?3, 1)
         ON CONFLICT(id) DO UPDATE SET record = ?2, links = ?3, saved = saved + 1",
        params![id, record, links],
    )?;
    Ok(())
}

/// Saves a game's record only (after an action).
pub fn save_record(tx: &Transaction, id: &str, record: &str) -> rusqlite::Result<bool> {
    let n = tx.execute(
        "UPDATE games SET record = ?2, saved = saved + 1 WHERE id = ?1",
        params![id, record],
    )?;
    Ok(n == 1)
}

pub fn load(tx: &Transaction, id: &str) -> rusqlite::Result<Option<StoredGame>> {
    tx.query_row(
        "SELECT id, record, links FROM games WHERE id = ?1",
        [id],
        |r| {
            Ok(StoredGame {
                id: r.get(0)?,
                record: r.get(1)?,
                links: r.get(2)?,
            })
        },
    )
    .optional()
}

/// Every game, in id order, at most `limit`.
pub fn load_all(tx: &Transaction, limit: usize) -> rusqlite::Result<Vec<StoredGame>> {
    let mut st = tx.prepare("SELECT id, record, links FROM games ORDER BY id LIMIT ?1")?;
    let rows = st.query_map([limit as i64], |r| {
        Ok(StoredGame {
            id: r.get(0)?,
            record: r.get(1)?,
            links: r.get(2)?,
        })
    })?;
    rows.collect()
}

#[cfg(test)]
mod tests {
    use super::super::{Schema, Store};
    use super::*;

    const SERVER: Schema = Schema {
        application_id: 0x6261_6C73,
        what: "a server's games",
        migrations: &[MIGRATION],
    };

    #[test]
    fn save_and_load_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.db");
        let mut s = Store::create(&path, &SERVER).unwrap();
        s.write(|tx| save(tx, "00000000000000aa", "rec", "{}"))
            .unwrap();
        assert!(
            s.write(|tx| save_record(tx, "00000000000000aa", "rec2"))
                .unwrap()
        );
        drop(s);
        let mut s = Store::open(&path, &SERVER).unwrap();
        let all = s.read(|tx| Ok(load_all(tx, 10)?)).unwrap();
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].record, "rec2");
        let one = s.read(|tx| Ok(load(tx, "00000000000000aa")?)).unwrap();
        assert_eq!(one.unwrap().links, "{}");
    }
}
