/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A result's profile as the "profile" object of its "kernel" object
 * (Documentation/results.rst), for results_write.c and results_read.c.
 */
#ifndef PP_PROF_JSON_H
#define PP_PROF_JSON_H

#include <jansson.h>

#include "results.h"

/* The object of k's profile, or NULL when it has none. */
json_t *pp_prof_to_json(const struct pp_kside *k);

/*
 * The profile object o of result key into k (k->prof kept by run): 0,
 * or -1 with one line in why naming the field that is wrong.
 */
int pp_prof_from_json(struct pp_run *run, const char *key, struct pp_kside *k, json_t *o,
		      char *why, size_t len);

#endif /* PP_PROF_JSON_H */
