//! The Arrow PyCapsule interface: arrays and streams in, one array out, without a copy.
//! <https://arrow.apache.org/docs/format/CDataInterface/PyCapsuleInterface.html>

use std::ffi::CStr;

use arrow_array::ffi::{from_ffi, to_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_data::ArrayData;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyCapsuleMethods, PyTuple};

use crate::convert::type_name;
use crate::errors::type_error;

const SCHEMA: &CStr = c"arrow_schema";
const ARRAY: &CStr = c"arrow_array";
const STREAM: &CStr = c"arrow_array_stream";

/// The chunks of an Arrow array (`__arrow_c_array__`) or of an Arrow stream
/// (`__arrow_c_stream__`: a chunked array, a Polars Series, a table's column), as arrays
/// that share the producer's buffers.
pub fn import_chunks(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<ArrayData>> {
    if obj.hasattr("__arrow_c_array__")? {
        let pair = obj.call_method0("__arrow_c_array__")?;
        let pair = pair.cast::<PyTuple>()?;
        let schema = pair.get_item(0)?;
        let array = pair.get_item(1)?;
        let schema = schema.cast::<PyCapsule>()?.pointer_checked(Some(SCHEMA))?;
        let array = array.cast::<PyCapsule>()?.pointer_checked(Some(ARRAY))?;
        // SAFETY: the capsules are named as the PyCapsule interface requires, so they hold
        // an `ArrowSchema` and an `ArrowArray`. The array is moved out (its release callback
        // is cleared in the capsule, as the interface asks of a consumer); the schema is
        // only borrowed and released by its capsule.
        let data = unsafe {
            let array = FFI_ArrowArray::from_raw(array.as_ptr().cast());
            from_ffi(array, &*schema.as_ptr().cast::<FFI_ArrowSchema>())
        };
        return Ok(vec![data.map_err(|e| arrow_error(what, e))?]);
    }
    if obj.hasattr("__arrow_c_stream__")? {
        let capsule = obj.call_method0("__arrow_c_stream__")?;
        let stream = capsule.cast::<PyCapsule>()?.pointer_checked(Some(STREAM))?;
        // SAFETY: as above; the stream is moved out of its capsule and released on drop.
        let mut stream = unsafe { FFI_ArrowArrayStream::from_raw(stream.as_ptr().cast()) };
        return read_stream(&mut stream, what);
    }
    Err(type_error(format!(
        "{what} must be an Arrow array or stream (an object with __arrow_c_array__ or \
         __arrow_c_stream__: pyarrow, Polars, DuckDB, ...), not {}",
        type_name(obj)
    )))
}

fn read_stream(stream: &mut FFI_ArrowArrayStream, what: &str) -> PyResult<Vec<ArrayData>> {
    let (Some(get_schema), Some(get_next)) = (stream.get_schema, stream.get_next) else {
        return Err(PyValueError::new_err(format!(
            "{what}: the Arrow stream is already released"
        )));
    };
    let mut schema = FFI_ArrowSchema::empty();
    // SAFETY: a live stream's callbacks, called with the stream and an empty struct to fill.
    let rc = unsafe { get_schema(stream, &mut schema) };
    if rc != 0 {
        return Err(stream_error(stream, what, rc));
    }
    let mut chunks = Vec::new();
    loop {
        let mut array = FFI_ArrowArray::empty();
        // SAFETY: as above.
        let rc = unsafe { get_next(stream, &mut array) };
        if rc != 0 {
            return Err(stream_error(stream, what, rc));
        }
        if array.is_released() {
            return Ok(chunks);
        }
        // SAFETY: the array the stream produced, with the stream's schema.
        let data = unsafe { from_ffi(array, &schema) }.map_err(|e| arrow_error(what, e))?;
        chunks.push(data);
    }
}

fn stream_error(stream: &mut FFI_ArrowArrayStream, what: &str, rc: i32) -> PyErr {
    let detail = match stream.get_last_error {
        // SAFETY: the stream's own error text, valid until its next call.
        Some(last) => unsafe {
            let text = last(stream);
            if text.is_null() {
                String::new()
            } else {
                CStr::from_ptr(text).to_string_lossy().into_owned()
            }
        },
        None => String::new(),
    };
    PyValueError::new_err(format!(
        "{what}: reading the Arrow stream failed (errno {rc}) {detail}"
    ))
}

pub fn arrow_error(what: &str, e: arrow_schema::ArrowError) -> PyErr {
    PyValueError::new_err(format!("{what}: {e}"))
}

/// An Arrow array that samekey made, handed to any Arrow library through the PyCapsule
/// interface: `pyarrow.array(a)`, `polars.Series(a)`, ... The buffers move to the
/// consumer without a copy.
#[pyclass(name = "ArrowArray", module = "samekey", frozen)]
pub struct PyArrowArray {
    data: ArrayData,
}

impl PyArrowArray {
    pub fn new(data: ArrayData) -> Self {
        PyArrowArray { data }
    }
}

#[pymethods]
impl PyArrowArray {
    /// The PyCapsule interface: `(schema, array)` capsules. `requested_schema` is
    /// ignored, as the interface allows: the type is always the one made.
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let _ = requested_schema;
        let (array, schema) = to_ffi(&self.data).map_err(|e| arrow_error("export", e))?;
        let schema = PyCapsule::new_with_value(py, schema, SCHEMA)?;
        let array = PyCapsule::new_with_value(py, array, ARRAY)?;
        PyTuple::new(py, [schema.into_any(), array.into_any()])
    }

    /// The type alone, as an `arrow_schema` capsule.
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        let schema = FFI_ArrowSchema::try_from(self.data.data_type())
            .map_err(|e| arrow_error("export", e))?;
        PyCapsule::new_with_value(py, schema, SCHEMA)
    }

    fn __len__(&self) -> usize {
        self.data.len()
    }

    /// The number of null entries.
    #[getter]
    fn null_count(&self) -> usize {
        self.data.null_count()
    }

    fn __repr__(&self) -> String {
        format!(
            "samekey.ArrowArray({}, len={}, nulls={})",
            self.data.data_type(),
            self.data.len(),
            self.data.null_count()
        )
    }
}
