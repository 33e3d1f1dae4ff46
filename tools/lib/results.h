/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The results model: one run = metadata + results + skipped benchmarks
 * (results.c); serialised as JSON (jansson) by results_write.c, read
 * back by results_read.c, kept under the results directory
 * (results_store.c).  The schema is Documentation/results.rst.
 */
#ifndef PP_RESULTS_H
#define PP_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "prof.h"
#include "stats.h"

#define PP_FORMAT_NAME		"perfprobe-results"
#define PP_SCHEMA_VERSION	1

#define PP_KEY_MAX		96
#define PP_UNIT_MAX		16
/* pp_run_load() refuses larger files (a full run is well under 10 MiB). */
#define PP_RESULTS_MAX_BYTES	(256 << 20)

enum pp_dir {
	PP_LOWER_IS_BETTER,
	PP_HIGHER_IS_BETTER,
};

/*
 * What a result's figure is.  Only a measured figure says whether a
 * kernel got slower; compare judges the others but never lets them gate
 * (Documentation/compare.rst).  Files record the kind when it is not
 * measured.
 */
enum pp_kind {
	PP_KIND_MEASURED,	/* sampled by the harness (the default) */
	PP_KIND_DERIVED,	/* computed from other figures: a cache size the curve shows */
	PP_KIND_FACT,		/* a count or a property of the machine */
};

/* "measured", "derived", "fact": as the result files spell a kind. */
const char *pp_kind_name(enum pp_kind kind);
/* The kind a name spells: 0, or -EINVAL. */
int pp_kind_parse(const char *name, enum pp_kind *kind);

/*
 * The kernel's view of the same operation, filled by the perfprobe.ko or
 * BPF backends (Documentation/kernel-view.rst).  Figures are per loop
 * iteration of the result's measured operation, from traced passes run
 * after the untraced samples.  A field that was not measured is NaN and
 * is not written; a probe group that could not be armed says why in
 * missing.
 */
#define PP_KSIDE_TOP		5

/*
 * What text leaves out as incidental to the operation measured: a count
 * under one in a hundred operations (a timer tick, a first touch) with
 * the time that goes with it, and less than a byte a operation copied.
 * The kernel view's block shows figures from there up, compare's deltas
 * changes of that size; JSON has every figure.
 */
#define PP_KSIDE_COUNT_MIN	0.01
#define PP_KSIDE_BYTES_MIN	1.0

struct pp_kside_sys {
	char name[24];
	double count_per_op;
	double ns_per_op;		/* entry..exit, all of its calls */
};

struct pp_kside {
	char source[16];		/* "kmod", "bpf"; "" = none */
	const char *scope;		/* which processes were traced, or NULL */
	double kernel_ns_per_op;	/* sys_enter .. sys_exit, summed, */
	double window_probe_ns_per_op;	/* less the probes' share in it, */
	double kernel_ns_err;		/* known to within this */
	double entry_exit_ns_per_op;	/* user-observed minus kernel */
	double probe_ns_per_op;		/* cost the syscall probes add */
	double traced_ns_per_op;	/* the syscall pass's own time */
	double traced_ops;		/* the operations that pass made */
	double syscalls_per_op;
	double faults_per_op;
	double fault_ns_per_op;		/* in handle_mm_fault */
	double switches_per_op;		/* a traced task switched out */
	double offcpu_ns_per_op;	/* switched out .. back in */
	double copy_bytes_per_op;	/* to + from user memory */
	double copy_ns_per_op;
	double probe2_ns_per_op;	/* cost of the fault/sched/copy pass */
	unsigned int ntop;
	struct pp_kside_sys top[PP_KSIDE_TOP];	/* by time, most first */
	/*
	 * The sampled profile of a pass of its own (prof.h), owned by the
	 * run (pp_run_keep_prof()), or NULL; its shares are of prof_op_ns,
	 * the untraced time of one operation.
	 */
	const struct pp_prof *prof;
	double prof_op_ns;
	double prof_ops;		/* operations its samples were taken of */
	double prof_cost_ns_per_op;	/* what sampling added to its pass */
	const char *missing;		/* "copy: why; fault-time: why", or NULL */
};

