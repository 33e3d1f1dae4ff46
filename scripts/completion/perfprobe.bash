# SPDX-License-Identifier: GPL-2.0
# bash completion for perfprobe: commands, options (global and each
# command's) and their values, benchmark and group names (from `perfprobe
# list`), result files and labels (from `perfprobe ls`).  Installed as
# share/bash-completion/completions/perfprobe.  What the options and
# commands are comes from perfprobe's option table (the generated part
# below: `make options` writes it, `make check-options` checks it).

# benchmark names, then their groups
_perfprobe_benches() {
	"$1" list 2>/dev/null | awk '{ print $1; g[$2] = 1 } END { for (k in g) print k }'
}

# the labels of the saved runs
_perfprobe_labels() {
	"$1" ls 2>/dev/null | awk 'NR > 1 && !/^\(/ { print $2 }'
}

# what names runs: labels, latest, result files and directories
_perfprobe_runs() {
	local cur=$2
	COMPREPLY+=($(compgen -W "latest $(_perfprobe_labels "$1")" -- "$cur"))
	COMPREPLY+=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))
}

# generated: perfprobe gen-options bash (make options); do not edit
_perfprobe_cmds="list run syscall summary ls compare report import export kernel-view kmod copy timer trace netserver help version"
# the options of CMD (empty: the global ones), as words
_perfprobe_opts() {
	case $1 in
	run) echo "--dhrystone --whetstone --linpack --nbench --coremark-pro --glmark2" ;;
	ls) echo "--kernel --label" ;;
	compare) echo "--threshold --run-noise --gate-emulated --no-history --sort --strict --fail-on --ignore --format --kcidb-version" ;;
	report) echo "--format --guide" ;;
	export) echo "--csv --lava --folded" ;;
	copy) echo "--dir --sizes --align" ;;
	timer) echo "--period --count" ;;
	trace) echo "--hist --all" ;;
	netserver) echo "--bind --port --max-tests --max-per-client --max-duration --secret-file" ;;
	'') echo "--json --output --repeat --rounds --cpu --quick --full --noise --results-dir --no-save --tmpdir --label --kernel-view --profile-samples --vmlinux --verbose --quiet --help --version" ;;
	esac
}
# how the value of option $2 of command $1 completes; nothing: it takes none
_perfprobe_optval() {
	case $1:$2 in
	ls:--kernel|ls:-k) echo "none" ;;
	ls:--label) echo "labels" ;;
	compare:--threshold|compare:-t) echo "none" ;;
	compare:--run-noise|compare:-N) echo "none" ;;
	compare:--fail-on|compare:-F) echo "none" ;;
	compare:--ignore|compare:-I) echo "none" ;;
	compare:--format|compare:-f) echo "words text json junit ktap lava kcidb" ;;
	compare:--kcidb-version) echo "words 5.3 4.3" ;;
	run:--dhrystone) echo "file" ;;
	run:--whetstone) echo "file" ;;
	run:--linpack) echo "file" ;;
	run:--nbench) echo "file" ;;
	run:--coremark-pro) echo "dir" ;;
	run:--glmark2) echo "file" ;;
	report:--format|report:-f) echo "words html svg md" ;;
	copy:--dir|copy:-d) echo "words in out clear all" ;;
	copy:--sizes|copy:-s) echo "none" ;;
	copy:--align|copy:-a) echo "none" ;;
	timer:--period|timer:-p) echo "none" ;;
	timer:--count|timer:-n) echo "none" ;;
	netserver:--bind|netserver:-b) echo "none" ;;
	netserver:--port|netserver:-p) echo "none" ;;
	netserver:--max-tests|netserver:-m) echo "none" ;;
	netserver:--max-per-client) echo "none" ;;
	netserver:--max-duration) echo "none" ;;
	netserver:--secret-file) echo "file" ;;
	*:--output|*:-o) echo "file" ;;
	*:--repeat|*:-r) echo "none" ;;
	*:--rounds) echo "none" ;;
	*:--cpu|*:-c) echo "none" ;;
	*:--noise) echo "none" ;;
	*:--results-dir) echo "dir" ;;
	*:--tmpdir) echo "dir" ;;
	*:--label) echo "none" ;;
	*:--kernel-view) echo "words auto kmod bpf off" ;;
	*:--profile-samples) echo "none" ;;
	*:--vmlinux) echo "file" ;;
	esac
}
# how argument $2 (1: the first) of command $1 completes
_perfprobe_argval() {
	case $1:$2 in
	list:1) echo "benches" ;;
	list:*) echo "none" ;;
	run:1) echo "benches" ;;
	run:*) echo "benches" ;;
	syscall:1) echo "none" ;;
	syscall:*) echo "none" ;;
	summary:1) echo "runs" ;;
	summary:*) echo "runs" ;;
	ls:1) echo "none" ;;
	ls:*) echo "none" ;;
	compare:1) echo "runs" ;;
	compare:*) echo "runs" ;;
	report:1) echo "runs" ;;
	report:*) echo "runs" ;;
	import:1) echo "words lmbench lava" ;;
	import:*) echo "file" ;;
	export:1) echo "runs" ;;
	export:*) echo "runs" ;;
	kernel-view:1) echo "words status" ;;
	kernel-view:*) echo "none" ;;
	kmod:1) echo "words status check" ;;
	kmod:*) echo "file *.ko" ;;
	copy:1) echo "none" ;;
	copy:*) echo "none" ;;
	timer:1) echo "none" ;;
	timer:*) echo "none" ;;
	trace:1) echo "program" ;;
	trace:*) echo "none" ;;
	netserver:1) echo "none" ;;
	netserver:*) echo "none" ;;
	help:1) echo "commands" ;;
	help:*) echo "none" ;;
	version:1) echo "none" ;;
	version:*) echo "none" ;;
	esac
}
# end of generated

