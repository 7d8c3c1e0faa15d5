"""The batch functions on Arrow: types, nulls, chunks, slices, errors, Polars, size, threads,
and equality with the CLI on the same lines."""

from __future__ import annotations

import os
import subprocess
import threading

import pyarrow as pa
import pytest

import iribulk
from conftest import BATCH, REPO, cli_binary, skip

GOOD = "http://bücher.de/straße?q=ü#é"
GOOD_URI = "http://xn--bcher-kva.de/stra%C3%9Fe?q=%C3%BC#%C3%A9"
BAD = "http://a/%zz"  # bad-percent at column 10
PLAIN = "http://example.org/a/b?c=d#e"


def test_nulls_in_nulls_out():
    out, err = iribulk.to_uri_batch(pa.array([None, GOOD, None, BAD, PLAIN]), errors=True)
    assert out.to_pylist() == [None, GOOD_URI, None, BAD, PLAIN]
    assert err.is_null().to_pylist() == [True, True, True, False, True]


def test_all_null_and_null_type():
    assert iribulk.to_uri_batch(pa.array([None, None], pa.string())).to_pylist() == [None, None]
    out = iribulk.to_uri_batch(pa.array([None, None]))  # type null
    assert out.type == pa.string() and out.to_pylist() == [None, None]


def test_empty_arrays():
    for t in (pa.string(), pa.large_string(), pa.binary()):
        out, err = iribulk.to_uri_batch(pa.array([], t), errors=True)
        assert len(out) == 0 and len(err) == 0
    out = iribulk.to_uri_batch(pa.chunked_array([], pa.string()))
    assert isinstance(out, pa.ChunkedArray) and len(out) == 0 and out.type == pa.string()
    assert iribulk.to_uri_batch(pa.array([""])).to_pylist() == [""]


def test_chunked_arrays_keep_their_chunks():
    ca = pa.chunked_array([[GOOD, None], [], [BAD, PLAIN, GOOD]])
    out, err = iribulk.to_uri_batch(ca, errors=True)
    assert isinstance(out, pa.ChunkedArray) and isinstance(err, pa.ChunkedArray)
    assert [len(c) for c in out.chunks] == [2, 0, 3]
    assert out.to_pylist() == [GOOD_URI, None, BAD, PLAIN, GOOD_URI]
    assert err.is_null().to_pylist() == [True, True, False, True, True]


def test_sliced_arrays_non_zero_offset():
    base = pa.array([BAD, GOOD, None, PLAIN, "http://ü/", BAD] * 3)
    for off in range(0, 7):
        for length in (0, 1, 5, 11):
            s = base.slice(off, length)
            out, err = iribulk.to_uri_batch(s, errors=True)
            want = [None if v is None else _scalar_or_keep(v) for v in s.to_pylist()]
            assert out.to_pylist() == want, (off, length)
            assert err.is_null().to_pylist() == [
                v is None or v != BAD for v in s.to_pylist()
            ]


def _scalar_or_keep(v):
    try:
        return iribulk.to_uri(v)
    except iribulk.IriError:
        return v


def test_large_string_stays_large():
    out = iribulk.to_uri_batch(pa.array([GOOD, None], pa.large_string()))
    assert out.type == pa.large_string()
    assert out.to_pylist() == [GOOD_URI, None]


def test_string_view():
    arr = pa.array([GOOD, None, PLAIN], pa.string_view())
    out = iribulk.to_uri_batch(arr)
    assert out.type == pa.string() and out.to_pylist() == [GOOD_URI, None, PLAIN]


def test_binary_with_invalid_utf8():
    arr = pa.array([b"http://a/\xff", GOOD.encode(), b"http://a/\xc3", None], pa.binary())
    out, err = iribulk.to_uri_batch(arr, errors=True)
    assert out.type == pa.binary()
    # keep: the bad rows unchanged, reported as invalid-utf8 with the byte column of the byte.
    assert out.to_pylist() == [b"http://a/\xff", GOOD_URI.encode(), b"http://a/\xc3", None]
    e = err.to_pylist()
    assert e[0]["code"] == "invalid-utf8" and e[0]["column"] == 10
    assert e[2]["code"] == "invalid-utf8" and e[1] is None and e[3] is None
    out = iribulk.to_uri_batch(arr, invalid_utf8="percent")
    assert out.to_pylist()[0] == b"http://a/%FF"
    assert iribulk.to_uri_batch(pa.array([b"\xff"], pa.large_binary())).type == pa.large_binary()


