//! Reading and writing the files a user gives and keeps, safely.
//!
//! Every input is read with a size limit, so `/dev/zero`, a 100 MB
//! "position" or a runaway pipe fails with one line instead of eating
//! memory; a path that must be a regular file and is a FIFO, a device or
//! a directory is refused before it is opened (opening a FIFO blocks
//! until someone writes to it). Every output a user keeps is written to a
//! temporary file in the same directory, flushed to disk and renamed over
//! the old one, so a write that fails half way (disk full, a file-size
//! limit, a kill) leaves the previous file whole.
//!
//! **Boundary:** no game, no clap: messages name the path and the limit,
//! and callers add what the file was for.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// A position JSON: a real one is about 2 KB.
pub const MAX_POSITION: u64 = 1 << 20;
/// A ruleset TOML file, and each script it names.
pub const MAX_RULESET: u64 = 1 << 20;
/// A Lua script (card, variant, EP table).
pub const MAX_SCRIPT: u64 = 1 << 20;
/// A scenario file or a stored snapshot.
pub const MAX_SCENARIO: u64 = 4 << 20;
/// A match record (a game of 20,000 actions is about 500 KB), or one line
/// of a `ball sim --out` file.
pub const MAX_RECORD: u64 = 16 << 20;
/// A whole `ball sim --out` file read back by `ball replay FILE.jsonl:N`.
pub const MAX_JSONL: u64 = 1 << 30;

/// How a size limit reads in messages: `1 MiB`, `16 MiB`.
pub fn show_size(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 && bytes.is_multiple_of(1 << 10) {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} bytes")
    }
}

/// Refuses anything but a regular file (after symlinks): a FIFO would
/// block the open, a device (`/dev/zero`) never ends, a directory is not
/// text. The message names what the path is.
pub fn regular_file(path: &Path) -> Result<(), String> {
    let meta = std::fs::metadata(path).map_err(|e| io_reason(&e))?;
    if meta.is_file() {
        return Ok(());
    }
    let what = if meta.is_dir() {
        "a directory"
    } else {
        kind_of_special(&meta)
    };
    Err(format!("{what}, not a regular file"))
}

#[cfg(unix)]
fn kind_of_special(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn kind_of_special(_: &std::fs::Metadata) -> &'static str {
    "a special file"
}

/// Reads a regular file as UTF-8 text of at most `limit` bytes. The error
/// is one line without the path (the caller names the file).
pub fn read_text(path: &Path, limit: u64) -> Result<String, String> {
    regular_file(path)?;
    let file = std::fs::File::open(path).map_err(|e| io_reason(&e))?;
    // Checked again on the open file: the path may have changed between.
    if let Ok(meta) = file.metadata() {
        if !meta.is_file() {
            return Err("not a regular file".into());
        }
        if meta.len() > limit {
            return Err(too_large(limit));
        }
    }
    read_limited(file, limit)
}

/// Reads standard input as UTF-8 text of at most `limit` bytes.
pub fn read_stdin(limit: u64) -> Result<String, String> {
    read_limited(std::io::stdin().lock(), limit)
}

/// Reads a path, or standard input for `-`, with a size limit.
pub fn read_input(path: &Path, limit: u64) -> Result<String, String> {
    if path.as_os_str() == "-" {
        read_stdin(limit)
    } else {
        read_text(path, limit)
    }
}

/// Calls `f` with each line (without its newline) of a regular file, or
/// of standard input for `-`, until `f` returns `Some`: a file of any size
/// is read in constant memory, and a line over `line_limit` bytes is an
/// error rather than an allocation. Returns `f`'s answer, or `None` at the
/// end of the file.
pub fn find_line<T>(
    path: &Path,
    line_limit: u64,
    mut f: impl FnMut(usize, &str) -> Option<T>,
) -> Result<Option<T>, String> {
    let mut lines = lines(path, line_limit)?;
    while let Some((number, line)) = lines.next_line()? {
        if let Some(t) = f(number, &line) {
            return Ok(Some(t));
        }
    }
    Ok(None)
}

