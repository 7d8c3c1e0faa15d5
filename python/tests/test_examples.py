"""Every mode on the example tables of the repository (tests/data/*.tsv, shared with the Rust
tests): the scalar function, and the batch function on the same value, give the table's result."""

from __future__ import annotations

import inspect
from typing import Dict, List, Optional, Tuple

import pyarrow as pa
import pytest

import iribulk
from conftest import BATCH, SCALAR, normalize_kwargs, read_tsv, to_uri_kwargs, unescape, value


def accepted(mode: str, kw: Dict[str, object]) -> Dict[str, object]:
    """The table's options that mean something in `mode` (the library ignores the others in
    that mode: to-iri and check use only the host mode and IDNA flags, leiri-to-iri none)."""
    names = inspect.signature(SCALAR[mode]).parameters if _has_sig(SCALAR[mode]) else None
    if names is None:
        return kw
    return {k: v for k, v in kw.items() if k in names}


def _has_sig(f) -> bool:
    try:
        inspect.signature(f)
        return True
    except (TypeError, ValueError):
        return False


def parse_expected(e: str) -> Tuple[str, str, Optional[str]]:
    """(kind, code, output): OK / WARN / ERROR / NOT, as the tables write them. For ERROR the
    third item is the message when the table pins it (`ERROR:code:message`, the text the CLI's
    report prints, detail included), else None."""
    if e == "OK":
        return ("OK", "", None)
    kind, _, rest = e.partition(":")
    if kind == "ERROR":
        code, sep, message = rest.partition(":")
        return ("ERROR", code, message if sep else None)
    if kind == "WARN":
        code, _, out = rest.partition(":")
        return ("WARN", code, unescape(out).decode("utf-8"))
    return (kind, "", unescape(rest).decode("utf-8"))


def run_row(rid: str, mode: str, kw: Dict[str, object], inp: bytes, expected: str, warnings_exact: bool):
    kind, code, want = parse_expected(expected)
    s = value(inp)
    f, fb = SCALAR[mode], BATCH[mode]
    # Scalar.
    if kind == "ERROR":
        with pytest.raises(iribulk.IriError) as ei:
            f(s, **kw)
        assert ei.value.code == code, rid
        assert ei.value.column >= 1 and ei.value.message, rid
        if want is not None:
            assert ei.value.message == want, rid
    else:
        out = f(s, **kw)
        assert isinstance(out, str), rid
        if kind in ("OK", "WARN") and want is not None:
            assert out == want, rid
        elif kind == "NOT":
            assert out != want, rid
    # Batch, one row (binary when the input is not UTF-8).
    arr = pa.array([s], type=pa.binary() if isinstance(s, bytes) else pa.string())
    out, err = fb(arr, errors=True, on_error="null", **kw)
    assert len(out) == 1 and len(err) == 1, rid
    got, e = out[0].as_py(), err[0].as_py()
    if isinstance(got, bytes):
        got = got.decode("utf-8")
    if kind == "ERROR":
        assert got is None, rid
        assert e["code"] == code and e["warning"] is False, rid
        assert e["column"] == ei.value.column and e["message"] == ei.value.message, rid
    else:
        if kind in ("OK", "WARN") and want is not None:
            assert got == want, rid
        elif kind == "NOT":
            assert got != want, rid
        if kind == "WARN" or (kind == "OK" and code):
            assert e is not None and e["warning"] is True and e["code"] == code, (rid, e)
        elif warnings_exact:
            assert e is None, (rid, e)
        else:
            assert e is None or e["warning"] is True, (rid, e)


def rows_of(name: str) -> List[List[str]]:
    return read_tsv(name)


# to_uri_examples.tsv is the table of the bare to-uri converter (tests/conformance.rs). The
# functions run the host-integrity checks around it, as the CLI does (issue 16), and those
# make a joiner that IDNA2003's Nameprep deletes an error whatever the flags: these rows give
# what the CLI gives (pinned for the CLI by tests/data/hostile.tsv, row idna-zwj-2003).
GUARDED = {
    "div-zwj-2003": "ERROR:idna2003-differs",
    "div-zwnj-2003": "ERROR:idna2003-differs",
}


@pytest.mark.parametrize("row", rows_of("to_uri_examples.tsv"), ids=lambda r: r[0])
def test_to_uri_examples(row):
    rid, _src, opts, inp, expected = row
    expected = GUARDED.get(rid, expected)
    run_row(rid, "to-uri", to_uri_kwargs(opts), unescape(inp), expected, False)


