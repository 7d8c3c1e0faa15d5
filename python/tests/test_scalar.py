"""The scalar functions: results, errors, options named as the CLI's flags, docs."""

from __future__ import annotations

import doctest
import inspect
import pickle
import re
import subprocess
from typing import Dict, Set, Tuple

import pyarrow as pa
import pytest

import iribulk
from conftest import REPO, SCALAR, cli_binary, skip


def test_to_uri_basics():
    assert iribulk.to_uri("http://résumé.example.org/ros%C3%A9#red") == (
        "http://xn--rsum-bpad.example.org/ros%C3%A9#red"
    )
    assert iribulk.to_uri("http://résumé.example.org/", host="percent") == (
        "http://r%C3%A9sum%C3%A9.example.org/"
    )
    assert iribulk.to_uri(b"http://a/\xff", invalid_utf8="percent") == "http://a/%FF"
    assert iribulk.to_uri("http://a/b c") == "http://a/b%20c"


def test_unchanged_str_is_the_same_object():
    s = "http://example.org/" + "x" * 10
    assert iribulk.to_uri(s) is s


def test_iri_error_attributes():
    with pytest.raises(iribulk.IriError) as ei:
        iribulk.to_uri("http://a/b c", strict=True)
    e = ei.value
    assert (e.code, e.column) == ("disallowed-ascii", 11)
    assert "not allowed" in e.message and e.row is None
    assert str(e).startswith("disallowed-ascii at column 11: ")
    assert isinstance(e, ValueError)
    e2 = pickle.loads(pickle.dumps(e))
    assert (e2.code, e2.column, e2.message) == (e.code, e.column, e.message)
    with pytest.raises(iribulk.IriError) as ei:
        iribulk.to_uri(b"http://a/\xff")
    assert ei.value.code == "invalid-utf8" and ei.value.column == 10


def test_host_fallback_and_idna():
    bad_host = "http://a\u0300b.com/"  # leading combining mark inside a label fails IDNA
    with pytest.raises(iribulk.IriError) as ei:
        iribulk.to_uri("http://xn--a.\u00fc/")
    assert ei.value.code == "idna"
    assert iribulk.to_uri("http://xn--a.\u00fc/", host_fallback="percent") == (
        "http://xn--a.%C3%BC/"
    )
    assert iribulk.to_uri(bad_host, host="percent").startswith("http://a%CC%80b.com")


def test_other_modes():
    assert iribulk.to_iri("http://xn--rsum-bpad.example.org/ros%C3%A9") == (
        "http://résumé.example.org/rosé"
    )
    assert iribulk.check("http://bücher.de/ü") == "http://bücher.de/ü"
    with pytest.raises(iribulk.IriError) as ei:
        iribulk.check("http://bücher.de/ü", uri=True)
    assert ei.value.code == "non-ascii"
    assert iribulk.normalize("HTTP://Example.ORG/a/./b/../c/%7euser") == (
        "http://example.org/a/c/~user"
    )
    assert iribulk.normalize("http://example.org:80", level="scheme") == "http://example.org/"
    assert iribulk.normalize("http://a/rosé", as_uri=True) == "http://a/ros%C3%A9"
    assert iribulk.leiri_to_iri("http://example.org/a b") == "http://example.org/a%20b"
    assert iribulk.resolve("http://a/b/c/d;p?q", "../g") == "http://a/b/g"
    assert iribulk.to_uri("ü", base="http://bücher.de/a/") == "http://xn--bcher-kva.de/a/%C3%BC"
    with pytest.raises(iribulk.IriError) as ei:
        iribulk.resolve("no-scheme", "g")
    assert ei.value.code == "bad-scheme"


def test_resolve_runs_the_host_integrity_checks():
    """As the CLI's --base and to_uri(ref, base=...) do (found by a QA sweep: resolve() ran
    the grammar's resolver alone)."""
    for base, ref, code in [
        ("http://a/b", "/\\evil.com/", "backslash-reference"),
        ("blob:https://good.com/uuid", "../../evil.com/x", "opaque-base-reference"),
        ("file:///c:/dir/", "/x", "drive-letter-reference"),
        ("http:", "g", "missing-host"),
    ]:
        with pytest.raises(iribulk.IriError) as ei:
            iribulk.resolve(base, ref)
        assert ei.value.code == code, (base, ref)
        if base == "http:":
            # No IRI (an http URI needs a host): refused as the base itself, as by --base.
            with pytest.raises(ValueError, match="is not an IRI: missing-host"):
                iribulk.to_uri(ref, base=base)
            continue
        with pytest.raises(iribulk.IriError) as ei:
            iribulk.to_uri(ref, base=base)
        assert ei.value.code == code, (base, ref)


