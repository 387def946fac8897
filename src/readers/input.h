/*
 * Where kernels come from. An INPUT argument is
 *   - a trace file: Ocelot .trc, NVBit mem_trace output, Accel-Sim
 *     .traceg (or its kernelslist.g), rdscope's binary .rdt, or a kernel
 *     description; plain, gzip or xz; the format is told by the content,
 *     not the name ("-" is standard input);
 *   - a directory: an Accel-Sim traces directory (kernelslist.g) or
 *     Ocelot's NAME_NN.trc files, one kernel each;
 *   - FILE:VARIANT, a variant of a kernel description's parameters;
 *   - sample:NAME[:VARIANT], a shipped sample (samples.h);
 *   - builtin:fig3 (the paper's Figure 3 kernel) or
 *     builtin:colcopy:H[:W[:E]].
 * An input may hold several kernels; a selection (--kernel NAME|INDEX)
 * keeps some of them.
 */
#ifndef INPUT_H
#define INPUT_H

#include <stddef.h>

#include "rdscope.h"

enum input_status {
	INPUT_OK = 0,
	INPUT_EINPUT = 1, /* unreadable, malformed or unknown input */
	INPUT_ENOMEM = 2,
	INPUT_END = 3,    /* input_next: no more kernels */
};

#define INPUT_BUILTIN_PREFIX "builtin:"

/* How to read inputs. NULL members, or a NULL input_opts: the format by
 * content, every kernel. The commands pass theirs (cli_input_opts). */
typedef struct input_opts {
	const char *format; /* NULL/"auto", "ocelot", "nvbit", "accelsim", "rdt", "kdesc" */
	const char *kernel; /* NULL: every kernel; a NAME, a NAME without its
			       "[...]" launch suffix, or a 0-based INDEX */
	uint32_t line;      /* rp: inputs: bytes per generated index (l1.line); 0: 128 */
	const char *const *defines; /* -D NAME=VALUE over a description's params */
	size_t ndefines;
	/* Threads of each launch of a description: max_threads (0: all) in
	 * place of its own max_threads, when max_threads_set */
	int max_threads_set;
	uint32_t max_threads;
} input_opts;

/* The format names --input-format takes, "|"-separated, for static help
 * texts: input_format_names() makes it from the formats' table, and
 * test_traces checks the two agree. */
#define INPUT_FORMATS "auto|ocelot|nvbit|accelsim|rdt|kdesc"

/* The format names from the formats' table into buf (as snprintf: the
 * length it needs). */
size_t input_format_names(char *buf, size_t len);

/* Is name a known format (or NULL / "auto")? */
int input_format_known(const char *name);

typedef struct input input;

/* Open INPUT. On failure err says why, starting "INPUT". */
int input_open(const char *spec, const input_opts *o, input **in, char *err, size_t errlen);

/*
 * The next selected kernel: INPUT_OK with *k (free with rd_kernel_free),
 * INPUT_END after the last one (an error if the selection matched none),
 * or an error status with err set.
 */
int input_next(input *in, rd_kernel **k, char *err, size_t errlen);
/*
 * input_next for a command that models a kernel in parts (rd_parts): where
 * the reader builds a kernel's blocks apart (descriptions), *k is the
 * kernel's shape (its name, block size and arrays; no loads) and *nblocks
 * its blocks; build the parts with input_blocks, as often as needed, until
 * the next input_next*. Elsewhere *nblocks is 0 and *k the whole kernel.
 */
int input_next_shape(input *in, rd_kernel **k, uint64_t *nblocks, char *err, size_t errlen);
/* input_next passing over the kernel, unread (a file's kernels: how many
 * the selection takes without reading one): INPUT_OK, INPUT_END after the
 * last (an error if the selection matched none), or an error status. */
int input_skip(input *in, char *err, size_t errlen);
/* The announced kernel with only the blocks keep(ctx, block) accepts. */
int input_blocks(input *in, int (*keep)(void *ctx, uint64_t block), void *ctx, rd_kernel **k,
		 char *err, size_t errlen);
/* Can the announced kernel's parts be built in chunks (input_chunks)? */
int input_can_chunk(const input *in);
/* input_blocks handing the part to sink a few blocks at a time as it is
 * built (trace_reader.load_chunks); *k is the part's shape. */
int input_chunks(input *in, int (*keep)(void *ctx, uint64_t block), void *ctx,
		 int (*sink)(void *sctx, rd_kernel *chunk), void *sctx, rd_kernel **k, char *err,
		 size_t errlen);
/* Can the announced kernel's parts be streamed (input_stream)? */
int input_can_stream(const input *in);
/* The part input_chunks would build, streamed (trace_reader.load_stream):
 * *k its shape, *src its source (input_stream_free it). */
int input_stream(input *in, int (*keep)(void *ctx, uint64_t block), void *ctx, rd_kernel **k,
		 rd_access_src **src, char *err, size_t errlen);
/* A streamed part's failure (a thread's error, "path:line: ..."), or NULL. */
const char *input_stream_error(const input *in, const rd_access_src *src);
void input_stream_free(input *in, rd_access_src *src);
void input_close(input *in);

/* The reader of a file input (its kernels not read yet), for a command
 * that runs it its own way (count: kdesc_count); NULL for rp: and builtin:
 * inputs. Its errors land in its err. */
struct trace_reader *input_reader(input *in);

/*
 * Load the one kernel INPUT names. An input with several kernels needs a
 * selection naming one (the error lists the first names).
 */
int input_load(const char *spec, rd_kernel **out, char *err, size_t errlen);
/* The same with options (NULL: by content, every kernel). */
int input_load_with(const char *spec, const input_opts *o, rd_kernel **out, char *err,
		    size_t errlen);

/*
 * The names of INPUT's kernels (all of them, ignoring the selection), for
 * a kernel list: *names is a malloc'd array of malloc'd strings (free with
 * input_names_free). Returns INPUT_OK or an error status.
 */
int input_names(const char *spec, const input_opts *o, char ***names, size_t *n, char *err,
		size_t errlen);
void input_names_free(char **names, size_t n);

#endif
