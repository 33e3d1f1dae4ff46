// SPDX-License-Identifier: GPL-2.0
/*
 * pp-vmtest: COPY: the data and checksum matrix.
 * Documentation/vmtest.rst.
 */
#include "vmtest.h"

static const char *dir_name(uint32_t d)
{
	return d == PERFPROBE_COPY_FROM_USER ? "from_user" :
	       d == PERFPROBE_COPY_TO_USER ? "to_user" : "clear_user";
}

#define COPY_MAX_TEST_SIZE	(4UL << 20)
#define WINDOW			4096UL

bool bytes_are(const uint8_t *d, size_t n, uint8_t v, size_t *bad)
{
	for (size_t i = 0; i < n; i++)
		if (d[i] != v) {
			*bad = i;
			return false;
		}
	return true;
}

/*
 * One COPY case.  `placement` 0: the region starts at the page-aligned
 * start of the buffer; 1: the region ends right before a PROT_NONE page.
 * Returns NULL on success or a description of the failure (static).
 */
const char *copy_case(struct ppnl *p, uint8_t *buf, size_t buflen_all,
		      uint32_t dir, size_t size, size_t off, int placement,
		      uint32_t iters, struct ppnl_reply *r)
{
	static char why[512];
	struct copy_res c;
	struct copy_req q;
	uint8_t *addr, *region, *lo, *hi;
	size_t bad, lo_len, hi_len;
	uint64_t sum = 0;

	addr = placement ? buf + buflen_all - off - size : buf;
	region = addr + off;
	lo = region - WINDOW < buf ? buf : region - WINDOW;
	lo_len = region - lo;
	hi = region + size;
	hi_len = (size_t)(buf + buflen_all - hi) < WINDOW ?
		 (size_t)(buf + buflen_all - hi) : WINDOW;

	memset(lo, CANARY, lo_len);
	memset(hi, CANARY, hi_len);
	if (dir == PERFPROBE_COPY_FROM_USER) {
		fill_random(region, size);
		sum = ppnl_fnv1a64(region, size);
	} else {
		memset(region, CANARY, size);
	}
	q = (struct copy_req){ .dir = dir, .addr = (uintptr_t)addr,
			       .buflen = off + size, .size = size,
			       .offset = off, .iters = iters };
	if (iters == 1 && (size & 1))
		q.iters = -1;		/* default iterations */
	if (off == 0 && (size & 2))
		q.offset = -1;		/* default offset */
	pp_copy(p, &q, &c, r);
	if (r->err) {
		snprintf(why, sizeof(why), "%s%s%s", errname(r->err),
			 has_ext(r) ? ", kernel reports: " : "", has_ext(r) ? ext_text(r) : "");
		return why;
	}
	/*
	 * The kernel may stop early, but only at its documented time cap
	 * (a loaded TCG host gets there on 64 KiB x 100): fewer iterations
	 * than asked are right only with at least the cap's time spent.
	 */
	if (c.dir != dir || c.size != size || c.offset != off ||
	    !c.iters || c.iters > iters ||
	    (c.iters < iters && c.total_ns < PERFPROBE_COPY_MAX_DURATION_NS) ||
	    c.bytes != (uint64_t)size * c.iters) {
		snprintf(why, sizeof(why),
			 "reply echoes dir %u size %" PRIu64 " offset %" PRIu64
			 " iterations %u bytes %" PRIu64 " in %" PRIu64 " ns",
			 c.dir, c.size, c.offset, c.iters, c.bytes, c.total_ns);
		return why;
	}
	switch (dir) {
	case PERFPROBE_COPY_FROM_USER:
		if (!c.has_checksum) {
			snprintf(why, sizeof(why), "no COPY_CHECKSUM in reply");
			return why;
		}
		if (c.checksum != sum) {
			snprintf(why, sizeof(why), "checksum 0x%016" PRIx64
				 " != expected 0x%016" PRIx64, c.checksum, sum);
			return why;
		}
		if (ppnl_fnv1a64(region, size) != sum) {
			snprintf(why, sizeof(why), "from_user modified the source buffer");
			return why;
		}
		break;
	case PERFPROBE_COPY_TO_USER:
		for (size_t j = 0; j < size; j++)
			if (region[j] != PERFPROBE_COPY_PATTERN(j)) {
				snprintf(why, sizeof(why),
					 "byte %zu is 0x%02x, pattern says 0x%02x",
					 j, region[j], PERFPROBE_COPY_PATTERN(j));
				return why;
			}
		break;
	case PERFPROBE_COPY_CLEAR_USER:
		if (!bytes_are(region, size, 0, &bad)) {
			snprintf(why, sizeof(why), "byte %zu is 0x%02x, not 0",
				 bad, region[bad]);
			return why;
		}
		break;
	}
	if (!bytes_are(lo, lo_len, CANARY, &bad)) {
		snprintf(why, sizeof(why), "wrote %zu bytes before the region",
			 lo_len - bad);
		return why;
	}
	if (!bytes_are(hi, hi_len, CANARY, &bad)) {
		snprintf(why, sizeof(why), "wrote past the region (byte +%zu)", bad);
		return why;
	}
	return NULL;
}

