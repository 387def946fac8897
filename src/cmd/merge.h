/*
 * `rdscope merge FILE...`: join the outputs of `rdscope sweep --shard K/N`
 * (CSV or JSON results, or --histogram CSV) into exactly the output of the
 * unsharded sweep, ordered by the run numbers every record carries. It
 * checks the files belong together: the same header, every shard present
 * once (JSON names its shard), no run twice, none missing.
 */
#ifndef MERGE_H
#define MERGE_H

#include "cli.h"

/* Returns the exit status: 2 for files that do not merge. */
int merge_run(const cli *c);

#endif
