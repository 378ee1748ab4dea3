//! Times as samekey reads them.

use pyo3::prelude::*;

use crate::convert;
use crate::errors::CoreResult;

/// Milliseconds since the epoch of RFC 3339 text (spec §8.1).
#[pyfunction]
pub fn parse_rfc3339(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<u64> {
    samekey::parse_rfc3339(&convert::text_arg(text, "timestamp")?).py(py)
}
