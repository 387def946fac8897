/* The number of online CPUs (1 if unknown; at most 4096): the default of
 * every -j. */
#ifndef UTIL_CPUS_H
#define UTIL_CPUS_H

unsigned util_online_cpus(void);

#endif
