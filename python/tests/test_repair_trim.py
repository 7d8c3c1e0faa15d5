"""repair= and trim= (issue 13, contract item 16): the CLI's `--repair LIST` and `--trim`, with
the CLI's meaning. On the same input the scalar and the batch functions give the CLI's results,
error codes, columns and messages (and, in batch, its warnings): hostile.tsv's `--repair` rows
(with and without the repair), and host_integrity.tsv's rows as they are and with `--trim`."""

from __future__ import annotations

import subprocess
from collections import defaultdict
from typing import Dict, List, Tuple

import pyarrow as pa
import pytest

import iribulk
from conftest import BATCH, SCALAR, cli_binary, read_tsv, skip, to_uri_kwargs, unescape, value

# What the CLI reports for one line: (column, code, message, warning).
Issue = Tuple[int, str, str, bool]
# The report's hint for an error at a TAB (src/engine/report.rs, TAB_HINT): it is about the
# CLI's own --field flag, so the Python messages (the library's) do not carry it.
TAB_HINT = " (a TAB: did you mean --field N?)"


def cli_flags(kw: Dict[str, object]) -> List[str]:
    """Keyword arguments as the CLI's flags (contract item 16: `_` for `-`)."""
    out: List[str] = []
    for k, v in kw.items():
        flag = "--" + k.replace("_", "-")
        if v is True:
            out.append(flag)
        elif v is not False and v is not None:
            out += [flag, str(v)]
    return out


def run_cli(mode: str, kw: Dict[str, object], inputs: List[bytes]):
    """The CLI on `inputs` (one per line): the lines it writes, and its report by line."""
    cli = cli_binary()
    if cli is None:
        skip("no iribulk CLI (cargo build, or set IRIBULK_CLI)")
    for v in inputs:
        assert b"\n" not in v and not v.endswith(b"\r"), v  # one value, one line
    p = subprocess.run(
        [str(cli), "-q", "--mode", mode, *cli_flags(kw), "--errors", "/dev/stderr"],
        input=b"".join(v + b"\n" for v in inputs),
        capture_output=True,
    )
    assert p.returncode in (0, 3), p.stderr[-2000:]
    lines = p.stdout.split(b"\n")
    assert lines[-1] == b"" and len(lines) == len(inputs) + 1, (mode, kw, p.stdout)
    header, *rows = [r.split(b"\t") for r in p.stderr.split(b"\n") if r]
    col = {name.decode(): k for k, name in enumerate(header)}
    report: Dict[int, Issue] = {}
    for r in rows:
        line = int(r[col["line"]]) - 1
        msg = r[col["message"]].decode()
        warning = msg.startswith("warning: ")
        if msg.endswith(TAB_HINT):
            msg = msg[: -len(TAB_HINT)]
        assert line not in report, (mode, kw, r)
        report[line] = (int(r[col["column"]]), r[col["code"]].decode(),
                        msg[len("warning: "):] if warning else msg, warning)
    return lines[:-1], report


def scalar_result(mode: str, kw: Dict[str, object], v: bytes):
    """(output, None) or (None, (column, code, message)) from the scalar function."""
    try:
        out = SCALAR[mode](value(v), **kw)
    except iribulk.IriError as e:
        return None, (e.column, e.code, e.message)
    return out.encode("utf-8"), None


def compare(mode: str, kw: Dict[str, object], ids: List[str], inputs: List[bytes]):
    """Scalar and batch against the CLI on `inputs`; returns the ids whose scalar result
    differs (for the caller's xfail bookkeeping) after asserting the batch is the CLI's."""
    lines, report = run_cli(mode, kw, inputs)
    binary = any(isinstance(value(v), bytes) for v in inputs)
    arr = pa.array([value(v) if not binary else v for v in inputs],
                   pa.binary() if binary else pa.string())
    out, err = BATCH[mode](arr, errors=True, **kw)
    for i, rid in enumerate(ids):
        got = out[i].as_py()
        got = got if isinstance(got, bytes) else got.encode("utf-8")
        assert got == lines[i], (rid, mode, kw, got, lines[i])
        e = err[i].as_py()
        ours = None if e is None else (e["column"], e["code"], e["message"], e["warning"])
        assert ours == report.get(i), (rid, mode, kw, ours, report.get(i))
    differ = []
    for i, rid in enumerate(ids):
        s_out, s_err = scalar_result(mode, kw, inputs[i])
        cli_issue = report.get(i)
        if cli_issue is not None and not cli_issue[3]:
            ok = s_err == cli_issue[:3]
        else:
            ok = s_err is None and s_out == lines[i]
        if not ok:
            differ.append((rid, s_out, s_err, lines[i], cli_issue))
    return differ


