"""charset= and query_charset= (issue 12): the Python functions against the CLI's --charset and
--query-charset on the same bytes (tests/data/charset_examples.tsv, read in place), and the
meaning of a str given with a legacy charset (already decoded: NFC and the query rule apply)."""

from __future__ import annotations

import subprocess
import tempfile
import unicodedata
from pathlib import Path
from typing import Dict, List, Tuple

import pyarrow as pa
import pytest

import iribulk
from conftest import cli_binary, read_tsv, skip

ROWS = read_tsv("charset_examples.tsv")  # id, label, input_hex, expected, note
LABELS = sorted({r[1] for r in ROWS})

# The modes whose input is an IRI: (CLI --mode, scalar, batch).
MODES = {
    "to-uri": (iribulk.to_uri, iribulk.to_uri_batch),
    "check": (iribulk.check, iribulk.check_batch),
    "normalize": (iribulk.normalize, iribulk.normalize_batch),
    "leiri-to-iri": (iribulk.leiri_to_iri, iribulk.leiri_to_iri_batch),
}

# Python's codecs for the labels (an encoder independent of encoding_rs, as the table's
# generator uses); rows whose note says Python and WHATWG differ are left out where used.
PY_CODEC = {
    "shift_jis": "shift_jis", "euc-jp": "euc_jp", "gbk": "gbk", "gb18030": "gb18030",
    "big5": "big5", "euc-kr": "euc_kr", "windows-1251": "cp1251", "koi8-r": "koi8_r",
    "windows-1252": "cp1252", "iso-8859-2": "iso8859_2", "windows-874": "cp874",
    "windows-1258": "cp1258",
}


def rows_of(label: str) -> List[List[str]]:
    return [r for r in ROWS if r[1] == label]


def newline(label: str) -> bytes:
    """A line terminator in the charset (a UTF-16 file is transcoded as a stream)."""
    return {"utf-16le": b"\n\x00", "utf-16be": b"\x00\n"}.get(label, b"\n")


def cli() -> Path:
    c = cli_binary()
    if c is None:
        skip("no iribulk CLI (build it with cargo build, or set IRIBULK_CLI)")
    return c


def run_cli(args: List[str], values: List[bytes], label: str):
    """The CLI on a file holding `values`, one per line: (output lines, report rows as
    (line, column, code, message)). The exit status is 0 or 3 (lines kept with errors)."""
    with tempfile.TemporaryDirectory() as d:
        src, out, rep = Path(d, "in.txt"), Path(d, "out.txt"), Path(d, "errors.tsv")
        src.write_bytes(b"".join(v + newline(label) for v in values))
        p = subprocess.run(
            [str(cli()), "-q", *args, "--out", str(out), "--errors", str(rep), str(src)],
            capture_output=True,
        )
        assert p.returncode in (0, 3), (args, p.stderr[-2000:])
        lines = out.read_bytes().split(b"\n")
        assert lines[-1] == b""
        header, *rows = [r.split(b"\t") for r in rep.read_bytes().split(b"\n") if r]
    col = {name.decode(): k for k, name in enumerate(header)}
    report = {
        (int(r[col["line"]]), int(r[col["column"]]), r[col["code"]].decode(),
         r[col["message"]].decode())
        for r in rows
    }
    return lines[:-1], report


def ours(err: pa.Array) -> set:
    """The errors struct as the CLI's report rows (warnings have a "warning: " prefix there)."""
    return {
        (i + 1, e["column"], e["code"], ("warning: " if e["warning"] else "") + e["message"])
        for i, e in enumerate(err.to_pylist())
        if e is not None
    }