def test_errors_struct():
    out, err = iribulk.to_uri_batch(pa.array([PLAIN, BAD, "http://a/\u202e"]), errors=True)
    assert err.type == pa.struct(
        [("code", pa.string()), ("column", pa.int64()), ("message", pa.string()),
         ("warning", pa.bool_())]
    )
    e = err.to_pylist()
    assert e[0] is None
    assert e[1] == {
        "code": "bad-percent",
        "column": 10,
        "message": "'%' not followed by two hex digits",
        "warning": False,
    }
    # A warning: the row is converted, and reported.
    assert e[2]["code"] == "bidi-format" and e[2]["warning"] is True
    assert out.to_pylist()[2] == "http://a/%E2%80%AE"
    # strict: the same warning is an error and the row is kept.
    out, err = iribulk.to_uri_batch(pa.array(["http://a/\u202e"]), errors=True, strict=True)
    assert err.to_pylist()[0]["warning"] is False and out.to_pylist() == ["http://a/\u202e"]


def test_on_error_modes():
    arr = pa.array([PLAIN, BAD, GOOD])
    assert iribulk.to_uri_batch(arr).to_pylist() == [PLAIN, BAD, GOOD_URI]
    assert iribulk.to_uri_batch(arr, on_error="null").to_pylist() == [PLAIN, None, GOOD_URI]
    with pytest.raises(iribulk.IriError) as ei:
        iribulk.to_uri_batch(arr, on_error="fail")
    assert (ei.value.code, ei.value.column, ei.value.row) == ("bad-percent", 10, 1)
    with pytest.raises(ValueError, match="on_error"):
        iribulk.to_uri_batch(arr, on_error="skip")
    with pytest.raises(iribulk.IriError) as ei:
        iribulk.to_uri_batch(pa.chunked_array([[PLAIN], [PLAIN, BAD]]), on_error="fail")
    assert ei.value.row == 2


def test_wrong_types_are_refused():
    with pytest.raises(TypeError, match="string"):
        iribulk.to_uri_batch(pa.array([1, 2]))
    with pytest.raises(TypeError):
        iribulk.to_uri_batch(["not", "arrow"])
    with pytest.raises(ValueError, match="host"):
        iribulk.to_uri_batch(pa.array([PLAIN]), host="idna2008")


def test_consumed_capsules_are_a_value_error():
    """A producer that hands out the same capsules twice: the second import finds a released
    array, a ValueError (it was a Rust panic, a PanicException, found by a QA sweep)."""
    caps = pa.array([GOOD]).__arrow_c_array__()

    class Twice:
        def __arrow_c_array__(self, requested_schema=None):
            return caps

    assert iribulk.to_uri_batch(Twice()).to_pylist() == [GOOD_URI]
    with pytest.raises(ValueError, match="already consumed"):
        iribulk.to_uri_batch(Twice())


@pytest.mark.parametrize("typ", [pa.binary(), pa.string()])
@pytest.mark.parametrize("offsets", [[0, 50, 3], [5, 2, 9]])
@pytest.mark.parametrize("fn", [iribulk.to_uri_batch, iribulk.check_batch])
def test_bad_offsets_are_a_value_error(typ, offsets, fn):
    """Offsets that descend (pa.Array.from_buffers checks only that they stay inside the
    buffer) raise ValueError; they were a segmentation fault (a QA sweep)."""
    import struct

    offs = pa.py_buffer(struct.pack("<3i", *offsets))
    bad = pa.Array.from_buffers(typ, 2, [None, offs, pa.py_buffer(b"http://a/" * 10)])
    with pytest.raises(ValueError, match="invalid Arrow array"):
        fn(bad)
    # The same buffers with ascending offsets inside the buffer convert.
    good = pa.Array.from_buffers(
        typ, 2, [None, pa.py_buffer(struct.pack("<3i", 0, 9, 18)), pa.py_buffer(b"http://a/" * 10)]
    )
    assert fn(good) is not None


