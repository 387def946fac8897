/* See cpus.h. */
#define _POSIX_C_SOURCE 200809L
#include "cpus.h"

#include <unistd.h>

unsigned util_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 4096 ? 4096 : (unsigned)n;
}
