//! Content hashes of bytes, text, files and file objects; canonical JSON.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};
use samekey::{ContentHasher, Scheme, Value};

use crate::convert;
use crate::convert::Text;
use crate::errors::{type_error, CoreResult};

/// Inputs at least this large are hashed without the GIL.
const DETACH_MIN: usize = 64 << 10;
const CHUNK: usize = 1 << 20;

fn hash_bytes(py: Python<'_>, hasher: &mut ContentHasher, data: &[u8]) {
    if data.len() >= DETACH_MIN {
        py.detach(|| {
            hasher.update(data);
        });
    } else {
        hasher.update(data);
    }
}

/// Feeds `data` (bytes, bytearray, str, or a binary file object read to its end).
fn feed(hasher: &mut ContentHasher, data: &Bound<'_, PyAny>) -> PyResult<()> {
    let py = data.py();
    if let Ok(b) = data.cast::<PyBytes>() {
        hash_bytes(py, hasher, b.as_bytes());
    } else if let Ok(b) = data.cast::<PyByteArray>() {
        // A bytearray may change while the GIL is released: hash a copy.
        hash_bytes(py, hasher, &b.to_vec());
    } else if let Ok(s) = data.cast::<PyString>() {
        hash_bytes(py, hasher, convert::text(s)?.as_bytes());
    } else if data.hasattr("read")? {
        loop {
            let chunk = data.call_method1("read", (CHUNK,))?;
            let Ok(bytes) = chunk.cast::<PyBytes>() else {
                return Err(type_error(format!(
                    "read() returned {}, not bytes: open the file in binary mode ('rb')",
                    convert::type_name(&chunk)
                )));
            };
            if bytes.as_bytes().is_empty() {
                break;
            }
            hash_bytes(py, hasher, bytes.as_bytes());
        }
    } else {
        return Err(type_error(format!(
            "cannot hash {}: pass bytes, bytearray, str, a binary file object or a path",
            convert::type_name(data)
        )));
    }
    Ok(())
}

/// The content hash (spec §5) of bytes, str (its UTF-8), an `os.PathLike` (the file it
/// names, read in constant memory, BLAKE3 on every core), or a binary file object.
#[pyfunction]
#[pyo3(signature = (data, *, scheme = Text::v1()), text_signature = "(data, *, scheme='v1')")]
pub fn content_hash(py: Python<'_>, data: &Bound<'_, PyAny>, scheme: Text) -> PyResult<String> {
    let scheme = convert::scheme(py, &scheme)?;
    // Exactly bytes, bytearray or str is never a path: those skip the PathLike check, an
    // ABC's isinstance that was most of a 40-byte hash's 1.4 µs (`just bench-matrix`).
    let plain = data.is_exact_instance_of::<PyBytes>()
        || data.is_exact_instance_of::<PyByteArray>()
        || data.is_exact_instance_of::<PyString>();
    let is_path = !plain && data.is_instance(&py.import("os")?.getattr("PathLike")?)?;
    if is_path {
        let path: PathBuf = data.extract()?;
        // Opened here first so that a missing or unreadable file is the OSError subclass
        // Python programs expect (FileNotFoundError, ...), naming the path.
        if let Err(e) = std::fs::File::open(&path)
            .and_then(|f| f.metadata())
            .and_then(|m| {
                if m.is_dir() {
                    Err(std::io::Error::from_raw_os_error(libc_eisdir()))
                } else {
                    Ok(())
                }
            })
        {
            return Err(crate::errors::io_to_py(py, &e, &path));
        }
        let hash = py
            .detach(|| samekey::content_hash_file(scheme, &path))
            .py(py)?;
        return Ok(hash.to_string());
    }
    let mut hasher = ContentHasher::new(scheme).py(py)?;
    feed(&mut hasher, data)?;
    Ok(hasher.finalize().to_string())
}

/// EISDIR, which opening a directory for reading does not report on every system.
#[cfg(unix)]
fn libc_eisdir() -> i32 {
    21
}

#[cfg(not(unix))]
fn libc_eisdir() -> i32 {
    // Windows reports a directory as access denied.
    5
}

/// An incremental content hash: `update()` with chunks, `finalize()` for the text.
#[pyclass(name = "ContentHasher", module = "samekey")]
pub struct PyContentHasher {
    inner: ContentHasher,
}

#[pymethods]
impl PyContentHasher {
    #[new]
    #[pyo3(signature = (scheme = Text::v1()), text_signature = "(scheme='v1')")]
    fn new(py: Python<'_>, scheme: Text) -> PyResult<Self> {
        let scheme = convert::scheme(py, &scheme)?;
        Ok(PyContentHasher {
            inner: ContentHasher::new(scheme).py(py)?,
        })
    }

    /// Adds bytes, str (UTF-8) or a binary file object's remaining content.
    fn update(&mut self, data: &Bound<'_, PyAny>) -> PyResult<()> {
        feed(&mut self.inner, data)
    }

    /// The hash of everything fed so far; feeding may continue afterwards.
    fn finalize(&self) -> String {
        self.inner.clone().finalize().to_string()
    }
}

fn json_value(value: &Bound<'_, PyAny>) -> PyResult<Value> {
    convert::json(value, 0)
}

/// The RFC 8785 canonical JSON text of a Python value (spec §6).
#[pyfunction]
pub fn canonical_json(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<String> {
    samekey::canonical_json(&json_value(value)?).py(py)
}

/// The RFC 8785 canonical form of JSON text, parsed strictly (spec §6.1).
#[pyfunction]
pub fn canonical_json_text(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<String> {
    let text = convert::text_arg(text, "JSON text")?;
    samekey::canonicalize_json_text(&text).py(py)
}

/// The content hash of a Python value's canonical JSON. The value is converted first, a
/// host conversion, then the scheme is checked (spec §6.2).
#[pyfunction]
#[pyo3(signature = (value, *, scheme = Text::v1()), text_signature = "(value, *, scheme='v1')")]
pub fn content_hash_json(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    scheme: Text,
) -> PyResult<String> {
    let value = json_value(value)?;
    let scheme: Scheme = convert::scheme(py, &scheme)?;
    samekey::content_hash_json(scheme, &value)
        .map(|(_, h)| h.to_string())
        .py(py)
}

/// The content hash of JSON text's canonical form.
#[pyfunction]
#[pyo3(signature = (text, *, scheme = Text::v1()), text_signature = "(text, *, scheme='v1')")]
pub fn content_hash_json_text(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    scheme: Text,
) -> PyResult<String> {
    let text = convert::text_arg(text, "JSON text")?;
    let scheme: Scheme = convert::scheme(py, &scheme)?;
    samekey::content_hash_json_text(scheme, &text)
        .map(|(_, h)| h.to_string())
        .py(py)
}