# Complete $3 as the table's SPEC $2 says ("words A B", "file [GLOB]", ...).
_perfprobe_spec() {
	local pp=$1 spec=$2 cur=$3
	case $spec in
	words\ *) COMPREPLY+=($(compgen -W "${spec#words }" -- "$cur")) ;;
	file\ *) COMPREPLY+=($(compgen -f -X "!${spec#file }" -- "$cur") $(compgen -d -- "$cur")) ;;
	file) COMPREPLY+=($(compgen -f -- "$cur")) ;;
	dir) COMPREPLY+=($(compgen -d -- "$cur")) ;;
	benches) COMPREPLY+=($(compgen -W "$(_perfprobe_benches "$pp")" -- "$cur")) ;;
	runs) _perfprobe_runs "$pp" "$cur" ;;
	labels) COMPREPLY+=($(compgen -W "$(_perfprobe_labels "$pp")" -- "$cur")) ;;
	commands) COMPREPLY+=($(compgen -W "$_perfprobe_cmds" -- "$cur")) ;;
	program) COMPREPLY+=($(compgen -c -- "$cur")) ;;
	esac
}

_perfprobe() {
	local cur prev words cword cmd= w i n=0 dashdash= spec pp=${COMP_WORDS[0]}
	_init_completion 2>/dev/null || {
		cur=${COMP_WORDS[COMP_CWORD]}
		prev=${COMP_WORDS[COMP_CWORD - 1]}
		words=("${COMP_WORDS[@]}")
		cword=$COMP_CWORD
	}
	COMPREPLY=()
	# the command (the first word that is one) and its arguments so far;
	# an option that takes a value takes the next word with it
	for ((i = 1; i < cword; i++)); do
		w=${words[i]}
		if [ -n "$dashdash" ]; then
			n=$((n + 1))
			continue
		fi
		case $w in
		--) dashdash=1; continue ;;
		--*=*) continue ;;
		-*) [ -n "$(_perfprobe_optval "$cmd" "$w")" ] && i=$((i + 1)); continue ;;
		esac
		if [ -z "$cmd" ]; then
			case " $_perfprobe_cmds " in
			*" $w "*) cmd=$w; continue ;;
			esac
		fi
		n=$((n + 1))
	done
	if [ -z "$dashdash" ] && [[ $prev == -* ]]; then
		spec=$(_perfprobe_optval "$cmd" "$prev")
		if [ -n "$spec" ]; then
			_perfprobe_spec "$pp" "$spec" "$cur"
			return
		fi
	fi
	if [ -z "$dashdash" ] && [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$([ -n "$cmd" ] && _perfprobe_opts "$cmd") $(_perfprobe_opts '')" -- "$cur"))
		return
	fi
	if [ -z "$cmd" ]; then
		COMPREPLY=($(compgen -W "$_perfprobe_cmds" -- "$cur"))
		return
	fi
	_perfprobe_spec "$pp" "$(_perfprobe_argval "$cmd" $((n + 1)))" "$cur"
}
complete -F _perfprobe perfprobe
