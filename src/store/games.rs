//! The table of games of `ball serve` (`web::store` keeps the server's
//! games here): a game `id` (16 hex digits), its match record, its seat
//! links (JSON) and the version of its line of play, one row a game, so
//! that saving a game after an action is one transaction:
//!
//! ```sql
//! CREATE TABLE games (
//!     id TEXT PRIMARY KEY,      -- web::store::is_id
//!     record TEXT NOT NULL,     -- the match record (kernel::record)
//!     links TEXT NOT NULL,      -- web::seats::Links as JSON
//!     saved INTEGER NOT NULL,   -- how many saves: a change counter
//!     version INTEGER NOT NULL, -- the session's version at the save
//!     listed INTEGER NOT NULL,  -- 1: shown in the lobby (its creator chose)
//!     open INTEGER NOT NULL     -- bit k: seat k waits for a player to claim it
//! );
//! ```
//!
//! A seat is *open* while it is a person's seat of a listed game whose
//! link nobody has been given: its creator keeps the first person's seat
//! and the others wait in the lobby. Claiming clears the seat's bit in one
//! transaction ([`claim`]), so two people asking at once cannot both get
//! it, and a restart keeps who has claimed what.
//!
//! A server's [`Schema`](super::Schema) lists [`MIGRATIONS`] among its
//! migrations (a league file does not carry the table).

use rusqlite::{OptionalExtension, Transaction, params};

/// The migration that adds the table.
pub const MIGRATION: &str = "CREATE TABLE games (
    id TEXT PRIMARY KEY,
    record TEXT NOT NULL,
    links TEXT NOT NULL,
    saved INTEGER NOT NULL DEFAULT 0
);";

/// The migration that keeps each game's version (issue 26: a reloaded
/// game's versions go on from it, so a request made before a restart is
/// stale after it).
pub const MIGRATION_VERSION: &str =
    "ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;";

/// The migration that keeps the lobby (issue 26): whether a game is
/// listed and which of its seats are still to be claimed.
pub const MIGRATION_LOBBY: &str = "ALTER TABLE games ADD COLUMN listed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN open INTEGER NOT NULL DEFAULT 0;";

/// The table's migrations, in order.
pub const MIGRATIONS: [&str; 3] = [MIGRATION, MIGRATION_VERSION, MIGRATION_LOBBY];

/// A game as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    pub id: String,
    pub record: String,
    pub links: String,
    pub version: u64,
}

/// Versions are kept as SQLite integers (signed 64 bits).
fn to_sql(version: u64) -> i64 {
    i64::try_from(version).unwrap_or(i64::MAX)
}

/// Adds a new game unless the table holds `max` games already:
/// `Ok(false)` then, and nothing is written. Counting and adding in the
/// caller's one transaction (`BEGIN IMMEDIATE`) is what keeps concurrent
/// creates within the limit.
pub fn insert_within(
    tx: &Transaction,
    id: &str,
    record: &str,
    links: &str,
    version: u64,
    max: usize,
) -> rusqlite::Result<bool> {
    let n: i64 = tx.query_row("SELECT count(*) FROM games", [], |r| r.get(0))?;
    if usize::try_from(n).unwrap_or(usize::MAX) >= max {
        return Ok(false);
    }
    tx.execute(
        "INSERT INTO games (id, record, links, saved, version) VALUES (?1, ?2, ?3, 1, ?4)",
        params![id, record, links, to_sql(version)],
    )?;
    Ok(true)
}

/// Saves a game's record and links (a new game or a changed one).
pub fn save(
    tx: &Transaction,
    id: &str,
    record: &str,
    links: &str,
    version: u64,
) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO games (id, record, links, saved, version) VALUES (?1, ?2, ?3, 1, ?4)
         ON CONFLICT(id) DO UPDATE SET record = ?2, links = ?3, saved = saved + 1, version = ?4",
        params![id, record, links, to_sql(version)],
    )?;
    Ok(())
}

/// Saves a game's record and version only (after an action).
pub fn save_record(
    tx: &Transaction,
    id: &str,
    record: &str,
    version: u64,
) -> rusqlite::Result<bool> {
    let n = tx.execute(
        "UPDATE games SET record = ?2, saved = saved + 1, version = ?3 WHERE id = ?1",
        params![id, record, to_sql(version)],
    )?;
    Ok(n == 1)
}

fn row(r: &rusqlite::Row) -> rusqlite::Result<StoredGame> {
    Ok(StoredGame {
        id: r.get(0)?,
        record: r.get(1)?,
        links: r.get(2)?,
        version: u64::try_from(r.get::<_, i64>(3)?).unwrap_or(0),
    })
}

pub fn load(tx: &Transaction, id: &str) -> rusqlite::Result<Option<StoredGame>> {
    tx.query_row(
        "SELECT id, record, links, version FROM games WHERE id = ?1",
        [id],
        row,
    )
    .optional()
}

/// Every game, in id order, at most `limit`.
pub fn load_all(tx: &Transaction, limit: usize) -> rusqlite::Result<Vec<StoredGame>> {
    let mut st = tx.prepare("SELECT id, record, links, version FROM games ORDER BY id LIMIT ?1")?;
    let rows = st.query_map([i64::try_from(limit).unwrap_or(i64::MAX)], row)?;
    rows.collect()
}

/// Lists a game in the lobby with `open` (bit k: seat k is to be
/// claimed); in the creating transaction, so that a game is never seen
/// half made.
pub fn list(tx: &Transaction, id: &str, open: u8) -> rusqlite::Result<()> {
    tx.execute(
        "UPDATE games SET listed = 1, open = ?2 WHERE id = ?1",
        params![id, i64::from(open)],
    )?;
    Ok(())
}

