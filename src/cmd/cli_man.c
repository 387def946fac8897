/*
 * The man page's OPTIONS and KEYS OF THE MODEL sections (see cli_man.h).
 */
#include "cli_man.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_table.h"

/* s with \ and - escaped (option names: "\-\-no\-timing"). */
static void roff_name(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '-' || *s == '\\')
			fputc('\\', f);
		fputc(*s == '\\' ? 'e' : *s, f);
	}
}

/* An option's value as " \fIKEY\fB=\fIVALUE": names in italics, | in
 * roman, the other characters in bold. */
static void roff_arg(FILE *f, const char *arg)
{
	char font = 'R';
	fputs(" \" ", f);
	for (const char *p = arg; *p; p++) {
		char want = isupper((unsigned char)*p) || isdigit((unsigned char)*p) ? 'I'
			    : *p == '|'					       ? 'R'
										       : 'B';
		if (want != font)
			fprintf(f, "\\f%c", font = want);
		if (*p == '-' || *p == '\\')
			fputc('\\', f);
		fputc(*p == '\\' ? 'e' : *p, f);
	}
	fputc('"', f);
}

/* The one command an option belongs to, for its "(sweep)"; NULL if several. */
static const char *only_command(unsigned commands)
{
	if (commands == 0 || (commands & (commands - 1)))
		return NULL;
	for (size_t i = 0; i < cli_ncmds; i++)
		if (commands == CLI_CMD(cli_cmds[i].cmd))
			return cli_cmds[i].name;
	return NULL;
}

/* The text written to f (an open_memstream), or NULL. */
static char *finish(FILE *f, char **buf)
{
	if (fclose(f) != 0) {
		free(*buf);
		return NULL;
	}
	return *buf;
}

/* What write writes, as a string (malloc'd), or NULL. */
static char *written(void (*write)(FILE *f))
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	write(f);
	return finish(f, &buf);
}

static void write_options(FILE *f)
{
	fputs(".SH OPTIONS\n"
	      ".\\\" Generated from the option table in src/cmd/cli_table.c: edit the table,\n"
	      ".\\\" then run 'make man-gen'. A test fails when this section and the table differ.\n",
	      f);
	for (const cli_option *o = cli_options; o->name; o++) {
		if (o->letter)
			fprintf(f, ".TP\n.BR \\-%c \", \" \\-\\-", o->letter);
		else
			fprintf(f, ".TP\n.B%s \\-\\-", o->arg ? "R" : "");
		roff_name(f, o->name);
		if (o->arg)
			roff_arg(f, o->arg);
		fputc('\n', f);
		const char *cmd = only_command(o->commands);
		if (cmd)
			fprintf(f, ".RB ( %s )\n", cmd);
		fprintf(f, "%s\n", o->man);
	}
}

char *cli_man_options(void)
{
	return written(write_options);
}

/* "KEY = VALUE" of a key: the choices in bold, or a placeholder. */
static void key_head(FILE *f, const rd_key *k)
{
	char what[128];
	cli_key_placeholder(k, what, sizeof what);
	if (k->type != RD_KEY_ENUM && k->type != RD_KEY_BOOL) {
		fprintf(f, ".BI %s \" = %s\"\n", k->name, what);
		return;
	}
	fprintf(f, ".BR %s \" = \" ", k->name);
	for (const char *p = what; *p; p++) {
		if (*p == '|')
			fputs(" | ", f);
		else if (*p == ':' && isupper((unsigned char)p[1]))
			fprintf(f, ":\\fI%c\\fB", *++p); /* smod:N */
		else
			fputc(*p, f);
	}
	fputc('\n', f);
}

/* A key's manual text (its help as a sentence where it has none), and its
 * default, as both pages give them. */
static void key_doc(FILE *f, const rd_key *k)
{
	if (k->doc)
		fprintf(f, "%s\n", k->doc);
	else
		fprintf(f, "%c%s.\n", toupper((unsigned char)k->help[0]), k->help + 1);
}

static void key_default(FILE *f, const rd_key *k)
{
	if (k->type == RD_KEY_ENUM)
		fprintf(f, "Default\n.BR %s .\n", k->def);
	else
		fprintf(f, "Default %s.\n", k->def);
}

