//! Arrow arrays in, Arrow arrays out: the batch functions' work, without the GIL.
//!
//! An input array is read in place (its value buffer and offsets, as arrow-rs imported them
//! through the C Data Interface). It is cut into ranges of rows; rayon converts the ranges in
//! parallel, each worker with its own [`Converter`] (one per thread, kept between calls), and
//! the parts are joined in order into one value buffer with its offsets.

use crate::lib_api::{self, Converter, Input, LineError, Options, Outcome};
use arrow_array::builder::{BooleanBuilder, Int64Builder, StringBuilder};
use arrow_array::{
    Array, ArrayRef, BinaryArray, BinaryViewArray, GenericBinaryArray, GenericStringArray,
    LargeBinaryArray, LargeStringArray, OffsetSizeTrait, StringArray, StringViewArray, StructArray,
};
use arrow_buffer::{Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field, Fields};
use rayon::prelude::*;
use std::cell::RefCell;
use std::sync::Arc;

/// What a row with an error becomes (`on_error=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnError {
    /// The value unchanged (the CLI's `--on-error keep`, the default).
    Keep,
    /// A null (an array keeps its length: the CLI's `skip` would drop the row).
    Null,
    /// The call raises `IriError` for the first row with an error (the CLI's `fail`).
    Fail,
}

/// A problem of one row, for the errors struct.
#[derive(Clone, Debug)]
pub struct RowIssue {
    /// Row index in the array.
    pub row: usize,
    /// The error or warning.
    pub err: LineError,
    /// True for a warning (the row was converted).
    pub warning: bool,
    /// The message, as the CLI's report writes it for this value ([`lib_api::message`]).
    pub message: String,
}

