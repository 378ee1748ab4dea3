//! Revision keys, the key ring, and the two guards (`verify`, `needs_write`).

use pyo3::prelude::*;
use pyo3::types::PyList;
use samekey::{ContentHash, KeyRing, Scheme};

use crate::convert;
use crate::errors::CoreResult;
use crate::ulid::{ulid_arg, PyUlid};

fn content_hash_arg(py: Python<'_>, text: &str) -> PyResult<ContentHash> {
    text.parse().py(py)
}

fn parent_arg(parent: Option<&Bound<'_, PyAny>>) -> PyResult<Option<String>> {
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
    content_hash: &str,
    parent: Option<&Bound<'_, PyAny>>,
    scheme: Option<&str>,
    secret: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let scheme = scheme.map(|s| convert::scheme(py, s)).transpose()?;
    let content = content_hash_arg(py, content_hash)?;
    let parent = parent_arg(parent)?;
    let secret = convert::secret(secret)?;
    samekey::derive_revision(
        samekey::revision_scheme(scheme, &content),
        parent.as_deref(),
        &content,
        secret.as_deref(),
    )
    .map(|k| k.to_string())
    .py(py)
}

/// Whether `incoming` content must be written over `stored` (spec §9.3).
#[pyfunction]
pub fn needs_write(py: Python<'_>, stored: Option<&str>, incoming: &str) -> PyResult<bool> {
    let stored = stored.map(|s| content_hash_arg(py, s)).transpose()?;
    Ok(samekey::needs_write(
        stored.as_ref(),
        &content_hash_arg(py, incoming)?,
    ))
}

