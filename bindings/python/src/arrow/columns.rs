//! Imported Arrow chunks as the columns samekey reads: identity fields (bytes, which a
//! text column also promises are UTF-8) and times (milliseconds).

use arrow_array::{Array, BinaryArray, BinaryViewArray, Int64Array, LargeBinaryArray};
use arrow_data::ArrayData;
use arrow_schema::{DataType, TimeUnit as ArrowUnit};
use pyo3::prelude::*;
use samekey::timestamp::{Millis, TimeUnit};
use samekey::Error;

use crate::errors::{type_error, CoreResult};

use super::ffi::arrow_error;

pub enum ByteChunk {
    Binary(BinaryArray),
    Large(LargeBinaryArray),
    View(BinaryViewArray),
}

impl ByteChunk {
    fn array(&self) -> &dyn Array {
        match self {
            ByteChunk::Binary(a) => a,
            ByteChunk::Large(a) => a,
            ByteChunk::View(a) => a,
        }
    }

    pub fn value(&self, i: usize) -> &[u8] {
        match self {
            ByteChunk::Binary(a) => a.value(i),
            ByteChunk::Large(a) => a.value(i),
            ByteChunk::View(a) => a.value(i),
        }
    }
}

/// A column of identity fields (or of content to hash): utf8, large_utf8, string_view,
/// binary, large_binary or binary_view. A text column's bytes are hashed as they are,
/// after a check that they are UTF-8 (spec §2.2), row by row.
pub struct ByteColumn {
    pub chunks: Vec<ByteChunk>,
    pub text: bool,
    pub name: String,
}

impl ByteColumn {
    pub fn new(chunks: Vec<ArrayData>, name: String) -> PyResult<Self> {
        let mut text = false;
        let mut out = Vec::with_capacity(chunks.len());
        for data in chunks {
            let (binary, is_text) = match data.data_type() {
                DataType::Utf8 => (DataType::Binary, true),
                DataType::LargeUtf8 => (DataType::LargeBinary, true),
                DataType::Utf8View => (DataType::BinaryView, true),
                t @ (DataType::Binary | DataType::LargeBinary | DataType::BinaryView) => {
                    (t.clone(), false)
                }
                other => {
                    return Err(type_error(format!(
                        "{name} is {other}: an identity field column must be utf8, \
                         large_utf8, string_view, binary, large_binary or binary_view \
                         (cast it first, e.g. a dictionary or categorical to its strings)"
                    )))
                }
            };
            text = is_text;
            if data.is_empty() {
                // No rows to read; arrow-rs may size an empty slice's values buffer as
                // zero while its first offset is not, which its validation refuses.
                continue;
            }
            // Retyped as bytes (the UTF-8 check is ours, row by row, to name the row),
            // and every offset and view checked against the buffers: a producer's bad
            // array is an error here, never an out-of-bounds read.
            let data = data
                .into_builder()
                .data_type(binary.clone())
                .build()
                .map_err(|e| arrow_error(&name, e))?;
            out.push(match binary {
                DataType::Binary => ByteChunk::Binary(BinaryArray::from(data)),
                DataType::LargeBinary => ByteChunk::Large(LargeBinaryArray::from(data)),
                _ => ByteChunk::View(BinaryViewArray::from(data)),
            });
        }
        Ok(ByteColumn {
            chunks: out,
            text,
            name,
        })
    }

    pub fn len(&self) -> usize {
        self.chunks.iter().map(|c| c.array().len()).sum()
    }

    /// The row's bytes, `Ok(None)` for a null, or `invalid_string`.
    pub fn get(&self, (chunk, i): (usize, usize)) -> Result<Option<&[u8]>, Error> {
        let chunk = &self.chunks[chunk];
        if chunk.array().is_null(i) {
            return Ok(None);
        }
        let value = chunk.value(i);
        if self.text && std::str::from_utf8(value).is_err() {
            return Err(Error::InvalidString(None));
        }
        Ok(Some(value))
    }

    pub fn cursor(&self) -> Cursor {
        Cursor::new(self.chunks.iter().map(|c| c.array().len()).collect())
    }
}

/// A column of times: timestamp of any unit with a time zone, or int64 milliseconds.
pub struct TimeColumn {
    chunks: Vec<Int64Array>,
    unit: TimeUnit,
}

impl TimeColumn {
    pub fn new(py: Python<'_>, chunks: Vec<ArrayData>) -> PyResult<Self> {
        let mut unit = TimeUnit::Millisecond;
        let mut out = Vec::with_capacity(chunks.len());
        for data in chunks {
            unit = match data.data_type() {
                DataType::Int64 => TimeUnit::Millisecond,
                DataType::Timestamp(u, Some(_)) => match u {
                    ArrowUnit::Second => TimeUnit::Second,
                    ArrowUnit::Millisecond => TimeUnit::Millisecond,
                    ArrowUnit::Microsecond => TimeUnit::Microsecond,
                    ArrowUnit::Nanosecond => TimeUnit::Nanosecond,
                },
                t @ DataType::Timestamp(_, None) => {
                    return Err(Error::InvalidTimestamp(format!(
                        "the time column is {t} without a time zone: give it one (ids must \
                         not depend on the machine's time zone)"
                    )))
                    .py(py)
                }
                other => {
                    return Err(type_error(format!(
                        "the time column is {other}: it must be a timestamp with a time \
                         zone, or int64 milliseconds since the epoch"
                    )))
                }
            };
            if data.is_empty() {
                continue;
            }
            let data = data
                .into_builder()
                .data_type(DataType::Int64)
                .build()
                .map_err(|e| arrow_error("the time column", e))?;
            out.push(Int64Array::from(data));
        }
        Ok(TimeColumn { chunks: out, unit })
    }

    pub fn len(&self) -> usize {
        self.chunks.iter().map(Array::len).sum()
    }

    /// The row's time, converted but not range-checked, or `None` for a null.
    pub fn get(&self, (chunk, i): (usize, usize)) -> Option<Millis> {
        let chunk = &self.chunks[chunk];
        (!chunk.is_null(i)).then(|| Millis::from_units(chunk.value(i), self.unit))
    }

    pub fn cursor(&self) -> Cursor {
        Cursor::new(self.chunks.iter().map(Array::len).collect())
    }
}

/// Walks a chunked column row by row: the columns of one call may be chunked
/// differently (a table's columns often are).
pub struct Cursor {
    lens: Vec<usize>,
    chunk: usize,
    i: usize,
}

impl Cursor {
    fn new(lens: Vec<usize>) -> Self {
        Cursor {
            lens,
            chunk: 0,
            i: 0,
        }
    }

    /// The (chunk, index) of the next row; only called while rows remain.
    pub fn next_row(&mut self) -> (usize, usize) {
        while self.i >= self.lens[self.chunk] {
            self.chunk += 1;
            self.i = 0;
        }
        self.i += 1;
        (self.chunk, self.i - 1)
    }
}
