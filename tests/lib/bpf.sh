# SPDX-License-Identifier: GPL-2.0
# Helpers of the tests that check the kernel view's BPF programs go away
# (sourced after tap.sh; BPFTOOL names bpftool).
BPFTOOL=${BPFTOOL:-$(command -v bpftool || echo /usr/sbin/bpftool)}

# The ids of the loaded programs that are ours (named ppkv_*), sorted.
bpf_prog_ids() {
	"$BPFTOOL" prog show 2>/dev/null | sed -n 's/^\([0-9]*\): .* name ppkv_.*/\1/p' | sort
}

# The ids of ours that process PID holds (a program's or a link's fd
# names its prog_id in /proc/PID/fdinfo), sorted: another process loading
# the same programs meanwhile (a parallel test) is not counted.
bpf_pid_prog_ids() { # PID
	grep -h '^prog_id:' /proc/"$1"/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort -u |
		comm -12 - <(bpf_prog_ids)
}

# Wait up to 5 s for the programs listed in FILE to be gone: the kernel
# frees them after an RCU grace period (a leak never goes away).  Sets
# bpf_left to how many are still there.
bpf_wait_gone() { # FILE
	local i
	for i in $(seq 50); do
		bpf_left=$(bpf_prog_ids | comm -12 "$1" - | wc -l)
		[ "$bpf_left" -eq 0 ] && return 0
		sleep 0.1
	done
	return 1
}