# --- hostile.tsv: the --repair rows -------------------------------------------------------------

def repair_groups():
    groups = defaultdict(list)
    for r in read_tsv("hostile.tsv"):
        rid, _src, mode, opts, inp, _expected, _notes = r
        if "repair=" in opts:
            groups[(mode, opts)].append((rid, unescape(inp)))
    assert sum(len(g) for g in groups.values()) >= 10, "hostile.tsv's --repair rows moved"
    return sorted(groups.items())


@pytest.mark.parametrize("group", repair_groups(), ids=lambda g: f"{g[0][0]}:{g[0][1]}")
def test_repair_rows_like_the_cli(group):
    (mode, opts), rows = group
    kw = to_uri_kwargs(opts)
    assert "repair" in kw
    ids, inputs = [r[0] for r in rows], [r[1] for r in rows]
    assert compare(mode, kw, ids, inputs) == []
    # The same lines without the repair: the CLI's errors (bad-bracket, bad-percent...).
    plain = {k: v for k, v in kw.items() if k != "repair"}
    assert compare(mode, plain, ids, inputs) == []
    # A sequence of names is the comma list.
    names = [n for n in str(kw["repair"]).split(",")]
    for v in inputs:
        assert scalar_result(mode, {**kw, "repair": names}, v) == scalar_result(mode, kw, v)
        assert scalar_result(mode, {**kw, "repair": tuple(names)}, v) == scalar_result(mode, kw, v)


def test_repair_values():
    url = "http://h/[%]#a#"
    assert iribulk.to_uri(url, repair="all") == "http://h/%5B%25%5D#a%23"
    assert iribulk.to_uri(url, repair=["brackets", "percent", "hash"]) == "http://h/%5B%25%5D#a%23"
    assert iribulk.to_uri(url, repair=" brackets , percent,hash") == "http://h/%5B%25%5D#a%23"
    with pytest.raises(iribulk.IriError) as ei:
        iribulk.to_uri(url, repair=[])  # no repair asked: the CLI's error without --repair
    assert ei.value.code == "bad-bracket"
    with pytest.raises(ValueError, match="unknown repair 'bogus'"):
        iribulk.to_uri(url, repair="brackets,bogus")
    with pytest.raises(ValueError, match="unknown repair ''"):
        iribulk.to_uri(url, repair="")
    with pytest.raises(ValueError, match="strict"):
        iribulk.to_uri(url, repair="all", strict=True)
    with pytest.raises(ValueError, match="strict"):
        iribulk.to_uri_batch(pa.array([url]), repair="all", strict=True)
    with pytest.raises(TypeError):
        iribulk.to_uri(url, repair=b"all")
    with pytest.raises(TypeError):
        iribulk.to_uri(url, repair=3)
    with pytest.raises(TypeError):
        iribulk.to_uri(url, repair=["brackets", 3])
    # The modes of the CLI's --repair: to-uri, leiri-to-iri, normalize; not check, to-iri.
    assert iribulk.leiri_to_iri("http://a/b c[1]", repair="brackets") == "http://a/b%20c%5B1%5D"
    assert iribulk.normalize("HTTP://A/x[1]", repair="brackets") == "http://a/x%5B1%5D"
    for f in (iribulk.check, iribulk.to_iri, iribulk.check_batch, iribulk.to_iri_batch):
        with pytest.raises(TypeError):
            f("http://a/" if not f.__name__.endswith("_batch") else pa.array([]), repair="all")


def test_repair_warnings_and_columns_in_batch():
    arr = pa.array(["http://example.org/[CFA]-franc.html", "http://a[b]:8x/", None, "http://a/"])
    out, err = iribulk.to_uri_batch(arr, repair="brackets", errors=True, on_error="null")
    assert out.to_pylist() == ["http://example.org/%5BCFA%5D-franc.html", None, None, "http://a/"]
    e = err.to_pylist()
    assert (e[0]["code"], e[0]["column"], e[0]["warning"]) == ("repaired-bracket", 20, True)
    assert (e[1]["code"], e[1]["column"], e[1]["warning"]) == ("bad-port", 14, False)
    assert e[2] is None and e[3] is None


# --- host_integrity.tsv: as they are, and with --trim ---------------------------------------------