def test_schema_over_other_buffers_is_a_value_error():
    """A producer whose schema says string over an int64 array's buffers: arrow-rs's import
    asserts, which was a PanicException (not an Exception); now a ValueError."""
    ints = pa.array(list(range(100)), pa.int64())

    class Lying:
        def __arrow_c_array__(self, requested_schema=None):
            return pa.string().__arrow_c_schema__(), ints.__arrow_c_array__()[1]

    with pytest.raises(ValueError, match="invalid Arrow array"):
        iribulk.to_uri_batch(Lying())


def test_bad_view_is_a_value_error():
    """A string_view whose view points past its data buffer raises ValueError."""
    import struct

    data = pa.py_buffer(b"http://example.com/")
    # length 19 (> 12: held in data buffer 0), prefix, buffer 0, offset 0: fits.
    ok = struct.pack("<I4sII", 19, b"http", 0, 0)
    good = pa.Array.from_buffers(pa.string_view(), 1, [None, pa.py_buffer(ok), data])
    assert iribulk.to_uri_batch(good).to_pylist() == ["http://example.com/"]
    for view in (struct.pack("<I4sII", 19, b"http", 0, 1000), struct.pack("<I4sII", 19, b"http", 3, 0)):
        bad = pa.Array.from_buffers(pa.string_view(), 1, [None, pa.py_buffer(view), data])
        with pytest.raises(ValueError, match="invalid Arrow array"):
            iribulk.to_uri_batch(bad)


def test_polars_series():
    try:
        import polars as pl
    except ImportError:
        skip("polars is not installed (pip install polars)")
    s = pl.Series("url", [GOOD, None, BAD, PLAIN])
    out, err = iribulk.to_uri_batch(s, errors=True)
    assert out.to_pylist() == [GOOD_URI, None, BAD, PLAIN]
    assert err.is_null().to_pylist() == [True, True, False, True]
    back = pl.Series("uri", out)
    assert back.to_list() == [GOOD_URI, None, BAD, PLAIN]
    # Polars DataFrame column, as the README shows.
    df = pl.DataFrame({"url": [GOOD, PLAIN]})
    df = df.with_columns(uri=pl.Series(iribulk.to_uri_batch(df["url"])))
    assert df["uri"].to_list() == [GOOD_URI, PLAIN]


def test_polars_all_null_series():
    """An all-null Polars Series (dtype Null), alone, from a DataFrame, sliced, in two chunks
    or empty: null in, null out in every batch function, as pyarrow's null type (found by a QA
    sweep: Polars exports it with a buffer that arrow-rs's importer refused, a ValueError "C
    Data interface error")."""
    try:
        import polars as pl
    except ImportError:
        skip("polars is not installed (pip install polars)")
    df = pl.DataFrame({"url": [None, None, None]})
    assert df["url"].dtype == pl.Null
    two = pl.concat([pl.Series("u", [None]), pl.Series("u", [None, None])], rechunk=False)
    assert two.n_chunks() == 2
    series = [pl.Series("u", [None, None]), df["url"], df["url"].slice(1, 2), two,
              pl.Series("u", [], dtype=pl.Null)]
    for s in series:
        n = len(s)
        for mode, f in BATCH.items():
            out = f(s)
            assert out.type == pa.string() and out.to_pylist() == [None] * n, (mode, n)
            for on_error in ("keep", "null", "fail"):
                out, err = f(s, errors=True, on_error=on_error)
                assert out.to_pylist() == [None] * n and err.to_pylist() == [None] * n
                assert len(out) == len(err) == n
        out = iribulk.to_uri_batch(s, charset="gbk", on_error="null")
        assert out.to_pylist() == [None] * n
    assert [len(c) for c in iribulk.to_uri_batch(two).chunks] == [1, 2]
    # A column with nulls and strings still converts its strings.
    df = pl.DataFrame({"url": [None, GOOD]})
    assert iribulk.to_uri_batch(df["url"]).to_pylist() == [None, GOOD_URI]


def test_million_rows():
    """10^6 rows, a tenth with work to do: every row right, errors counted at scale. (Speed and
    linear growth are a benchmark's claim, not a unit test's: a timing assertion here failed on
    a loaded CI machine. `scripts/bench` and the README's Python section give the numbers.)"""
    unit = [PLAIN, GOOD, "http://example.org/x?y=1", BAD, "https://a.b/c"] * 2
    big = pa.array(unit * 100_000)
    out, err = iribulk.to_uri_batch(big, errors=True)
    assert len(out) == 1_000_000 and len(err) == 1_000_000
    assert out[1].as_py() == GOOD_URI and out[999_996].as_py() == GOOD_URI
    assert out[3].as_py() == BAD and err[3].is_valid and not err[1].is_valid
    assert err.null_count == 1_000_000 - 200_000


