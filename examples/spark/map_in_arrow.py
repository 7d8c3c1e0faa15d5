"""Convert a URL column with Spark's DataFrame.mapInArrow and iribulk.to_uri_batch.

Each Arrow batch of a partition goes through the batch function (in place, without the GIL,
on the executor's cores); the output has the same rows, with the URI and the error columns.
Run in local mode with checks against the CLI:

    python examples/spark/map_in_arrow.py [--in datasets/sample.txt] [--cli target/release/iribulk]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from common import REPO, check, default_cli, read_lines, run_cli, spark_session


def to_uri_batches(batches):
    """mapInArrow's function: an iterator of pyarrow RecordBatches in, RecordBatches out."""
    import pyarrow as pa

    import iribulk

    for b in batches:
        url = b.column("url")
        uri, err = iribulk.to_uri_batch(url, errors=True)
        yield pa.RecordBatch.from_arrays(
            [b.column("line"), uri, err.field("code"), err.field("column"), err.field("message")],
            names=["line", "uri", "error_code", "error_column", "error_message"],
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--in", dest="input", default=str(REPO / "datasets" / "sample.txt"))
    ap.add_argument("--cli", default=default_cli())
    args = ap.parse_args()

    from pyspark.sql.types import BinaryType, LongType, StringType, StructField, StructType

    lines = read_lines(Path(args.input))
    spark = spark_session("iribulk-mapInArrow")
    # Binary, not string: a line that is not UTF-8 reaches iribulk as it is (and is reported
    # as invalid-utf8) instead of being decoded with replacement characters.
    df = spark.createDataFrame(
        [(i + 1, l) for i, l in enumerate(lines)],
        StructType([StructField("line", LongType()), StructField("url", BinaryType())]),
    ).repartition(4)
    out_schema = StructType(
        [
            StructField("line", LongType()),
            StructField("uri", BinaryType()),
            StructField("error_code", StringType()),
            StructField("error_column", LongType()),
            StructField("error_message", StringType()),
        ]
    )
    result = df.mapInArrow(to_uri_batches, out_schema).orderBy("line").collect()
    spark.stop()

    cli_out, cli_report = run_cli(args.cli, b"".join(l + b"\n" for l in lines))
    check(len(result) == len(lines), f"rows in = rows out ({len(lines)})")
    check(
        [bytes(r["uri"]) for r in result] == cli_out,
        "every row equals the CLI's output line",
    )
    ours = {(r["line"], r["error_column"], r["error_code"]) for r in result if r["error_code"]}
    theirs = {(int(r["line"]), int(r["column"]), r["code"].decode()) for r in cli_report}
    check(ours == theirs and len(ours) > 0, f"errors reported as the CLI does ({len(ours)} rows)")


if __name__ == "__main__":
    main()