def integrity_rows():
    rows = []
    for r in read_tsv("host_integrity.tsv"):
        rid, _src, mode, opts, base, inp, _expected, _warning = r
        kw = to_uri_kwargs(opts)
        if mode == "normalize-syntax":
            mode = "normalize"
        elif mode == "normalize-unicode":
            mode, kw = "normalize", {**kw, "idn": "unicode"}
        if base != "-":
            kw["base"] = unescape(base).decode("utf-8")
        v = unescape(inp)
        if b"\n" in v or v.endswith(b"\r"):
            continue  # not one CLI line; the table's other rows cover the rule
        rows.append((rid, mode, kw, v))
    assert len(rows) >= 60 and sum("trim" in kw for _, _, kw, _ in rows) >= 3
    return rows


# Rows whose options the CLI refuses for their mode (a usage error, exit 2): the Rust library
# (and so the table) takes them; the CLI and the Python functions refuse them
# (test_cli_and_python_refuse_these_rows).
CLI_REFUSES = {
    "idna2003-normalize": "--host in --mode normalize needs --idn or --level scheme",
}


def integrity_groups(with_trim: bool):
    groups = defaultdict(list)
    for rid, mode, kw, v in integrity_rows():
        if rid in CLI_REFUSES:
            continue
        if with_trim:
            if mode == "check" or "trim" in kw:
                continue  # check has no --trim (it repairs nothing); rows with it run as-is
            kw = {**kw, "trim": True}
        key = (mode, tuple(sorted(kw.items())))
        groups[key].append((rid, v))
    return sorted(groups.items(), key=lambda g: repr(g[0]))


# The scalar functions' comparisons that differ from the CLI today (none: the bindings convert
# with the engine's own per-line operation, host-integrity checks included). A row listed here
# would be an xfail(strict=True), so that it fails once it starts to agree.
SCALAR_DIFFERS: set = set()


@pytest.mark.parametrize("with_trim", [False, True], ids=["as-is", "trim"])
def test_integrity_rows_like_the_cli(with_trim):
    differ = []
    n = 0
    for (mode, kw_items), rows in integrity_groups(with_trim):
        kw = dict(kw_items)
        ids, inputs = [r[0] for r in rows], [r[1] for r in rows]
        differ += compare(mode, kw, ids, inputs)
        n += len(rows)
    assert n >= 40
    assert {d[0] for d in differ} == SCALAR_DIFFERS, differ


def test_cli_and_python_refuse_these_rows():
    rows = {rid: (mode, kw) for rid, mode, kw, _ in integrity_rows()}
    for rid, why in CLI_REFUSES.items():
        mode, kw = rows[rid]
        # A ValueError before any value is read (found by a QA sweep: the option was ignored).
        with pytest.raises(ValueError):
            getattr(iribulk, mode.replace("-", "_"))("http://a/", **kw)
    cli = cli_binary()
    if cli is None:
        skip("no iribulk CLI (cargo build, or set IRIBULK_CLI)")
    for rid, why in CLI_REFUSES.items():
        mode, kw = rows[rid]
        p = subprocess.run([str(cli), "-q", "--mode", mode, *cli_flags(kw)], input=b"",
                           capture_output=True)
        assert p.returncode == 2, (rid, why, p.stderr)


def test_trim_values():
    assert iribulk.to_uri("http://good.com ", trim=True) == "http://good.com"
    with pytest.raises(iribulk.IriError) as ei:
        iribulk.to_uri("http://good.com ")
    assert (ei.value.code, ei.value.column) == ("browser-stripped", 16)
    assert iribulk.to_iri("\thttp://xn--bcher-kva.de/", trim=True) == "http://bücher.de/"
    assert iribulk.leiri_to_iri("\x01http://good.com/\x1f", trim=True) == "http://good.com/"
    assert iribulk.normalize(" HTTP://Good.com/ ", trim=True) == "http://good.com/"
    # Any scheme with an authority: browsers strip there too (found by a QA sweep).
    assert iribulk.to_uri("foo://a.b ", trim=True) == "foo://a.b"
    with pytest.raises(iribulk.IriError) as ei:
        iribulk.to_uri("foo://a.b ")
    assert ei.value.code == "browser-stripped"
    # No authority: no host to move, nothing trimmed.
    assert iribulk.to_uri("mailto:a@b.c ", trim=True) == iribulk.to_uri("mailto:a@b.c ")
    out, err = iribulk.to_uri_batch(pa.array(["http://good.com ", " http://a/"]), trim=True,
                                    errors=True)
    assert out.to_pylist() == ["http://good.com", "http://a/"]
    assert err.is_null().to_pylist() == [True, True]
    with pytest.raises(TypeError):
        iribulk.check("http://a/ ", trim=True)  # check repairs nothing, as the CLI's --trim
