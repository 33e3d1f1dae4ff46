#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Measure perfprobe side by side with reference tools (Documentation/accuracy.rst).

usage: scripts/accuracy.py --lmbench BINDIR [--stream PATH] [--stream-mt PATH]
                           [--perfprobe PATH] [--cpu N] [--rounds N]
                           [--only KEY,...] [--group NAME,...]

BINDIR holds lmbench3's binaries built by you from its published source;
lat_proc exec/shell run /tmp/hello, which you build from lmbench's
hello.c.  --stream / --stream-mt are stream.c built by you (single thread,
and with OpenMP) with perfprobe's array size; crypto is compared with
``openssl speed -evp`` and netperf's TCP stream with iperf3, both from
PATH.  Both tools are pinned to the same CPU (servers too) and run in
turn (A, B, A, B, ...) for each group of figures; the table is the
median of each side and the ratio perfprobe / reference, with the
reference's figure converted to perfprobe's unit where they differ.
"""
import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time


def lm(*argv):
    return ("lmbench",) + argv


def mem_rd(size_mb, stride):
    """lat_mem_rd's line for size_mb in the block of stride."""
    return r"stride=%d\n(?:[\d.]+ [\d.]+\n)*?%.5f ([\d.]+)" % (stride, size_mb)


# (perfprobe key, perfprobe benchmark, reference argv, regex for its
# figure, factor from the reference's unit to perfprobe's).  Pairs with
# the same reference argv share one run of it a round, and pairs with
# the same benchmark one run of perfprobe.
PAIRS = [
    ("lat_syscall-null", "lat_syscall", lm("lat_syscall", "-N", "5", "null"), r"Simple syscall: ([\d.]+)"),
    ("lat_syscall-read", "lat_syscall", lm("lat_syscall", "-N", "5", "read"), r"Simple read: ([\d.]+)"),
    ("lat_syscall-write", "lat_syscall", lm("lat_syscall", "-N", "5", "write"), r"Simple write: ([\d.]+)"),
    ("lat_syscall-stat", "lat_syscall", lm("lat_syscall", "-N", "5", "stat", "{tmpfile}"), r"Simple stat: ([\d.]+)"),
    ("lat_syscall-fstat", "lat_syscall", lm("lat_syscall", "-N", "5", "fstat", "{tmpfile}"), r"Simple fstat: ([\d.]+)"),
    ("lat_syscall-open", "lat_syscall", lm("lat_syscall", "-N", "5", "open", "{tmpfile}"), r"Simple open/close: ([\d.]+)"),
    ("lat_sig-install", "lat_sig", lm("lat_sig", "-N", "5", "install"), r"installation: ([\d.]+)"),
    ("lat_sig-catch", "lat_sig", lm("lat_sig", "-N", "5", "catch"), r"overhead: ([\d.]+)"),
    ("lat_sig-prot", "lat_sig", lm("lat_sig", "-N", "5", "prot", "{bigfile}"), r"Protection fault: ([\d.]+)"),
    ("lat_proc-fork", "lat_proc", lm("lat_proc", "-N", "5", "fork"), r"fork\+exit: ([\d.]+)"),
    ("lat_proc-exec", "lat_proc", lm("lat_proc", "-N", "5", "exec"), r"fork\+execve: ([\d.]+)"),
    ("lat_proc-shell", "lat_proc", lm("lat_proc", "-N", "5", "shell"), r"fork\+/bin/sh -c: ([\d.]+)"),
    ("lat_pipe", "lat_pipe", lm("lat_pipe", "-N", "5"), r"Pipe latency: ([\d.]+)"),
    ("lat_unix", "lat_unix", lm("lat_unix", "-N", "5"), r"AF_UNIX sock stream latency: ([\d.]+)"),
    ("lat_tcp", "lat_tcp", lm("lat_tcp", "-N", "5", "127.0.0.1"), r"TCP latency using \S+: ([\d.]+)"),
    ("lat_udp", "lat_udp", lm("lat_udp", "-N", "5", "127.0.0.1"), r"UDP latency using \S+: ([\d.]+)"),
    ("lat_select-tcp", "lat_select", lm("lat_select", "-N", "5", "-n", "100", "tcp"), r"Select on 100 tcp fd's: ([\d.]+)"),
    ("lat_select-file", "lat_select", lm("lat_select", "-N", "5", "-n", "100", "file"), r"Select on 100 fd's: ([\d.]+)"),
    ("lat_pagefault", "lat_pagefault", lm("lat_pagefault", "-N", "5", "{bigfile}"), r"Pagefaults on \S+: ([\d.]+)"),
    ("lat_sem", "lat_sem", lm("lat_sem", "-N", "5"), r"Semaphore latency: ([\d.]+)"),
    ("lat_ctx-2-0k", "lat_ctx", lm("lat_ctx", "-N", "5", "-s", "0", "2"), r"\n2 ([\d.]+)"),
    ("lat_ctx-2-16k", "lat_ctx", lm("lat_ctx", "-N", "5", "-s", "16", "2", "8", "16"), r"\n2 ([\d.]+)"),
    ("lat_ctx-8-16k", "lat_ctx", lm("lat_ctx", "-N", "5", "-s", "16", "2", "8", "16"), r"\n8 ([\d.]+)"),
    ("lat_ctx-16-16k", "lat_ctx", lm("lat_ctx", "-N", "5", "-s", "16", "2", "8", "16"), r"\n16 ([\d.]+)"),
    ("lat_ctx-2-64k", "lat_ctx", lm("lat_ctx", "-N", "5", "-s", "64", "2", "8", "16"), r"\n2 ([\d.]+)"),
    ("lat_ctx-8-64k", "lat_ctx", lm("lat_ctx", "-N", "5", "-s", "64", "2", "8", "16"), r"\n8 ([\d.]+)"),
    ("lat_ctx-16-64k", "lat_ctx", lm("lat_ctx", "-N", "5", "-s", "64", "2", "8", "16"), r"\n16 ([\d.]+)"),
    ("lat_ctx-2-128k", "lat_ctx", lm("lat_ctx", "-N", "5", "-s", "128", "2", "4"), r"\n2 ([\d.]+)"),
    ("lat_ctx-4-128k", "lat_ctx", lm("lat_ctx", "-N", "5", "-s", "128", "2", "4"), r"\n4 ([\d.]+)"),
    ("lat_ctx-2-256k", "lat_ctx", lm("lat_ctx", "-N", "5", "-s", "256", "2", "4"), r"\n2 ([\d.]+)"),
    ("lat_ctx-4-256k", "lat_ctx", lm("lat_ctx", "-N", "5", "-s", "256", "2", "4"), r"\n4 ([\d.]+)"),
    ("bw_pipe", "bw_pipe", lm("bw_pipe", "-N", "5"), r"Pipe bandwidth: ([\d.]+)"),
    ("bw_unix", "bw_unix", lm("bw_unix", "-N", "5"), r"AF_UNIX sock stream bandwidth: ([\d.]+)"),
    ("bw_tcp", "bw_tcp", lm("bw_tcp", "-N", "5", "-m", "10m", "127.0.0.1"), r"10\.485760 ([\d.]+) MB/sec"),
    ("bw_tcp-64kb", "bw_tcp", lm("bw_tcp", "-N", "5", "127.0.0.1"), r"0\.065536 ([\d.]+) MB/sec"),
    ("bw_file_rd-io-8mb", "bw_file_rd", lm("bw_file_rd", "-N", "5", "8m", "io_only", "{file64}"), r"8\.39 ([\d.]+)"),
    ("bw_file_rd-o2c-8mb", "bw_file_rd", lm("bw_file_rd", "-N", "5", "8m", "open2close", "{file64}"), r"8\.39 ([\d.]+)"),
    ("bw_file_rd-io-64mb", "bw_file_rd", lm("bw_file_rd", "-N", "5", "64m", "io_only", "{file64}"), r"67\.11 ([\d.]+)"),
    ("bw_mmap_rd-mo-8mb", "bw_mmap_rd", lm("bw_mmap_rd", "-N", "5", "8m", "mmap_only", "{file64}"), r"8\.39 ([\d.]+)"),
    ("bw_mmap_rd-o2c-8mb", "bw_mmap_rd", lm("bw_mmap_rd", "-N", "5", "8m", "open2close", "{file64}"), r"8\.39 ([\d.]+)"),
    ("bw_mmap_rd-mo-64mb", "bw_mmap_rd", lm("bw_mmap_rd", "-N", "5", "64m", "mmap_only", "{file64}"), r"67\.11 ([\d.]+)"),
] + [
    ("bw_mem-%s-64mb" % op, "bw_mem", lm("bw_mem", "-N", "5", "64m", op), r"67\.11 ([\d.]+)")
    for op in ("rd", "wr", "rdwr", "cp", "frd", "fwr", "fcp", "bzero", "bcopy")
] + [
    ("lat_mem_rd-stride%d-sz%s" % (st, name), "lat_mem_rd",
     lm("lat_mem_rd", "-N", "3", "128", "16", "64", "128"), mem_rd(mb, st))
    for st in (16, 64, 128)
    for name, mb in (("16k", 0.01562), ("500k", 0.5), ("4000k", 4.0), ("64000k", 64.0), ("128000k", 128.0))
] + [
    ("lat_ops-%s-%s" % (t, op), "lat_ops", lm("lat_ops", "-N", "5"),
     r"%s %s: ([\d.]+) nanoseconds" % ("integer" if t == "int" else t, op))
    for t in ("int", "int64", "float", "double")
    for op in (("bit", "add", "mul", "div", "mod") if t.startswith("int") else ("add", "mul", "div"))
] + [
    ("stream-%s-best" % k, "stream", ("stream",), r"%s:\s+([\d.]+)" % k.capitalize())
    for k in ("copy", "scale", "add", "triad")
] + [
    ("stream-%s-mt-best" % k, "stream", ("stream-mt",), r"%s:\s+([\d.]+)" % k.capitalize())
    for k in ("copy", "scale", "add", "triad")
] + [
    # openssl speed: 1000s of bytes per second, as perfprobe's KB/s
    ("crypto-evp-%s-%d" % (alg, n), "crypto_evp",
     ("openssl", "speed", "-seconds", "2", "-bytes", str(n), "-evp", alg),
     r"(?i)\n%s\s+([\d.]+)k" % re.escape(alg))
    for alg in ("aes-128-cbc", "sha256", "md5")
    for n in (16, 1024, 16384)
] + [
    # iperf3 -J: bits per second received; perfprobe's figure is Mbit/s
    ("net-tcp_stream-64k", "netperf",
     ("iperf3", "-c", "127.0.0.1", "-p", "5299", "-l", "64K", "-t", "5", "-J"),
     r'"sum_received":\s*\{[^}]*"bits_per_second":\s*([\d.e+]+)', 1e-6),
]

