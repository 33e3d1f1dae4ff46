#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Debian packages, from a clean checkout of HEAD: dpkg-buildpackage,
# lintian with no error, then installed on this machine: perfprobe runs
# from /usr/bin, DKMS has built the module for the installed kernel that
# has headers (Debian's 6.1) and builds it for 6.12 where
# scripts/get-kernel.sh has unpacked it; purged, nothing is left behind.
# Skipped, saying why, without root or the packaging tools, or when a
# perfprobe package is installed already (it is not ours to replace).
. "$(dirname "$0")/../lib/tap.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
NTESTS=10
plan $NTESTS

[ "$(id -u)" -eq 0 ] || skip_rest "not root: the packages are installed and purged on this machine"
for t in dpkg-buildpackage lintian dkms dh_dkms git; do
	command -v "$t" >/dev/null || skip_rest "no $t (scripts/install-deps.sh)"
done
for p in perfprobe perfprobe-dkms; do
	dpkg -s "$p" >/dev/null 2>&1 && skip_rest "$p is installed here already: not replacing it"
done
purge() { dpkg --purge perfprobe perfprobe-dkms >/dev/null 2>&1; }
trap 'purge; rm -rf "$T_TMP"' EXIT

git clone -q "$ROOT" "$T_TMP/src/perfprobe"
(cd "$T_TMP/src/perfprobe" && dpkg-buildpackage -us -uc -b) >"$T_TMP/build" 2>&1
ok $? "dpkg-buildpackage -us -uc -b from a clean checkout$(tail -3 "$T_TMP/build" | grep -i error | sed 's/^/ /')"
V=$(cd "$T_TMP/src/perfprobe" && dpkg-parsechangelog -SVersion)
D=$T_TMP/src
ok $([ -s "$D/perfprobe_${V}_$(dpkg --print-architecture).deb" ] && [ -s "$D/perfprobe-dkms_${V}_all.deb" ]; echo $?) \
	"two packages: perfprobe and perfprobe-dkms $V"
lintian "$D"/perfprobe_*.changes >"$T_TMP/lintian" 2>&1
ok $(! grep -q '^E: ' "$T_TMP/lintian"; echo $?) \
	"lintian: no error ($(grep -c '^W: ' "$T_TMP/lintian") warnings)$(grep '^E: ' "$T_TMP/lintian" | head -3 | sed 's/^/ /')"

dpkg -i "$D/perfprobe_${V}_$(dpkg --print-architecture).deb" "$D/perfprobe-dkms_${V}_all.deb" >"$T_TMP/inst" 2>&1
ok $? "dpkg -i both$(grep -iE '^dpkg: error' "$T_TMP/inst" | head -2 | sed 's/^/ /')"
files=$(dpkg -L perfprobe perfprobe-dkms 2>/dev/null | sort -u)
check "/usr/bin/perfprobe --version" sh -c "/usr/bin/perfprobe --version | grep -q '^perfprobe $V'"
/usr/bin/perfprobe --quick --no-save syscall >"$T_TMP/sys" 2>&1
rc=$?
ok $([ $rc -eq 0 ] || [ $rc -eq 4 ]; grep -q '^Processor, Processes' "$T_TMP/sys"; echo $?) \
	"the installed perfprobe --quick syscall prints its table (exit $rc)"
k61=$(ls -d /lib/modules/6.1.*-amd64/build 2>/dev/null | sort -V | tail -1)
k61=${k61#/lib/modules/}
k61=${k61%/build}
if [ -n "$k61" ]; then
	check "DKMS built and installed the module for $k61 on install" sh -c \
		"dkms status perfprobe | grep -q '$k61.*installed' && modinfo -F vermagic \$(find /lib/modules/$k61/updates -name 'perfprobe.ko*') | grep -q '^$k61 '"
else
	skip "no 6.1 kernel with headers installed here"
fi
got=$("$ROOT/scripts/get-kernel.sh" --print 6.12-amd64 2>/dev/null)
kd=$(echo "$got" | sed -n 's/^KDIR=//p')
rel=$(echo "$got" | sed -n 's/^RELEASE=//p')
if [ -n "$kd" ] && [ -d "$kd" ]; then
	dkms build "perfprobe/$V" -k "$rel" --kernelsourcedir "$kd" >"$T_TMP/dkms612" 2>&1
	ok $([ $? -eq 0 ] && dkms status perfprobe | grep -q "$rel.*built"; echo $?) \
		"dkms build for $rel (headers unpacked, not installed)$(tail -2 "$T_TMP/dkms612" | grep -i error | sed 's/^/ /')"
else
	skip "6.12 not unpacked here (scripts/get-kernel.sh 6.12-amd64)"
fi

purge
left=""
for f in $files; do [ -f "$f" ] && left="$left $f"; done
ok $([ -z "$left" ]; echo $?) "dpkg --purge: none of the packages' files left${left:+ (left:$left)}"
ok $([ ! -e "/usr/src/perfprobe-$V" ] && [ ! -e /var/lib/dkms/perfprobe ] &&
	[ -z "$(find /lib/modules -path '*/updates/*' -name 'perfprobe.ko*' 2>/dev/null)" ]; echo $?) \
	"and DKMS's: no source, no build tree, no installed module"