def test_guarded_rows_are_the_clis_result():
    """The rows GUARDED overrides exist, and the CLI reports for each the code GUARDED gives."""
    from test_repair_trim import run_cli

    rows = {r[0]: r for r in rows_of("to_uri_examples.tsv")}
    for rid, want in GUARDED.items():
        assert rid in rows, rid
        _rid, _src, opts, inp, _exp = rows[rid]
        written, report = run_cli("to-uri", to_uri_kwargs(opts), [unescape(inp)])
        assert 0 in report and report[0][1] == want.split(":", 1)[1], (rid, report)


@pytest.mark.parametrize("row", rows_of("to_iri_examples.tsv"), ids=lambda r: r[0])
def test_to_iri_examples(row):
    rid, _src, opts, inp, expected = row
    run_row(rid, "to-iri", accepted("to-iri", to_uri_kwargs(opts)), unescape(inp), expected, False)


@pytest.mark.parametrize("row", rows_of("check_examples.tsv"), ids=lambda r: r[0])
def test_check_examples(row):
    rid, _src, opts, inp, expected = row
    if expected.startswith("OK:"):  # OK:<warning code>: valid, with that warning
        expected = f"WARN:{expected[3:]}:{inp}"
    run_row(rid, "check", accepted("check", to_uri_kwargs(opts)), unescape(inp), expected, True)


@pytest.mark.parametrize("row", rows_of("normalize_examples.tsv"), ids=lambda r: r[0])
def test_normalize_examples(row):
    rid, _src, rungs, inp, expected = row
    run_row(rid, "normalize", normalize_kwargs(rungs), unescape(inp), expected, False)


@pytest.mark.parametrize("row", rows_of("hostile.tsv"), ids=lambda r: r[0])
def test_hostile_rows(row):
    rid, _src, mode, opts, inp, expected, _notes = row
    run_row(rid, mode, accepted(mode, to_uri_kwargs(opts)), unescape(inp), expected, True)


def test_every_table_in_one_batch_fast_equals_naive():
    """The pass-through of clean rows (fast path) and the converter on every row (its slow twin)
    give identical results and errors, in every mode, on every input of the tables."""
    inputs = []
    for name, col in [("to_uri_examples.tsv", 3), ("to_iri_examples.tsv", 3),
                      ("check_examples.tsv", 3), ("normalize_examples.tsv", 3), ("hostile.tsv", 4)]:
        inputs += [unescape(r[col]) for r in read_tsv(name)]
    inputs += [b"http://example.org/plain", b"mailto:a@b.c", b"http://a/%41#x", b"//h/p?q"]
    arr = pa.array(inputs, type=pa.binary())
    for mode, fb in BATCH.items():
        old = iribulk._iribulk._set_naive(False)
        try:
            fast = fb(arr, errors=True)
            iribulk._iribulk._set_naive(True)
            slow = fb(arr, errors=True)
        finally:
            iribulk._iribulk._set_naive(old)
        assert fast[0].equals(slow[0]), mode
        assert fast[1].equals(slow[1]), mode


def test_random_rows_fast_equals_naive():
    """Rows of random lengths around the 64-byte blocks of the SIMD scan, with a byte that needs
    work at random places (or none): the fast path and the converter agree, on offset arrays
    (scanned) and on view arrays (tested row by row)."""
    import random

    rnd = random.Random(13)
    pieces = ["a", "b", "/", "?", "=", "%41", "%zz", "#", "@", "[", " ", "ü", "\t", "xn--", ":", "."]
    rows = []
    for _ in range(3000):
        n = rnd.choice([0, 1, 5, 40, 63, 64, 65, 127, 128, 129, 300])
        body = "".join(rnd.choice("abcdefgh/.-_~") for _ in range(n))
        if rnd.random() < 0.5 and n:
            k = rnd.randrange(n)
            body = body[:k] + rnd.choice(pieces) + body[k + 1 :]
        rows.append(rnd.choice(["http://h.example/", "https://xn--bcher-kva.de/", "", "//h/", "foo:"]) + body)
        if rnd.random() < 0.05:
            rows.append(None)
    for t in (pa.string(), pa.large_string(), pa.binary(), pa.string_view()):
        arr = pa.array(rows, t).slice(7)
        for mode, fb in BATCH.items():
            old = iribulk._iribulk._set_naive(False)
            try:
                fast = fb(arr, errors=True)
                iribulk._iribulk._set_naive(True)
                slow = fb(arr, errors=True)
            finally:
                iribulk._iribulk._set_naive(old)
            assert fast[0].equals(slow[0]), (mode, t)
            assert fast[1].equals(slow[1]), (mode, t)
