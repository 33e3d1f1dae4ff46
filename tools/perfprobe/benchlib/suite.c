// SPDX-License-Identifier: GPL-2.0
/*
 * The external CPU suites: finding a suite's program, running it with
 * its output captured, and its figures reported.  See suite.h.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "benchlib/ipc.h"
#include "benchlib/suite.h"
#include "util.h"

#define MAX_ATTEMPTS	4

int pp_suite_bad(struct pp_suite_out *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out->why, sizeof(out->why), fmt, ap);
	va_end(ap);
	return -EPROTO;
}

int pp_suite_fig(struct pp_suite_out *out, const char *key, double v)
{
	if (!isfinite(v) || v <= 0)
		return pp_suite_bad(out, "%s: %g is not a figure", key, v);
	if (out->n == PP_SUITE_FIGS)
		return pp_suite_bad(out, "more than %d figures", PP_SUITE_FIGS);
	pp_strlcpy(out->fig[out->n].key, key, sizeof(out->fig[0].key));
	out->fig[out->n++].value = v;
	return 0;
}

void pp_suite_env(const char *bench, char *buf, size_t size)
{
	size_t i, n = (size_t)snprintf(buf, size, "PERFPROBE_");

	for (i = 0; bench[i] && n + 1 < size; i++)
		buf[n++] = (char)toupper((unsigned char)bench[i]);
	if (n < size)
		buf[n] = '\0';
}

void pp_suite_opt(const char *bench, char *buf, size_t size)
{
	size_t i;

	for (i = 0; bench[i] && i + 1 < size; i++)
		buf[i] = bench[i] == '_' ? '-' : bench[i];
	if (size)
		buf[i < size ? i : size - 1] = '\0';
}

static bool is_exe(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* The first of s->progs in PATH, into buf: true when found. */
static bool find_in_path(const struct pp_suite *s, char *buf, size_t size)
{
	const char *path = getenv("PATH"), *p, *q, *end;

	for (p = s->progs; p && *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ' ');
		for (q = path; q && *q; q = *strchrnul(q, ':') ? strchrnul(q, ':') + 1 : "") {
			int dlen = (int)(strchrnul(q, ':') - q);

			snprintf(buf, size, "%.*s/%.*s", dlen ? dlen : 1, dlen ? q : ".",
				 (int)(end - p), p);
			if (is_exe(buf))
				return true;
		}
	}
	return false;
}

/* The names s->progs lists, "a, b or c", into buf. */
static void names_said(const struct pp_suite *s, char *buf, size_t size)
{
	const char *p, *end;
	size_t n = 0, k = 0, total = 0;

	for (p = s->progs; *p; p = *end ? end + 1 : end, total++)
		end = strchrnul(p, ' ');
	buf[0] = '\0';
	for (p = s->progs; *p && n < size; p = *end ? end + 1 : end, k++) {
		end = strchrnul(p, ' ');
		n += (size_t)snprintf(buf + n, size - n, "%s%.*s",
				      !k ? "" : k + 1 == total ? " or " : ", ", (int)(end - p), p);
	}
}

/*
 * Where the suite is: the path given (--<name>, $PERFPROBE_<NAME>), else
 * its program in PATH.  0 with path; else the value of pp_skip().
 */
static int locate(struct pp_ctx *ctx, const char *bench, const struct pp_suite *s,
		  char *path, size_t size)
{
	char env[64], opt[64], names[128];
	const char *given;

	pp_suite_env(bench, env, sizeof(env));
	pp_suite_opt(bench, opt, sizeof(opt));
	given = getenv(env);
	if (given && *given) {
		pp_strlcpy(path, given, size);
		if (is_exe(path) || (s->tree && is_dir(path)))
			return 0;
		return pp_skip(ctx, NULL, "%s %s (--%s, $%s): %s", s->title, given, opt, env,
			       s->tree ? "not a built source tree or a program" :
			       "not an executable file");
	}
	if (s->progs && find_in_path(s, path, size))
		return 0;
	if (!s->progs)
		return pp_skip(ctx, NULL, "%s not given: give its built source tree with "
			       "--%s DIR or $%s", s->title, opt, env);
	names_said(s, names, sizeof(names));
	return pp_skip(ctx, NULL, "%s not found: no %s in PATH; give its program with "
		       "--%s PATH or $%s", s->title, names, opt, env);
}

