#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-spec: the netlink spec is the authority on perfprobe's ABI.

Checks what is written by hand against
Documentation/netlink/specs/perfprobe.yaml and prints one line per
mismatch: the uapi header include/uapi/linux/perfprobe.h, the family
and the replies of the module.  (The module's policies and op table are
generated from the spec by scripts/genl-gen.py, whose --check says when
kmod/genl-gen.[ch] are stale; they are not checked here.)

  constants      every `type: const` is a #define PERFPROBE_<NAME> of
                 the same value; c-family-name/c-version-name match
                 the spec's name and version
  enums, flags   same C entries, same order, same values
  attributes     each attribute set is one C enum with the same entries
                 and values; the type word that starts each entry's
                 comment (u8, u32, u64, string, nest) is the spec's type
  commands       enum perfprobe_cmd matches the operations
  family         kmod/genl.c's genl_family has the spec's name and version
  replies        an attribute the module puts has the spec's type, and
                 is not `unused` (reserved)

usage: scripts/check-spec.py [--spec FILE] [--header FILE] [--kmod DIR]
Exit status 0 when everything matches, 1 on a mismatch, 2 on a usage or
parse error.  Needs python3-yaml.
"""
import argparse
import os
import re
import sys

try:
    import yaml
except ImportError:
    sys.stderr.write("check-spec: python3-yaml is missing (apt-get install python3-yaml)\n")
    sys.exit(2)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# nla_put helpers of the module: which spec type they put
PUT_HELPERS = {'nla_put_u8': 'u8', 'nla_put_u16': 'u16', 'nla_put_u32': 'u32',
               'nla_put_u64_64bit': 'u64', 'nla_put_s32': 's32', 'nla_put_s64': 's64',
               'nla_put_string': 'string', 'nla_put_flag': 'flag', 'nla_put': 'binary',
               'nla_nest_start': 'nest', 'nla_nest_start_noflag': 'nest',
               'pp_put_u64': 'u64', 'pp_stat_nl_put': 'nest'}

problems = []


def fail(where, msg):
    problems.append("check-spec: %s: %s" % (where, msg))


def cname(*parts):
    return '_'.join(p for p in parts if p).replace('-', '_').upper()


def strip_comments(text):
    return re.sub(r'/\*.*?\*/', lambda m: ' ' * 0 + '\n' * m.group(0).count('\n'),
                  text, flags=re.S)


class CExpr:
    """Evaluates the integer expressions of #defines and initialisers."""

    def __init__(self):
        self.names = {}

    def value(self, expr, seen=()):
        e = re.sub(r'\(\s*__u\d+\s*\)', '', expr)
        e = re.sub(r'\b(0x[0-9a-fA-F]+|\d+)(?:ULL|UL|LL|U|L)\b', r'\1', e)

        def name(m):
            n = m.group(0)
            if n in seen or n not in self.names:
                raise ValueError("unknown name %s" % n)
            return '(%d)' % self.value(self.names[n], seen + (n,))
        e = re.sub(r'\b[A-Za-z_]\w*\b', name, e)
        if not re.fullmatch(r'[\s0-9a-fA-Fx()+\-*/<>|&~]*', e):
            raise ValueError("not an integer expression: %s" % expr)
        return int(eval(e.replace('/', '//'), {'__builtins__': {}}))  # noqa: S307

    def try_value(self, expr):
        try:
            return self.value(expr)
        except (ValueError, SyntaxError):
            return None


def parse_defines(text, ev, where):
    defs = {}
    text = text.replace('\\\n', ' ')
    for m in re.finditer(r'^#define\s+(\w+)(\([^)]*\))?[ \t]+(.*?)\s*$', text, re.M):
        if m.group(2):
            continue
        body = re.sub(r'/\*.*?\*/', '', m.group(3)).strip()
        if body:
            defs[m.group(1)] = body
            ev.names[m.group(1)] = body
    return defs


