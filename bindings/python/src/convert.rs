//! Python values into the core's types. Every conversion rule of spec §2.2, §6.2 and §8.2
//! that a host must apply is here, and only here.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple,
};
use samekey::timestamp::Millis;
use samekey::{Error, Scheme, Value};

use crate::errors::{type_error, CoreResult};

pub fn scheme(py: Python<'_>, name: &str) -> PyResult<Scheme> {
    name.parse().py(py)
}

/// A `str` argument as valid Unicode. A lone surrogate is `SamekeyError` `invalid_string`
/// (spec §2.2) wherever text goes, scheme names and key texts included, where pyo3's own
/// `&str` would raise `UnicodeEncodeError`.
pub struct Text(pub String);

impl Text {
    /// The default scheme name.
    pub fn v1() -> Text {
        Text("v1".into())
    }
}

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Text {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let obj = obj.to_owned();
        match obj.cast::<PyString>() {
            Ok(s) => Ok(Text(text(s)?.to_owned())),
            Err(_) => Err(type_error(format!("expected str, not {}", type_name(&obj)))),
        }
    }
}

/// A `str` as UTF-8, borrowed from the string object; a lone surrogate is
/// `invalid_string`, never replaced.
pub fn text<'a>(s: &'a Bound<'_, PyString>) -> PyResult<&'a str> {
    s.to_str().or(Err(Error::InvalidString(None))).py(s.py())
}

pub fn text_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    match obj.cast::<PyString>() {
        Ok(s) => Ok(text(s)?.to_owned()),
        Err(_) => Err(type_error(format!(
            "{what} must be str, not {}",
            type_name(obj)
        ))),
    }
}

/// The namespace argument: `str`, or `None` for the empty namespace.
pub fn namespace(obj: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
    match obj {
        Some(o) if !o.is_none() => text_arg(o, "namespace"),
        _ => Ok(String::new()),
    }
}

pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// One identity field's bytes, borrowed from an immutable `str`/`bytes` or copied
/// from a `bytearray` (which could change while the GIL is released).
pub enum FieldBytes<'a> {
    Borrowed(&'a [u8]),
    Owned(Vec<u8>),
}

impl AsRef<[u8]> for FieldBytes<'_> {
    fn as_ref(&self) -> &[u8] {
        match self {
            FieldBytes::Borrowed(b) => b,
            FieldBytes::Owned(v) => v,
        }
    }
}

/// One identity field: `str` (its UTF-8 bytes) or `bytes`/`bytearray` (as they are).
pub fn field<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<FieldBytes<'a>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(FieldBytes::Borrowed(text(s)?.as_bytes()));
    }
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(FieldBytes::Borrowed(b.as_bytes()));
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(FieldBytes::Owned(b.to_vec()));
    }
    Err(type_error(format!(
        "a field must be str, bytes or bytearray, not {}",
        type_name(obj)
    )))
}

/// The items of a field sequence. A lone `str` or `bytes` is refused: iterating it would
/// make one field per character, a silent and permanent change of every id.
pub fn field_items<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<PyByteArray>()
    {
        return Err(type_error(format!(
            "fields must be a sequence of str/bytes such as a list, not a single {}",
            type_name(obj)
        )));
    }
    if let Ok(list) = obj.cast::<PyList>() {
        return Ok(list.iter().collect());
    }
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        return Ok(tuple.iter().collect());
    }
    obj.try_iter()
        .map_err(|_| {
            type_error(format!(
                "fields must be a sequence of str/bytes, not {}",
                type_name(obj)
            ))
        })?
        .collect()
}

/// The bytes of every item of `items` (from [`field_items`]).
pub fn fields<'a>(items: &'a [Bound<'_, PyAny>]) -> PyResult<Vec<FieldBytes<'a>>> {
    items.iter().map(field).collect()
}

pub fn secret(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Vec<u8>>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => match o.cast::<PyBytes>() {
            Ok(b) => Ok(Some(b.as_bytes().to_vec())),
            Err(_) => match o.cast::<PyByteArray>() {
                Ok(b) => Ok(Some(b.to_vec())),
                Err(_) => Err(type_error(format!(
                    "secret must be bytes, not {}",
                    type_name(o)
                ))),
            },
        },
    }
}

static DATETIME: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static EPOCH: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

fn datetime_type(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    DATETIME
        .get_or_try_init(py, || {
            Ok::<_, PyErr>(py.import("datetime")?.getattr("datetime")?.unbind())
        })
        .map(|t| t.bind(py))
}

/// 1970-01-01T00:00:00+00:00 as an aware `datetime`.
pub fn epoch(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    EPOCH
        .get_or_try_init(py, || {
            let dt = py.import("datetime")?;
            let utc = dt.getattr("timezone")?.getattr("utc")?;
            Ok::<_, PyErr>(
                dt.getattr("datetime")?
                    .call1((1970, 1, 1, 0, 0, 0, 0, utc))?
                    .unbind(),
            )
        })
        .map(|t| t.bind(py))
}