/// The lines of a regular file, or of standard input for `-`, read one at
/// a time (see [`lines`]).
pub struct Lines {
    reader: Box<dyn std::io::BufRead>,
    limit: u64,
    number: usize,
    buf: Vec<u8>,
}

/// Opens a regular file, or standard input for `-`, to be read a line at
/// a time in constant memory: a line over `line_limit` bytes is an error
/// rather than an allocation.
pub fn lines(path: &Path, line_limit: u64) -> Result<Lines, String> {
    let reader: Box<dyn std::io::BufRead> = if path.as_os_str() == "-" {
        Box::new(std::io::BufReader::new(std::io::stdin()))
    } else {
        regular_file(path)?;
        let file = std::fs::File::open(path).map_err(|e| io_reason(&e))?;
        Box::new(std::io::BufReader::new(file))
    };
    Ok(Lines {
        reader,
        limit: line_limit,
        number: 0,
        buf: Vec::new(),
    })
}

impl Lines {
    /// The next line (its number from 1, its text without the newline),
    /// or `None` at the end.
    pub fn next_line(&mut self) -> Result<Option<(usize, String)>, String> {
        use std::io::BufRead;
        self.buf.clear();
        self.number += 1;
        let number = self.number;
        let n = (&mut self.reader)
            .take(self.limit.saturating_add(1))
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| io_reason(&e))?;
        if n == 0 {
            return Ok(None);
        }
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
        } else if n as u64 > self.limit {
            return Err(format!(
                "line {number} is longer than the {} a line may be",
                show_size(self.limit)
            ));
        }
        let line = std::str::from_utf8(&self.buf)
            .map_err(|_| format!("line {number}: not valid UTF-8"))?;
        Ok(Some((number, line.to_string())))
    }
}

/// Reads at most `limit` bytes; more is an error, not a truncation.
pub fn read_limited(reader: impl Read, limit: u64) -> Result<String, String> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| io_reason(&e))?;
    if bytes.len() as u64 > limit {
        return Err(too_large(limit));
    }
    String::from_utf8(bytes).map_err(|_| "not valid UTF-8".to_string())
}

fn too_large(limit: u64) -> String {
    format!("larger than the {} this file may be", show_size(limit))
}

/// An IO error in a few words, without the OS error number.
pub fn io_reason(e: &std::io::Error) -> String {
    use std::io::ErrorKind;
    match e.kind() {
        ErrorKind::NotFound => "not found".into(),
        ErrorKind::PermissionDenied => "permission denied".into(),
        ErrorKind::InvalidData => "not valid UTF-8".into(),
        ErrorKind::IsADirectory => "a directory, not a regular file".into(),
        _ => {
            let s = e.to_string();
            // "No space left on device (os error 28)" → without the number.
            match s.find(" (os error") {
                Some(i) => s[..i].to_string(),
                None => s,
            }
        }
    }
}

/// `-` names standard input where a file is read; as an output it would
/// make a file named `-` that nobody asked for.
fn not_dash(path: &Path) -> Result<(), String> {
    if path.as_os_str() == "-" {
        return Err("`-` is not a file to write (standard output has the command's own output): name a file, or /dev/stdout".into());
    }
    Ok(())
}

/// Where a file about to be written goes, and its temporary sibling.
fn temp_path(path: &Path) -> Result<(PathBuf, PathBuf), String> {
    let name = path
        .file_name()
        .ok_or_else(|| "not a file name".to_string())?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    // Process and call: two writes of one path in one process (two
    // threads) must not share a temporary file.
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".tmp{}-{n}", std::process::id()));
    Ok((dir.clone(), dir.join(tmp_name)))
}

/// What writing to a path means.
#[derive(PartialEq)]
enum Target {
    /// A regular file or nothing yet: replaced whole through a rename.
    File,
    /// A device or a pipe (`/dev/null`, `/dev/stdout`, `>(…)`): written
    /// straight through. Renaming over it would replace the device node.
    Stream,
}