def test_unchanged_str_is_the_same_object_in_every_mode():
    """README: a str that needs no change comes back as the same object (found by a QA sweep:
    check and normalize returned an equal copy)."""
    s = "".join(["http://example.com/a", "?b#c"])  # built at run time: not an interned constant
    for f in (iribulk.to_uri, iribulk.to_iri, iribulk.leiri_to_iri, iribulk.check,
              iribulk.normalize):
        assert f(s) is s, f.__name__
    changed = "HTTP://example.com/a"
    assert iribulk.normalize(changed) == "http://example.com/a"


def test_options_the_cli_refuses_are_value_errors():
    """Contract item 14: no option is silently ignored (found by a QA sweep: each of these
    was accepted and did nothing, where the CLI exits 2)."""
    for f, kw in [
        (iribulk.to_uri, {"idna2003_no_std3": True}),
        (iribulk.to_uri, {"host": "uts46", "idna2003_no_unassigned": True}),
        (iribulk.check, {"idna2003_no_unassigned": True}),
        (iribulk.to_uri, {"host": "percent", "host_fallback": "percent"}),
        (iribulk.normalize, {"host": "idna2003"}),
        (iribulk.normalize, {"host": "percent", "idn": "ascii"}),
        (iribulk.to_uri, {"base": "/not/absolute"}),
        (iribulk.to_uri, {"base": "1http://x/"}),
        (iribulk.normalize, {"base": ""}),
        # Absolute but no IRI, as the CLI's --base refuses it (iribulk::base_problem).
        (iribulk.to_uri, {"base": "http://a/%zz/c"}),
        (iribulk.check, {"base": "http://a/\x01b"}),
        # --idn unicode does not go with --as-uri (a QA sweep: idn was dropped).
        (iribulk.normalize, {"idn": "unicode", "as_uri": True}),
    ]:
        with pytest.raises(ValueError):
            f("http://a_b.\u00fc.de/", **kw)
    # The same options where they mean something.
    assert iribulk.to_uri("http://a_b.\u00fc.de/", host="idna2003", idna2003_no_std3=True) == (
        "http://a_b.xn--tda.de/"
    )
    assert iribulk.normalize("http://XN--BCHER-KVA.de/", host="idna2003", idn="unicode") == (
        "http://bücher.de/"
    )
    assert iribulk.normalize("HTTP://a/", host="uts46", level="scheme") == "http://a/"
    assert iribulk.to_uri("g", base="http://a/b") == "http://a/g"


def test_lone_surrogate_is_an_iri_error():
    """A str with a lone surrogate has no UTF-8 form: IriError invalid-utf8 (the CLI's code for
    a line that is not UTF-8) at the byte column where the surrogate starts in the str encoded
    with surrogatepass, the column the bytes give (found by a QA sweep: UnicodeEncodeError)."""
    for s, col in [("http://\u00e9/\ud800x", 11), ("\udc80", 1), ("http://a/\ud83d\ude00", 10),
                   ("http://a/b?q=\udfff", 14)]:
        b = s.encode("utf-8", "surrogatepass")
        for mode, f in SCALAR.items():
            with pytest.raises(iribulk.IriError) as ei:
                f(s)
            assert (ei.value.code, ei.value.column, ei.value.row) == ("invalid-utf8", col, None)
            if mode != "to-iri":
                with pytest.raises(iribulk.IriError) as eb:
                    f(b)  # the same bytes, read as the CLI reads a line
                assert (eb.value.code, eb.value.column) == ("invalid-utf8", col), (s, mode)
        for kw in ({"charset": "shift_jis"}, {"invalid_utf8": "percent"}, {"host": "percent"}):
            with pytest.raises(iribulk.IriError) as ei:
                iribulk.to_uri(s, **kw)
            assert (ei.value.code, ei.value.column) == ("invalid-utf8", col)
        # resolve's two arguments too (found by a QA sweep: UnicodeEncodeError escaped).
        with pytest.raises(iribulk.IriError) as ei:
            iribulk.resolve("http://a/", s)
        assert (ei.value.code, ei.value.column) == ("invalid-utf8", col)
        with pytest.raises(iribulk.IriError) as ei:
            iribulk.resolve(s, "x")
        assert (ei.value.code, ei.value.column) == ("invalid-utf8", col)


