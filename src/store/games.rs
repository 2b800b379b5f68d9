//! The table of games of `ball serve` (`web::store` keeps the server's
//! games here): a game `id` (16 hex digits), its match record, its seat
//! links (JSON) and the version of its line of play, so that saving a
//! game after an action is one transaction:
//!
//! ```sql
//! CREATE TABLE games (
//!     id TEXT PRIMARY KEY,      -- web::store::is_id
//!     record TEXT NOT NULL,     -- the match record's header (kernel::record)
//!     links TEXT NOT NULL,      -- web::seats::Links as JSON
//!     saved INTEGER NOT NULL,   -- how many saves: a change counter
//!     version INTEGER NOT NULL, -- the session's version at the save
//!     listed INTEGER NOT NULL,  -- 1: shown in the lobby (its creator chose)
//!     open INTEGER NOT NULL     -- bit k: seat k waits for a player to claim it
//! );
//! CREATE TABLE game_actions (
//!     id TEXT NOT NULL,         -- the game's
//!     n INTEGER NOT NULL,       -- 0 for its first action
//!     action TEXT NOT NULL,     -- one line of the record's actions
//!     PRIMARY KEY (id, n)
//! ) WITHOUT ROWID;
//! ```
//!
//! The actions are rows of their own (schema version 4) so that a save
//! after an action writes that action, not the whole record again: a
//! long game no longer costs more to save with every action. The whole
//! record is the header followed by the actions in order of `n`
//! ([`load`]); a `record` written before version 4 held the actions too,
//! and `web::store` moves them into rows in the migrating transaction.
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

/// The migration that keeps each action in a row of its own, so that a
/// save costs what the action changed, not the game's length.
pub const MIGRATION_ACTIONS: &str = "CREATE TABLE game_actions (
    id TEXT NOT NULL,
    n INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (id, n)
) WITHOUT ROWID;";

/// The table's migrations, in order.
pub const MIGRATIONS: [&str; 4] = [
    MIGRATION,
    MIGRATION_VERSION,
    MIGRATION_LOBBY,
    MIGRATION_ACTIONS,
];

/// The schema version that keeps the actions apart from the header.
pub const ACTIONS_APART: u32 = 4;

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

/// Adds a new game, its record's header and its actions, unless the
/// table holds `max` games already: `Ok(false)` then, and nothing is
/// written. Counting and adding in the caller's one transaction (`BEGIN
/// IMMEDIATE`) is what keeps concurrent creates within the limit.
pub fn insert_within(
    tx: &Transaction,
    id: &str,
    header: &str,
    actions: &[String],
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
        params![id, header, links, to_sql(version)],
    )?;
    put_actions(tx, id, 0, actions)?;
    Ok(true)
}

/// Replaces a game's actions from the `from`-th on with `actions`.
fn put_actions(
    tx: &Transaction,
    id: &str,
    from: usize,
    actions: &[String],
) -> rusqlite::Result<usize> {
    let from = i64::try_from(from).unwrap_or(i64::MAX);
    let mut changed = tx.execute(
        "DELETE FROM game_actions WHERE id = ?1 AND n >= ?2",
        params![id, from],
    )?;
    let mut st =
        tx.prepare_cached("INSERT INTO game_actions (id, n, action) VALUES (?1, ?2, ?3)")?;
    for (n, a) in (from..).zip(actions) {
        changed += st.execute(params![id, n, a])?;
    }
    Ok(changed)
}

/// What a save after an action changes: the header when it is not the
/// stored one, and the actions from the `from`-th on (those past the
/// stored line: one after an action; none after an undo, which cuts the
/// stored tail off).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tail {
    pub header: Option<String>,
    pub from: usize,
    pub actions: Vec<String>,
}

/// Saves a game's change after an action (`tail`) and its version: the
/// number of action rows written or deleted, `None` when the table has
/// no such game (nothing is written then).
pub fn save_tail(
    tx: &Transaction,
    id: &str,
    tail: &Tail,
    version: u64,
) -> rusqlite::Result<Option<usize>> {
    let n = match &tail.header {
        Some(h) => tx.execute(
            "UPDATE games SET record = ?2, saved = saved + 1, version = ?3 WHERE id = ?1",
            params![id, h, to_sql(version)],
        )?,
        None => tx.execute(
            "UPDATE games SET saved = saved + 1, version = ?2 WHERE id = ?1",
            params![id, to_sql(version)],
        )?,
    };
    if n != 1 {
        return Ok(None);
    }
    put_actions(tx, id, tail.from, &tail.actions).map(Some)
}

/// A game's whole record: its stored header, then its action rows.
fn whole_record(tx: &Transaction, id: &str, header: String) -> rusqlite::Result<String> {
    let mut record = header;
    let mut st = tx.prepare_cached("SELECT action FROM game_actions WHERE id = ?1 ORDER BY n")?;
    let mut rows = st.query([id])?;
    let mut first = true;
    while let Some(r) = rows.next()? {
        if first && !record.is_empty() && !record.ends_with('\n') {
            record.push('\n');
        }
        first = false;
        record.push_str(r.get_ref(0)?.as_str()?);
        record.push('\n');
    }
    Ok(record)
}

fn row(r: &rusqlite::Row) -> rusqlite::Result<StoredGame> {
    Ok(StoredGame {
        id: r.get(0)?,
        record: r.get(1)?,
        links: r.get(2)?,
        version: u64::try_from(r.get::<_, i64>(3)?).unwrap_or(0),
    })
}

