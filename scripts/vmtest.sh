#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vmtest.sh - build perfprobe.ko and its VM test client, boot a kernel in QEMU
# with a tiny initramfs, run all guest tests in one boot and report TAP.
#
# usage: scripts/vmtest.sh [--arch x86_64|arm64] [--kernel IMAGE] [--kdir TREE]
#                          [--release REL] [--timeout SEC] [--keep] [-v]
#                          [--images DIR] [--debug | --debug-dir DIR]
#
# See Documentation/vmtest.rst.  Exit status: 0 when every test passed (or
# when the run was skipped with PERFPROBE_VMTEST_OPTIONAL=1), non-zero on any
# failure, kernel splat (panic, oops, BUG, WARNING, lockup, RCU stall,
# KASAN/UBSAN, ...), guest timeout or missing final status line.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ARCH=
KERNEL=
KDIR=
BTF=
MODDIR_ARG=
RELEASE=
TIMEOUT=${PERFPROBE_VMTEST_TIMEOUT:-}
KEEP=0
VERBOSE=0
IMAGES=
DEBUG=0
DEBUGDIR=${PERFPROBE_VMTEST_DEBUGDIR:-}
MEM=${PERFPROBE_VMTEST_MEM:-512}
SMP=${PERFPROBE_VMTEST_SMP:-2}
ICOUNT=${PERFPROBE_VMTEST_ICOUNT:-}
EXTRA_APPEND=${PERFPROBE_VMTEST_APPEND:-}

usage() {
	cat <<EOF
usage: $0 [--arch ARCH] [--kernel IMAGE] [--kdir TREE] [--moddir DIR]
          [--release REL] [--timeout SEC] [--keep] [-v]

  --arch ARCH     x86_64 (default) or arm64: an arm64 guest in
                  qemu-system-aarch64 (TCG, -machine virt), the module, its
                  client and perfprobe cross-built (aarch64-linux-gnu-);
                  default kernel: Debian's 6.1 arm64 (--release 6.1-arm64)
  --kernel IMAGE  kernel image to boot (default: newest /boot/vmlinuz-6.*-amd64,
                  or TREE/arch/x86/boot/bzImage when --kdir is given)
  --kdir TREE     kernel build tree to build perfprobe.ko against (default:
                  /lib/modules/<version of IMAGE>/build)
  --moddir DIR    the kernel's modules (default: /lib/modules/<release>)
  --release REL   one of Debian's kernels, fetched and unpacked (not installed)
                  by scripts/get-kernel.sh: e.g. 6.12-amd64, 6.12-rt-amd64,
                  6.12.118+deb12-amd64, 6.1-arm64 (implies --arch arm64);
                  sets --kernel, --kdir and --moddir
  --timeout SEC   kill the guest after SEC seconds (default: 420, arm64 900)
  --keep          keep the work directory (initramfs, logs) and print its path
  -v              verbose: show build output and the guest console log
  --images DIR    build the kernel's image and the initramfs into DIR
                  (vmlinuz, initramfs.cpio.gz, images.env) and boot nothing:
                  the images a LAVA job deploys (Documentation/lava.rst)
  --debug         with --release: the kernel's vmlinux with debug info too
                  (scripts/get-kernel.sh --debug), for --debug-dir
  --debug-dir DIR share DIR (holding vmlinux-<release>) with the guest,
                  read-only over virtio-9p, at /usr/lib/debug/boot: the
                  guest tests check the profile's inlined functions and
                  source lines (Documentation/kernel-view.rst)

Environment: PERFPROBE_VMTEST_OPTIONAL=1 turns a missing QEMU/kernel/headers
into "1..0 # SKIP"; PERFPROBE_VMTEST_ACCEL=tcg|kvm forces an accelerator;
PERFPROBE_VMTEST_APPEND adds kernel command line arguments;
PERFPROBE_VMTEST_ICOUNT=OPTS runs a TCG guest on virtual time counted in
instructions (QEMU's -icount OPTS, e.g. shift=0,sleep=off; not with KVM);
PERFPROBE_VMTEST_SEED fixes the fuzz seed (default: derived from the time,
printed in the output so that a failing run can be repeated);
PERFPROBE_VMTEST_ONLY / PERFPROBE_VMTEST_SKIP: comma-separated guest test
groups to run / to skip (cycles basic bad copy trace privs concurrent fuzz
rmmod-trace rmmod-race); a partial run is for development only.
EOF
}

while [ $# -gt 0 ]; do
	case $1 in
	--arch) ARCH=${2:?--arch needs an argument}; shift 2 ;;
	--arch=*) ARCH=${1#*=}; shift ;;
	--kernel) KERNEL=${2:?--kernel needs an argument}; shift 2 ;;
	--kernel=*) KERNEL=${1#*=}; shift ;;
	--kdir) KDIR=${2:?--kdir needs an argument}; shift 2 ;;
	--kdir=*) KDIR=${1#*=}; shift ;;
	--moddir) MODDIR_ARG=${2:?--moddir needs an argument}; shift 2 ;;
	--moddir=*) MODDIR_ARG=${1#*=}; shift ;;
	--release) RELEASE=${2:?--release needs an argument}; shift 2 ;;
	--release=*) RELEASE=${1#*=}; shift ;;
	--timeout) TIMEOUT=${2:?--timeout needs an argument}; shift 2 ;;
	--timeout=*) TIMEOUT=${1#*=}; shift ;;
	--keep) KEEP=1; shift ;;
	-v|--verbose) VERBOSE=1; shift ;;
	--images) IMAGES=${2:?--images needs a directory}; shift 2 ;;
	--images=*) IMAGES=${1#*=}; shift ;;
	--debug) DEBUG=1; shift ;;
	--debug-dir) DEBUGDIR=${2:?--debug-dir needs a directory}; shift 2 ;;
	--debug-dir=*) DEBUGDIR=${1#*=}; shift ;;
	-h|--help) usage; exit 0 ;;
	*) echo "vmtest: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
	esac