def check_like_the_cli(mode: str, label: str, values: List[bytes], kw: Dict[str, object],
                       cli_args: List[str]) -> Tuple[list, set]:
    """Batch (binary array) and scalar (bytes) results and errors equal the CLI's on the same
    bytes, in both the fast path and its naive twin; returns the CLI's (lines, report)."""
    f, fb = MODES[mode]
    lines, report = run_cli(["--mode", mode, "--charset", label, *cli_args], values, label)
    assert len(lines) == len(values)
    arr = pa.array(values, pa.binary())
    for naive in (False, True):
        old = iribulk._iribulk._set_naive(naive)
        try:
            out, err = fb(arr, charset=label, errors=True, **kw)
        finally:
            iribulk._iribulk._set_naive(old)
        assert out.to_pylist() == lines, (mode, label, naive)
        assert ours(err) == report, (mode, label, naive)
    errors = {r[0]: r for r in report if not r[3].startswith("warning: ")}
    for i, v in enumerate(values):
        if i + 1 in errors:
            _, column, code, message = errors[i + 1]
            with pytest.raises(iribulk.IriError) as ei:
                f(v, charset=label, **kw)
            assert (ei.value.column, ei.value.code, ei.value.message) == (column, code, message)
        else:
            assert f(v, charset=label, **kw) == lines[i].decode("utf-8"), (mode, label, i)
    return lines, report


@pytest.mark.parametrize("label", LABELS)
def test_to_uri_bytes_like_the_cli_and_the_table(label):
    rows = rows_of(label)
    values = [bytes.fromhex(r[2]) for r in rows]
    lines, report = check_like_the_cli("to-uri", label, values, {}, [])
    # The table's expected results, computed without iribulk (scripts/gen-charset-vectors).
    errors = {r[0]: r for r in report if not r[3].startswith("warning: ")}
    for i, r in enumerate(rows):
        rid, expected = r[0], r[3]
        if not expected.startswith("error:"):
            assert lines[i].decode() == expected, rid
            assert i + 1 not in errors, rid
            continue
        code, col = expected[6:].split("@")
        got = errors[i + 1]
        if label.startswith("utf-16"):
            # UTF-16 is transcoded first (step 1c): the malformed sequence is the byte FF of the
            # UTF-8 value, reported invalid-utf8, as by the CLI.
            assert got[2] == "invalid-utf8", rid
        else:
            assert (got[2], got[1] - 1) == (code, int(col)), rid
            assert lines[i] == values[i], rid  # kept as it was: the original bytes


@pytest.mark.parametrize("mode", ["check", "normalize", "leiri-to-iri"])
def test_other_modes_bytes_like_the_cli(mode):
    for label in LABELS:
        values = [bytes.fromhex(r[2]) for r in rows_of(label)]
        check_like_the_cli(mode, label, values, {}, [])


def test_query_charset_utf8_like_the_cli():
    for label in LABELS:
        values = [bytes.fromhex(r[2]) for r in rows_of(label)]
        lines, _ = check_like_the_cli(
            "to-uri", label, values, {"query_charset": "utf-8"}, ["--query-charset", "utf-8"]
        )
        document, _ = run_cli(["--charset", label], values, label)
        if label in ("shift_jis", "windows-1251"):
            # The query rule is what utf-8 turns off: an http query differs.
            assert lines != document, label


def test_base_query_follows_the_query_rule_like_the_cli():
    """A reference with no path and no query takes the base's query (RFC 3986 §5.2.2),
    which the legacy charset's query rule encodes as the reference's own (3987bis §3.5)."""
    base = "http://h/a?q=\u0436"
    values = [b"", b"#f", b"?q=\xe6"]
    want, _ = run_cli(["--charset", "windows-1251", "--base", base], values, "windows-1251")
    assert want == [b"http://h/a?q=%E6", b"http://h/a?q=%E6#f", b"http://h/a?q=%E6"]
    got = [iribulk.to_uri(v, charset="windows-1251", base=base).encode() for v in values]
    assert got == want
    batch = iribulk.to_uri_batch(pa.array(values, pa.binary()), charset="windows-1251", base=base)
    assert batch.to_pylist() == want
    # --query-charset utf-8 keeps UTF-8.
    assert iribulk.to_uri(b"", charset="windows-1251", base=base, query_charset="utf-8") == (
        "http://h/a?q=%D0%B6"
    )


def test_bad_bytes_percent_like_the_cli():
    values = [bytes.fromhex(r[2]) for r in ROWS if r[0].endswith("-bad") and r[1] != "utf-16le"]
    assert len(values) >= 5
    for label in ("shift_jis", "euc-jp", "gbk", "big5", "euc-kr"):
        lines, _ = check_like_the_cli(
            "to-uri", label, values, {"invalid_utf8": "percent"}, ["--invalid-utf8", "percent"]
        )
        assert all(b"%" in l for l in lines)


