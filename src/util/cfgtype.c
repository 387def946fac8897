/* Helpers shared by the libconfig readers (see cfgtype.h). */
#include "cfgtype.h"

#include <errno.h>
#include <libconfig.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *cfgtype_name(int type)
{
	switch (type) {
	case CONFIG_TYPE_GROUP: return "a group";
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64: return "an integer";
	case CONFIG_TYPE_FLOAT: return "a floating-point number";
	case CONFIG_TYPE_STRING: return "a string";
	case CONFIG_TYPE_BOOL: return "a boolean";
	case CONFIG_TYPE_ARRAY: return "an array";
	case CONFIG_TYPE_LIST: return "a list";
	default: return "nothing";
	}
}

unsigned cfg_nesting_line(const char *text, unsigned max)
{
	unsigned line = 1, depth = 0;
	for (const char *p = text; *p; p++) {
		if (*p == '\n') {
			line++;
		} else if (*p == '"') { /* a string; \" does not end it */
			for (p++; *p && *p != '"'; p++) {
				if (*p == '\\' && p[1])
					p++;
				else if (*p == '\n')
					line++;
			}
			if (!*p)
				return 0;
		} else if (*p == '#' || (*p == '/' && p[1] == '/')) {
			p += strcspn(p, "\n");
			if (!*p)
				return 0;
			line++;
		} else if (*p == '/' && p[1] == '*') {
			for (p += 2; *p && !(*p == '*' && p[1] == '/'); p++)
				if (*p == '\n')
					line++;
			if (!*p)
				return 0;
			p++;
		} else if (*p == '{' || *p == '(' || *p == '[') {
			if (++depth > max)
				return line;
		} else if ((*p == '}' || *p == ')' || *p == ']') && depth) {
			depth--;
		}
	}
	return 0;
}

/* The line of the first @include, or 0. libconfig 1.5 exit()s on some
 * (upstream issue 292), and a description or a preset is one file:
 * refused. */
unsigned cfg_include_line(const char *text)
{
	unsigned line = 1;
	for (const char *p = text; *p; line++) {
		p += strspn(p, " \t");
		if (!strncmp(p, "@include", 8))
			return line;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return 0;
}

char *cfg_read_text(const char *path, size_t max, const char *what, char *why, size_t whylen)
{
	struct stat st;
	/* fopen succeeds on a directory; say what is wrong before reading. */
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, "%s", strerror(EISDIR));
		return NULL;
	}
	errno = 0;
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(why, whylen, "%s", strerror(errno ? errno : EIO));
		return NULL;
	}
	char *text = malloc(max + 1);
	size_t n = text ? fread(text, 1, max + 1, f) : 0;
	int bad = text ? ferror(f) : ENOMEM;
	fclose(f);
	if (!text || bad) {
		snprintf(why, whylen, "%s", strerror(text ? EIO : ENOMEM));
		free(text);
		return NULL;
	}
	if (n > max) {
		snprintf(why, whylen, "larger than %zu bytes: not a %s", max, what);
		free(text);
		return NULL;
	}
	text[n] = '\0';
	if (strlen(text) != n) {
		snprintf(why, whylen, "NUL byte: not a %s (a binary file?)", what);
		free(text);
		return NULL;
	}
	return text;
}