struct child {
	pid_t pid;
	int out;			/* its stdout and stderr */
	char *text;
	size_t len;
};

/* fork + exec, stdin from a pipe given c->input, stdout and stderr into ch->out. */
static int spawn(const struct pp_suite *s, const char *prog, const char *cwd,
		 const struct pp_suite_cmd *c, struct child *ch)
{
	const char *argv[PP_SUITE_ARGS + 4];
	struct sigaction old_pipe;
	int in[2], out[2];
	unsigned int n = 0, i;

	if (s->tree) {
		argv[n++] = "make";
		argv[n++] = "-C";
	}
	argv[n++] = prog;
	for (i = 0; c->argv[i] && i < PP_SUITE_ARGS; i++)
		argv[n++] = c->argv[i];
	argv[n] = NULL;
	if (pipe2(in, O_CLOEXEC))
		return -errno;
	if (pipe2(out, O_CLOEXEC)) {
		close(in[0]);
		close(in[1]);
		return -errno;
	}
	ch->pid = fork();
	if (ch->pid < 0) {
		int err = -errno;

		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		return err;
	}
	if (!ch->pid) {
		setpgid(0, 0);	/* its own group: killed with whatever it starts */
		if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0 || dup2(out[1], 2) < 0 ||
		    chdir(cwd))
			_exit(126);
		if (s->tree && is_dir(prog))
			execvp("make", (char **)argv);
		else
			execv(prog, (char **)argv + (s->tree ? 2 : 0));
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	/*
	 * A line or two: fits the pipe, and what it does not read is its
	 * business; a program that exits without reading (not the suite)
	 * makes the write EPIPE, not a SIGPIPE that would kill perfprobe.
	 */
	pp_sigpipe_ignore(&old_pipe);
	n = (unsigned int)write(in[1], c->input, strlen(c->input));
	(void)n;
	pp_sigpipe_restore(&old_pipe);
	close(in[1]);
	ch->out = out[0];
	return 0;
}

/* Read until EOF, the timeout or an interrupt: 0, -ETIME, -EINTR, -EFBIG, -errno. */
static int collect(const struct pp_suite *s, struct child *ch)
{
	struct timespec t0, t;
	size_t cap = 65536;
	int ret = 0;

	ch->text = malloc(cap + 1);
	if (!ch->text)
		return -ENOMEM;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd p = { .fd = ch->out, .events = POLLIN };
		ssize_t r;

		if (pp_interrupted) {
			ret = -EINTR;
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec >= (time_t)s->timeout_s) {
			ret = -ETIME;
			break;
		}
		if (poll(&p, 1, 500) <= 0)
			continue;
		if (ch->len == cap) {
			char *bigger;

			if (cap >= PP_SUITE_OUT_MAX) {
				ret = -EFBIG;
				break;
			}
			bigger = realloc(ch->text, 2 * cap + 1);
			if (!bigger) {
				ret = -ENOMEM;
				break;
			}
			ch->text = bigger;
			cap *= 2;
		}
		r = read(ch->out, ch->text + ch->len, cap - ch->len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			ret = r < 0 ? -errno : 0;
			break;
		}
		ch->len += (size_t)r;
	}
	ch->text[ch->len] = '\0';
	return ret;
}

/* The last non-empty line of text, for a message. */
static void last_line(const char *text, char *buf, size_t size)
{
	const char *end = text + strlen(text), *p;

	while (end > text && isspace((unsigned char)end[-1]))
		end--;
	for (p = end; p > text && p[-1] != '\n'; p--)
		;
	snprintf(buf, size, "%.*s", (int)(end - p), p);
}

