#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run the unit tests (cmocka, TAP output) and the CLI integration tests
# (TAP shell scripts) through prove, two files at a time (PROVE_JOBS):
# every timing check holds under load (Documentation/testing.rst), and a
# test's namespaces, files and BPF programs are its own.
# usage: scripts/run-tests.sh BUILD_DIR
set -eu
O=${1:-build}
PERFPROBE=${PERFPROBE:-$(pwd)/$O/perfprobe}
CMOCKA_MESSAGE_OUTPUT=TAP
export PERFPROBE CMOCKA_MESSAGE_OUTPUT
echo "== tests with $PERFPROBE"
# the longest first, so that two at a time end together (testing.rst)
first="tests/integration/report.t tests/integration/net.t tests/integration/storage.t"
rest=$(ls tests/integration/*.t | grep -vxF "$(echo "$first" | tr ' ' '\n')")
# A file that hangs fails after PP_TEST_TIMEOUT seconds (timeout's exit
# 124, or 137 after SIGKILL) instead of stopping the suite for good.
# shellcheck disable=SC2046,SC2086
exec prove --timer --failures -j"${PROVE_JOBS:-2}" \
	--exec "timeout -k 10 ${PP_TEST_TIMEOUT:-600}" \
	$first $rest $(ls "$O"/tests/test_* | grep -v '\.d$')
