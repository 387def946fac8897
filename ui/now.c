/* Monotonic seconds (see now.h). Calls only the C library. */
#include "now.h"

#include <time.h>

double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}
