/*
 * The trace commands: `rdscope convert INPUT OUT.rdt` and
 * `rdscope samples`.
 */
#ifndef TRACE_CMD_H
#define TRACE_CMD_H

#include "cli.h"

/* Each returns the process exit status. */
int trace_cmd_convert(const cli *c);
int trace_cmd_samples(const cli *c);
/* rdscope kdesc --from-c FILE.c: a kernel description of the file's scop. */
int trace_cmd_kdesc(const cli *c);

#endif
