# SPDX-License-Identifier: GPL-2.0
# bash completion for perfprobe: commands, options (global and each
# command's), benchmark and group names (from `perfprobe list`), result
# files and labels (from `perfprobe ls`).  Installed as
# share/bash-completion/completions/perfprobe.

_perfprobe_cmds="list run syscall summary ls compare report import export
	kernel-view kmod copy timer trace netserver help version"
_perfprobe_global="--json --output --repeat --cpu --quick --full --verbose --quiet
	--help --version --results-dir --no-save --tmpdir --label --noise --kernel-view"

# benchmark names, then their groups
_perfprobe_benches() {
	"$1" list 2>/dev/null | awk '{ print $1; g[$2] = 1 } END { for (k in g) print k }'
}

# what names runs: labels, latest, result files and directories
_perfprobe_runs() {
	local cur=$2
	COMPREPLY+=($(compgen -W "latest $("$1" ls 2>/dev/null | awk 'NR > 1 { print $2 }')" -- "$cur"))
	COMPREPLY+=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))
}

_perfprobe() {
	local cur prev words cword cmd i pp=${COMP_WORDS[0]}
	_init_completion 2>/dev/null || {
		cur=${COMP_WORDS[COMP_CWORD]}
		prev=${COMP_WORDS[COMP_CWORD - 1]}
		words=("${COMP_WORDS[@]}")
		cword=$COMP_CWORD
	}
	COMPREPLY=()
	# the command: the first word that is one
	for ((i = 1; i < cword; i++)); do
		case " $_perfprobe_cmds " in
		*" ${words[i]} "*) cmd=${words[i]}; break ;;
		esac
	done
	case $prev in
	--kernel-view) COMPREPLY=($(compgen -W "auto kmod bpf off" -- "$cur")); return ;;
	--format|-f)
		if [ "$cmd" = report ]; then
			COMPREPLY=($(compgen -W "html svg" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "text json junit ktap lava kcidb" -- "$cur"))
		fi
		return ;;
	--output|-o|--results-dir|--tmpdir) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	--repeat|-r|--cpu|-c|--noise|--label|--threshold|-t|--run-noise|-N) return ;;
	esac
	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$_perfprobe_global" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$_perfprobe_cmds" -- "$cur"))
		fi
		return
	fi
	if [[ $cur == -* ]]; then
		local own=""
		case $cmd in
		compare) own="--threshold --run-noise --sort --strict --gate-emulated --fail-on --ignore --format" ;;
		report) own="--format" ;;
		export) own="--csv" ;;
		ls) own="--kernel" ;;
		copy) own="--dir --sizes --align" ;;
		timer) own="--period --count" ;;
		trace) own="--all -H" ;;
		netserver) own="--bind --port --max-tests --quiet" ;;
		esac
		COMPREPLY=($(compgen -W "$own $_perfprobe_global" -- "$cur"))
		return
	fi
	case $cmd in
	run|list) COMPREPLY=($(compgen -W "$(_perfprobe_benches "$pp")" -- "$cur")) ;;
	summary|compare|report|export) _perfprobe_runs "$pp" "$cur" ;;
	import)
		if [ "$prev" = import ]; then
			COMPREPLY=($(compgen -W "lmbench" -- "$cur"))
		else
			COMPREPLY=($(compgen -f -- "$cur"))
		fi ;;
	kernel-view) COMPREPLY=($(compgen -W "status" -- "$cur")) ;;
	kmod)
		if [ "$prev" = kmod ]; then
			COMPREPLY=($(compgen -W "status check" -- "$cur"))
		else
			COMPREPLY=($(compgen -f -X '!*.ko' -- "$cur") $(compgen -d -- "$cur"))
		fi ;;
	help) COMPREPLY=($(compgen -W "$_perfprobe_cmds" -- "$cur")) ;;
	trace) COMPREPLY=($(compgen -c -- "$cur")) ;;
	esac
}
complete -F _perfprobe perfprobe
