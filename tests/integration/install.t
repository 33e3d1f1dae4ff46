#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make install / uninstall into a staging root (DESTDIR, PREFIX=/usr): the
# binary and its helpers, man pages that man(1) reads without a warning,
# bash and zsh completion, the docs; the installed binary runs and finds
# its helpers; the bash completion completes commands, options, benchmark
# names; uninstall leaves no file.  Then help and --json, command by
# command.
. "$(dirname "$0")/tap.sh"
NTESTS=16
plan $NTESTS

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
O=$(cd "$(dirname "$PERFPROBE")" && pwd)
S=$T_TMP/stage
CMDS="list run syscall summary ls compare report import export kernel-view kmod copy timer
	trace netserver help version"

# the tools are built already (O): install builds the man pages only.
# Relinking them would pull the binary from under the files that run it
# meanwhile (prove -j): the programs in O keep their inode.
inodes() { stat -c '%n %i %Y' "$O"/perfprobe "$O"/perfprobe-lean "$O"/perfprobe-hello; }
before=$(inodes)
# with the warning flags O was built with (recorded in its gen/warn.cfg)
werror=$(grep -q -- -Werror "$O/gen/warn.cfg" 2>/dev/null && echo 1 || echo 0)
make -s -C "$ROOT" O="$O" WERROR=$werror DESTDIR="$S" PREFIX=/usr install >"$T_TMP/mk" 2>&1
ok $? "make install DESTDIR=... PREFIX=/usr$(grep -iE 'error|warning' "$T_TMP/mk" | head -2 | sed 's/^/ /')"
check "make install O=$O rebuilds no program: $(grep -E '^ +(CC|LD) ' "$T_TMP/mk" | head -2 | tr -s ' ')" \
	test "$before" = "$(inodes)"
miss=""
for f in bin/perfprobe libexec/perfprobe/perfprobe-lean libexec/perfprobe/perfprobe-hello \
	libexec/perfprobe/perfprobe-proc libexec/perfprobe/perfprobe-hello-dyn \
	share/man/man1/perfprobe.1 share/man/man1/perfprobe-run.1 share/man/man1/perfprobe-compare.1 \
	share/man/man1/perfprobe-netserver.1 \
	share/man/man5/perfprobe-results.5 share/bash-completion/completions/perfprobe \
	share/zsh/vendor-completions/_perfprobe share/doc/perfprobe/README.md \
	share/doc/perfprobe/Documentation/report.rst; do
	[ -s "$S/usr/$f" ] || miss="$miss $f"
done
ok $([ -z "$miss" ]; echo $?) "installed: binary, helpers, man pages, completion, docs${miss:+ (missing:$miss)}"
"$S/usr/bin/perfprobe" -v --quick --no-save run lat_proc >"$T_TMP/lp" 2>&1
check "the installed binary runs lat_proc from its helpers in libexec: lmbench's footprint and the lean one" \
	sh -c "grep -q 'lat_proc-process: perfprobe-proc, dynamically linked' '$T_TMP/lp' &&
	       grep -q 'lat_proc-lean-process: perfprobe-lean, static' '$T_TMP/lp'"

