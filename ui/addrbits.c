/* Address bits and the set computation, spelled out (see addrbits.h). */
#include "addrbits.h"

#include <stdio.h>
#include <string.h>

static unsigned log2_floor(uint64_t v)
{
	unsigned r = 0;
	while (v > 1)
		v >>= 1, r++;
	return r;
}

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* Bits v[n-1..0] as "10110" into buf. */
static void bin(uint64_t v, unsigned n, char *buf)
{
	for (unsigned i = 0; i < n; i++)
		buf[i] = (char)('0' + ((v >> (n - 1 - i)) & 1));
	buf[n] = '\0';
}

/* " = 21" after a binary "10101"; nothing when the decimal reads the same
 * ("= 1 = 1"). */
static const char *dec_tail(const char *binary, unsigned v, char *buf, size_t len)
{
	char d[16];
	snprintf(d, sizeof d, "%u", v);
	if (strcmp(d, binary) == 0)
		return "";
	snprintf(buf, len, " = %s", d);
	return buf;
}

char addr_bits_letter(enum bit_role r)
{
	static const char l[] = "oitxm";
	return (unsigned)r < 5 ? l[r] : '?';
}

/* Mark byte-address bit b with role r (offset bits stay offset: they are
 * zero in the line's first byte, which is what the hashes see). */
static void mark(addr_bits *o, unsigned ob, unsigned b, enum bit_role r)
{
	if (b < ADDR_BITS_MAX && b >= ob)
		o->role[b] = (unsigned char)r;
}

#define BIT(v, i) (((v) >> (i)) & 1u)

void addr_bits_explain(const rd_config *c, uint32_t sets, uint64_t addr, addr_bits *o)
{
	memset(o, 0, sizeof *o);
	unsigned ob = log2_floor(c->l1_line ? c->l1_line : 1);
	uint64_t line = addr >> ob;
	o->line = line;
	unsigned top = ob; /* highest bit the index uses, +1 */
	for (unsigned b = 0; b < ADDR_BITS_MAX; b++)
		o->role[b] = b < ob ? BIT_OFFSET : BIT_TAG;
	char a[72], b2[72];
	if (sets <= 1) {
		o->set = 0;
		snprintf(o->how, sizeof o->how,
			 "one set, fully associative (one LRU stack)");
	} else {
		unsigned s = log2_floor(sets);
		switch (c->l1_hash) {
		case RD_HASH_MOD:
		case RD_HASH_SMOD: {
			unsigned sh = c->l1_hash == RD_HASH_SMOD ? c->l1_hash_shift : 0;
			uint64_t v = sh < 64 ? line >> sh : 0;
			o->set = (uint32_t)(v % sets);
			char pre[40] = "line";
			if (sh)
				snprintf(pre, sizeof pre, "(line >> %u)", sh);
			if (is_pow2(sets)) {
				for (unsigned i = 0; i < s; i++)
					mark(o, ob, ob + sh + i, BIT_INDEX);
				top = ob + sh + s;
				bin(o->set, s, a);
				char bits[24], t[24];
				if (s == 1)
					snprintf(bits, sizeof bits, "bit %u", sh);
				else
					snprintf(bits, sizeof bits, "bits %u..%u", sh + s - 1, sh);
				snprintf(o->how, sizeof o->how, "%s mod %u = %s = %s%s", pre, sets, bits,
					 a, dec_tail(a, o->set, t, sizeof t));
			} else {
				for (unsigned i = ob + sh; i < ADDR_BITS_MAX; i++)
					mark(o, ob, i, BIT_MOD);
				top = ob + sh + s + 1;
				snprintf(o->how, sizeof o->how, "%s mod %u = %llu mod %u = %u", pre,
					 sets, (unsigned long long)v, sets, o->set);
			}
			break;
		}
		case RD_HASH_PRIME: {
			uint32_t p = rd_hash_prime(sets);
			o->set = (uint32_t)(line % p);
			for (unsigned i = ob; i < ADDR_BITS_MAX; i++)
				mark(o, ob, i, BIT_MOD);
			top = ob + s + 1;
			snprintf(o->how, sizeof o->how,
				 "line mod %u (a prime <= %u) = %llu mod %u = %u", p, sets,
				 (unsigned long long)line, p, o->set);
			break;
		}
		case RD_HASH_XOR: {
			uint64_t lo = line & (sets - 1), hi = (line >> s) & (sets - 1);
			o->set = (uint32_t)(lo ^ hi);
			for (unsigned i = 0; i < s; i++) {
				mark(o, ob, ob + i, BIT_INDEX);
				mark(o, ob, ob + s + i, BIT_HASHED);
			}
			top = ob + 2 * s;
			bin(lo, s, a);
			bin(hi, s, b2);
			char r[40], t[24];
			bin(o->set, s, r);
			snprintf(o->how, sizeof o->how, "line[%u:0]^line[%u:%u] = %s^%s = %s%s",
				 s - 1, 2 * s - 1, s, a, b2, r, dec_tail(r, o->set, t, sizeof t));
			break;
		}
		case RD_HASH_FERMI:
			if (c->model == RD_PROFILE_REF2013) {
				/* The 2013 code: the same formula on line-address bits. */
				static const unsigned hb[5] = {6, 7, 8, 10, 12};
				uint64_t lo = line & 31u, hi = 0;
				for (int i = 0; i < 5; i++) {
					hi |= (uint64_t)BIT(line, hb[i]) << i;
					mark(o, ob, ob + hb[i], BIT_HASHED);
					mark(o, ob, ob + (unsigned)i, BIT_INDEX);
				}
				mark(o, ob, ob + 5, BIT_INDEX);
				o->set = (uint32_t)(((lo ^ hi) + 32u * BIT(line, 5)) % sets);
				top = ob + 13;
				bin(lo, 5, a);
				bin(hi, 5, b2);
				snprintf(o->how, sizeof o->how,
					 "(l[4:0]^l{12,10,8,7,6} + 32*l5) mod %u = (%s^%s + %u) mod %u = %u",
					 sets, a, b2, 32u * (unsigned)BIT(line, 5), sets, o->set);
			} else {
				/* Nugteren et al., HPCA 2014, §5.1, on the line's first byte. */
				static const unsigned hb[5] = {13, 14, 15, 17, 19};
				uint64_t byte = line << ob;
				uint64_t lo = (byte >> 7) & 31u, hi = 0;
				for (int i = 0; i < 5; i++) {
					hi |= (uint64_t)BIT(byte, hb[i]) << i;
					mark(o, ob, hb[i], BIT_HASHED);
					mark(o, ob, 7u + (unsigned)i, BIT_INDEX);
				}
				uint32_t idx = (uint32_t)(lo ^ hi);
				if (sets == 64) {
					mark(o, ob, 12, BIT_INDEX);
					idx |= (uint32_t)BIT(byte, 12) << 5;
				}
				o->set = idx % sets;
				top = 20;
				bin(lo, 5, a);
				bin(hi, 5, b2);
				char r[8];
				bin(lo ^ hi, 5, r);
				if (sets == 64)
					snprintf(o->how, sizeof o->how,
						 "b12:b[11:7]^b{19,17,15,14,13} = %u:%s^%s = %u",
						 (unsigned)BIT(byte, 12), a, b2, o->set);
				else {
					char t[24];
					snprintf(o->how, sizeof o->how,
						 "b[11:7]^b{19,17,15,14,13} = %s^%s = %s%s", a, b2, r,
						 dec_tail(r, o->set, t, sizeof t));
				}
			}
			break;
		}
	}
	/* Show every bit the index uses, the address's highest one, and a
	 * few tag bits, in whole nibbles. */
	unsigned n = top + 4;
	unsigned hi = addr ? log2_floor(addr) + 1 : 1;
	if (hi > n)
		n = hi;
	n = (n + 3) / 4 * 4;
	o->nbits = n > ADDR_BITS_MAX ? ADDR_BITS_MAX : (int)n;
}