# Servers a reference needs, started before its group and stopped after.
SERVERS = {
    "lat_tcp": (lm("lat_tcp", "-s"), lm("lat_tcp", "-S", "127.0.0.1")),
    "lat_udp": (lm("lat_udp", "-s"), lm("lat_udp", "-S", "127.0.0.1")),
    "bw_tcp": (lm("bw_tcp", "-s"), lm("bw_tcp", "-S", "127.0.0.1")),
    "netperf": (("iperf3", "-s", "-p", "5299"), None),
}


def resolve(argv, a, subst):
    argv = [x.format(**subst) for x in argv]
    if argv[0] == "lmbench":
        argv = [os.path.join(a.lmbench, argv[1])] + argv[2:]
    elif argv[0] == "stream":	# one thread, on perfprobe's (the first allowed)
        cpu = str(min(os.sched_getaffinity(0)))
        argv = ["taskset", "-c", cpu, a.stream] if a.stream else [None]
    elif argv[0] == "stream-mt":
        argv = [a.stream_mt]
    if argv[0] is None:
        raise RuntimeError("no reference binary given")
    return argv


def ref_once(argv):
    env = dict(os.environ, OMP_NUM_THREADS=str(len(os.sched_getaffinity(0))))
    try:
        p = subprocess.run(argv, capture_output=True, text=True, check=False, env=env)
    except OSError as e:
        return "cannot run %s: %s" % (argv[0], e.strerror)
    return p.stdout + p.stderr


