#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run the unit tests (cmocka, TAP output) and the CLI integration tests
# (TAP shell scripts) through prove.  usage: scripts/run-tests.sh BUILD_DIR
set -eu
O=${1:-build}
PERFPROBE=${PERFPROBE:-$(pwd)/$O/perfprobe}
CMOCKA_MESSAGE_OUTPUT=TAP
export PERFPROBE CMOCKA_MESSAGE_OUTPUT
echo "== tests with $PERFPROBE"
# shellcheck disable=SC2046
exec prove --exec '' $(ls "$O"/tests/test_* | grep -v '\.d$') tests/integration/*.t