struct pp_result {
	char key[PP_KEY_MAX];
	char unit[PP_UNIT_MAX];
	enum pp_dir dir;
	enum pp_kind kind;
	double spread_pct;		/* declared: its own run-to-run spread (keys.h), or 0 */
	double value;			/* the headline: median of samples */
	double *samples;		/* every sample, in unit */
	size_t nsamples;
	struct pp_stats st;
	bool noisy;			/* pp_result_noisy() at the run's threshold */
	uint64_t iterations;		/* operations per sample (0 = n/a) */
	int cpu_first;			/* CPU at the first / last sample, */
	int cpu_last;			/* -1 when unknown */
	struct pp_kside k;
	/* imported from another tool's output: "FILE:LINE" (pp_intern()), or NULL */
	const char *imported;
	/*
	 * run --rounds N: the median of each round's samples, in the order
	 * measured (samples[] holds every round's, round after round);
	 * NULL with nrounds 0 for a run of one round.
	 */
	double *rounds;
	size_t nrounds;
	/* each round's samples' CV, as rounds[] (kept in memory, not saved) */
	double *round_cv;
};

/*
 * The note a result's sampling leaves when it had to take more samples
 * than it keeps ("<key>-samples"), and what that note says when another
 * process took the CPU meanwhile (compare calls such a result unreliable).
 */
#define PP_NOTE_SAMPLES		"-samples"
#define PP_NOTE_HOGS		"; CPU taken meanwhile by "

/* A named note of a run: a skip, a failure or an information, and its text. */
struct pp_note {
	char name[PP_KEY_MAX];		/* benchmark or key */
	char reason[256];
};

struct pp_mhz {
	double mhz;			/* measured, 0 when not measured */
	double system_mhz;		/* what the system says, 0 if nothing */
	bool trusted;
	char method[128];
	char note[160];			/* why it is (not) trusted */
};

/* One file of /sys/devices/system/cpu/vulnerabilities: its name and text. */
struct pp_mitig {
	char name[48];
	char text[256];
};

#define PP_MITIG_MAX		48

/*
 * What ran the machine: the hardware (bare metal, or a hypervisor on
 * hardware virtualisation) or an emulator (QEMU's TCG), and what the
 * run's clock counts.  Said by whoever started the machine
 * (PERFPROBE_ACCEL, perfprobe_accel= on the kernel command line), else
 * detected from inside it (pp_emul_decide(); Documentation/results.rst).
 */
struct pp_emul {
	bool recorded;			/* false: a file from before it */
	int emulated;			/* 1, 0; -1 when it cannot be told */
	char accel[16];			/* "tcg", "kvm", ..., "none"; "" unknown */
	bool virtual_clock;		/* QEMU -icount: time is instructions */
	char stated[160];		/* who said so; "" = nobody, detected */
	char detected[256];		/* what the machine itself shows */
};

#define PP_CLOCK_WALL		"wall"
#define PP_CLOCK_VIRTUAL	"virtual (instructions)"

struct pp_meta {
	char version[32];
	char date[32];			/* ISO 8601, UTC */
	char hostname[64];
	char sysname[32];
	char release[128];
	char kversion[160];
	char machine[32];
	char cpu_model[128];
	int online_cpus;
	uint64_t mem_bytes;
	struct pp_mhz mhz;
	char compiler[128];
	char cmdline[512];
	struct pp_clock_info clock;
	double loop_overhead_ns;
	unsigned int samples;		/* per result */
	unsigned int rounds;		/* run --rounds: the set, so many times over */
	double target_ms;		/* per sample */
	double noise_pct;		/* CV threshold for "noisy" */
	int pin_cpu;			/* -1: not pinned */
	char mode[16];			/* "quick", "default", "full" */
	char label[64];			/* --label; default the release */
	/*
	 * What else makes two runs comparable, read from the system.  A
	 * read that failed leaves its field empty (0 mitigations): not
	 * recorded, and not written.
	 */
	char governor[256];		/* cpufreq, summarised over the CPUs */
	char kcmdline[2048];		/* /proc/cmdline */
	char thp_enabled[32];		/* transparent hugepages: the */
	char thp_defrag[32];		/* [selected] word */
	struct pp_mitig mitig[PP_MITIG_MAX];	/* sorted by name */
	size_t nmitig;
	struct pp_emul emul;
};

struct pp_run {
	struct pp_meta meta;
	struct pp_result *results;
	size_t nresults;
	size_t cap;
	struct pp_note *skips;		/* could not run here, and why */
	size_t nskips;
	struct pp_note *fails;		/* ran and failed, and why */
	size_t nfails;
	struct pp_note *infos;		/* facts that are not numbers: */
	size_t ninfos;			/* name and text (reason) */
	bool interrupted;		/* stopped by a signal: partial */
	struct pp_prof **profs;		/* the results' profiles */
	size_t nprofs, profs_cap;
};

