#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The Markdown of "perfprobe report --guide" against the vendor guide's
structure (tests/fixtures/guide/seed-structure.txt), for guide.t:

  guide-check.py sections SEED GUIDE.md   the seed's sections, in its order,
                                          each a heading or a left-out note
  guide-check.py tables SEED GUIDE.md     each seed table perfprobe makes:
                                          present with the seed's column
                                          names and every seed row (or that
                                          row named as not in these runs),
                                          or its section left out
  guide-check.py present SEED GUIDE.md T  the seed table T was laid out

Prints what is wrong, one line each, and exits 1; else exits 0.
"""
import re
import sys

# The seed's sections named after its board or its driver; ours are named
# after what perfprobe measures.
SECTION = {
    "CPSW/CPSW2g/CPSW3g Ethernet Driver": "Ethernet Driver",
    "AM62XX-SK": "Storage",
}

# A seed table (its caption, or its section and first column when it has
# none) -> our caption, or None: perfprobe does not make it (a note says so).
TABLE = {
    "LM Bench Metrics": "LM Bench Metrics",
    "Stream": "Stream",
    "Dhrystone Benchmark": "Dhrystone Benchmark",
    "Whetstone Benchmark": "Whetstone Benchmark",
    "Linpack Benchmark": "Linpack Benchmark",
    "NBench Benchmarks": "NBench Benchmarks",
    "CoreMarkPro": "CoreMarkPro",
    "CoreMarkPro for Two Cores": "CoreMarkPro for All Cores (a context per CPU)",
    "CPSW TCP Bidirectional Throughput": "TCP Bidirectional Throughput",
    "CPSW UDP Egress Throughput": "UDP Egress Throughput (0% loss, RFC 2544 NDR)",
    "CPSW UDP Ingress Throughput (0% loss)": None,
    "CPSW UDP Ingress Throughput (possible loss)": None,
    "AM62XX-SK/Buffer size (bytes)": "Storage: sequential file write (with fsync) and read",
    "OpenSSL Performance/Algorithm|Buffer Size (in bytes)": "OpenSSL Performance",
    "OpenSSL Performance/Algorithm|CPU Load": "OpenSSL Performance: CPU Load",
    "IPSec Software Performance/Algorithm": "IPSec Software Performance (ESP tunnel mode, TCP)",
}


def seed(path):
    """[(level, title)], [{section, cols, rows, caption}]"""
    sections, tables, cur = [], [], None
    for line in open(path):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        kind, _, rest = line.partition(" ")
        if kind == "section":
            level, _, title = rest.partition(" ")
            cur = title
            if int(level) > 0:
                sections.append((int(level), SECTION.get(title, title)))
        elif kind == "table":
            tables.append({"section": cur, "cols": rest.split(" | "), "rows": [],
                           "caption": None})
        elif kind == "row":
            tables[-1]["rows"].append(rest.split(" | "))
        elif kind == "caption" and tables and tables[-1]["caption"] is None \
                and cur != "Linux Performance Guide":
            tables[-1]["caption"] = rest
    return sections, tables


def seed_name(t):
    if t["caption"]:
        return t["caption"]
    for name in (t["section"] + "/" + "|".join(t["cols"][:2]), t["section"] + "/" + t["cols"][0]):
        if name in TABLE:
            return name
    return t["section"] + "/" + t["cols"][0]


def guide(path):
    """headings and notes in order; tables by caption: heads, rows, rows not in the runs"""
    order, tables, notes = [], {}, []
    lines = open(path).read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^(##+) (?:[0-9.]+ )?(.*)$", line)
        if m:
            order.append(("head", len(m.group(1)) - 1, m.group(2)))
        m = re.match(r"^> (.*?): left out, ", line)
        if m:
            order.append(("left out", 0, m.group(1)))
        if line.startswith("> "):
            notes.append(line[2:])
        if line.startswith("| ") and i + 1 < len(lines) and lines[i + 1].startswith("| :---"):
            head = [c.strip() for c in line.strip("|").split(" | ")]
            rows = []
            i += 2
            while i < len(lines) and lines[i].startswith("| "):
                rows.append([c.strip().replace("\\|", "|") for c in lines[i].strip("|").split(" | ")])
                i += 1
            while i < len(lines) and not lines[i].startswith("Table: "):
                i += 1
            caption = lines[i][len("Table: "):]
            missing = []
            if i + 2 < len(lines) and lines[i + 2].startswith("> Not in these runs"):
                missing = [m.split(" | ") for m in re.findall(r"`([^`]*)`", lines[i + 2])]
            tables[caption] = {"head": head, "rows": rows, "missing": missing}
        i += 1
    return order, tables, notes


def metric(name):
    """a column head without the column's name and the filesystem: the seed's form"""
    name = re.sub(r"^[^:]*: ", "", name) if ": " in name and not name.startswith("CPU") else name
    return re.sub(r"^(Write|Read) \S+ (Throughput|CPU)", r"\1 \2", name)


def check_sections(s_sections, order):
    bad, at = [], 0
    titles = [t for _, _, t in order]
    for level, title in s_sections:
        try:
            j = titles.index(title, at)
        except ValueError:
            bad.append("section %r: neither a heading nor a left-out note, in the seed's order"
                       % title)
            continue
        kind, lv, _ = order[j]
        if kind == "head" and lv != level:
            bad.append("section %r: level %d, the seed's %d" % (title, lv, level))
        at = j + 1
    return bad


def check_tables(s_sections, s_tables, order, tables, notes, want=None):
    bad = []
    left_out = {t for k, _, t in order if k == "left out"}
    for t in s_tables:
        name = seed_name(t)
        section = SECTION.get(t["section"], t["section"])
        if name not in TABLE:
            if section not in left_out:
                bad.append("table %r: perfprobe has no such table, yet %r is not left out"
                           % (name, section))
            continue
        ours = TABLE[name]
        if ours is None:
            if not any(n.startswith("Not measured by perfprobe:") and
                       name.replace("CPSW ", "").split(" (")[0] in n for n in notes):
                bad.append("table %r: not made, and no note says so" % name)
            continue
        if ours not in tables:
            if want == name or (section not in left_out and
                                not any(n.startswith("Table: " + ours + ": not in these runs")
                                        for n in notes)):
                bad.append("table %r (ours %r): missing" % (name, ours))
            continue
        g = tables[ours]
        heads = [metric(h) for h in g["head"]]
        for c in t["cols"]:
            if metric(c) not in heads:
                bad.append("table %r: no column %r (ours: %s)" % (ours, c, " | ".join(heads)))
        for r in t["rows"]:
            if ours == "TCP Bidirectional Throughput":
                if not any("TCP_STREAM" in o[0] and "TCP_MAERTS" in o[0] for o in g["rows"]):
                    bad.append("table %r: no row of TCP_STREAM and TCP_MAERTS" % ours)
                continue
            k = len(r)
            if not any(o[:k] == r for o in g["rows"] + g["missing"]):
                bad.append("table %r: no row %r" % (ours, " | ".join(r)))
    if want and want not in [seed_name(t) for t in s_tables]:
        bad.append("no seed table %r" % want)
    return bad


def main():
    what, seed_path, guide_path = sys.argv[1:4]
    s_sections, s_tables = seed(seed_path)
    order, tables, notes = guide(guide_path)
    if what == "sections":
        bad = check_sections(s_sections, order)
    elif what == "tables":
        bad = check_tables(s_sections, s_tables, order, tables, notes)
    else:
        bad = check_tables(s_sections, [t for t in s_tables if seed_name(t) == sys.argv[4]],
                           order, tables, notes, sys.argv[4])
    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)


main()
