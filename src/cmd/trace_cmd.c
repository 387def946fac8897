/*
 * The trace commands (see trace_cmd.h).
 */
#include "trace_cmd.h"
#include "batch.h"
#include "samefile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kdesc/kdesc.h"

#include "readers/readers.h"
#include "writers/writers.h"
#include "util/util.h"

int trace_cmd_convert(const cli *c)
{
	if (c->ninputs != 2)
		return cli_usage_error("%s: expected INPUT and OUT.rdt", "convert", NULL);
	if (samefile_check(c))
		return EXIT_USAGE;
	const char *src = c->inputs[0], *dst = c->inputs[1];
	if (!strcmp(dst, "-"))
		return cli_usage_error("%s: OUT must be a file (.rdt is written in place, then "
				       "renamed)", "convert", NULL);
	char err[1024];
	input_opts opts = cli_input_opts(c);
	input *in;
	int st = input_open(src, &opts, &in, err, sizeof err);
	if (st != INPUT_OK) {
		msg_error("%s", err);
		return st == INPUT_ENOMEM ? EXIT_RUNTIME : EXIT_USAGE;
	}
	outfile out = {0};
	outfile_catch_signals();
	if (outfile_open(&out, dst, err, sizeof err) < 0) {
		msg_error("%s", err);
		input_close(in);
		return EXIT_RUNTIME;
	}
	rdt_writer *w = rdt_writer_open(out.f);
	int rc = w ? EXIT_OK : EXIT_RUNTIME;
	if (!w)
		msg_error("%s: %s", dst, strerror(errno));
	unsigned long nk = 0;
	rd_kernel_builder *serial = NULL; /* --one-thread: every kernel as one */
	unsigned long long nl = 0, ns = 0;
	while (rc == EXIT_OK) {
		rd_kernel *k;
		st = input_next(in, &k, err, sizeof err);
		if (st == INPUT_END)
			break;
		if (st != INPUT_OK) {
			msg_error("%s", err);
			rc = st == INPUT_ENOMEM ? EXIT_RUNTIME : EXIT_USAGE;
			break;
		}
		if (c->one_thread) { /* every kernel into one, as one thread */
			if ((!serial && !(serial = rd_kernel_builder_new("serial", 1, 1, 1))) ||
			    rd_kernel_builder_add_serial(serial, k) < 0) {
				msg_error("out of memory");
				rc = EXIT_RUNTIME;
			}
			nl += k->nloads;
			ns += k->nstores;
			rd_kernel_free(k);
			continue;
		}
		if (rdt_writer_add(w, k) < 0) {
			msg_error("%s: %s", dst, strerror(errno));
			rc = EXIT_RUNTIME;
		}
		nk++;
		nl += k->nloads;
		ns += k->nstores;
		rd_kernel_free(k);
	}
	input_close(in);
	if (serial && rc == EXIT_OK) {
		rd_kernel *k = rd_kernel_builder_finish(serial);
		serial = NULL;
		if (!k) {
			msg_error("out of memory");
			rc = EXIT_RUNTIME;
		} else if (rdt_writer_add(w, k) < 0) {
			msg_error("%s: %s", dst, strerror(errno));
			rc = EXIT_RUNTIME;
		}
		nk = 1;
		rd_kernel_free(k);
	}
	rd_kernel_builder_free(serial);
	if (w && rc == EXIT_OK) {
		if (rdt_writer_finish(w) < 0) {
			msg_error("%s: %s", dst, strerror(errno));
			rc = EXIT_RUNTIME;
		}
	} else {
		rdt_writer_free(w);
	}
	if (rc == EXIT_OK && outfile_commit(&out, err, sizeof err) < 0) {
		msg_error("%s", err);
		rc = EXIT_RUNTIME;
	}
	if (rc != EXIT_OK) {
		outfile_abort(&out);
		return rc;
	}
	if (!c->quiet)
		printf("%s: %lu kernel%s, %llu loads, %llu stores\n", dst, nk, nk == 1 ? "" : "s", nl,
		       ns);
	return EXIT_OK;
}

int trace_cmd_samples(const cli *c)
{
	if (c->ninputs)
		return cli_usage_error("%s: takes no arguments", "samples", NULL);
	if (samples_list(stdout) < 0) {
		msg_error("samples: out of memory");
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

int trace_cmd_kdesc_check(const cli *c)
{
	if (!c->from_c || c->ninputs)
		return cli_command_error(c, "%s: --from-c FILE.c expected (and nothing else)");
	return 0;
}

int trace_cmd_kdesc(const cli *c)
{
	if (samefile_check(c))
		return EXIT_USAGE;
	char err[1024], *text, *desc;
	size_t n;
	int oom;
	if (read_text_file(c->from_c, KDESC_MAX_BYTES, &text, &n, err, sizeof err, &oom,
			   "a NUL byte: not a C file", NULL) < 0) {
		msg_error("%s", err);
		return oom ? EXIT_RUNTIME : EXIT_USAGE;
	}
	int rc = kdesc_from_c(text, n, c->from_c, c->defines, (size_t)c->ndefines, &desc, err,
			      sizeof err);
	free(text);
	if (rc < 0) {
		msg_error("%s", err);
		return strcmp(err, "out of memory") ? EXIT_USAGE : EXIT_RUNTIME;
	}
	outfile out;
	if (batch_output_begin(c, &out)) {
		free(desc);
		return EXIT_RUNTIME;
	}
	fputs(desc, out.f);
	free(desc);
	return batch_output_end(&out, EXIT_OK);
}