/// The input values, by Arrow type.
enum Src<'a> {
    Str(&'a StringArray),
    LargeStr(&'a LargeStringArray),
    Bin(&'a BinaryArray),
    LargeBin(&'a LargeBinaryArray),
    StrView(&'a StringViewArray),
    BinView(&'a BinaryViewArray),
    /// An array of type `null`: every row is null.
    Null(usize),
}

impl<'a> Src<'a> {
    /// The value buffer and offsets of an offset-based array (string, binary, large ones):
    /// rows `i` is `values[offsets[i]..offsets[i + 1]]`.
    fn contiguous(&self) -> Option<(&'a [u8], Offsets<'a>)> {
        match self {
            Src::Str(a) => Some((a.value_data(), Offsets::I32(a.value_offsets()))),
            Src::LargeStr(a) => Some((a.value_data(), Offsets::I64(a.value_offsets()))),
            Src::Bin(a) => Some((a.value_data(), Offsets::I32(a.value_offsets()))),
            Src::LargeBin(a) => Some((a.value_data(), Offsets::I64(a.value_offsets()))),
            _ => None,
        }
    }

    /// Characters (string arrays are UTF-8 by definition) or bytes (in the charset given).
    fn input(&self) -> Input {
        match self {
            Src::Bin(_) | Src::LargeBin(_) | Src::BinView(_) => Input::Bytes,
            Src::Str(_) | Src::LargeStr(_) | Src::StrView(_) | Src::Null(_) => Input::Text,
        }
    }

    fn len(&self) -> usize {
        match self {
            Src::Str(a) => a.len(),
            Src::LargeStr(a) => a.len(),
            Src::Bin(a) => a.len(),
            Src::LargeBin(a) => a.len(),
            Src::StrView(a) => a.len(),
            Src::BinView(a) => a.len(),
            Src::Null(n) => *n,
        }
    }

    /// Checks what reading a row takes on trust: the offsets of an offset-based array
    /// ascend and stay inside its value buffer, and each view of a view array that points
    /// into a data buffer stays inside it. A producer may hand over any buffers through the
    /// C Data Interface (`pa.Array.from_buffers` runs only pyarrow's cheap checks), and
    /// arrow-rs reads a value without bounds checks: an array with offsets `[0, 50, 3]` was a
    /// segmentation fault, and a `large_string` schema over 32-bit offsets a Rust panic (a QA
    /// sweep). One pass over the offsets or views, none over the values.
    fn check_layout(&self) -> Result<(), String> {
        fn offsets<O: Copy + Into<i64>>(o: &[O], data: usize, n: usize) -> Result<(), String> {
            if n == 0 {
                // No row is read (arrow-rs imports an empty slice of a bigger array with its
                // one offset and an empty value buffer).
                return Ok(());
            }
            let mut prev = 0i64;
            for (i, &x) in o.iter().enumerate() {
                let x: i64 = x.into();
                if x < prev || x as u64 > data as u64 {
                    return Err(format!(
                        "invalid Arrow array: offset {x} at slot {i} is not between the \
                         previous offset ({prev}) and the value buffer's length ({data})"
                    ));
                }
                prev = x;
            }
            Ok(())
        }
        fn views(v: &[u128], buffers: &[Buffer]) -> Result<(), String> {
            for (i, &view) in v.iter().enumerate() {
                let len = view as u32 as u64;
                if len <= 12 {
                    continue; // the value is inline, in the view itself
                }
                let buf = (view >> 64) as u32 as usize;
                let off = (view >> 96) as u32 as u64;
                let fits = buffers
                    .get(buf)
                    .is_some_and(|b| off + len <= b.len() as u64);
                if !fits {
                    return Err(format!(
                        "invalid Arrow array: view {i} ({len} bytes at {off} of data buffer \
                         {buf}) is outside the array's {} data buffers",
                        buffers.len()
                    ));
                }
            }
            Ok(())
        }
        match self {
            Src::Str(a) => offsets(a.value_offsets(), a.value_data().len(), a.len()),
            Src::LargeStr(a) => offsets(a.value_offsets(), a.value_data().len(), a.len()),
            Src::Bin(a) => offsets(a.value_offsets(), a.value_data().len(), a.len()),
            Src::LargeBin(a) => offsets(a.value_offsets(), a.value_data().len(), a.len()),
            Src::StrView(a) => views(a.views(), a.data_buffers()),
            Src::BinView(a) => views(a.views(), a.data_buffers()),
            Src::Null(_) => Ok(()),
        }
    }

    #[inline]
    fn get(&self, i: usize) -> Option<&[u8]> {
        fn opt<A: Array>(a: &A, i: usize) -> bool {
            a.is_valid(i)
        }
        match self {
            Src::Str(a) => opt(*a, i).then(|| a.value(i).as_bytes()),
            Src::LargeStr(a) => opt(*a, i).then(|| a.value(i).as_bytes()),
            Src::Bin(a) => opt(*a, i).then(|| a.value(i)),
            Src::LargeBin(a) => opt(*a, i).then(|| a.value(i)),
            Src::StrView(a) => opt(*a, i).then(|| a.value(i).as_bytes()),
            Src::BinView(a) => opt(*a, i).then(|| a.value(i)),
            Src::Null(_) => None,
        }
    }
}

/// The offsets of an offset-based array.
#[derive(Clone, Copy)]
enum Offsets<'a> {
    I32(&'a [i32]),
    I64(&'a [i64]),
}

impl Offsets<'_> {
    #[inline]
    fn at(&self, i: usize) -> usize {
        match self {
            Offsets::I32(o) => o[i] as usize,
            Offsets::I64(o) => o[i] as usize,
        }
    }
}

/// The Arrow type of the result for an input type: strings stay strings (`string` and
/// `string_view` give `string`, or `large_string` past 2 GiB of results), binary stays binary
/// (a row with invalid UTF-8 kept unchanged could not be a string).
fn out_kind(dt: &DataType) -> Result<(bool, bool), String> {
    // (is_string, is_large)
    match dt {
        DataType::Utf8 | DataType::Utf8View | DataType::Null => Ok((true, false)),
        DataType::LargeUtf8 => Ok((true, true)),
        DataType::Binary | DataType::BinaryView => Ok((false, false)),
        DataType::LargeBinary => Ok((false, true)),
        other => Err(format!(
            "expected an Arrow array of string, large_string, string_view, binary, \
             large_binary or binary_view, got {other}"
        )),
    }
}

/// Checks that `dt` is a type the batch functions take.
pub fn check_type(dt: &DataType) -> Result<(), String> {
    out_kind(dt).map(|_| ())
}

fn src(a: &ArrayRef) -> Src<'_> {
    let any = a.as_any();
    match a.data_type() {
        DataType::Utf8 => Src::Str(any.downcast_ref().expect("Utf8 is StringArray")),
        DataType::LargeUtf8 => Src::LargeStr(any.downcast_ref().expect("LargeUtf8")),
        DataType::Binary => Src::Bin(any.downcast_ref().expect("Binary")),
        DataType::LargeBinary => Src::LargeBin(any.downcast_ref().expect("LargeBinary")),
        DataType::Utf8View => Src::StrView(any.downcast_ref().expect("Utf8View")),
        DataType::BinaryView => Src::BinView(any.downcast_ref().expect("BinaryView")),
        _ => Src::Null(a.len()),
    }
}

/// The converted rows of one range.
#[derive(Default)]
struct Part {
    values: Vec<u8>,
    /// End offset (in `values`) of each row.
    ends: Vec<usize>,
    /// Validity of each row.
    valid: Vec<bool>,
    issues: Vec<RowIssue>,
}

thread_local! {
    /// Converters of this thread, by options (a few: a loop may alternate modes).
    static CONVERTERS: RefCell<Vec<Converter>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with this thread's converter for `opts` (built on first use).
pub fn with_converter<R>(opts: &Options, f: impl FnOnce(&mut Converter) -> R) -> R {
    CONVERTERS.with(|c| {
        let mut v = c.borrow_mut();
        let i = match v.iter().position(|c| c.options() == opts) {
            Some(i) => i,
            None => {
                if v.len() >= 8 {
                    v.remove(0);
                }
                v.push(Converter::new(opts.clone()));
                v.len() - 1
            }
        };
        f(&mut v[i])
    })
}

fn convert_range(
    src: &Src<'_>,
    rows: std::ops::Range<usize>,
    opts: &Options,
    on_error: OnError,
    naive: bool,
) -> Part {
    let input = src.input();
    with_converter(opts, |conv| {
        conv.set_naive(naive);
        let mut p = Part {
            values: Vec::new(),
            ends: Vec::with_capacity(rows.len()),
            valid: Vec::with_capacity(rows.len()),
            issues: Vec::new(),
        };
        // Offset-based arrays: one SIMD scan of the range's bytes says which rows hold a
        // flagged byte; other arrays test each row with a table.
        let mut masks = Vec::new();
        let scanned = match (naive, src.contiguous()) {
            (false, Some((data, offs))) if !rows.is_empty() => {
                let lo = offs.at(rows.start);
                let hi = offs.at(rows.end);
                conv.scan(&data[lo..hi], &mut masks);
                p.values.reserve(hi - lo);
                Some((offs, lo))
            }
            _ => None,
        };
        for i in rows {
            let Some(v) = src.get(i) else {
                p.ends.push(p.values.len());
                p.valid.push(false);
                continue;
            };
            let mark = p.values.len();
            let passes = match scanned {
                _ if naive => false,
                Some((offs, lo)) => conv.passes_with(
                    v,
                    !lib_api::any_flagged(&masks, offs.at(i) - lo, offs.at(i + 1) - lo),
                    input,
                ),
                None => conv.passes(v, input),
            };
            let r = if passes {
                p.values.extend_from_slice(v);
                Ok(Outcome::default())
            } else {
                conv.convert_slow(v, &mut p.values, input)
            };
            match r {
                Ok(o) => {
                    p.valid.push(true);
                    if let Some(w) = o.first_warning {
                        p.issues.push(RowIssue {
                            row: i,
                            err: w,
                            warning: true,
                            message: lib_api::message_for(&w, conv.kept(v), opts),
                        });
                    }
                }
                Err(e) => {
                    p.values.truncate(mark);
                    p.issues.push(RowIssue {
                        row: i,
                        err: e,
                        warning: false,
                        message: lib_api::message_for(&e, conv.kept(v), opts),
                    });
                    match on_error {
                        OnError::Keep => {
                            let kept = conv.kept(v);
                            // A string array must hold UTF-8, and Spark (or any Arrow
                            // producer that skips validation) can hand over a row that is
                            // not: kept, its malformed sequences become U+FFFD (WHATWG
                            // Encoding's UTF-8 decode, as Java and Python show them); the
                            // report says `invalid-utf8` at the first one. A binary array
                            // keeps the bytes. (Found by a QA sweep: the whole batch failed.)
                            if input == Input::Text && std::str::from_utf8(kept).is_err() {
                                let text = String::from_utf8_lossy(kept);
                                p.values.extend_from_slice(text.as_bytes());
                            } else {
                                p.values.extend_from_slice(kept);
                            }
                            p.valid.push(true);
                        }
                        OnError::Null | OnError::Fail => p.valid.push(false),
                    }
                }
            }
            p.ends.push(p.values.len());
        }
        p
    })
}

/// The result of one array: the converted array and the problems by row.
pub struct Converted {
    /// The results, of the type [`out_kind`] gives.
    pub array: ArrayRef,
    /// Errors and warnings, in row order.
    pub issues: Vec<RowIssue>,
}

/// Rows per range handed to rayon: small enough to balance, large enough that the per-range
/// cost (a thread-local lookup, a few vectors) is noise.
const MIN_ROWS_PER_RANGE: usize = 4096;

/// Converts every row of `a`. Call without the GIL.
pub fn convert_array(
    a: &ArrayRef,
    opts: &Options,
    on_error: OnError,
    naive: bool,
) -> Result<Converted, String> {
    let (is_string, is_large) = out_kind(a.data_type())?;
    let s = src(a);
    s.check_layout()?;
    let n = s.len();
    let threads = rayon::current_num_threads().max(1);
    let per = (n / (threads * 8)).max(MIN_ROWS_PER_RANGE);
    let ranges: Vec<_> = (0..n)
        .step_by(per)
        .map(|lo| lo..(lo + per).min(n))
        .collect();
    let parts: Vec<Part> = ranges
        .into_par_iter()
        .map(|r| convert_range(&s, r, opts, on_error, naive))
        .collect();
    let total: usize = parts.iter().map(|p| p.values.len()).sum();
    let large = is_large || total > i32::MAX as usize;
    let array = if large {
        assemble::<i64>(&parts, n, total, is_string)?
    } else {
        assemble::<i32>(&parts, n, total, is_string)?
    };
    let issues = parts.into_iter().flat_map(|p| p.issues).collect();
    Ok(Converted { array, issues })
}

/// Joins the parts into one array with `O` offsets.
fn assemble<O: OffsetSizeTrait>(
    parts: &[Part],
    n: usize,
    total: usize,
    is_string: bool,
) -> Result<ArrayRef, String> {
    let mut values = Vec::with_capacity(total);
    let mut offsets: Vec<O> = Vec::with_capacity(n + 1);
    offsets.push(O::usize_as(0));
    let mut valid = Vec::with_capacity(n);
    for p in parts {
        let base = values.len();
        values.extend_from_slice(&p.values);
        offsets.extend(p.ends.iter().map(|&e| O::usize_as(base + e)));
        valid.extend_from_slice(&p.valid);
    }
    let nulls = if valid.iter().all(|&v| v) {
        None
    } else {
        Some(NullBuffer::from(valid))
    };
    let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
    let values = Buffer::from_vec(values);
    let array: ArrayRef = if is_string {
        // try_new checks that every value is UTF-8 (every mode writes UTF-8, and a kept row was
        // UTF-8 already): a failure here is a bug, reported instead of trusted.
        Arc::new(
            GenericStringArray::<O>::try_new(offsets, values, nulls)
                .map_err(|e| format!("internal error: result is not UTF-8: {e}"))?,
        )
    } else {
        Arc::new(
            GenericBinaryArray::<O>::try_new(offsets, values, nulls)
                .map_err(|e| format!("internal error: {e}"))?,
        )
    };
    Ok(array)
}

/// The fields of the errors struct.
pub fn error_fields() -> Fields {
    Fields::from(vec![
        Field::new("code", DataType::Utf8, true),
        Field::new("column", DataType::Int64, true),
        Field::new("message", DataType::Utf8, true),
        Field::new("warning", DataType::Boolean, true),
    ])
}

/// The errors struct of `n` rows: `(code, column, message, warning)` where a row had an error
/// or a warning, null elsewhere.
pub fn errors_array(issues: &[RowIssue], n: usize) -> ArrayRef {
    let mut code = StringBuilder::with_capacity(n, issues.len() * 12);
    let mut column = Int64Builder::with_capacity(n);
    let mut message = StringBuilder::with_capacity(n, issues.len() * 40);
    let mut warning = BooleanBuilder::with_capacity(n);
    let mut valid = vec![false; n];
    let mut it = issues.iter().peekable();
    for (row, ok) in valid.iter_mut().enumerate() {
        match it.next_if(|r| r.row == row) {
            Some(r) => {
                *ok = true;
                code.append_value(lib_api::code(&r.err));
                column.append_value(lib_api::column(&r.err) as i64);
                message.append_value(&r.message);
                warning.append_value(r.warning);
            }
            None => {
                code.append_null();
                column.append_null();
                message.append_null();
                warning.append_null();
            }
        }
    }
    let nulls = Some(NullBuffer::from(valid));
    Arc::new(StructArray::new(
        error_fields(),
        vec![
            Arc::new(code.finish()),
            Arc::new(column.finish()),
            Arc::new(message.finish()),
            Arc::new(warning.finish()),
        ],
        nulls,
    ))
}
