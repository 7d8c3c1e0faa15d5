#!/usr/bin/env python3
"""Benchmark of the Python package (issue 13): IRI→URI on real and synthetic data, in one run.

For each data set: iribulk.to_uri_batch on a pyarrow array (one thread, and all cores); a
Python loop over iribulk.to_uri; w3lib's safe_url_string; rfc3986's IRIReference.encode;
and the CLI on the same file, one thread, the file in the page cache (in memory). MB/s are
input megabytes (10^6 bytes, line terminators excluded) per second, best of --runs passes;
the slow pure-Python peers run on the first --peer-lines lines.

    pip install w3lib rfc3986 idna      # in the bench venv only
    python python/bench.py [--cli target/release/iribulk] [--markdown]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa

import iribulk

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "datasets"
DEFAULT_SETS = ["intl_cldr.txt", "real_files_and_shortener.txt", "kasztp.txt", "cc10k_resolved.txt"]


def lines_of(path: Path):
    raw = path.read_bytes().split(b"\n")
    if raw and raw[-1] == b"":
        raw.pop()
    return [l[:-1] if l.endswith(b"\r") else l for l in raw]


def best(f, runs: int) -> float:
    t = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        f()
        t = min(t, time.perf_counter() - t0)
    return t


def python_loop(strs):
    to_uri, IriError = iribulk.to_uri, iribulk.IriError
    for s in strs:
        try:
            to_uri(s)
        except IriError:
            pass


def w3lib_loop(strs):
    from w3lib.url import safe_url_string

    for s in strs:
        try:
            safe_url_string(s)
        except Exception:
            pass


def rfc3986_loop(strs):
    import rfc3986

    for s in strs:
        try:
            rfc3986.iri_reference(s).encode().unsplit()
        except Exception:
            pass


def cli_mb_s(cli: str, path: Path, mb: float, runs: int) -> float:
    """The CLI's engine on one thread, the file in the page cache (mapped): in memory."""
    cmd = [cli, "--threads", "1", "--quiet", "--in", str(path), "--out", "/dev/null"]
    return mb / best(lambda: subprocess.run(cmd, capture_output=True), runs)


def scalar_overhead_ns(n: int = 1_000_000) -> dict:
    """ns per call, in a list comprehension, of to_uri on a short URI that needs no work (the
    call's overhead), next to builtins in the same loop (len: the loop itself; str.lower: a
    builtin that makes a new string) and to_uri on an IDN host (a cached host conversion)."""
    s, idn = "http://a.b/c", "http://bücher.de/"
    to_uri = iribulk.to_uri
    out = {}
    for name, f, arg in (("len (the loop)", len, s), ("str.lower", str.lower, s),
                         ("to_uri (unchanged)", to_uri, s), ("to_uri (IDN host)", to_uri, idn)):
        t = best(lambda: [f(arg) for _ in range(n)], 3)
        out[name] = t / n * 1e9
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default=str(REPO / "target" / "release" / "iribulk"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--peer-lines", type=int, default=20_000)
    ap.add_argument("--sets", nargs="*", default=DEFAULT_SETS)
    ap.add_argument("--synthetic-lines", type=int, default=200_000)
    args = ap.parse_args()

    tmp = tempfile.mkdtemp()
    synth = Path(tmp) / "synthetic_10pct_non_ascii.txt"
    subprocess.run(
        [sys.executable, str(REPO / "scripts" / "gen-dataset"), "--lines",
         str(args.synthetic_lines), "--non-ascii", "0.10", "--seed", "13", "--quiet", "--out", str(synth)],
        check=True,
    )
    paths = [SHARED / s for s in args.sets] + [synth]
    print(f"iribulk bench: {os.cpu_count()} cores, python {sys.version.split()[0]}, "
          f"pyarrow {pa.__version__}, best of {args.runs}\n")
    head = ("data set", "MB", "CLI 1 thr", "batch 1 thr", "batch all", "batch/CLI",
            "py loop", "w3lib", "rfc3986", "batch/w3lib")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for path in paths:
        lines = lines_of(path)
        mb = sum(len(l) for l in lines) / 1e6
        try:
            arr = pa.array([l.decode("utf-8") for l in lines], pa.string())
            strs = arr.to_pylist()
        except UnicodeDecodeError:
            arr = pa.array(lines, pa.binary())
            strs = [l.decode("utf-8", "surrogateescape") for l in lines]
        batch1 = mb / best(lambda: iribulk.to_uri_batch(arr, threads=1), args.runs)
        batchn = mb / best(lambda: iribulk.to_uri_batch(arr), args.runs)
        peer = strs[: args.peer_lines]
        peer_mb = sum(len(s.encode("utf-8", "surrogateescape")) for s in peer) / 1e6
        loop = mb / best(lambda: python_loop(strs), 1)
        w3 = peer_mb / best(lambda: w3lib_loop(peer), 1)
        rfc = peer_mb / best(lambda: rfc3986_loop(peer), 1)
        cli = cli_mb_s(args.cli, path, mb, args.runs) if Path(args.cli).exists() else float("nan")
        row = (path.name, f"{mb:.1f}", f"{cli:.0f}", f"{batch1:.0f}", f"{batchn:.0f}",
               f"{batch1 / cli:.0%}", f"{loop:.1f}", f"{w3:.2f}", f"{rfc:.2f}",
               f"{batch1 / w3:.0f}x")
        print("| " + " | ".join(row) + " |", flush=True)
    print("\nper call of the scalar function (ns):")
    for k, v in scalar_overhead_ns().items():
        print(f"  {k:24} {v:7.0f}")


if __name__ == "__main__":
    main()
