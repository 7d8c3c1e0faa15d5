"""The README's "Python" and "Beyond one machine" examples, run as written (the Spark jobs
themselves run in scripts/ci-python)."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess

import pyarrow as pa
import pytest

from conftest import REPO, cli_binary, skip

README = (REPO / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start : end if end > 0 else len(README)]


def blocks(text: str, lang: str):
    return re.findall(rf"```{lang}\n(.*?)```", text, re.S)


def run_code(code: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    return out.getvalue()


def test_python_section_example_prints_what_it_says():
    sec = section("Python")
    code = sec.split("<!-- python-example -->", 1)[1]
    code = blocks(code, "python")[0]
    assert len(code.strip().splitlines()) == 3
    assert run_code(code) == blocks(sec, "text")[0]


def test_python_section_charset_example_prints_what_it_says():
    """The charset= example: the Shift_JIS bytes and the same text as a str give one URI (NFC
    and the query rule apply to both), and a GBK batch with a bad byte."""
    sec = section("Python").split("<!-- python-charset-example -->", 1)[1]
    code = blocks(sec, "python")[0]
    assert 'charset="shift_jis"' in code and 'charset="gbk"' in code
    assert run_code(code) == blocks(sec, "text")[0]


def test_polars_duckdb_example():
    try:
        import duckdb  # noqa: F401
        import polars  # noqa: F401
    except ImportError:
        skip("polars and duckdb are needed (pip install polars duckdb)")
    code = blocks(section("Beyond one machine"), "python")[-1]
    assert "duckdb" in code
    out = run_code(code)
    assert out.strip() == (
        "['http://xn--bcher-kva.de/%C3%BC', 'http://a/%zz'] "
        "['http://xn--rsum-bpad.example.org/']"
    )


def test_map_in_arrow_function_of_the_readme():
    """The README's mapInArrow function, on RecordBatches as Spark hands them."""
    code = blocks(section("Beyond one machine"), "python")[0]
    code = code.split("\ndf.mapInArrow")[0]
    ns: dict = {}
    exec(code, ns)
    b = pa.RecordBatch.from_arrays(
        [pa.array([1, 2, 3], pa.int64()), pa.array([b"http://\xc3\xbc/", b"http://a/%zz", None])],
        names=["line", "url"],
    )
    (out,) = list(ns["to_uri_batches"](iter([b])))
    assert out.num_rows == 3
    assert out.column("uri").to_pylist() == [b"http://xn--tda/", b"http://a/%zz", None]
    assert out.column("error_code").to_pylist() == [None, "bad-percent", None]


def _cli_dir(tmp_path):
    cli = cli_binary()
    if cli is None:
        skip("no iribulk CLI (cargo build, or set IRIBULK_CLI)")
    d = tmp_path / "bin"
    d.mkdir()
    (d / "iribulk").symlink_to(cli.resolve())
    return d


def test_pipe_command_of_the_readme(tmp_path):
    """The README's RDD.pipe command, as Spark runs it on a partition: rows in = rows out,
    status 0 although lines were reported, and the task's report written."""
    bindir = _cli_dir(tmp_path)
    text = section("Beyond one machine")
    cmd = re.search(r'cmd = """(.*?)"""', text).group(1)
    # PySpark's pipe ignores the status and empties the environment unless told.
    assert re.search(r'rdd\.pipe\(cmd, env=\{"PATH": os\.environ\["PATH"\]\}, checkCode=True\)', text)
    reports = tmp_path / "reports"
    reports.mkdir()
    cmd = cmd.replace("/reports", str(reports))
    data = (REPO / "datasets" / "sample.txt").read_bytes()
    env = dict(os.environ, PATH=f"{bindir}:{os.environ['PATH']}")
    p = subprocess.run(cmd, shell=True, input=data, capture_output=True, env=env)
    assert p.returncode == 0, p.stderr
    assert p.stdout.count(b"\n") == data.count(b"\n")
    (report,) = list(reports.glob("part-*.tsv"))
    assert report.read_bytes().count(b"\n") > 1
    # A usage error still fails the task.
    bad = cmd.replace("--quiet", "--no-such-flag")
    assert subprocess.run(bad, shell=True, input=data, capture_output=True, env=env).returncode != 0


def test_hadoop_streaming_mapper(tmp_path):
    """The mapper of the README on each split of the sample, as Hadoop Streaming runs it: one
    output line per input line, status 0, output equal to one CLI run over the whole file."""
    bindir = _cli_dir(tmp_path)
    mapper = REPO / "examples" / "hadoop" / "iribulk-mapper.sh"
    assert str(mapper.relative_to(REPO)) in section("Beyond one machine")
    lines = (REPO / "datasets" / "sample.txt").read_bytes().split(b"\n")[:-1]
    splits = [lines[i : i + 100] for i in range(0, len(lines), 100)]
    out = b""
    for s in splits:
        data = b"".join(l + b"\n" for l in s)
        p = subprocess.run([str(mapper)], input=data, capture_output=True, cwd=bindir)
        assert p.returncode == 0, p.stderr
        assert p.stdout.count(b"\n") == len(s)
        out += p.stdout
    whole = subprocess.run(
        [str(bindir / "iribulk"), "--quiet", "--in", str(REPO / "datasets" / "sample.txt")],
        capture_output=True,
    )
    assert whole.returncode == 3 and out == whole.stdout
    p = subprocess.run([str(mapper), "--no-such-flag"], input=b"x\n", capture_output=True,
                       cwd=bindir)
    assert p.returncode == 2