done

START=$(date +%s)
say() { echo "vmtest: $*" >&2; }
vsay() { [ "$VERBOSE" = 1 ] && say "$@"; return 0; }

# A missing prerequisite (QEMU, kernel image, headers, tools) is a SKIP when
# PERFPROBE_VMTEST_OPTIONAL=1 and a failure otherwise.
missing() {
	if [ "${PERFPROBE_VMTEST_OPTIONAL:-0}" = 1 ]; then
		echo "1..0 # SKIP $*"
		say "skipped: $*"
		exit 0
	fi
	echo "Bail out! $*"
	say "FAIL: $* (set PERFPROBE_VMTEST_OPTIONAL=1 to skip instead)"
	exit 1
}
fail() {
	echo "Bail out! $*"
	say "FAIL: $*"
	exit 1
}

# Kernel release string of a bzImage (x86 boot protocol: header field at
# 0x20e points to the version string, relative to 0x200).
image_release() {
	local img=$1 off
	off=$(od -An -t u2 -j $((0x20e)) -N 2 "$img" 2>/dev/null | tr -d ' ')
	[ -n "$off" ] || return 1
	dd if="$img" bs=1 skip=$((off + 0x200)) count=128 2>/dev/null |
		tr '\0' '\n' | head -n1 | awk '{print $1}'
}

# Kernel release string of an arm64 Image (plain or gzip'd): its banner.
image_release_arm64() {
	local img=$1
	{ gzip -dc "$img" 2>/dev/null || cat "$img"; } |
		grep -a -m1 -o 'Linux version [^ ]*' | awk '{print $3}'
}

# ------------------------------------------------------------------ arch ---
case $RELEASE in *-arm64) : "${ARCH:=arm64}" ;; esac
ARCH=${ARCH:-x86_64}
case $ARCH in
x86_64|amd64) ARCH=x86_64 ;;
arm64|aarch64)
	ARCH=arm64
	[ -n "$RELEASE$KERNEL$KDIR" ] || RELEASE=6.1-arm64
	;;
*) echo "vmtest: --arch '$ARCH': say x86_64 or arm64" >&2; exit 2 ;;
esac
# another architecture under TCG: about twice the x86 guest's time
[ -n "$TIMEOUT" ] || TIMEOUT=$([ "$ARCH" = arm64 ] && echo 900 || echo 420)
if [ "$ARCH" = arm64 ]; then
	CROSS=aarch64-linux-gnu-
	KMAKE=(ARCH=arm64 CROSS_COMPILE=$CROSS)
	# the cross-built client and tools, out of the host build's way
	XO=build-vmtest-arm64
	command -v "${CROSS}gcc" >/dev/null ||
		missing "no ${CROSS}gcc (scripts/install-deps.sh --arm64)"
