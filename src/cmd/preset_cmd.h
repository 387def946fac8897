/*
 * The preset commands: `rdscope presets` (list the search path's presets),
 * `rdscope check PRESET...` (validate; exit 2 on any problem) and
 * `rdscope preset` (print -p/-s/--from-gpgpusim as a preset file or as a
 * GPGPU-Sim cache string). Each returns the exit status.
 */
#ifndef PRESET_CMD_H
#define PRESET_CMD_H

#include "cli.h"

int preset_cmd_list(const cli *c);
int preset_cmd_check(const cli *c);
int preset_cmd_show(const cli *c);

#endif