/// A game with its whole record (header and actions).
pub fn load(tx: &Transaction, id: &str) -> rusqlite::Result<Option<StoredGame>> {
    let Some(mut g) = tx
        .query_row(
            "SELECT id, record, links, version FROM games WHERE id = ?1",
            [id],
            row,
        )
        .optional()?
    else {
        return Ok(None);
    };
    g.record = whole_record(tx, &g.id, std::mem::take(&mut g.record))?;
    Ok(Some(g))
}

/// Whether the table holds a game of this id.
pub fn holds(tx: &Transaction, id: &str) -> rusqlite::Result<bool> {
    tx.query_row("SELECT 1 FROM games WHERE id = ?1", [id], |_| Ok(()))
        .optional()
        .map(|r| r.is_some())
}

/// Every game with its whole record, in id order, at most `limit`.
pub fn load_all(tx: &Transaction, limit: usize) -> rusqlite::Result<Vec<StoredGame>> {
    let mut st = tx.prepare("SELECT id, record, links, version FROM games ORDER BY id LIMIT ?1")?;
    let rows = st.query_map([i64::try_from(limit).unwrap_or(i64::MAX)], row)?;
    let mut games = rows.collect::<rusqlite::Result<Vec<_>>>()?;
    for g in &mut games {
        g.record = whole_record(tx, &g.id, std::mem::take(&mut g.record))?;
    }
    Ok(games)
}

/// Every game's stored `record` as it is (a header, or before schema
/// version 4 a whole record), for a conversion.
pub fn stored_records(tx: &Transaction) -> rusqlite::Result<Vec<(String, String)>> {
    let mut st = tx.prepare("SELECT id, record FROM games ORDER BY id")?;
    let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    rows.collect()
}

/// Moves a game stored whole (before schema version 4) apart: `header`
/// in `record`, `actions` in rows.
pub fn store_apart(
    tx: &Transaction,
    id: &str,
    header: &str,
    actions: &[String],
) -> rusqlite::Result<()> {
    tx.execute(
        "UPDATE games SET record = ?2 WHERE id = ?1",
        params![id, header],
    )?;
    put_actions(tx, id, 0, actions)?;
    Ok(())
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
/// `limit`: id, record's header (what the lobby shows) and open seats.
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
        convert: None,
    };

    fn rows(s: &mut Store, id: &str) -> Vec<(i64, String)> {
        s.read(|tx| {
            let mut st =
                tx.prepare("SELECT n, action FROM game_actions WHERE id = ?1 ORDER BY n")?;
            let r = st.query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))?;
            Ok(r.collect::<rusqlite::Result<Vec<_>>>()?)
        })
        .unwrap()
    }

    /// A save writes the header only when asked, the new actions only,
    /// and cuts a tail an undo took back; loading joins them again.
    #[test]
    fn save_and_load_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.db");
        let mut s = Store::create(&path, &SERVER).unwrap();
        let id = "00000000000000aa";
        let acts = |v: &[&str]| v.iter().map(|a| a.to_string()).collect::<Vec<_>>();
        s.write(|tx| insert_within(tx, id, "h\nactions:\n", &acts(&["a"]), "{}", 3, 9))
            .unwrap();
        let tail = Tail {
            header: None,
            from: 1,
            actions: acts(&["b"]),
        };
        assert_eq!(s.write(|tx| save_tail(tx, id, &tail, 4)).unwrap(), Some(1));
        // An undo of `b`, then `c` and `d` in its place, a new header.
        let undo = Tail {
            header: None,
            from: 1,
            actions: vec![],
        };
        assert_eq!(s.write(|tx| save_tail(tx, id, &undo, 5)).unwrap(), Some(1));
        let tail = Tail {
            header: Some("h2\nactions:\n".into()),
            from: 1,
            actions: acts(&["c", "d"]),
        };
        assert_eq!(s.write(|tx| save_tail(tx, id, &tail, 6)).unwrap(), Some(2));
        assert_eq!(s.write(|tx| save_tail(tx, "none", &tail, 6)).unwrap(), None);
        assert_eq!(
            rows(&mut s, id),
            vec![(0, "a".into()), (1, "c".into()), (2, "d".into())]
        );
        drop(s);
        let mut s = Store::open(&path, &SERVER).unwrap();
        let all = s.read(|tx| Ok(load_all(tx, 10)?)).unwrap();
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].record, "h2\nactions:\na\nc\nd\n");
        assert_eq!(all[0].version, 6);
        let one = s.read(|tx| Ok(load(tx, id)?)).unwrap().unwrap();
        assert_eq!(one, all[0]);
        assert!(s.read(|tx| Ok(holds(tx, id)?)).unwrap());
        assert!(s.read(|tx| Ok(load(tx, "none")?)).unwrap().is_none());
    }

    #[test]
    fn a_full_table_takes_no_more() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.db");
        let mut s = Store::create(&path, &SERVER).unwrap();
        assert!(
            s.write(|tx| insert_within(tx, "a", "r", &[], "{}", 0, 1))
                .unwrap()
        );
        assert!(
            !s.write(|tx| insert_within(tx, "b", "r", &[], "{}", 0, 1))
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
            insert_within(tx, "a", "r", &[], "{}", 0, 9)?;
            insert_within(tx, "b", "r", &[], "{}", 0, 9)?;
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