static void write_model_keys(FILE *f)
{
	fputs(".SH KEYS OF THE MODEL\n"
	      ".\\\" Generated from the key table in model/config.c: edit the table, then run\n"
	      ".\\\" 'make man-gen'. A test fails when this section and the table differ.\n"
	      "Defaults model the paper's NVIDIA GTX470 (Fermi) with a 16\\~KB L1.\n"
	      "Sizes accept a\n.BR K ,\n.B M\nor\n.B G\nsuffix (times 1024).\n",
	      f);
	for (const rd_key *k = rd_keys; k->name; k++) {
		fputs(".TP\n", f);
		key_head(f, k);
		key_doc(f, k);
		key_default(f, k);
	}
}

char *cli_man_model_keys(void)
{
	return written(write_model_keys);
}

/* The preset page's groups of keys, by the prefix before the dot (keys
 * without one come first, under the section's own heading). */
static const struct {
	const char *prefix, *title;
} preset_groups[] = {
	{"", NULL},
	{"l1", "the L1 data cache of one core"},
	{"latency", "time in model steps (not clock cycles)"},
	{"l2", "the L2 shared by every core"},
	{"gpu", "the cores and how threads reach them"},
	{"dram", "DRAM after the last cache level (seed 002)"},
	{"tex", "the texture cache of one core (seed 002)"},
	{"const", "the constant cache of one core (seed 002)"},
	{"smem", "shared memory (seed 002)"},
};

static int in_group(const rd_key *k, const char *prefix)
{
	const char *dot = strchr(k->name, '.');
	size_t n = dot ? (size_t)(dot - k->name) : 0;
	return strlen(prefix) == n && !strncmp(k->name, prefix, n);
}

/* The key's type as the file writes it, its unit and range. */
static void preset_type(FILE *f, const rd_key *k)
{
	switch (k->type) {
	case RD_KEY_ENUM: {
		fputs("String,", f);
		for (int j = 0; j < k->nnames; j++) {
			int last = j == k->nnames - 1;
			fputs(last && j ? "\nor\n.BR " : k->nnames > 2 ? "\n.BR " : "\n.B ", f);
			roff_name(f, k->names[j]);
			if (k->arg_name && j == k->arg_choice)
				fputs(":\\fIN\\fR", f);
			fputs(last ? " ." : k->nnames > 2 ? " ," : "", f);
		}
		if (k->arg_name)
			fprintf(f, "\n.I N\n(the %s) is 0 to %u.", k->arg_name, k->arg_max);
		fputc('\n', f);
		return;
	}
	case RD_KEY_BOOL:
		fputs("Boolean\n.RB ( true\nor\n.BR false ;\nalso 1 or 0).\n", f);
		return;
	case RD_KEY_DOUBLE:
		fputs("Number", f);
		break;
	case RD_KEY_UINT:
		fputs("Integer", f);
		break;
	}
	if (k->unit && *k->unit)
		fprintf(f, ", %s", k->unit);
	if (k->min && k->max)
		fprintf(f, ", %llu to %llu", (unsigned long long)k->min, (unsigned long long)k->max);
	else if (k->min)
		fprintf(f, ", at least %llu", (unsigned long long)k->min);
	else if (k->max)
		fprintf(f, ", at most %llu", (unsigned long long)k->max);
	if (k->flags & RD_KEY_POW2)
		fputs(", a power of two", f);
	if (k->type == RD_KEY_UINT && k->size == 8)
		fputs(" (values from 2\\(ha63 on are written as a string)", f);
	fputs(".\n", f);
}

/* Which profiles model the key and when it is read (its row's facts). */
static void preset_applies(FILE *f, const rd_key *k)
{
	static const char *const names[] = {"paper", "reference\\-2013", "rdgc"};
	if (k->profiles) {
		int i = 0;
		fputs("Read under\n", f);
		for (int p = 0; p < 3; p++)
			if (k->profiles & RD_PROFILE_BIT(p))
				fprintf(f, "%s.B model=%s\n", i++ == 0 ? "" : "and\n", names[p]);
		fputs("only (another profile ignores it, or refuses all but its default).\n", f);
	}
	if (k->when) { /* conditions separated by '|': any of them */
		fputs("Read only while\n", f);
		for (const char *w = k->when; w;) {
			const char *bar = strchr(w, '|');
			char one[64];
			size_t n = bar ? (size_t)(bar - w) : strlen(w);
			snprintf(one, sizeof one, "%.*s", (int)n, w);
			fputs(bar ? ".B " : ".BR ", f);
			roff_name(f, one);
			fputs(bar ? "\nor\n" : " .\n", f);
			w = bar ? bar + 1 : NULL;
		}
	}
	if (k->def_rdgc)
		fprintf(f, "Under\n.B model=rdgc\nthe default is %s.\n", k->def_rdgc);
}