def test_two_python_threads_at_once():
    arr = pa.array([GOOD, PLAIN, BAD, "http://ü.example/é"] * 50_000)
    arr2 = pa.array(["http://xn--bcher-kva.de/%C3%BC", PLAIN] * 50_000)
    want1 = iribulk.to_uri_batch(arr, errors=True)
    want2 = iribulk.to_iri_batch(arr2)
    results, failures = {}, []

    def work(k):
        try:
            for _ in range(3):
                if k % 2:
                    got = iribulk.to_uri_batch(arr, errors=True)
                    assert got[0].equals(want1[0]) and got[1].equals(want1[1])
                else:
                    assert iribulk.to_iri_batch(arr2).equals(want2)
                assert iribulk.to_uri(GOOD) == GOOD_URI
            results[k] = True
        except BaseException as e:  # reported below
            failures.append(e)

    ts = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not failures, failures
    assert results == {0: True, 1: True}


def test_threads_option():
    arr = pa.array([GOOD, BAD] * 10_000)
    assert iribulk.to_uri_batch(arr, threads=1).equals(iribulk.to_uri_batch(arr, threads=2))


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs Linux's /proc/self/task")
def test_threads_pool_is_kept_between_calls():
    """A loop of batches with the same threads=N starts its workers once: the later calls
    run on the threads the first one started (named iribulk-N-k; their thread ids stay the
    same), and a call with another count gets its own pool."""
    import time

    arr = pa.array([GOOD] * 1000)

    def workers(n):
        found = set()
        for t in os.listdir("/proc/self/task"):
            try:
                with open(f"/proc/self/task/{t}/comm") as f:
                    if f.read().startswith(f"iribulk-{n}-"):
                        found.add(t)
            except OSError:  # the thread ended meanwhile
                pass
        return found

    def settled(n):
        # Workers of an earlier pool of n threads that was let go may still be ending.
        for _ in range(200):
            w = workers(n)
            if len(w) == n:
                return w
            time.sleep(0.01)
        raise AssertionError(f"{len(workers(n))} workers of a pool of {n}")

    iribulk.to_uri_batch(arr, threads=3)
    first = settled(3)
    for _ in range(5):
        assert iribulk.to_uri_batch(arr, threads=3).to_pylist() == [GOOD_URI] * 1000
    assert workers(3) == first
    iribulk.to_uri_batch(arr, threads=2)
    assert len(settled(2)) == 2


@pytest.mark.parametrize("typ", [pa.string(), pa.large_string()])
def test_string_array_with_invalid_utf8(typ):
    """Spark hands over string columns without checking UTF-8: such a row is `invalid-utf8`
    at the same column as in a binary array, and kept with U+FFFD for each malformed
    sequence (a string array must be UTF-8) instead of failing the batch (a QA sweep's
    case: 'internal error: result is not UTF-8')."""
    rows = [b"http://a/caf\xff/x", "http://bü.de/".encode(), None, b"\xc3http://a/"]
    btyp = pa.binary() if typ == pa.string() else pa.large_binary()
    b = pa.array(rows, btyp)
    s = pa.Array.from_buffers(typ, len(b), b.buffers())
    out, errs = iribulk.to_uri_batch(s, errors=True)
    bout, berrs = iribulk.to_uri_batch(b, errors=True)
    assert out.type == typ
    assert out.to_pylist() == [
        "http://a/caf\ufffd/x", "http://xn--b-eha.de/", None, "\ufffdhttp://a/"]
    assert bout.to_pylist()[0] == rows[0]  # binary keeps the bytes
    assert [e and (e["code"], e["column"]) for e in errs.to_pylist()] == [
        e and (e["code"], e["column"]) for e in berrs.to_pylist()]
    assert errs.to_pylist()[0]["code"] == "invalid-utf8"
    nulls = iribulk.to_uri_batch(s, on_error="null")
    assert nulls.to_pylist() == [None, "http://xn--b-eha.de/", None, None]
    for fn in (iribulk.check_batch, iribulk.normalize_batch, iribulk.to_iri_batch):
        r = fn(s)
        assert r.to_pylist()[0] == "http://a/caf\ufffd/x", fn


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
@pytest.mark.parametrize("threads", [2, 0])
def test_threads_pool_after_fork(threads):
    """A process forked after a call with threads=N has none of the kept pool's workers: its
    own call with the same N builds a pool instead of waiting for them forever (a QA sweep's
    hang; multiprocessing's fork start method). threads=0, the default, too (a later sweep:
    it used rayon's global pool, which a child cannot rebuild); 20,000 rows, so that the
    work is split across the workers."""
    n = 20_000
    arr = pa.array([GOOD] * n)
    iribulk.to_uri_batch(arr, threads=threads)
    _fork_and_convert(arr, threads, "the forked child")


