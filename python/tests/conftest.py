"""Helpers shared by the tests: the repository's example tables (tests/data/*.tsv, read in
place, never copied), their escapes and option columns, and where the CLI and ../shared are."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Dict, List, Optional

import pytest

import iribulk

PYTHON_DIR = Path(__file__).resolve().parents[1]
REPO = PYTHON_DIR.parent
DATA = REPO / "tests" / "data"
SHARED = REPO.parent / "shared"


def skip(why: str) -> None:
    """Skips a test visibly; under CI=true a skip is a failure (as tests/common/mod.rs)."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{why}; CI=true requires it")
    print(f"SKIPPED: {why}", file=sys.stderr)
    pytest.skip(why)


def unescape(s: str) -> bytes:
    r"""The escapes of the tables: \\ \t \n \r, \xHH (one raw byte), \u{H..} (one scalar), and
    hostile.tsv's macro {rep:N:TEXT} (TEXT repeated N times, itself escaped)."""
    s = _expand_rep(s)
    out = bytearray()
    i = 0
    while i < len(s):
        c = s[i]
        if c != "\\" or i + 1 >= len(s):
            out += c.encode("utf-8")
            i += 1
            continue
        n = s[i + 1]
        if n in "\\tnr":
            out += {"\\": b"\\", "t": b"\t", "n": b"\n", "r": b"\r"}[n]
            i += 2
        elif n == "x":
            out.append(int(s[i + 2 : i + 4], 16))
            i += 4
        elif n == "u":
            end = s.index("}", i)
            out += chr(int(s[i + 3 : end], 16)).encode("utf-8")
            i = end + 1
        else:
            out += b"\\"
            i += 1
    return bytes(out)


def _expand_rep(s: str) -> str:
    """Expands {rep:N:TEXT}; TEXT may hold escapes and nested macros (braces balance)."""
    out = []
    while True:
        p = s.find("{rep:")
        if p < 0:
            out.append(s)
            return "".join(out)
        out.append(s[:p])
        colon = s.index(":", p + 5)
        n = int(s[p + 5 : colon])
        depth, j = 1, colon + 1
        while depth:
            if s[j] == "{":
                depth += 1
            elif s[j] == "}":
                depth -= 1
            j += 1
        out.append(_expand_rep(s[colon + 1 : j - 1]) * n)
        s = s[j:]


def read_tsv(name: str) -> List[List[str]]:
    path = DATA / name
    rows = []
    header_seen = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line:
            continue
        if not header_seen:
            header_seen = True
            continue
        rows.append(line.split("\t"))
    assert rows, f"{path} has no rows"
    return rows


def to_uri_kwargs(options: str) -> Dict[str, object]:
    """An options column of the tables as keyword arguments (names of the CLI's flags):
    to_uri_examples.tsv's keys, hostile.tsv's repair=LIST and host_integrity.tsv's trim."""
    kw: Dict[str, object] = {}
    if options == "-":
        return kw
    for o in options.split(","):
        if o.startswith("host="):
            kw["host"] = o[5:]
        elif o in ("strict", "leiri", "uri"):
            kw[o] = True
        elif o == "utf8=percent":
            kw["invalid_utf8"] = "percent"
        elif o == "fallback":
            kw["host_fallback"] = "percent"
        elif o == "no-std3":
            kw["idna2003_no_std3"] = True
        elif o == "no-unassigned":
            kw["idna2003_no_unassigned"] = True
        elif o.startswith("max-line="):
            kw["max_line_bytes"] = int(o[9:])
        elif o.startswith("repair="):
            kw["repair"] = o[7:].replace("+", ",")  # hostile.tsv writes the list with '+'
        elif o == "trim":
            kw["trim"] = True
        elif o in ("valid-only", "invalid-only"):
            pass  # CLI filters: the expected column is the line's own result
        else:
            raise AssertionError(f"unknown option {o}")
    return kw


def normalize_kwargs(rungs: str) -> Dict[str, object]:
    """A rungs column of normalize_examples.tsv: no rung unless a level= or a rung says so
    (as tests/normalize.rs reads it); a level comes before the rungs it adds to."""
    kw: Dict[str, object] = {"level": "string"}
    for o in rungs.split(","):
        if o == "-":
            continue
        if o.startswith("level="):
            assert len(kw) == 1, f"level= after a rung in {rungs}"
            kw["level"] = o[6:]
        elif o.startswith("idn="):
            kw["idn"] = o[4:]
        elif o == "idna=2003":
            kw["host"] = "idna2003"
        elif o == "scheme":
            kw["scheme_rules"] = True
        elif o in ("case", "percent", "nfc", "nfkc", "path", "as_uri"):
            kw[o] = True
        else:
            raise AssertionError(f"unknown rung {o}")
    return kw


def cli_binary() -> Optional[Path]:
    """The iribulk CLI: $IRIBULK_CLI, target/release or target/debug, or on PATH."""
    env = os.environ.get("IRIBULK_CLI")
    if env:
        return Path(env)
    for p in (REPO / "target" / "release" / "iribulk", REPO / "target" / "debug" / "iribulk"):
        if p.is_file():
            return p
    w = shutil.which("iribulk")
    return Path(w) if w else None


# Each mode's scalar and batch function, by the CLI's mode name.
SCALAR = {
    "to-uri": iribulk.to_uri,
    "to-iri": iribulk.to_iri,
    "check": iribulk.check,
    "leiri-to-iri": iribulk.leiri_to_iri,
    "normalize": iribulk.normalize,
}
BATCH = {
    "to-uri": iribulk.to_uri_batch,
    "to-iri": iribulk.to_iri_batch,
    "check": iribulk.check_batch,
    "leiri-to-iri": iribulk.leiri_to_iri_batch,
    "normalize": iribulk.normalize_batch,
}


def value(b: bytes):
    """A str when the input is UTF-8, else bytes (the scalar functions take both)."""
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return b
