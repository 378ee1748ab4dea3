//! `samekey.Ulid`, `samekey.UlidDeriver` and `derive_ulid`.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString};
use samekey::{Error, Ulid, UlidDeriver};

use crate::convert;
use crate::convert::Text;
use crate::errors::{type_error, CoreResult};

/// A ULID: 48-bit millisecond timestamp and 80 bits. Immutable, hashable, ordered as
/// its text is; `str()` is the 26-character ULID text, `bytes()` the 16 bytes, `int()`
/// the 128-bit number. It equals its canonical (uppercase) text and hashes as that text
/// does, so ids and their text are interchangeable as dict keys. (python-ulid's ULID
/// hashes its bytes instead: there an id and its text are two keys.)
#[pyclass(name = "Ulid", module = "samekey", frozen)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PyUlid(pub Ulid);

#[pymethods]
impl PyUlid {
    /// Parses ULID text (either case).
    #[new]
    fn new(py: Python<'_>, text: Text) -> PyResult<Self> {
        text.parse().map(PyUlid).py(py)
    }

    #[staticmethod]
    fn parse(py: Python<'_>, text: Text) -> PyResult<Self> {
        Self::new(py, text)
    }

    #[staticmethod]
    fn from_bytes(py: Python<'_>, data: &[u8]) -> PyResult<Self> {
        let bytes: [u8; 16] = data
            .try_into()
            .or(Err(Error::InvalidUlid(format!(
                "{} bytes (a ULID is 16)",
                data.len()
            ))))
            .py(py)?;
        Ok(PyUlid(Ulid::from_bytes(bytes)))
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Ulid('{}')", self.0)
    }

    /// Ids compare by their bits (the order of their text); an id and a `str` are equal
    /// when the str is the id's canonical text. Anything else is not comparable.
    fn __richcmp__<'py>(
        &self,
        other: &Bound<'py, PyAny>,
        op: pyo3::basic::CompareOp,
    ) -> PyResult<Bound<'py, PyAny>> {
        use pyo3::basic::CompareOp;
        let py = other.py();
        if let Ok(id) = other.cast::<PyUlid>() {
            let result = op.matches(self.0.cmp(&id.get().0));
            return Ok(pyo3::types::PyBool::new(py, result).to_owned().into_any());
        }
        if let (Ok(text), CompareOp::Eq | CompareOp::Ne) = (other.cast::<PyString>(), op) {
            let same = text.to_str().is_ok_and(|t| t == self.0.to_string());
            let result = same == matches!(op, CompareOp::Eq);
            return Ok(pyo3::types::PyBool::new(py, result).to_owned().into_any());
        }
        Ok(py.NotImplemented().into_bound(py))
    }

    /// The hash of the canonical text, so that `hash(id) == hash(str(id))`.
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        PyString::new(py, &self.0.to_string()).hash()
    }

    /// The 128 bits as an unsigned integer.
    fn __int__(&self) -> u128 {
        u128::from_be_bytes(*self.0.as_bytes())
    }

    fn __bytes__<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.0.as_bytes())
    }

    /// The same 128 bits as a `uuid.UUID`.
    #[getter]
    fn uuid<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let kwargs = [("bytes", PyBytes::new(py, self.0.as_bytes()))].into_py_dict(py)?;
        py.import("uuid")?.getattr("UUID")?.call((), Some(&kwargs))
    }

    /// The timestamp: milliseconds since the Unix epoch.
    #[getter]
    fn timestamp_ms(&self) -> u64 {
        self.0.timestamp_ms()
    }

    /// The timestamp as an aware UTC `datetime`. A ULID's time reaches the year 10889;
    /// `datetime` ends with 9999: a later one is `timestamp_out_of_range`.
    #[getter]
    fn datetime<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let ms = self.0.timestamp_ms();
        let delta = py
            .import("datetime")?
            .getattr("timedelta")?
            .call1((0, 0, 0, ms))?;
        convert::epoch(py)?
            .call_method1("__add__", (delta,))
            .map_err(|e| {
                if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(py) {
                    crate::errors::to_py(
                        py,
                        samekey::Error::TimestampOutOfRange(format!(
                            "{ms} ms is after 9999-12-31T23:59:59.999Z, the last time a Python datetime holds"
                        )),
                    )
                } else {
                    e
                }
            })
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let ctor = py.get_type::<PyUlid>().getattr("from_bytes")?;
        Ok((ctor, (PyBytes::new(py, self.0.as_bytes()),)))
    }
}

use pyo3::types::IntoPyDict;