static void write_preset_keys(FILE *f)
{
	fputs(".SH KEYS OF THE MODEL\n"
	      ".\\\" Generated from the key table in model/config.c: edit the table, then run\n"
	      ".\\\" 'make man-gen'. A test fails when this section and the table differ.\n"
	      "Each key's type is that of its value in the file: an integer, a number\n"
	      "(integer or floating-point), a boolean or a string from a fixed set.\n"
	      "A key in a group is written inside it\n"
	      ".RB ( \"l1 = { ways = 8; };\" )\n"
	      "or whole\n"
	      ".RB ( \"l1.ways = 8;\" ).\n"
	      "Ranges are checked as the file is read, the configuration as a whole\n"
	      "after it (see\n"
	      ".BR DIAGNOSTICS ).\n"
	      "The defaults are the paper's NVIDIA GTX\\~470 (Fermi) with a 16\\~KB L1, the\n"
	      ".B fermi\\-16k\n"
	      "preset.\n",
	      f);
	for (size_t g = 0; g < sizeof preset_groups / sizeof preset_groups[0]; g++) {
		if (preset_groups[g].title)
			fprintf(f, ".SS \"%s: %s\"\n", preset_groups[g].prefix, preset_groups[g].title);
		for (const rd_key *k = rd_keys; k->name; k++) {
			if (!in_group(k, preset_groups[g].prefix))
				continue;
			fputs(".TP\n.B ", f);
			roff_name(f, k->name);
			fputc('\n', f);
			preset_type(f, k);
			key_doc(f, k);
			preset_applies(f, k);
			key_default(f, k);
		}
	}
	fputs(".TP\n"
	      ".BI mem. NAME\n"
	      "One of\n"
	      ".BR global \", \" texture \", \" texture2d \", \" constant \", \" shared :\n"
	      "the memory space of the kernel's array\n"
	      ".I NAME\n"
	      "(see\n"
	      ".BR rdscope (1)).\n"
	      "At most 16 per preset.\n",
	      f);
}

char *cli_man_preset_keys(void)
{
	return written(write_preset_keys);
}

/* Every key's prefix has a group on the preset page: 1, or 0. */
int cli_man_preset_groups_cover(void)
{
	for (const rd_key *k = rd_keys; k->name; k++) {
		int found = 0;
		for (size_t g = 0; g < sizeof preset_groups / sizeof preset_groups[0]; g++)
			found |= in_group(k, preset_groups[g].prefix);
		if (!found)
			return 0;
	}
	return 1;
}

char *cli_man_preset_update(const char *page)
{
	char *keys = cli_man_preset_keys();
	char *s = keys ? man_section_replace(page, "KEYS OF THE MODEL", keys) : NULL;
	free(keys);
	return s;
}

char *man_section_replace(const char *page, const char *title, const char *section)
{
	/* The ".SH TITLE" line, at the start of the page or of a line. */
	size_t tlen = strlen(title);
	const char *start = NULL;
	for (const char *p = page; p && !start; p = strstr(p, "\n.SH ")) {
		p += *p == '\n';
		if (!strncmp(p, ".SH ", 4) && !strncmp(p + 4, title, tlen) && p[4 + tlen] == '\n')
			start = p;
	}
	if (!start)
		return NULL;
	const char *end = strstr(start + 4 + tlen, "\n.SH ");
	end = end ? end + 1 : start + strlen(start);
	size_t head = (size_t)(start - page), n = strlen(section), tail = strlen(end);
	char *s = malloc(head + n + tail + 1);
	if (!s)
		return NULL;
	memcpy(s, page, head);
	memcpy(s + head, section, n);
	memcpy(s + head + n, end, tail + 1);
	return s;
}

