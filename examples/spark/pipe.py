"""Convert text lines with Spark's RDD.pipe and the iribulk CLI (no Python package needed on
the executors, only the binary).

iribulk exits 3 when a line was reported and kept: `--exit-zero` keeps that status 0 while a
fatal error (1) or a usage error (2) still exits non-zero, and `checkCode=True` makes Spark
fail the task then (PySpark's default ignores the status: a command that is not found gave
zero rows and a successful job). `pipe` starts the command with an empty environment, so
PATH is passed (or give the binary's absolute path). `--on-error keep` keeps rows in = rows
out. Each task writes its error report to its own file (`mktemp`: unique even on storage
shared by several executors). Run in local mode with checks against the CLI:

    python examples/spark/pipe.py [--in datasets/sample.txt] [--cli target/release/iribulk]
"""

from __future__ import annotations

import argparse
import os
import shlex
import tempfile
from pathlib import Path

from common import REPO, check, default_cli, read_lines, read_report, run_cli, spark_session


def pipe_command(cli: str, errors_dir: str) -> str:
    """The command each partition is piped through."""
    # --exit-zero: reported lines (kept as they were) do not fail the task; a fatal error (1)
    # or a usage error (2) still does (with checkCode=True). mktemp gives each partition its
    # own report file.
    inner = (
        f"{shlex.quote(cli)} --quiet --exit-zero --on-error keep "
        f'--errors "$(mktemp {shlex.quote(errors_dir)}/part-XXXXXXXX.tsv)"'
    )
    return f"sh -c {shlex.quote(inner)}"


def pipe(rdd, command: str):
    """`rdd.pipe` as README gives it: PATH passed (pipe's environment is empty otherwise) and
    a non-zero exit failing the task."""
    return rdd.pipe(command, env={"PATH": os.environ.get("PATH", "")}, checkCode=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--in", dest="input", default=str(REPO / "datasets" / "sample.txt"))
    ap.add_argument("--cli", default=default_cli())
    args = ap.parse_args()
    cli = str(Path(args.cli).resolve()) if "/" in args.cli else args.cli

    spark = spark_session("iribulk-pipe")
    sc = spark.sparkContext
    with tempfile.TemporaryDirectory() as errors_dir:
        # textFile decodes each line as UTF-8 (bytes that are not become U+FFFD): the CLI is
        # compared on exactly the text the RDD holds. Use map_in_arrow.py for raw bytes.
        rdd = sc.textFile(args.input, minPartitions=4)
        text = rdd.collect()
        out = pipe(rdd, pipe_command(cli, errors_dir)).collect()
        reported = []
        for f in sorted(Path(errors_dir).glob("part-*.tsv")):
            reported += read_report(f.read_bytes())
        # A usage error (exit 2) fails the job instead of giving zero rows.
        bad = pipe_command(cli, errors_dir).replace("--quiet", "--no-such-flag")
        try:
            pipe(rdd, bad).collect()
            failed = False
        except Exception:  # Spark wraps the task failure (PIPE_FUNCTION_EXITED)
            failed = True
        check(failed, "a command exiting 2 fails the job")
    spark.stop()

    data = "".join(t + "\n" for t in text).encode("utf-8")
    cli_out, cli_report = run_cli(cli, data)
    check(len(text) == len(read_lines(Path(args.input))), "textFile read every line")
    check(len(out) == len(text), f"rows in = rows out ({len(text)})")
    check([o.encode("utf-8") for o in out] == cli_out, "every row equals the CLI's output line")
    codes = sorted((r["code"], r["column"]) for r in reported)
    check(
        codes == sorted((r["code"], r["column"]) for r in cli_report) and len(codes) > 0,
        f"errors reported by the tasks as by one CLI run ({len(codes)} rows)",
    )


if __name__ == "__main__":
    main()