def decoded_rows() -> List[Tuple[str, str, str, bytes, str]]:
    """(id, label, text, bytes, expected URI) of the rows that Python's codec decodes as the
    WHATWG decoder does (no note) and that convert without error."""
    out = []
    for rid, label, hexed, expected, note in ROWS:
        if label in PY_CODEC and not note and not expected.startswith("error:"):
            b = bytes.fromhex(hexed)
            out.append((rid, label, b.decode(PY_CODEC[label]), b, expected))
    assert len(out) >= 50
    return out


def test_str_with_a_legacy_charset_is_already_decoded():
    """A str is characters: with charset=, decoding is skipped, but NFC (RFC 3987 §3.1 step
    1b) and the 3987bis §3.5 query rule still apply, so the str gives what its bytes give."""
    rows = decoded_rows()
    for rid, label, text, b, expected in rows:
        assert iribulk.to_uri(text, charset=label) == expected == iribulk.to_uri(b, charset=label), rid
    for label in {r[1] for r in rows}:
        rs = [r for r in rows if r[1] == label]
        texts = [r[2] for r in rs]
        for t in (pa.string(), pa.large_string(), pa.string_view()):
            for naive in (False, True):
                old = iribulk._iribulk._set_naive(naive)
                try:
                    out = iribulk.to_uri_batch(pa.array(texts, t), charset=label)
                finally:
                    iribulk._iribulk._set_naive(old)
                assert out.to_pylist() == [r[4] for r in rs], (label, t, naive)
        for mode in ("check", "normalize", "leiri-to-iri"):
            f, _ = MODES[mode]
            for rid, _, text, b, _ in rs:
                try:
                    want = f(b, charset=label)
                except iribulk.IriError as e:
                    with pytest.raises(iribulk.IriError) as ei:
                        f(text, charset=label)
                    assert ei.value.code == e.code, (mode, rid)
                    continue
                assert f(text, charset=label) == want, (mode, rid)


def test_str_query_rule_only_for_http_and_only_with_a_legacy_charset():
    s = "http://example.jp/p?q=検索"
    assert iribulk.to_uri(s, charset="shift_jis") == "http://example.jp/p?q=%8C%9F%8D%F5"
    assert iribulk.to_uri(s, charset="euc-jp") == "http://example.jp/p?q=%B8%A1%BA%F7"
    assert iribulk.to_uri(s) == "http://example.jp/p?q=%E6%A4%9C%E7%B4%A2"
    assert iribulk.to_uri(s, charset="utf-8") == iribulk.to_uri(s)
    assert iribulk.to_uri(s, charset="utf-16le") == iribulk.to_uri(s)  # UCS-based: no rule
    assert iribulk.to_uri(s, charset="shift_jis", query_charset="utf-8") == iribulk.to_uri(s)
    assert iribulk.to_uri("ftp://example.jp/p?q=検索", charset="shift_jis") == (
        "ftp://example.jp/p?q=%E6%A4%9C%E7%B4%A2"
    )
    # Unmappable in the charset: the Encoding Standard's &#NNNN; percent-encoded.
    assert iribulk.to_uri("http://a/?q=€", charset="koi8-r") == "http://a/?q=%26%238364%3B"
    # The query rule is to-uri's alone: the other modes write IRIs or validate.
    assert iribulk.leiri_to_iri(s, charset="shift_jis") == s
    # A relative value takes the base's scheme, and so the rule (found by a QA sweep).
    assert iribulk.to_uri("?q=検索", charset="shift_jis", base="http://example.jp/p") == (
        "http://example.jp/p?q=%8C%9F%8D%F5"
    )
    assert iribulk.to_uri("?q=検索", charset="shift_jis", base="ftp://example.jp/p") == (
        "ftp://example.jp/p?q=%E6%A4%9C%E7%B4%A2"
    )


