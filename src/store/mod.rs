//! The project's one store: an embedded SQLite file (issue 25). Names no
//! game: a user of the store brings its [`Schema`] (an application id, a
//! name for messages, and its migrations), and gets a file that
//!
//! - is refused in one line, and left byte for byte as it was, when it is
//!   not an SQLite file, is another application's (its `application_id`),
//!   is of a newer schema than this binary knows (`user_version`), or is
//!   corrupt (`PRAGMA quick_check`) — all checked before anything is
//!   written: the first two from the file's 100-byte header alone;
//! - is migrated from an older schema version in one transaction;
//! - is changed only in transactions ([`Store::write`]: `BEGIN
//!   IMMEDIATE`, so two processes never interleave half-changes; the
//!   other one waits up to [`BUSY_TIMEOUT`] and is then refused with a
//!   clear line), with SQLite's rollback journal and `synchronous = FULL`:
//!   a `kill -9` at any moment leaves the last committed state.
//!
//! [`games`] is the table layout and API a server's games can use (the
//! records and seat links that `web::store` keeps as files today).
//!
//! **Boundary:** depends on rusqlite and `crate::files` only.

pub mod games;

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, Transaction, TransactionBehavior};

/// How long a write waits for another process's transaction.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(60);

/// What a store holds: the value in the header's `application_id`, a
/// name for messages (`a league`), and the migrations: `migrations[i]`
/// takes the schema from version `i` to `i + 1`, so the current version
/// is their count.
#[derive(Clone, Copy, Debug)]
pub struct Schema {
    pub application_id: u32,
    pub what: &'static str,
    pub migrations: &'static [&'static str],
    /// Work no SQL statement can do (rows rewritten by parsing them),
    /// run after the migrations in their one transaction with the version
    /// the file had: a kill never leaves a file migrated but not
    /// converted. Not run on a file being made (it holds nothing yet).
    pub convert: Option<Convert>,
}

/// See [`Schema::convert`].
pub type Convert = fn(&Transaction, u32) -> Result<(), rusqlite::Error>;

impl Schema {
    pub fn version(&self) -> u32 {
        self.migrations.len() as u32
    }
}

/// An open store file.
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Store({})", self.path.display())
    }
}

/// The 100-byte header of an SQLite file: `application_id` at 68 and
/// `user_version` at 60, big-endian (the SQLite file format, 1.3).
const MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// `-` reads standard input elsewhere; a store is a database opened in
/// place, so it is refused rather than made as a file named `-`.
fn not_stdin(path: &Path) -> Result<(), String> {
    if path.as_os_str() == "-" {
        return Err(
            "`-`: a store is a database file opened in place, not standard input: name its file"
                .into(),
        );
    }
    Ok(())
}

fn shown(path: &Path) -> String {
    format!("`{}`", path.display())
}

fn sql_error(path: &Path, e: rusqlite::Error) -> String {
    match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::DatabaseBusy) | Some(rusqlite::ErrorCode::DatabaseLocked) => {
            format!(
                "{}: another process is using it and did not let go within {} s; try again when it is done",
                shown(path),
                BUSY_TIMEOUT.as_secs()
            )
        }
        Some(rusqlite::ErrorCode::DatabaseCorrupt) | Some(rusqlite::ErrorCode::NotADatabase) => {
            format!("{}: corrupt database file: {e}; left as it is", shown(path))
        }
        _ => format!("{}: {e}", shown(path)),
    }
}

/// Reads the header and says why the file is not one of `schema`'s, or
/// is newer; `Ok(version)` otherwise. Reads nothing but the header.
pub fn check_header(path: &Path, schema: &Schema) -> Result<u32, String> {
    use std::io::Read;
    let name = shown(path);
    crate::files::regular_file(path).map_err(|e| format!("{name}: {e}"))?;
    let mut f = std::fs::File::open(path).map_err(|e| format!("{name}: cannot open: {e}"))?;
    let mut head = Vec::with_capacity(100);
    f.by_ref()
        .take(100)
        .read_to_end(&mut head)
        .map_err(|e| format!("{name}: cannot read: {e}"))?;
    if head.len() < 100 || &head[..16] != MAGIC {
        return Err(format!(
            "{name} is not {} file (not an SQLite database); left as it is",
            schema.what
        ));
    }
    let word = |at: usize| u32::from_be_bytes([head[at], head[at + 1], head[at + 2], head[at + 3]]);
    let (app, version) = (word(68), word(60));
    if app != schema.application_id {
        return Err(format!(
            "{name} is an SQLite database but not {} file (application_id {app:#x}, expected {:#x}); left as it is",
            schema.what, schema.application_id
        ));
    }
    if version > schema.version() {
        return Err(format!(
            "{name} has schema version {version}, newer than this binary's {}: use a newer `ball`; left as it is",
            schema.version()
        ));
    }
    Ok(version)
}