/* One run of the program: 0 with the figures in out, or the value of pp_fail(). */
static int run_once(struct pp_ctx *ctx, const char *bench, const struct pp_suite *s,
		    const char *prog, unsigned int attempt, struct pp_suite_out *out)
{
	char cwd[PATH_MAX], line[160];
	struct pp_suite_cmd c;
	struct child ch = { .pid = -1, .out = -1 };
	int ret, status = 0;

	if (s->in_exe_dir) {
		const char *slash = strrchr(prog, '/');

		snprintf(cwd, sizeof(cwd), "%.*s", slash ? (int)(slash - prog) : 1,
			 slash ? (slash == prog ? "/" : prog) : ".");
	} else if (pp_tmp_dir(ctx, cwd, sizeof(cwd))) {
		return pp_fail(ctx, "%s: cannot make a temporary directory", bench);
	}
	memset(&c, 0, sizeof(c));
	s->cmd(ctx, attempt, &c);
	pp_progress(ctx, "%s: running %s%s%s", bench, s->tree ? "make -C " : "", prog,
		    c.input[0] ? " (and its input)" : "");
	ret = spawn(s, prog, cwd, &c, &ch);
	if (ret)
		return pp_fail(ctx, "%s: cannot start %s: %s", bench, prog, strerror(-ret));
	ret = collect(s, &ch);
	if (ret)
		kill(-ch.pid, SIGKILL);
	close(ch.out);
	while (waitpid(ch.pid, &status, 0) < 0 && errno == EINTR)
		;
	if (ret == -EINTR)	/* the run says so (pp_interrupted) */
		ret = -1;
	else if (ret == -ETIME)
		ret = pp_fail(ctx, "%s: %s did not finish in %u s: killed", bench, prog,
			      s->timeout_s);
	else if (ret)
		ret = pp_fail(ctx, "%s: reading %s's output: %s", bench, prog, strerror(-ret));
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		ret = pp_fail(ctx, "%s: cannot execute %s", bench, s->tree ? "make" : prog);
	else if (WIFSIGNALED(status))
		ret = pp_fail(ctx, "%s: %s killed by signal %d", bench, prog, WTERMSIG(status));
	/*
	 * Its exit status is not its verdict: Dhrystone's main() returns
	 * nothing.  Its output is, and the status explains output that is not.
	 */
	else if (s->parse(ch.text, out) && !out->again) {
		last_line(ch.text, line, sizeof(line));
		if (WEXITSTATUS(status))
			ret = pp_fail(ctx, "%s: %s exited with status %d: %s", bench, prog,
				      WEXITSTATUS(status), line[0] ? line : "(no output)");
		else
			ret = pp_fail(ctx, "%s: %s's output: %s", bench, prog, out->why);
	}
	free(ch.text);
	return ret;
}

int pp_suite_run(struct pp_ctx *ctx, const char *bench, const struct pp_suite *s)
{
	struct pp_suite_out *out;
	char prog[PATH_MAX];
	unsigned int a, i;
	int ret;

	if (s->display && !getenv("DISPLAY") && !getenv("WAYLAND_DISPLAY"))
		return pp_skip(ctx, NULL, "%s needs a display: DISPLAY and WAYLAND_DISPLAY "
			       "are not set", s->title);
	ret = locate(ctx, bench, s, prog, sizeof(prog));
	if (ret)
		return ret;
	out = calloc(1, sizeof(*out));
	if (!out)
		return pp_fail(ctx, "%s: out of memory", bench);
	for (a = 0; a < MAX_ATTEMPTS; a++) {
		memset(out, 0, sizeof(*out));
		ret = run_once(ctx, bench, s, prog, a, out);
		if (ret || !out->again)
			break;
		pp_progress(ctx, "%s: %s asks for more work: again", bench, prog);
	}
	if (!ret && out->again)
		ret = pp_fail(ctx, "%s: %s: %s", bench, prog, out->why);
	if (!ret && s->finish)
		ret = s->finish(ctx, out);
	if (!ret)
		pp_info(ctx, bench, "%s: %s%s", s->title, s->tree ? "make -C " : "", prog);
	for (i = 0; !ret && i < out->n; i++)
		ret = pp_report(ctx, out->fig[i].key, &out->fig[i].value, 1, 1);
	free(out);
	return ret;
}

int pp_suite_parse_file(const struct pp_suite *s, const char *path, struct pp_suite_out *out)
{
	char *text;
	size_t len;
	int ret = pp_read_text(path, PP_SUITE_OUT_MAX, &text, &len);

	memset(out, 0, sizeof(*out));
	if (ret == -EILSEQ)
		return pp_suite_bad(out, "a NUL byte in it: not text");
	if (ret)
		return ret;
	ret = s->parse(text, out);
	if (!ret && out->again)
		ret = -EPROTO;	/* it measured nothing: why says so */
	free(text);
	return ret;
}
