//! Stored data read in chunks through SQLite's incremental blob I/O. `substr()` of a BLOB
//! loads the whole value on every call, so chunked reads in SQL would cost a 16 MiB
//! revision's memory (and copy) per chunk; `sqlite3_blob_read` reads just the pages of
//! the chunk. This is the registry's only unsafe code: four calls into SQLite's C API on
//! a connection this module holds locked.

#![allow(unsafe_code)]

use std::ffi::{c_int, CStr};
use std::ptr;

use libsqlite3_sys as ffi;
use sqlx::{Row, SqliteConnection};

/// `len` bytes at `offset` of the data of content `hash`, which is `size` bytes long.
/// The row is found and read in one read transaction, so the rowid found is the row read
/// whatever a concurrent `VACUUM` renumbers. On error the caller must not reuse `conn`.
pub async fn read_chunk(
    conn: &mut SqliteConnection,
    hash: &str,
    size: i64,
    offset: u64,
    len: usize,
) -> Result<Vec<u8>, sqlx::Error> {
    sqlx::query("BEGIN").execute(&mut *conn).await?;
    let rowid: i64 = sqlx::query("SELECT rowid FROM contents WHERE hash = $1")
        .bind(hash)
        .fetch_one(&mut *conn)
        .await?
        .try_get(0)?;
    let read = {
        let mut handle = conn.lock_handle().await?;
        read_blob(handle.as_raw_handle().as_ptr(), rowid, size, offset, len)
    };
    sqlx::query("COMMIT").execute(&mut *conn).await?;
    read.map_err(|why| sqlx::Error::Protocol(format!("reading {hash} at {offset}: {why}")))
}

/// Closes the blob handle however the read ends.
struct Blob(*mut ffi::sqlite3_blob);

impl Drop for Blob {
    fn drop(&mut self) {
        // SAFETY: a handle sqlite3_blob_open gave (or null, which sqlite3_blob_close
        // accepts), closed once.
        unsafe { ffi::sqlite3_blob_close(self.0) };
    }
}

fn read_blob(
    db: *mut ffi::sqlite3,
    rowid: i64,
    size: i64,
    offset: u64,
    len: usize,
) -> Result<Vec<u8>, String> {
    let at = c_int::try_from(offset).map_err(|_| "offset beyond SQLite's blob size".to_string())?;
    let n = c_int::try_from(len).map_err(|_| "chunk beyond SQLite's blob size".to_string())?;
    let mut blob = Blob(ptr::null_mut());
    // SAFETY: `db` is a live connection that the caller holds locked for this call; the
    // names are NUL-terminated; `blob.0` receives the handle (null on failure).
    let rc = unsafe {
        ffi::sqlite3_blob_open(
            db,
            c"main".as_ptr(),
            c"contents".as_ptr(),
            c"data".as_ptr(),
            rowid,
            0,
            &mut blob.0,
        )
    };
    if rc != ffi::SQLITE_OK {
        return Err(error_message(db, rc));
    }
    // SAFETY: an open handle.
    let bytes = unsafe { ffi::sqlite3_blob_bytes(blob.0) };
    if i64::from(bytes) != size {
        return Err(format!(
            "the stored data is {bytes} bytes, its revision says {size}"
        ));
    }
    let mut out: Vec<u8> = Vec::with_capacity(len);
    // SAFETY: `out` has room for `n` bytes; SQLite writes exactly `n` or fails (an
    // offset + n past the end is SQLITE_ERROR, nothing written).
    let rc = unsafe { ffi::sqlite3_blob_read(blob.0, out.as_mut_ptr().cast(), n, at) };
    if rc != ffi::SQLITE_OK {
        return Err(error_message(db, rc));
    }
    // SAFETY: sqlite3_blob_read initialised all `len` bytes.
    unsafe { out.set_len(len) };
    Ok(out)
}

fn error_message(db: *mut ffi::sqlite3, rc: c_int) -> String {
    // SAFETY: sqlite3_errmsg returns a NUL-terminated string owned by the connection,
    // valid until its next call, copied out at once.
    let text = unsafe { CStr::from_ptr(ffi::sqlite3_errmsg(db)) };
    format!("{} (SQLite code {rc})", text.to_string_lossy())
}
