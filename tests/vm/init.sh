#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the perfprobe test VM (see Documentation/vmtest.rst).
#
# Console (kernel log) is on the first serial port; the TAP results of the
# guest tests go to a second port, which QEMU writes to a file on the host:
# ttyS1 on x86, a virtio console (hvc0) on arm64's virt machine, which has
# one UART (its driver loaded first where it is a module).  The last line
# written there is always "PPVMTEST-STATUS: <exit code>"; the host treats
# a missing status line as a failure (crash, hang, ...).
export PATH=/bin:/sbin
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null || mdev -s
mkdir -p /dev/pts /dev/shm
mount -t tmpfs tmpfs /tmp
chmod 1777 /tmp
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
hostname ppvm

# Booted by LAVA (pp_lava on the command line, Documentation/lava.rst):
# no tests of our own.  LAVA's dispatcher has appended its test overlay
# to this initramfs (QEMU: the image's overlays: lava; a board: TFTP's
# ramdisk), waits for the shell prompt and runs its test shell from it.
if grep -qw pp_lava /proc/cmdline; then
	dmesg -n 1	# no kernel message in the middle of LAVA's signals
	while read -r m; do
		insmod "/lib/modules/$m.ko" 2>/dev/null
	done </lib/modules/extra-order
	hostname pp-lava
	export HOME=/root PS1='pp-lava# '
	echo "pp-lava: $(perfprobe --version 2>&1 | head -n1), kernel $(uname -r) $(uname -m): shell ready"
	cd /root
	exec setsid cttyhack /bin/sh -i
fi
# The same images run outside LAVA (pp_run=BENCH,... on the command line,
# tests/lava/lava.t): perfprobe run by /init as LAVA's test definition
# runs it, its JSON on the console between the lines a LAVA job's log
# has it between; then off.
pp_run=$(sed -n 's/.*pp_run=\([^ ]*\).*/\1/p' /proc/cmdline)
if [ -n "$pp_run" ]; then
	dmesg -n 1
	perfprobe --quick --no-save --label "outside+$(uname -m)" -o /tmp/pp-run.json \
		run $(echo "$pp_run" | tr , ' ') >/dev/console 2>&1
	echo "perfprobe run: exit $?" >/dev/console
	{
		echo "PERFPROBE-ARTIFACT-BEGIN pp-run.json"
		base64 /tmp/pp-run.json
		echo "PERFPROBE-ARTIFACT-END"
	} >/dev/console
	sync
	poweroff -f
fi

if [ -s /lib/modules/console-order ]; then
	while read -r m; do
		insmod "/lib/modules/$m.ko" >/dev/console 2>&1
	done </lib/modules/console-order
fi
# virtio_console sets its console port up from a work item, after insmod
# has returned: hvc_alloc() makes /dev/hvc0 before the port is on the
# driver's console list, and a poll of an open hvc0 in between hangs the
# tty up (get_chars: -EPIPE), so every later write fails with EIO and the
# results are lost.  The port says it is done (guest_connected) in debugfs.
vio_console_ready() {
	for f in /sys/kernel/debug/virtio-ports/*; do
		[ -f "$f" ] && grep -q '^is_console: yes' "$f" &&
			grep -q '^guest_connected: 1' "$f" && return 0
	done
	return 1
}
if [ -s /lib/modules/console-order ]; then
	i=0
	until vio_console_ready || [ $i -ge 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if vio_console_ready; then
		echo "ppvm: virtio console port ready (waited $i x 0.1 s)" >/dev/console
	else
		echo "ppvm: no virtio console port ready after 30 s" >/dev/console
	fi
fi
out=/dev/ttyS1
[ -c /dev/hvc0 ] && out=/dev/hvc0
[ -c "$out" ] || out=/dev/console
stty -F "$out" raw -echo 2>/dev/null

echo "ppvm: init started, kernel $(uname -r)" >/dev/console
rc=1
if [ -x /tests/vm/guest-tests.sh ]; then
	/tests/vm/guest-tests.sh >"$out" 2>&1 </dev/null
	rc=$?
else
	echo "not ok - /tests/vm/guest-tests.sh missing" >"$out"
fi
echo "ppvm: guest tests finished with status $rc" >/dev/console
echo "PPVMTEST-STATUS: $rc" >"$out"
sync
sleep 0.3
poweroff -f
# not reached unless poweroff failed; the host times out or -no-reboot ends it
echo o >/proc/sysrq-trigger
reboot -f