def parse_enums(text, ev):
    """{enum name: [(entry, value, comment type word or None)]}"""
    enums = {}
    for m in re.finditer(r'\benum\s+(\w+)\s*\{(.*?)\};', text, re.S):
        entries, nxt = [], 0
        body = re.sub(r'/\*(?:(?!\*/).)*?\n.*?\*/', '', m.group(2), flags=re.S)
        for line in body.split('\n'):
            em = re.match(r'\s*([A-Z_][A-Z0-9_]*)\s*(?:=\s*([^,/]+?))?\s*,?\s*(?:/\*\s*(.*?)\s*\*/)?\s*$',
                          line)
            if not em:
                continue
            ename = em.group(1)
            if em.group(2):
                ev.names.update({n: str(v) for n, v, _ in entries})
                val = ev.try_value(em.group(2))
            else:
                val = nxt
            word = None
            if em.group(3):
                wm = re.match(r'([a-z0-9]+)', em.group(3))
                word = wm.group(1) if wm else None
            entries.append((ename, val, word))
            ev.names[ename] = str(val)
            nxt = (val if val is not None else 0) + 1
        enums[m.group(1)] = entries
    return enums


def parse_family(text):
    """The fields of the genl_family initialiser: {field: value}."""
    fam = {}
    m = re.search(r'struct\s+genl_family\s+\w+[^=;]*=\s*\{(.*?)\n\};', strip_comments(text), re.S)
    if m:
        for f in re.finditer(r'^\s*\.(\w+)\s*=\s*(.*?),?\s*$', m.group(1), re.M):
            fam[f.group(1)] = f.group(2).strip()
    return fam


