# SPDX-License-Identifier: GPL-2.0
#
# perfprobe: make [all] | tools | kmod | check | vmtest | install | clean | help
#
# Quiet by default; V=1 shows the commands.  O=DIR builds elsewhere
# (default build/); SAN=1 builds with AddressSanitizer + UBSan; WERROR=1
# makes every warning an error (the checks' builds do).

VERSION := 0.1
GITVER := $(shell git describe --always --dirty 2>/dev/null)
PP_VERSION := $(VERSION)$(if $(GITVER),-g$(GITVER))

# Cross builds (Documentation/arm.rst): CROSS_COMPILE=aarch64-linux-gnu-
# with Debian's multiarch :arm64 libraries (scripts/install-deps.sh --arm64);
# STATIC=1 links one binary to copy onto a board.
CROSS_TRIPLET := $(patsubst %-,%,$(notdir $(CROSS_COMPILE)))
ifneq ($(CROSS_COMPILE),)
CC := $(CROSS_COMPILE)gcc
AR := $(CROSS_COMPILE)ar
PKG_CONFIG := PKG_CONFIG_LIBDIR=/usr/lib/$(CROSS_TRIPLET)/pkgconfig:/usr/share/pkgconfig pkg-config
endif

ifeq ($(SAN),1)
O ?= build-san
else ifneq ($(CROSS_COMPILE),)
O ?= build-$(CROSS_TRIPLET)$(if $(filter 1,$(STATIC)),-static)
else ifeq ($(STATIC),1)
O ?= build-static
else
O ?= build
endif

PREFIX ?= /usr/local
DESTDIR ?=
KDIR ?=

CC ?= cc
PKG_CONFIG ?= pkg-config
STATIC ?= 0
PKG_STATIC := $(if $(filter 1,$(STATIC)),--static)

ifeq ($(V),1)
Q :=
say :=
else
Q := @
say = @printf '  %-7s %s\n' $(1) $(2);
endif

PKGS := jansson $(if $(filter 1,$(STATIC)),,libtirpc) libnl-genl-3.0 libelf libdw libcrypto libkcapi
PKG_MISSING := $(strip $(foreach p,$(PKGS),$(if $(shell $(PKG_CONFIG) --exists $(p) && echo y),,$(p))))

# Warnings are errors in the checks' builds (make check and every
# check-* target, and what they start), not in a plain or packaged
# build, which a newer compiler's new warning must not break.  The flags
# are recorded in $(O)/gen/warn.cfg: a change rebuilds the objects.
ifneq ($(filter check check-%,$(MAKECMDGOALS)),)
WERROR ?= 1
endif
WERROR ?= 0
# to every make the checks start, the scripts' included (vmtest.sh)
export WERROR
WERROR_FLAG := $(if $(filter 1,$(WERROR)),-Werror)
WARN := -Wall -Wextra $(WERROR_FLAG) -Wstrict-prototypes -Wmissing-prototypes \
	-Wformat=2 -Wshadow -Wno-format-nonliteral
