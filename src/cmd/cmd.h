/*
 * src/cmd: the commands. The command line (cli.h), batch runs (batch.h),
 * sweeps and their shards (sweep.h, sweep_run.h), merge (merge.h), the
 * preset, trace, profile, compare and count commands (preset_cmd.h,
 * trace_cmd.h, profile_cmd.h, compare_cmd.h, count_cmd.h; the profiles
 * they measure, rprofile.h; the estimates and the learned estimator's
 * training, estimate_cmd.h, train_cmd.h) and the progress
 * line of long runs (progress.h); main.c starts the right one by its row
 * of CLI_COMMANDS (cli.h, cli_commands[] in commands.c), or the explorer.
 *
 * The public header of the family (tests include it).
 * May include: everything of src/; main.c alone also includes ui/ (the
 * explorer) and is the only file of src/ that may call into ui/.
 */
#ifndef CMD_FAMILY_H
#define CMD_FAMILY_H

#include "cli.h"
#include "batch.h"
#include "sweep.h"
#include "sweep_run.h"
#include "merge.h"
#include "preset_cmd.h"
#include "trace_cmd.h"
#include "progress.h"
#include "profile_cmd.h"
#include "rprofile.h"
#include "compare_cmd.h"
#include "estimate_cmd.h"
#include "train_cmd.h"
#include "count_cmd.h"
#include "arrays_cmd.h"

#endif
