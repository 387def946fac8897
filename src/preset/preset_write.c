/*
 * Writing presets: preset_write (text on a stream) and preset_save of
 * preset.h (a file that appears whole or not at all). The text is written
 * by hand rather than with config_write_file so that every key carries its
 * unit and meaning as a comment and the layout is the one the man page
 * shows; the tests read every written preset back.
 */
#include "preset.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "writers/writers.h"
#include "preset_io.h"

/* A libconfig string literal: quotes, backslashes and control bytes escaped. */
static void write_string(FILE *f, const char *s)
{
	putc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			putc(c, f);
	}
	putc('"', f);
}

/* One key's value in libconfig syntax, typed so it reads back the same. */
static void write_value(FILE *f, const rd_config *cfg, const rd_key *k)
{
	char v[128];
	if (rd_config_get(cfg, k->name, v, sizeof v) < 0)
		v[0] = '\0';
	switch (k->type) {
	case RD_KEY_UINT: {
		/* libconfig integers are signed: 64-bit ones need an L, and
		 * seeds from 2^63 up only fit in a string. */
		unsigned long long u = strtoull(v, NULL, 10);
		if (u > INT64_MAX)
			write_string(f, v);
		else
			fprintf(f, "%s%s", v, u > INT32_MAX ? "L" : "");
		break;
	}
	case RD_KEY_DOUBLE:
		/* "5" would read back as an integer: keep it a float. */
		fprintf(f, "%s%s", v, strpbrk(v, ".eEn") ? "" : ".0");
		break;
	case RD_KEY_BOOL:
		fputs(strcmp(v, "0") == 0 ? "false" : "true", f);
		break;
	case RD_KEY_ENUM:
		write_string(f, v);
		break;
	}
}

static void write_key(FILE *f, const rd_config *cfg, const rd_key *k, const char *indent,
		      const char *name)
{
	fprintf(f, "%s%s = ", indent, name);
	write_value(f, cfg, k);
	fputs(";", f);
	if (k->unit && *k->unit)
		fprintf(f, "  # %s, %s", k->unit, k->help);
	else
		fprintf(f, "  # %s", k->help);
	if (k->type == RD_KEY_ENUM && k->choices)
		fprintf(f, ": %s", k->choices);
	putc('\n', f);
}

/* Has a key before k the same group ("l1." prefix of glen bytes)? */
static int group_seen(const rd_key *k, size_t glen)
{
	for (const rd_key *p = rd_keys; p < k; p++)
		if (strncmp(p->name, k->name, glen + 1) == 0)
			return 1;
	return 0;
}

void preset_write(FILE *f, const rd_config *cfg, const char *name, const char *description)
{
	fputs("# rdscope preset (see rdscope-preset(5)), written by rdscope " RD_VERSION "\n", f);
	fputs("format = \"rdscope-preset\";\nversion = 1;\n", f);
	if (name) {
		fputs("name = ", f);
		write_string(f, name);
		fputs(";\n", f);
	}
	if (description) {
		fputs("description = ", f);
		write_string(f, description);
		fputs(";\n", f);
	}
	putc('\n', f);
	for (const rd_key *k = rd_keys; k->name; k++)
		if (!strchr(k->name, '.'))
			write_key(f, cfg, k, "", k->name);
	/* Groups in the order their first key has in the table. */
	for (const rd_key *k = rd_keys; k->name; k++) {
		const char *dot = strchr(k->name, '.');
		if (!dot)
			continue;
		size_t glen = (size_t)(dot - k->name);
		if (group_seen(k, glen))
			continue;
		fprintf(f, "\n%.*s = {\n", (int)glen, k->name);
		for (const rd_key *m = k; m->name; m++)
			if (strncmp(m->name, k->name, glen + 1) == 0)
				write_key(f, cfg, m, "\t", m->name + glen + 1);
		fputs("};\n", f);
	}
	if (cfg->mem_n) { /* the placements: memory space per array */
		fputs("\nmem = {\n", f);
		for (uint32_t i = 0; i < cfg->mem_n; i++)
			fprintf(f, "\t%s = \"%s\";\n", cfg->mem[i].name,
				rd_space_name(cfg->mem[i].space));
		fputs("};\n", f);
	}
}

int preset_save(const char *path, const rd_config *cfg, const char *name,
		const char *description, char *err, size_t errlen)
{
	outfile o = {0};
	if (outfile_open(&o, path, err, errlen) < 0)
		return -1;
	preset_write(o.f, cfg, name, description);
	return outfile_commit(&o, err, errlen);
}
