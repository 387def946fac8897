/*
 * INPUT dispatch (see input.h). Only one trace format exists so far; when
 * more arrive, they are sniffed here from the first meaningful line.
 */
#include "input.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample_builtin.h"
#include "trace_ocelot.h"

/* One ":N" field of a builtin spec; *s advances past it. */
static int builtin_number(const char **s, uint32_t *v)
{
	if (**s != ':')
		return -1;
	(*s)++;
	if (**s < '0' || **s > '9')
		return -1;
	char *end;
	errno = 0;
	unsigned long long n = strtoull(*s, &end, 10);
	if (errno || n == 0 || n > 1u << 20)
		return -1;
	*v = (uint32_t)n;
	*s = end;
	return 0;
}

static int builtin_load(const char *spec, rd_kernel **out, char *err, size_t errlen)
{
	const char *name = spec + strlen(INPUT_BUILTIN_PREFIX);
	uint32_t h = 256, w = 1024, e = 4;
	if (strcmp(name, "fig3") == 0) {
		*out = sample_builtin();
	} else if (strncmp(name, "colcopy", 7) == 0) {
		const char *p = name + 7;
		if (builtin_number(&p, &h) < 0 || (*p && builtin_number(&p, &w) < 0) ||
		    (*p && builtin_number(&p, &e) < 0) || *p || e > 65535) {
			snprintf(err, errlen,
				 "%s: expected builtin:colcopy:HEIGHT[:WIDTH[:ELEMBYTES]] "
				 "(whole numbers 1..1048576, element bytes at most 65535)",
				 spec);
			return INPUT_EINPUT;
		}
		/* Bound the kernel's size: these live in memory at once. */
		if ((uint64_t)h * w > 1u << 26) {
			snprintf(err, errlen, "%s: HEIGHT*WIDTH must be at most %u", spec, 1u << 26);
			return INPUT_EINPUT;
		}
		*out = sample_colcopy(h, w, e);
	} else {
		snprintf(err, errlen, "%s: unknown built-in sample (try builtin:fig3 or "
				      "builtin:colcopy:H[:W[:E]])", spec);
		return INPUT_EINPUT;
	}
	if (!*out) {
		snprintf(err, errlen, "%s: out of memory", spec);
		return INPUT_ENOMEM;
	}
	return INPUT_OK;
}

int input_load(const char *spec, rd_kernel **out, char *err, size_t errlen)
{
	*out = NULL;
	if (strncmp(spec, INPUT_BUILTIN_PREFIX, strlen(INPUT_BUILTIN_PREFIX)) == 0)
		return builtin_load(spec, out, err, errlen);
	switch (trace_ocelot_read(spec, out, err, errlen)) {
	case TRACE_OK:
		return INPUT_OK;
	case TRACE_ENOMEM:
		return INPUT_ENOMEM;
	default:
		return INPUT_EINPUT;
	}
}
