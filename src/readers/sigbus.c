/* SIGBUS from a mapped input that shrank (see sigbus.h). */
#define _POSIX_C_SOURCE 200809L
#include "sigbus.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

/* What the handler restores: set from the UI thread while no SIGBUS can
 * be handled concurrently with the change (the handler only reads). */
static volatile sig_atomic_t term_set;
static int term_fd = -1;
static char term_seq[128];
static size_t term_len;
static struct termios term_saved;

static void on_sigbus(int sig)
{
	(void)sig;
	static const char msg[] = "rdscope: an input file shrank while in use (was it "
				  "overwritten in place?); stopped\n";
	if (term_set) {
		ssize_t w = write(term_fd, term_seq, term_len);
		(void)w;
		tcsetattr(term_fd, TCSANOW, &term_saved);
	}
	ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
	(void)w;
	_exit(1);
}

void sigbus_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigbus;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

void sigbus_terminal(int fd, const char *seq, const struct termios *saved)
{
	term_set = 0;
	if (!seq || !saved)
		return;
	size_t n = strlen(seq);
	if (n >= sizeof term_seq)
		n = sizeof term_seq - 1;
	memcpy(term_seq, seq, n);
	term_len = n;
	term_saved = *saved;
	term_fd = fd;
	term_set = 1;
}
