//! Stored data read in chunks through SQLite's incremental blob I/O. `substr()` of a BLOB
//! loads the whole value on every call, so chunked reads in SQL would cost a 16 MiB
//! revision's memory (and copy) per chunk; `sqlite3_blob_read` reads just the pages of
//! the chunk. This is the registry's only unsafe code: calls into SQLite's C API on a
//! connection this module holds locked.

#![allow(unsafe_code)]

use std::ffi::{c_int, CStr};
use std::ptr;

use libsqlite3_sys as ffi;
use sqlx::{Row, SqliteConnection};

/// `len` bytes at `offset` of the data of content `hash` (`size` bytes long), whose row
/// was `rowid` when its revision was looked up. Each read checks that the row still holds
/// `hash` (a `VACUUM` may renumber rows) and looks the row up again if not. On error the
/// caller must not reuse `conn`.
pub async fn read_chunk(
    conn: &mut SqliteConnection,
    rowid: i64,
    hash: &str,
    size: i64,
    offset: u64,
    len: usize,
) -> Result<Vec<u8>, sqlx::Error> {
    let fail = |why: String| sqlx::Error::Protocol(format!("reading {hash} at {offset}: {why}"));
    let mut rowid = rowid;
    for attempt in 0..2 {
        if attempt > 0 {
            rowid = sqlx::query("SELECT rowid FROM contents WHERE hash = $1")
                .bind(hash)
                .fetch_one(&mut *conn)
                .await?
                .try_get(0)?;
        }
        let mut handle = conn.lock_handle().await?;
        match read_blob(
            handle.as_raw_handle().as_ptr(),
            rowid,
            hash,
            size,
            offset,
            len,
        ) {
            Ok(Some(chunk)) => return Ok(chunk),
            Ok(None) => continue,
            Err(why) => return Err(fail(why)),
        }
    }
    Err(fail(
        "the row of this content changed while it was read".into(),
    ))
}

/// An open blob handle, closed however the read ends.
struct Blob(*mut ffi::sqlite3_blob);

impl Blob {
    /// Opens column `column` of `contents` at `rowid`, read-only.
    fn open(db: *mut ffi::sqlite3, column: &CStr, rowid: i64) -> Result<Blob, String> {
        let mut blob = Blob(ptr::null_mut());
        // SAFETY: `db` is a live connection that the caller holds locked for this call;
        // the names are NUL-terminated; `blob.0` receives the handle (null on failure).
        let rc = unsafe {
            ffi::sqlite3_blob_open(
                db,
                c"main".as_ptr(),
                c"contents".as_ptr(),
                column.as_ptr(),
                rowid,
                0,
                &mut blob.0,
            )
        };
        if rc != ffi::SQLITE_OK {
            return Err(error_message(db, rc));
        }
        Ok(blob)
    }

    fn len(&self) -> usize {
        // SAFETY: an open handle.
        unsafe { ffi::sqlite3_blob_bytes(self.0) }.max(0) as usize
    }

    /// `len` bytes from `offset`.
    fn read(&self, db: *mut ffi::sqlite3, offset: usize, len: usize) -> Result<Vec<u8>, String> {
        let at =
            c_int::try_from(offset).map_err(|_| "offset beyond SQLite's blob size".to_string())?;
        let n = c_int::try_from(len).map_err(|_| "chunk beyond SQLite's blob size".to_string())?;
        let mut out: Vec<u8> = Vec::with_capacity(len);
        // SAFETY: `out` has room for `n` bytes; SQLite writes exactly `n` or fails (past
        // the end is SQLITE_ERROR, nothing written).
        let rc = unsafe { ffi::sqlite3_blob_read(self.0, out.as_mut_ptr().cast(), n, at) };
        if rc != ffi::SQLITE_OK {
            return Err(error_message(db, rc));
        }
        // SAFETY: sqlite3_blob_read initialised all `len` bytes.
        unsafe { out.set_len(len) };
        Ok(out)
    }
}

impl Drop for Blob {
    fn drop(&mut self) {
        // SAFETY: a handle sqlite3_blob_open gave (or null, which sqlite3_blob_close
        // accepts), closed once.
        unsafe { ffi::sqlite3_blob_close(self.0) };
    }
}

/// The chunk, or `None` if row `rowid` no longer holds content `hash`. Both handles are
/// open at once, so they read one snapshot (an implicit read transaction).
fn read_blob(
    db: *mut ffi::sqlite3,
    rowid: i64,
    hash: &str,
    size: i64,
    offset: u64,
    len: usize,
) -> Result<Option<Vec<u8>>, String> {
    let key = match Blob::open(db, c"hash", rowid) {
        Ok(key) => key,
        // No such row (any more): renumbered.
        Err(_) => return Ok(None),
    };
    if key.len() != hash.len() || key.read(db, 0, hash.len())? != hash.as_bytes() {
        return Ok(None);
    }
    let data = Blob::open(db, c"data", rowid)?;
    if data.len() as i64 != size {
        return Err(format!(
            "the stored data is {} bytes, its revision says {size}",
            data.len()
        ));
    }
    let offset = usize::try_from(offset).map_err(|_| "offset beyond this platform".to_string())?;
    data.read(db, offset, len).map(Some)
}

fn error_message(db: *mut ffi::sqlite3, rc: c_int) -> String {
    // SAFETY: sqlite3_errmsg returns a NUL-terminated string owned by the connection,
    // valid until its next call, copied out at once.
    let text = unsafe { CStr::from_ptr(ffi::sqlite3_errmsg(db)) };
    format!("{} (SQLite code {rc})", text.to_string_lossy())
}
