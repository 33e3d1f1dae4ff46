#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian/Ubuntu packages perfprobe needs, only those missing.
#
#   scripts/install-deps.sh          tools and their tests
#   scripts/install-deps.sh --all    also the kernel module and QEMU tests
#
# Needs root (or sudo) only when something is missing.
set -eu

TOOLS="build-essential pkg-config libjansson-dev libcmocka-dev libtirpc-dev
libnl-3-dev libnl-genl-3-dev libelf-dev libssl-dev libkcapi-dev libbpf-dev
clang llvm bpftool
jq perl iproute2 util-linux procps"
KMOD="linux-headers-amd64 linux-image-amd64 qemu-system-x86 busybox-static
cpio kmod sparse linux-source-6.1 xz-utils python3 python3-yaml dwarves"

want="$TOOLS"
case "${1:-}" in
--all) want="$TOOLS $KMOD" ;;
--kmod) want="$KMOD" ;;
"") ;;
-h|--help) sed -n '3,9p' "$0"; exit 0 ;;
*) echo "install-deps.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
esac

if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "install-deps.sh: not a Debian-based system: install by hand: $want" >&2
	exit 1
fi

missing=""
for p in $want; do
	case "$p" in
	linux-headers-amd64|linux-image-amd64)
		[ "$(dpkg --print-architecture)" = amd64 ] || continue ;;
	esac
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$st" = "install ok installed" ] || missing="$missing $p"
done

if [ -z "$missing" ]; then
	echo "install-deps.sh: all packages present"
	exit 0
fi

echo "install-deps.sh: installing:$missing"
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=sudo
	else
		echo "install-deps.sh: need root to install:$missing (run as root or install sudo)" >&2
		exit 1
	fi
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
