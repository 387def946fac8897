/*
 * terminfo lookups kept apart: <term.h> defines hundreds of short macros
 * (lines, columns, bell...) that must not leak into the other UI files.
 */
#include "termseq.h"

#include <curses.h>
#include <string.h>
#include <term.h>

static void append(char *buf, size_t len, const char *cap)
{
	char *s = tigetstr(cap);
	if (!s || s == (char *)-1)
		return; /* absent or not a string capability */
	size_t used = strlen(buf), n = strlen(s);
	if (used + n < len)
		memcpy(buf + used, s, n + 1);
}

void termseq_restore(char *buf, size_t len)
{
	if (!len)
		return;
	buf[0] = '\0';
	append(buf, len, "rmcup");
	append(buf, len, "cnorm");
}

int termseq_can_address(int fd)
{
	int err = 0;
	TERMINAL *saved = cur_term;
	if (setupterm(NULL, fd, &err) != OK)
		return -1;
	char *cup = tigetstr("cup");
	int ok = cup && cup != (char *)-1;
	del_curterm(cur_term);
	set_curterm(saved);
	return ok;
}
