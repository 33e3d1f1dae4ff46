#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The parts of the completion scripts and the docs that come from
# perfprobe's option table (tools/perfprobe/options.c).  In each file
# below, the lines between one holding "generated: perfprobe gen-options
# ARGS" and the next holding "end of generated" are what
# `perfprobe gen-options ARGS` prints.
#
# usage: scripts/gen-options.sh [--check] PERFPROBE
#   writes them (make options), or with --check fails, naming the file,
#   when one is not current (make check-options).
set -eu
check=
if [ "${1:-}" = --check ]; then
	check=1
	shift
fi
PP=${1:?usage: scripts/gen-options.sh [--check] PERFPROBE}
FILES="scripts/completion/perfprobe.bash scripts/completion/_perfprobe
	Documentation/cli.rst Documentation/man/perfprobe.1.rst
	Documentation/man/perfprobe-compare.1.rst Documentation/man/perfprobe-netserver.1.rst"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
stale=
for f in $FILES; do
	grep -q 'generated: perfprobe gen-options ' "$f" || {
		echo "perfprobe: options: $f: no 'generated: perfprobe gen-options' line" >&2
		exit 1
	}
	awk -v pp="$PP" '
	/generated: perfprobe gen-options / {
		print
		args = $0
		sub(/.*gen-options /, "", args)
		sub(/ *\(.*$/, "", args)
		fflush()
		if (system(pp " gen-options " args) != 0)
			exit 1
		skip = 1
		next
	}
	/end of generated/ { skip = 0 }
	!skip { print }
	' "$f" >"$tmp" || { echo "perfprobe: options: $f: $PP gen-options failed" >&2; exit 1; }
	if ! cmp -s "$tmp" "$f"; then
		if [ -n "$check" ]; then
			echo "perfprobe: options: $f is not current with the option table: run make options" >&2
			diff -u "$f" "$tmp" | head -20 >&2
			stale=1
		else
			cat "$tmp" >"$f"
			echo "  GEN     $f"
		fi
	fi
done
[ -z "$stale" ] || exit 1
[ -z "$check" ] || echo "  OPTIONS the completion and the docs are current with the option table"