void addr_bits_formula(const rd_config *c, uint32_t sets, char *buf, size_t len)
{
	unsigned s = log2_floor(sets);
	if (sets <= 1) {
		snprintf(buf, len, "one set, fully associative");
		return;
	}
	switch (c->l1_hash) {
	case RD_HASH_MOD:
		if (is_pow2(sets))
			snprintf(buf, len, "line mod %u = line[%u:0]", sets, s - 1);
		else
			snprintf(buf, len, "line mod %u", sets);
		return;
	case RD_HASH_SMOD:
		snprintf(buf, len, "(line >> %u) mod %u", c->l1_hash_shift, sets);
		return;
	case RD_HASH_PRIME:
		snprintf(buf, len, "line mod %u (a prime <= %u)", rd_hash_prime(sets),
			 sets);
		return;
	case RD_HASH_XOR:
		snprintf(buf, len, "line[%u:0]^line[%u:%u]", s - 1, 2 * s - 1, s);
		return;
	case RD_HASH_FERMI:
		if (c->model == RD_PROFILE_REF2013)
			snprintf(buf, len, "(l[4:0]^l{12,10,8,7,6} + 32*l5) mod %u", sets);
		else if (sets == 64)
			snprintf(buf, len, "b12:b[11:7]^b{19,17,15,14,13}");
		else
			snprintf(buf, len, "b[11:7]^b{19,17,15,14,13}");
		return;
	}
	snprintf(buf, len, "?");
}

void addr_bits_legend(const int seen[5], int terse, char *buf, size_t len)
{
	static const char *const names[2][5] = {{"offset", "index", "tag", "hashed", "mod"},
						{"off", "idx", "tag", "xor", "mod"}};
	size_t o = 0;
	buf[0] = '\0';
	for (int r = 0; r < 5; r++) {
		if (!seen[r] || o >= len)
			continue;
		int n = snprintf(buf + o, len - o, "%s%c=%s", o ? " " : "  ",
				 addr_bits_letter((enum bit_role)r), names[terse != 0][r]);
		if (n < 0)
			break;
		o += (size_t)n;
	}
}