/// Derives ULIDs for one scheme, namespace and secret: the inputs are checked and the
/// hash prepared once, then each id costs only its fields.
#[pyclass(name = "UlidDeriver", module = "samekey", frozen)]
pub struct PyUlidDeriver {
    inner: UlidDeriver,
    /// For `repr()`: the namespace as given. The secret is never shown.
    namespace: String,
    keyed: bool,
}

fn output(py: Python<'_>, ids: Vec<Ulid>, as_str: bool) -> PyResult<Bound<'_, PyList>> {
    if as_str {
        PyList::new(py, ids.iter().map(|id| PyString::new(py, &id.to_string())))
    } else {
        PyList::new(py, ids.into_iter().map(PyUlid))
    }
}

#[pymethods]
impl PyUlidDeriver {
    #[new]
    #[pyo3(signature = (scheme = Text::v1(), namespace = None, secret = None), text_signature = "(scheme='v1', namespace=None, secret=None)")]
    fn new(
        py: Python<'_>,
        scheme: Text,
        namespace: Option<&Bound<'_, PyAny>>,
        secret: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let scheme = convert::scheme(py, &scheme)?;
        let namespace = convert::namespace(namespace)?;
        let secret = convert::secret(secret)?;
        let inner = UlidDeriver::new(scheme, &namespace, secret.as_deref()).py(py)?;
        Ok(PyUlidDeriver {
            inner,
            namespace,
            keyed: secret.is_some(),
        })
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let secret = if self.keyed { ", secret=<hidden>" } else { "" };
        let namespace = PyString::new(py, &self.namespace).repr()?;
        Ok(format!(
            "UlidDeriver(scheme='{}', namespace={namespace}{secret})",
            self.inner.scheme()
        ))
    }

    /// The scheme ids are derived under.
    #[getter]
    fn scheme(&self) -> &'static str {
        self.inner.scheme().as_str()
    }

    /// The id of `fields` at `time` (or `time_ms`).
    #[pyo3(signature = (fields, *, time = None, time_ms = None))]
    fn derive(
        &self,
        py: Python<'_>,
        fields: &Bound<'_, PyAny>,
        time: Option<&Bound<'_, PyAny>>,
        time_ms: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyUlid> {
        // Host conversions, the strings before the time (spec §2.2), then the range.
        let items = convert::field_items(fields)?;
        let fields = convert::fields(&items)?;
        let t = convert::time_arg(py, time, time_ms)?.check().py(py)?;
        self.inner.derive(t, &fields).map(PyUlid).py(py)
    }

    /// Ids of many rows given as columns: `derive_many(times, slugs, langs)`. Returns a
    /// list of `Ulid`, or of `str` with `as_str=True`. The hashing runs without the GIL,
    /// on up to `threads` threads (default: every core) for batches of
    /// `PARALLEL_MIN_ROWS` rows or more.
    #[pyo3(signature = (times, *columns, as_str = false, threads = None))]
    fn derive_many<'py>(
        &self,
        py: Python<'py>,
        times: &Bound<'py, PyAny>,
        columns: Vec<Bound<'py, PyAny>>,
        as_str: bool,
        threads: Option<usize>,
    ) -> PyResult<Bound<'py, PyList>> {
        let threads = crate::arrow::threads_arg(threads)?;
        if columns.is_empty() {
            return Err(Error::NoFields).py(py);
        }
        let times: Vec<u64> = times
            .try_iter()?
            .map(|t| convert::checked_time(&t?))
            .collect::<PyResult<_>>()?;
        let n = times.len();
        // Row-major: the fields of row r are items[r * width..(r + 1) * width].
        let width = columns.len();
        let mut items: Vec<Option<Bound<'py, PyAny>>> = vec![None; n * width];
        for (c, column) in columns.iter().enumerate() {
            let mut count = 0;
            for value in column.try_iter()? {
                let value = value?;
                if count < n {
                    items[count * width + c] = Some(value);
                }
                count += 1;
            }
            if count != n {
                return Err(type_error(format!(
                    "column {c} has {count} values but there are {n} times"
                )));
            }
        }
        let items: Vec<Bound<'py, PyAny>> = items.into_iter().flatten().collect();
        let fields = convert::fields(&items)?;
        let deriver = &self.inner;
        let ids = py
            .detach(|| {
                let mut ids = Vec::with_capacity(n);
                deriver
                    .derive_batch(&times, &fields, width, threads, &mut ids)
                    .map(|()| ids)
            })
            .py(py)?;
        output(py, ids, as_str)
    }

    /// Ids of Arrow columns, with no Python object per row: `times` is a timestamp
    /// column with a time zone (any unit, floored to the millisecond) or int64
    /// milliseconds; each of `columns` is utf8, large_utf8, string_view, binary,
    /// large_binary or binary_view. Any object with `__arrow_c_array__` or
    /// `__arrow_c_stream__` will do (pyarrow arrays and chunked arrays, Polars Series,
    /// ...). Returns an `ArrowArray` of ULID text (utf8), or of the 16 bytes
    /// (fixed_size_binary(16)) with `binary=True`. A null input is an error naming its
    /// row, or, with `nulls="propagate"`, a null id.
    #[pyo3(signature = (times, *columns, binary = false, nulls = "error", threads = None))]
    fn derive_arrow(
        &self,
        py: Python<'_>,
        times: &Bound<'_, PyAny>,
        columns: Vec<Bound<'_, PyAny>>,
        binary: bool,
        nulls: &str,
        threads: Option<usize>,
    ) -> PyResult<crate::arrow::PyArrowArray> {
        crate::arrow::derive_arrow(py, &self.inner, times, &columns, binary, nulls, threads)
    }

    /// Ids of many records (mappings): `derive_records(rows, time="publishedAt",
    /// fields=["slug", "lang"])`.
    #[pyo3(signature = (records, *, time, fields, as_str = false))]
    fn derive_records<'py>(
        &self,
        py: Python<'py>,
        records: &Bound<'py, PyAny>,
        time: Text,
        fields: Vec<Text>,
        as_str: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let mut ids = Vec::new();
        for record in records.try_iter()? {
            let record = record?;
            let t = convert::checked_time(&record.get_item(&*time)?)?;
            let items: Vec<Bound<'py, PyAny>> = fields
                .iter()
                .map(|name| record.get_item(&**name))
                .collect::<PyResult<_>>()?;
            ids.push(self.inner.derive(t, &convert::fields(&items)?).py(py)?);
        }
        output(py, ids, as_str)
    }
}

