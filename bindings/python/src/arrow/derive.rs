//! Ids and content hashes of Arrow columns, block by block, into new Arrow arrays.
//! Runs without the GIL: everything here is Rust-owned Arrow data.

use std::num::NonZeroUsize;

use arrow_array::{Array, FixedSizeBinaryArray, StringArray};
use arrow_buffer::{BooleanBufferBuilder, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_data::ArrayData;
use samekey::{Error, Scheme, Ulid, UlidDeriver};

use samekey::timestamp::Millis;

use super::columns::{ByteColumn, Cursor, TimeColumn};

/// Rows framed and hashed at a time: bounds the memory beside the input and output
/// (16 bytes per field per row) and is large enough for the core's threads to pay.
const BLOCK: usize = 1 << 16;

/// What a null input does.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Nulls {
    /// The call fails, naming the first null row.
    Error,
    /// The row's output is null.
    Propagate,
}

/// Why a row failed: a null input (with `Nulls::Error`), or the core's error.
pub enum RowError {
    Null {
        row: usize,
        column: String,
    },
    Core {
        row: usize,
        error: Error,
    },
    /// The output does not fit one Arrow array.
    TooLarge(String),
}

/// The output column: ULID text (utf8) or the 16 bytes (fixed_size_binary(16)).
struct IdsOut {
    binary: bool,
    values: Vec<u8>,
    validity: BooleanBufferBuilder,
    nulls: usize,
}

impl IdsOut {
    fn new(binary: bool, rows: usize) -> Self {
        let width = if binary { 16 } else { 26 };
        IdsOut {
            binary,
            values: Vec::with_capacity(rows * width),
            validity: BooleanBufferBuilder::new(rows),
            nulls: 0,
        }
    }

    fn push(&mut self, id: Option<Ulid>) {
        self.validity.append(id.is_some());
        match id {
            Some(id) if self.binary => self.values.extend_from_slice(id.as_bytes()),
            Some(id) => self.values.extend_from_slice(&id.to_text_bytes()),
            None if self.binary => {
                self.nulls += 1;
                self.values.extend_from_slice(&[0; 16]);
            }
            None => self.nulls += 1,
        }
    }

    fn finish(mut self) -> ArrayData {
        let len = self.validity.len();
        let nulls = (self.nulls > 0).then(|| NullBuffer::new(self.validity.finish()));
        if self.binary {
            let values = Buffer::from_vec(self.values);
            return FixedSizeBinaryArray::new(16, values, nulls).into_data();
        }
        // Null rows are empty strings; the others are 26 bytes each.
        let validity = nulls.as_ref();
        let mut offsets = Vec::with_capacity(len + 1);
        let mut end = 0i32;
        offsets.push(0);
        for row in 0..len {
            if validity.is_none_or(|v| v.is_valid(row)) {
                end += 26;
            }
            offsets.push(end);
        }
        let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
        StringArray::new(offsets, Buffer::from_vec(self.values), nulls).into_data()
    }
}

/// One row's inputs, converted: its fields (appended to `fields`) and its time, not yet
/// range-checked; or the first column that is null in it.
enum Row {
    Time(Millis),
    Null(String),
}

/// Reads the next row. A field that is not UTF-8 in a text column is `invalid_string`.
fn read_row<'a>(
    times: &TimeColumn,
    columns: &'a [ByteColumn],
    time_rows: &mut Cursor,
    field_rows: &mut [Cursor],
    fields: &mut Vec<&'a [u8]>,
) -> Result<Row, Error> {
    let t = times.get(time_rows.next_row());
    let mut null = t.is_none().then(|| "the time column".to_owned());
    for (column, cursor) in columns.iter().zip(field_rows.iter_mut()) {
        match column.get(cursor.next_row())? {
            Some(value) => fields.push(value),
            None => {
                fields.push(&[]);
                null.get_or_insert_with(|| column.name.clone());
            }
        }
    }
    Ok(match (null, t) {
        (Some(column), _) => Row::Null(column),
        (None, Some(t)) => Row::Time(t),
        (None, None) => unreachable!("a null time names its column"),
    })
}

/// Converts the first row alone: a call that derives ids (not a deriver's method)
/// reports a conversion error of its first row before the scheme's checks, as one
/// `derive_ulid` call does (spec §4.4).
pub fn check_first_row(
    times: &TimeColumn,
    columns: &[ByteColumn],
    nulls: Nulls,
) -> Result<(), RowError> {
    if times.len() == 0 {
        return Ok(());
    }
    let mut field_rows: Vec<_> = columns.iter().map(ByteColumn::cursor).collect();
    let mut scratch = Vec::with_capacity(columns.len());
    match read_row(
        times,
        columns,
        &mut times.cursor(),
        &mut field_rows,
        &mut scratch,
    ) {
        Err(error) => Err(RowError::Core { row: 0, error }),
        Ok(Row::Null(column)) if nulls == Nulls::Error => Err(RowError::Null { row: 0, column }),
        Ok(_) => Ok(()),
    }
}

