"""iribulk: convert IRIs to URIs and back (RFC 3987), validate and normalize them, fast.

Scalar functions take one ``str`` (or ``bytes``); batch functions take an Arrow string array
(pyarrow, Polars, anything with the Arrow PyCapsule interface) and convert it in parallel
without the GIL. Option names, defaults and error codes are the CLI's (``iribulk --help``).

>>> import iribulk
>>> iribulk.to_uri("http://résumé.example.org/ros%C3%A9#red")
'http://xn--rsum-bpad.example.org/ros%C3%A9#red'
"""

from ._errors import IriError
from ._iribulk import (
    DEFAULT_MAX_LINE_BYTES,
    check,
    check_batch,
    leiri_to_iri,
    leiri_to_iri_batch,
    normalize,
    normalize_batch,
    resolve,
    to_iri,
    to_iri_batch,
    to_uri,
    to_uri_batch,
)

IriError.__module__ = "iribulk"  # shown as iribulk.IriError in tracebacks and help()

__all__ = [
    "DEFAULT_MAX_LINE_BYTES",
    "IriError",
    "check",
    "check_batch",
    "leiri_to_iri",
    "leiri_to_iri_batch",
    "normalize",
    "normalize_batch",
    "resolve",
    "to_iri",
    "to_iri_batch",
    "to_uri",
    "to_uri_batch",
]
