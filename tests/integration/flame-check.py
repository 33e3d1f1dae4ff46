#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What report.t checks of the flame graphs of the runs flame-runs.py
makes, from `report --format svg` (a file a chart, DIR/ID.svg):

    flame-check.py DIR graphs    a differential graph for each changed key
                                 with profiles on both sides, none else
    flame-check.py DIR nesting   every frame on one row below, within it;
                                 a frame's children no wider than it
    flame-check.py DIR colours   red grew, blue shrank, grey the same
    flame-check.py DIR tips      a frame's tooltip: both sides, the change
                                 and its interval
    flame-check.py DIR runs      each run's graph: 2 a side a changed key

Exits 1 with what is wrong on stderr.
"""
import glob
import os
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def charts(d, prefix):
    out = {}
    for f in sorted(glob.glob(os.path.join(d, prefix + "*.svg"))):
        out[os.path.basename(f)[:-4]] = ET.parse(f).getroot()
    return out


def diff_graphs(d):
    """{key: svg} of the differential graphs (ids flame-C-R-g)."""
    out = {}
    for i, s in charts(d, "flame-").items():
        key = s.get("aria-label").split(": where the kernel time changed")[0]
        assert key not in out, ("two graphs of", key)
        out[key] = s
    return out


def frames(svg):
    """[(name, x, y, w, fill, tooltip, label)]"""
    out = []
    for g in svg.iter(NS + "g"):
        if g.get("class") != "frame":
            continue
        r = g.find(NS + "rect")
        t = g.find(".//" + NS + "text")
        tip = g.find(NS + "title").text
        out.append((tip.split("\n")[0], float(r.get("x")), float(r.get("y")),
                    float(r.get("width")), r.get("fill"), tip,
                    t.text if t is not None else None))
    return out


def rgb(fill):
    return tuple(int(fill[i:i + 2], 16) for i in (1, 3, 5))


def frame(svg, name):
    f = [x for x in frames(svg) if x[0] == name]
    assert len(f) == 1, (name, "drawn", len(f), "times")
    return f[0]


def check_graphs(d):
    g = diff_graphs(d)
    # changed with profiles on both sides, or code that moved by 5% or
    # more of the time (stat); read has none on the new side, pipe did
    # not change, fstat's new code is below 5%
    assert sorted(g) == ["lat_syscall-null", "lat_syscall-stat",
                         "lat_syscall-write"], sorted(g)


def check_nesting(d):
    n = 0
    for i, svg in {**charts(d, "flame-"), **charts(d, "prof-")}.items():
        fr = frames(svg)
        bottom = max(f[2] for f in fr)
        for f in fr:
            if f[2] == bottom:
                assert f[0] == "all kernel time", (i, "root", f[0])
                continue
            below = [p for p in fr if abs(p[2] - f[2] - 17) < 0.01 and
                     p[1] - 0.01 <= f[1] and f[1] + f[3] <= p[1] + p[3] + 0.01]
            assert len(below) == 1, (i, f[0], "on", len(below), "frames")
        for p in fr:
            kids = [f for f in fr if abs(p[2] - f[2] - 17) < 0.01 and
                    p[1] - 0.01 <= f[1] < p[1] + p[3]]
            assert sum(f[3] for f in kids) <= p[3] + 0.02, (i, p[0], "children wider")
            n += 1
        # labels: drawn where they fit (the browser measures them, report.t)
        for f in fr:
            assert f[6] is None or f[0].startswith(f[6].rstrip(".")), (i, f[0], f[6])
    print("# %d frames nested" % n)


def check_colours(d):
    g = diff_graphs(d)
    null, write = g["lat_syscall-null"], g["lat_syscall-write"]
    for name, want in (("__seccomp_filter", "red"), ("syscall_trace_enter", "red"),
                       ("syscall_exit_to_user_mode", "blue"),
                       ("__x64_sys_getppid", "grey")):
        r, gr, b = rgb(frame(null, name)[4])
        got = "red" if r > b + 60 else "blue" if b > r + 60 else \
              "grey" if r == gr == b else "?"
        assert got == want, ("lat_syscall-null", name, frame(null, name)[4], want)
    r, gr, b = rgb(frame(write, "vfs_write")[4])
    assert b > r + 60, ("lat_syscall-write vfs_write", frame(write, "vfs_write")[4])
    # saturation by the change against the key's: +300 of +500 ns/op is
    # redder than +100 ns/op
    s, j = rgb(frame(null, "__seccomp_filter")[4]), \
        rgb(frame(null, "[JIT code kallsyms does not list]")[4])
    assert s[1] < j[1], ("__seccomp_filter not redder than the JIT code under it", s, j)


def check_tips(d):
    t = frame(diff_graphs(d)["lat_syscall-null"], "__seccomp_filter")[5]
    want = r"base 0 ns/op, new 300 ns/op: \+300 ns/op \[\+[0-9.]+ ns\.\.\+[0-9.]+ ns\]"
    assert re.search(want, t), t
    t = frame(diff_graphs(d)["lat_syscall-null"], "__x64_sys_getppid")[5]
    assert "within the sampling error" in t, t


def check_runs(d):
    p = charts(d, "prof-")
    names = sorted(s.get("aria-label") for s in p.values())
    for key in ("lat_syscall-null", "lat_syscall-stat", "lat_syscall-write"):
        k = [n for n in names if n.startswith(key + ", ")]
        assert len(k) == 4 and sum(", base run" in n for n in k) == 2, (key, k)
    assert len(names) == 12, names


if __name__ == "__main__":
    globals()["check_" + sys.argv[2]](sys.argv[1])
