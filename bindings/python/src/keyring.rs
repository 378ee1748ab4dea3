//! The key ring: derive under one scheme, recognise the accepted ones (spec §9).

use pyo3::prelude::*;
use pyo3::types::PyList;
use samekey::timestamp::Millis;
use samekey::KeyRing;

use crate::convert;
use crate::convert::Text;
use crate::errors::CoreResult;
use crate::revision::{content_hash_arg, parent_arg};
use crate::ulid::{ulid_arg, PyUlid};

/// Derives under a primary scheme and recognises the accepted ones (spec §9).
#[pyclass(name = "KeyRing", module = "samekey", frozen)]
pub struct PyKeyRing {
    inner: KeyRing,
}

struct IdInputs {
    t: Millis,
    namespace: String,
    fields: Vec<Vec<u8>>,
    secret: Option<Vec<u8>>,
}

fn id_inputs(
    fields: &Bound<'_, PyAny>,
    (time, time_ms): (Option<&Bound<'_, PyAny>>, Option<&Bound<'_, PyAny>>),
    namespace: Option<&Bound<'_, PyAny>>,
    secret: Option<&Bound<'_, PyAny>>,
) -> PyResult<IdInputs> {
    let fields_py = fields.py();
    // Host conversions: the strings, then the time (spec §2.2, §4.4).
    let namespace = convert::namespace(namespace)?;
    let fields = convert::fields(&convert::field_items(fields)?)?
        .iter()
        .map(|f| f.as_ref().to_vec())
        .collect();
    let secret = convert::secret(secret)?;
    let t = convert::time_arg(fields_py, time, time_ms)?;
    Ok(IdInputs {
        t,
        namespace,
        fields,
        secret,
    })
}

impl IdInputs {
    /// The time's range, checked after the primary's scheme, secret and namespace checks
    /// (spec §4.4).
    fn time(&self, py: Python<'_>, ring: &KeyRing) -> PyResult<u64> {
        self.t
            .check_for(ring.primary(), &self.namespace, self.secret.as_deref())
            .py(py)
    }
}

#[pymethods]
impl PyKeyRing {
    #[new]
    #[pyo3(signature = (primary, accepted = Vec::new()))]
    fn new(py: Python<'_>, primary: Text, accepted: Vec<Text>) -> PyResult<Self> {
        let names: Vec<&str> = std::iter::once(&*primary)
            .chain(accepted.iter().map(|s| &**s))
            .collect();
        Ok(PyKeyRing {
            inner: samekey::host::ring(&names).py(py)?,
        })
    }

    /// The ring of ``accept``, newest first: the first is the primary. An empty list
    /// raises ``SamekeyError`` with code ``unknown_scheme``.
    #[staticmethod]
    fn from_accept(py: Python<'_>, accept: Vec<Text>) -> PyResult<Self> {
        let names: Vec<&str> = accept.iter().map(|s| &**s).collect();
        Ok(PyKeyRing {
            inner: samekey::host::ring(&names).py(py)?,
        })
    }

