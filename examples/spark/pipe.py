"""Convert text lines with Spark's RDD.pipe and the iribulk CLI (no Python package needed on
the executors, only the binary).

Spark fails a task whose command exits non-zero, and iribulk exits 3 when a line was reported
and kept. `--on-error keep` keeps rows in = rows out; the wrapper accepts status 3 (0: all
fine, 3: some lines reported) and still fails the task on 1 (fatal) or 2 (usage); once the
CLI's flag that keeps line-level problems out of the status lands, it replaces the wrapper. Each task
writes its error report to its own file. Run in local mode with checks against the CLI:

    python examples/spark/pipe.py [--in datasets/sample.txt] [--cli target/release/iribulk]
"""

from __future__ import annotations

import argparse
import shlex
import tempfile
from pathlib import Path

from common import REPO, check, default_cli, read_lines, read_report, run_cli, spark_session


def pipe_command(cli: str, errors_dir: str) -> str:
    """The command each partition is piped through."""
    # --exit-zero: reported lines (kept as they were) do not fail the task; a fatal error (1)
    # or a usage error (2) still does. sh -c gives each partition its own report file ($$).
    inner = (
        f"{shlex.quote(cli)} --quiet --exit-zero --on-error keep "
        f'--errors "{errors_dir}/part-$$.tsv"'
    )
    return f"sh -c {shlex.quote(inner)}"


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
        out = rdd.pipe(pipe_command(cli, errors_dir)).collect()
        reported = []
        for f in sorted(Path(errors_dir).glob("part-*.tsv")):
            reported += read_report(f.read_bytes())
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