/// A time as integer milliseconds (spec §8.2): an aware `datetime` (floored to the
/// millisecond), an `int`, or RFC 3339 text. A naive `datetime`, a `float` or a `bool` is
/// `invalid_timestamp`. The range is not checked here: spec §4.4 checks it after the
/// scheme, secret and namespace ([`Millis::check`]).
pub fn time(obj: &Bound<'_, PyAny>) -> PyResult<Millis> {
    let py = obj.py();
    if obj.is_instance_of::<PyBool>() {
        return Err(Error::InvalidTimestamp("a bool is not a time".into())).py(py);
    }
    if let Ok(i) = obj.cast::<PyInt>() {
        // Beyond i128 is out of range anyway; saturating keeps the sign for the message.
        let ms = match i.extract::<i128>() {
            Ok(ms) => ms,
            Err(_) if i.lt(0)? => i128::MIN,
            Err(_) => i128::MAX,
        };
        warn_if_seconds(py, ms)?;
        return Ok(Millis::new(ms));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return samekey::timestamp::rfc3339_millis(text(s)?).py(py);
    }
    if obj.is_instance_of::<PyFloat>() {
        let why = format!(
            "{obj} is a float: pass integer milliseconds, an aware datetime or RFC 3339 text"
        );
        return Err(Error::InvalidTimestamp(why)).py(py);
    }
    if obj.is_instance(datetime_type(py)?)? {
        if obj.call_method0("utcoffset")?.is_none() {
            let why = format!("{obj} is a naive datetime: give it a tzinfo (ids must not depend on the machine's time zone)");
            return Err(Error::InvalidTimestamp(why)).py(py);
        }
        let delta = obj.call_method1("__sub__", (epoch(py)?,))?;
        let days: i128 = delta.getattr("days")?.extract()?;
        let seconds: i128 = delta.getattr("seconds")?.extract()?;
        let micros: i128 = delta.getattr("microseconds")?.extract()?;
        // seconds and microseconds are never negative, so this division floors.
        return Ok(Millis::new(
            days * 86_400_000 + seconds * 1000 + micros / 1000,
        ));
    }
    Err(type_error(format!(
        "a time is an aware datetime, int milliseconds or RFC 3339 str, not {}",
        type_name(obj)
    )))
}

/// A time that looks like seconds given as milliseconds (samekey::host decides) is valid,
/// so it is a warning, not an error.
fn warn_if_seconds(py: Python<'_>, ms: i128) -> PyResult<()> {
    let Some(warning) = u64::try_from(ms)
        .ok()
        .and_then(samekey::host::seconds_warning)
    else {
        return Ok(());
    };
    let category = py.import("samekey._errors")?.getattr("SecondsWarning")?;
    let message = format!("{warning} (time={}) or an aware datetime", ms * 1000);
    let message = std::ffi::CString::new(message).unwrap_or_default();
    PyErr::warn(py, &category, &message, 2)
}

/// [`time`] with its range checked, where nothing else is checked before it.
pub fn checked_time(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    time(obj)?.check().py(obj.py())
}

/// The time of a call that takes `time=` (a datetime, RFC 3339 text, or int milliseconds)
/// or `time_ms=` (int milliseconds, named so: no warning), exactly one of them.
pub fn time_arg(
    py: Python<'_>,
    time_value: Option<&Bound<'_, PyAny>>,
    time_ms: Option<&Bound<'_, PyAny>>,
) -> PyResult<Millis> {
    match (time_value, time_ms) {
        (Some(t), None) => time(t),
        (None, Some(ms)) if ms.is_instance_of::<PyInt>() && !ms.is_instance_of::<PyBool>() => {
            let ms = ms.cast::<PyInt>().map_err(PyErr::from)?;
            Ok(Millis::new(match ms.extract::<i128>() {
                Ok(n) => n,
                Err(_) if ms.lt(0)? => i128::MIN,
                Err(_) => i128::MAX,
            }))
        }
        (None, Some(ms)) if ms.is_instance_of::<PyFloat>() => {
            let why = format!("time_ms={ms} is not an integer number of milliseconds");
            Err(Error::InvalidTimestamp(why)).py(py)
        }
        (None, Some(ms)) => Err(type_error(format!("time_ms must be int, not {}", type_name(ms)))),
        (Some(_), Some(_)) => Err(type_error("pass time= or time_ms=, not both".into())),
        (None, None) => Err(type_error(
            "a time is required: time= (an aware datetime or RFC 3339 text) or time_ms= (int milliseconds)".into(),
        )),
    }
}

/// A Python value as JSON (spec §6.2). `bool` is tested before `int` (it is one).
pub fn json(obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<Value> {
    let py = obj.py();
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if let Ok(i) = obj.cast::<PyInt>() {
        return match i.extract::<i64>() {
            Ok(n) => Value::integer(i128::from(n)).py(py),
            Err(_) => Err(Error::integer_out_of_range(&i.to_string())).py(py),
        };
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        return Value::number(f.value()).py(py);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::String(text(s)?.to_owned()));
    }
    let nested = |depth: usize| -> PyResult<usize> {
        if depth >= samekey::MAX_DEPTH {
            return Err(Error::NestingTooDeep(samekey::MAX_DEPTH)).py(py);
        }
        Ok(depth + 1)
    };
    if let Ok(d) = obj.cast::<PyDict>() {
        let inner = nested(depth)?;
        let mut members = Vec::with_capacity(d.len());
        for (k, v) in d.iter() {
            let key = match k.cast::<PyString>() {
                Ok(s) => text(s)?.to_owned(),
                Err(_) => {
                    return Err(type_error(format!(
                        "JSON object keys must be str, not {}",
                        type_name(&k)
                    )))
                }
            };
            members.push((key, json(&v, inner)?));
        }
        return Ok(Value::Object(members));
    }
    if let Ok(l) = obj.cast::<PyList>() {
        let inner = nested(depth)?;
        return l
            .iter()
            .map(|v| json(&v, inner))
            .collect::<PyResult<_>>()
            .map(Value::Array);
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        let inner = nested(depth)?;
        return t
            .iter()
            .map(|v| json(&v, inner))
            .collect::<PyResult<_>>()
            .map(Value::Array);
    }
    Err(type_error(format!(
        "{} is not JSON: use dict, list, tuple, str, int, float, bool or None",
        type_name(obj)
    )))
}
