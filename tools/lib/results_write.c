// SPDX-License-Identifier: GPL-2.0
/*
 * A run as JSON (results.h; Documentation/results.rst): a document or a
 * file written atomically.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "prof_json.h"
#include "results.h"
#include "util.h"

static void set_num(json_t *o, const char *name, double v)
{
	if (isfinite(v))
		json_object_set_new(o, name, json_real(v));
}

/* Set only when recorded: an empty string is a read that failed. */
static void set_fact(json_t *o, const char *name, const char *v)
{
	if (v[0])
		json_object_set_new(o, name, json_string(v));
}

static void facts_to_json(json_t *o, const struct pp_meta *m)
{
	json_t *thp = json_object(), *mit;
	size_t i;

	set_fact(o, "cpufreq_governor", m->governor);
	set_fact(o, "kernel_cmdline", m->kcmdline);
	set_fact(thp, "enabled", m->thp_enabled);
	set_fact(thp, "defrag", m->thp_defrag);
	if (json_object_size(thp))
		json_object_set_new(o, "thp", thp);
	else
		json_decref(thp);
	if (!m->nmitig)
		return;
	mit = json_object();
	for (i = 0; i < m->nmitig; i++)
		json_object_set_new(mit, m->mitig[i].name, json_string(m->mitig[i].text));
	json_object_set_new(o, "mitigations", mit);
}

/* Written when recorded; null where it cannot be told. */
static void emul_to_json(json_t *o, const struct pp_emul *e)
{
	json_t *em;

	if (!e->recorded)
		return;
	em = json_object();
	json_object_set_new(em, "emulated", e->emulated < 0 ? json_null() :
			    json_boolean(e->emulated));
	json_object_set_new(em, "accelerator", e->accel[0] ? json_string(e->accel) :
			    json_null());
	json_object_set_new(em, "clock", json_string(pp_emul_clock(e)));
	set_fact(em, "stated_by", e->stated);
	set_fact(em, "detected", e->detected);
	json_object_set_new(o, "emulation", em);
}

static json_t *meta_to_json(const struct pp_meta *m)
{
	json_t *o = json_object(), *mhz = json_object(), *clk = json_object();
	json_t *opt = json_object();

	json_object_set_new(o, "perfprobe_version", json_string(m->version));
	json_object_set_new(o, "date", json_string(m->date));
	json_object_set_new(o, "hostname", json_string(m->hostname));
	json_object_set_new(o, "sysname", json_string(m->sysname));
	json_object_set_new(o, "kernel_release", json_string(m->release));
	if (m->label[0])
		json_object_set_new(o, "label", json_string(m->label));
	json_object_set_new(o, "kernel_version", json_string(m->kversion));
	json_object_set_new(o, "arch", json_string(m->machine));
	json_object_set_new(o, "cpu_model", json_string(m->cpu_model));
	json_object_set_new(o, "online_cpus", json_integer(m->online_cpus));
	json_object_set_new(o, "memory_bytes", json_integer((json_int_t)m->mem_bytes));

	if (m->mhz.trusted && m->mhz.mhz > 0)
		json_object_set_new(mhz, "mhz", json_real(m->mhz.mhz));
	else
		json_object_set_new(mhz, "mhz", json_null());
	set_num(mhz, "measured_mhz", m->mhz.mhz > 0 ? m->mhz.mhz : NAN);
	set_num(mhz, "system_mhz", m->mhz.system_mhz > 0 ? m->mhz.system_mhz : NAN);
	json_object_set_new(mhz, "trusted", json_boolean(m->mhz.trusted));
	json_object_set_new(mhz, "method", json_string(m->mhz.method));
	json_object_set_new(mhz, "note", json_string(m->mhz.note));
	json_object_set_new(o, "mhz", mhz);
	emul_to_json(o, &m->emul);

	json_object_set_new(o, "compiler", json_string(m->compiler));
	json_object_set_new(o, "command_line", json_string(m->cmdline));

	json_object_set_new(clk, "id", json_string(m->clock.id ? m->clock.id : ""));
	json_object_set_new(clk, "clocksource", json_string(m->clock.source));
	json_object_set_new(clk, "resolution_ns", json_real(m->clock.resolution_ns));
	json_object_set_new(clk, "read_cost_ns", json_real(m->clock.read_cost_ns));
	json_object_set_new(clk, "getres_ns", json_real(m->clock.getres_ns));
	json_object_set_new(o, "clock", clk);
	json_object_set_new(o, "loop_overhead_ns", json_real(m->loop_overhead_ns));

	json_object_set_new(opt, "mode", json_string(m->mode));
	json_object_set_new(opt, "samples", json_integer(m->samples));
	if (m->rounds > 1)
		json_object_set_new(opt, "rounds", json_integer(m->rounds));
	json_object_set_new(opt, "target_ms", json_real(m->target_ms));
	json_object_set_new(opt, "noise_cv_pct", json_real(m->noise_pct));
	json_object_set_new(opt, "pin_cpu", m->pin_cpu >= 0 ?
			    json_integer(m->pin_cpu) : json_null());
	json_object_set_new(o, "options", opt);
	facts_to_json(o, m);
	return o;
}

