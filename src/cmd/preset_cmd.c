/*
 * Preset commands (see preset_cmd.h).
 */
#include "preset_cmd.h"
#include "samefile.h"

#include <limits.h>
#include <string.h>

#include "writers/writers.h"
#include "preset/preset.h"
#include "util/util.h"

int preset_cmd_list_check(const cli *c)
{
	return c->ninputs ? cli_command_error(c, "%s: takes no arguments") : 0;
}

int preset_cmd_list(const cli *c)
{
	(void)c;
	preset_entry *e;
	int n = preset_path_entries(&e);
	if (n < 0) {
		msg_error("out of memory");
		return EXIT_RUNTIME;
	}
	if (n == 0)
		msg_error("no presets found (see FILES in rdscope-preset(5))");
	for (int i = 0; i < n; i++) {
		char desc[256];
		if (preset_meta_read(e[i].path, NULL, 0, desc, sizeof desc) < 0)
			snprintf(desc, sizeof desc, "(does not parse: rdscope check %s)", e[i].path);
		printf("%-16s %s\n", e[i].name, desc[0] ? desc : "(no description)");
	}
	if (n > 0)
		preset_path_entries_free(e, n);
	return EXIT_OK;
}

int preset_cmd_check_check(const cli *c)
{
	return c->ninputs ? 0 : cli_command_error(c, "%s: no FILE given");
}

int preset_cmd_check(const cli *c)
{
	static char err[65536];
	int rc = EXIT_OK;
	for (int i = 0; i < c->ninputs; i++) {
		rd_config cfg;
		rd_config_default(&cfg);
		if (preset_load(c->inputs[i], &cfg, err, sizeof err) < 0) {
			cli_print_errors(err);
			rc = EXIT_USAGE;
		} else {
			printf("%s: ok\n", c->inputs[i]);
		}
	}
	return rc;
}

/* The name and description a printed preset gets. */
static void show_meta(const cli *c, char *name, size_t nlen, char *desc, size_t dlen)
{
	name[0] = desc[0] = '\0';
	if (c->preset) {
		char path[PATH_MAX], err[1024];
		if (!preset_path_is_file(c->preset) &&
		    preset_path_find(c->preset, path, sizeof path, err, sizeof err) == 0)
			preset_meta_read(path, name, nlen, desc, dlen);
		else
			preset_meta_read(c->preset, name, nlen, desc, dlen);
	}
	if (c->from_gpgpusim)
		snprintf(desc, dlen, "imported from GPGPU-Sim -gpgpu_cache:dl1 %s", c->from_gpgpusim);
	/* Overrides make it another configuration: say which. */
	size_t used = strlen(desc);
	for (int i = 0; i < c->nsets && used + 1 < dlen; i++) {
		int n = snprintf(desc + used, dlen - used, "%s%s", i ? ", " : used ? "; with " : "with ",
				 c->sets[i]);
		used = n < 0 ? used : used + (size_t)n;
	}
}

int preset_cmd_show_check(const cli *c)
{
	if (c->ninputs)
		return cli_usage_error("preset: unexpected argument '%s'", c->inputs[0], NULL);
	if (c->as && strcmp(c->as, "preset") && strcmp(c->as, "gpgpusim") &&
	    strcmp(c->as, "gpgpusim4"))
		return cli_usage_error("--as: unknown format '%s' (preset, gpgpusim or gpgpusim4)",
				       c->as, NULL);
	return 0;
}

int preset_cmd_show(const cli *c)
{
	if (samefile_check(c))
		return EXIT_USAGE;
	char err[1024];
	if (c->as && strncmp(c->as, "gpgpusim", 8) == 0) {
		char s[256];
		enum gpgpusim_form form = strcmp(c->as, "gpgpusim4") == 0 ? GPGPUSIM_4X : GPGPUSIM_3X;
		if (gpgpusim_export(&c->config, form, s, sizeof s, cli_gpgpusim_note, NULL) < 0) {
			msg_error("gpgpusim: string too long");
			return EXIT_RUNTIME;
		}
		if (!c->output) {
			printf("%s\n", s);
			return EXIT_OK;
		}
		outfile o;
		if (outfile_open(&o, c->output, err, sizeof err) == 0) {
			fprintf(o.f, "%s\n", s);
			if (outfile_commit(&o, err, sizeof err) == 0)
				return EXIT_OK;
		}
		msg_error("%s", err);
		return EXIT_RUNTIME;
	}
	char name[128], desc[512];
	show_meta(c, name, sizeof name, desc, sizeof desc);
	if (preset_save(c->output ? c->output : "-", &c->config, name[0] ? name : NULL,
			desc[0] ? desc : NULL, err, sizeof err) < 0) {
		msg_error("%s", err);
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}