impl Store {
    /// Makes a new store file at `path`; refuses an existing one.
    pub fn create(path: &Path, schema: &Schema) -> Result<Store, String> {
        Store::create_with(path, schema, |_| Ok(()))
    }

    /// Makes a new store file at `path` (refusing an existing one) and
    /// fills it with `init`, in the same transaction as its schema. The
    /// file is made whole under a temporary name beside `path`, then
    /// linked to `path` (which fails if a file took the name meanwhile,
    /// so two creators never share one): a killed creation leaves no
    /// file at `path`, only a temporary one.
    pub fn create_with(
        path: &Path,
        schema: &Schema,
        init: impl FnOnce(&Transaction) -> Result<(), rusqlite::Error>,
    ) -> Result<Store, String> {
        not_stdin(path)?;
        let name = shown(path);
        let exists = || format!("{name} exists already: a new store is never written over a file");
        if path.exists() {
            return Err(exists());
        }
        let tmp = temporary_beside(path);
        let made = (|| {
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&tmp)
                .map_err(|e| format!("{name}: cannot create: {}", crate::files::io_reason(&e)))?;
            let mut store = Store::connect(&tmp)?;
            store.write(|tx| {
                tx.pragma_update(None, "application_id", schema.application_id as i64)?;
                for m in schema.migrations {
                    tx.execute_batch(m)?;
                }
                tx.pragma_update(None, "user_version", schema.version() as i64)?;
                init(tx)
            })?;
            // Closed before it is linked: the rollback journal is gone.
            drop(store);
            std::fs::hard_link(&tmp, path).map_err(|e| match e.kind() {
                std::io::ErrorKind::AlreadyExists => exists(),
                _ => format!("{name}: cannot create: {}", crate::files::io_reason(&e)),
            })
        })();
        let _ = std::fs::remove_file(&tmp);
        made?;
        Store::connect(path)
    }

    /// Opens an existing store file of `schema`, migrating an older
    /// version. Refuses (and leaves untouched) a file that is not one, a
    /// newer one and a corrupt one.
    pub fn open(path: &Path, schema: &Schema) -> Result<Store, String> {
        not_stdin(path)?;
        let version = check_header(path, schema)?;
        let mut store = Store::connect(path)?;
        let check: String = store
            .conn
            .query_row("PRAGMA quick_check", [], |r| r.get(0))
            .map_err(|e| sql_error(path, e))?;
        if check != "ok" {
            return Err(format!(
                "{}: corrupt database file ({}); left as it is",
                shown(path),
                check.lines().next().unwrap_or("")
            ));
        }
        if version < schema.version() {
            store.write(|tx| {
                // Read again inside the transaction: another process may
                // have migrated meanwhile.
                let now: u32 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
                for m in &schema.migrations[now as usize..] {
                    tx.execute_batch(m)?;
                }
                if let Some(convert) = schema.convert
                    && now < schema.version()
                {
                    convert(tx, now)?;
                }
                tx.pragma_update(None, "user_version", schema.version() as i64)?;
                Ok(())
            })?;
        }
        Ok(store)
    }

    fn connect(path: &Path) -> Result<Store, String> {
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| sql_error(path, e))?;
        conn.busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| sql_error(path, e))?;
        // The rollback journal (no side files to lose) and a sync at
        // every commit: a committed transaction survives a kill or a
        // power cut.
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(|e| sql_error(path, e))?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(|e| sql_error(path, e))?;
        Ok(Store {
            conn,
            path: path.to_path_buf(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `f` in a write transaction (`BEGIN IMMEDIATE`: the write lock
    /// is taken first, so a second writer waits here, not half-way):
    /// committed when `f` returns `Ok`, rolled back otherwise.
    pub fn write<T>(
        &mut self,
        f: impl FnOnce(&Transaction) -> Result<T, rusqlite::Error>,
    ) -> Result<T, String> {
        self.try_write(|tx| f(tx).map_err(Failure::Sql))
    }

    /// As [`Store::write`], for work that can also fail with its own
    /// message (which is passed on as it is).
    pub fn try_write<T>(
        &mut self,
        f: impl FnOnce(&Transaction) -> Result<T, Failure>,
    ) -> Result<T, String> {
        self.transaction(TransactionBehavior::Immediate, f)
    }

    /// Runs `f` on one consistent snapshot (a read transaction).
    pub fn read<T>(
        &mut self,
        f: impl FnOnce(&Transaction) -> Result<T, Failure>,
    ) -> Result<T, String> {
        self.transaction(TransactionBehavior::Deferred, f)
    }

    /// Runs `f` in one transaction of `behavior` and commits it.
    fn transaction<T>(
        &mut self,
        behavior: TransactionBehavior,
        f: impl FnOnce(&Transaction) -> Result<T, Failure>,
    ) -> Result<T, String> {
        let path = self.path.clone();
        let tx = self
            .conn
            .transaction_with_behavior(behavior)
            .map_err(|e| sql_error(&path, e))?;
        let value = f(&tx).map_err(|e| e.message(&path))?;
        tx.commit().map_err(|e| sql_error(&path, e))?;
        Ok(value)
    }
}

/// A new name beside `path` for a file being made (`.NAME.tmp-PID`).
fn temporary_beside(path: &Path) -> PathBuf {
    let file = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{file}.tmp-{}", std::process::id()))
}

/// Why a transaction's work failed: SQLite, or the caller's own reason.
#[derive(Debug)]
pub enum Failure {
    Sql(rusqlite::Error),
    Refused(String),
}

impl From<rusqlite::Error> for Failure {
    fn from(e: rusqlite::Error) -> Failure {
        Failure::Sql(e)
    }
}

impl Failure {
    fn message(self, path: &Path) -> String {
        match self {
            Failure::Sql(e) => sql_error(path, e),
            Failure::Refused(m) => format!("{}: {m}", shown(path)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEST: Schema = Schema {
        application_id: 0x7465_7374,
        what: "a test store",
        migrations: &["CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT NOT NULL);"],
        convert: None,
    };
    const TEST_V2: Schema = Schema {
        application_id: 0x7465_7374,
        what: "a test store",
        migrations: &[
            "CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT NOT NULL);",
            "ALTER TABLE t ADD COLUMN w INTEGER NOT NULL DEFAULT 0;",
        ],
        convert: None,
    };

    #[test]
    fn create_open_migrate_and_refuse() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.db");
        let mut s = Store::create(&path, &TEST).unwrap();
        s.write(|tx| tx.execute("INSERT INTO t VALUES (1, 'a')", []))
            .unwrap();
        drop(s);
        assert!(Store::create(&path, &TEST).unwrap_err().contains("exists"));
        // An older file is migrated.
        let mut s = Store::open(&path, &TEST_V2).unwrap();
        let w: i64 = s
            .read(|tx| Ok(tx.query_row("SELECT w FROM t WHERE k = 1", [], |r| r.get(0))?))
            .unwrap();
        assert_eq!(w, 0);
        drop(s);
        // Now newer than TEST knows: refused, untouched.
        let before = std::fs::read(&path).unwrap();
        let e = Store::open(&path, &TEST).err().unwrap();
        assert!(e.contains("newer"), "{e}");
        assert_eq!(std::fs::read(&path).unwrap(), before);
        // Another application's id.
        let other = Schema {
            application_id: 1,
            ..TEST
        };
        let e = Store::open(&path, &other).err().unwrap();
        assert!(e.contains("not a test store"), "{e}");
        // Not SQLite at all.
        let text = dir.path().join("t.txt");
        std::fs::write(&text, "hello").unwrap();
        assert!(
            Store::open(&text, &TEST)
                .err()
                .unwrap()
                .contains("not an SQLite")
        );
    }

    /// A creation that fails leaves nothing behind: no file at the path
    /// (a later `create` works) and no temporary file beside it.
    #[test]
    fn a_failed_creation_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let e = Store::create_with(&path, &TEST, |tx| tx.execute_batch("NOT SQL")).err();
        assert!(e.is_some());
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert!(left.is_empty(), "{left:?}");
        Store::create(&path, &TEST).unwrap();
    }

    #[test]
    fn a_failed_write_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.db");
        let mut s = Store::create(&path, &TEST).unwrap();
        let r: Result<(), String> = s.try_write(|tx| {
            tx.execute("INSERT INTO t VALUES (1, 'a')", [])?;
            Err(Failure::Refused("no".into()))
        });
        assert!(r.unwrap_err().ends_with("s.db`: no"));
        let n: i64 = s
            .read(|tx| Ok(tx.query_row("SELECT count(*) FROM t", [], |r| r.get(0))?))
            .unwrap();
        assert_eq!(n, 0);
    }
}