def test_str_nfc_with_a_legacy_charset_only():
    # ê + COMBINING DOT BELOW, as windows-1258 writes ệ (it has no precomposed ệ).
    nfd = "http://example.vn/Vi\u00ea\u0323t?q=Vi\u00ea\u0323t"
    assert unicodedata.normalize("NFC", nfd) != nfd
    # Step 1b: normalized, then the path in UTF-8 and the query in windows-1258 (which has no
    # precomposed ệ: an NCR) ...
    got = iribulk.to_uri(nfd, charset="windows-1258")
    assert got == "http://example.vn/Vi%E1%BB%87t?q=Vi%26%237879%3Bt", got
    # ... the same as the bytes a windows-1258 page holds for it.
    b = nfd.encode("cp1258")
    assert iribulk.to_uri(b, charset="windows-1258") == got
    # Step 1c: UTF-8 input is never normalized.
    assert iribulk.to_uri(nfd) == (
        "http://example.vn/Vi%C3%AA%CC%A3t?q=Vi%C3%AA%CC%A3t"
    )
    assert iribulk.check(nfd, charset="windows-1258") == unicodedata.normalize("NFC", nfd)
    assert iribulk.check(nfd) == nfd


def test_str_error_columns_refer_to_the_str():
    """Columns are 1-based byte columns of the str's UTF-8, through NFC and the query rule."""
    cases = [
        ("http://example.vn/Vi\u00ea\u0323t/%zz", "windows-1258"),
        ("http://a/?q=検索%zz", "shift_jis"),
        ("http://a/検索?q=検索&r=x\x01y", "euc-jp"),
    ]
    for s, label in cases:
        bad = "%zz" if "%zz" in s else "\x01"
        want = s.encode().index(bad.encode()) + 1
        with pytest.raises(iribulk.IriError) as ei:
            iribulk.to_uri(s, charset=label)
        assert ei.value.column == want, (s, label, ei.value)
        for naive in (False, True):
            old = iribulk._iribulk._set_naive(naive)
            try:
                _, err = iribulk.to_uri_batch(pa.array([None, s]), charset=label, errors=True)
            finally:
                iribulk._iribulk._set_naive(old)
            assert err[1].as_py()["column"] == want and err[0].as_py() is None
        # The same text as bytes of the charset: the column of the bytes, as the CLI says.
        b = s.encode(PY_CODEC[label])
        with pytest.raises(iribulk.IriError) as eb:
            iribulk.to_uri(b, charset=label)
        assert eb.value.column == b.index(bad.encode()) + 1
        _, report = run_cli(["--charset", label], [b], label)
        assert {(r[1], r[2]) for r in report} == {(eb.value.column, eb.value.code)}


def test_binary_results_and_kept_rows():
    """Binary in, binary out: a row kept with an error holds its original bytes; on_error="null"
    leaves only converted rows, which are UTF-8 (cast to string works)."""
    rows = rows_of("shift_jis")
    values = [bytes.fromhex(r[2]) for r in rows]
    arr = pa.array(values + [None], pa.binary()).slice(1)
    out = iribulk.to_uri_batch(arr, charset="shift_jis")
    assert out.type == pa.binary()
    for v, o in zip(arr.to_pylist(), out.to_pylist()):
        if v is None:
            assert o is None
            continue
        try:
            want = iribulk.to_uri(v, charset="shift_jis").encode()
        except iribulk.IriError:
            want = v
        assert o == want
    nulls = iribulk.to_uri_batch(arr, charset="shift_jis", on_error="null")
    assert nulls.cast(pa.string()).null_count >= 2
    chunked = iribulk.to_uri_batch(pa.chunked_array([values[:3], values[3:]], pa.binary()),
                                   charset="shift_jis")
    assert chunked.to_pylist() == iribulk.to_uri_batch(pa.array(values, pa.binary()),
                                                       charset="shift_jis").to_pylist()


def test_utf16_values():
    """Bytes in UTF-16 are transcoded (step 1c, no NFC), a BOM honoured; a malformed sequence
    is invalid-utf8 at its column in the UTF-8 value, as the CLI reports UTF-16 files."""
    s = "http://bücher.example/e\u0301?q=ü"
    want = iribulk.to_uri(s)
    for label, codec in (("utf-16le", "utf-16-le"), ("utf-16be", "utf-16-be")):
        assert iribulk.to_uri(s.encode(codec), charset=label) == want
    assert iribulk.to_uri(s.encode("utf-16"), charset="utf-16be") == want  # BOM wins
    bad = "http://a/x".encode("utf-16-le") + b"\x00\xd8" + "y".encode("utf-16-le")
    with pytest.raises(iribulk.IriError) as ei:
        iribulk.to_uri(bad, charset="utf-16le")
    assert (ei.value.code, ei.value.column) == ("invalid-utf8", 11)


