// SPDX-License-Identifier: GPL-2.0
/*
 * pp-vmtest: concurrent COPY requests over the buffer budget.
 * Documentation/vmtest.rst.
 */
#include "vmtest.h"

#define PP_DEBUGFS_INFO	"/sys/kernel/debug/perfprobe/info"

/* copy_inflight_bytes from debugfs, or -1 */
static int64_t copy_inflight(void)
{
	FILE *f = fopen(PP_DEBUGFS_INFO, "re");
	char line[256];
	int64_t v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "copy_inflight_bytes: %" SCNd64, &v) == 1)
			break;
	fclose(f);
	return v;
}

struct budget_holder {
	pthread_t th;
	uint8_t *buf;
	struct ppnl_reply r;
	struct copy_res c;
};

/* A maximal FROM_USER COPY that blocks on the userfaultfd page at buf. */
static void *budget_hold(void *arg)
{
	struct budget_holder *h = arg;
	struct copy_req q = { PERFPROBE_COPY_FROM_USER, (uintptr_t)h->buf,
			      PERFPROBE_COPY_MAX_SIZE, PERFPROBE_COPY_MAX_SIZE, -1, 1 };
	struct ppnl p;

	if (pp_open(&p)) {
		h->r.err = PPNL_E_LOCAL;
		return NULL;
	}
	p.timeout_ms = 120000;
	pp_copy(&p, &q, &h->c, &h->r);
	ppnl_close(&p);
	return NULL;
}

/*
 * Two maximal COPY requests hold PERFPROBE_COPY_MAX_INFLIGHT_BYTES - 8 KiB
 * of kernel buffer while their copy_from_user() waits on a userfaultfd
 * page, so the budget is known to be taken (no timing): a third maximal
 * request gets -EBUSY, 8 KiB still fits, 8 KiB + 1 does not.  Then the
 * page is supplied, both holders finish, the budget is back to 0 (also
 * after a faulting request) and a maximal request works again.
 */
int cmd_copy_budget(int argc, char **argv)
{
	const uint64_t max = PERFPROBE_COPY_MAX_SIZE;
	const int nhold = PERFPROBE_COPY_MAX_INFLIGHT_BYTES / (max + PERFPROBE_COPY_MAX_OFFSET);
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	struct budget_holder hold[4];
	uint8_t *small = map_guarded(4 * PAGE);
	struct copy_req q = { PERFPROBE_COPY_FROM_USER, 0, 0, 0, -1, 1 };
	struct uffd_msg msg;
	struct copy_res c;
	struct ppnl_reply r;
	struct ppnl p;
	int64_t used = -1;
	int uffd, i, faults = 0;
	uint8_t *buf;

	(void)argc;
	(void)argv;
	tap_ok(nhold == 2, "the budget holds %d maximal requests (expected 2)", nhold);
	if (nhold < 1 || nhold > 4 || !small || copy_inflight() != 0) {
		tap_ok(false, "copy-budget: setup (debugfs %s reads %" PRId64 ")", PP_DEBUGFS_INFO,
		    copy_inflight());
		return 1;
	}
	uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	buf = mmap(NULL, max, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		   -1, 0);
	reg.range.start = (uintptr_t)buf;
	reg.range.len = PAGE;
	if (uffd < 0 || buf == MAP_FAILED || ioctl(uffd, UFFDIO_API, &api) ||
	    ioctl(uffd, UFFDIO_REGISTER, &reg)) {
		tap_ok(false, "copy-budget: userfaultfd on the first page: %s", strerror(errno));
		return 1;
	}
	for (i = 0; i < nhold; i++) {
		memset(&hold[i], 0, sizeof(hold[i]));
		hold[i].buf = buf;
		pthread_create(&hold[i].th, NULL, budget_hold, &hold[i]);
	}
	/* every holder has reserved its buffer once the debugfs sum says so */
	for (i = 0; i < 3000; i++) {
		used = copy_inflight();
		if (used == (int64_t)(nhold * max))
			break;
		sleep_ms(10);
	}
	while (faults < nhold) {
		struct pollfd pfd = { uffd, POLLIN, 0 };

		if (poll(&pfd, 1, 30000) != 1 || read(uffd, &msg, sizeof(msg)) != sizeof(msg))
			break;
		faults += msg.event == UFFD_EVENT_PAGEFAULT;
	}
	tap_ok(used == (int64_t)(nhold * max) && faults == nhold,
	    "%d maximal COPY requests hold %" PRId64 " bytes, blocked in copy_from_user (%d faults)",
	    nhold, used, faults);

	if (open_or_fail(&p))
		return 1;
	q.addr = (uintptr_t)buf;
	q.buflen = q.size = max;
	pp_copy(&p, &q, &c, &r);
	report("COPY over the budget", &r);
	tap_ok(r.err == -EBUSY && has_ext(&r), "one more maximal COPY: %s%s (expected -EBUSY with extack)",
	    errname(r.err), has_ext(&r) ? " with extack" : "");
	q.addr = (uintptr_t)small;
	q.buflen = 4 * PAGE;
	q.size = PERFPROBE_COPY_MAX_INFLIGHT_BYTES - nhold * max;
	pp_copy(&p, &q, &c, &r);
	report("COPY of the budget's rest", &r);
	tap_ok(r.err == 0 && c.bytes == q.size, "a COPY of the %" PRIu64 " bytes left works: %s",
	    q.size, errname(r.err));
	q.size++;
	pp_copy(&p, &q, &c, &r);
	tap_ok(r.err == -EBUSY, "a COPY of one byte more: %s (expected -EBUSY)", errname(r.err));

	{
		struct uffdio_zeropage zp = { .range = { (uintptr_t)buf, PAGE } };

		if (ioctl(uffd, UFFDIO_ZEROPAGE, &zp))
			tap_diag("UFFDIO_ZEROPAGE: %s", strerror(errno));
	}
	for (i = 0; i < nhold; i++) {
		pthread_join(hold[i].th, NULL);
		report("holder COPY", &hold[i].r);
		tap_ok(hold[i].r.err == 0 && hold[i].c.bytes == max,
		    "holder %d finished once the page came: %s, %" PRIu64 " bytes", i,
		    errname(hold[i].r.err), hold[i].c.bytes);
	}
	/* a request that faults returns its reservation too */
	q.addr = (uintptr_t)small;
	q.buflen = q.size = 5 * PAGE;
	pp_copy(&p, &q, &c, &r);
	tap_ok(r.err == -EFAULT, "a COPY running into a guard page: %s (expected -EFAULT)",
	    errname(r.err));
	used = copy_inflight();
	tap_ok(used == 0, "the budget is all returned: %" PRId64 " bytes in use", used);
	q.addr = (uintptr_t)buf;
	q.buflen = q.size = max;
	pp_copy(&p, &q, &c, &r);
	report("maximal COPY after", &r);
	tap_ok(r.err == 0, "a maximal COPY works again: %s", errname(r.err));
	ppnl_close(&p);
	close(uffd);
	munmap(buf, max);
	return tap_failed() ? 1 : 0;
}