CFLAGS ?= -O2 -g
comma := ,
SANFLAGS := $(if $(filter 1,$(SAN)),-fsanitize=address$(comma)undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
# The core (tools/lib) sees only itself and the uapi: a core file that
# includes a feature or CLI header does not build.  Everything else sees
# the core and tools/perfprobe, whose features are named by directory:
# "kernel/ppnl.h", "net/netproto.h", "report/summary.h".
CORE_CFLAGS := -std=gnu11 $(WARN) $(CFLAGS) $(SANFLAGS) -MMD -MP \
	-DPP_VERSION='"$(PP_VERSION)"' -Iinclude -Itools/lib $(if $(filter 1,$(STATIC)),-DPP_NO_TIRPC) \
	$(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PP_CFLAGS := $(CORE_CFLAGS) -Itools/perfprobe -I$(O)/gen
STATIC_LD := $(if $(filter 1,$(STATIC)),-static)
PP_LDFLAGS := $(LDFLAGS) $(SANFLAGS) $(STATIC_LD)
PP_LIBS := $(shell $(PKG_CONFIG) $(PKG_STATIC) --libs $(PKGS) 2>/dev/null) -lm

# The BPF backend of the kernel view (Documentation/kernel-view.rst), in
# the shape of libbpf-tools: vmlinux.h from the running kernel's BTF,
# kernel/bpf/<name>.bpf.c -> <name>.bpf.o -> <name>.skel.h.  Without BTF,
# clang, bpftool or libbpf (or with BPF=0) it is built out: the rest
# builds, and perfprobe says "not available: built without ..." at run time.
BPF ?= 1
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
CLANG ?= clang
BPFTOOL ?= $(or $(shell command -v bpftool 2>/dev/null),$(wildcard /usr/sbin/bpftool))
TARGET_MACHINE := $(or $(firstword $(subst -, ,$(CROSS_TRIPLET))),$(shell uname -m))
BPF_ARCH := $(shell echo $(TARGET_MACHINE) | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/' \
	-e 's/ppc64le/powerpc/' -e 's/s390x/s390/' -e 's/riscv64/riscv/')
# A cross build needs the target kernel's BTF: the host's is another arch.
ifneq ($(CROSS_COMPILE),)
ifeq ($(origin VMLINUX_BTF),file)
VMLINUX_BTF := /nonexistent
BPF_CROSS_NOTE := the-BTF-of-a-$(TARGET_MACHINE)-kernel-(VMLINUX_BTF=FILE)
endif
endif
BPF_MISSING := $(strip $(if $(wildcard $(VMLINUX_BTF)),,$(or $(BPF_CROSS_NOTE),BTF)) \
	$(if $(shell command -v $(CLANG) 2>/dev/null),,clang) $(if $(BPFTOOL),,bpftool) \
	$(if $(shell $(PKG_CONFIG) --exists libbpf && echo y),,libbpf))
BPF_SRC := tools/perfprobe/kernel/bpf
BPF_FLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -Wall $(WERROR_FLAG)
BPF_CFLAGS := $(BPF_FLAGS) -I$(O)/gen -I$(BPF_SRC) $(shell $(PKG_CONFIG) --cflags libbpf 2>/dev/null)
empty :=
space := $(empty) $(empty)
BPF_OUT := $(if $(filter 1,$(BPF)),$(if $(BPF_MISSING),built without \
	$(subst $(space),$(comma)$(space),$(BPF_MISSING))),built with BPF=$(BPF))
ifeq ($(BPF_OUT),)
KBPF_CFLAGS := -DPP_HAVE_BPF $(shell $(PKG_CONFIG) --cflags libbpf)
BPF_LIBS := $(shell $(PKG_CONFIG) $(PKG_STATIC) --libs libbpf)
KBPF_DEPS := $(O)/gen/kview.skel.h
else
KBPF_CFLAGS := -DPP_BPF_BUILT_OUT='"not available: $(BPF_OUT)"'
endif
PP_LIBS += $(BPF_LIBS)

# Two archives: the measuring core, and the rest of perfprobe (the CLI,
# the registry, the benchmarks and the feature directories).
CORE_SRCS := $(wildcard tools/lib/*.c)
PP_SRCS := tools/perfprobe/cli.c tools/perfprobe/exitcode.c tools/perfprobe/help.c tools/perfprobe/options.c \
	tools/perfprobe/registry.c tools/perfprobe/runcmd.c \
	$(wildcard tools/perfprobe/*/*.c)
CORE_OBJS := $(patsubst %.c,$(O)/%.o,$(CORE_SRCS))
PP_OBJS := $(patsubst %.c,$(O)/%.o,$(PP_SRCS))
LIBS_A := $(O)/libperfprobe.a $(O)/libppcore.a
# The programs lat_proc runs (tools/perfprobe/lean.c, hello.c), in libexec.
PP_HELPERS := $(O)/perfprobe-hello $(O)/perfprobe-hello-dyn $(O)/perfprobe-lean $(O)/perfprobe-proc
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(O)/tests/%,$(UNIT_SRCS))

.DELETE_ON_ERROR:
.PHONY: bpf-check all tools man options check-options check-unit uninstall modules_install check-packages kmod kmod-style genl-gen check-spec check check-quick check-build check-layout check-san check-clang check-docs check-cross check-lava kernel-ab vmtest check-kernels check-arm64 vmtest-arm64 install deps-check \
	clean help deps FORCE

all: tools

tools: deps-check bpf-check $(O)/perfprobe $(PP_HELPERS) $(if $(filter build,$(O)),perfprobe)

deps-check:
ifneq ($(PKG_MISSING),)
	@echo "perfprobe: missing development packages: $(PKG_MISSING); run scripts/install-deps.sh" >&2; exit 1
endif

bpf-check:
ifneq ($(BPF_OUT),)
	@echo "perfprobe: note: BPF kernel view $(BPF_OUT) (it needs $(VMLINUX_BTF), clang, bpftool, libbpf: scripts/install-deps.sh)" >&2
endif

perfprobe: $(O)/perfprobe
	$(call say,LN,$@)cp -f $< $@.tmp && mv -f $@.tmp $@

$(O)/tools/lib/%.o: tools/lib/%.c
	$(call say,CC,$@)mkdir -p $(@D) && $(CC) $(CORE_CFLAGS) -c -o $@ $<

$(O)/%.o: %.c
	$(call say,CC,$@)mkdir -p $(@D) && $(CC) $(PP_CFLAGS) -c -o $@ $<

# Syscall names of this architecture, from the C library's <asm/unistd.h>:
# designated initialisers [nr] = "name", for tools/perfprobe/kernel/ppnl.c.
$(O)/gen/pp_syscalls.h:
	$(call say,GEN,$@)mkdir -p $(@D) && echo '#include <asm/unistd.h>' | \
		$(CC) -E -dM -x c - | \
		sed -n 's/^#define __NR_\([a-z0-9_]*\) \([0-9][0-9]*\)$$/[\2] = "\1",/p' \
		| sort -t '[' -k 2 -n >$@.tmp && test -s $@.tmp && mv $@.tmp $@

$(O)/tools/perfprobe/kernel/ppnl.o: $(O)/gen/pp_syscalls.h

# The BPF objects; kbpf.o is rebuilt when the backend is built in or out.
$(O)/gen/vmlinux.h:
	$(call say,GEN,$@)mkdir -p $(@D) && $(BPFTOOL) btf dump file $(VMLINUX_BTF) format c >$@.tmp \
		&& mv $@.tmp $@

$(O)/$(BPF_SRC)/%.bpf.o: $(BPF_SRC)/%.bpf.c $(BPF_SRC)/%_maps.h $(O)/gen/vmlinux.h
	$(call say,BPF,$@)mkdir -p $(@D) && $(CLANG) $(BPF_CFLAGS) -c -o $@ $<

$(O)/gen/%.skel.h: $(O)/$(BPF_SRC)/%.bpf.o
	$(call say,SKEL,$@)$(BPFTOOL) gen skeleton $< name $* >$@.tmp && mv $@.tmp $@

# Kept for a look with bpftool/llvm-objdump; not an intermediate file.
.PRECIOUS: $(O)/$(BPF_SRC)/%.bpf.o

$(O)/gen/bpf.cfg: FORCE
	@mkdir -p $(@D) && echo '$(BPF_OUT)' | cmp -s - $@ || echo '$(BPF_OUT)' >$@

$(O)/tools/perfprobe/kernel/kbpf.o: PP_CFLAGS += $(KBPF_CFLAGS)
$(O)/tools/perfprobe/kernel/kbpf.o: $(O)/gen/bpf.cfg $(KBPF_DEPS)

# What prints the version is rebuilt when it changes (a commit, the tree
# made dirty or clean): a run's meta.perfprobe_version names its tree.
$(O)/gen/version.cfg: FORCE
	@mkdir -p $(@D) && echo '$(PP_VERSION)' | cmp -s - $@ || echo '$(PP_VERSION)' >$@

$(patsubst %.c,$(O)/%.o,$(shell grep -rl --include='*.c' PP_VERSION tools)): $(O)/gen/version.cfg

# Everything compiled with $(WARN) is rebuilt when it changes (WERROR=);
# not when O is spelt otherwise (build, $(CURDIR)/build: install.t's).
$(O)/gen/warn.cfg: FORCE
	@mkdir -p $(@D) && echo '$(WARN) $(BPF_FLAGS)' | cmp -s - $@ || echo '$(WARN) $(BPF_FLAGS)' >$@

$(CORE_OBJS) $(PP_OBJS) $(O)/tools/perfprobe/main.o $(O)/perfprobe-lean $(O)/perfprobe-proc $(UNIT_BINS) $(PLANT_OBJS) \
	$(O)/tests/pp-kview $(O)/tests/pp-kprof $(O)/tests/pp-vmtest $(O)/tests/pp-hostile \
	$(patsubst %.c,$(O)/%.o,$(wildcard $(BPF_SRC)/*.bpf.c)): $(O)/gen/warn.cfg

$(O)/libppcore.a: $(CORE_OBJS)
	$(call say,AR,$@)rm -f $@ && $(AR) rcs $@ $^

$(O)/libperfprobe.a: $(PP_OBJS)
	$(call say,AR,$@)rm -f $@ && $(AR) rcs $@ $^

# Programs are linked beside and renamed into place: a test that runs one
# meanwhile never executes a file being written (ETXTBSY, exit 126).
$(O)/perfprobe: $(O)/tools/perfprobe/main.o $(LIBS_A)
	$(call say,LD,$@)$(CC) $(PP_LDFLAGS) -o $@.tmp $^ $(PP_LIBS) && mv -f $@.tmp $@

# lat_proc's tiny program (never sanitized): static for the lean figures;
# linked dynamically, as lmbench's Makefile builds its hello, for lmbench's
# (static too in a STATIC=1 build, one to copy onto a board without libc.so).
$(O)/perfprobe-hello: tools/perfprobe/hello.c
	$(call say,CC,$@)mkdir -p $(@D) && $(CC) -O2 -static -o $@.tmp $< && mv -f $@.tmp $@

$(O)/perfprobe-hello-dyn: tools/perfprobe/hello.c
	$(call say,CC,$@)mkdir -p $(@D) && $(CC) -O2 $(STATIC_LD) -o $@.tmp $< && mv -f $@.tmp $@

# The processes lat_proc's loops run in (tools/perfprobe/lean.c): lean and
# static; and lmbench's footprint, dynamically linked against libc only.
$(O)/perfprobe-lean: tools/perfprobe/lean.c tools/perfprobe/lean.h
	$(call say,CC,$@)mkdir -p $(@D) && $(CC) -O2 $(WARN) -static -o $@.tmp $< && mv -f $@.tmp $@

$(O)/perfprobe-proc: tools/perfprobe/lean.c tools/perfprobe/lean.h
	$(call say,CC,$@)mkdir -p $(@D) && $(CC) -O2 $(WARN) $(STATIC_LD) -DPP_LEAN_PROC -o $@.tmp $< && \
		mv -f $@.tmp $@

$(O)/tests/%: tests/unit/%.c $(LIBS_A)
	$(call say,LD,$@)mkdir -p $(@D) && $(CC) $(PP_CFLAGS) -MT $@ $(PP_LDFLAGS) -o $@.tmp $< \
		$(LIBS_A) $(PP_LIBS) -lcmocka && mv -f $@.tmp $@

# perfprobe with benchmarks planted (tests/plant/, for tests/integration/
# plant.t): registry.c again with tests/plant/benches.h added, linked
# ahead of libperfprobe.a, so the archive's own registry.o is not pulled
# in; everything else is the archive's.
PLANT_OBJS := $(O)/tests/plant/registry.o \
	$(patsubst %.c,$(O)/%.o,$(wildcard tests/plant/*.c))
$(PLANT_OBJS): PP_CFLAGS += -DPP_PLANTED -Itests
$(O)/tests/plant/registry.o: tools/perfprobe/registry.c
	$(call say,CC,$@)mkdir -p $(@D) && $(CC) $(PP_CFLAGS) -c -o $@ $<

$(O)/tests/perfprobe-planted: $(O)/tools/perfprobe/main.o $(PLANT_OBJS) $(LIBS_A)
	$(call say,LD,$@)$(CC) $(PP_LDFLAGS) -o $@.tmp $^ $(PP_LIBS) && mv -f $@.tmp $@

kmod:
	$(Q)$(MAKE) -C kmod $(if $(KDIR),KDIR=$(KDIR)) $(if $(V),V=$(V))

# The edit-build-test loop (Documentation/testing.rst): unit tests
# (cmocka, TAP) and CLI integration tests of the plain build, through
# prove; no root needed, no QEMU.
check-quick: check-build check-layout
	+$(Q)PERFPROBE=$(CURDIR)/$(O)/perfprobe scripts/run-tests.sh $(O)

# The unit tests of the plain build alone.
check-unit: check-build
	+$(Q)CMOCKA_MESSAGE_OUTPUT=TAP prove --exec '' $(UNIT_BINS)

# Everything, as CI runs it: the plain build (-Werror) and its unit
# tests, CHECK_JOBS at a time whatever make's own -j (the README's
# command has none), then the rest CHECK_JOBS at a time, each one's
# output together when it ends (-O): the rest's scripts build in the
# plain build's directory too (vmtest.sh), so it is complete first.
# The integration suite runs once, in the ASan+UBSan build (check-san):
# the plain build's run of it is check-quick, the edit-build-test loop.
# The guests run under TCG on one host thread each and wait for their
# guest a good part of the time, so three at a time keep two CPUs busy;
# the longest start first.
# A recipe that starts a make through a script is marked + to hand it the
# jobserver (else: "jobserver unavailable", and cross.t's W=1 check sees it).
CHECK_JOBS ?= 3
CHECK_REST := check-san vmtest-arm64 check-lava-arm64 kernel-ab check-kernels check-lava-x86_64 \
	vmtest check-packages check-cross check-clang kmod-style check-spec check-docs
check:
	$(Q)$(MAKE) --no-print-directory -j$(CHECK_JOBS) -O check-unit check-layout
	$(Q)t0=$$(date +%s); \
	$(MAKE) --no-print-directory -k -j$(CHECK_JOBS) -O $(CHECK_REST); rc=$$?; \
	echo "  CHECK   the rest ($(CHECK_REST)): $$(($$(date +%s) - t0)) s, exit $$rc"; \
	exit $$rc

# The layering: the core must not see a CLI or feature header.  Each of
# these includes has to fail under the core's flags.  Nor does the core
# name an exit code: it returns -errno, the commands decide what that
# means to the shell (exitcode.h).  And the README's layout table names
# every directory of the tree (to tools/perfprobe/*/ and tests/*/).
LAYER_PROBES := cli.h exitcode.h runcmd.h bench.h commands.h kernel/ppnl.h kernel/kview.h \
	net/netproto.h report/summary.h benchlib/ipc.h benchlib/caches.h \
	benchlib/datafile.h benchlib/memloop.h benchlib/bandwidth.h benchlib/suite.h \
	benchlib/pagebuf.h
check-layout:
	$(Q)for h in $(LAYER_PROBES); do \
		if printf '#include "%s"\n' "$$h" | \
			$(CC) $(CORE_CFLAGS) -fsyntax-only -x c - 2>/dev/null; then \
			echo "perfprobe: layering: tools/lib can include $$h" >&2; exit 1; \
		fi; \
	done; \
	bad=$$(grep -l '#include "\(cli\|bench\|commands\)\.h"\|#include "[a-z]*/' tools/lib/*.[ch]); \
	if [ -n "$$bad" ]; then echo "perfprobe: layering: $$bad include feature headers" >&2; exit 1; fi; \
	bad=$$(grep -l 'PP_EXIT_\|pp_usage_err' tools/lib/*.[ch]); \
	if [ -n "$$bad" ]; then echo "perfprobe: layering: $$bad name exit codes" >&2; exit 1; fi; \
	dirs=$$(git ls-files 2>/dev/null | awk -F/ 'NF > 1 { print $$1 } \
		NF > 2 && ($$1 == "tools" || $$1 == "tests") { print $$1 "/" $$2 } \
		NF > 3 && $$1 "/" $$2 == "tools/perfprobe" { print $$1 "/" $$2 "/" $$3 }' | sort -u); \
	bad=$$(for d in $$dirs; do grep -q "^| .*\`$$d/" README.md || echo "$$d/"; done); \
	if [ -n "$$bad" ]; then echo "perfprobe: layout: README.md's table does not name" $$bad >&2; exit 1; fi; \
	echo "  LAYOUT  tools/lib sees no feature or CLI header, names no exit code; README names every directory"

# The module's netlink policies and op table (kmod/genl-gen.[ch]) are
# generated from the spec, the way the kernel's ynl-gen makes its *_nl.c,
# and checked in: the module builds without Python.  Run after editing
# the spec; make check-spec says when they are stale.
genl-gen:
	$(Q)scripts/genl-gen.py
	@echo "  GENL    kmod/genl-gen.c kmod/genl-gen.h from Documentation/netlink/specs/perfprobe.yaml"

# The netlink spec is the ABI's authority: the uapi header and the module's
# family and replies must match it, and kmod/genl-gen.[ch] must be what
# it generates now (regenerated into a temporary directory and compared);
# then prove both checks catch a mismatch or a hand edit on altered copies.
check-spec:
	$(Q)scripts/check-spec.py
	$(Q)scripts/genl-gen.py --check
	$(Q)prove tests/spec/check-spec.t

# The module's style: checkpatch --strict, W=1 and sparse (C=2), all silent.
kmod-style:
	+$(Q)scripts/kmod-style.sh

check-build: tools $(UNIT_BINS) $(O)/tests/pp-kview $(O)/tests/pp-kprof \
	$(O)/tests/perfprobe-planted $(O)/tests/pp-seccomp $(O)/tests/pp-hostile

# The parts of the completion scripts and the docs generated from the
# option table (tools/perfprobe/options.c): `make options` writes them,
# check-options fails, naming the file, when one is not current.
options: tools
	$(Q)scripts/gen-options.sh $(O)/perfprobe

check-options: tools
	$(Q)scripts/gen-options.sh --check $(O)/perfprobe

# The tools and the tests' programs built with clang, warnings as errors
# (build only: the tests run on the gcc builds).  -O0: clang's warnings
# come from its front end, whatever the optimisation, and the build
# takes two thirds of the CPU time (27 against 40 s here).
check-clang:
	$(Q)$(MAKE) --no-print-directory CC=clang CFLAGS=-O0 O=build-clang WERROR=1 check-build \
		build-clang/tests/pp-vmtest VMTEST_STATIC=0
	@echo "  CLANG   tools and tests build with clang, no warning"

# The documentation renders with docutils alone (no Sphinx), strictly:
# any message (a malformed table, an unknown role or directive) fails.
RST2HTML ?= $(or $(shell command -v rst2html 2>/dev/null),rst2html.py)
DOC_SRCS := $(sort $(shell find Documentation -name '*.rst'))
check-docs:
	$(Q)for f in $(DOC_SRCS); do \
		$(RST2HTML) --strict $$f /dev/null || \
			{ echo "perfprobe: docs: $$f: docutils ($(RST2HTML) --strict) reports the above" >&2; exit 1; }; \
	done; \
	for f in $(MAN_SRCS); do \
		$(RST2MAN) --strict $$f /dev/null || \
			{ echo "perfprobe: docs: $$f: docutils ($(RST2MAN) --strict) reports the above" >&2; exit 1; }; \
	done; \
	echo "  DOCS    $(words $(DOC_SRCS)) reST files render with docutils --strict"

# The kernel view's host test drivers (tests/integration/kview.t, kprof.t).
$(O)/tests/pp-kview $(O)/tests/pp-kprof: $(O)/tests/%: tests/integration/%.c $(LIBS_A)
	$(call say,LD,$@)mkdir -p $(@D) && $(CC) $(PP_CFLAGS) -MT $@ $(PP_LDFLAGS) -o $@.tmp $< \
		$(LIBS_A) $(PP_LIBS) && mv -f $@.tmp $@

# A command under a seccomp filter that costs more for the calls named: a
# known kernel slowdown for compare's verdicts (Documentation/compare.rst).
$(O)/tests/pp-seccomp: tests/tools/pp-seccomp.c $(O)/gen/warn.cfg
	$(call say,LD,$@)mkdir -p $(@D) && $(CC) $(PP_CFLAGS) -MT $@ $(PP_LDFLAGS) -o $@.tmp $< && \
		mv -f $@.tmp $@

# Hostile clients of the netserver (tests/integration/netserver.t): no library.
$(O)/tests/pp-hostile: tests/integration/pp-hostile.c
	$(call say,LD,$@)mkdir -p $(@D) && $(CC) -std=gnu11 $(WARN) $(CFLAGS) $(SANFLAGS) \
		$(PP_LDFLAGS) -o $@.tmp $< && mv -f $@.tmp $@

# The module's tests inside the QEMU guest, on the tools' netlink client:
# static where libnl's static archives exist (the guest has no libraries),
# VMTEST_STATIC=0 for a dynamic build.
VMTEST_SRCS := $(wildcard tests/vm/pp-vmtest/*.c)
VMTEST_STATIC ?= 1
VMTEST_LIBS := -lnl-genl-3 -lnl-3 -lpthread -lm
$(O)/tests/pp-vmtest: $(VMTEST_SRCS) tests/vm/pp-vmtest/vmtest.h tests/lib/tap.h \
		$(O)/tools/perfprobe/kernel/ppnl.o $(O)/libppcore.a
	$(call say,LD,$@)mkdir -p $(@D) && $(CC) $(PP_CFLAGS) -Wno-missing-field-initializers -Wno-unused-parameter \
		-Itests/lib $(PP_LDFLAGS) \
		$(if $(filter 1,$(VMTEST_STATIC)),-static) -o $@.tmp $(VMTEST_SRCS) \
		$(O)/tools/perfprobe/kernel/ppnl.o $(O)/libppcore.a $(VMTEST_LIBS) && mv -f $@.tmp $@

check-san:
	$(Q)$(MAKE) --no-print-directory SAN=1 O=build-san check-build
	+$(Q)PERFPROBE=$(CURDIR)/build-san/perfprobe \
		ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 scripts/run-tests.sh build-san

# The module's tests in a QEMU guest (Documentation/vmtest.rst), through
# prove so its summary reads like the others.
vmtest:
	+$(Q)prove --exec '' scripts/vmtest.sh :: $(if $(KDIR),--kdir $(KDIR)) \
		$(if $(KERNEL),--kernel $(KERNEL))

# perfprobe cross-built for arm64 and run under qemu-user (tests/arm64/);
# then the module, its tests and perfprobe in an arm64 guest (Debian's
# 6.1 arm64 kernel in qemu-system-aarch64).
check-arm64: check-cross vmtest-arm64

check-cross:
	+$(Q)prove --exec '' tests/arm64/cross.t tests/arm64/image-btf.t

# The Debian packages built from a clean checkout, lintian, installed,
# DKMS building the module, purged (tests/pkg/deb.t; root).
check-packages:
	+$(Q)prove --exec '' tests/pkg/deb.t

vmtest-arm64:
	+$(Q)prove --exec '' scripts/vmtest.sh :: --arch arm64 $(if $(KERNEL),--kernel $(KERNEL)) \
		$(if $(KDIR),--kdir $(KDIR))

# The module and its tools on Debian's other kernels: fetched from the
# package archive and unpacked (scripts/get-kernel.sh), never installed;
# vmtest-<release> boots one of them.
CHECK_KERNELS ?= 6.12-amd64 6.12-rt-amd64
check-kernels: $(addprefix vmtest-,$(CHECK_KERNELS))

vmtest-%-amd64:
	+$(Q)prove --exec '' scripts/vmtest.sh :: --release $*-amd64

# perfprobe run by LAVA's own dispatcher (lava-run) on QEMU devices,
# x86-64 and arm64, Debian's 6.1: the jobs' results back through import
# lava and compare (tests/lava/lava.t, Documentation/lava.rst).  A step
# that cannot run here is skipped, saying why.
# One job an architecture, so make check runs them beside the rest.
check-lava: check-lava-x86_64 check-lava-arm64
check-lava-%: tools
	+$(Q)t0=$$(date +%s); PERFPROBE=$(CURDIR)/$(O)/perfprobe PERFPROBE_LAVA_ARCHES=$* \
		prove --exec '' tests/lava/lava.t; rc=$$?; \
	echo "  LAVA    check-lava $*: $$(($$(date +%s) - t0)) s, exit $$rc"; exit $$rc

# scripts/kernel-ab.sh end to end: 6.1 against 6.12.
kernel-ab: tools
	+$(Q)PERFPROBE=$(CURDIR)/$(O)/perfprobe prove --exec '' tests/vm/kernel-ab.t

# Installed layout: PREFIX (default /usr/local), DESTDIR for a staging root.
BINDIR ?= $(PREFIX)/bin
LIBEXECDIR ?= $(PREFIX)/libexec/perfprobe
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/perfprobe
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/vendor-completions

# Man pages from their reST (Documentation/man/), with docutils' rst2man.
RST2MAN ?= $(or $(shell command -v rst2man 2>/dev/null),rst2man.py)
MAN_SRCS := $(wildcard Documentation/man/*.rst)
MANPAGES := $(patsubst Documentation/man/%.rst,$(O)/man/%,$(MAN_SRCS))

man: $(MANPAGES)

$(O)/man/%: Documentation/man/%.rst
	$(call say,RST2MAN,$@)mkdir -p $(@D) && $(RST2MAN) --strict $< $@.tmp && mv $@.tmp $@

DOCS := README.md $(wildcard Documentation/*.rst Documentation/*/*.rst)

install: tools man
	$(call say,INSTALL,$(DESTDIR)$(PREFIX))install -d $(DESTDIR)$(BINDIR) \
		$(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(DOCDIR) && \
	install -m 0755 $(O)/perfprobe $(DESTDIR)$(BINDIR)/perfprobe && \
	install -m 0755 $(PP_HELPERS) $(DESTDIR)$(LIBEXECDIR)/ && \
	install -m 0644 $(filter %.1,$(MANPAGES)) $(DESTDIR)$(MANDIR)/man1/ && \
	install -m 0644 $(filter %.5,$(MANPAGES)) $(DESTDIR)$(MANDIR)/man5/ && \
	install -m 0644 scripts/completion/perfprobe.bash $(DESTDIR)$(BASHCOMPDIR)/perfprobe && \
	install -m 0644 scripts/completion/_perfprobe $(DESTDIR)$(ZSHCOMPDIR)/_perfprobe && \
	for d in $(DOCS); do install -D -m 0644 $$d $(DESTDIR)$(DOCDIR)/$$d || exit 1; done

uninstall:
	$(call say,UNINSTALL,$(DESTDIR)$(PREFIX))rm -f $(DESTDIR)$(BINDIR)/perfprobe \
		$(patsubst $(O)/%,$(DESTDIR)$(LIBEXECDIR)/%,$(PP_HELPERS)) \
		$(patsubst $(O)/man/%,$(DESTDIR)$(MANDIR)/man1/%,$(filter %.1,$(MANPAGES))) \
		$(patsubst $(O)/man/%,$(DESTDIR)$(MANDIR)/man5/%,$(filter %.5,$(MANPAGES))) \
		$(DESTDIR)$(BASHCOMPDIR)/perfprobe $(DESTDIR)$(ZSHCOMPDIR)/_perfprobe && \
	rm -rf $(DESTDIR)$(DOCDIR) && \
	rmdir $(DESTDIR)$(LIBEXECDIR) 2>/dev/null; true

# The module into /lib/modules/<release>/updates of KDIR's kernel.
modules_install:
	$(Q)$(MAKE) -C kmod $(if $(KDIR),KDIR=$(KDIR)) modules_install

clean:
	$(call say,CLEAN,.)rm -rf build build-san build-clang build-vmtest-arm64 build-kmod perfprobe
	$(Q)if [ -f kmod/Makefile ]; then $(MAKE) -s -C kmod clean >/dev/null 2>&1 || true; fi

help:
	@echo 'targets:'
	@echo '  all, tools   build ./perfprobe and the lat_proc helpers (build/perfprobe-lean, -proc, -hello, -hello-dyn)'
	@echo '  kmod         build kmod/perfprobe.ko [KDIR=<kernel build dir>]'
	@echo '  check-quick  unit + integration tests of the plain build (no root, no QEMU)'
	@echo '  check        everything CI runs: the build and its unit tests, then three at a'
	@echo '               time the ASan+UBSan unit and integration tests, the guests, the'
	@echo '               packages, style, clang, spec and docs'
	@echo '  check-unit   the unit tests of the plain build'
	@echo '  check-san    unit + integration tests in an ASan+UBSan build (build-san/)'
	@echo '  genl-gen     regenerate kmod/genl-gen.[ch] (policies, op table) from the netlink spec'
	@echo '  check-spec   uapi header and kmod/genl.c against the netlink spec;'
	@echo '               kmod/genl-gen.[ch] not stale or edited'
	@echo '  check-clang  tools and test programs built with clang, -Werror (build-clang/)'
	@echo '  check-docs   every Documentation/ reST file through docutils --strict'
	@echo '  options      the completion and docs parts generated from the option table'
	@echo '  check-options  fail when one of those is not current (run make options)'
	@echo '  kmod-style   checkpatch --strict, W=1 and sparse on kmod/'
	@echo '  vmtest       module tests in a QEMU guest [KDIR=... KERNEL=...]'
	@echo '  check-kernels  vmtest on Debian 6.12 and 6.12 PREEMPT_RT [CHECK_KERNELS=...]'
	@echo '  kernel-ab    scripts/kernel-ab.sh end to end, 6.1 against 6.12 in QEMU'
	@echo '  check-lava   LAVA jobs run by lava-run on QEMU x86-64 and arm64, imported, compared'
	@echo '  check-arm64  check-cross (the arm64 cross build under qemu-user), vmtest-arm64'
	@echo '  vmtest-arm64 module tests in an arm64 guest (Debian 6.1 arm64, qemu-system-aarch64)'
	@echo '  install      binary, helpers, man pages, completion, docs: PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)'
	@echo '  uninstall    remove what install put there'
	@echo '  man          the man pages, from Documentation/man/*.rst (rst2man)'
	@echo '  modules_install  perfprobe.ko into /lib/modules/<release>/updates [KDIR=]'
	@echo '  check-packages   build the Debian packages, lintian, install, dkms build, purge'
	@echo '  clean'
	@echo 'variables: V=1 (show commands), O=DIR (build dir), SAN=1 (sanitizers),'
	@echo '           WERROR=1 (warnings are errors; the check targets set it)'

# every object's and test program's headers: the planted registry and the
# tests see struct pp_bench as the archive does, or they break at run time
-include $(CORE_OBJS:.o=.d) $(PP_OBJS:.o=.d) $(O)/tools/perfprobe/main.d \
	$(PLANT_OBJS:.o=.d) $(wildcard $(O)/tests/*.d)