static json_t *kside_to_json(const struct pp_kside *k)
{
	json_t *o, *top, *prof;
	unsigned int i;

	if (!k->source[0])
		return NULL;
	o = json_object();
	json_object_set_new(o, "source", json_string(k->source));
	if (k->scope)
		json_object_set_new(o, "scope", json_string(k->scope));
	set_num(o, "kernel_ns_per_op", k->kernel_ns_per_op);
	set_num(o, "kernel_ns_err", k->kernel_ns_err);
	set_num(o, "window_probe_ns_per_op", k->window_probe_ns_per_op);
	set_num(o, "entry_exit_ns_per_op", k->entry_exit_ns_per_op);
	set_num(o, "probe_ns_per_op", k->probe_ns_per_op);
	set_num(o, "traced_ns_per_op", k->traced_ns_per_op);
	set_num(o, "traced_ops", k->traced_ops);
	set_num(o, "syscalls_per_op", k->syscalls_per_op);
	set_num(o, "faults_per_op", k->faults_per_op);
	set_num(o, "fault_ns_per_op", k->fault_ns_per_op);
	set_num(o, "switches_per_op", k->switches_per_op);
	set_num(o, "offcpu_ns_per_op", k->offcpu_ns_per_op);
	set_num(o, "copy_bytes_per_op", k->copy_bytes_per_op);
	set_num(o, "copy_ns_per_op", k->copy_ns_per_op);
	set_num(o, "probe2_ns_per_op", k->probe2_ns_per_op);
	if (k->ntop) {
		top = json_array();
		for (i = 0; i < k->ntop && i < PP_KSIDE_TOP; i++) {
			json_t *t = json_object();

			json_object_set_new(t, "name", json_string(k->top[i].name));
			set_num(t, "count_per_op", k->top[i].count_per_op);
			set_num(t, "ns_per_op", k->top[i].ns_per_op);
			json_array_append_new(top, t);
		}
		json_object_set_new(o, "top_syscalls", top);
	}
	prof = pp_prof_to_json(k);
	if (prof)
		json_object_set_new(o, "profile", prof);
	if (k->missing)
		json_object_set_new(o, "missing", json_string(k->missing));
	return o;
}

static json_t *result_to_json(const struct pp_result *r)
{
	json_t *o = json_object(), *s = json_array(), *st = json_object();
	json_t *cpus = json_object(), *k;
	size_t i;

	json_object_set_new(o, "key", json_string(r->key));
	json_object_set_new(o, "value", json_real(r->value));
	json_object_set_new(o, "unit", json_string(r->unit));
	json_object_set_new(o, "direction", json_string(r->dir == PP_HIGHER_IS_BETTER ?
							 "higher" : "lower"));
	if (r->kind != PP_KIND_MEASURED)
		json_object_set_new(o, "kind", json_string(pp_kind_name(r->kind)));
	if (r->spread_pct > 0)
		json_object_set_new(o, "spread_pct", json_real(r->spread_pct));
	for (i = 0; i < r->nsamples; i++)
		json_array_append_new(s, json_real(r->samples[i]));
	json_object_set_new(o, "samples", s);
	if (r->nrounds > 1) {
		json_t *rd = json_array();

		for (i = 0; i < r->nrounds; i++)
			json_array_append_new(rd, json_real(r->rounds[i]));
		json_object_set_new(o, "rounds", rd);
	}
	json_object_set_new(st, "n", json_integer((json_int_t)r->st.n));
	json_object_set_new(st, "min", json_real(r->st.min));
	json_object_set_new(st, "max", json_real(r->st.max));
	json_object_set_new(st, "mean", json_real(r->st.mean));
	json_object_set_new(st, "median", json_real(r->st.median));
	json_object_set_new(st, "stddev", json_real(r->st.stddev));
	json_object_set_new(st, "cv_pct", json_real(r->st.cv_pct));
	json_object_set_new(o, "stats", st);
	json_object_set_new(o, "noisy", json_boolean(r->noisy));
	json_object_set_new(o, "iterations", json_integer((json_int_t)r->iterations));
	json_object_set_new(cpus, "first", r->cpu_first >= 0 ?
			    json_integer(r->cpu_first) : json_null());
	json_object_set_new(cpus, "last", r->cpu_last >= 0 ?
			    json_integer(r->cpu_last) : json_null());
	json_object_set_new(o, "cpu", cpus);
	k = kside_to_json(&r->k);
	if (k)
		json_object_set_new(o, "kernel", k);
	if (r->imported)
		json_object_set_new(o, "imported_from", json_string(r->imported));
	return o;
}

static json_t *notes_to_json(const struct pp_note *s, size_t n, const char *field)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "name", json_string(s[i].name));
		json_object_set_new(o, field, json_string(s[i].reason));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *run_to_json(const struct pp_run *run)
{
	json_t *o = json_object(), *res = json_array();
	size_t i;

	json_object_set_new(o, "format", json_string(PP_FORMAT_NAME));
	json_object_set_new(o, "schema_version", json_integer(PP_SCHEMA_VERSION));
	json_object_set_new(o, "meta", meta_to_json(&run->meta));
	for (i = 0; i < run->nresults; i++)
		json_array_append_new(res, result_to_json(&run->results[i]));
	json_object_set_new(o, "results", res);
	json_object_set_new(o, "skipped", notes_to_json(run->skips, run->nskips, "reason"));
	json_object_set_new(o, "failed", notes_to_json(run->fails, run->nfails, "reason"));
	if (run->ninfos)
		json_object_set_new(o, "info", notes_to_json(run->infos, run->ninfos, "text"));
	if (run->interrupted)
		json_object_set_new(o, "interrupted", json_true());
	return o;
}

char *pp_run_to_string(const struct pp_run *run)
{
	json_t *o = run_to_json(run);
	char *s = json_dumps(o, JSON_INDENT(2) | JSON_REAL_PRECISION(10));

	json_decref(o);
	return s;
}

int pp_run_save(const struct pp_run *run, const char *path)
{
	char *s = pp_run_to_string(run);
	size_t len;
	int err;

	if (!s)
		return -ENOMEM;
	len = strlen(s);
	s[len++] = '\n';	/* json_dumps leaves room: replaces the NUL */
	err = pp_write_file_atomic(path, s, len);
	free(s);
	return err;
}
