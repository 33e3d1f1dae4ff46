// SPDX-License-Identifier: GPL-2.0
/*
 * The results of LAVA jobs as perfprobe runs (perfprobe import lava,
 * Documentation/lava.rst).  What a job leaves, in any of these files:
 *
 *  - the dispatcher's log (lava-run's records, one a line, as the worker
 *    keeps them or `lavacli jobs logs --raw` gives them):
 *    {"dt": ..., "lvl": "results", "msg": {"definition": ..., "case": ...,
 *    "result": ..., "measurement": ..., "units": ...}} is a test case;
 *    "target" lines carry what the device printed, among them the run's
 *    JSON between PERFPROBE-ARTIFACT-BEGIN and -END lines, base64;
 *  - a LAVA server's results export (/results/JOB/yaml): a YAML list of
 *    test cases, name, suite, result, measurement, unit;
 *  - the job definition (job.yaml): its metadata perfprobe.kernel and
 *    perfprobe.device name the runs of the results without an artifact;
 *  - a perfprobe run's JSON (an artifact downloaded beside them).
 *
 * A test suite (one test definition of a job) whose measured cases an
 * artifact holds, each with the same value, is that artifact's run, with
 * every sample; one without is a run of single-valued results (the
 * measurements, in the units and directions perfprobe declares for their
 * keys).  Test set "compare" (compare --format lava's verdicts) and
 * LAVA's own cases are not figures.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "report/import.h"
#include "util.h"

#define LAVA_MARK_BEGIN	"PERFPROBE-ARTIFACT-BEGIN"
#define LAVA_MARK_END	"PERFPROBE-ARTIFACT-END"
#define LAVA_FILE_MAX	(256u << 20)

static void lnote(struct pp_import *im, unsigned int line, const char *fmt, ...)
	__printf(3, 4);

static void lnote(struct pp_import *im, unsigned int line, const char *fmt, ...)
{
	va_list ap;

	im->unknown++;
	if (im->nnotes == PP_IMPORT_NOTES)
		return;
	im->notes[im->nnotes].line = line;
	va_start(ap, fmt);
	vsnprintf(im->notes[im->nnotes].text, sizeof(im->notes[0].text), fmt, ap);
	va_end(ap);
	im->nnotes++;
}

/* --- what the files said --- */

