// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer driver: each input is a flattened device tree, run through
 * sen_harness_run().  Inputs that are not a well-formed blob are kept out
 * of the corpus.
 *
 * Byte-level mutation of a blob mostly breaks its structure, so the
 * mutator works on the tree with libfdt: it rewrites a property's value
 * (libFuzzer's own mutation of the bytes, or one cell set to an edge
 * value or to some node's phandle), deletes a property or a node, copies
 * a property to another node, copies a node (without its children) next
 * to another, renames a node, and grows or shrinks a cell array.  One in
 * sixteen mutations is libFuzzer's plain one.
 */
#include <libfdt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sen_test.h"

/*
 * libFuzzer's interface, under kernel-style names: the asm labels give
 * the symbols libFuzzer calls (and, for the mutate helper, provides).
 */
size_t sen_fuzz_mutate(uint8_t *data, size_t size, size_t max_size)
	__asm__("LLVMFuzzerMutate");
size_t sen_fuzz_custom_mutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed)
	__asm__("LLVMFuzzerCustomMutator");
int sen_fuzz_initialize(int *argc, char ***argv)
	__asm__("LLVMFuzzerInitialize");
int sen_fuzz_test_one_input(const uint8_t *data, size_t size)
	__asm__("LLVMFuzzerTestOneInput");

#define SEN_MAX_VALUE	4096
#define SEN_MAX_PROPS	64