else
	CROSS=
	KMAKE=()
	XO=build
fi

# ---------------------------------------------------------------- kernel ---
if [ -n "$RELEASE" ]; then
	dbg=
	[ "$DEBUG" = 1 ] && dbg=--debug
	got=$("$ROOT/scripts/get-kernel.sh" --print $dbg "$RELEASE") ||
		missing "cannot fetch Debian's kernel $RELEASE (scripts/get-kernel.sh $dbg)"
	[ "$DEBUG" = 1 ] && DEBUGDIR=$(echo "$got" | sed -n 's/^DEBUGDIR=//p')
	KERNEL=$(echo "$got" | sed -n 's/^KERNEL=//p')
	KDIR=$(echo "$got" | sed -n 's/^KDIR=//p')
	MODDIR_ARG=$(echo "$got" | sed -n 's/^MODDIR=//p')
	BTF=$(echo "$got" | sed -n 's/^BTF=//p')
fi
if [ -z "$KERNEL" ]; then
	if [ -n "$KDIR" ]; then
		KERNEL=$KDIR/arch/x86/boot/bzImage
		[ "$ARCH" = arm64 ] && KERNEL=$KDIR/arch/arm64/boot/Image
	else
		KERNEL=$(ls -1 /boot/vmlinuz-6.*-amd64 2>/dev/null | sort -V | tail -n1)
		[ -n "$KERNEL" ] || missing "no kernel image /boot/vmlinuz-6.*-amd64 (Debian package: linux-image-amd64)"
	fi
fi
[ -r "$KERNEL" ] || missing "kernel image '$KERNEL' not found or not readable"
# The release the booted kernel reports (and the module's vermagic must
# match): from the image itself; a tree's kernel.release as a fallback
# (Debian's header packages carry the upstream version there).
if [ "$ARCH" = arm64 ]; then
	KREL=$(image_release_arm64 "$KERNEL")
else
	KREL=$(image_release "$KERNEL")
fi
if [ -z "$KREL" ] && [ -n "$KDIR" ] && [ -f "$KDIR/include/config/kernel.release" ]; then
	KREL=$(cat "$KDIR/include/config/kernel.release")