static int add_case(struct pp_lava *lv, const struct pp_lava_case *c)
{
	if (lv->ncases == lv->capcases) {
		size_t cap = lv->capcases ? 2 * lv->capcases : 64;
		struct pp_lava_case *n = realloc(lv->cases, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		lv->cases = n;
		lv->capcases = cap;
	}
	lv->cases[lv->ncases++] = *c;
	return 0;
}

static const char *jtext(json_t *o, const char *name)
{
	json_t *v = json_object_get(o, name);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* A measurement: a number, or its text ("0.21", LAVA's exports quote it). */
static bool parse_measure(const char *s, double *v)
{
	char *end;

	if (!s || !*s)
		return false;
	errno = 0;
	*v = strtod(s, &end);
	return !errno && end != s && !*end && isfinite(*v);
}

/* One "results" record of the dispatcher's log. */
static int log_result(struct pp_import *im, struct pp_lava *lv, json_t *msg,
		      unsigned int ln)
{
	struct pp_lava_case c = { .line = ln, .file = im->file };
	json_t *m = json_object_get(msg, "measurement");
	const char *def = jtext(msg, "definition"), *name = jtext(msg, "case");
	const char *res = jtext(msg, "result"), *set = jtext(msg, "set");
	const char *units = jtext(msg, "units");

	if (!def || !name || !res)
		return 0;
	if (!strcmp(def, "lava"))	/* the dispatcher's own actions */
		return 0;
	pp_strlcpy(c.suite, def, sizeof(c.suite));
	pp_strlcpy(c.name, name, sizeof(c.name));
	pp_strlcpy(c.result, res, sizeof(c.result));
	if (set)
		pp_strlcpy(c.set, set, sizeof(c.set));
	if (units)
		pp_strlcpy(c.units, units, sizeof(c.units));
	if (json_is_number(m)) {
		c.value = json_number_value(m);
		c.measured = isfinite(c.value);
	} else if (json_is_string(m)) {
		c.measured = parse_measure(json_string_value(m), &c.value);
	}
	return add_case(lv, &c);
}

static int add_artifact(struct pp_lava *lv, char *text, size_t len, const char *file,
			unsigned int line)
{
	struct pp_lava_artifact *a;

	if (lv->nart == lv->capart) {
		size_t cap = lv->capart ? 2 * lv->capart : 8;

		a = realloc(lv->art, cap * sizeof(*a));
		if (!a)
			return -ENOMEM;
		lv->art = a;
		lv->capart = cap;
	}
	a = &lv->art[lv->nart++];
	memset(a, 0, sizeof(*a));
	a->text = text;
	a->len = len;
	a->file = file;
	a->line = line;
	return 0;
}

static int b64_val(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* Base64 text (padding, no white space) to bytes, into a new buffer. */
static int b64_decode(const char *s, size_t n, char **out, size_t *outlen)
{
	char *b = malloc(n / 4 * 3 + 4);
	unsigned int acc = 0, bits = 0;
	size_t i, len = 0;

	if (!b)
		return -ENOMEM;
	for (i = 0; i < n && s[i] != '='; i++) {
		int v = b64_val((unsigned char)s[i]);

		if (v < 0) {
			free(b);
			return -EILSEQ;
		}
		acc = (acc << 6) | (unsigned int)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			b[len++] = (char)((acc >> bits) & 0xff);
		}
	}
	b[len] = '\0';
	*out = b;
	*outlen = len;
	return 0;
}

/* What the device printed: an artifact between its marker lines. */
struct collect {
	char *b64;
	size_t len, cap;
	bool on;
	unsigned int line;
};

static int target_line(struct pp_import *im, struct pp_lava *lv, struct collect *co,
		       const char *s, unsigned int ln)
{
	size_t n, tlen;
	char *text = NULL;
	int ret;

	s += strspn(s, " \t");
	if (!strncmp(s, LAVA_MARK_BEGIN, strlen(LAVA_MARK_BEGIN))) {
		if (co->on)
			lnote(im, co->line, "an artifact with no end line: not imported");
		co->on = true;
		co->len = 0;
		co->line = ln;
		return 0;
	}
	if (!co->on)
		return 0;
	if (!strncmp(s, LAVA_MARK_END, strlen(LAVA_MARK_END))) {
		co->on = false;
		ret = b64_decode(co->b64 ? co->b64 : "", co->len, &text, &tlen);
		if (ret == -EILSEQ) {
			lnote(im, co->line, "an artifact that is not base64: not imported");
			return 0;
		}
		if (!ret)
			ret = add_artifact(lv, text, tlen, im->file, co->line);
		if (ret)
			free(text);
		return ret;
	}
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	if (!n || strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=") != n) {
		lnote(im, ln, "a line in an artifact that is not base64 (a shell's trace, "
		      "a kernel message): skipped");
		return 0;
	}
	if (co->len + n + 1 > co->cap) {
		size_t cap = (co->len + n + 1) * 2;
		char *b = realloc(co->b64, cap);

		if (!b)
			return -ENOMEM;
		co->b64 = b;
		co->cap = cap;
	}
	memcpy(co->b64 + co->len, s, n);
	co->len += n;
	return 0;
}

/* "key: value" of YAML's block style, the value unquoted; false if none. */
static bool yaml_pair(char *s, char **key, char **val)
{
	char *colon = strstr(s, ": "), *v, *e;

	if (!colon) {
		size_t n = strlen(s);

		if (!n || s[n - 1] != ':')
			return false;
		s[n - 1] = '\0';
		*key = s;
		*val = s + n - 1;
		return true;
	}
	*colon = '\0';
	*key = s;
	v = colon + 2;
	v += strspn(v, " ");
	e = v + strlen(v);
	while (e > v && (e[-1] == ' ' || e[-1] == '\r'))
		*--e = '\0';
	if ((*v == '\'' || *v == '"') && e > v + 1 && e[-1] == *v) {
		char q = *v, *r, *w;

		e[-1] = '\0';
		for (r = w = ++v; *r; r++, w++) {
			if (q == '\'' && r[0] == '\'' && r[1] == '\'')
				r++;
			else if (q == '"' && r[0] == '\\' && r[1])
				r++;
			*w = *r;
		}
		*w = '\0';
	}
	*val = v;
	return true;
}

/* A LAVA server's results export: a list of test cases in block style. */
static int results_yaml(struct pp_import *im, struct pp_lava *lv, char **lines, size_t n)
{
	struct pp_lava_case c;
	bool in = false;
	size_t i;
	int ret;

	for (i = 0; i <= n; i++) {
		char *l = i < n ? lines[i] : NULL, *key, *val;
		size_t ind;

		if (l && (!*l || *l == '#'))
			continue;
		if (!l || !strncmp(l, "- ", 2)) {
			if (in && c.suite[0] && c.name[0] && strcmp(c.suite, "lava")) {
				ret = add_case(lv, &c);
				if (ret)
					return ret;
			}
			if (!l)
				break;
			memset(&c, 0, sizeof(c));
			c.line = (unsigned int)i + 1;
			c.file = im->file;
			in = true;
			l += 2;
			ind = 2;
		} else {
			ind = strspn(l, " ");
			l += ind;
		}
		if (!in || !yaml_pair(l, &key, &val))
			continue;
		if (ind == 2) {
			if (!strcmp(key, "name"))
				pp_strlcpy(c.name, val, sizeof(c.name));
			else if (!strcmp(key, "suite"))
				pp_strlcpy(c.suite, val, sizeof(c.suite));
			else if (!strcmp(key, "result"))
				pp_strlcpy(c.result, val, sizeof(c.result));
			else if (!strcmp(key, "unit"))
				pp_strlcpy(c.units, val, sizeof(c.units));
			else if (!strcmp(key, "measurement"))
				c.measured = parse_measure(val, &c.value);
			else if (!strcmp(key, "job"))
				pp_strlcpy(c.job, val, sizeof(c.job));
		} else if (!strcmp(key, "set")) {
			pp_strlcpy(c.set, val, sizeof(c.set));
		}
	}
	return 0;
}

/* The job definition: its metadata's perfprobe.kernel and perfprobe.device. */
static void job_yaml(struct pp_lava *lv, char **lines, size_t n)
{
	bool meta = false;
	size_t i;

	for (i = 0; i < n; i++) {
		char *l = lines[i], *key, *val;

		if (*l && *l != ' ')
			meta = !strncmp(l, "metadata:", 9);
		if (!meta || *l != ' ')
			continue;
		l += strspn(l, " ");
		if (!yaml_pair(l, &key, &val))
			continue;
		if (!strcmp(key, "perfprobe.kernel"))
			pp_strlcpy(lv->kernel, val, sizeof(lv->kernel));
		else if (!strcmp(key, "perfprobe.device"))
			pp_strlcpy(lv->device, val, sizeof(lv->device));
	}
}

/* The file's lines, NUL-ended in place; *lines into buf. */
static int slurp(const char *path, char **buf, size_t *len, char ***lines, size_t *n)
{
	size_t r, i, nl = 0;
	char *b = NULL, **l = NULL;
	int ret = pp_read_text(path, LAVA_FILE_MAX, &b, &r);

	if (ret == -EFBIG)
		ret = -EILSEQ;
	if (ret)
		return ret;
	for (i = 0; i < r; i++)
		nl += b[i] == '\n';
	l = calloc(nl + 2, sizeof(*l));
	if (!l) {
		ret = -ENOMEM;
		goto out;
	}
	*n = 0;
	for (i = 0; i < r; i++) {
		if (!i || b[i - 1] == '\0')
			l[(*n)++] = b + i;
		if (b[i] == '\n')
			b[i] = '\0';
	}
	*buf = b;
	*len = r;
	*lines = l;
	b = NULL;
	l = NULL;
out:
	free(l);
	free(b);
	return ret;
}

/*
 * A record of the dispatcher's log is YAML's flow style with every
 * scalar double-quoted: JSON, but for the non-specific tag "! " that
 * PyYAML writes before a measurement's text.  The tags dropped, in place.
 */
static void drop_tags(char *s)
{
	bool str = false;
	char *w = s;

	for (; *s; s++) {
		if (str) {
			if (*s == '\\' && s[1])
				*w++ = *s++;
			else if (*s == '"')
				str = false;
		} else if (*s == '"') {
			str = true;
		} else if (*s == '!' && s[1] == ' ') {
			s++;
			continue;
		}
		*w++ = *s;
	}
	*w = '\0';
}

/* A perfprobe run's JSON as a file: an artifact too. */
static bool is_run_json(const char *buf)
{
	buf += strspn(buf, " \t\r\n");
	return *buf == '{' && strstr(buf, "\"schema_version\"") && strstr(buf, "\"results\"");
}

static int lava_file(struct pp_import *im, struct pp_lava *lv, const char *path)
{
	char *buf = NULL, **lines = NULL, *copy;
	struct collect co = { 0 };
	size_t len = 0, n = 0, i;
	bool log = false;
	int ret;

	im->file = path;
	ret = slurp(path, &buf, &len, &lines, &n);
	if (ret)
		return ret;
	if (is_run_json(buf)) {
		copy = strdup(buf);
		ret = copy ? add_artifact(lv, copy, len, path, 1) : -ENOMEM;
		if (ret)
			free(copy);
		goto out;
	}
	for (i = 0; i < n && !ret; i++) {
		char *l = lines[i];
		json_t *rec, *msg;
		const char *lvl;

		if (!strncmp(l, "- {", 3))
			l += 2;
		if (strncmp(l, "{\"dt\"", 5))
			continue;
		log = true;
		drop_tags(l);
		rec = json_loads(l, JSON_DISABLE_EOF_CHECK, NULL);
		if (!rec) {
			lnote(im, (unsigned int)i + 1, "a log record that is not JSON: skipped");
			continue;
		}
		lvl = jtext(rec, "lvl");
		msg = json_object_get(rec, "msg");
		if (lvl && !strcmp(lvl, "results") && json_is_object(msg))
			ret = log_result(im, lv, msg, (unsigned int)i + 1);
		else if (lvl && (!strcmp(lvl, "target") || !strcmp(lvl, "feedback")) &&
			 json_is_string(msg))
			ret = target_line(im, lv, &co, json_string_value(msg), (unsigned int)i + 1);
		json_decref(rec);
	}
	if (!ret && co.on)
		lnote(im, co.line, "an artifact with no end line: not imported");
	if (!log && !ret) {
		bool job = false, list = false;

		for (i = 0; i < n; i++) {
			job |= !strncmp(lines[i], "device_type:", 12);
			list |= !strncmp(lines[i], "- ", 2) && strchr(lines[i], ':');
		}
		if (job)
			job_yaml(lv, lines, n);
		else if (list)
			ret = results_yaml(im, lv, lines, n);
		else
			ret = -EPROTO;
	}
out:
	free(co.b64);
	free(lines);
	free(buf);
	return ret;
}

int pp_lava_read(struct pp_import *im, struct pp_lava *lv, const char *path)
{
	struct dirent **ents;
	struct stat st;
	int ret = 0, nent, i, nread = 0;

	if (stat(path, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return lava_file(im, lv, path);
	nent = scandir(path, &ents, NULL, alphasort);
	if (nent < 0)
		return -errno;
	for (i = 0; i < nent; i++) {
		char p[PATH_MAX];
		const char *keep;
		int r;

		if (ret || ents[i]->d_name[0] == '.')
			goto next;
		if ((size_t)snprintf(p, sizeof(p), "%s/%s", path, ents[i]->d_name) >= sizeof(p)) {
			ret = -ENAMETOOLONG;
			goto next;
		}
		if (stat(p, &st) || !S_ISREG(st.st_mode))
			goto next;
		/* a case keeps its file's name for the notes: for good */
		keep = pp_intern(p);
		r = keep ? lava_file(im, lv, keep) : -ENOMEM;
		if (!r)
			nread++;
		else if (r != -EPROTO && r != -EILSEQ)
			ret = r;
next:
		free(ents[i]);
	}
	free(ents);
	im->file = path;
	return ret ? ret : nread ? 0 : -EPROTO;
}

/* --- the runs --- */

/* The artifact whose run holds every measured case of the suite alike. */
static struct pp_lava_artifact *artifact_of(struct pp_lava *lv, const char *suite)
{
	size_t a, i;

	for (a = 0; a < lv->nart; a++) {
		struct pp_lava_artifact *art = &lv->art[a];
		bool all = art->loaded && !art->used, any = false;

		for (i = 0; all && i < lv->ncases; i++) {
			const struct pp_lava_case *c = &lv->cases[i];
			const struct pp_result *r;

			if (strcmp(c->suite, suite) || c->set[0] || !c->measured)
				continue;
			r = pp_run_find(&art->run, c->name);
			all = r && fabs(r->value - c->value) <= 1e-6 * fabs(c->value) + 1e-12;
			any = true;
		}
		if (all && any)
			return art;
	}
	return NULL;
}

/* Each artifact's text as a run: written to a temporary file and loaded. */
static int load_artifacts(struct pp_import *im, struct pp_lava *lv)
{
	char tmp[PATH_MAX], err[512];
	const char *dir = getenv("TMPDIR");
	size_t a;
	int fd, ret;

	for (a = 0; a < lv->nart; a++) {
		struct pp_lava_artifact *art = &lv->art[a];

		snprintf(tmp, sizeof(tmp), "%s/perfprobe-lava.XXXXXX", dir && *dir ? dir : "/tmp");
		fd = mkstemp(tmp);
		if (fd < 0)
			return -errno;
		ret = write(fd, art->text, art->len) == (ssize_t)art->len ? 0 : -EIO;
		close(fd);
		pp_run_init(&art->run);
		if (!ret)
			ret = pp_run_load(&art->run, tmp, err, sizeof(err));
		unlink(tmp);
		if (ret == -ENOMEM)
			return ret;
		if (ret) {
			pp_run_free(&art->run);
			im->file = art->file;
			lnote(im, art->line, "an artifact that is not a perfprobe run: not imported");
			continue;
		}
		art->loaded = true;
	}
	return 0;
}

/* The run of one suite's measurements alone: one sample each. */
static int suite_run(struct pp_import *im, struct pp_lava *lv, const char *suite,
		     struct pp_run *run)
{
	size_t i;

	for (i = 0; i < lv->ncases; i++) {
		const struct pp_lava_case *c = &lv->cases[i];
		const struct pp_key_decl *d;
		struct pp_result *r;
		char src[PATH_MAX + 16];

		if (strcmp(c->suite, suite) || c->set[0] || !c->measured)
			continue;
		im->file = c->file;
		d = pp_key_valid(c->name) ? pp_decl_of(c->name) : NULL;
		if (!d) {
			lnote(im, c->line, "%s = %g: no perfprobe key", c->name, c->value);
			continue;
		}
		if (c->units[0] && strcmp(c->units, d->unit)) {
			lnote(im, c->line, "%s = %g %s: perfprobe's unit is %s", c->name,
			      c->value, c->units, d->unit);
			continue;
		}
		if (pp_run_find(run, c->name)) {
			lnote(im, c->line, "%s: given again in %s", c->name, suite);
			continue;
		}
		r = pp_run_add(run, c->name, d->unit, d->dir, &c->value, 1);
		if (!r)
			return -ENOMEM;
		r->kind = d->kind;
		snprintf(src, sizeof(src), "%s:%u", c->file, c->line);
		r->imported = pp_intern(src);
		im->imported++;
	}
	return 0;
}

static void suite_meta(struct pp_lava *lv, struct pp_run *run, const char *suite)
{
	struct pp_meta *m = &run->meta;
	const char *job = "";
	size_t i;

	for (i = 0; i < lv->ncases && !job[0]; i++)
		if (!strcmp(lv->cases[i].suite, suite))
			job = lv->cases[i].job;
	pp_strlcpy(m->release, lv->kernel[0] ? lv->kernel : "unknown", sizeof(m->release));
	pp_strlcpy(m->hostname, lv->device[0] ? lv->device : "lava", sizeof(m->hostname));
	if (lv->kernel[0] && lv->device[0])
		snprintf(m->label, sizeof(m->label), "%.30s+%.30s", lv->kernel, lv->device);
	else if (job[0])
		snprintf(m->label, sizeof(m->label), "lava-job-%.40s", job);
	else
		pp_strlcpy(m->label, "lava", sizeof(m->label));
	if (!pp_label_valid(m->label))
		pp_strlcpy(m->label, "lava", sizeof(m->label));
}

int pp_lava_runs(struct pp_import *im, struct pp_lava *lv)
{
	size_t i, j;
	int ret;

	ret = load_artifacts(im, lv);
	if (ret)
		return ret;
	for (i = 0; i < lv->ncases; i++) {
		const char *suite = lv->cases[i].suite;
		struct pp_lava_artifact *art;
		struct pp_run *run;
		bool seen = false, measured = false;

		for (j = 0; j < i && !seen; j++)
			seen = !strcmp(lv->cases[j].suite, suite);
		for (j = i; j < lv->ncases && !measured; j++)
			measured = !strcmp(lv->cases[j].suite, suite) && !lv->cases[j].set[0] &&
				   lv->cases[j].measured;
		if (seen || !measured)
			continue;
		if (im->nruns == PP_IMPORT_RUNS)
			return -E2BIG;
		run = &im->runs[im->nruns];
		snprintf(im->names[im->nruns], sizeof(im->names[0]), "%s", suite);
		art = artifact_of(lv, suite);
		if (art) {
			*run = art->run;	/* the run moves to im */
			art->used = true;
			art->loaded = false;
			for (j = 0; j < run->nresults; j++)
				im->imported++;
			im->nruns++;
			lv->nsamples++;
			continue;
		}
		pp_run_init(run);
		im->nruns++;
		suite_meta(lv, run, suite);
		ret = suite_run(im, lv, suite, run);
		if (ret)
			return ret;
	}
	for (i = 0; i < lv->nart; i++) {
		if (!lv->art[i].loaded)
			continue;
		im->file = lv->art[i].file;
		lnote(im, lv->art[i].line, "an artifact whose run no test suite's measurements "
		      "match: not imported");
	}
	return 0;
}

void pp_lava_free(struct pp_lava *lv)
{
	size_t a;

	for (a = 0; a < lv->nart; a++) {
		if (lv->art[a].loaded)
			pp_run_free(&lv->art[a].run);
		free(lv->art[a].text);
	}
	free(lv->art);
	free(lv->cases);
	memset(lv, 0, sizeof(*lv));
}
