//! Arrow input through the PyCapsule interface (`__arrow_c_array__`, `__arrow_c_stream__`),
//! with arrays of type null read from their length alone.
//!
//! The C Data Interface gives the null type no buffer, and arrow-rs's importer refuses one;
//! Polars exports an all-null Series (dtype `Null`) with one, so the import failed with "The
//! datatype "Null" doesn't expect buffer at index 0" (found by a QA sweep), where README
//! promises null in, null out. An array of type null holds nothing but its length: this
//! module reads that and releases the rest. Every other type goes to pyo3-arrow's importer.

use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{ArrayRef, NullArray};
use arrow_schema::{ArrowError, DataType, Field, FieldRef};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyTuple};
use pyo3_arrow::{PyArray, PyArrayReader};
use std::ffi::CStr;
use std::sync::Arc;

/// The arrays of one input, in order, with their field.
pub struct Imported {
    /// One array for `__arrow_c_array__`, the stream's arrays for `__arrow_c_stream__`.
    pub chunks: Vec<ArrayRef>,
    /// The field (name and type) the producer gave.
    pub field: FieldRef,
    /// True for an array (the result is an array), false for a stream (a chunked array).
    pub single: bool,
}

/// Whether `obj` offers the Arrow PyCapsule interface for arrays.
pub fn has_interface(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    let py = obj.py();
    Ok(obj.hasattr(intern!(py, "__arrow_c_array__"))?
        || obj.hasattr(intern!(py, "__arrow_c_stream__"))?)
}

fn type_err(e: ArrowError) -> PyErr {
    PyTypeError::new_err(e.to_string())
}

/// The array of type null that the C array `a` describes (only its length is read; `a` is
/// released when dropped).
fn null_array(a: &FFI_ArrowArray) -> ArrayRef {
    Arc::new(NullArray::new(a.len()))
}

/// Imports the arrays of `obj`, which has the interface ([`has_interface`]).
pub fn import(obj: &Bound<'_, PyAny>) -> PyResult<Imported> {
    let py = obj.py();
    if obj.hasattr(intern!(py, "__arrow_c_array__"))? {
        let pair = obj.call_method0(intern!(py, "__arrow_c_array__"))?;
        let pair = pair
            .cast::<PyTuple>()
            .map_err(|_| PyTypeError::new_err("__arrow_c_array__ must return a tuple"))?;
        let schema_cap = pair.get_item(0)?.cast_into::<PyCapsule>()?;
        let array_cap = pair.get_item(1)?.cast_into::<PyCapsule>()?;
        let schema_ptr = schema_cap.pointer_checked(Some(c"arrow_schema"))?;
        // SAFETY: a capsule named arrow_schema holds an ArrowSchema, alive with the capsule.
        let schema = unsafe { schema_ptr.cast::<FFI_ArrowSchema>().as_ref() };
        let field = Field::try_from(schema).map_err(type_err)?;
        if field.data_type() == &DataType::Null {
            let array_ptr = array_cap.pointer_checked(Some(c"arrow_array"))?;
            // SAFETY: a capsule named arrow_array holds an ArrowArray; from_raw moves it out
            // (the capsule keeps a released one), and dropping it calls its release.
            let a = unsafe { FFI_ArrowArray::from_raw(array_ptr.cast().as_ptr()) };
            return Ok(Imported {
                chunks: vec![null_array(&a)],
                field: Arc::new(field),
                single: true,
            });
        }
        // A capsule already imported holds a released array, which the importer asserts on (a
        // Rust panic, `PanicException`, which `except Exception` does not catch: found by a QA
        // sweep with a producer that returned the same capsules twice).
        let array_ptr = array_cap.pointer_checked(Some(c"arrow_array"))?;
        // SAFETY: a capsule named arrow_array holds an ArrowArray, alive with the capsule;
        // only its `release` pointer is read.
        if unsafe { array_ptr.cast::<FFI_ArrowArray>().as_ref() }.is_released() {
            return Err(PyValueError::new_err(
                "the Arrow array capsule was already consumed (released): \
                 __arrow_c_array__ must return new capsules on each call",
            ));
        }
        let (array, field) =
            no_panic(|| PyArray::from_arrow_pycapsule(&schema_cap, &array_cap))?.into_inner();
        return Ok(Imported {
            chunks: vec![array],
            field,
            single: true,
        });
    }
    let cap = obj
        .call_method0(intern!(py, "__arrow_c_stream__"))?
        .cast_into::<PyCapsule>()?;
    let stream_ptr = cap
        .pointer_checked(Some(c"arrow_array_stream"))?
        .cast::<FFI_ArrowArrayStream>()
        .as_ptr();
    // SAFETY: a capsule named arrow_array_stream holds an ArrowArrayStream, alive with the
    // capsule; get_schema may be called any number of times before the stream is read.
    let field = unsafe { stream_field(stream_ptr) }?;
    if field.data_type() != &DataType::Null {
        let reader = no_panic(|| PyArrayReader::from_arrow_pycapsule(&cap))?.into_reader()?;
        let field = reader.field();
        let chunks = no_panic(|| {
            reader
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| PyValueError::new_err(e.to_string()))
        })?;
        return Ok(Imported {
            chunks,
            field,
            single: false,
        });
    }
    // SAFETY: as above; from_raw moves the stream out (the capsule keeps a released one), and
    // dropping it calls its release.
    let mut stream = unsafe { FFI_ArrowArrayStream::from_raw(stream_ptr) };
    let get_next = stream
        .get_next
        .ok_or_else(|| PyValueError::new_err("the Arrow stream has no get_next"))?;
    let mut chunks = Vec::new();
    loop {
        let mut a = FFI_ArrowArray::empty();
        // SAFETY: the stream is live (not released) and `a` is an empty array to fill.
        let rc = unsafe { get_next(&mut stream, &mut a) };
        if rc != 0 {
            // SAFETY: after an error, get_last_error may be called on the live stream.
            return Err(PyValueError::new_err(unsafe {
                last_error(&mut stream, rc)
            }));
        }
        if a.is_released() {
            break; // end of the stream
        }
        chunks.push(null_array(&a));
    }
    Ok(Imported {
        chunks,
        field: Arc::new(field),
        single: false,
    })
}