fn writable_target(path: &Path) -> Result<Target, String> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => Ok(Target::File),
        Ok(meta) if meta.is_dir() => Err("a directory, not a file".into()),
        Ok(_) => Ok(Target::Stream),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Target::File),
        Err(e) => Err(io_reason(&e)),
    }
}

/// Writes `bytes` to `path` so that the path holds either its old content
/// or all of the new one: a temporary file in the same directory (a rename
/// is atomic only within one file system), written, flushed and synced,
/// then renamed over `path`, and the directory synced so the rename
/// survives a crash. On any failure the temporary file is removed and the
/// old file is untouched. The error is one line without the path.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    not_dash(path)?;
    // Through a symlink to the file it names: renaming over the link
    // would replace the link, not the file.
    let resolved;
    let path = match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            // A dangling link is replaced by the file.
            resolved = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
            resolved.as_path()
        }
        _ => path,
    };
    if writable_target(path)? == Target::Stream {
        return std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|mut f| f.write_all(bytes).and_then(|()| f.flush()))
            .map_err(|e| io_reason(&e));
    }
    let (dir, tmp) = temp_path(path)?;
    let result = (|| -> std::io::Result<()> {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .or_else(|e| {
                // A temporary left by a killed run of this same process id.
                if e.kind() == std::io::ErrorKind::AlreadyExists {
                    std::fs::remove_file(&tmp)?;
                    std::fs::OpenOptions::new()
                        .write(true)
                        .create_new(true)
                        .open(&tmp)
                } else {
                    Err(e)
                }
            })?;
        // Keep the old file's permissions: the rename replaces the inode.
        if let Ok(meta) = std::fs::metadata(path) {
            let _ = f.set_permissions(meta.permissions());
        }
        f.write_all(bytes)?;
        f.flush()?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        if let Ok(d) = std::fs::File::open(&dir) {
            // Not every platform can sync a directory; the rename stands.
            let _ = d.sync_all();
        }
        Ok(())
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io_reason(&e)
    })
}

/// Checks, before a long run, that [`write_atomic`] to `path` can work:
/// the target is a regular file or absent and its directory takes a new
/// file. Leaves nothing behind.
pub fn check_writable(path: &Path) -> Result<(), String> {
    not_dash(path)?;
    if writable_target(path)? == Target::Stream {
        return Ok(());
    }
    let (dir, tmp) = temp_path(path)?;
    match std::fs::metadata(&dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => return Err(format!("{} is not a directory", dir.display())),
        Err(e) => return Err(format!("directory {}: {}", dir.display(), io_reason(&e))),
    }
    let probe = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp);
    match probe {
        Ok(_) => {
            let _ = std::fs::remove_file(&tmp);
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let _ = std::fs::remove_file(&tmp);
            Ok(())
        }
        Err(e) => Err(io_reason(&e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_errors_not_truncations() {
        assert_eq!(read_limited(&b"abc"[..], 3).unwrap(), "abc");
        let e = read_limited(&b"abcd"[..], 3).unwrap_err();
        assert!(e.contains("larger than the 3 bytes"), "{e}");
        assert!(read_limited(&[0xff, 0xfe][..], 10).is_err());
        assert_eq!(show_size(MAX_POSITION), "1 MiB");
    }

    #[test]
    fn devices_and_directories_are_refused() {
        if Path::new("/dev/zero").exists() {
            let e = read_text(Path::new("/dev/zero"), 10).unwrap_err();
            assert!(e.contains("a device"), "{e}");
        }
        let e = read_text(Path::new("."), 10).unwrap_err();
        assert!(e.contains("directory"), "{e}");
    }

    #[test]
    fn atomic_write_replaces_whole() {
        let dir = std::env::temp_dir().join(format!("ball-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.txt");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        check_writable(&path).unwrap();
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
        assert_eq!(left.len(), 1, "no temporary file left behind");
        assert!(
            write_atomic(&dir, b"x").is_err(),
            "a directory is not replaced"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