def perfprobe_once(a, bench, mt):
    cmd = [a.perfprobe, "--no-save", "--json"]
    if not mt:
        cmd += ["--cpu", str(a.cpu)]
    # netperf: only the test iperf3 is compared with
    env = dict(os.environ, PERFPROBE_NET_TESTS="tcp_stream")
    p = subprocess.run(cmd + ["run", bench], capture_output=True, text=True, check=False, env=env)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        raise RuntimeError("perfprobe run %s: no JSON (exit %d): %s"
                           % (bench, p.returncode, p.stderr.strip()[-200:])) from None
    return {r["key"]: float(r["value"]) for r in doc["results"] if "value" in r}


def start_server(group, a, subst):
    start, _ = SERVERS.get(group, (None, None))
    if not start:
        return None
    argv = resolve(start, a, subst)
    if start[0] == "lmbench":
        subprocess.run(argv, check=False)	# lmbench's servers fork themselves
        time.sleep(0.2)
        return None
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    return proc


def stop_server(group, a, subst, proc):
    _, stop = SERVERS.get(group, (None, None))
    if stop:
        subprocess.run(resolve(stop, a, subst), check=False, capture_output=True)
    if proc:
        proc.send_signal(signal.SIGTERM)
        proc.wait()


def measure_group(group, pairs, a, subst):
    """Rounds of: each reference command once, then perfprobe once."""
    mt = group == "stream"		# the multi-thread sets need every CPU
    mine = {p[0]: [] for p in pairs}
    ref = {p[0]: [] for p in pairs}
    err = {}
    proc = start_server(group, a, subst)
    try:
        for _ in range(a.rounds):
            outputs = {}
            for p in pairs:
                key, argv, regex = p[0], p[2], p[3]
                factor = p[4] if len(p) > 4 else 1.0
                try:
                    r = resolve(argv, a, subst)
                except RuntimeError as e:
                    err[key] = str(e)
                    continue
                if tuple(r) not in outputs:
                    outputs[tuple(r)] = ref_once(r)
                m = re.search(regex, outputs[tuple(r)])
                if m:
                    ref[key].append(float(m.group(1)) * factor)
                else:
                    err[key] = "%s: no figure in: %s" % (" ".join(r), outputs[tuple(r)].strip()[-200:])
            try:
                got = perfprobe_once(a, group, mt)
            except (OSError, RuntimeError) as e:
                got = {}
                for p in pairs:
                    err.setdefault(p[0], str(e))
            for p in pairs:
                if p[0] in got:
                    mine[p[0]].append(got[p[0]])
                else:
                    err.setdefault(p[0], "perfprobe run %s: no %s" % (group, p[0]))
    finally:
        stop_server(group, a, subst, proc)
    for p in pairs:
        key = p[0]
        if key in err or not mine[key] or not ref[key]:
            print("| %s | | | not measured: %s |" % (key, err.get(key, "no figures")), flush=True)
            continue
        m, r = statistics.median(mine[key]), statistics.median(ref[key])
        ratio = "%.2f" % (m / r) if r else "reference reads 0"
        # each side's rounds: (max - min) / median, how far a round moved
        spread = "%.0f%% / %.0f%%" % tuple(
            100 * (max(v) - min(v)) / statistics.median(v) if statistics.median(v) else 0
            for v in (mine[key], ref[key]))
        print("| %s | %.4g | %.4g | %s | %s |" % (key, m, r, ratio, spread), flush=True)


