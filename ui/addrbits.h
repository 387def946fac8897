/*
 * Address -> line -> set, spelled out bit by bit for the step-through view:
 * which bits of the byte address are the line offset, the set index and
 * the tag, and for hashed indices which tag bits are folded in. The set is
 * computed here from the bits themselves (a unit test checks it against
 * the model's rd_set_index for every hash), so what the screen says is
 * the computation, not a paraphrase of it. Pure: no curses.
 */
#ifndef UI_ADDRBITS_H
#define UI_ADDRBITS_H

#include <stddef.h>
#include <stdint.h>

#include "rdscope.h"

enum bit_role {
	BIT_OFFSET = 0, /* byte within the line */
	BIT_INDEX,      /* selects the set directly */
	BIT_TAG,        /* identifies the line within its set */
	BIT_HASHED,     /* a tag bit XORed into the index (xor, fermi) */
	BIT_MOD,        /* set = line mod S, S no power of two: every bit counts */
};

#define ADDR_BITS_MAX 48

typedef struct addr_bits {
	int nbits;                          /* bits shown: nbits-1 .. 0 */
	unsigned char role[ADDR_BITS_MAX];  /* enum bit_role of byte-address bit i */
	uint64_t line;                      /* addr / line size */
	uint32_t set;                       /* the set the bits give */
	char how[400];                      /* "line[4:0]^line[9:5] = 10110^00011 = 10101 = 21" */
} addr_bits;

/* Spell out addr under configuration c with sets sets. */
void addr_bits_explain(const rd_config *c, uint32_t sets, uint64_t addr, addr_bits *out);

/* The set-index function of c with sets sets, in general terms:
 * "b[11:7]^b{19,17,15,14,13}" (b: byte-address bits, line: line address). */
void addr_bits_formula(const rd_config *c, uint32_t sets, char *buf, size_t len);

/* The letter of a role in the legend line under the bits: o i t x m. */
char addr_bits_letter(enum bit_role r);

/*
 * The legend of the roles seen (seen[role] != 0), set apart from the role
 * letters it follows: "  o=offset i=index t=tag" (terse: "  o=off i=idx
 * t=tag"), so that it never reads as more role letters.
 */
void addr_bits_legend(const int seen[5], int terse, char *buf, size_t len);

#endif
