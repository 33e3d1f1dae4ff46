#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Measure perfprobe side by side with lmbench3 (Documentation/accuracy.rst).

usage: scripts/accuracy.py --lmbench BINDIR [--perfprobe PATH] [--cpu N]
                           [--rounds N] [--only KEY,...]

BINDIR holds lmbench3's binaries built by you from its published source
(lat_syscall, lat_sig, lat_proc, lat_pipe, lat_unix, lat_ctx,
lat_pagefault, bw_pipe, lat_sem); lat_proc exec/shell run /tmp/hello,
which you build from lmbench's hello.c.  Both tools are pinned to the
same CPU and run in turn (A, B, A, B, ...) for each figure; the table is
the median of each side and the ratio perfprobe / lmbench.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

# perfprobe key -> (perfprobe benchmark, lmbench argv, regex for its figure)
PAIRS = [
    ("lat_syscall-null", "lat_syscall", ["lat_syscall", "-N", "5", "null"], r"Simple syscall: ([\d.]+)"),
    ("lat_syscall-read", "lat_syscall", ["lat_syscall", "-N", "5", "read"], r"Simple read: ([\d.]+)"),
    ("lat_syscall-write", "lat_syscall", ["lat_syscall", "-N", "5", "write"], r"Simple write: ([\d.]+)"),
    ("lat_syscall-fstat", "lat_syscall", ["lat_syscall", "-N", "5", "fstat", "{tmpfile}"], r"Simple fstat: ([\d.]+)"),
    ("lat_syscall-open", "lat_syscall", ["lat_syscall", "-N", "5", "open", "{tmpfile}"], r"Simple open/close: ([\d.]+)"),
    ("lat_sig-install", "lat_sig", ["lat_sig", "-N", "5", "install"], r"installation: ([\d.]+)"),
    ("lat_sig-catch", "lat_sig", ["lat_sig", "-N", "5", "catch"], r"overhead: ([\d.]+)"),
    ("lat_proc-fork", "lat_proc", ["lat_proc", "-N", "5", "fork"], r"fork\+exit: ([\d.]+)"),
    ("lat_proc-exec", "lat_proc", ["lat_proc", "-N", "5", "exec"], r"fork\+execve: ([\d.]+)"),
    ("lat_proc-shell", "lat_proc", ["lat_proc", "-N", "5", "shell"], r"fork\+/bin/sh -c: ([\d.]+)"),
    ("lat_pipe", "lat_pipe", ["lat_pipe", "-N", "5"], r"Pipe latency: ([\d.]+)"),
    ("lat_unix", "lat_unix", ["lat_unix", "-N", "5"], r"AF_UNIX sock stream latency: ([\d.]+)"),
    ("lat_pagefault", "lat_pagefault", ["lat_pagefault", "-N", "5", "{bigfile}"], r"Pagefaults on \S+: ([\d.]+)"),
    ("lat_sem", "lat_sem", ["lat_sem", "-N", "5"], r"Semaphore latency: ([\d.]+)"),
    ("lat_ctx-2-0k", "lat_ctx", ["lat_ctx", "-N", "5", "-s", "0", "2"], r"\n2 ([\d.]+)"),
    ("bw_pipe", "bw_pipe", ["bw_pipe", "-N", "5"], r"Pipe bandwidth: ([\d.]+)"),
    ("bw_unix", "bw_unix", ["bw_unix", "-N", "5"], r"AF_UNIX sock stream bandwidth: ([\d.]+)"),
]


def lmbench_once(bindir, argv, regex, subst):
    argv = [a.format(**subst) for a in argv]
    argv[0] = os.path.join(bindir, argv[0])
    p = subprocess.run(argv, capture_output=True, text=True, check=False)
    m = re.search(regex, p.stdout + p.stderr)
    if not m:
        raise RuntimeError("%s: no figure in: %s" % (" ".join(argv), (p.stdout + p.stderr).strip()[:200]))
    return float(m.group(1))


def perfprobe_once(pp, cpu, bench, key):
    p = subprocess.run([pp, "--cpu", str(cpu), "--no-save", "--json", "run", bench],
                       capture_output=True, text=True, check=False)
    doc = json.loads(p.stdout)
    for r in doc["results"]:
        if r["key"] == key and "value" in r:
            return float(r["value"])
    raise RuntimeError("perfprobe run %s: no %s" % (bench, key))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lmbench", required=True, help="directory of lmbench3 binaries")
    ap.add_argument("--perfprobe", default=os.path.join(os.path.dirname(__file__), "..", "perfprobe"))
    ap.add_argument("--cpu", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default="", help="comma-separated perfprobe keys")
    a = ap.parse_args()
    only = set(filter(None, a.only.split(",")))
    pairs = [p for p in PAIRS if not only or p[0] in only]
    if not pairs:
        sys.exit("accuracy.py: --only names no known key")
    with tempfile.TemporaryDirectory() as tmp:
        tmpfile = os.path.join(tmp, "f")
        bigfile = os.path.join(tmp, "big")
        with open(tmpfile, "wb") as f:
            f.write(b"x" * 4096)
        # lat_pagefault's file as perfprobe writes its own (tools/lib/
        # datafile.c): 8 MB (its default size) in 1 MiB writes, fsync'd.
        # Both matter: the cost per page grows with the file, and the
        # write size sets the page cache's folio sizes, which decide how
        # many pages one fault maps (one 8 MB write: 2 MB folios, mapped
        # whole by one fault, 0.05 us a page; 4 KiB writes: 1.36 us)
        with open(bigfile, "wb") as f:
            chunk = os.urandom(1 << 20)
            for _ in range(8):
                f.write(chunk)
                f.flush()
            f.flush()
            os.fsync(f.fileno())
        subst = {"tmpfile": tmpfile, "bigfile": bigfile}
        os.sched_setaffinity(0, {a.cpu})
        print("| figure | perfprobe | lmbench3 | ratio |")
        print("|---|---|---|---|")
        for key, bench, argv, regex in pairs:
            mine, ref = [], []
            try:
                for _ in range(a.rounds):
                    ref.append(lmbench_once(a.lmbench, argv, regex, subst))
                    mine.append(perfprobe_once(a.perfprobe, a.cpu, bench, key))
            except (RuntimeError, ValueError, KeyError) as e:
                print("| %s | | | not measured: %s |" % (key, e))
                continue
            m, r = statistics.median(mine), statistics.median(ref)
            print("| %s | %.4g | %.4g | %.2f |" % (key, m, r, m / r), flush=True)


if __name__ == "__main__":
    main()