/// What the lobby knows of a game: listed or not, the seats still open.
pub fn lobby_state(tx: &Transaction, id: &str) -> rusqlite::Result<Option<(bool, u8)>> {
    tx.query_row("SELECT listed, open FROM games WHERE id = ?1", [id], |r| {
        Ok((r.get::<_, i64>(0)? != 0, (r.get::<_, i64>(1)? & 0xff) as u8))
    })
    .optional()
}

/// Claims an open seat of a listed game — `seat`, or the first open one —
/// and returns it; `None` when there is none (taken meanwhile, never
/// listed, no such game). Reading and clearing the bit in the caller's
/// one transaction (`BEGIN IMMEDIATE`) is what makes a claim atomic.
pub fn claim(tx: &Transaction, id: &str, seat: Option<usize>) -> rusqlite::Result<Option<usize>> {
    let Some((true, open)) = lobby_state(tx, id)? else {
        return Ok(None);
    };
    let pick = match seat {
        Some(k) if k < 8 && open & (1 << k) != 0 => k,
        Some(_) => return Ok(None),
        None => match (0..8).find(|k| open & (1 << k) != 0) {
            Some(k) => k,
            None => return Ok(None),
        },
    };
    let n = tx.execute(
        "UPDATE games SET open = open & ~(1 << ?2) WHERE id = ?1 AND listed = 1 AND (open & (1 << ?2)) != 0",
        params![id, pick as i64],
    )?;
    Ok((n == 1).then_some(pick))
}

/// The listed games with a seat still open, newest first, at most
/// `limit`: id, record and open seats.
pub fn open_games(tx: &Transaction, limit: usize) -> rusqlite::Result<Vec<(String, String, u8)>> {
    let mut st = tx.prepare(
        "SELECT id, record, open FROM games WHERE listed = 1 AND open != 0 ORDER BY rowid DESC LIMIT ?1",
    )?;
    let rows = st.query_map([i64::try_from(limit).unwrap_or(i64::MAX)], |r| {
        Ok((r.get(0)?, r.get(1)?, (r.get::<_, i64>(2)? & 0xff) as u8))
    })?;
    rows.collect()
}

/// How many games the table holds.
pub fn count(tx: &Transaction) -> rusqlite::Result<usize> {
    let n: i64 = tx.query_row("SELECT count(*) FROM games", [], |r| r.get(0))?;
    Ok(usize::try_from(n).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::super::{Schema, Store};
    use super::*;

    const SERVER: Schema = Schema {
        application_id: 0x6261_6C73,
        what: "a server's games",
        migrations: &MIGRATIONS,
    };

    #[test]
    fn save_and_load_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.db");
        let mut s = Store::create(&path, &SERVER).unwrap();
        s.write(|tx| save(tx, "00000000000000aa", "rec", "{}", 3))
            .unwrap();
        assert!(
            s.write(|tx| save_record(tx, "00000000000000aa", "rec2", 4))
                .unwrap()
        );
        drop(s);
        let mut s = Store::open(&path, &SERVER).unwrap();
        let all = s.read(|tx| Ok(load_all(tx, 10)?)).unwrap();
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].record, "rec2");
        assert_eq!(all[0].version, 4);
        let one = s.read(|tx| Ok(load(tx, "00000000000000aa")?)).unwrap();
        assert_eq!(one.unwrap().links, "{}");
    }

    #[test]
    fn a_full_table_takes_no_more() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.db");
        let mut s = Store::create(&path, &SERVER).unwrap();
        assert!(
            s.write(|tx| insert_within(tx, "a", "r", "{}", 0, 1))
                .unwrap()
        );
        assert!(
            !s.write(|tx| insert_within(tx, "b", "r", "{}", 0, 1))
                .unwrap()
        );
        assert_eq!(s.read(|tx| Ok(count(tx)?)).unwrap(), 1);
        assert!(s.read(|tx| Ok(load(tx, "b")?)).unwrap().is_none());
    }

    #[test]
    fn an_open_seat_is_claimed_once_and_stays_claimed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.db");
        let mut s = Store::create(&path, &SERVER).unwrap();
        s.write(|tx| {
            insert_within(tx, "a", "r", "{}", 0, 9)?;
            insert_within(tx, "b", "r", "{}", 0, 9)?;
            list(tx, "a", 0b10)
        })
        .unwrap();
        let open = s.read(|tx| Ok(open_games(tx, 10)?)).unwrap();
        assert_eq!(open, vec![("a".to_string(), "r".to_string(), 0b10)]);
        assert_eq!(
            s.write(|tx| claim(tx, "b", None)).unwrap(),
            None,
            "not listed"
        );
        assert_eq!(
            s.write(|tx| claim(tx, "a", Some(0))).unwrap(),
            None,
            "not open"
        );
        assert_eq!(s.write(|tx| claim(tx, "a", None)).unwrap(), Some(1));
        assert_eq!(
            s.write(|tx| claim(tx, "a", Some(1))).unwrap(),
            None,
            "taken"
        );
        drop(s);
        let mut s = Store::open(&path, &SERVER).unwrap();
        assert!(s.read(|tx| Ok(open_games(tx, 10)?)).unwrap().is_empty());
        assert_eq!(
            s.read(|tx| Ok(lobby_state(tx, "a")?)).unwrap(),
            Some((true, 0))
        );
    }
}
