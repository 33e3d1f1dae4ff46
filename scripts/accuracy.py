#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Measure perfprobe side by side with reference tools (Documentation/accuracy.rst).

usage: scripts/accuracy.py --lmbench BINDIR [--stream PATH] [--stream-mt PATH]
                           [--netperf BINDIR] [--perfprobe PATH] [--cpu N]
                           [--rounds N] [--max-rounds N] [--width PCT]
                           [--perfprobe-args ARGS] [--autogroup-nice N]
                           [--storage-dir DIR] [--storage-direct]
                           [--storage-size MB] [--bracket | --alternate]
                           [--only KEY,...] [--group NAME,...]
                           [--save FILE]
       scripts/accuracy.py --from FILE [--from FILE ...] [--rst] [--check RSTFILE ...]

BINDIR holds lmbench3's binaries built by you from its published source;
lat_proc exec/shell run /tmp/hello (lmbench's path), which you build from
lmbench's hello.c as its Makefile does (dynamically linked).  --stream /
--stream-mt are stream.c built by you (single thread, and with OpenMP) with
perfprobe's array size; --netperf the directory of netperf and netserver
built from HewlettPackard/netperf.  crypto is compared with ``openssl speed
-evp`` and storage with fio, both from PATH.  Both tools are pinned to the
same CPU (servers too) and run in turn (A, B, A, B, ...) for each group of
figures, at least --rounds rounds, and more (up to --max-rounds) while a
ratio's 95% interval is wider than +-WIDTH%.  The table is the median of
each side, the ratio perfprobe / reference of the medians with its 95%
interval (bootstrap over the rounds, each round's pair kept together), with
the reference's figure converted to perfprobe's unit where they differ.
--bracket runs perfprobe before the first reference command of a round
and after each: every reference figure then has a perfprobe run on each
side, and both count (two perfprobe figures a round).  --alternate runs
perfprobe's one run of a round after the reference commands in odd rounds
and before them in even ones, and keeps each round's order in the fixture
(perfprobe_first): a figure that follows its position, not its tool, is
the machine's.  lmbench3's timing
parameters (ENOUGH, TIMING_O, LOOP_O) are measured once, by BINDIR's
enough, timing_o and loop_o, and exported as lmbench's own script does
(those already set are kept).

--save writes every round's figures, with the date, the machine and the
options, to FILE: the fixture the table was made from.  --from FILE prints
the table again from a fixture, without measuring (--rst: as accuracy.rst
has it, after a list of the runs: date, machine, load, options); given
more than once, one table of every fixture's figures in turn, so groups
measured in runs of their own make one table.  --check RSTFILE fails
unless every row of it is in RSTFILE (given more than once: in each file,
the table computed once; each missing row is named with its file).
"""
import argparse
import datetime
import json
import os
import platform
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import zlib


def lm(*argv):
    return ("lmbench",) + argv


def mem_rd(size_mb, stride):
    """lat_mem_rd's line for size_mb in the block of stride."""
    return r"stride=%d\n(?:[\d.]+ [\d.]+\n)*?%.5f ([\d.]+)" % (stride, size_mb)


# storage: perfprobe's default, 256 MiB per buffer size (--storage-size)
# in 11 files (its samples); fio writes and reads the same files
STORAGE_MB = 256
STORAGE_FILES = 11
STORAGE_BUFS = (("4k", 4 << 10), ("256k", 256 << 10), ("1m", 1 << 20), ("4m", 4 << 20))


def storage_len(bs, mb):
    """One file's bytes, as perfprobe's storage sizes it."""
    return max(bs, (mb << 20) // STORAGE_FILES // bs * bs)


def fio(rw, name, bs):
    """fio running perfprobe's storage job: STORAGE_FILES files of
    storage_len() bytes, in one fio job of bs-sized psync calls, file after
    file (openfiles=1, file_service_type=sequential), as perfprobe writes
    and reads them from one process: written from empty (round_setup())
    with an fsync as each file is closed, timed in as perfprobe's is; read
    after every file's pages are dropped (invalidate: posix_fadvise
    DONTNEED, as perfprobe does), and deleted, untimed, before the next size, as
    perfprobe deletes its own: on a file system mounted with discard the
    freed blocks' discards then reach the device during the next sizes on
    both sides (accuracy.rst, "storage and fio").  gtod_reduce: fio's time stamps of each
    call, which perfprobe does not take, cost more than a 4 KiB read on a
    guest with a slow clock (accuracy.rst, "storage and fio").  mem: fio's
    buffer in huge pages (shmhuge), as perfprobe's is in transparent huge
    pages: an O_DIRECT request's segments are the buffer's pages, and on a
    virtio disk their number set direct reads' rate (accuracy.rst, "storage
    and fio").  The figure is the job's bytes over its time."""
    return ("fioset", rw, name, str(bs))


FIO_BW = r'"%s" : \{\s*"io_bytes" : \d+,\s*"io_kbytes" : \d+,\s*"bw_bytes" : (\d+)'


def fioset_once(argv):
    """Run fio(); "job bw_bytes N" (bytes a second) or why not."""
    _, rw, name, bs, storage, direct, mb, mem = argv
    files = ":".join("%s/fio-%s-%d" % (storage, name, i) for i in range(STORAGE_FILES))
    cmd = ["fio", "--name=acc", "--filename=" + files, "--openfiles=1",
           "--file_service_type=sequential", "--rw=" + rw, "--bs=" + bs,
           "--size=%d" % (STORAGE_FILES * storage_len(int(bs), int(mb))), "--ioengine=psync",
           "--gtod_reduce=1", "--mem=" + mem, "--output-format=json"]
    cmd += ["--fsync_on_close=1", "--fallocate=none"] if rw == "write" else ["--invalidate=1"]
    if direct == "1":	# perfprobe's PERFPROBE_STORAGE_DIRECT=1: O_DIRECT both ways
        cmd += ["--direct=1"]
    out = ref_once(cmd)
    if rw == "read":	# perfprobe deletes a size's files once read: so does fio's job
        remove_fio_files(storage, [name])
    m = re.search(FIO_BW % rw, out)
    if not m:
        return "fio: " + out.strip()[-200:]
    return "job bw_bytes %s\n" % m.group(1)


def netperf(test, *opts):
    return ("netperf", "-H", "127.0.0.1", "-p", "12866", "-t", test, "-l", "2", "-P", "0",
            "--") + opts + ("-o", "THROUGHPUT,THROUGHPUT_UNITS")


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
    ("lat_pagefault", "lat_pagefault", lm("lat_pagefault", "-N", "5", "{pffile}"), r"Pagefaults on \S+: ([\d.]+)"),
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
    # fio: bytes a second; perfprobe's MB/s are 10^6 bytes.  Each write
    # before the read of the same file.
    ("storage-%s-%s" % (rw, name), "storage", fio(rw, name, bs), r"job bw_bytes ([\d.]+)", 1e-6)
    for name, bs in STORAGE_BUFS
    for rw in ("write", "read")
] + [
    # netperf itself: 10^6 bits a second (perfprobe's Mbit/s), transactions a second
    ("net-tcp_stream-64k", "netperf", netperf("TCP_STREAM", "-m", "65536", "-M", "65536"),
     r"(?m)^([\d.]+),10\^6bits/s"),
    ("net-tcp_stream-1448", "netperf", netperf("TCP_STREAM", "-m", "1448", "-M", "1448"),
     r"(?m)^([\d.]+),10\^6bits/s"),
    ("net-tcp_rr-1", "netperf", netperf("TCP_RR", "-r", "1,1"), r"(?m)^([\d.]+),Trans/s"),
]

# What perfprobe is told for a group: the same files as the reference,
# only the tests compared.
GROUP_ENV = {
    "lat_pagefault": {"PERFPROBE_PAGEFAULT_FILE": "{pffile}"},
    "storage": {"PERFPROBE_STORAGE_DIR": "{storage}", "PERFPROBE_STORAGE_DIRECT": "{direct}",
                "PERFPROBE_STORAGE_SIZE": "{storage_mb}m"},
    "netperf": {"PERFPROBE_NET_TESTS": "tcp_stream,tcp_rr"},
}

# Servers a reference needs, started before its group and stopped after.
SERVERS = {
    "lat_tcp": (lm("lat_tcp", "-s"), lm("lat_tcp", "-S", "127.0.0.1")),
    "lat_udp": (lm("lat_udp", "-s"), lm("lat_udp", "-S", "127.0.0.1")),
    "bw_tcp": (lm("bw_tcp", "-s"), lm("bw_tcp", "-S", "127.0.0.1")),
    "netperf": (("netserver", "-D", "-p", "12866"), None),
}


def target_pct(key):
    """accuracy.rst's targets: 15% for IPC and context switches, 5% for
    STREAM and crypto, 10% for the rest (lmbench3, fio, netperf)."""
    if key.startswith(("stream-", "crypto-")):
        return 5
    if key.startswith(("lat_pipe", "lat_unix", "lat_tcp", "lat_udp", "lat_ctx", "bw_pipe",
                       "bw_unix", "bw_tcp", "lat_sem")):
        return 15
    return 10


# Rows whose ratio is outside the target for a reason shown in
# accuracy.rst: the reason, in the table's last column.
EXPLAINED = {
    "lat_ops-int-bit": "lmbench's chain folded",
    "lat_ops-int64-bit": "lmbench's chain folded",
    "lat_ops-int-add": "lmbench reads 0.00",
    "lat_ops-int64-add": "lmbench reads 0.00",
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
    elif argv[0] == "fioset":
        argv = argv + [subst["storage"], subst["direct"], subst["storage_mb"], subst["fio_mem"]]
    elif argv[0] in ("netperf", "netserver"):
        argv = [os.path.join(a.netperf, argv[0]) if a.netperf else None] + argv[1:]
    if argv[0] is None:
        raise RuntimeError("no reference binary given")
    return argv


TERM_WAIT_S = 10	# an interrupted command's time to end after SIGTERM


def run_grouped(argv, env):
    """Run argv to its end, its output captured, in a process group of its
    own (the session, and so the autogroup, stays this script's): if this
    script is interrupted the whole group is killed.  lmbench3's benchmp
    forks its samples' workers, and they outlive a parent that is killed
    alone: one spun on the measuring CPU for 13 minutes (2026-12-06).  The
    group has SIGTERM first: fio runs each job in a process that calls
    setsid(), outside the group, and ends its jobs on SIGTERM; killed at
    once, it left its job writing on for seconds (2026-12-06)."""
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env, process_group=0)
    try:
        out, err = p.communicate()
    except BaseException:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(p.pid, sig)
            except ProcessLookupError:
                break
            try:
                p.wait(timeout=TERM_WAIT_S)
            except subprocess.TimeoutExpired:
                pass
        p.wait()
        raise
    return subprocess.CompletedProcess(argv, p.returncode, out, err)


def ref_once(argv):
    if argv[0] == "fioset":
        return fioset_once(argv)
    env = dict(os.environ, OMP_NUM_THREADS=str(len(os.sched_getaffinity(0))))
    try:
        p = run_grouped(argv, env)
    except OSError as e:
        return "cannot run %s: %s" % (argv[0], e.strerror)
    return p.stdout + p.stderr


def perfprobe_once(a, bench, mt, subst):
    cmd = [a.perfprobe, "--no-save", "--json"] + a.perfprobe_args.split()
    if not mt:
        cmd += ["--cpu", str(a.cpu)]
    env = dict(os.environ)
    for k, v in GROUP_ENV.get(bench, {}).items():
        env[k] = v.format(**subst)
    p = run_grouped(cmd + ["run", bench], env)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        raise RuntimeError("perfprobe run %s: no JSON (exit %d): %s"
                           % (bench, p.returncode, p.stderr.strip()[-200:])) from None
    for i in doc.get("info", []):	# what each run had: the fixture keeps them all
        seen = a.pp_info.setdefault(i["name"], [])
        if i["text"] not in seen:
            seen.append(i["text"])
    return {r["key"]: r for r in doc["results"] if "value" in r}


def perfprobe_run(a, bench, mt, subst, fig):
    """perfprobe_once, its failure set on every figure not already failed."""
    try:
        return perfprobe_once(a, bench, mt, subst)
    except (OSError, RuntimeError) as e:
        for f in fig:
            f["error"] = f["error"] or str(e)
        return {}


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


def write_file(path, mb):
    """As perfprobe writes its own (tools/perfprobe/benchlib/datafile.c): 1 MiB
    writes, fsync'd.  The write size sets the page cache's folio sizes, which
    decide how many pages one fault maps (lat_pagefault)."""
    with open(path, "wb") as f:
        chunk = os.urandom(1 << 20)
        for _ in range(mb):
            f.write(chunk)
            f.flush()
        os.fsync(f.fileno())


def round_setup(group, subst):
    """lat_pagefault's file, written again before each round and given to
    both tools: a file left idle loses pages to reclaim (on the measured
    machine, DAMON's pageout of idle page cache), and reread they come back
    in other folio sizes, so an older file is a different file."""
    if group == "lat_pagefault":
        write_file(subst["pffile"], 8)
    elif group == "storage":	# fio writes new files, as perfprobe (O_TRUNC)
        remove_fio_files(subst["storage"])


# fio's buffer (--mem=shmhuge) comes from the hugetlb pool: 3 pages hold the
# largest (4 MiB and its alignment); one more to spare
FIO_HUGEPAGES = 4
NR_HUGEPAGES = "/proc/sys/vm/nr_hugepages"


def reserve_hugepages(n):
    """n more hugetlb pages for fio's buffer; the pool's size before, or
    None (not root, no hugetlb, or memory too fragmented to give them)."""
    try:
        with open(NR_HUGEPAGES) as f:
            old = int(f.read())
        with open(NR_HUGEPAGES, "w") as f:
            f.write(str(old + n))
        with open(NR_HUGEPAGES) as f:
            if int(f.read()) >= old + n:
                return old
        restore_hugepages(old)
    except (OSError, ValueError):
        pass
    return None


def restore_hugepages(old):
    if old is not None:
        with open(NR_HUGEPAGES, "w") as f:
            f.write(str(old))


def remove_fio_files(storage, names=None):
    for name in names or [n for n, _ in STORAGE_BUFS]:
        for i in range(STORAGE_FILES):
            try:
                os.unlink(os.path.join(storage, "fio-%s-%d" % (name, i)))
            except OSError:
                pass


def median(v):
    return statistics.median(v) if v else float("nan")


def _median(v):
    s = sorted(v)
    h = len(s) // 2
    return s[h] if len(s) % 2 else (s[h - 1] + s[h]) / 2


def ratio_interval(mine, ref, key, b=2000, after=None):
    """The ratio of the medians and its 95% interval: percentile bootstrap,
    resampling whole rounds (each round's perfprobe and reference figure
    together), seeded by the key so that a fixture gives the same table.
    after: perfprobe's figures of the runs just after each reference
    (--bracket), one sample more a round on perfprobe's side."""
    n = min(len(mine), len(ref))
    after = after or []
    both = mine + after
    r = median(both) / median(ref) if median(ref) else float("nan")
    if n < 2 or r != r:
        return r, float("nan"), float("nan")
    rng = random.Random(zlib.crc32(key.encode()))
    pick = rng.choices(range(n), k=n * b)	# b resamples of n rounds
    est = []
    for j in range(0, n * b, n):
        idx = pick[j:j + n]
        d = _median([ref[i] for i in idx])
        m = [mine[i] for i in idx] + ([after[i] for i in idx] if after else [])
        est.append(_median(m) / d if d else float("nan"))
    est.sort()
    return r, est[int(0.025 * b)], est[int(0.975 * b) - 1]


def settled(fig, width):
    """Is every figure's ratio stated to within +-width% (its interval)?"""
    for f in fig:
        if f.get("error"):
            continue
        r, lo, hi = ratio_interval(f["perfprobe"], f["ref"], f["key"], b=400,
                                   after=f.get("perfprobe_after"))
        if not (lo == lo and hi == hi) or (hi - lo) / 2 > width / 100.0 * r:
            return False
    return True


def measure_group(group, pairs, a, subst):
    """Rounds of: each reference command once, then perfprobe once; with
    --bracket, perfprobe also before the first reference command and after
    each, so that every reference figure has a perfprobe run on each side
    (a drift of the machine's speed through the round falls on both)."""
    mt = group == "stream"		# the multi-thread sets need every CPU
    fig = [{"key": p[0], "group": group, "reference": " ".join(p[2]), "target_pct": target_pct(p[0]),
            "perfprobe": [], "ref": [], "unit": None, "spread_pct": 0, "error": None} for p in pairs]
    for f in fig:
        if group == "storage" and subst["direct"] == "1":
            f["direct"] = True
    proc = start_server(group, a, subst)
    rounds = 0
    try:
        while rounds < a.max_rounds and (rounds < a.rounds or not settled(fig, a.width)):
            rounds += 1
            round_setup(group, subst)
            outputs = {}
            ref_now = {}
            # perfprobe's runs of the round; with --bracket runs[i - 1] and
            # runs[i] are the two around the i-th reference command
            # --alternate: perfprobe's one run first in every second round
            first = a.alternate and rounds % 2 == 0
            runs = [perfprobe_run(a, group, mt, subst, fig)] if a.bracket or first else []
            ref_at = {}		# key: its reference command's number, from 1
            for p, f in zip(pairs, fig):
                argv, regex = p[2], p[3]
                factor = p[4] if len(p) > 4 else 1.0
                try:
                    r = resolve(argv, a, subst)
                except RuntimeError as e:
                    f["error"] = str(e)
                    continue
                if tuple(r) not in outputs:
                    outputs[tuple(r)] = ref_once(r)
                    if a.bracket:
                        runs.append(perfprobe_run(a, group, mt, subst, fig))
                ref_at[f["key"]] = len(outputs)
                m = re.search(regex, outputs[tuple(r)])
                if m:
                    ref_now[f["key"]] = float(m.group(1)) * factor
                else:
                    f["error"] = "%s: no figure in: %s" % (" ".join(r), outputs[tuple(r)].strip()[-200:])
            if not a.bracket and not first:
                runs.append(perfprobe_run(a, group, mt, subst, fig))
            for f in fig:
                i = ref_at.get(f["key"])
                if i is None:
                    continue
                gs = [r.get(f["key"]) for r in (runs[i - 1:i + 1] if a.bracket else runs)]
                g = gs[-1]
                if None in gs:
                    f["error"] = f["error"] or "perfprobe run %s: no %s" % (group, f["key"])
                elif f["key"] in ref_now:	# the round counts when both sides have it
                    f["perfprobe"].append(pp_figure(group, gs[0]))
                    if group in BYTES_OVER_TIME:
                        f["perfprobe_stat"] = "bytes over time"
                        f.setdefault("perfprobe_median", []).append(float(gs[0]["value"]))
                    if a.bracket:
                        f.setdefault("perfprobe_after", []).append(pp_figure(group, g))
                    if a.alternate:
                        f.setdefault("perfprobe_first", []).append(first)
                    f["ref"].append(ref_now[f["key"]])
                    f["unit"] = g["unit"]
                    f["spread_pct"] = g.get("spread_pct", 0)
            got = runs[-1]
            for f in fig:
                if f["key"] == "lat_pagefault":
                    fpp = got.get("lat_pagefault-faults-per-page")
                    if fpp:
                        f.setdefault("faults_per_page", []).append(float(fpp["value"]))
            print("# %s round %d: %s" % (group, rounds, ", ".join(
                "%s %s/%s" % (f["key"], plain(f["perfprobe"][-1]), plain(f["ref"][-1]))
                for f in fig if f["perfprobe"] and len(f["perfprobe"]) == rounds)),
                file=sys.stderr, flush=True)
    finally:
        stop_server(group, a, subst, proc)
    return fig


# Groups whose reference gives its bytes over its whole time (fio's job):
# perfprobe's figure for them is its samples' bytes over their time, not
# its median sample.  Its samples are its files' MB/s, the files all one
# size, so that is their harmonic mean.  A file slowed by a stall lowers
# both; the median would pass over it (accuracy.rst, "The buffer's pages").
BYTES_OVER_TIME = ("storage",)


def pp_figure(group, r):
    """perfprobe's figure of result r, as the reference of group states its own."""
    s = r.get("samples") or []
    if group in BYTES_OVER_TIME and s and all(x > 0 for x in s):
        return len(s) / sum(1.0 / x for x in s)
    return float(r["value"])


def plain(v):
    """A figure in plain notation, 4 significant digits (16630, not
    1.663e+04)."""
    s = "%.4g" % v
    return "%.0f" % float(s) if "e" in s else s


def row(f):
    """One figure's row: figure, perfprobe, reference, ratio, interval,
    rounds, within target."""
    how = [f["unit"]] if f.get("unit") and f["unit"] != "us" else []
    how += ["O_DIRECT"] if f.get("direct") else []
    how += [f["perfprobe_stat"]] if f.get("perfprobe_stat") else []
    key = f["key"] + (" (%s)" % ", ".join(how) if how else "")
    if f.get("error") and not f["perfprobe"]:
        return (key, "", "", "", "", "", "not measured: " + f["error"][:60])
    m, r = median(f["perfprobe"] + f.get("perfprobe_after", [])), median(f["ref"])
    if not r:
        return (key, plain(m), plain(r), "\\--", "\\--", str(len(f["perfprobe"])),
                "no: " + EXPLAINED.get(f["key"], "the reference reads 0"))
    ratio, lo, hi = ratio_interval(f["perfprobe"], f["ref"], f["key"],
                                   after=f.get("perfprobe_after"))
    t = f["target_pct"] / 100.0
    ok = 1 - t <= ratio <= 1 + t
    verdict = "yes" if ok else "no"
    if ok and not (1 - t <= lo and hi <= 1 + t):
        verdict = "yes, interval wider"
    if f["key"] in EXPLAINED:
        verdict += ": " + EXPLAINED[f["key"]]
    if f.get("spread_pct"):
        verdict += " (spread by nature %.0f%%)" % f["spread_pct"]
    return (key, plain(m), plain(r), "%.2f" % ratio, "%.2f-%.2f" % (lo, hi),
            str(len(f["perfprobe"])), verdict)


HEAD = ("figure", "perfprobe", "reference", "ratio", "95% interval", "rounds", "within target")


def print_table(figs, rst, out=sys.stdout):
    rows = [row(f) for f in figs]
    if not rst:
        print("| " + " | ".join(HEAD) + " |", file=out)
        print("|" + "---|" * len(HEAD), file=out)
        for r in rows:
            print("| " + " | ".join(r) + " |", file=out)
        return rows
    w = [max(len(x[i]) for x in rows + [HEAD]) for i in range(len(HEAD))]
    rule = "  ".join("=" * n for n in w)
    print(rule, file=out)
    print("  ".join(h.ljust(n) for h, n in zip(HEAD, w)).rstrip(), file=out)
    print(rule, file=out)
    for r in rows:
        print("  ".join(x.ljust(n) for x, n in zip(r, w)).rstrip(), file=out)
    print(rule, file=out)
    return rows


def print_runs(docs, out=sys.stdout):
    """The runs a table is made of, one item each, as accuracy.rst lists them."""
    for path, doc in docs:
        m, o = doc["machine"], doc["options"]
        groups = []
        for f in doc["figures"]:
            if f["group"] not in groups:
                groups.append(f["group"])
        print("* ``%s``: %s; %s, %s CPUs, kernel %s; CPU %s, %s-%s rounds; "
              "load %s before, %s after; %s"
              % (os.path.basename(path), doc["date"], m.get("cpu", "?"), m.get("cpus", "?"),
                 m.get("kernel", "?"), o["cpu"], o["rounds"], o["max_rounds"],
                 " ".join("%.2f" % x for x in doc["load_before"]),
                 " ".join("%.2f" % x for x in doc["load_after"]), ", ".join(groups)),
              file=out)
    print(file=out)


def machine():
    """What the fixture says the measurement ran on."""
    m = {"kernel": platform.release(), "machine": platform.machine(), "cpus": os.cpu_count()}
    try:
        with open("/proc/cpuinfo") as f:
            m["cpu"] = re.search(r"model name\s*:\s*(.*)", f.read()).group(1)
        with open("/proc/meminfo") as f:
            m["memory_kb"] = int(re.search(r"MemTotal:\s*(\d+)", f.read()).group(1))
    except (OSError, AttributeError):
        pass
    return m


# lmbench3's timing parameters and the programs that measure them.
# lmbench's own script (scripts/config-run) measures them once and
# exports them; a binary started without them measures them itself,
# about 30 s on the machine of 2026-12-06 before its first sample.
LMBENCH_TIMING = (("ENOUGH", "enough"), ("TIMING_O", "timing_o"), ("LOOP_O", "loop_o"))


def lmbench_calibrate(a):
    """Measure lmbench3's timing parameters once, pinned as the benchmarks
    are, in the order its script does (each program uses the ones before),
    and export them to every lmbench3 binary run after.  Those already in
    the environment are kept."""
    got = {}
    for var, prog in LMBENCH_TIMING:
        if var not in os.environ:
            try:
                p = subprocess.run([os.path.join(a.lmbench, prog)], capture_output=True,
                                   text=True, check=True)
                tok = p.stdout.split()[0]
                float(tok)		# a number, as the program prints it
                os.environ[var] = tok
            except (OSError, subprocess.CalledProcessError, IndexError, ValueError):
                print("accuracy.py: %s: no %s measured (build lmbench3's %s): "
                      "each lmbench3 binary measures it itself"
                      % (os.path.join(a.lmbench, prog), var, prog), file=sys.stderr)
                continue
        got[var] = os.environ[var]
    print("# lmbench3 timing: %s" % " ".join("%s=%s" % kv for kv in got.items()),
          file=sys.stderr, flush=True)
    return got


def tool_version(argv):
    try:
        p = subprocess.run(argv, capture_output=True, text=True, check=False)
        return (p.stdout + p.stderr).strip().splitlines()[0]
    except (OSError, IndexError):
        return None


def hello_linked():
    """lmbench's lat_proc execs /tmp/hello: how it is linked (its ELF
    program headers name an interpreter when it is dynamic)."""
    try:
        with open("/tmp/hello", "rb") as f:
            return "dynamic" if b"/ld-linux" in f.read(4096) else "static"
    except OSError:
        return "missing"


def check_rst(rows, path):
    """Every row of the table, as --rst prints it, in the file."""
    with open(path) as f:
        lines = [re.split(r"\s{2,}", l.strip()) for l in f]
    missing = 0
    for r in rows:
        if [x for x in r if x] not in lines:
            print("accuracy.py: %s: no row for %s as the fixture gives it: %s"
                  % (path, r[0], " | ".join(r)), file=sys.stderr)
            missing += 1
    return missing


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lmbench", help="directory of lmbench3 binaries")
    ap.add_argument("--stream", help="stream.c built single-threaded with perfprobe's array size")
    ap.add_argument("--stream-mt", help="stream.c built with -fopenmp, same array size")
    ap.add_argument("--netperf", help="directory of netperf and netserver")
    ap.add_argument("--perfprobe", default=os.path.join(os.path.dirname(__file__), "..", "perfprobe"))
    ap.add_argument("--perfprobe-args", default="", help="more options for perfprobe (e.g. '--noise 100')")
    ap.add_argument("--cpu", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=5, help="rounds at least")
    ap.add_argument("--max-rounds", type=int, default=12, help="rounds at most")
    ap.add_argument("--width", type=float, default=10.0,
                    help="more rounds while a ratio's 95%% interval is wider than +-WIDTH%%")
    ap.add_argument("--autogroup-nice", type=int,
                    help="this session's autogroup at nice N while measuring (root for N < 0)")
    ap.add_argument("--storage-dir", help="directory on the device for storage (default: the temporary one)")
    ap.add_argument("--storage-direct", action="store_true",
                    help="storage with O_DIRECT on both sides (PERFPROBE_STORAGE_DIRECT=1, fio --direct=1)")
    ap.add_argument("--storage-size", type=int, default=STORAGE_MB, metavar="MB",
                    help="storage's bytes per buffer size, both sides (PERFPROBE_STORAGE_SIZE)")
    ap.add_argument("--bracket", action="store_true",
                    help="perfprobe before and after each reference command, both runs its figures")
    ap.add_argument("--alternate", action="store_true",
                    help="perfprobe after the reference commands in odd rounds, before them in even")
    ap.add_argument("--only", default="", help="comma-separated perfprobe keys")
    ap.add_argument("--group", default="", help="comma-separated perfprobe benchmarks")
    ap.add_argument("--save", help="write the fixture (every round's figures) to FILE")
    ap.add_argument("--from", dest="fixture", action="append",
                    help="print the table of a fixture (again: of several, in turn)")
    ap.add_argument("--rst", action="store_true", help="the table as accuracy.rst has it")
    ap.add_argument("--check", action="append",
                    help="with --from: fail unless the table's rows are in RSTFILE (again: in each)")
    a = ap.parse_args()
    # bad input: one line, exit 2 (argparse's own usage errors' code)
    if a.bracket and a.alternate:
        ap.exit(2, "accuracy.py: --bracket and --alternate: one order at a time\n")
    if a.storage_size < 1:
        ap.exit(2, "accuracy.py: --storage-size %d: not a size in MB (1 or more)\n" % a.storage_size)
    # SIGTERM as SIGINT: unwind, so the running command's group is killed
    # and the servers stopped
    signal.signal(signal.SIGTERM, lambda sig, frame: sys.exit(128 + sig))
    if a.fixture:
        docs = []
        for path in a.fixture:
            try:
                with open(path) as f:
                    doc = json.load(f)
                if doc.get("format") != "perfprobe-accuracy":
                    raise ValueError("no \"format\": \"perfprobe-accuracy\"")
            except (OSError, ValueError, AttributeError) as e:
                sys.exit("accuracy.py: --from %s: not a fixture: %s" % (path, e))
            docs.append((path, doc))
        figs = [f for _, doc in docs for f in doc["figures"]]
        if a.check:
            with open(os.devnull, "w") as null:
                rows = print_table(figs, True, null)
            sys.exit(1 if sum(check_rst(rows, path) for path in a.check) else 0)
        if a.rst:
            print_runs(docs)
        print_table(figs, a.rst)
        return
    if not a.lmbench or not os.path.isdir(a.lmbench):
        sys.exit("accuracy.py: --lmbench BINDIR: not a directory")
    only = set(filter(None, a.only.split(",")))
    groups = set(filter(None, a.group.split(",")))
    pairs = [p for p in PAIRS if (not only or p[0] in only) and (not groups or p[1] in groups)]
    if not pairs:
        sys.exit("accuracy.py: --only/--group name no known figure")
    ag_old = None
    if a.autogroup_nice is not None:
        with open("/proc/self/autogroup") as f:
            ag_old = int(f.read().split()[-1])
        with open("/proc/self/autogroup", "w") as f:
            f.write(str(a.autogroup_nice))
    doc = {"format": "perfprobe-accuracy", "version": 1,
           "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
           "machine": machine(), "load_before": os.getloadavg(),
           "options": {"cpu": a.cpu, "rounds": a.rounds, "max_rounds": a.max_rounds,
                       "width_pct": a.width, "perfprobe_args": a.perfprobe_args,
                       "autogroup_nice": a.autogroup_nice,
                       "storage_direct": a.storage_direct, "storage_mb": a.storage_size,
                       "bracket": a.bracket, "alternate": a.alternate},
           "tools": {"perfprobe": tool_version([a.perfprobe, "--version"]),
                     "fio": tool_version(["fio", "--version"]),
                     "openssl": tool_version(["openssl", "version"]),
                     "netperf": tool_version([os.path.join(a.netperf, "netperf"), "-V"])
                     if a.netperf else None,
                     "lmbench": a.lmbench, "/tmp/hello": hello_linked()},
           "figures": []}
    a.pp_info = doc["perfprobe_info"] = {}
    huge_old = None
    if "storage" in (p[1] for p in pairs):
        huge_old = reserve_hugepages(FIO_HUGEPAGES)
        if huge_old is None:
            print("accuracy.py: no hugetlb pages for fio's buffer: fio's direct figures "
                  "depend on where its pages fall (accuracy.rst, \"storage and fio\")",
                  file=sys.stderr)
    doc["options"]["fio_mem"] = "malloc" if huge_old is None else "shmhuge"
    try:
        with tempfile.TemporaryDirectory() as tmp:
            tmpfile = os.path.join(tmp, "f")
            with open(tmpfile, "wb") as f:
                f.write(b"x" * 4096)
            storage = a.storage_dir or tmp
            subst = {"tmpfile": tmpfile, "bigfile": os.path.join(tmp, "big"),
                     "pffile": os.path.join(tmp, "pf"), "file64": os.path.join(tmp, "big64"),
                     "storage": storage, "direct": "1" if a.storage_direct else "0",
                     "storage_mb": str(a.storage_size), "fio_mem": doc["options"]["fio_mem"]}
            # lat_sig prot's file: 8 MB, perfprobe's size; bw_file_rd's and
            # bw_mmap_rd's: 64 MB, one file for all sizes
            write_file(subst["bigfile"], 8)
            write_file(subst["file64"], 64)
            os.sched_setaffinity(0, {a.cpu})
            if any(p[2][0] == "lmbench" for p in pairs):
                doc["tools"]["lmbench_env"] = lmbench_calibrate(a)
            order = []
            for p in pairs:
                if p[1] not in order:
                    order.append(p[1])
            try:
                for group in order:
                    gp = [p for p in pairs if p[1] == group]
                    if group == "stream":
                        os.sched_setaffinity(0, range(os.cpu_count()))
                    doc["figures"] += measure_group(group, gp, a, subst)
                    os.sched_setaffinity(0, {a.cpu})
            finally:	# --storage-dir is not ours: fio's files go, stopped or not
                remove_fio_files(storage)
    finally:
        restore_hugepages(huge_old)
        if ag_old is not None:
            with open("/proc/self/autogroup", "w") as f:
                f.write(str(ag_old))
    doc["load_after"] = os.getloadavg()
    if a.save:
        with open(a.save, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
    print_table(doc["figures"], a.rst)


if __name__ == "__main__":
    main()
