"""Type stubs of iribulk. Option names and defaults are the CLI's (``iribulk --help``)."""

from typing import Any, Literal, Optional, Sequence, Union

import pyarrow as pa

DEFAULT_MAX_LINE_BYTES: int

Host = Literal["auto", "uts46", "idna2003", "percent"]
OnError = Literal["keep", "null", "fail"]
Level = Literal["string", "syntax", "scheme"]
Idn = Literal["ascii", "unicode"]
StrOrBytes = Union[str, bytes]
#: A WHATWG Encoding Standard label (``"shift_jis"``, ``"gbk"``, ``"windows-1252"``,
#: ``"utf-16le"``...): ``bytes`` (binary arrays) are in this charset and are decoded, then
#: normalized to NFC (RFC 3987 §3.1 step 1b); a ``str`` (string arrays) is taken as already
#: decoded: NFC and the query rule still apply. None: UTF-8, never normalized (step 1c).
Charset = Optional[str]
#: to-uri: an http/https query in the document charset (3987bis §3.5, the default with a
#: legacy charset) or always in UTF-8. Goes with ``charset``.
QueryCharset = Optional[Literal["document", "utf-8"]]
#: ``--repair LIST`` (to-uri, leiri-to-iri, normalize): ``"brackets,percent"``, ``"all"``, or a
#: sequence of names (``["brackets", "hash"]``; empty: none). Each repair is a warning
#: (repaired-bracket, repaired-percent, repaired-hash); not with ``strict=True``.
Repair = Optional[Union[str, Sequence[str]]]
#: Anything with the Arrow PyCapsule interface (``__arrow_c_array__``/``__arrow_c_stream__``):
#: pyarrow Array/ChunkedArray, polars Series, ...
ArrowStrings = Any
#: A pyarrow Array for array input, a pyarrow ChunkedArray for stream input.
ArrowResult = Union[pa.Array, pa.ChunkedArray]

class IriError(ValueError):
    code: str
    column: int
    message: str
    row: Optional[int]
    def __init__(self, code: str, column: int, message: str, row: Optional[int] = ...) -> None: ...

def to_uri(
    s: StrOrBytes,
    *,
    host: Host = "auto",
    strict: bool = False,
    leiri: bool = False,
    repair: Repair = None,
    trim: bool = False,
    host_fallback: Optional[Literal["percent"]] = None,
    invalid_utf8: Literal["error", "percent"] = "error",
    idna2003_no_unassigned: bool = False,
    idna2003_no_std3: bool = False,
    base: Optional[str] = None,
    charset: Charset = None,
    query_charset: QueryCharset = None,
    max_line_bytes: int = ...,
) -> str: ...
def to_iri(
    s: StrOrBytes,
    *,
    host: Host = "auto",
    idna2003_no_unassigned: bool = False,
    idna2003_no_std3: bool = False,
    trim: bool = False,
    strict: bool = False,
    base: Optional[str] = None,
    max_line_bytes: int = ...,
) -> str: ...
def check(
    s: StrOrBytes,
    *,
    uri: bool = False,
    host: Host = "auto",
    idna2003_no_unassigned: bool = False,
    idna2003_no_std3: bool = False,
    base: Optional[str] = None,
    charset: Charset = None,
    max_line_bytes: int = ...,
) -> str: ...
def normalize(
    s: StrOrBytes,
    *,
    level: Level = "syntax",
    case: bool = False,
    percent: bool = False,
    nfc: bool = False,
    nfkc: bool = False,
    path: bool = False,
    scheme_rules: bool = False,
    idn: Optional[Idn] = None,
    as_uri: bool = False,
    host: Optional[Host] = None,
    idna2003_no_unassigned: bool = False,
    idna2003_no_std3: bool = False,
    repair: Repair = None,
    trim: bool = False,
    base: Optional[str] = None,
    charset: Charset = None,
    max_line_bytes: int = ...,
) -> str: ...
def leiri_to_iri(
    s: StrOrBytes,
    *,
    repair: Repair = None,
    trim: bool = False,
    base: Optional[str] = None,
    charset: Charset = None,
    max_line_bytes: int = ...,
) -> str: ...
def resolve(base: str, ref: str) -> str: ...

# Batch functions: with errors=True they return (result, errors), errors being a struct array
# {code: string, column: int64, message: string, warning: bool}, null where a row is fine.
def to_uri_batch(
    array: ArrowStrings,
    *,
    host: Host = "auto",
    strict: bool = False,
    leiri: bool = False,
    repair: Repair = None,
    trim: bool = False,
    host_fallback: Optional[Literal["percent"]] = None,
    invalid_utf8: Literal["error", "percent"] = "error",
    idna2003_no_unassigned: bool = False,
    idna2003_no_std3: bool = False,
    base: Optional[str] = None,
    charset: Charset = None,
    query_charset: QueryCharset = None,
    max_line_bytes: int = ...,
    errors: bool = False,
    on_error: OnError = "keep",
    threads: int = 0,
) -> Any: ...
def to_iri_batch(
    array: ArrowStrings,
    *,
    host: Host = "auto",
    idna2003_no_unassigned: bool = False,
    idna2003_no_std3: bool = False,
    trim: bool = False,
    strict: bool = False,
    base: Optional[str] = None,
    max_line_bytes: int = ...,
    errors: bool = False,
    on_error: OnError = "keep",
    threads: int = 0,
) -> Any: ...
def check_batch(
    array: ArrowStrings,
    *,
    uri: bool = False,
    host: Host = "auto",
    idna2003_no_unassigned: bool = False,
    idna2003_no_std3: bool = False,
    base: Optional[str] = None,
    charset: Charset = None,
    max_line_bytes: int = ...,
    errors: bool = False,
    on_error: OnError = "keep",
    threads: int = 0,
) -> Any: ...
def normalize_batch(
    array: ArrowStrings,
    *,
    level: Level = "syntax",
    case: bool = False,
    percent: bool = False,
    nfc: bool = False,
    nfkc: bool = False,
    path: bool = False,
    scheme_rules: bool = False,
    idn: Optional[Idn] = None,
    as_uri: bool = False,
    host: Optional[Host] = None,
    idna2003_no_unassigned: bool = False,
    idna2003_no_std3: bool = False,
    repair: Repair = None,
    trim: bool = False,
    base: Optional[str] = None,
    charset: Charset = None,
    max_line_bytes: int = ...,
    errors: bool = False,
    on_error: OnError = "keep",
    threads: int = 0,
) -> Any: ...
def leiri_to_iri_batch(
    array: ArrowStrings,
    *,
    repair: Repair = None,
    trim: bool = False,
    base: Optional[str] = None,
    charset: Charset = None,
    max_line_bytes: int = ...,
    errors: bool = False,
    on_error: OnError = "keep",
    threads: int = 0,
) -> Any: ...
