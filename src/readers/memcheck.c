/*
 * Memory estimates (see memcheck.h). The constants come from measurement
 * (make bench): a text trace line is 16-30 bytes and costs 10 bytes once
 * loaded plus 14 while the builder sorts it; the model keeps about 14-16
 * bytes per coalesced request and 28 per distinct line per running case,
 * and requests never outnumber loads.
 */
#include "memcheck.h"
#include "trace_rdt.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

/* Bytes of memory per byte of text trace: 24 per ~20-byte line once
 * loaded, up to twice that while the builder grows (an address-space
 * limit counts what is reserved, not only what is touched). */
#define LOAD_PER_TEXT_BYTE 2.0
/* Compressed traces: text per compressed byte, a cautious typical ratio. */
#define TEXT_PER_GZ_BYTE 4.0
/* Model bytes per load (upper bound: every load its own request). */
#define MODEL_PER_LOAD 20.0

/* A "Field: N kB" value of a /proc file, in bytes; 0 if absent. */
static uint64_t proc_bytes(const char *file, const char *field)
{
	FILE *f = fopen(file, "r");
	char line[256];
	size_t n = strlen(field);
	unsigned long long kb = 0;
	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, field, n) == 0 && sscanf(line + n, " %llu", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return (uint64_t)kb * 1024;
}

/* Address space left under ulimit -v, or UINT64_MAX without a limit. */
static uint64_t address_space_left(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return UINT64_MAX;
	uint64_t used = proc_bytes("/proc/self/status", "VmSize:");
	return rl.rlim_cur > used ? rl.rlim_cur - used : 0;
}

uint64_t memcheck_available(void)
{
	uint64_t avail = proc_bytes("/proc/meminfo", "MemAvailable:");
	if (!avail)
		avail = UINT64_MAX; /* unknown: only the limit below counts */
	uint64_t left = address_space_left();
	return left < avail ? left : avail;
}

static void human(uint64_t b, char *buf, size_t len)
{
	if (b >= (1ULL << 30))
		snprintf(buf, len, "%.1f GiB", (double)b / (1ULL << 30));
	else
		snprintf(buf, len, "%.0f MiB", (double)b / (1ULL << 20) + 0.5);
}

static int refuse(const char *name, const char *what, uint64_t need, uint64_t avail, char *err,
		  size_t errlen)
{
	char n[32], a[32];
	human(need, n, sizeof n);
	human(avail, a, sizeof a);
	snprintf(err, errlen,
		 "%s: %s needs about %s but only %s is available (memory or ulimit -v); "
		 "model fewer threads with -s gpu.max_threads=N or raise the limit",
		 name, what, n, a);
	return -1;
}

int memcheck_input(const char *path, char *err, size_t errlen)
{
	struct stat st;
	if (strcmp(path, "-") == 0 || stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0; /* the reader says what is wrong, or it cannot be known */
	if (trace_rdt_lends(path)) {
		/* mapped, not copied: it needs address space, not memory (each
		 * kernel's model is checked when it is loaded) */
		uint64_t left = address_space_left();
		return (uint64_t)st.st_size > left
			       ? refuse(path, "mapping", (uint64_t)st.st_size, left, err, errlen)
			       : 0;
	}
	size_t n = strlen(path);
	double text = (double)st.st_size;
	if ((n > 3 && strcmp(path + n - 3, ".gz") == 0) || (n > 3 && strcmp(path + n - 3, ".xz") == 0))
		text *= TEXT_PER_GZ_BYTE;
	uint64_t need = (uint64_t)(text * LOAD_PER_TEXT_BYTE);
	uint64_t avail = memcheck_available();
	return need > avail ? refuse(path, "loading", need, avail, err, errlen) : 0;
}

int memcheck_model(const char *name, const rd_kernel *k, char *err, size_t errlen)
{
	uint64_t need = (uint64_t)((double)k->nloads * MODEL_PER_LOAD);
	uint64_t avail = memcheck_available();
	return need > avail ? refuse(name, "modelling", need, avail, err, errlen) : 0;
}
