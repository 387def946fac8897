/*
 * src/preset: presets, configurations kept in libconfig files under the
 * model's dotted key names (man/rdscope-preset.5): reading with
 * inheritance and every error at its line (preset.h), the search path
 * (preset_path.h), writing (preset_io.h) and GPGPU-Sim configuration
 * files (preset_gpgpusim.h).
 *
 * The public header of the family (it also brings in
 * preset_path.h, preset_io.h, preset_gpgpusim.h): other folders include this one only.
 * May include: the model (rdscope.h), libc, libconfig, src/util, and
 * src/writers (a preset is written whole or not at all).
 *
 * Presets: libconfig (1.5 API) files holding a configuration, keyed by the
 * same dotted names as `rdscope run -s` (rd_keys in model/rdscope.h):
 * `l1.ways` on the command line is `l1 = { ways = 4; };` in a file.
 *
 *     format = "rdscope-preset"; version = 1;
 *     name = "fermi-16k"; description = "...";
 *     inherits = "other-preset";          # optional, resolved by rdscope
 *     model = "paper";
 *     l1 = { size = 16384; line = 128; ways = 4; hash = "fermi"; ... };
 *     latency = { ... };  gpu = { ... };  seed = 1;
 *
 * This header is the contract between the batch commands and the explorer
 * (its `e` export and `o` open keys); see man/rdscope-preset.5.
 */
#ifndef PRESET_H
#define PRESET_H

#include <stddef.h>

#include "rdscope.h"

/*
 * Load a preset into *cfg. spec is a file path (contains '/' or ends in
 * ".cfg") or the name of a built-in preset, looked up in the preset search
 * path (see preset_path_list). Settings the preset does not name keep the
 * values *cfg already has (callers start from rd_config_default, then
 * apply -s overrides afterwards). On error returns -1 and err holds every
 * problem, one per line, each "file:line: key: message".
 */
int preset_load(const char *spec, rd_config *cfg, char *err, size_t errlen);

/*
 * Write cfg as a preset file at path: to a temporary file in the same
 * directory, renamed into place only on success, so an existing file is
 * never left truncated. name and description may be NULL. Returns 0, or -1
 * with err set.
 */
int preset_save(const char *path, const rd_config *cfg, const char *name,
		const char *description, char *err, size_t errlen);

/* The rest of the family's public interface. */
#include "preset_path.h"
#include "preset_io.h"
#include "preset_gpgpusim.h"

#endif
