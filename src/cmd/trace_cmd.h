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

#endif