/// Milliseconds since the epoch of RFC 3339 text (spec §8.1).
#[pyfunction]
pub fn parse_rfc3339(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<u64> {
    samekey::parse_rfc3339(&convert::text_arg(text, "timestamp")?).py(py)
}

/// Derives under a primary scheme and recognises the accepted ones (spec §9).
#[pyclass(name = "KeyRing", module = "samekey", frozen)]
pub struct PyKeyRing {
    inner: KeyRing,
}

struct IdInputs {
    t: u64,
    namespace: String,
    fields: Vec<Vec<u8>>,
    secret: Option<Vec<u8>>,
}

fn id_inputs(
    fields: &Bound<'_, PyAny>,
    time: &Bound<'_, PyAny>,
    namespace: Option<&Bound<'_, PyAny>>,
    secret: Option<&Bound<'_, PyAny>>,
) -> PyResult<IdInputs> {
    Ok(IdInputs {
        namespace: convert::namespace(namespace)?,
        secret: convert::secret(secret)?,
        t: convert::time(time)?,
        fields: convert::fields(&convert::field_items(fields)?)?
            .iter()
            .map(|f| f.as_ref().to_vec())
            .collect(),
    })
}

#[pymethods]
impl PyKeyRing {
    #[new]
    #[pyo3(signature = (primary, accepted = Vec::new()))]
    fn new(py: Python<'_>, primary: &str, accepted: Vec<String>) -> PyResult<Self> {
        let primary = convert::scheme(py, primary)?;
        let accepted: Vec<Scheme> = accepted
            .iter()
            .map(|s| convert::scheme(py, s))
            .collect::<PyResult<_>>()?;
        Ok(PyKeyRing {
            inner: KeyRing::new(primary, &accepted).py(py)?,
        })
    }

    /// The ring of ``accept``, newest first: the first is the primary. An empty list
    /// raises ``SamekeyError`` with code ``unknown_scheme``.
    #[staticmethod]
    fn from_accept(py: Python<'_>, accept: Vec<String>) -> PyResult<Self> {
        let accept: Vec<Scheme> = accept
            .iter()
            .map(|s| convert::scheme(py, s))
            .collect::<PyResult<_>>()?;
        Ok(PyKeyRing {
            inner: KeyRing::from_accept(&accept).py(py)?,
        })
    }

    #[getter]
    fn primary(&self) -> &'static str {
        self.inner.primary().as_str()
    }

    /// The accepted schemes, primary first.
    #[getter]
    fn accepted(&self) -> Vec<&'static str> {
        self.inner.accepted().iter().map(|s| s.as_str()).collect()
    }

    #[pyo3(signature = (fields, *, time, namespace = None, secret = None))]
    fn derive_ulid(
        &self,
        py: Python<'_>,
        fields: &Bound<'_, PyAny>,
        time: &Bound<'_, PyAny>,
        namespace: Option<&Bound<'_, PyAny>>,
        secret: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyUlid> {
        let i = id_inputs(fields, time, namespace, secret)?;
        self.inner
            .derive_ulid(i.t, &i.namespace, &i.fields, i.secret.as_deref())
            .map(PyUlid)
            .py(py)
    }

    /// `[(scheme, Ulid), ...]` under every accepted scheme that can take the inputs.
    #[pyo3(signature = (fields, *, time, namespace = None, secret = None))]
    fn candidate_ulids(
        &self,
        py: Python<'_>,
        fields: &Bound<'_, PyAny>,
        time: &Bound<'_, PyAny>,
        namespace: Option<&Bound<'_, PyAny>>,
        secret: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<(&'static str, PyUlid)>> {
        let i = id_inputs(fields, time, namespace, secret)?;
        let found = self
            .inner
            .candidate_ulids(i.t, &i.namespace, &i.fields, i.secret.as_deref())
            .py(py)?;
        Ok(found
            .into_iter()
            .map(|(s, id)| (s.as_str(), PyUlid(id)))
            .collect())
    }

    /// The scheme that derived `ulid` from these inputs, or `identity_mismatch`.
    #[pyo3(signature = (ulid, fields, *, time, namespace = None, secret = None))]
    fn verify_ulid(
        &self,
        py: Python<'_>,
        ulid: &Bound<'_, PyAny>,
        fields: &Bound<'_, PyAny>,
        time: &Bound<'_, PyAny>,
        namespace: Option<&Bound<'_, PyAny>>,
        secret: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<&'static str> {
        let id = ulid_arg(ulid)?;
        let i = id_inputs(fields, time, namespace, secret)?;
        let scheme = self
            .inner
            .verify_ulid(&id, i.t, &i.namespace, &i.fields, i.secret.as_deref())
            .py(py)?;
        Ok(scheme.as_str())
    }

    fn content_hash(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<String> {
        crate::content::content_hash(py, data, self.inner.primary().as_str())
    }

    /// The content hash of bytes under every accepted scheme that hashes content.
    fn content_hashes<'py>(&self, py: Python<'py>, data: &[u8]) -> PyResult<Bound<'py, PyList>> {
        let hashes = self.inner.content_hashes(data).py(py)?;
        PyList::new(py, hashes.iter().map(|h| h.to_string()))
    }

    #[pyo3(signature = (content_hash, *, parent = None, secret = None))]
    fn revision_key(
        &self,
        py: Python<'_>,
        content_hash: &str,
        parent: Option<&Bound<'_, PyAny>>,
        secret: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let content = content_hash_arg(py, content_hash)?;
        let parent = parent_arg(parent)?;
        let secret = convert::secret(secret)?;
        self.inner
            .derive_revision(parent.as_deref(), &content, secret.as_deref())
            .map(|k| k.to_string())
            .py(py)
    }

    /// The accepted scheme of a revision key or content hash text.
    fn scheme_of_key(&self, py: Python<'_>, key: &str) -> PyResult<&'static str> {
        self.inner.scheme_of_key(key).map(|s| s.as_str()).py(py)
    }

    fn __repr__(&self) -> String {
        format!(
            "KeyRing(primary={:?}, accepted={:?})",
            self.primary(),
            self.accepted()
        )
    }
}

/// The exact bytes hashed for a revision key (spec §7.2).
#[pyfunction]
#[pyo3(signature = (content_hash, *, parent = None, scheme = None))]
pub fn revision_message<'py>(
    py: Python<'py>,
    content_hash: &str,
    parent: Option<&Bound<'py, PyAny>>,
    scheme: Option<&str>,
) -> PyResult<Bound<'py, pyo3::types::PyBytes>> {
    let scheme = scheme.map(|s| convert::scheme(py, s)).transpose()?;
    let content = content_hash_arg(py, content_hash)?;
    let parent = parent_arg(parent)?;
    let message = samekey::revision_message(
        samekey::revision_scheme(scheme, &content),
        parent.as_deref(),
        &content,
    )
    .py(py)?;
    Ok(pyo3::types::PyBytes::new(py, &message))
}

/// `(kind, scheme, canonical text)` of a revision key or content hash text.
#[pyfunction]
pub fn parse_key(py: Python<'_>, text: &str) -> PyResult<(&'static str, &'static str, String)> {
    let key: samekey::Key = text.parse().py(py)?;
    Ok((key.kind(), key.scheme().as_str(), key.to_string()))
}