/// A utf8 array holds at most i32::MAX bytes.
const MAX_TEXT_ROWS: usize = i32::MAX as usize / 26;

/// The ids of `times` and `fields` row by row, as `UlidDeriver::derive` gives them; the
/// first failing row's error otherwise (rows are checked in order, and within a row the
/// conversions first, then the core's checks, as spec §4.4 orders them).
pub fn ulids(
    deriver: &UlidDeriver,
    times: &TimeColumn,
    fields: &[ByteColumn],
    nulls: Nulls,
    binary: bool,
    threads: Option<NonZeroUsize>,
) -> Result<ArrayData, RowError> {
    let n = times.len();
    if !binary && n > MAX_TEXT_ROWS {
        return Err(RowError::TooLarge(format!(
            "{n} rows of ULID text do not fit one utf8 array ({MAX_TEXT_ROWS} at most): \
             pass binary=True or fewer rows at a time"
        )));
    }
    let width = fields.len();
    let mut time_rows = times.cursor();
    let mut field_rows: Vec<_> = fields.iter().map(ByteColumn::cursor).collect();
    let mut out = IdsOut::new(binary, n);
    let mut block_times: Vec<u64> = Vec::with_capacity(BLOCK.min(n));
    let mut block_fields: Vec<&[u8]> = Vec::with_capacity(BLOCK.min(n) * width);
    // The row of each kept entry (null rows are skipped with `Nulls::Propagate`).
    let mut block_rows: Vec<usize> = Vec::with_capacity(BLOCK.min(n));
    let mut ids: Vec<Ulid> = Vec::with_capacity(BLOCK.min(n));
    let mut start = 0;
    while start < n {
        let end = (start + BLOCK).min(n);
        block_times.clear();
        block_fields.clear();
        block_rows.clear();
        let mut failed = None;
        for row in start..end {
            let read = read_row(
                times,
                fields,
                &mut time_rows,
                &mut field_rows,
                &mut block_fields,
            );
            let t = match read {
                Ok(Row::Time(t)) => t,
                Ok(Row::Null(_)) if nulls == Nulls::Propagate => {
                    block_fields.truncate(block_times.len() * width);
                    continue;
                }
                Ok(Row::Null(column)) => {
                    failed = Some(RowError::Null { row, column });
                    break;
                }
                Err(error) => {
                    failed = Some(RowError::Core { row, error });
                    break;
                }
            };
            match t.check() {
                Ok(t) => {
                    block_times.push(t);
                    block_rows.push(row);
                }
                Err(error) => {
                    failed = Some(RowError::Core { row, error });
                    break;
                }
            }
        }
        // A failing row may have left some of its fields.
        block_fields.truncate(block_times.len() * width);
        ids.clear();
        // The rows before a failing one come first: their own error is the earlier one.
        if let Err(error) =
            deriver.derive_batch(&block_times, &block_fields, width, threads, &mut ids)
        {
            return Err(RowError::Core {
                row: block_rows[ids.len()],
                error,
            });
        }
        if let Some(failed) = failed {
            return Err(failed);
        }
        let mut kept = block_rows.iter().zip(&ids).peekable();
        for row in start..end {
            match kept.peek() {
                Some(&(&r, &id)) if r == row => {
                    out.push(Some(id));
                    kept.next();
                }
                _ => out.push(None),
            }
        }
        start = end;
    }
    Ok(out.finish())
}

/// The content hash text of every row of `values`.
pub fn content_hashes(
    scheme: Scheme,
    values: &ByteColumn,
    nulls: Nulls,
) -> Result<ArrayData, RowError> {
    let n = values.len();
    let mut cursor = values.cursor();
    let mut text = Vec::new();
    let mut offsets: Vec<i32> = Vec::with_capacity(n + 1);
    offsets.push(0);
    let mut validity = BooleanBufferBuilder::new(n);
    let mut null_count = 0;
    for row in 0..n {
        let value = values
            .get(cursor.next_row())
            .map_err(|error| RowError::Core { row, error })?;
        match value {
            Some(value) => {
                let hash = samekey::content_hash(scheme, value)
                    .map_err(|error| RowError::Core { row, error })?;
                text.extend_from_slice(hash.to_string().as_bytes());
                validity.append(true);
            }
            None if nulls == Nulls::Propagate => {
                validity.append(false);
                null_count += 1;
            }
            None => {
                return Err(RowError::Null {
                    row,
                    column: values.name.clone(),
                })
            }
        }
        let end = i32::try_from(text.len()).map_err(|_| {
            RowError::TooLarge(format!(
                "{n} content hashes do not fit one utf8 array: pass fewer rows at a time"
            ))
        })?;
        offsets.push(end);
    }
    let nulls = (null_count > 0).then(|| NullBuffer::new(validity.finish()));
    let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
    Ok(StringArray::new(offsets, Buffer::from_vec(text), nulls).into_data())
}