# man pages: no warning from man/groff, every command in perfprobe(1)
bad=""
for p in "$S"/usr/share/man/man*/*; do
	LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$p" >"$T_TMP/page" 2>"$T_TMP/w" || bad="$bad $(basename "$p")"
	[ -s "$T_TMP/w" ] && bad="$bad $(basename "$p"):$(head -1 "$T_TMP/w")"
done
ok $([ -z "$bad" ]; echo $?) "man --warnings: every page renders without a warning${bad:+ (bad:$bad)}"
LC_ALL=C.UTF-8 MANWIDTH=200 man -l "$S/usr/share/man/man1/perfprobe.1" 2>/dev/null >"$T_TMP/p1"
miss=""
for c in $CMDS; do grep -qE "^ +$c( |$)" "$T_TMP/p1" || miss="$miss $c"; done
for o in --json --output --repeat --cpu --quick --full --noise --results-dir --no-save --tmpdir \
	--label --kernel-view --verbose --quiet; do grep -q -- "$o" "$T_TMP/p1" || miss="$miss $o"; done
ok $([ -z "$miss" ]; echo $?) "perfprobe(1): every command and global option${miss:+ (missing:$miss)}"

# bash completion, sourced as bash-completion would
comp() { # the completions of the words "$@" (the last one being completed)
	PATH="$S/usr/bin:$PATH" bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_perfprobe perfprobe "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$S/usr/share/bash-completion/completions/perfprobe" "$@"
}
ok $([ "$(comp perfprobe co | tr '\n' ' ')" = "compare copy " ]; echo $?) \
	"completion: 'perfprobe co' gives compare copy ($(comp perfprobe co | tr '\n' ' '))"
ok $(comp perfprobe run lat_s | grep -qx lat_syscall && comp perfprobe run lat_s | grep -qx lat_sig &&
	comp perfprobe run ip | grep -qx ipc; echo $?) "completion: benchmark and group names from perfprobe list"
ok $([ "$(comp perfprobe --kernel-view '' | tr '\n' ' ')" = "auto bpf kmod off " ] &&
	comp perfprobe compare --s | grep -qx -- --strict; echo $?) \
	"completion: option values (--kernel-view) and a command's own options (compare --s)"
if command -v zsh >/dev/null; then
	zsh -n "$S/usr/share/zsh/vendor-completions/_perfprobe"
	ok $? "the zsh completion parses (zsh -n)"
else
	skip "no zsh here"
fi

make -s -C "$ROOT" O="$O" WERROR=$werror DESTDIR="$S" PREFIX=/usr uninstall >/dev/null 2>&1
ok $([ -z "$(find "$S" -type f)" ]; echo $?) "make uninstall: no file left ($(find "$S" -type f | head -3 | tr '\n' ' '))"

# help: every command's usage, options and an example, both ways
bad=""
for c in $CMDS; do
	"$PERFPROBE" help "$c" >"$T_TMP/h1" 2>&1 || bad="$bad $c"
	"$PERFPROBE" "$c" --help >"$T_TMP/h2" 2>&1 || bad="$bad $c(--help)"
	grep -q "^usage: perfprobe.* $c" "$T_TMP/h1" && grep -q '^example:' "$T_TMP/h1" &&
		cmp -s "$T_TMP/h1" "$T_TMP/h2" || bad="$bad $c"
done
ok $([ -z "$bad" ]; echo $?) "help COMMAND and COMMAND --help: the same usage and example for each${bad:+ (bad:$bad)}"
"$PERFPROBE" help nosuch >/dev/null 2>"$T_TMP/e"
ok $([ $? -eq 2 ] && [ "$(wc -l <"$T_TMP/e")" -eq 1 ]; echo $?) "help of an unknown command: exit 2, one line"

# --json: a document, or refused with exit 2 the same way
bad=""
for c in "summary x" "report x -o y" "import lmbench x" "export --csv x" "netserver" "help"; do
	"$PERFPROBE" --json $c >/dev/null 2>"$T_TMP/e"
	rc=$?
	[ $rc -eq 2 ] && grep -q "^perfprobe: ${c%% *}: --json is not supported: " "$T_TMP/e" &&
		[ "$(wc -l <"$T_TMP/e")" -eq 1 ] || bad="$bad ${c%% *}($rc)"
done
ok $([ -z "$bad" ]; echo $?) "--json refused alike by the commands that print no data${bad:+ (bad:$bad)}"
bad=""
for c in list version ls "kernel-view status" "kmod status"; do
	"$PERFPROBE" --json $c 2>/dev/null | jq -e .format >/dev/null || bad="$bad ${c%% *}"
done
ok $([ -z "$bad" ]; echo $?) "--json honoured: list, version, ls, kernel-view status, kmod status${bad:+ (bad:$bad)}"
"$PERFPROBE" list >"$T_TMP/l"
ok $(grep -q '^stream .*(by name)$' "$T_TMP/l" && ! grep -q '^lat_syscall .*(by name)' "$T_TMP/l"; echo $?) \
	"list marks what run leaves out unless named"
