/*
 * Built-in sample kernels (see sample_builtin.h). Accesses go through the
 * same kernel builder as the trace readers, in the order a tracer would
 * emit them, so a sample behaves exactly like the equivalent .trc file.
 */
#include "sample_builtin.h"

#include <stdio.h>

#include "trace.h"

#define COLCOPY_SRC 0x10000000ULL
#define COLCOPY_DST 0x20000000ULL

rd_kernel *sample_colcopy(uint32_t height, uint32_t width, uint32_t elem)
{
	if (height == 0 || width == 0 || elem == 0 || elem > 65535)
		return NULL;
	char name[80];
	int n = snprintf(name, sizeof name, "fig3-colcopy-h%u", height);
	if (width != 1024)
		n += snprintf(name + n, sizeof name - (size_t)n, "-w%u", width);
	if (elem != 4)
		snprintf(name + n, sizeof name - (size_t)n, "-e%u", elem);

	rd_kernel_builder *b = rd_kernel_builder_new(name, height, 1, 1);
	if (!b)
		return NULL;
	/* A copy loop: each iteration loads one element, then stores it. */
	for (uint32_t t = 0; t < height; t++) {
		if ((t & 63) == 0 && trace_stopped()) { /* abandoned (trace.h) */
			rd_kernel_builder_free(b);
			return NULL;
		}
		for (uint32_t j = 0; j < width; j++) {
			uint64_t off = ((uint64_t)t * width + j) * elem;
			if (rd_kernel_builder_add(b, t, 0, COLCOPY_SRC + off, elem) < 0 ||
			    rd_kernel_builder_add(b, t, 1, COLCOPY_DST + off, elem) < 0) {
				rd_kernel_builder_free(b);
				return NULL;
			}
		}
	}
	return rd_kernel_builder_finish(b);
}

rd_kernel *sample_builtin(void)
{
	return sample_colcopy(256, 1024, 4);
}