/// Runs an import of arrow-rs, whose checks of the buffers a producer hands over are
/// assertions: a schema that does not match its array (`string` over an `int64` array's
/// buffers) was a Rust panic, which reached Python as `PanicException`, which `except
/// Exception` does not catch (a QA sweep). It is a `ValueError` instead.
fn no_panic<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|p| {
        let msg = p
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| p.downcast_ref::<&str>().copied())
            .unwrap_or("the import failed");
        Err(PyValueError::new_err(format!(
            "invalid Arrow array: the buffers do not match the schema ({msg})"
        )))
    })
}

/// The field of the stream at `ptr`, from its `get_schema`.
///
/// # Safety
/// `ptr` points to a live ArrowArrayStream.
unsafe fn stream_field(ptr: *mut FFI_ArrowArrayStream) -> PyResult<Field> {
    let stream = unsafe { &mut *ptr };
    if stream.release.is_none() {
        return Err(PyValueError::new_err(
            "the Arrow stream was already consumed",
        ));
    }
    let get_schema = stream
        .get_schema
        .ok_or_else(|| PyValueError::new_err("the Arrow stream has no get_schema"))?;
    let mut schema = FFI_ArrowSchema::empty();
    let rc = unsafe { get_schema(ptr, &mut schema) };
    if rc != 0 {
        return Err(PyValueError::new_err(unsafe { last_error(stream, rc) }));
    }
    Field::try_from(&schema).map_err(type_err)
}

/// The message of a stream's failed call.
///
/// # Safety
/// `stream` is live and its last call returned `rc`.
unsafe fn last_error(stream: &mut FFI_ArrowArrayStream, rc: i32) -> String {
    let msg = stream.get_last_error.and_then(|f| {
        let p = unsafe { f(stream) };
        (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
    });
    msg.unwrap_or_else(|| format!("the Arrow stream failed (error {rc})"))
}
