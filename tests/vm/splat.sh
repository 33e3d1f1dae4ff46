# SPDX-License-Identifier: GPL-2.0
# Kernel messages that fail a VM test run, wherever they appear: sourced
# by the guest's dmesg checks (guest-tests.sh, busybox sh) and by the
# host's scan of the console (scripts/vmtest.sh).  Written once here.
SPLAT='Kernel panic|Oops|BUG:|WARNING:|Call Trace|soft lockup|hard LOCKUP|blocked for more than|rcu.*(stall|detected stalls)|RCU stall|KASAN|UBSAN|kmemleak|unreferenced object|refcount_t|[Ll]eak|general protection fault|Unable to handle|unable to handle|stack-protector|double fault|invalid opcode|list_(add|del) corruption|segfault at|Kernel BUG'

# splats: the lines of stdin that look like a splat, less those that only
# quote a limit: the command line, and the boot line of the RCU stall
# limit vmtest.sh sets under TCG ("stall warnings timeout set to 120")
splats() {
	grep -E "$SPLAT" | grep -v -e 'Kernel command line:' -e 'Command line:' \
		-e 'stall warnings timeout set to'
}