def test_refused_options():
    with pytest.raises(ValueError, match="not a label"):
        iribulk.to_uri("http://a/", charset="klingon")
    # The replacement encoding's labels are labels, but nothing can be read through them
    # (a QA sweep: Python called them no label, where the CLI said why).
    for label in ("iso-2022-kr", "hz-gb-2312", "replacement", "csiso2022kr"):
        with pytest.raises(ValueError, match='"replacement" encoding'):
            iribulk.check_batch(pa.array(["x"]), charset=label)
    with pytest.raises(ValueError, match="goes with charset"):
        iribulk.to_uri("http://a/", query_charset="utf-8")
    with pytest.raises(ValueError):
        iribulk.to_uri("http://a/", charset="sjis", query_charset="latin1")
    with pytest.raises(TypeError):
        iribulk.to_iri("http://a/", charset="sjis")  # to-iri takes URIs (ASCII)
    with pytest.raises(TypeError):
        iribulk.check("http://a/", charset="sjis", query_charset="utf-8")  # to-uri's alone


def test_utf16_kept_rows_and_the_line_cap():
    """A UTF-16 row kept with an error is its UTF-8 transcoding, a row past max_line_bytes
    too (nothing of the row before leaks into it); the cap is on that UTF-8, as the CLI
    transcodes a UTF-16 file before it cuts lines (found by a QA sweep: it was on the UTF-16
    bytes)."""
    bad = "http://a/x".encode("utf-16-le") + b"\x00\xd8"
    long = "http://a/".encode("utf-16-le") * 4  # 72 bytes, 36 in UTF-8
    fits = "http://a/bcdéf".encode("utf-16-le")  # 28 bytes, 15 in UTF-8
    out, err = iribulk.to_uri_batch(pa.array([bad, long, fits], pa.binary()),
                                    charset="utf-16le", max_line_bytes=30, errors=True,
                                    threads=1)
    assert out.to_pylist() == [b"http://a/x\xff", b"http://a/" * 4, b"http://a/bcd%C3%A9f"]
    assert [e and e["code"] for e in err.to_pylist()] == ["invalid-utf8", "line-too-long", None]
    assert iribulk.to_uri(fits, charset="utf-16le", max_line_bytes=20) == "http://a/bcd%C3%A9f"


def test_utf16_messages_read_the_transcoding():
    """A host-integrity message of UTF-16 bytes names the hosts of their UTF-8 transcoding,
    as the CLI's report of such a file does (found by a QA sweep: the readings were missing,
    or named a host of NUL bytes); a value that looks like UTF-16 read as bytes gets the
    CLI's hint with the keyword's spelling."""
    for s, code, reading in [
        ("ws://a@b\\c", "backslash-authority", "a browser reads host b"),
        ("\\\\.\\x", "backslash-reference", "a browser reads host ."),
        ("http:example.com/", "missing-host", "a browser reads host example.com"),
    ]:
        messages = []
        for v, kw in [(s.encode(), {}), (s.encode("utf-16-le"), {"charset": "utf-16le"})]:
            with pytest.raises(iribulk.IriError) as e:
                iribulk.to_uri(v, **kw)
            assert e.value.code == code
            messages.append(e.value.message)
            _, err = iribulk.to_uri_batch(pa.array([v], pa.binary()), errors=True, **kw)
            messages.append(err.to_pylist()[0]["message"])
        assert reading in messages[0], messages[0]
        assert len(set(messages)) == 1, messages
    with pytest.raises(iribulk.IriError) as e:
        iribulk.to_uri("http://a/b".encode("utf-16-le"))
    assert 'try charset="utf-16le" or "utf-16be"' in e.value.message
    with pytest.raises(iribulk.IriError) as e:
        iribulk.to_uri(b"http://a/\xff\xfe")
    assert "UTF-16" not in e.value.message