def _fork_and_convert(arr, threads, who):
    """Forks a child that converts `arr` with `threads` and exits 0 when every row is
    GOOD_URI; the child must finish within 30 s (it is killed otherwise)."""
    import time

    pid = os.fork()
    if pid == 0:
        ok = iribulk.to_uri_batch(arr, threads=threads).to_pylist() == [GOOD_URI] * len(arr)
        os._exit(0 if ok else 1)
    for _ in range(300):
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            assert os.waitstatus_to_exitcode(status) == 0
            return
        time.sleep(0.1)
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    raise AssertionError(f"{who} did not finish in 30 s")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_fork_while_another_thread_is_in_a_batch_call():
    """A child forked while another thread is inside a batch call (so perhaps holding the
    kept pool's lock, or building a pool) gets a pool of its own and never waits on the
    parent's lock: about one child in thirty waited forever (a QA sweep). 30 forks; each
    child must answer within 30 s."""
    arr = pa.array([GOOD] * 2_000)
    stop = threading.Event()

    def spin():
        k = 0
        while not stop.is_set():
            # Alternating counts rebuild the kept pool under its lock: the widest window.
            iribulk.to_uri_batch(arr, threads=(1, 2, 0)[k % 3])
            k += 1

    t = threading.Thread(target=spin, daemon=True)
    t.start()
    try:
        for _ in range(30):
            _fork_and_convert(arr, 0, "a child forked during a batch call")
    finally:
        stop.set()
        t.join()


@pytest.mark.parametrize("fn,scalar,prev,row", [
    ("to_iri_batch", "to_iri", "a", "%CC%81x"),
    ("to_iri_batch", "to_iri", "a\u0301", "%CC%B8"),
    ("normalize_batch", "normalize", "a", "\u0301x"),
    ("normalize_batch", "normalize", "x%2", "%CC%81x"),
])
def test_a_row_does_not_depend_on_the_row_before(fn, scalar, prev, row):
    """Rows are written back to back: a leading combining mark was judged on the previous
    row's last character (after the row `a`, `%CC%81x` was decoded onto it; a QA sweep). Each
    row of the batch equals the scalar function, after every kind of row before it."""
    want = getattr(iribulk, scalar)(row)
    for rows in ([row], [prev, row], [prev, None, row], [prev, "", row]):
        for typ in (pa.string(), pa.large_string(), pa.binary()):
            arr = pa.array([r if r is None or typ != pa.binary() else r.encode() for r in rows],
                           type=typ)
            got = getattr(iribulk, fn)(arr).to_pylist()[-1]
            if isinstance(got, bytes):
                got = got.decode()
            assert got == want, (fn, rows, typ)