def main():
    ap = argparse.ArgumentParser(description="check the uapi header and the module against the netlink spec")
    ap.add_argument('--spec', default=os.path.join(ROOT, 'Documentation/netlink/specs/perfprobe.yaml'))
    ap.add_argument('--header', default=os.path.join(ROOT, 'include/uapi/linux/perfprobe.h'))
    ap.add_argument('--kmod', default=os.path.join(ROOT, 'kmod'))
    a = ap.parse_args()
    try:
        with open(a.spec) as f:
            spec = yaml.safe_load(f)
        with open(a.header) as f:
            htext = f.read()
        with open(os.path.join(a.kmod, 'genl.c')) as f:
            gtext = f.read()
        ktexts = {}
        for n in sorted(os.listdir(a.kmod)):
            if n.endswith('.c') and not n.endswith('.mod.c'):
                with open(os.path.join(a.kmod, n)) as f:
                    ktexts[n] = f.read()
    except (OSError, yaml.YAMLError) as e:
        sys.stderr.write("check-spec: %s\n" % e)
        return 2
    H = os.path.relpath(a.header, ROOT) if a.header.startswith(ROOT) else a.header
    G = os.path.join(os.path.relpath(a.kmod, ROOT) if a.kmod.startswith(ROOT) else a.kmod, 'genl.c')
    S = os.path.relpath(a.spec, ROOT) if a.spec.startswith(ROOT) else a.spec

    ev = CExpr()
    hclean = re.sub(r'/\*(?:(?!\*/).)*?\n.*?\*/', '', htext, flags=re.S)
    defines = parse_defines(hclean, ev, H)
    enums = parse_enums(htext, ev)
    fam = spec['name']

    def define(name, want, what):
        if name not in defines:
            fail(H, "%s: no #define %s (spec: %s)" % (what, name, want))
            return
        got = defines[name].strip('"') if isinstance(want, str) else ev.try_value(defines[name])
        if got != want:
            fail(H, "%s: %s is %s, the spec says %s" % (what, name, got, want))

    # ---- family name, version, constants
    define(cname(spec.get('c-family-name', fam + '-family-name')), fam, "family name")
    define(cname(spec.get('c-version-name', fam + '-version')), spec.get('version', 1), "version")
    for d in spec.get('definitions', []):
        if d['type'] == 'const':
            define(cname(fam, d['name']), d['value'], "const %s" % d['name'])
            continue
        prefix = d.get('name-prefix', fam + '-' + d['name'] + '-')
        names = [e if isinstance(e, str) else e['name'] for e in d['entries']]
        if d['type'] == 'flags':
            want = [(cname(prefix + n), 1 << i) for i, n in enumerate(names)]
        else:
            want = [(cname(prefix + n), i) for i, n in enumerate(names)]
        cenum = d.get('enum-name', cname(fam, d['name']).lower())
        compare_enum(H, cenum, enums, want, "%s %s" % (d['type'], d['name']))

    # ---- attribute sets
    attrs = {}		# C name -> (set name, attr dict)
    for st in spec['attribute-sets']:
        prefix = st.get('name-prefix', fam + '-' + st['name'] + '-')
        want, nxt = [], 0
        for at in st['attributes']:
            val = at.get('value', nxt)
            nxt = val + 1
            cn = cname(prefix + at['name'])
            want.append((cn, val))
            attrs[cn] = (st['name'], at)
        owner = [n for n, ents in enums.items() if any(e[0] == want[-1][0] for e in ents)]
        if not owner:
            fail(H, "attribute set %s: no enum holds %s" % (st['name'], want[-1][0]))
            continue
        compare_enum(H, owner[0], enums, want, "attribute set %s" % st['name'])
        words = {e[0]: e[2] for e in enums[owner[0]]}
        for cn, _ in want:
            at = attrs[cn][1]
            if at['type'] in ('unused', 'pad') or cn not in words:
                continue
            if words[cn] != at['type']:
                fail(H, "%s: comment says type %s, the spec says %s" % (cn, words[cn], at['type']))

    # ---- commands
    ops_spec = spec['operations']
    oprefix = ops_spec.get('name-prefix', fam + '-cmd-')
    want, nxt = [], 0
    for op in ops_spec['list']:
        val = op.get('value', nxt)
        nxt = val + 1
        want.append((cname(oprefix + op['name']), val))
    compare_enum(H, ops_spec.get('enum-name', cname(fam, 'cmd').lower()), enums, want, "operations")

    # ---- the module's family (its policies and op table are generated)
    cfam = parse_family(gtext)
    for f, want_name in (('name', cname(spec.get('c-family-name', fam + '-family-name'))),
                         ('version', cname(spec.get('c-version-name', fam + '-version')))):
        if cfam.get(f) != want_name:
            fail(G, "genl_family .%s is %s, expected %s" % (f, cfam.get(f), want_name))

    # ---- what the module puts
    helpers = '|'.join(sorted(PUT_HELPERS, key=len, reverse=True))
    for fn, text in ktexts.items():
        for m in re.finditer(r'\b(%s)\(\s*\w+\s*,\s*(%s_\w+)\b' % (helpers, cname(fam)), strip_comments(text)):
            cn = m.group(2)
            if cn not in attrs:
                continue
            at = attrs[cn][1]
            line = text.count('\n', 0, m.start()) + 1
            if at['type'] == 'unused':
                fail('kmod/%s:%d' % (fn, line), "%s is put, but the spec has it unused (reserved)" % cn)
            elif PUT_HELPERS[m.group(1)] != at['type']:
                fail('kmod/%s:%d' % (fn, line), "%s put with %s (%s), the spec says %s" %
                     (cn, m.group(1), PUT_HELPERS[m.group(1)], at['type']))

    for p in problems:
        print(p)
    if problems:
        print("check-spec: %d mismatch(es) with %s" % (len(problems), S), file=sys.stderr)
        return 1
    print("  SPEC    %s matches %s and %s" % (S, H, G))
    return 0


def compare_enum(where, cenum, enums, want, what):
    if cenum not in enums:
        fail(where, "%s: no enum %s" % (what, cenum))
        return
    # leave out __X_MAX and X_MAX = __X_MAX - 1
    maxes = {n[2:] for n, _, _ in enums[cenum] if n.startswith('__')}
    got = [(n, v) for n, v, _ in enums[cenum] if not n.startswith('__') and n not in maxes]
    for i in range(max(len(got), len(want))):
        g = got[i] if i < len(got) else None
        w = want[i] if i < len(want) else None
        if g != w:
            fail(where, "%s: enum %s entry %d is %s, the spec says %s" %
                 (what, cenum, i, '%s = %s' % g if g else 'missing', '%s = %s' % w if w else 'nothing'))


if __name__ == '__main__':
    sys.exit(main())