def test_legacy_nfc_keeps_the_idna_name_of_the_host():
    """Step 1b's NFC of text said to come from a legacy charset never gives its host another
    IDNA name: U+0345 (iota to IDNA) reordered by NFC made xn--a-76m.com xn--0ca27l.com (found
    by a QA sweep). The same for bytes in the charset, and in a batch."""
    s = "http://a\u0345\u0300.com/"
    assert iribulk.to_uri(s) == "http://xn--a-76m.com/"
    assert iribulk.to_uri(s, charset="windows-1252") == "http://xn--a-76m.com/"
    b = s.encode("gb18030")
    assert iribulk.to_uri(b, charset="gb18030") == "http://xn--a-76m.com/"
    out = iribulk.to_uri_batch(pa.array([b], pa.binary()), charset="gb18030")
    assert out.to_pylist() == [b"http://xn--a-76m.com/"]


def test_legacy_line_cap_is_on_the_bytes_as_read():
    """With a legacy charset the cap is on the bytes as given, as the CLI's --max-line-bytes
    counts the bytes as read, not the longer decoding (found by a QA sweep: 29 windows-1252
    bytes under max_line_bytes=30 were line-too-long, and null with on_error="null")."""
    v = b"http://a/" + b"\xe9" * 20  # 29 bytes; 49 once decoded to UTF-8
    want = "http://a/" + "%C3%A9" * 20
    assert iribulk.to_uri(v, charset="windows-1252", max_line_bytes=30) == want
    out = iribulk.to_uri_batch(pa.array([v], pa.binary()), charset="windows-1252",
                               max_line_bytes=30, on_error="null")
    assert out.to_pylist() == [want.encode()]
    sj = b"http://a/" + b"\x82\xa0" * 10  # Shift_JIS: 29 bytes, 39 decoded
    assert iribulk.to_uri(sj, charset="shift_jis", max_line_bytes=30) == (
        "http://a/" + "%E3%81%82" * 10)
    # Past the cap as given: line-too-long, as in the CLI.
    with pytest.raises(iribulk.IriError) as e:
        iribulk.to_uri(v + b"ab", charset="windows-1252", max_line_bytes=30)
    assert e.value.code == "line-too-long"


# WHATWG labels of UTF-16LE and UTF-16BE (the Encoding Standard's table).
UTF16_LABELS = {"csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff", "utf-16",
                "utf-16le", "unicodefffe", "utf-16be"}


def test_charset_per_row_as_the_readme_says():
    """README's stand-in for --charset-field: one call per charset, no charset= for a UTF-16
    label, gives the CLI's --charset-field output on every record (found by a QA sweep: with
    charset="utf-16", a record labelled utf-16, which the CLI reads as UTF-8, became
    garbage)."""
    e_acute = b"http://a/\xc3\xa9x"  # UTF-8, as a line file holds it whatever the label
    rows = [(e_acute, "utf-16"), (b"http://example.jp/\x93\xfa\x96\x7b?q=\x8c\x9f", "shift_jis"),
            (e_acute, "UTF-16BE"), (e_acute, "utf-8"), (e_acute, "unicode"), (e_acute, "ucs-2"),
            (b"http://example.cn/?q=\xcb\xd1", "gbk"), (b"http://a/\x81", "gbk")]
    with tempfile.TemporaryDirectory() as d:
        src, out = Path(d, "in.tsv"), Path(d, "out.tsv")
        src.write_bytes(b"".join(v + b"\t" + label.encode() + b"\n" for v, label in rows))
        p = subprocess.run([str(cli()), "-q", "--field", "1", "--charset-field", "2", "--out",
                            str(out), str(src)], capture_output=True)
        assert p.returncode in (0, 3), p.stderr[-2000:]
        want = [line.split(b"\t")[0] for line in out.read_bytes().split(b"\n")[:-1]]
    got: List[bytes] = [b""] * len(rows)
    for label in {label for _, label in rows}:  # a group_by("charset")
        at = [i for i, (_, lab) in enumerate(rows) if lab == label]
        charset = None if label.strip().lower() in UTF16_LABELS else label
        conv = iribulk.to_uri_batch(pa.array([rows[i][0] for i in at], pa.binary()),
                                    charset=charset)
        for i, v in zip(at, conv.to_pylist()):
            got[i] = v
    assert got == want
    assert want[0] == b"http://a/%C3%A9x"
    assert iribulk.to_uri(e_acute, charset="utf-16") != "http://a/%C3%A9x"  # decodes UTF-16