/// The deterministic ULID of `fields` at `time` (spec §4).
#[pyfunction]
#[pyo3(signature = (fields, *, time = None, time_ms = None, namespace = None, scheme = Text::v1(), secret = None), text_signature = "(fields, *, time=None, time_ms=None, namespace=None, scheme='v1', secret=None)")]
pub fn derive_ulid(
    py: Python<'_>,
    fields: &Bound<'_, PyAny>,
    time: Option<&Bound<'_, PyAny>>,
    time_ms: Option<&Bound<'_, PyAny>>,
    namespace: Option<&Bound<'_, PyAny>>,
    scheme: Text,
    secret: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyUlid> {
    // Host conversions first (text and bytes, then the time: spec §2.2), then the checks
    // in spec §4.4's order.
    let namespace = convert::namespace(namespace)?;
    let secret = convert::secret(secret)?;
    let items = convert::field_items(fields)?;
    let fields = convert::fields(&items)?;
    let t = convert::time_arg(py, time, time_ms)?;
    let scheme = convert::scheme(py, &scheme)?;
    let t = t.check_for(scheme, &namespace, secret.as_deref()).py(py)?;
    samekey::derive_ulid(scheme, t, &namespace, &fields, secret.as_deref())
        .map(PyUlid)
        .py(py)
}

/// `Ulid` or ULID text.
pub fn ulid_arg(obj: &Bound<'_, PyAny>) -> PyResult<Ulid> {
    if let Ok(id) = obj.cast::<PyUlid>() {
        return Ok(id.get().0);
    }
    convert::text_arg(obj, "an id")?.parse().py(obj.py())
}

/// The exact bytes hashed for a ULID (spec §4.2, §4.3), to debug a mismatch.
#[pyfunction]
#[pyo3(signature = (fields, *, namespace = None, scheme = Text::v1()), text_signature = "(fields, *, namespace=None, scheme='v1')")]
pub fn ulid_message<'py>(
    py: Python<'py>,
    fields: &Bound<'py, PyAny>,
    namespace: Option<&Bound<'py, PyAny>>,
    scheme: Text,
) -> PyResult<Bound<'py, PyBytes>> {
    let scheme = convert::scheme(py, &scheme)?;
    let namespace = convert::namespace(namespace)?;
    let items = convert::field_items(fields)?;
    let message = samekey::ulid_message(scheme, &namespace, &convert::fields(&items)?).py(py)?;
    Ok(PyBytes::new(py, &message))
}
