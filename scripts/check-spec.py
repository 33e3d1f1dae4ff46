#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-spec: the netlink spec is the authority on perfprobe's ABI.

Checks include/uapi/linux/perfprobe.h and the module (kmod/genl.c's
policies and op table, every nla_put in kmod/*.c) against
Documentation/netlink/specs/perfprobe.yaml and prints one line per
mismatch:

  constants      every `type: const` is a #define PERFPROBE_<NAME> of
                 the same value; c-family-name/c-version-name match
                 the spec's name and version
  enums, flags   same C entries, same order, same values
  attributes     each attribute set is one C enum with the same entries
                 and values; the type word that starts each entry's
                 comment (u8, u32, u64, string, nest) is the spec's type
  commands       enum perfprobe_cmd matches the operations
  op table       one genl_ops entry per operation with .doit / .dumpit as
                 the spec has do / dump, .flags as the spec's flags
                 (admin-perm: GENL_ADMIN_PERM), a policy exactly when the
                 operation has request attributes, holding exactly those
                 attributes, with the spec's type and checks (min/max;
                 an enum implies its value range, enum-as-flags the mask
                 of its flags), sized to the highest one
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
NLA_TYPES = {'u8': 'NLA_U8', 'u16': 'NLA_U16', 'u32': 'NLA_U32', 'u64': 'NLA_U64',
             's8': 'NLA_S8', 's16': 'NLA_S16', 's32': 'NLA_S32', 's64': 'NLA_S64',
             'string': 'NLA_NUL_STRING', 'nest': 'NLA_NESTED', 'flag': 'NLA_FLAG',
             'binary': 'NLA_BINARY'}
TYPE_MAX = {'u8': 0xff, 'u16': 0xffff, 'u32': 0xffffffff, 'u64': 0xffffffffffffffff}
OP_FLAGS = {'admin-perm': 'GENL_ADMIN_PERM', 'uns-admin-perm': 'GENL_UNS_ADMIN_PERM'}
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


def split_top(body):
    """Split an initialiser body at top-level commas."""
    parts, depth, cur = [], 0, ''
    for ch in body:
        if ch in '({[':
            depth += 1
        elif ch in ')}]':
            depth -= 1
        if ch == ',' and depth == 0:
            parts.append(cur.strip())
            cur = ''
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def parse_genl(text, ev, where):
    text = strip_comments(text)
    parse_defines(text, ev, where)
    ranges = {}
    for m in re.finditer(r'struct\s+netlink_range_validation\s+(\w+)\s*=\s*\{(.*?)\};', text, re.S):
        r = {}
        for f in split_top(m.group(2)):
            fm = re.match(r'\.(min|max)\s*=\s*(.*)', f, re.S)
            if fm:
                r[fm.group(1)] = ev.try_value(fm.group(2))
        ranges[m.group(1)] = r
    policies = {}
    for m in re.finditer(r'struct\s+nla_policy\s+(\w+)\s*\[(.*?)\]\s*=\s*\{(.*?)\n\};', text, re.S):
        entries = {}
        for item in split_top(m.group(3)):
            im = re.match(r'\[\s*(\w+)\s*\]\s*=\s*(.*)', item, re.S)
            if not im:
                fail(where, "policy %s: cannot read entry '%s'" % (m.group(1), ' '.join(item.split())))
                continue
            entries[im.group(1)] = parse_policy_entry(' '.join(im.group(2).split()), ranges, ev)
        policies[m.group(1)] = {'size': m.group(2).strip(), 'entries': entries}
    ops = []
    om = re.search(r'struct\s+genl_(?:small_)?ops\s+\w+\s*\[\s*\]\s*=\s*\{(.*?)\n\};', text, re.S)
    if not om:
        fail(where, "no genl_ops table found")
    else:
        for blk in re.finditer(r'\{(.*?)\}', om.group(1), re.S):
            op = {}
            for f in split_top(blk.group(1)):
                fm = re.match(r'\.(\w+)\s*=\s*(.*)', f, re.S)
                if fm:
                    op[fm.group(1)] = ' '.join(fm.group(2).split())
            ops.append(op)
    fam = {}
    fm = re.search(r'struct\s+genl_family\s+\w+[^=;]*=\s*\{(.*?)\n\};', text, re.S)
    if fm:
        for f in split_top(fm.group(1)):
            m2 = re.match(r'\.(\w+)\s*=\s*(.*)', f, re.S)
            if m2:
                fam[m2.group(1)] = m2.group(2).strip()
    return policies, ops, fam


def parse_policy_entry(v, ranges, ev):
    e = {'type': None, 'min': None, 'max': None, 'mask': None, 'text': v}
    m = re.fullmatch(r'\{\s*\.type\s*=\s*(\w+)\s*,?\s*\}', v)
    if m:
        e['type'] = m.group(1)
        return e
    m = re.fullmatch(r'NLA_POLICY_(\w+)\((\w+)\s*,\s*(.*)\)', v)
    if not m:
        return e
    kind, e['type'], args = m.group(1), m.group(2), split_top(m.group(3))
    if kind == 'FULL_RANGE' and len(args) == 1:
        r = ranges.get(args[0].lstrip('&').strip(), {})
        e['min'], e['max'] = r.get('min', 0), r.get('max')
    elif kind == 'RANGE' and len(args) == 2:
        e['min'], e['max'] = ev.try_value(args[0]), ev.try_value(args[1])
    elif kind == 'MIN' and len(args) == 1:
        e['min'] = ev.try_value(args[0])
    elif kind == 'MAX' and len(args) == 1:
        e['max'] = ev.try_value(args[0])
    elif kind == 'MASK' and len(args) == 1:
        e['mask'] = ev.try_value(args[0])
    else:
        e['type'] = None
    return e


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
    consts, flagsets, enumsets = {}, {}, {}
    for d in spec.get('definitions', []):
        if d['type'] == 'const':
            consts[d['name']] = d['value']
            define(cname(fam, d['name']), d['value'], "const %s" % d['name'])
            continue
        prefix = d.get('name-prefix', fam + '-' + d['name'] + '-')
        names = [e if isinstance(e, str) else e['name'] for e in d['entries']]
        if d['type'] == 'flags':
            want = [(cname(prefix + n), 1 << i) for i, n in enumerate(names)]
            flagsets[d['name']] = sum(v for _, v in want)
        else:
            want = [(cname(prefix + n), i) for i, n in enumerate(names)]
            enumsets[d['name']] = (0, len(names) - 1)
        cenum = d.get('enum-name', cname(fam, d['name']).lower())
        compare_enum(H, cenum, enums, want, "%s %s" % (d['type'], d['name']))

    def resolve(v):
        return consts.get(v, v) if isinstance(v, str) else v

    # ---- attribute sets
    attrs = {}		# C name -> (set name, attr dict)
    sets = {}
    for st in spec['attribute-sets']:
        prefix = st.get('name-prefix', fam + '-' + st['name'] + '-')
        want, nxt = [], 0
        for at in st['attributes']:
            val = at.get('value', nxt)
            nxt = val + 1
            cn = cname(prefix + at['name'])
            want.append((cn, val))
            attrs[cn] = (st['name'], at)
        sets[st['name']] = {a['name']: (cname(prefix + a['name']), a) for a in st['attributes']}
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

    # ---- the module: policies and op table
    policies, cops, cfam = parse_genl(gtext, ev, G)
    for f, want_name in (('name', cname(spec.get('c-family-name', fam + '-family-name'))),
                         ('version', cname(spec.get('c-version-name', fam + '-version')))):
        if cfam.get(f) != want_name:
            fail(G, "genl_family .%s is %s, expected %s" % (f, cfam.get(f), want_name))
    by_cmd = {}
    for op in cops:
        if 'cmd' in op:
            by_cmd.setdefault(op['cmd'], []).append(op)
    used_policies = set()
    known = set()
    for op in ops_spec['list']:
        if op['name'] == 'unspec' or ('do' not in op and 'dump' not in op):
            continue
        cn = cname(oprefix + op['name'])
        known.add(cn)
        entries = by_cmd.get(cn, [])
        if len(entries) != 1:
            fail(G, "operation %s: %d genl_ops entries for %s, expected 1" % (op['name'], len(entries), cn))
            continue
        c = entries[0]
        for mode, field in (('do', 'doit'), ('dump', 'dumpit')):
            if (mode in op) != (field in c):
                fail(G, "operation %s: the spec %s %s, the op %s .%s" %
                     (op['name'], 'has' if mode in op else 'has no', mode,
                      'has' if field in c else 'has no', field))
        wflags = sorted(OP_FLAGS.get(x, '?' + x) for x in op.get('flags', []))
        cflags = sorted(x.strip() for x in c.get('flags', '').split('|') if x.strip())
        if wflags != cflags:
            fail(G, "operation %s: .flags is %s, the spec's flags say %s" %
                 (op['name'], ' | '.join(cflags) or 'none', ' | '.join(wflags) or 'none'))
        req = []
        for mode in ('do', 'dump'):
            r = (op.get(mode) or {}).get('request') or {}
            req += [x for x in r.get('attributes', []) if x not in req]
        aset = sets.get(op.get('attribute-set', fam), {})
        pol = c.get('policy')
        if not req:
            if pol:
                fail(G, "operation %s: has policy %s but the spec lists no request attribute" % (op['name'], pol))
            continue
        if not pol or pol not in policies:
            fail(G, "operation %s: the spec lists request attributes, the op has %s" %
                 (op['name'], 'policy %s, not found' % pol if pol else 'no policy'))
            continue
        used_policies.add(pol)
        if c.get('maxattr', '').replace(' ', '') != 'ARRAY_SIZE(%s)-1' % pol:
            fail(G, "operation %s: .maxattr is %s, expected ARRAY_SIZE(%s) - 1" % (op['name'], c.get('maxattr'), pol))
        check_policy(G, op['name'], pol, policies[pol], req, aset, resolve, enumsets, flagsets, ev)
    for cn in by_cmd:
        if cn not in known:
            fail(G, "genl_ops has %s, which the spec has no do/dump operation for" % cn)
    for p in policies:
        if p not in used_policies:
            fail(G, "policy %s is used by no operation of the spec" % p)

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


def check_policy(where, opname, pname, pol, req, aset, resolve, enumsets, flagsets, ev):
    what = "operation %s, policy %s" % (opname, pname)
    want = {}
    for an in req:
        if an not in aset:
            fail(where, "%s: request attribute %s is not in the attribute set" % (what, an))
            continue
        want[aset[an][0]] = aset[an][1]
    ents = pol['entries']
    for cn in sorted(set(want) - set(ents)):
        fail(where, "%s: no entry for request attribute %s" % (what, cn))
    for cn in sorted(set(ents) - set(want)):
        fail(where, "%s: entry %s is not a request attribute of the spec" % (what, cn))
    if want:
        top = max(want, key=lambda n: ev.try_value(n) or 0)
        if pol['size'].replace(' ', '') != top + '+1':
            fail(where, "%s: sized [%s], expected [%s + 1]" % (what, pol['size'], top))
    for cn in sorted(set(want) & set(ents)):
        at, e = want[cn], ents[cn]
        if e['type'] is None:
            fail(where, "%s: %s: cannot read '%s'" % (what, cn, e['text']))
            continue
        if e['type'] != NLA_TYPES.get(at['type']):
            fail(where, "%s: %s is %s, the spec says %s (%s)" %
                 (what, cn, e['type'], at['type'], NLA_TYPES.get(at['type'])))
        checks = dict(at.get('checks') or {})
        mask = None
        if at.get('enum') and at.get('enum-as-flags'):
            mask = flagsets.get(at['enum'])
        elif at.get('enum') in enumsets:
            lo, hi = enumsets[at['enum']]
            checks.setdefault('min', lo)
            checks.setdefault('max', hi)
        if 'flags-mask' in checks:
            mask = flagsets.get(checks['flags-mask'])
        if mask is not None or e['mask'] is not None:
            if mask != e['mask']:
                fail(where, "%s: %s mask is %s, the spec says %s" %
                     (what, cn, hex(e['mask']) if e['mask'] is not None else 'none',
                      hex(mask) if mask is not None else 'none'))
            continue
        wmin, wmax = resolve(checks.get('min')), resolve(checks.get('max'))
        gmin, gmax = e['min'], e['max']
        tmax = TYPE_MAX.get(at['type'])
        # no bound and the type's own bound are the same thing
        if wmin in (None, 0) and gmin in (None, 0):
            wmin = gmin = None
        if wmax in (None, tmax) and gmax in (None, tmax):
            wmax = gmax = None
        if (wmin, wmax) != (gmin, gmax):
            fail(where, "%s: %s range is [%s, %s], the spec says [%s, %s]" %
                 (what, cn, fmt(gmin), fmt(gmax), fmt(wmin), fmt(wmax)))


def fmt(v):
    return '-' if v is None else str(v)


if __name__ == '__main__':
    sys.exit(main())
