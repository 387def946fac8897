/*
 * What a SASS opcode means for the L1 data cache, shared by the NVBit and
 * Accel-Sim readers.
 */
#ifndef TRACE_SASS_H
#define TRACE_SASS_H

#include <stddef.h>
#include <stdint.h>

enum sass_kind { SASS_OTHER = 0, SASS_LOAD, SASS_STORE };

/*
 * Classify op (n bytes, e.g. "LDG.E.64"): global loads LDG, LDG.*,
 * LDGSTS* and generic LD, LD.* are SASS_LOAD; STG* and generic ST* are
 * SASS_STORE; shared, local, constant, atomic and other instructions are
 * SASS_OTHER. *generic: the LD/ST forms, whose space the address decides.
 * *bytes: the width suffix, .64 -> 8, .128 -> 16, .U8/.S8 -> 1,
 * .U16/.S16 -> 2, default 4.
 */
enum sass_kind sass_opcode(const char *op, size_t n, uint32_t *bytes, int *generic);

#endif
