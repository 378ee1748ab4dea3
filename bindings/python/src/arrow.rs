//! Arrow columns in, Arrow arrays out (the PyCapsule interface): ids and content hashes
//! of millions of rows with no Python object per row.

mod columns;
mod derive;
mod ffi;

use std::num::NonZeroUsize;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use samekey::{Error, UlidDeriver};

use crate::convert::{self, Text};
use crate::errors::{self, CoreResult};

pub use ffi::PyArrowArray;

use columns::{ByteColumn, TimeColumn};
use derive::{Nulls, RowError};

fn nulls_arg(text: &str) -> PyResult<Nulls> {
    match text {
        "error" => Ok(Nulls::Error),
        "propagate" => Ok(Nulls::Propagate),
        other => Err(PyValueError::new_err(format!(
            "nulls must be 'error' or 'propagate', not {other:?}"
        ))),
    }
}

pub fn threads_arg(threads: Option<usize>) -> PyResult<Option<NonZeroUsize>> {
    threads
        .map(|n| {
            NonZeroUsize::new(n).ok_or_else(|| {
                PyValueError::new_err("threads must be at least 1 (None: every core)")
            })
        })
        .transpose()
}

fn row_error(py: Python<'_>, e: RowError, nulls_hint: bool) -> PyErr {
    match e {
        RowError::Core { row, error } => errors::to_py_at_row(py, error, row),
        RowError::Null { row, column } => {
            let hint = if nulls_hint {
                " (nulls='propagate' gives a null output instead)"
            } else {
                ""
            };
            PyValueError::new_err(format!("{column} is null at row {row}{hint}"))
        }
        RowError::TooLarge(text) => PyValueError::new_err(text),
    }
}

fn import_times(py: Python<'_>, times: &Bound<'_, PyAny>) -> PyResult<TimeColumn> {
    TimeColumn::new(py, ffi::import_chunks(times, "the time column")?)
}

/// The field columns, each as long as the time column.
fn import_fields(times: &TimeColumn, columns: &[Bound<'_, PyAny>]) -> PyResult<Vec<ByteColumn>> {
    let n = times.len();
    let mut fields = Vec::with_capacity(columns.len());
    for (i, column) in columns.iter().enumerate() {
        let name = format!("field column {i}");
        let column = ByteColumn::new(ffi::import_chunks(column, &name)?, name)?;
        if column.len() != n {
            return Err(PyValueError::new_err(format!(
                "{} has {} rows but the time column has {n}",
                column.name,
                column.len()
            )));
        }
        fields.push(column);
    }
    Ok(fields)
}

fn run_ulids(
    py: Python<'_>,
    deriver: &UlidDeriver,
    (times, fields): (TimeColumn, Vec<ByteColumn>),
    binary: bool,
    nulls: Nulls,
    threads: Option<NonZeroUsize>,
) -> PyResult<PyArrowArray> {
    let data = py
        .detach(|| derive::ulids(deriver, &times, &fields, nulls, binary, threads))
        .map_err(|e| row_error(py, e, nulls == Nulls::Error))?;
    Ok(PyArrowArray::new(data))
}

/// `UlidDeriver.derive_arrow`: the ids of Arrow columns under a deriver's settings.
pub fn derive_arrow(
    py: Python<'_>,
    deriver: &UlidDeriver,
    times: &Bound<'_, PyAny>,
    columns: &[Bound<'_, PyAny>],
    binary: bool,
    nulls: &str,
    threads: Option<usize>,
) -> PyResult<PyArrowArray> {
    let nulls = nulls_arg(nulls)?;
    let threads = threads_arg(threads)?;
    if columns.is_empty() {
        return Err(Error::NoFields).py(py);
    }
    let times = import_times(py, times)?;
    let fields = import_fields(&times, columns)?;
    run_ulids(py, deriver, (times, fields), binary, nulls, threads)
}

/// The deterministic ULIDs of Arrow columns (spec §4), row by row as `derive_ulid`
/// gives them; its errors in the same order (the first row's conversions come before
/// the scheme, secret and namespace checks). Returns an `ArrowArray`.
#[pyfunction]
#[pyo3(signature = (times, *columns, namespace = None, scheme = Text::v1(), secret = None, binary = false, nulls = "error", threads = None), text_signature = "(times, *columns, namespace=None, scheme='v1', secret=None, binary=False, nulls='error', threads=None)")]
#[allow(clippy::too_many_arguments)]
pub fn derive_ulids_arrow(
    py: Python<'_>,
    times: &Bound<'_, PyAny>,
    columns: Vec<Bound<'_, PyAny>>,
    namespace: Option<&Bound<'_, PyAny>>,
    scheme: Text,
    secret: Option<&Bound<'_, PyAny>>,
    binary: bool,
    nulls: &str,
    threads: Option<usize>,
) -> PyResult<PyArrowArray> {
    let nulls = nulls_arg(nulls)?;
    let threads = threads_arg(threads)?;
    // In derive_ulid's order: the host's conversions (times, namespace, secret, fields),
    // then the scheme and the deriver's checks, then the rows' own.
    let times = import_times(py, times)?;
    let namespace = convert::namespace(namespace)?;
    let secret = convert::secret(secret)?;
    let fields = import_fields(&times, &columns)?;
    derive::check_first_row(&times, &fields, nulls)
        .map_err(|e| row_error(py, e, nulls == Nulls::Error))?;
    let scheme = convert::scheme(py, &scheme)?;
    let deriver = UlidDeriver::new(scheme, &namespace, secret.as_deref()).py(py)?;
    if fields.is_empty() && times.len() == 0 {
        return Err(Error::NoFields).py(py);
    }
    // Without fields, the first row fails in the core: its time's range, then no_fields.
    run_ulids(py, &deriver, (times, fields), binary, nulls, threads)
}

/// The content hash (spec §5) of every value of an Arrow column of bytes or text, as an
/// Arrow utf8 array of key texts. A text value is hashed as its UTF-8 bytes.
#[pyfunction]
#[pyo3(signature = (values, *, scheme = Text::v1(), nulls = "error"), text_signature = "(values, *, scheme='v1', nulls='error')")]
pub fn content_hash_arrow(
    py: Python<'_>,
    values: &Bound<'_, PyAny>,
    scheme: Text,
    nulls: &str,
) -> PyResult<PyArrowArray> {
    let nulls = nulls_arg(nulls)?;
    let scheme = convert::scheme(py, &scheme)?;
    samekey::ContentHasher::new(scheme).py(py)?;
    let values = ByteColumn::new(ffi::import_chunks(values, "values")?, "values".into())?;
    let data = py
        .detach(|| derive::content_hashes(scheme, &values, nulls))
        .map_err(|e| row_error(py, e, nulls == Nulls::Error))?;
    Ok(PyArrowArray::new(data))
}