/* xorshift32: @state must not be 0; mutate.c draws from it too. */
u32 sen_rand(u32 *state)
{
	u32 x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

static int sen_nr_nodes(const void *fdt)
{
	int off, n = 0;

	for (off = fdt_next_node(fdt, -1, NULL); off >= 0;
	     off = fdt_next_node(fdt, off, NULL))
		n++;
	return n;
}

/* A random node's offset; the root only if @root. */
static int sen_pick_node(const void *fdt, u32 *rs, bool root)
{
	int n = sen_nr_nodes(fdt), k, off;

	if (n <= !root)
		return -1;
	k = sen_rand(rs) % (n - !root) + !root;
	for (off = fdt_next_node(fdt, -1, NULL); off >= 0 && k--;
	     off = fdt_next_node(fdt, off, NULL))
		;
	return off;
}

/* A random property of @node: its name and a copy of its value. */
static int sen_pick_prop(const void *fdt, int node, u32 *rs, char *name,
			 size_t name_len, u8 *val)
{
	int prop, n = 0, k, len;
	const char *pname;
	const void *pval;

	fdt_for_each_property_offset(prop, fdt, node)
		n++;
	if (!n)
		return -1;
	k = sen_rand(rs) % n;
	fdt_for_each_property_offset(prop, fdt, node)
		if (!k--)
			break;
	pval = fdt_getprop_by_offset(fdt, prop, &pname, &len);
	/* a corrupt length reads as negative: see sen_copy_node() */
	if (!pval || len < 0 || len > SEN_MAX_VALUE || strlen(pname) >= name_len)
		return -1;
	strcpy(name, pname);
	memcpy(val, pval, len);
	return len;
}

static u32 sen_edge_value(const void *fdt, u32 *rs, u32 old)
{
	static const u32 edges[] = {
		0, 1, 2, 3, 4, 7, 8, 31, 32, 33, 1023, 1024, 1025, 0x7fffffff,
		0x80000000, 0xfffffffe, 0xffffffff, 64000000, 64000001,
	};
	int node;

	switch (sen_rand(rs) % 5) {
	case 0:
		return edges[sen_rand(rs) % ARRAY_SIZE(edges)];
	case 1:
		return old + (sen_rand(rs) % 7) - 3;
	case 2:
		node = sen_pick_node(fdt, rs, true);
		return node >= 0 ? fdt_get_phandle(fdt, node) : 0;
	case 3:
		return sen_rand(rs) % 100000;
	default:
		return old * 2 + (sen_rand(rs) & 1) - (old / 2) * (sen_rand(rs) & 2);
	}
}

static void sen_put32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static u32 sen_get32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

/* Copy @src's properties (not "phandle") into a new child of @parent. */
static int sen_copy_node(void *fdt, int src, int parent, u32 *rs)
{
	struct { char name[64]; int len; u8 *val; } props[SEN_MAX_PROPS];
	char name[64];
	const char *sname;
	int prop, n = 0, i, off, ret = 0, len;

	sname = fdt_get_name(fdt, src, &len);
	if (!sname || len + 4 >= (int)sizeof(name))
		return -1;
	memcpy(name, sname, len + 1);
	/* bump a digit, or append one, so that the name is new */
	for (i = len - 1; i >= 0 && (name[i] < '0' || name[i] > '9'); i--)
		;
	if (i >= 0 && sen_rand(rs) & 1)
		name[i] = '0' + sen_rand(rs) % 10;
	else
		sprintf(name + len, "%u", sen_rand(rs) % 10);

	fdt_for_each_property_offset(prop, fdt, src) {
		const char *pname;
		const void *val = fdt_getprop_by_offset(fdt, prop, &pname, &len);

		/*
		 * A length read as negative (a corrupt length field) once
		 * reached malloc() here: take only what the tree can hold.
		 */
		if (!val || len < 0 || len > SEN_MAX_VALUE || n == SEN_MAX_PROPS ||
		    strlen(pname) >= 64 ||
		    !strcmp(pname, "phandle") || !strcmp(pname, "linux,phandle"))
			continue;
		strcpy(props[n].name, pname);
		props[n].len = len;
		props[n].val = malloc(len ? len : 1);
		if (!props[n].val)
			abort();
		memcpy(props[n].val, val, len);
		n++;
	}
	off = fdt_add_subnode(fdt, parent, name);
	for (i = 0; i < n; i++) {
		if (off >= 0 && !ret)
			ret = fdt_setprop(fdt, off, props[i].name, props[i].val,
					  props[i].len);
		free(props[i].val);
	}
	return off < 0 ? off : ret;
}

static int sen_mutate_tree(void *fdt, u32 *rs)
{
	static u8 val[SEN_MAX_VALUE + 64];
	char name[256];
	int node, other, len, ret;

	switch (sen_rand(rs) % 9) {
	case 0:		/* libFuzzer mutates a property's bytes */
	case 1:
		node = sen_pick_node(fdt, rs, true);
		len = node < 0 ? -1 : sen_pick_prop(fdt, node, rs, name, sizeof(name), val);
		if (len < 0)
			return -1;
		len = sen_fuzz_mutate(val, len, len + 16 < (int)sizeof(val) ?
				       len + 16 : (int)sizeof(val));
		return fdt_setprop(fdt, node, name, val, len);
	case 2:		/* one cell to an edge value or a phandle */
	case 3:
		node = sen_pick_node(fdt, rs, true);
		len = node < 0 ? -1 : sen_pick_prop(fdt, node, rs, name, sizeof(name), val);
		if (len < 4)
			return -1;
		other = 4 * (sen_rand(rs) % (len / 4));
		sen_put32(val + other, sen_edge_value(fdt, rs, sen_get32(val + other)));
		return fdt_setprop(fdt, node, name, val, len);
	case 4:		/* delete a property */
		node = sen_pick_node(fdt, rs, true);
		len = node < 0 ? -1 : sen_pick_prop(fdt, node, rs, name, sizeof(name), val);
		return len < 0 ? -1 : fdt_delprop(fdt, node, name);
	case 5:		/* delete a node */
		node = sen_pick_node(fdt, rs, false);
		return node < 0 ? -1 : fdt_del_node(fdt, node);
	case 6:		/* copy a property to another node */
		node = sen_pick_node(fdt, rs, true);
		len = node < 0 ? -1 : sen_pick_prop(fdt, node, rs, name, sizeof(name), val);
		other = sen_pick_node(fdt, rs, true);
		if (len < 0 || other < 0)
			return -1;
		return fdt_setprop(fdt, other, name, val, len);
	case 7:		/* copy a node next to its siblings or elsewhere */
		node = sen_pick_node(fdt, rs, false);
		if (node < 0)
			return -1;
		other = sen_rand(rs) & 1 ? fdt_parent_offset(fdt, node) :
			sen_pick_node(fdt, rs, true);
		return other < 0 ? -1 : sen_copy_node(fdt, node, other, rs);
	default:	/* grow or shrink a cell array by one cell */
		node = sen_pick_node(fdt, rs, true);
		len = node < 0 ? -1 : sen_pick_prop(fdt, node, rs, name, sizeof(name), val);
		if (len < 0)
			return -1;
		if (len >= 4 && sen_rand(rs) & 1) {
			len -= 4;
		} else {
			sen_put32(val + len, len >= 4 ? sen_get32(val + len - 4) -
				  sen_rand(rs) % 3 : sen_rand(rs) % 4);
			len += 4;
		}
		ret = fdt_setprop(fdt, node, name, val, len);
		return ret;
	}
}

size_t sen_fuzz_custom_mutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed)
{
	u32 rs = seed | 1;
	size_t out;
	void *fdt;
	int i, n;

	/* not fdt_check_full() alone: it can loop for ever (sen_fdt_check()) */
	if (sen_fdt_check(data, size) || !(sen_rand(&rs) % 16))
		return sen_fuzz_mutate(data, size, max_size);
	fdt = malloc(max_size);
	if (!fdt)
		abort();
	if (fdt_open_into(data, fdt, max_size)) {
		free(fdt);
		return sen_fuzz_mutate(data, size, max_size);
	}
	n = 1 + sen_rand(&rs) % 3;
	for (i = 0; i < n; i++)
		sen_mutate_tree(fdt, &rs);
	if (fdt_pack(fdt) || fdt_totalsize(fdt) > max_size) {
		free(fdt);
		return sen_fuzz_mutate(data, size, max_size);
	}
	out = fdt_totalsize(fdt);
	memcpy(data, fdt, out);
	free(fdt);
	return out;
}

int sen_fuzz_initialize(int *argc, char ***argv)
{
	sen_verbose = getenv("SEN_VERBOSE");
	return 0;
}

int sen_fuzz_test_one_input(const uint8_t *data, size_t size)
{
	return sen_harness_run(data, size, 0, NULL) ? 0 : -1;
}