/* A usage's text in roff: placeholders (words of capitals, digits and _)
 * in italics, literals (commands, option names, choices, suffixes) in
 * bold, the brackets, bars, ellipses and spaces in roman. */
static void roff_usage(FILE *f, const char *u)
{
	char font = 'R';
	while (*u) {
		char want;
		size_t n = 1;
		if (!strncmp(u, "...", 3)) {
			want = 'R';
			n = 3;
		} else if (strchr("[]| ", *u)) {
			want = 'R';
		} else if (isupper((unsigned char)*u)) {
			want = 'I';
			while (isupper((unsigned char)u[n]) || isdigit((unsigned char)u[n]) || u[n] == '_')
				n++;
		} else {
			want = 'B';
			while (u[n] && !strchr("[]| ", u[n]) && strncmp(u + n, "...", 3) &&
			       !isupper((unsigned char)u[n]))
				n++;
		}
		if (want != font)
			fprintf(f, "\\f%c", want);
		font = want;
		if (n == 3 && !strncmp(u, "...", 3)) {
			fputs("\\&...", f);
			u += 3;
			continue;
		}
		for (size_t i = 0; i < n; i++, u++) {
			if (*u == '-' || *u == '\\')
				fputc('\\', f);
			fputc(*u == '\\' ? 'e' : *u, f);
		}
	}
	if (font != 'R')
		fputs("\\fR", f);
}

/* A command's usage as SYNOPSIS lines: its continued lines joined, and a
 * line starting "rdscope " another form of its own. */
static void synopsis_lines(FILE *f, const char *u)
{
	while (*u) {
		char line[1024];
		size_t n = 0;
		for (;;) {
			const char *nl = strchr(u, '\n');
			size_t len = nl ? (size_t)(nl - u) : strlen(u);
			if (n + len + 2 >= sizeof line)
				len = sizeof line - n - 2;
			if (n)
				line[n++] = ' ';
			memcpy(line + n, u, len);
			n += len;
			u += len + (nl != NULL);
			while (*u == ' ')
				u++;
			if (!nl || !strncmp(u, "rdscope ", 8))
				break;
		}
		line[n] = '\0';
		if (!strncmp(u, "rdscope ", 8))
			u += 8;
		fputs("\\fBrdscope\\fR ", f);
		roff_usage(f, line);
		fputs("\n.br\n", f);
	}
}

static void write_synopsis(FILE *f)
{
	fputs(".SH SYNOPSIS\n"
	      ".\\\" Generated from the command table in src/cmd/cli_table.c: edit the table,\n"
	      ".\\\" then run 'make man-gen'. A test fails when this section and the table differ.\n"
	      ".ad l\n.nh\n",
	      f);
	/* the no-command form first, then the commands in the table's order */
	const cli_cmd *def = cli_cmd_of(CLI_DEFAULT);
	if (def)
		synopsis_lines(f, def->usage);
	for (size_t i = 0; i < cli_ncmds; i++) {
		const cli_cmd *c = &cli_cmds[i];
		if (c->cmd == CLI_DEFAULT)
			continue;
		synopsis_lines(f, c->synopsis ? c->synopsis : c->usage);
	}
	fputs(".hy\n.ad b\n", f);
}

char *cli_man_synopsis(void)
{
	return written(write_synopsis);
}

char *cli_man_update(const char *page)
{
	char *options = cli_man_options(), *keys = cli_man_model_keys(), *syn = cli_man_synopsis();
	char *a = options && keys && syn ? man_section_replace(page, "OPTIONS", options) : NULL;
	char *b = a ? man_section_replace(a, "KEYS OF THE MODEL", keys) : NULL;
	char *c = b ? man_section_replace(b, "SYNOPSIS", syn) : NULL;
	free(options);
	free(keys);
	free(syn);
	free(a);
	free(b);
	return c;
}

char *man_read(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t len;
	FILE *m = open_memstream(&buf, &len);
	int c;
	while (m && (c = getc(f)) != EOF)
		putc(c, m);
	int bad = ferror(f);
	fclose(f);
	if (!m)
		return NULL;
	char *s = finish(m, &buf);
	if (s && bad) {
		free(s);
		return NULL;
	}
	return s;
}
