/*
 * Set-index functions (Nugteren et al., HPCA 2014, §4.3 and §5.1; Kiani
 * and Rajabzadeh, RDGC, Table 2).
 * All take the line address (byte address / line size).
 */
#include "rdscope.h"

static uint32_t log2u(uint32_t v)
{
	uint32_t r = 0;
	while (v > 1)
		v >>= 1, r++;
	return r;
}

uint32_t rd_hash_prime(uint32_t n)
{
	for (uint32_t p = n; p >= 2; p--) {
		int prime = 1;
		for (uint64_t d = 2; d * d <= p; d++) /* (64 bits: p near 2^32) */
			if (p % d == 0) {
				prime = 0;
				break;
			}
		if (prime)
			return p;
	}
	return 1;
}

#define BIT(v, i) (((v) >> (i)) & 1u)

/*
 * The Fermi hash of the paper: byte-address bits 7-11 XOR bits
 * 13,14,15,17,19, with bit 12 prefixed as the sixth bit for 64 sets.
 * Written on byte addresses, so with other line sizes the same byte bits
 * are used (the line's first byte).
 */
static uint32_t fermi_paper(uint64_t byte, uint32_t sets)
{
	uint32_t lo = (uint32_t)(byte >> 7) & 31u;
	uint32_t hi = BIT(byte, 13) | BIT(byte, 14) << 1 | BIT(byte, 15) << 2 |
		      BIT(byte, 17) << 3 | BIT(byte, 19) << 4;
	uint32_t idx = lo ^ hi;
	if (sets == 64)
		idx |= (uint32_t)BIT(byte, 12) << 5;
	return idx % sets;
}

/*
 * The 2013 reference code computes the same formula on *line* address bits
 * and reduces modulo any set count: ((l[4:0] ^ hi) + 32*l5) mod sets. For
 * 128-byte lines and 32/64 sets it equals fermi_paper().
 */
static uint32_t fermi_ref2013(uint64_t l, uint32_t sets)
{
	uint32_t lo = (uint32_t)l & 31u;
	uint32_t hi = BIT(l, 6) | BIT(l, 7) << 1 | BIT(l, 8) << 2 | BIT(l, 10) << 3 |
		      BIT(l, 12) << 4;
	return ((lo ^ hi) + 32u * BIT(l, 5)) % sets;
}

uint32_t rd_set_index(const rd_config *c, uint32_t sets, uint64_t line)
{
	if (sets <= 1)
		return 0;
	switch (c->l1_hash) {
	case RD_HASH_MOD:
		return (uint32_t)(line % sets);
	case RD_HASH_XOR: {
		uint32_t s = log2u(sets);
		return (uint32_t)((line ^ (line >> s)) & (sets - 1));
	}
	case RD_HASH_FERMI:
		if (c->model == RD_PROFILE_REF2013)
			return fermi_ref2013(line, sets);
		return fermi_paper(line * c->l1_line, sets);
	case RD_HASH_SMOD:
		return (uint32_t)((line >> c->l1_hash_shift) % sets);
	case RD_HASH_PRIME:
		return (uint32_t)(line % rd_hash_prime(sets));
	}
	return 0;
}
