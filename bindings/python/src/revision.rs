//! Revision keys, the write guard, and key texts.

use pyo3::prelude::*;
use samekey::ContentHash;

use crate::convert;
use crate::convert::Text;
use crate::errors::CoreResult;

pub(crate) fn content_hash_arg(py: Python<'_>, text: &str) -> PyResult<ContentHash> {
    text.parse().py(py)
}

pub(crate) fn parent_arg(parent: Option<&Bound<'_, PyAny>>) -> PyResult<Option<String>> {
    match parent {
        Some(p) if !p.is_none() => convert::text_arg(p, "parent").map(Some),
        _ => Ok(None),
    }
}

/// The revision key of content on a parent revision (spec §7). `scheme` defaults to the
/// content hash's own (`sha256:` is v1, `blake3:` v2).
#[pyfunction]
#[pyo3(signature = (content_hash, *, parent = None, scheme = None, secret = None))]
pub fn revision_key(
    py: Python<'_>,
    content_hash: Text,
    parent: Option<&Bound<'_, PyAny>>,
    scheme: Option<Text>,
    secret: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    // The parent's text is a host conversion: before §7.3's checks.
    let parent = parent_arg(parent)?;
    let secret = convert::secret(secret)?;
    let (scheme, content) =
        samekey::host::revision_inputs(&content_hash, scheme.as_deref()).py(py)?;
    samekey::derive_revision(scheme, parent.as_deref(), &content, secret.as_deref())
        .map(|k| k.to_string())
        .py(py)
}

/// Whether `incoming` content must be written over `stored` (spec §9.3).
#[pyfunction]
pub fn needs_write(py: Python<'_>, stored: Option<Text>, incoming: Text) -> PyResult<bool> {
    samekey::host::needs_write(stored.as_deref(), &incoming).py(py)
}

/// The exact bytes hashed for a revision key (spec §7.2).
#[pyfunction]
#[pyo3(signature = (content_hash, *, parent = None, scheme = None))]
pub fn revision_message<'py>(
    py: Python<'py>,
    content_hash: Text,
    parent: Option<&Bound<'py, PyAny>>,
    scheme: Option<Text>,
) -> PyResult<Bound<'py, pyo3::types::PyBytes>> {
    let parent = parent_arg(parent)?;
    let (scheme, content) =
        samekey::host::revision_inputs(&content_hash, scheme.as_deref()).py(py)?;
    let message = samekey::revision_message(scheme, parent.as_deref(), &content).py(py)?;
    Ok(pyo3::types::PyBytes::new(py, &message))
}

/// `(kind, scheme, canonical text)` of a revision key or content hash text.
#[pyfunction]
pub fn parse_key(py: Python<'_>, text: Text) -> PyResult<(&'static str, &'static str, String)> {
    let key: samekey::Key = text.parse().py(py)?;
    Ok((key.kind(), key.scheme().as_str(), key.to_string()))
}