int cmd_copy(int argc, char **argv)
{
	static const size_t odd[] = { 3, 5, 7, 63, 65, 4095, 4097, 65535,
				      65537, 1048577, 3000001 };
	static const size_t offs[] = { 0, 1, 3, 7, 63 };
	static const uint32_t dirs[] = { PERFPROBE_COPY_TO_USER,
					 PERFPROBE_COPY_FROM_USER,
					 PERFPROBE_COPY_CLEAR_USER };
	size_t sizes[64];
	int nsizes = 0;
	size_t buflen_all = COPY_MAX_TEST_SIZE + 2 * PAGE;
	uint8_t *buf;
	struct ppnl p;

	for (int k = 0; k <= 22; k++)
		sizes[nsizes++] = 1UL << k;
	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
		sizes[nsizes++] = odd[i];

	if (open_or_fail(&p))
		return 1;
	buf = map_guarded(buflen_all);
	if (!buf) {
		tap_ok(false, "COPY: mmap test buffer: %s", strerror(errno));
		return 1;
	}
	rng_state ^= (uint64_t)getpid() << 17;

	for (size_t d = 0; d < 3; d++) {
		int cases = 0, bad = 0;
		int64_t t0 = now_ns();
		uint64_t bytes = 0;

		for (int s = 0; s < nsizes; s++) {
			for (size_t o = 0; o < 5; o++) {
				for (int pl = 0; pl < 2; pl++) {
					struct ppnl_reply r;
					const char *why;

					if (dirs[d] == PERFPROBE_COPY_CLEAR_USER && pl)
						continue;
					why = copy_case(&p, buf, buflen_all, dirs[d],
							sizes[s], offs[o], pl, 1, &r);
					cases++;
					bytes += sizes[s];
					if (why && ++bad <= 8)
						tap_diag("COPY %s size %zu offset %zu %s: %s",
						     dir_name(dirs[d]), sizes[s], offs[o],
						     pl ? "(ends at a guard page)" : "(page start)",
						     why);
				}
			}
		}
		/* a few multi-iteration copies */
		for (int i = 0; i < 3; i++) {
			static const size_t msz[] = { 1, 4096, 65537 };
			struct ppnl_reply r;
			const char *why = copy_case(&p, buf, buflen_all, dirs[d],
						    msz[i], 7, 0, 100, &r);

			cases++;
			if (why && ++bad <= 8)
				tap_diag("COPY %s size %zu x 100 iterations: %s",
				     dir_name(dirs[d]), msz[i], why);
		}
		if (dirs[d] == PERFPROBE_COPY_FROM_USER)
			tap_ok(bad == 0, "COPY from_user: checksum is the FNV-1a of the data in %d/%d cases (1 B .. 4 MiB, offsets 0,1,3,7,63, page start and guard-page end)",
			    cases - bad, cases);
		else if (dirs[d] == PERFPROBE_COPY_TO_USER)
			tap_ok(bad == 0, "COPY to_user: data equals PERFPROBE_COPY_PATTERN, nothing outside touched, in %d/%d cases (1 B .. 4 MiB, offsets 0,1,3,7,63, page start and guard-page end)",
			    cases - bad, cases);
		else
			tap_ok(bad == 0, "COPY clear_user: region zeroed, nothing outside touched, in %d/%d cases",
			    cases - bad, cases);
		tap_diag("  %s: %" PRIu64 " bytes in %.2f s", dir_name(dirs[d]), bytes,
		     (now_ns() - t0) / 1e9);
	}
	ppnl_close(&p);
	return tap_failed() ? 1 : 0;
}
