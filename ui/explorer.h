/*
 * The live explorer: `rdscope [-p PRESET] [-s KEY=VALUE]... [INPUT]` on a
 * terminal. Panes for the parameters, the miss breakdown and the
 * reuse-distance histogram, redrawn from the model thread's results as the
 * parameters are edited. See man/rdscope.1, THE EXPLORER and KEYS.
 */
#ifndef UI_EXPLORER_H
#define UI_EXPLORER_H

#include "cli.h"

/* Should the no-command form open the explorer (rather than print text)?
 * Yes with --script, or when standard input and output are terminals and
 * no batch-only option (-o, --log, -q, -f csv|json) was given. */
int explorer_wanted(const cli *c);

/* Run the explorer until the user quits. Returns an exit status. */
int explorer_run(const cli *c);

#endif
