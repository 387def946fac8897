/*
 * Refuse work that cannot fit before starting it: estimate what loading a
 * trace and running the model will take, compare with what this process
 * may use (RLIMIT_AS, the machine's available memory), and explain.
 */
#ifndef MEMCHECK_H
#define MEMCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "rdscope.h"

/* Bytes this process can still obtain: the smaller of the address-space
 * limit left and the machine's available memory (UINT64_MAX: unknown). */
uint64_t memcheck_available(void);

/*
 * Before loading `path`: 0 if its estimated size fits, else -1 with a
 * message "PATH: loading needs about N, only M available (...)" in err.
 * Inputs whose size cannot be known up front (pipes, builtin samples)
 * pass.
 */
int memcheck_input(const char *path, char *err, size_t errlen);

/* Before modelling kernel k: 0, or -1 with a message in err. */
int memcheck_model(const char *name, const rd_kernel *k, char *err, size_t errlen);

#endif