def test_same_as_the_cli_on_the_sample():
    """Each line of datasets/sample.txt through to_uri_batch equals the CLI's output line, and
    the rows with errors are the lines the CLI reports (line, column, code, message)."""
    cli = cli_binary()
    if cli is None:
        skip("no iribulk CLI (build it with cargo build, or set IRIBULK_CLI)")
    sample = REPO / "datasets" / "sample.txt"
    data = sample.read_bytes()
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    lines = [l[:-1] if l.endswith(b"\r") else l for l in lines]
    p = subprocess.run(
        [str(cli), "--in", str(sample), "--errors", "/dev/stderr", "--quiet"],
        capture_output=True,
    )
    assert p.returncode in (0, 3), p.stderr[-2000:]
    cli_lines = p.stdout.split(b"\n")
    assert cli_lines[-1] == b""
    cli_lines = cli_lines[:-1]
    arr = pa.array(lines, pa.binary())
    out, err = iribulk.to_uri_batch(arr, errors=True)
    assert len(out) == len(lines) == len(cli_lines)
    for i, (a, b) in enumerate(zip(out.to_pylist(), cli_lines)):
        assert a == b.rstrip(b"\r"), (i + 1, a, b)
    # The report's columns by name (its header): file, line, column, code, message, input.
    header, *rows = [r.split(b"\t") for r in p.stderr.split(b"\n") if r]
    col = {name.decode(): k for k, name in enumerate(header)}
    assert {"file", "line", "column", "code", "message"} <= col.keys(), header
    assert rows, "the sample has bad lines: the report cannot be empty"
    assert {r[col["file"]] for r in rows} == {str(sample).encode()}
    cli_rows = {
        (int(r[col["line"]]), int(r[col["column"]]), r[col["code"]].decode(),
         r[col["message"]].decode())
        for r in rows
    }
    ours = {
        (i + 1, e["column"], e["code"], _report_message(e))
        for i, e in enumerate(err.to_pylist())
        if e is not None
    }
    assert ours == cli_rows


def _report_message(e) -> str:
    """The message column of the CLI's report for an errors-struct row: warnings are written
    with a "warning: " prefix there, the struct says so in its `warning` field instead."""
    return ("warning: " if e["warning"] else "") + e["message"]


def test_base_like_the_cli():
    """With base=, results and report columns are the CLI's --base ones: a column points into
    the reference as written (the engine maps the resolved target back), not into the target."""
    cli = cli_binary()
    if cli is None:
        skip("no iribulk CLI (build it with cargo build, or set IRIBULK_CLI)")
    base = "http://a/b/c/d;p?q"
    refs = ["g", "../x/ü/%zz#f", "d/%zz", "?q=ü", "#%zz", "//h\x01/", "g h", "../../../g"]
    p = subprocess.run(
        [str(cli), "-q", "--base", base, "--errors", "/dev/stderr"],
        input="".join(r + "\n" for r in refs).encode(),
        capture_output=True,
    )
    assert p.returncode in (0, 3), p.stderr
    header, *rows = [r.split(b"\t") for r in p.stderr.split(b"\n") if r]
    col = {name.decode(): k for k, name in enumerate(header)}
    report = {(int(r[col["line"]]), int(r[col["column"]]), r[col["code"]].decode()) for r in rows}
    assert len(report) >= 3
    out, err = iribulk.to_uri_batch(pa.array(refs), base=base, errors=True)
    assert [o.encode() for o in out.to_pylist()] == p.stdout.split(b"\n")[:-1]
    assert {(i + 1, e["column"], e["code"]) for i, e in enumerate(err.to_pylist()) if e} == report
    for i, r in enumerate(refs):
        bad = [c for (line, c, _) in report if line == i + 1]
        if bad:
            with pytest.raises(iribulk.IriError) as ei:
                iribulk.to_uri(r, base=base)
            assert ei.value.column == bad[0]


def test_a_base_whose_host_the_call_refuses_is_a_value_error():
    """As the CLI's --base (found by a QA sweep: each relative row was `idna` at column 1):
    a host that the call's host mode refuses is a ValueError before any value is read; the
    same base is one with host="percent"."""
    zwj = "http://pay\u200dpal.com/"
    for f in (lambda: iribulk.to_uri("g", base=zwj),
              lambda: iribulk.to_uri_batch(pa.array(["g"]), base=zwj),
              lambda: iribulk.to_uri("g", base="http://127\u30021/")):
        with pytest.raises(ValueError, match="idna|ambiguous-ipv4"):
            f()
    assert iribulk.to_uri("g", base=zwj, host="percent") == "http://pay%E2%80%8Dpal.com/g"


def test_threads_are_bounded():
    """As the CLI's --threads (found by a QA sweep: threads=10**9 never returned)."""
    arr = pa.array(["http://a/"])
    with pytest.raises(ValueError, match="at most 1024"):
        iribulk.to_uri_batch(arr, threads=1025)
    assert iribulk.to_uri_batch(arr, threads=3).to_pylist() == ["http://a/"]
