#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""genl-gen: the module's netlink policies and op table, from the spec.

Reads Documentation/netlink/specs/perfprobe.yaml (genetlink-legacy,
kernel-policy: per-op) and writes, in the manner of the kernel's
tools/net/ynl/ynl-gen-c.py:

  kmod/genl-gen.h  extern declarations of the per-op policies and of the
                   op table, prototypes of the op handlers
  kmod/genl-gen.c  one nla_policy array per operation with request
                   attributes, holding exactly those attributes with the
                   spec's type and checks (min/max, an enum's value range,
                   enum-as-flags: the mask of its flags), sized to the
                   highest one; the genl_ops table (.doit/.dumpit as the
                   spec has do/dump, .flags from the spec's flags, the
                   op's policy and maxattr)

The handlers are <family>_nl_<op>_doit/_dumpit (kmod/genl.c).  struct
genl_ops with a per-op policy builds on every kernel the module supports
(6.1 has no split ops; 6.12 still takes genl_ops); the range structs are
not const because 6.1's struct nla_policy points to a non-const one.

usage: scripts/genl-gen.py [--spec FILE] [--out DIR]     write the files
       scripts/genl-gen.py [--spec FILE] [--out DIR] --check
--check regenerates into a temporary directory and compares with DIR
(default kmod/): exit 1 with one line when the checked-in files are
stale.  Exit 2 on a usage, parse or unsupported-spec error.  Needs
python3-yaml.
"""
import argparse
import filecmp
import os
import sys
import tempfile

try:
    import yaml
except ImportError:
    sys.stderr.write("genl-gen: python3-yaml is missing (apt-get install python3-yaml)\n")
    sys.exit(2)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEC = 'Documentation/netlink/specs/perfprobe.yaml'
OUT_C = 'genl-gen.c'
OUT_H = 'genl-gen.h'
NLA_TYPES = {'u8': 'NLA_U8', 'u16': 'NLA_U16', 'u32': 'NLA_U32', 'u64': 'NLA_U64',
             's8': 'NLA_S8', 's16': 'NLA_S16', 's32': 'NLA_S32', 's64': 'NLA_S64',
             'string': 'NLA_NUL_STRING', 'flag': 'NLA_FLAG', 'binary': 'NLA_BINARY'}
UNSIGNED = ('u8', 'u16', 'u32', 'u64')
TYPE_MAX = {'u8': 0xff, 'u16': 0xffff, 'u32': 0xffffffff, 'u64': 0xffffffffffffffff}
OP_FLAGS = {'admin-perm': 'GENL_ADMIN_PERM', 'uns-admin-perm': 'GENL_UNS_ADMIN_PERM'}
# struct nla_policy's min and max are s16 (NLA_POLICY_RANGE/MIN/MAX)
S16_MIN, S16_MAX = -32768, 32767


class SpecError(Exception):
    pass


def cname(*parts):
    return '_'.join(p for p in parts if p).replace('-', '_').upper()


def lname(*parts):
    return cname(*parts).lower()


class Family:
    """The parts of the spec the generator uses, with C names."""

    def __init__(self, spec, spec_path):
        self.spec = spec
        self.spec_path = spec_path
        self.name = spec['name']
        if spec.get('protocol') not in ('genetlink', 'genetlink-legacy'):
            raise SpecError("protocol %s: only genetlink(-legacy) is supported" % spec.get('protocol'))
        if spec.get('kernel-policy', 'split') != 'per-op':
            raise SpecError("kernel-policy %s: only per-op is supported" % spec.get('kernel-policy'))
        self.license = spec_license(spec_path)
        self.uapi = spec.get('uapi-header', 'linux/%s.h' % self.name)
        self.consts = {}	# spec name -> (C name, value)
        self.enums = {}		# spec name -> definition
        for d in spec.get('definitions', []):
            if d['type'] == 'const':
                self.consts[d['name']] = (cname(self.name, d['name']), d['value'])
            elif d['type'] in ('enum', 'flags'):
                self.enums[d['name']] = d
        self.sets = {}		# set name -> {attr name: (C name, value, attr)}
        for st in spec['attribute-sets']:
            prefix = st.get('name-prefix', self.name + '-' + st['name'] + '-')
            attrs, nxt = {}, 0
            for at in st['attributes']:
                val = at.get('value', nxt)
                nxt = val + 1
                attrs[at['name']] = (cname(prefix + at['name']), val, at)
            self.sets[st['name']] = attrs
        ops = spec['operations']
        self.op_prefix = ops.get('name-prefix', self.name + '-cmd-')
        self.ops = []
        for op in ops['list']:
            if 'do' in op or 'dump' in op:
                self.ops.append(op)

    def enum_entries(self, name):
        d = self.enums.get(name)
        if d is None:
            raise SpecError("enum %s is not defined" % name)
        prefix = d.get('name-prefix', self.name + '-' + d['name'] + '-')
        entries, nxt = [], d.get('value-start', 0)
        for e in d['entries']:
            e = {'name': e} if isinstance(e, str) else e
            val = e.get('value', nxt)
            nxt = val + 1
            # a flag's value is its bit number
            entries.append((cname(prefix + e['name']), 1 << val if d['type'] == 'flags' else val))
        return d, entries

    def bound(self, v, what):
        """A check's bound: (C expression, value)."""
        if isinstance(v, int):
            return str(v), v
        if v in self.consts:
            return self.consts[v]
        raise SpecError("%s: %s is neither a number nor a const" % (what, v))

    def request(self, op):
        req = []
        for mode in ('do', 'dump'):
            r = (op.get(mode) or {}).get('request') or {}
            req += [x for x in r.get('attributes', []) if x not in req]
        return req

    def op_cname(self, op):
        return cname(self.op_prefix + op['name'])

    def policy_name(self, op):
        return lname(self.name, op['name'], 'nl-policy')

    def handler(self, op, mode):
        return lname(self.name, 'nl', op['name'], 'doit' if mode == 'do' else 'dumpit')


def spec_license(path):
    with open(path) as f:
        first = f.readline()
    tag = 'SPDX-License-Identifier:'
    if tag not in first:
        raise SpecError("%s: the first line has no %s" % (path, tag))
    return first.split(tag, 1)[1].strip()


def policy_entry(fam, opname, attr):
    """(list of static definitions, initialiser) of one policy entry."""
    cn, _, at = attr
    what = "operation %s, attribute %s" % (opname, at['name'])
    t = at['type']
    if t not in NLA_TYPES:
        raise SpecError("%s: type %s is not supported in a request" % (what, t))
    nla = NLA_TYPES[t]
    checks = at.get('checks') or {}
    for k in checks:
        if k not in ('min', 'max'):
            raise SpecError("%s: check %s is not supported" % (what, k))
    lo = hi = None
    if at.get('enum'):
        d, entries = fam.enum_entries(at['enum'])
        if d['type'] == 'flags' or at.get('enum-as-flags'):
            if checks:
                raise SpecError("%s: checks on flags are not supported" % what)
            mask = 0
            for _, v in entries:
                mask |= v
            return [], 'NLA_POLICY_MASK(%s, 0x%x)' % (nla, mask)
        # an enum's own range, from its lowest to its highest entry
        vals = sorted(v for _, v in entries)
        if vals != list(range(vals[0], vals[-1] + 1)):
            raise SpecError("%s: enum %s has gaps, a range cannot check it" % (what, at['enum']))
        lo, hi = min(entries, key=lambda e: e[1]), max(entries, key=lambda e: e[1])
    if 'min' in checks:
        lo = fam.bound(checks['min'], what)
    if 'max' in checks:
        hi = fam.bound(checks['max'], what)
    if t in UNSIGNED and lo is not None and lo[1] == 0:
        lo = None		# an unsigned type's own bound
    if t in UNSIGNED and hi is not None and hi[1] == TYPE_MAX[t]:
        hi = None
    if lo is None and hi is None:
        return [], '{ .type = %s, }' % nla

    def small(b):
        return b is None or S16_MIN <= b[1] <= S16_MAX
    if small(lo) and small(hi):
        if lo is not None and hi is not None:
            return [], 'NLA_POLICY_RANGE(%s, %s, %s)' % (nla, lo[0], hi[0])
        if lo is not None:
            return [], 'NLA_POLICY_MIN(%s, %s)' % (nla, lo[0])
        return [], 'NLA_POLICY_MAX(%s, %s)' % (nla, hi[0])
    if t not in UNSIGNED:
        raise SpecError("%s: a bound outside s16 on a signed type is not supported" % what)
    # named after the attribute: the same in every policy that holds it
    rname = lname(cn, 'range')
    body = ['static struct netlink_range_validation %s = {' % rname]
    body.append('\t.min = %s,' % (lo[0] if lo else '0'))
    body.append('\t.max = %s,' % (hi[0] if hi else cname('', t, 'max')))
    body.append('};')
    return [body], 'NLA_POLICY_FULL_RANGE(%s, &%s)' % (nla, rname)


def header_lines(fam, kind):
    return ['/* Do not edit directly, auto-generated from: */',
            '/*\t%s */' % fam.spec_path,
            '/* by scripts/genl-gen.py (make genl-gen): %s */' % kind]


def gen_c(fam):
    out = ['// SPDX-License-Identifier: %s' % fam.license]
    out += header_lines(fam, 'the per-op policies and the op table')
    out += ['', '#include <net/netlink.h>', '#include <net/genetlink.h>', '',
            '#include <uapi/%s>' % fam.uapi, '', '#include "%s"' % OUT_H]
    policies = {}	# op name -> (policy name, top attribute)
    ranges = []		# static range definitions, each once
    blocks = []
    for op in fam.ops:
        req = fam.request(op)
        if not req:
            continue
        aset = fam.sets.get(op.get('attribute-set', fam.name))
        if aset is None:
            raise SpecError("operation %s: no attribute set %s" % (op['name'], op.get('attribute-set')))
        attrs = []
        for an in req:
            if an not in aset:
                raise SpecError("operation %s: request attribute %s is not in the set" % (op['name'], an))
            attrs.append(aset[an])
        attrs.sort(key=lambda a: a[1])
        top = attrs[-1][0]
        pname = fam.policy_name(op)
        policies[op['name']] = (pname, top)
        blk = ['', '/* %s - %s */' % (fam.op_cname(op), '/'.join(m for m in ('do', 'dump') if m in op)),
               'const struct nla_policy %s[%s + 1] = {' % (pname, top)]
        for a in attrs:
            defs, init = policy_entry(fam, op['name'], a)
            ranges += [d for d in defs if d not in ranges]
            line = '\t[%s] = %s,' % (a[0], init)
            if len(line.expandtabs(8)) > 80:
                line = '\t[%s] =\n\t\t%s,' % (a[0], init)
            blk.append(line)
        blk.append('};')
        blocks += blk
    if ranges:
        out += ['', '/* Integer value ranges */']
        for i, r in enumerate(ranges):
            out += ([''] if i else []) + r
    out += blocks
    out.append('')
    out.append('/* Ops table for %s */' % fam.name)
    out.append('const struct genl_ops %s[%d] = {' % (lname(fam.name, 'nl-ops'), len(fam.ops)))
    for op in fam.ops:
        flags = []
        for f in op.get('flags', []):
            if f not in OP_FLAGS:
                raise SpecError("operation %s: flag %s is not supported" % (op['name'], f))
            flags.append(OP_FLAGS[f])
        out.append('\t{')
        out.append('\t\t.cmd\t\t= %s,' % fam.op_cname(op))
        if flags:
            out.append('\t\t.flags\t\t= %s,' % ' | '.join(flags))
        for mode, field in (('do', 'doit'), ('dump', 'dumpit')):
            if mode in op:
                out.append('\t\t.%s\t\t= %s,' % (field, fam.handler(op, mode)))
        if op['name'] in policies:
            pname, top = policies[op['name']]
            out.append('\t\t.policy\t\t= %s,' % pname)
            out.append('\t\t.maxattr\t= %s,' % top)
        out.append('\t},')
    out.append('};')
    return '\n'.join(out) + '\n'


def gen_h(fam):
    guard = '_%s_GENL_GEN_H' % cname(fam.name)
    out = ['/* SPDX-License-Identifier: %s */' % fam.license]
    out += header_lines(fam, 'declarations')
    out += ['', '#ifndef %s' % guard, '#define %s' % guard, '',
            '#include <net/netlink.h>', '#include <net/genetlink.h>', '',
            '#include <uapi/%s>' % fam.uapi, '']
    for op in fam.ops:
        req = fam.request(op)
        if not req:
            continue
        aset = fam.sets[op.get('attribute-set', fam.name)]
        top = max((aset[a] for a in req), key=lambda a: a[1])[0]
        out.append('/* %s */' % fam.op_cname(op))
        out.append('extern const struct nla_policy %s[%s + 1];' % (fam.policy_name(op), top))
        out.append('')
    out.append('/* Ops table for %s */' % fam.name)
    out.append('extern const struct genl_ops %s[%d];' % (lname(fam.name, 'nl-ops'), len(fam.ops)))
    out.append('')
    for op in fam.ops:
        if 'do' in op:
            out.append('int %s(struct sk_buff *skb, struct genl_info *info);' % fam.handler(op, 'do'))
        if 'dump' in op:
            proto = 'int %s(struct sk_buff *skb,' % fam.handler(op, 'dump')
            rest = ' struct netlink_callback *cb);'
            if len(proto + rest) > 80:
                pad = len('int %s(' % fam.handler(op, 'dump'))
                out.append(proto)
                out.append('\t' * (pad // 8) + ' ' * (pad % 8) + rest.strip())
            else:
                out.append(proto + rest)
    out += ['', '#endif /* %s */' % guard]
    return '\n'.join(out) + '\n'


def generate(spec_path, rel_spec):
    with open(spec_path) as f:
        spec = yaml.safe_load(f)
    fam = Family(spec, spec_path)
    fam.spec_path = rel_spec
    return {OUT_C: gen_c(fam), OUT_H: gen_h(fam)}


def write(files, outdir):
    for name, text in files.items():
        with open(os.path.join(outdir, name), 'w') as f:
            f.write(text)


def main():
    ap = argparse.ArgumentParser(description="generate the module's netlink policies and op table from the spec")
    ap.add_argument('--spec', default=os.path.join(ROOT, SPEC))
    ap.add_argument('--out', default=os.path.join(ROOT, 'kmod'))
    ap.add_argument('--check', action='store_true',
                    help='regenerate into a temporary directory and compare with --out')
    a = ap.parse_args()
    # The output names the spec by its place in the tree, also when made
    # from a copy (tests/spec/check-spec.t): the same spec, the same output.
    rel_spec = SPEC
    try:
        files = generate(a.spec, rel_spec)
    except (OSError, yaml.YAMLError, KeyError, SpecError) as e:
        sys.stderr.write("genl-gen: %s: %s\n" % (a.spec, e))
        return 2
    if not a.check:
        write(files, a.out)
        return 0
    with tempfile.TemporaryDirectory(prefix='genl-gen.') as tmp:
        write(files, tmp)
        stale = [n for n in sorted(files)
                 if not os.path.isfile(os.path.join(a.out, n)) or
                 not filecmp.cmp(os.path.join(tmp, n), os.path.join(a.out, n), shallow=False)]
    out = os.path.relpath(a.out, ROOT) if a.out.startswith(ROOT + os.sep) else a.out
    if stale:
        print("genl-gen: %s stale or edited: not what %s generates; run make genl-gen" %
              (' '.join(os.path.join(out, n) for n in stale), rel_spec))
        return 1
    print("  GENL    %s up to date with %s" % (' '.join(os.path.join(out, n) for n in sorted(files)), rel_spec))
    return 0


if __name__ == '__main__':
    sys.exit(main())
