"""Shared by the Spark examples: a local Spark session, the CLI run on the same input, and the
checks (rows in = rows out, results equal to the CLI's, errors reported)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

REPO = Path(__file__).resolve().parents[2]


def spark_session(app: str):
    # The executors' Python must be this one (where iribulk is installed).
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    return (
        SparkSession.builder.master("local[2]")
        .appName(app)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .config("spark.driver.memory", "1g")
        .getOrCreate()
    )


def read_lines(path: Path) -> List[bytes]:
    """The lines of a file as the CLI sees them: split at LF, a CR before the LF dropped."""
    lines = path.read_bytes().split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return [l[:-1] if l.endswith(b"\r") else l for l in lines]


def read_report(tsv: bytes) -> List[Dict[str, bytes]]:
    """The rows of a CLI error report (TSV), each by the names of its header: file, line,
    column, code, message, input."""
    header, *rows = [r.split(b"\t") for r in tsv.split(b"\n") if r]
    names = [h.decode() for h in header]
    assert {"line", "column", "code"} <= set(names), names
    return [dict(zip(names, r)) for r in rows]


def run_cli(cli: str, data: bytes, *flags: str) -> Tuple[List[bytes], List[Dict[str, bytes]]]:
    """The CLI on `data`: its output lines and its error report rows (read_report)."""
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        report = Path(d) / "errors.tsv"
        p = subprocess.run(
            [cli, "--quiet", "--errors", str(report), *flags],
            input=data,
            capture_output=True,
        )
        if p.returncode not in (0, 3):
            raise SystemExit(f"CLI failed ({p.returncode}): {p.stderr.decode(errors='replace')}")
        rows = read_report(report.read_bytes())
    out = p.stdout.split(b"\n")
    assert out[-1] == b"", "the CLI ends every line with LF"
    return out[:-1], rows


def check(cond: bool, what: str) -> None:
    if not cond:
        raise SystemExit(f"FAILED: {what}")
    print(f"ok: {what}")


def default_cli() -> str:
    for p in (REPO / "target" / "release" / "iribulk", REPO / "target" / "debug" / "iribulk"):
        if p.is_file():
            return str(p)
    return "iribulk"
