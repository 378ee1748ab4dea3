//! The native half of the `samekey` Python package (`samekey._samekey`). It only converts
//! types; every rule is in the core crate.

mod arrow;
mod content;
mod convert;
mod errors;
mod keyring;
mod revision;
mod time;
mod ulid;

use pyo3::prelude::*;

#[pymodule]
fn _samekey(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", samekey::VERSION)?;
    m.add("SELFTEST_VECTORS", samekey::SELFTEST_VECTORS)?;
    m.add("ERROR_CODES", samekey::Error::CODES.to_vec())?;
    m.add("MAX_TIMESTAMP_MS", samekey::timestamp::MAX_MS)?;
    m.add("PARALLEL_MIN_ROWS", samekey::PARALLEL_MIN_ROWS)?;
    m.add_class::<ulid::PyUlid>()?;
    m.add_class::<ulid::PyUlidDeriver>()?;
    m.add_class::<content::PyContentHasher>()?;
    m.add_class::<keyring::PyKeyRing>()?;
    m.add_class::<arrow::PyArrowArray>()?;
    m.add_function(wrap_pyfunction!(ulid::derive_ulid, m)?)?;
    m.add_function(wrap_pyfunction!(content::content_hash, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::content_hash_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::derive_ulids_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(content::canonical_json, m)?)?;
    m.add_function(wrap_pyfunction!(content::canonical_json_text, m)?)?;
    m.add_function(wrap_pyfunction!(content::content_hash_json, m)?)?;
    m.add_function(wrap_pyfunction!(content::content_hash_json_text, m)?)?;
    m.add_function(wrap_pyfunction!(revision::revision_key, m)?)?;
    m.add_function(wrap_pyfunction!(revision::needs_write, m)?)?;
    m.add_function(wrap_pyfunction!(time::parse_rfc3339, m)?)?;
    m.add_function(wrap_pyfunction!(revision::revision_message, m)?)?;
    m.add_function(wrap_pyfunction!(revision::parse_key, m)?)?;
    m.add_function(wrap_pyfunction!(ulid::ulid_message, m)?)?;
    Ok(())
}
