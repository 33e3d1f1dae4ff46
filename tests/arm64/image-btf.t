#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/image-btf.py, on images made here: a BTF blob (its header, 64K
# of types, 64K of strings) inside an uncompressed image, a gzip'd one
# (arm64's Image.gz) and a bzImage-like one (a setup stub, then the
# kernel zstd-, xz- or gzip-compressed, then more stub: Debian's x86
# kernels are zstd).  Exactly that blob comes out, or exit 1 with why.
. "$(dirname "$0")/../lib/tap.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
plan 8
T=$T_TMP

python3 - "$T" <<'PY'
import gzip, os, struct, sys
t = sys.argv[1]
types, strs = os.urandom(1 << 16), b'\0' + b'x' * ((1 << 16) - 1)
blob = struct.pack('<HBBIIIII', 0xeb9f, 1, 0, 24, 0, len(types), len(types), len(strs)) + types + strs
kernel = os.urandom(4096) + blob + os.urandom(4096)
open(f'{t}/blob', 'wb').write(blob)
open(f'{t}/plain', 'wb').write(kernel)
open(f'{t}/Image.gz', 'wb').write(gzip.compress(kernel))
open(f'{t}/kernel', 'wb').write(kernel)
open(f'{t}/none', 'wb').write(os.urandom(1 << 18))
PY
for z in zstd xz gzip; do
	{ head -c 16384 /dev/urandom | tr -d '\050\375\037'; "$z" -c "$T/kernel"; head -c 4096 /dev/zero; } >"$T/bz.$z"
done

for img in plain Image.gz bz.zstd bz.xz bz.gzip; do
	rm -f "$T/out"
	"$ROOT/scripts/image-btf.py" "$T/$img" "$T/out" 2>"$T/err" && cmp -s "$T/out" "$T/blob"
	ok $? "$img: exactly the blob comes out$(head -c 200 "$T/err" | sed 's/^/: /')"
done
"$ROOT/scripts/image-btf.py" "$T/none" "$T/out2" 2>"$T/err"
rc=$?
ok $([ $rc = 1 ] && [ ! -e "$T/out2" ] && [ "$(wc -l <"$T/err")" = 1 ]; echo $?) \
	"no blob: exit 1, no file, one line ($(cat "$T/err"))"
# two blobs: which is the kernel's cannot be told
cat "$T/plain" "$T/plain" >"$T/two"
"$ROOT/scripts/image-btf.py" "$T/two" "$T/out3" 2>"$T/err"
ok $([ $? = 1 ] && grep -q '2 BTF blobs found' "$T/err"; echo $?) "two blobs: exit 1, saying 2 were found"
"$ROOT/scripts/image-btf.py" "$T/nonexistent" "$T/out4" 2>"$T/err"
ok $([ $? = 1 ] && grep -q 'No such file' "$T/err"; echo $?) "a missing image: exit 1, saying why"
done_testing
