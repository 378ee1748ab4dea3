//! Reading a revision's data in chunks, so that a slow reader holds one chunk at a time.

use sqlx::Row;

use crate::on_pool;
use crate::store::{column_of, Db};

/// `contents.location` of data stored at its content hash's name in the object store;
/// NULL is data in the database, anything else an object's name (a staged upload's).
pub const BY_HASH: &str = "object";

/// Where a revision's data is, for [`Db::data_chunk`].
#[derive(Debug, Clone)]
pub struct DataRef {
    pub media_type: String,
    pub size: i64,
    pub content_hash: String,
    /// Where in the object store (`--data-store`) the bytes are: [`BY_HASH`] for the
    /// content hash's own name, or an object's name; `None` when they are in the database.
    pub object: Option<String>,
    /// SQLite: the content's row when the revision was looked up.
    rowid: Option<i64>,
}

impl DataRef {
    /// Data in the database's row of `content_hash` (`rowid` on SQLite).
    pub(super) fn in_database(
        media_type: String,
        size: i64,
        content_hash: String,
        rowid: Option<i64>,
    ) -> DataRef {
        DataRef {
            media_type,
            size,
            content_hash,
            object: None,
            rowid,
        }
    }
}

impl Db {
    /// Where a revision's data is: its media type, its size and its content hash, for
    /// reading it in chunks ([`Db::data_chunk`]) instead of whole.
    pub async fn data_ref(&self, key: &str) -> Result<Option<DataRef>, sqlx::Error> {
        // SQLite reads the data by its row; PostgreSQL by its hash.
        let rowid = match self {
            Db::Sqlite(..) => "c.rowid",
            Db::Postgres(_) => "CAST(NULL AS BIGINT)",
        };
        let sql = format!(
            "SELECT r.media_type, r.size, r.content_hash, c.location, {rowid} AS rowid \
             FROM revisions r JOIN contents c ON c.hash = r.content_hash WHERE r.{} = $1",
            column_of(key)
        );
        on_pool!(self, pool => {
            match sqlx::query(&sql).bind(key).fetch_optional(pool).await? {
                Some(row) => Ok(Some(DataRef {
                    media_type: row.try_get("media_type")?,
                    size: row.try_get("size")?,
                    content_hash: row.try_get("content_hash")?,
                    object: row.try_get("location")?,
                    rowid: row.try_get("rowid")?,
                })),
                None => Ok(None),
            }
        })
    }

    /// `len` bytes of the data at `data` from `offset` (fewer at its end). A reader holds
    /// one chunk at a time, so a slow one costs a chunk of memory, not the revision.
    pub async fn data_chunk(
        &self,
        data: &DataRef,
        offset: u64,
        len: usize,
    ) -> Result<Vec<u8>, sqlx::Error> {
        let size = data.size.max(0) as u64;
        let len = len.min(size.saturating_sub(offset) as usize);
        if len == 0 {
            return Ok(Vec::new());
        }
        match self {
            Db::Postgres(pool) => {
                // A bytea stored out of line and uncompressed is sliced from its TOAST
                // chunks without reading the rest.
                let row = sqlx::query(
                    "SELECT substring(data FROM CAST($2 AS INTEGER) FOR CAST($3 AS INTEGER)) AS part FROM contents WHERE hash = $1",
                )
                .bind(&data.content_hash)
                .bind(offset as i64 + 1)
                .bind(len as i64)
                .fetch_one(pool)
                .await?;
                let part: Vec<u8> = row.try_get("part")?;
                if part.len() != len {
                    return Err(sqlx::Error::Protocol(format!(
                        "{}: read {} bytes at {offset}, wanted {len}",
                        data.content_hash,
                        part.len()
                    )));
                }
                Ok(part)
            }
            Db::Sqlite(reads, _) => {
                let mut conn = reads.acquire().await?;
                let (rowid, hash, size) = (
                    data.rowid.unwrap_or(-1),
                    data.content_hash.clone(),
                    data.size,
                );
                // The read copies the chunk and walks SQLite's overflow pages: CPU work done
                // on a blocking thread, so that the async workers keep answering requests.
                let runtime = tokio::runtime::Handle::current();
                let (mut conn, read) = tokio::task::spawn_blocking(move || {
                    let read = runtime.block_on(crate::store::blob::read_chunk(
                        &mut conn, rowid, &hash, size, offset, len,
                    ));
                    (conn, read)
                })
                .await
                .map_err(|e| sqlx::Error::Protocol(format!("the chunk read failed: {e}")))?;
                if read.is_err() {
                    // It may be inside the read transaction still.
                    conn.close_on_drop();
                }
                read
            }
        }
    }
}