def test_normalize_host_needs_idn_or_level_scheme_as_on_the_cli():
    """host= given to normalize, "auto" included, needs idn= or level="scheme", as the CLI's
    --host in --mode normalize (found by a QA sweep: the default was "auto", so host="auto"
    alone was accepted where the CLI exits 2). The default is None: the CLI without --host."""
    for f, v in ((iribulk.normalize, "HTTP://a/"), (iribulk.normalize_batch, pa.array(["HTTP://a/"]))):
        assert inspect.signature(f).parameters["host"].default is None
        for host in ("auto", "uts46", "idna2003"):
            with pytest.raises(ValueError, match="idn="):
                f(v, host=host)
            with pytest.raises(ValueError, match="idn="):
                f(v, host=host, level="syntax", case=True)
        for kw in ({}, {"host": None}, {"host": "auto", "idn": "ascii"},
                   {"host": "auto", "level": "scheme"}, {"host": "uts46", "idn": "unicode"}):
            out = f(v, **kw)
            assert (out if isinstance(out, str) else out[0].as_py()) == "http://a/", kw
    cli = cli_binary()
    if cli is None:
        skip("no iribulk CLI (cargo build, or set IRIBULK_CLI)")
    for args, rc in ((["--host", "auto"], 2), (["--host", "auto", "--idn", "ascii"], 0),
                     (["--host", "auto", "--level", "scheme"], 0), ([], 0)):
        r = subprocess.run([str(cli), "--mode", "normalize", *args], input=b"HTTP://a/\n",
                           capture_output=True)
        assert r.returncode == rc, (args, r.stderr)


def test_max_line_bytes():
    with pytest.raises(iribulk.IriError) as ei:
        iribulk.to_uri("http://a/" + "b" * 100, max_line_bytes=64)
    assert ei.value.code == "line-too-long"
    with pytest.raises(ValueError):
        iribulk.to_uri("x", max_line_bytes=0)


def test_bad_option_values_and_types():
    with pytest.raises(ValueError, match="host"):
        iribulk.to_uri("x", host="idna2008")
    with pytest.raises(ValueError, match="host_fallback"):
        iribulk.to_uri("x", host_fallback="drop")
    with pytest.raises(ValueError, match="level"):
        iribulk.normalize("x", level="max")
    with pytest.raises(TypeError):
        iribulk.to_uri(42)
    with pytest.raises(TypeError):
        iribulk.to_iri("x", leiri=True)  # means nothing in to-iri: refused, not ignored


def test_to_iri_strict():
    """A raw character not fit for display is written percent-encoded with a warning, an
    error with strict=True (as the CLI's --strict)."""
    line = "http://ex.com/a\u202eb"
    assert iribulk.to_iri(line) == "http://ex.com/a%E2%80%AEb"
    with pytest.raises(iribulk.IriError) as e:
        iribulk.to_iri(line, strict=True)
    assert (e.value.code, e.value.column) == ("bidi-format", 16)
    assert iribulk.to_iri("http://ex.com/%C3%A9", strict=True) == "http://ex.com/é"


def test_options_are_the_cli_flags():
    """Every keyword of to_uri is a CLI flag (with - for _), and every conversion flag of the
    CLI that means something for one string is a keyword."""
    cli = cli_binary()
    if cli is None:
        skip("no iribulk CLI (cargo build, or set IRIBULK_CLI)")
    text = subprocess.run([str(cli), "--help"], capture_output=True, text=True).stdout
    flags = set(re.findall(r"--([a-z0-9-]+)", text))
    for f in (iribulk.to_uri, iribulk.to_iri, iribulk.check, iribulk.normalize):
        for name in inspect.signature(f).parameters:
            if name in ("s", "max_line_bytes"):
                continue
            flag = name.replace("_", "-")
            assert flag in flags or name == "scheme_rules" and "scheme-rules" in flags, name


# The CLI's table of where each option applies (src/bin/iribulk/cli.rs, `OPTIONS`): rows
# `row("--flag", "clap_id", MODES, NEEDS)`, MODES a name bound in that table with
# `let name = Modes::A.or(Modes::B)...;`.
CLI_SOURCE = REPO / "src" / "bin" / "iribulk" / "cli.rs"
MODE_CONSTANTS = {
    "ALL": {"to-uri", "to-iri", "check", "leiri-to-iri", "normalize"},
    "TO_URI": {"to-uri"},
    "TO_IRI": {"to-iri"},
    "CHECK": {"check"},
    "LEIRI_TO_IRI": {"leiri-to-iri"},
    "NORMALIZE": {"normalize"},
}
# CLI options about files, streams, records or the run, with no meaning for one value or one
# array (the batch functions' errors/on_error/threads are their own: checked apart).
PER_RUN = {
    "files", "input", "output", "mode", "valid_only", "invalid_only", "base_field", "on_error",
    "errors", "errors_format", "field", "delimiter", "charset_field", "threads", "no_mmap",
    "chunk_size", "stats", "stats_file", "exit_zero", "quiet",
}
FUNCTIONS = {
    "to-uri": ("to_uri", "to_uri_batch"),
    "to-iri": ("to_iri", "to_iri_batch"),
    "check": ("check", "check_batch"),
    "leiri-to-iri": ("leiri_to_iri", "leiri_to_iri_batch"),
    "normalize": ("normalize", "normalize_batch"),
}