void pp_run_init(struct pp_run *run);
/*
 * The run owns prof from now on (results point to it), and frees it
 * with itself: 0, or -ENOMEM with prof freed.
 */
int pp_run_keep_prof(struct pp_run *run, struct pp_prof *prof);
/* Sort meta.mitig by name, the order in which they are kept. */
void pp_mitig_sort(struct pp_meta *m);
void pp_run_free(struct pp_run *run);

/* Copies samples; computes statistics; fails on a duplicate key. */
struct pp_result *pp_run_add(struct pp_run *run, const char *key,
			     const char *unit, enum pp_dir dir,
			     const double *samples, size_t n);
/*
 * For a loader: append without looking for the key, then check them all
 * at once: the first key that appears twice, or NULL (*oom set when out
 * of memory).
 */
struct pp_result *pp_run_append(struct pp_run *run, const char *key,
				const char *unit, enum pp_dir dir,
				const double *samples, size_t n);
const char *pp_run_find_duplicate(const struct pp_run *run, int *oom);
const struct pp_result *pp_run_find(const struct pp_run *run, const char *key);
struct pp_result *pp_run_find_mut(struct pp_run *run, const char *key);
/* Replaces r's samples (n > 0) and their statistics: 0 or -errno. */
int pp_result_set_samples(struct pp_result *r, const double *samples, size_t n);
/*
 * Another round of r (run --rounds): its n samples appended, the
 * statistics of all of them, and each round's median (the first round's
 * too, the first time): 0 or -errno.
 */
int pp_result_add_round(struct pp_result *r, const double *samples, size_t n);
/*
 * The last round of r measured again: its n samples replace that round's
 * (all of r's in a run of one round): 0 or -errno.
 */
int pp_result_redo_round(struct pp_result *r, const double *samples, size_t n);
/*
 * Whether r's samples spread more than noise_pct: their CV; for a result
 * made in rounds (run --rounds), most of its rounds' own CVs.  The rounds'
 * spread between each other is the run-to-run noise compare measures from
 * their medians, not a disturbance of the samples.
 */
bool pp_result_noisy(const struct pp_result *r, double noise_pct);
void pp_run_skip(struct pp_run *run, const char *name, const char *reason);
void pp_run_fail(struct pp_run *run, const char *name, const char *reason);
/* A fact about a result that is text, e.g. the kernel driver used. */
void pp_run_info(struct pp_run *run, const char *name, const char *text);
const char *pp_run_find_info(const struct pp_run *run, const char *name);

/* Sets noisy flags from meta.noise_pct. */
void pp_run_mark_noise(struct pp_run *run);

/* results_write.c: serialise; the write is atomic (temporary file, fsync, rename). */
int pp_run_save(const struct pp_run *run, const char *path);
char *pp_run_to_string(const struct pp_run *run);

/*
 * results_read.c: load a result file: 0, or -errno with one line naming the file and
 * the problem in err: what stat() or mmap() said when it cannot be read,
 * -EISDIR, -EFBIG (PP_RESULTS_MAX_BYTES), -ENOMEM, and -EINVAL when it
 * is not a valid perfprobe result file.
 */
int pp_run_load(struct pp_run *run, const char *path, char *err,
		size_t errlen);

/*
 * results_store.c: the default results directory: $PERFPROBE_RESULTS_DIR,
 * XDG, ~/.local.
 */
int pp_results_default_dir(char *buf, size_t size);
/* <dir>/<host>/<YYYY-MM-DD>/<HHMMSS>-<tag>.json, directories created. */
int pp_results_path(const char *dir, const struct pp_meta *m, const char *tag,
		    char *buf, size_t size);

bool pp_key_valid(const char *key);
/* A --label: 1-63 of [A-Za-z0-9._+-], not "latest" (a word of its own). */
bool pp_label_valid(const char *label);
void pp_kside_clear(struct pp_kside *k);
/* "wall" or "virtual (instructions)"; NULL when not recorded. */
const char *pp_emul_clock(const struct pp_emul *e);
/* An emulator timed the run on the wall clock: its times are the host's. */
bool pp_emul_wall(const struct pp_emul *e);
/*
 * A string that lives as long as the process, one copy of each text (the
 * kernel view's scope and missing strings repeat in every result): NULL
 * for NULL or "", or when out of memory.
 */
const char *pp_intern(const char *s);
/*
 * Per op -> per op / div (an iteration made div operations); counts of
 * operations -> count * div.
 */
void pp_kside_scale(struct pp_kside *k, double div);

#endif /* PP_RESULTS_H */