def write_file(path, mb):
    """As perfprobe writes its own (tools/perfprobe/benchlib/datafile.c): 1 MiB writes,
    fsync'd.  The write size sets the page cache's folio sizes, which
    decide how many pages one fault maps (lat_pagefault: one 8 MB write
    gives 2 MB folios, mapped whole by one fault, 0.05 us a page; 4 KiB
    writes 1.36 us)."""
    with open(path, "wb") as f:
        chunk = os.urandom(1 << 20)
        for _ in range(mb):
            f.write(chunk)
            f.flush()
        os.fsync(f.fileno())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lmbench", required=True, help="directory of lmbench3 binaries")
    ap.add_argument("--stream", help="stream.c built single-threaded with perfprobe's array size")
    ap.add_argument("--stream-mt", help="stream.c built with -fopenmp, same array size")
    ap.add_argument("--perfprobe", default=os.path.join(os.path.dirname(__file__), "..", "perfprobe"))
    ap.add_argument("--cpu", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default="", help="comma-separated perfprobe keys")
    ap.add_argument("--group", default="", help="comma-separated perfprobe benchmarks")
    a = ap.parse_args()
    if not os.path.isdir(a.lmbench):
        sys.exit("accuracy.py: --lmbench %s: not a directory" % a.lmbench)
    only = set(filter(None, a.only.split(",")))
    groups = set(filter(None, a.group.split(",")))
    pairs = [p for p in PAIRS if (not only or p[0] in only) and (not groups or p[1] in groups)]
    if not pairs:
        sys.exit("accuracy.py: --only/--group name no known figure")
    with tempfile.TemporaryDirectory() as tmp:
        tmpfile = os.path.join(tmp, "f")
        with open(tmpfile, "wb") as f:
            f.write(b"x" * 4096)
        subst = {"tmpfile": tmpfile, "bigfile": os.path.join(tmp, "big"),
                 "file64": os.path.join(tmp, "big64")}
        # lat_pagefault's and lat_sig prot's file: 8 MB, perfprobe's size;
        # bw_file_rd's and bw_mmap_rd's: 64 MB, one file for all sizes
        write_file(subst["bigfile"], 8)
        write_file(subst["file64"], 64)
        os.sched_setaffinity(0, {a.cpu})
        print("| figure | perfprobe | reference | ratio | spread of the rounds |")
        print("|---|---|---|---|---|")
        order = []
        for p in pairs:
            if p[1] not in order:
                order.append(p[1])
        for group in order:
            gp = [p for p in pairs if p[1] == group]
            if group == "stream":
                os.sched_setaffinity(0, range(os.cpu_count()))
            measure_group(group, gp, a, subst)
            os.sched_setaffinity(0, {a.cpu})


if __name__ == "__main__":
    main()