def cli_options_table() -> Dict[str, Tuple[str, Set[str]]]:
    """clap id -> (flag, modes where it applies), read from the CLI's OPTIONS table."""
    src = CLI_SOURCE.read_text()
    table = src[src.index("pub const OPTIONS: &[Applies]") :]
    table = table[: table.index("\n};")]
    groups: Dict[str, Set[str]] = {}
    for name, expr in re.findall(r"let (\w+) = (Modes::[^;]+);", table):
        consts = re.findall(r"Modes::(\w+)", expr)
        assert consts and all(c in MODE_CONSTANTS for c in consts), (name, expr)
        groups[name] = set().union(*(MODE_CONSTANTS[c] for c in consts))
    assert {"all", "uri"} <= groups.keys(), groups
    rows = re.findall(r'row\(\s*"([^"]+)",\s*"(\w+)",\s*(\w+),', table)
    assert len(rows) >= 30, "the OPTIONS table of the CLI moved or changed shape"
    out = {}
    for flag, ident, group in rows:
        assert group in groups, f"unknown mode group {group} in {CLI_SOURCE}"
        out[ident] = (flag, groups[group])
    return out


def test_keywords_are_the_cli_options_of_their_mode():
    """Contract items 14 and 16, both ways, against the CLI's own table of where each option
    applies: every keyword of a function is an option of that mode (same name, `_` for `-`),
    and every option of that mode that means something for one value is a keyword."""
    table = cli_options_table()
    for mode, names in FUNCTIONS.items():
        want = {i for i, (_, modes) in table.items() if mode in modes and i not in PER_RUN}
        for name in names:
            params = set(inspect.signature(getattr(iribulk, name)).parameters)
            params -= {"s", "array"}
            if name.endswith("_batch"):
                assert {"errors", "on_error", "threads"} <= params, name
                params -= {"errors", "on_error", "threads"}
            for p in params:
                assert p in table, f"{name}({p}=...) is no CLI option"
                flag, modes = table[p]
                assert flag == "--" + p.replace("_", "-"), (name, p, flag)
                assert mode in modes, f"{name}({p}=...): {flag} does not apply to {mode}"
            assert params == want, (name, sorted(want - params), sorted(params - want))


def test_help_reads_well():
    doc = iribulk.to_uri.__doc__
    assert "RFC 3987" in doc and ">>> iribulk.to_uri(" in doc
    sig = str(inspect.signature(iribulk.to_uri))
    assert "host='auto'" in sig and "strict=False" in sig and "host_fallback=None" in sig
    for name in iribulk.__all__:
        f = getattr(iribulk, name)
        if callable(f) and name != "IriError":
            assert f.__doc__ and len(f.__doc__) > 80, name


def test_docstring_examples_run():
    """The examples in the docstrings (what help() shows) are doctests."""
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tested = 0
    for name in iribulk.__all__ + ["__doc__"]:
        obj = iribulk if name == "__doc__" else getattr(iribulk, name)
        if not callable(obj) and obj is not iribulk:
            continue
        for t in finder.find(obj, name, globs={}, module=False):
            runner.run(t)
            tested += len(t.examples)
    assert tested >= 15
    assert runner.failures == 0


def test_stub_lists_every_name():
    stub = (REPO / "python" / "iribulk" / "__init__.pyi").read_text()
    for name in iribulk.__all__:
        assert re.search(rf"\b{name}\b", stub), name


def test_stub_signatures_are_the_functions():
    """The .pyi runs (every name it uses is defined) and each function in it has the keywords,
    in order, and the defaults of the real one."""
    ns: Dict[str, object] = {}
    exec(compile((REPO / "python" / "iribulk" / "__init__.pyi").read_text(), "stub", "exec"), ns)
    checked = 0
    for name in iribulk.__all__:
        real = getattr(iribulk, name)
        if not callable(real) or name == "IriError":
            continue
        want = inspect.signature(real).parameters
        got = inspect.signature(ns[name]).parameters
        assert list(got) == list(want), name
        for p in want:
            d = got[p].default
            assert d is Ellipsis or d == want[p].default, (name, p, d, want[p].default)
            assert got[p].kind == want[p].kind, (name, p)
        checked += 1
    assert checked == 11
