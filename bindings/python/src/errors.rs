//! `samekey::Error` as Python's `samekey.SamekeyError` (a `ValueError`) carrying `.code`.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

/// Builds the Python exception for a core error. The class lives in the pure-Python
/// package (`samekey._errors`) so it is an ordinary, picklable `ValueError` subclass.
pub fn to_py(py: Python<'_>, e: samekey::Error) -> PyErr {
    samekey_error(py, e.code(), e.to_string())
}

fn samekey_error(py: Python<'_>, code: &str, message: String) -> PyErr {
    let made = py
        .import("samekey._errors")
        .and_then(|m| m.getattr("SamekeyError"))
        .and_then(|cls| cls.call1((code, message)));
    match made {
        Ok(instance) => PyErr::from_value(instance),
        Err(import_failed) => import_failed,
    }
}

/// A core error of one row of a batch: the message names the row, and `.row` holds it.
pub fn to_py_at_row(py: Python<'_>, e: samekey::Error, row: usize) -> PyErr {
    let err = samekey_error(py, e.code(), format!("row {row}: {e}"));
    if let Err(failed) = err.value(py).setattr("row", row) {
        return failed;
    }
    err
}

/// An I/O failure on `path` as Python raises it (`FileNotFoundError`, `PermissionError`,
/// ... with `errno` and `filename`) that is also a `SamekeyError` with code `io_error`.
pub fn io_to_py(py: Python<'_>, e: &std::io::Error, path: &std::path::Path) -> PyErr {
    let errno = e.raw_os_error().unwrap_or(0);
    // The OS's text alone: Python's OSError adds the file name itself.
    let text = e.to_string();
    let strerror = text.split(" (os error").next().unwrap_or(&text).to_owned();
    let made = py
        .import("samekey._errors")
        .and_then(|m| m.getattr("_rebuild_io_error"))
        .and_then(|f| f.call1((errno, strerror, path.to_string_lossy().into_owned())));
    match made {
        Ok(instance) => PyErr::from_value(instance),
        Err(import_failed) => import_failed,
    }
}

/// `.py(py)?` turns a core result into a Python one.
pub trait CoreResult<T> {
    fn py(self, py: Python<'_>) -> PyResult<T>;
}

impl<T> CoreResult<T> for Result<T, samekey::Error> {
    fn py(self, py: Python<'_>) -> PyResult<T> {
        self.map_err(|e| to_py(py, e))
    }
}

pub fn type_error(what: String) -> PyErr {
    PyTypeError::new_err(what)
}