fi
case $KERNEL in
/boot/vmlinuz-*) [ -n "$KREL" ] || KREL=${KERNEL#/boot/vmlinuz-} ;;
esac
[ -n "$KREL" ] || fail "cannot tell the kernel release of $KERNEL; pass --kdir"
if [ -z "$KDIR" ]; then
	KDIR=/lib/modules/$KREL/build
	[ -d "$KDIR" ] || missing "no kernel headers for $KREL in $KDIR (Debian package: linux-headers-$KREL)"
fi
[ -f "$KDIR/Makefile" ] || missing "'$KDIR' is not a kernel build tree (no Makefile)"
MODDIR=${MODDIR_ARG:-/lib/modules/$KREL}
[ -d "$MODDIR/kernel" ] || MODDIR=

# ----------------------------------------------------------------- tools ---
if [ "$ARCH" = arm64 ]; then
	QEMU=${QEMU:-qemu-system-aarch64}
	command -v "$QEMU" >/dev/null || missing "$QEMU not installed (Debian package: qemu-system-arm)"
else
	QEMU=${QEMU:-qemu-system-x86_64}
	command -v "$QEMU" >/dev/null || missing "$QEMU not installed (Debian package: qemu-system-x86)"
fi
command -v timeout >/dev/null || missing "timeout (coreutils) not found"
command -v cpio >/dev/null || missing "cpio not installed (Debian package: cpio)"
command -v modinfo >/dev/null || missing "modinfo not installed (Debian package: kmod)"
BUSYBOX=()
if [ "$ARCH" = arm64 ]; then
	# Debian's static arm64 busybox, unpacked (not installed) next to
	# the arm64 kernels scripts/get-kernel.sh fetches
	bb=$("$ROOT/scripts/get-kernel.sh" --busybox arm64) ||
		missing "no static arm64 busybox (busybox-static:arm64; scripts/install-deps.sh --arm64)"
	BUSYBOX=(--busybox "$bb")
else
	{ [ -x /bin/busybox ] || command -v busybox >/dev/null; } ||
		missing "busybox not installed (Debian package: busybox-static)"
fi
CC=${CC:-gcc}
command -v "$CC" >/dev/null || missing "no C compiler ($CC)"
if [ "$ARCH" = arm64 ]; then
	PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig pkg-config --exists libnl-genl-3.0 ||
		missing "no arm64 libnl-genl-3 (scripts/install-deps.sh --arm64)"
else
	{ command -v pkg-config >/dev/null && pkg-config --exists libnl-genl-3.0; } ||
		missing "libnl-genl-3 not found (Debian packages: libnl-3-dev libnl-genl-3-dev)"
fi
[ -f "$ROOT/include/uapi/linux/perfprobe.h" ] || fail "include/uapi/linux/perfprobe.h not found"
[ -d "$ROOT/kmod" ] || fail "kmod/ not found"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/perfprobe-vmtest.XXXXXX")
cleanup() {
	local rc=$?
	if [ "$KEEP" = 1 ]; then
		say "work directory kept: $WORK"
	elif [ "$rc" != 0 ] && [ -f "$WORK/console.log" ]; then
		rm -rf "$WORK/src" "$WORK/initramfs.cpio.gz"
		say "logs kept in $WORK (console.log, results.log)"
	else
		rm -rf "$WORK"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

run_logged() { # name cmd... : quiet unless -v or on failure
	local name=$1; shift
	if [ "$VERBOSE" = 1 ]; then
		"$@" >&2
	else
		"$@" >"$WORK/$name.log" 2>&1 || {
			local rc=$?
			tail -n 60 "$WORK/$name.log" >&2
			return $rc
		}
	fi
}

# ---------------------------------------------------------------- module ---
# Build from a copy so that concurrent work in kmod/ is not disturbed and no
# build products land in the source tree.  The module built for a kernel
# is kept in build-kmod/<release>/ with the hash of what made it (the
# sources, the kernel tree, the make arguments): make check boots Debian's
# 6.1 three times (vmtest, kernel-ab, LAVA) and the others twice, and each
# boot after the first takes the module its kernel already has.  One
# build at a time per kernel (flock); another kernel's goes on meanwhile.
KCACHE=$ROOT/build-kmod/$KREL
# (kmod-style builds in kmod/ meanwhile: its *.mod.c is not a source)
KSTAMP=$( (cd "$ROOT" && cat kmod/Kbuild kmod/Makefile $(ls kmod/*.c | grep -v '\.mod\.c$') \
	kmod/*.h include/uapi/linux/perfprobe.h; cat "$KDIR/Module.symvers" 2>/dev/null
	echo "$KDIR $KREL ${KMAKE[*]}") | sha256sum | cut -d' ' -f1)
mkdir -p "$KCACHE" && exec 8>>"$KCACHE/.lock" || fail "cannot open $KCACHE/.lock"
flock 8 || fail "cannot lock $KCACHE/.lock"
mkdir -p "$WORK/src/kmod"
KO=$WORK/src/kmod/perfprobe.ko
if [ -f "$KCACHE/perfprobe.ko" ] && [ "$(cat "$KCACHE/stamp" 2>/dev/null)" = "$KSTAMP" ]; then
	vsay "perfprobe.ko for $KREL: built already for these sources ($KCACHE)"
	cp "$KCACHE/perfprobe.ko" "$KO" || fail "cannot copy $KCACHE/perfprobe.ko"
else
	rm -f "$KCACHE/perfprobe.ko" "$KCACHE/stamp"
	cp -a "$ROOT/kmod" "$ROOT/include" "$WORK/src/"
	find "$WORK/src/kmod" \( -name '*.o' -o -name '*.ko' -o -name '*.mod*' -o -name '.*.cmd' \
		-o -name 'Module.symvers' -o -name 'modules.order' \) -delete 2>/dev/null
	vsay "building perfprobe.ko against $KDIR ($KREL)"
	# kmod/Makefile: "make KDIR=..." (it passes M= and CONFIG_PERFPROBE=m to kbuild)
	run_logged kbuild make -C "$WORK/src/kmod" KDIR="$KDIR" ${KMAKE[@]+"${KMAKE[@]}"} \
		-j"$(nproc)" modules ||
		fail "building kmod/perfprobe.ko against $KDIR failed"
	[ -f "$KO" ] || fail "the kmod build produced no perfprobe.ko"
	cp "$KO" "$KCACHE/perfprobe.ko" && echo "$KSTAMP" >"$KCACHE/stamp" ||
		fail "cannot keep perfprobe.ko in $KCACHE"
fi
exec 8>&-
VERMAGIC=$(modinfo -F vermagic "$KO" | awk '{print $1}')
[ "$VERMAGIC" = "$KREL" ] ||
	fail "perfprobe.ko vermagic '$VERMAGIC' does not match kernel image release '$KREL'"

# ---------------------------------------------------------------- client ---
CLIENT=$WORK/pp-vmtest
# tests/vm/pp-vmtest/ on the tools' netlink client (Makefile: build/tests/pp-vmtest)
LIBDIRS=$(gcc -print-search-dirs 2>/dev/null | sed -n 's/^libraries: =//p' | tr ':' ' ')
static=0
[ "${PERFPROBE_VMTEST_STATIC:-1}" = 0 ] && LIBDIRS=/nonexistent # test the dynamic path
for d in $LIBDIRS $([ "${PERFPROBE_VMTEST_STATIC:-1}" = 0 ] || echo /usr/lib/x86_64-linux-gnu /usr/lib); do
	if [ -f "$d/libnl-genl-3.a" ] && [ -f "$d/libnl-3.a" ]; then static=1; break; fi
done
[ "$ARCH" = arm64 ] && static=1	# the multiarch :arm64 packages have the archives
vsay "building test client ($([ $static = 1 ] && echo static || echo dynamic))"
XMAKE=(O="$XO")
if [ -n "$CROSS" ]; then
	# the BPF kernel view for the guest's kernel: its BTF, from its image
	if [ -z "$BTF" ] && "$ROOT/scripts/image-btf.py" "$KERNEL" "$WORK/vmlinux.btf"; then
		BTF=$WORK/vmlinux.btf
	fi
	[ -n "$BTF" ] || echo "# no BTF in $KERNEL: perfprobe is built without its BPF kernel view"
	XMAKE+=(CROSS_COMPILE="$CROSS" STATIC=1 ${BTF:+VMLINUX_BTF="$BTF"})
fi
# Several vmtests may run at once (make -j check): one at a time builds
# in $ROOT/$XO and takes its own copies of what it built.
mkdir -p "$ROOT/$XO" && exec 9>>"$ROOT/$XO/.vmtest.lock" || fail "cannot open $ROOT/$XO/.vmtest.lock"
flock 9 || fail "cannot lock $ROOT/$XO/.vmtest.lock"
rm -f "$ROOT/$XO/tests/pp-vmtest"
if [ $static = 1 ]; then
	run_logged client make -C "$ROOT" "${XMAKE[@]}" VMTEST_STATIC=1 "$XO/tests/pp-vmtest" ||
		static=0
fi
if [ $static = 0 ]; then
	[ "$ARCH" = arm64 ] && fail "cross-building tests/vm/pp-vmtest/ (static) failed"
	rm -f "$ROOT/$XO/tests/pp-vmtest"
	run_logged client make -C "$ROOT" "${XMAKE[@]}" VMTEST_STATIC=0 "$XO/tests/pp-vmtest" ||
		fail "building tests/vm/pp-vmtest/ failed"
fi
cp "$ROOT/$XO/tests/pp-vmtest" "$CLIENT" || fail "no $XO/tests/pp-vmtest"

# ------------------------------------------------------ perfprobe itself ---
# The CLI runs in the guest too (group cli): its module path can only be
# exercised where the module loads.
PPADD=()
if run_logged tools make -s -C "$ROOT" "${XMAKE[@]}" tools; then
	mkdir -p "$WORK/bin"
	for f in perfprobe perfprobe-hello perfprobe-hello-dyn perfprobe-lean perfprobe-proc; do
		cp "$ROOT/$XO/$f" "$WORK/bin/" || fail "cannot copy $f into $WORK/bin"
		PPADD+=(--add "$WORK/bin/$f")
	done
	# the kernel crypto API over AF_ALG, for crypto_kcapi
	for m in af_alg algif_skcipher algif_hash crypto_user des_generic sha512_generic md5; do
		PPADD+=(--extra-module "$m")
	done
	# ESP between two namespaces over veth, for ipsec (absent on the
	# build host); the built-in ones are left out with a note
	for m in veth xfrm_user esp4 authenc echainiv seqiv cbc ctr gcm ghash-generic hmac \
		sha1_generic sha256_generic aes_generic; do
		PPADD+=(--extra-module "$m")
	done
	# the kernel's debug info, shared over virtio-9p (--debug-dir)
	if [ -n "$DEBUGDIR" ]; then
		for m in virtio_pci 9pnet_virtio 9p; do
			PPADD+=(--extra-module "$m")
		done
	fi
else
	[ -n "$IMAGES" ] && fail "building perfprobe failed: no images without it"
	echo "# building perfprobe failed: the guest's cli group will fail"
fi
exec 9>&-

# ------------------------------------------------------------- initramfs ---
# arm64's virt machine has one UART: the results go to a virtio console,
# whose drivers are modules in Debian's arm64 kernels (init.sh loads them).
CONSOLE_MODS=()
[ "$ARCH" = arm64 ] && CONSOLE_MODS=(--console-module virtio_mmio --console-module virtio_console)
MKV=()
[ "$VERBOSE" = 1 ] && MKV=(-v)
run_logged initramfs "$ROOT/scripts/mkinitramfs.sh" --out "$WORK/initramfs.cpio.gz" \
	--module "$KO" --client "$CLIENT" --testdir "$ROOT/tests/vm" "${PPADD[@]}" \
	${BUSYBOX[@]+"${BUSYBOX[@]}"} ${CONSOLE_MODS[@]+"${CONSOLE_MODS[@]}"} \
	${MODDIR:+--moddir "$MODDIR"} --kdir "$KDIR" "${MKV[@]}" ||
	fail "building the initramfs failed"

if [ -n "$IMAGES" ]; then
	mkdir -p "$IMAGES" && cp "$KERNEL" "$IMAGES/vmlinuz" &&
		cp "$WORK/initramfs.cpio.gz" "$IMAGES/initramfs.cpio.gz" ||
		fail "cannot write the images into $IMAGES"
	printf 'ARCH=%s\nKREL=%s\nKERNEL=%s\nINITRD=%s\n' "$ARCH" "$KREL" \
		"$(cd "$IMAGES" && pwd)/vmlinuz" "$(cd "$IMAGES" && pwd)/initramfs.cpio.gz" \
		>"$IMAGES/images.env"
	say "images for $ARCH, kernel $KREL, in $IMAGES ($(($(date +%s) - START)) s)"
	exit 0
fi

# ------------------------------------------------------------------ boot ---
ACCEL=${PERFPROBE_VMTEST_ACCEL:-}
[ "$ARCH" = arm64 ] && [ -z "$ACCEL" ] && ACCEL=tcg	# another architecture: TCG only
if [ -z "$ACCEL" ]; then
	ACCEL=tcg
	if [ -c /dev/kvm ] && [ -r /dev/kvm ] && [ -w /dev/kvm ] &&
		timeout 10 "$QEMU" -accel kvm -machine none -nodefaults -display none \
			-S -monitor none -daemonize -pidfile "$WORK/kvmprobe.pid" >/dev/null 2>&1; then
		kill "$(cat "$WORK/kvmprobe.pid" 2>/dev/null)" 2>/dev/null
		ACCEL=kvm
	fi
fi
CPU=max
# arm64: -cpu max's pointer authentication with QEMU's own algorithm
# (QARMA) is most of TCG's time in a kernel that signs every return
# address; the IMPDEF one is cheap, and the guest uses PAC the same way
[ "$ARCH" = arm64 ] && CPU=max,pauth-impdef=on
SEED=${PERFPROBE_VMTEST_SEED:-$(( $(date +%s) % 100000 ))}
if [ "$ARCH" = arm64 ]; then
	ARCHAPPEND="console=ttyAMA0,115200"
	# the virt machine; results on a virtio console (virtio-mmio transport)
	MACHINE=(-machine virt -device virtio-serial-device
		 -chardev "file,id=results,path=$WORK/results.log"
		 -device virtconsole,chardev=results -serial "file:$WORK/console.log")
else
	ARCHAPPEND="console=ttyS0,115200 tsc=reliable no_timer_check"
	MACHINE=(-serial "file:$WORK/console.log" -serial "file:$WORK/results.log")
fi
BASE_APPEND="$ARCHAPPEND rdinit=/init panic=-1 oops=panic softlockup_panic=1 \
hung_task_panic=1 sysctl.kernel.hung_task_timeout_secs=60 nmi_watchdog=0 \
mitigations=off printk.devkmsg=on loglevel=7 \
pp_seed=$SEED ${PERFPROBE_VMTEST_ONLY:+pp_only=$PERFPROBE_VMTEST_ONLY} \
${PERFPROBE_VMTEST_SKIP:+pp_skip=$PERFPROBE_VMTEST_SKIP} ${DEBUGDIR:+pp_debug=1} $EXTRA_APPEND"
DEBUG_OPT=()
if [ -n "$DEBUGDIR" ]; then
	[ -d "$DEBUGDIR" ] || fail "--debug-dir $DEBUGDIR: not a directory"
	DEBUG_OPT=(-virtfs "local,path=$DEBUGDIR,mount_tag=ppdebug,security_model=none,readonly=on")
fi
: >"$WORK/console.log"
: >"$WORK/results.log"
# Single-threaded TCG by default: with multi-threaded TCG (QEMU 7.2) a vCPU
# was seen spinning on a stale int3 after the kernel patched its own text
# (tracepoint static keys toggled by TRACE_START/STOP) - see vmtest.rst.
boot() {
	ACCEL_OPT=$ACCEL
	ICOUNT_OPT=()
	CLOCK=wall
	[ "$ACCEL" = tcg ] && ACCEL_OPT=tcg,thread=${PERFPROBE_VMTEST_TCG_THREAD:-single}
	if [ -n "$ICOUNT" ] && [ "$ACCEL" = tcg ]; then
		ICOUNT_OPT=(-icount "$ICOUNT")
		CLOCK=icount
		# one vCPU: with two, -icount's round-robin vCPUs let the
		# guest's A/B runs take minutes, not seconds (emulation.rst)
		[ -n "${PERFPROBE_VMTEST_SMP:-}" ] || SMP=1
	elif [ -n "$ICOUNT" ]; then
		echo "# vmtest: -icount is TCG's alone: $ACCEL runs on the wall clock"
	fi
	# What runs the guest, said to perfprobe inside it (results.rst,
	# "emulation"): only this side knows -icount for sure.
	APPEND="$BASE_APPEND perfprobe_accel=$ACCEL perfprobe_clock=$CLOCK"
	# Under TCG a vCPU is a host thread that a busy host may not run
	# for tens of seconds: a 20 s soft-lockup or 21 s RCU-stall limit
	# then panics a healthy guest (seen at boot with the host's load
	# at 15).  The limits stay, four to six times longer.
	[ "$ACCEL" = tcg ] &&
		APPEND="$APPEND watchdog_thresh=60 rcupdate.rcu_cpu_stall_timeout=120"
	vsay "booting $KERNEL ($ACCEL_OPT${ICOUNT_OPT[*]:+ ${ICOUNT_OPT[*]}}, ${SMP} CPUs, ${MEM} MiB, timeout ${TIMEOUT}s)"
	: >"$WORK/console.log"
	: >"$WORK/results.log"
	BOOT_START=$(date +%s)
	timeout -k 5 "$TIMEOUT" "$QEMU" -accel "$ACCEL_OPT" ${ICOUNT_OPT[@]+"${ICOUNT_OPT[@]}"} \
		-cpu "$CPU" -smp "$SMP" -m "$MEM" \
		-nodefaults -no-user-config -display none -monitor none -no-reboot \
		"${MACHINE[@]}" ${DEBUG_OPT[@]+"${DEBUG_OPT[@]}"} -kernel "$KERNEL" -initrd "$WORK/initramfs.cpio.gz" -append "$APPEND" \
		</dev/null >"$WORK/qemu.log" 2>&1
	QRC=$?
	BOOT_END=$(date +%s)
	vsay "QEMU exited with status $QRC after $((BOOT_END - BOOT_START))s"
}
boot
# A KVM device that opens and passes the probe can still abort the first
# real boot ("failed to set MSR" on nested or restricted hosts).  Only a
# guest that printed something proves KVM works: otherwise, unless KVM was
# asked for, boot again under TCG and say so.
if [ "$ACCEL" = kvm ] && [ -z "${PERFPROBE_VMTEST_ACCEL:-}" ] && [ "$QRC" -ne 0 ] &&
	[ ! -s "$WORK/console.log" ]; then
	echo "# vmtest: KVM boot failed before the guest printed anything ($(head -c 200 "$WORK/qemu.log" | tr '\n' ' ')): using TCG"
	ACCEL=tcg
	boot
fi
if [ "$VERBOSE" = 1 ]; then
	echo "---------------- guest console ----------------" >&2
	tr -d '\r' <"$WORK/console.log" >&2
	echo "-----------------------------------------------" >&2
fi

# --------------------------------------------------------------- results ---
# Kernel messages that fail the run, wherever they appear in the console:
# splats(), the list the guest's checks use too.
# shellcheck source=tests/vm/splat.sh
. "$ROOT/tests/vm/splat.sh"

tr -d '\r' <"$WORK/results.log" >"$WORK/results.txt"
STATUS=$(sed -n 's/^PPVMTEST-STATUS: \([0-9]*\).*/\1/p' "$WORK/results.txt" | tail -n1)

n=0
nfail=0
tapout=$WORK/tap.out
: >"$tapout"
emit() { # "ok"|"not ok" description
	n=$((n + 1))
	case $1 in
	"not ok") case $2 in *"# TODO"*) ;; *) nfail=$((nfail + 1)) ;; esac ;;
	esac
	echo "$1 $n - $2" >>"$tapout"
}
while IFS= read -r line; do
	case $line in
	"not ok"*|"ok"*)
		res=ok
		rest=${line#ok}
		case $line in "not ok"*) res="not ok"; rest=${line#not ok} ;; esac
		rest=$(echo "$rest" | sed -E 's/^ *[0-9]+//; s/^ *-? *//')
		emit "$res" "$rest"
		;;
	"#"*) echo "$line" >>"$tapout" ;;
	PPVMTEST-STATUS:*) ;;
	"PPAB "*) ;; # results documents for scripts/kernel-ab.sh
	1..*) ;; # guest plans are ignored: we count and print our own
	"") ;;
	*) echo "# guest: $line" >>"$tapout" ;;
	esac