    /// The scheme new ids and keys are derived under.
    #[getter]
    fn primary(&self) -> &'static str {
        self.inner.primary().as_str()
    }

    /// The accepted schemes, primary first.
    #[getter]
    fn accepted(&self) -> Vec<&'static str> {
        self.inner.accepted().iter().map(|s| s.as_str()).collect()
    }

    /// The id of `fields` at `time` under the primary scheme.
    #[pyo3(signature = (fields, *, time = None, time_ms = None, namespace = None, secret = None))]
    fn derive_ulid(
        &self,
        py: Python<'_>,
        fields: &Bound<'_, PyAny>,
        time: Option<&Bound<'_, PyAny>>,
        time_ms: Option<&Bound<'_, PyAny>>,
        namespace: Option<&Bound<'_, PyAny>>,
        secret: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyUlid> {
        let i = id_inputs(fields, (time, time_ms), namespace, secret)?;
        self.inner
            .derive_ulid(
                i.time(py, &self.inner)?,
                &i.namespace,
                &i.fields,
                i.secret.as_deref(),
            )
            .map(PyUlid)
            .py(py)
    }

    /// `[(scheme, Ulid), ...]` under every accepted scheme that can take the inputs.
    #[pyo3(signature = (fields, *, time = None, time_ms = None, namespace = None, secret = None))]
    fn candidate_ulids(
        &self,
        py: Python<'_>,
        fields: &Bound<'_, PyAny>,
        time: Option<&Bound<'_, PyAny>>,
        time_ms: Option<&Bound<'_, PyAny>>,
        namespace: Option<&Bound<'_, PyAny>>,
        secret: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<(&'static str, PyUlid)>> {
        let i = id_inputs(fields, (time, time_ms), namespace, secret)?;
        let found = self
            .inner
            .candidate_ulids(
                i.time(py, &self.inner)?,
                &i.namespace,
                &i.fields,
                i.secret.as_deref(),
            )
            .py(py)?;
        Ok(found
            .into_iter()
            .map(|(s, id)| (s.as_str(), PyUlid(id)))
            .collect())
    }

    /// The scheme that derived `ulid` from these inputs, or `identity_mismatch`.
    #[pyo3(signature = (ulid, fields, *, time = None, time_ms = None, namespace = None, secret = None))]
    // One Rust argument per Python keyword argument: the count is the Python signature's.
    #[allow(clippy::too_many_arguments)]
    fn verify_ulid(
        &self,
        py: Python<'_>,
        ulid: &Bound<'_, PyAny>,
        fields: &Bound<'_, PyAny>,
        time: Option<&Bound<'_, PyAny>>,
        time_ms: Option<&Bound<'_, PyAny>>,
        namespace: Option<&Bound<'_, PyAny>>,
        secret: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<&'static str> {
        // The id first: its conversion is a string's, before the time's (spec §2.2, §9.2).
        let id = ulid_arg(ulid)?;
        let i = id_inputs(fields, (time, time_ms), namespace, secret)?;
        let scheme = self
            .inner
            .verify_ulid(
                &id,
                i.time(py, &self.inner)?,
                &i.namespace,
                &i.fields,
                i.secret.as_deref(),
            )
            .py(py)?;
        Ok(scheme.as_str())
    }

    /// The content hash of `data` (bytes, str, a file object or a path) under the primary.
    fn content_hash(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<String> {
        crate::content::content_hash(py, data, Text(self.inner.primary().as_str().into()))
    }

    /// The content hash of bytes under every accepted scheme that hashes content.
    fn content_hashes<'py>(&self, py: Python<'py>, data: &[u8]) -> PyResult<Bound<'py, PyList>> {
        let hashes = self.inner.content_hashes(data).py(py)?;
        PyList::new(py, hashes.iter().map(|h| h.to_string()))
    }

    /// The revision key of content on `parent` (None: a root) under the content hash's
    /// scheme, which the ring must accept (`scheme_not_accepted`).
    #[pyo3(signature = (content_hash, *, parent = None, secret = None))]
    fn revision_key(
        &self,
        py: Python<'_>,
        content_hash: Text,
        parent: Option<&Bound<'_, PyAny>>,
        secret: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let parent = parent_arg(parent)?;
        let secret = convert::secret(secret)?;
        let content = content_hash_arg(py, &content_hash)?;
        self.inner
            .derive_revision(parent.as_deref(), &content, secret.as_deref())
            .map(|k| k.to_string())
            .py(py)
    }

    /// The accepted scheme of a revision key or content hash text.
    fn scheme_of_key(&self, py: Python<'_>, key: Text) -> PyResult<&'static str> {
        self.inner.scheme_of_key(&key).map(|s| s.as_str()).py(py)
    }

    fn __repr__(&self) -> String {
        format!(
            "KeyRing(primary={:?}, accepted={:?})",
            self.primary(),
            self.accepted()
        )
    }
}