done <"$WORK/results.txt"

if [ "$QRC" = 124 ] || [ "$QRC" = 137 ]; then
	emit "not ok" "guest finished within ${TIMEOUT}s (timed out, QEMU killed)"
else
	emit ok "guest finished within ${TIMEOUT}s (QEMU status $QRC, $((BOOT_END - BOOT_START))s)"
fi
if [ -n "$STATUS" ]; then
	emit ok "guest printed its final status line"
	if [ "$STATUS" = 0 ]; then
		emit ok "guest test script exit status 0"
	else
		emit "not ok" "guest test script exit status 0 (got $STATUS)"
	fi
else
	emit "not ok" "guest printed its final status line (missing: crash, panic or hang)"
fi
tr -d '\r' <"$WORK/console.log" | grep -n '' | splats >"$WORK/splats.txt" 2>/dev/null
if [ -s "$WORK/splats.txt" ]; then
	emit "not ok" "console log free of kernel errors ($(wc -l <"$WORK/splats.txt") suspicious lines)"
	head -n 40 "$WORK/splats.txt" | sed 's/^/#   console:/' >>"$tapout"
else
	emit ok "console log free of kernel errors (panic/oops/BUG/WARNING/lockup/stall/KASAN/UBSAN/leak)"
fi

echo "1..$n"
cat "$tapout"
END=$(date +%s)
echo "# vmtest: $ARCH kernel $KREL ($KERNEL), accel $ACCEL_OPT${ICOUNT_OPT[*]:+ ${ICOUNT_OPT[*]}}, $SMP CPUs, fuzz seed $SEED, wall time $((END - START))s"

if [ "$nfail" != 0 ]; then
	say "FAIL: $nfail of $n tests failed"
	if [ "$VERBOSE" != 1 ]; then
		echo "---------------- last 80 lines of the guest console ----------------" >&2
		tr -d '\r' <"$WORK/console.log" | tail -n 80 >&2
		echo "--------------------------------------------------------------------" >&2
		[ -s "$WORK/qemu.log" ] && { echo "QEMU said:" >&2; cat "$WORK/qemu.log" >&2; }
	fi
	exit 1
fi
exit 0
