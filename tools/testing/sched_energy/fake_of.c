// SPDX-License-Identifier: GPL-2.0
/*
 * The device-tree API (drivers/of/base.c, property.c) over a tree
 * unflattened from the input blob with libfdt, as drivers/of/fdt.c does:
 * children and properties in blob order, phandles from "phandle" or
 * "linux,phandle", node names without the unit address.
 *
 * Departures from the kernel:
 *  - the blob must pass fdt_check_full(), after a walk of its tags that
 *    must move forward (libfdt 1.6.1's check can loop for ever, see
 *    sen_fdt_walk_ends()); the kernel only checks the header of its boot
 *    blob, and libfdt's parser is not under test;
 *  - property values are copied into buffers of their exact length, so a
 *    read past a value is a sanitizer report; string properties are read
 *    no further than their length (the kernel runs strcmp() on them);
 *  - np->name is the node name up to '@', or an explicit "name" property
 *    cut at its first NUL; no "name" property is added to the list;
 *  - no aliases, no "ibm,phandle", no overlays, nodes deeper than the
 *    kernel's FDT_MAX_DEPTH are dropped with their subtrees as it does;
 *  - references are counted per node, and a put that would drop a node
 *    below the count it was built with aborts ("Bad of_node_put()").
 */
#include <libfdt.h>

#include <linux/kernel.h>
#include <linux/of.h>
#include <linux/string.h>

#include "sen_test.h"

#define SEN_FDT_MAX_DEPTH	64

static struct device_node *sen_of_root_node;
static struct device_node *sen_of_allnodes;

static u32 sen_be32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 | b[3];
}

static char *sen_strndup(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (!d)
		abort();
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static struct device_node *sen_of_unflatten(const void *blob, int offset,
					    struct device_node *parent,
					    struct device_node ***tail,
					    int depth)
{
	struct device_node *np, **pchild;
	const struct property *name_prop = NULL;
	struct property **pprop;
	const char *fullname;
	int len, prop, child;

	fullname = fdt_get_name(blob, offset, &len);
	if (!fullname)
		return NULL;

	np = calloc(1, sizeof(*np));
	if (!np)
		abort();
	np->full_name = sen_strndup(fullname, len);
	np->parent = parent;
	np->refcount = 1;
	if (!parent) {
		np->path = sen_strndup("/", 1);
	} else {
		size_t plen = strlen(parent->path);
		bool root = !parent->parent;

		np->path = malloc(plen + len + 2);
		if (!np->path)
			abort();
		sprintf(np->path, "%s%s%s", root ? "" : parent->path,
			"/", np->full_name);
	}
	**tail = np;
	*tail = &np->allnext;

	pprop = &np->properties;
	fdt_for_each_property_offset(prop, blob, offset) {
		const char *pname;
		const void *val;
		struct property *pp;
		int sz;

		val = fdt_getprop_by_offset(blob, prop, &pname, &sz);
		/* libfdt may hand back a value with an error as its length. */
		if (!val || !pname || sz < 0)
			continue;
		pp = calloc(1, sizeof(*pp));
		if (!pp)
			abort();
		pp->name = sen_strndup(pname, strlen(pname));
		pp->length = sz;
		pp->value = malloc(sz);
		if (!pp->value && sz)
			abort();
		memcpy(pp->value, val, sz);
		if ((!strcmp(pname, "phandle") || !strcmp(pname, "linux,phandle")) &&
		    sz >= 4 && !np->phandle)
			np->phandle = sen_be32(val);
		if (!strcmp(pname, "name"))
			name_prop = pp;
		*pprop = pp;
		pprop = &pp->next;
	}

	if (name_prop)
		np->name = sen_strndup(name_prop->value,
				       strnlen(name_prop->value, name_prop->length));
	else
		np->name = sen_strndup(fullname, strcspn(fullname, "@"));

	if (depth + 1 >= SEN_FDT_MAX_DEPTH - 1)
		return np;
	pchild = &np->child;
	fdt_for_each_subnode(child, blob, offset) {
		struct device_node *c = sen_of_unflatten(blob, child, np, tail,
							 depth + 1);

		if (c) {
			*pchild = c;
			pchild = &c->sibling;
		}
	}
	return np;
}

/*
 * Walk the structure block's tags as fdt_check_full() will, and refuse a
 * blob on which that walk would not end.  libfdt 1.6.1 (Debian 12) adds
 * a property's 32-bit length to an int offset: a length near 4 GiB
 * sends the next offset backwards, onto a tag already read, and
 * fdt_check_full() loops for ever.  Each step must move forward, so the
 * walk takes at most one step per tag-sized word of the blob.
 *
 * Return: 0 if the walk reaches FDT_END moving forward, else -1.
 */
static int sen_fdt_walk_ends(const void *blob)
{
	int offset, next = 0, steps = fdt_totalsize(blob) / FDT_TAGSIZE + 1;
	u32 tag;

	do {
		offset = next;
		tag = fdt_next_tag(blob, offset, &next);
		if (next <= offset || --steps < 0)
			return -1;
	} while (tag != FDT_END);
	return 0;
}

/*
 * Is @blob (@size bytes) a well-formed flattened device tree?  libfdt's
 * fdt_check_full(), guarded by sen_fdt_walk_ends(): every caller of the
 * harness (the loader, the fuzzer's mutator) must go through this one.
 *
 * Return: 0 if it is, else -EINVAL.
 */
int sen_fdt_check(const void *blob, size_t size)
{
	if (size < sizeof(struct fdt_header) || size > INT_MAX ||
	    fdt_check_header(blob) || fdt_totalsize(blob) > size ||
	    sen_fdt_walk_ends(blob) || fdt_check_full(blob, size))
		return -EINVAL;
	return 0;
}

/*
 * Unflatten @blob into the live tree.
 *
 * Return: 0, or -EINVAL if the blob is not a well-formed device tree.
 */
int sen_of_load(const void *blob, size_t size)
{
	struct device_node **tail = &sen_of_allnodes;

	if (sen_fdt_check(blob, size))
		return -EINVAL;
	sen_of_root_node = sen_of_unflatten(blob, 0, NULL, &tail, 0);
	return sen_of_root_node ? 0 : -EINVAL;
}

void sen_of_unload(void)
{
	struct device_node *np = sen_of_allnodes, *next;

	for (; np; np = next) {
		struct property *pp = np->properties, *pn;

		next = np->allnext;
		for (; pp; pp = pn) {
			pn = pp->next;
			free(pp->name);
			free(pp->value);
			free(pp);
		}
		free((char *)np->name);
		free((char *)np->full_name);
		free(np->path);
		free(np);
	}
	sen_of_allnodes = NULL;
	sen_of_root_node = NULL;
}

/* ---- reference counts ---- */

static int *sen_of_saved_refs;
static size_t sen_of_nr_saved;

/* Remember every node's count: what the code under test must give back. */
void sen_of_save_refs(void)
{
	struct device_node *np;
	size_t n = 0;

	for (np = sen_of_allnodes; np; np = np->allnext)
		n++;
	free(sen_of_saved_refs);
	sen_of_saved_refs = calloc(n ? n : 1, sizeof(int));
	if (!sen_of_saved_refs)
		abort();
	sen_of_nr_saved = n;
	n = 0;
	for (np = sen_of_allnodes; np; np = np->allnext)
		sen_of_saved_refs[n++] = np->refcount;
}

void sen_of_check_refs(const char *when)
{
	struct device_node *np;
	size_t n = 0;

	for (np = sen_of_allnodes; np && n < sen_of_nr_saved; np = np->allnext, n++)
		if (np->refcount != sen_of_saved_refs[n])
			sen_bug("%s: %pOF: reference count %d, was %d: %s",
				when, np, np->refcount, sen_of_saved_refs[n],
				"of_node_get() without of_node_put()");
}

struct device_node *of_node_get(struct device_node *np)
{
	if (np)
		np->refcount++;
	return np;
}

void of_node_put(struct device_node *np)
{
	if (!np)
		return;
	if (np->refcount <= 1)
		sen_bug("ERROR: Bad %s() on %pOF", __func__, np);
	np->refcount--;
}

/* ---- properties ---- */

struct property *of_find_property(const struct device_node *np,
				  const char *name, int *lenp)
{
	struct property *pp;

	if (!np)
		return NULL;
	for (pp = np->properties; pp; pp = pp->next) {
		if (!strcmp(pp->name, name)) {
			if (lenp)
				*lenp = pp->length;
			return pp;
		}
	}
	return NULL;
}

const void *of_get_property(const struct device_node *np, const char *name,
			    int *lenp)
{
	struct property *pp = of_find_property(np, name, lenp);

	return pp ? pp->value : NULL;
}

int of_property_count_elems_of_size(const struct device_node *np,
				    const char *propname, int elem_size)
{
	struct property *prop = of_find_property(np, propname, NULL);

	if (!prop)
		return -EINVAL;
	if (!prop->value && prop->length)
		return -ENODATA;
	if (prop->length % elem_size != 0) {
		pr_err("size of %s in node %pOF is not a multiple of %d\n",
		       propname, np, elem_size);
		return -EINVAL;
	}
	return prop->length / elem_size;
}

static const void *sen_prop_value_of_size(const struct device_node *np,
					  const char *propname, u32 min,
					  u32 max, size_t *len)
{
	struct property *prop = of_find_property(np, propname, NULL);

	if (!prop)
		return ERR_PTR(-EINVAL);
	if ((u32)prop->length < min)
		return ERR_PTR(-EOVERFLOW);
	if (max && (u32)prop->length > max)
		return ERR_PTR(-EOVERFLOW);
	if (len)
		*len = prop->length;
	return prop->value;
}

int of_property_read_variable_u32_array(const struct device_node *np,
					const char *propname, u32 *out_values,
					size_t sz_min, size_t sz_max)
{
	size_t sz, count;
	const u8 *val = sen_prop_value_of_size(np, propname,
					       sz_min * sizeof(*out_values),
					       sz_max * sizeof(*out_values), &sz);

	if (IS_ERR(val))
		return PTR_ERR(val);
	if (!sz_max)
		sz = sz_min;
	else
		sz /= sizeof(*out_values);
	count = sz;
	while (count--) {
		*out_values++ = sen_be32(val);
		val += 4;
	}
	return sz;
}

int of_property_read_u64(const struct device_node *np, const char *propname,
			 u64 *out_value)
{
	const u8 *val = sen_prop_value_of_size(np, propname, sizeof(*out_value),
					       0, NULL);

	if (IS_ERR(val))
		return PTR_ERR(val);
	*out_value = (u64)sen_be32(val) << 32 | sen_be32(val + 4);
	return 0;
}

int of_n_addr_cells(struct device_node *np)
{
	u32 cells;

	do {
		if (np->parent)
			np = np->parent;
		if (!of_property_read_u32(np, "#address-cells", &cells))
			return cells;
	} while (np->parent);
	return 1;	/* OF_ROOT_NODE_ADDR_CELLS_DEFAULT */
}

/* The next string of a string-list property, bounded by its length. */
static const char *sen_next_string(const struct property *prop, const char *cur,
				   size_t *len)
{
	const char *start = prop->value, *end = start + prop->length;

	cur = cur ? cur + *len + 1 : start;
	if (cur >= end)
		return NULL;
	*len = strnlen(cur, end - cur);
	return cur;
}

static bool sen_prop_string_is(const struct property *prop, const char *s)
{
	size_t len;
	const char *cur = prop ? sen_next_string(prop, NULL, &len) : NULL;

	return cur && len == strlen(s) && !memcmp(cur, s, len);
}

bool of_device_is_compatible(const struct device_node *device,
			     const char *compat)
{
	struct property *prop = of_find_property(device, "compatible", NULL);
	const char *cur = NULL;
	size_t len = 0;

	if (!prop)
		return false;
	while ((cur = sen_next_string(prop, cur, &len)))
		if (len == strlen(compat) && !strncasecmp(cur, compat, len))
			return true;
	return false;
}

bool of_device_is_available(const struct device_node *device)
{
	struct property *status;

	if (!device)
		return false;
	status = of_find_property(device, "status", NULL);
	if (!status)
		return true;
	return status->length > 0 &&
	       (sen_prop_string_is(status, "okay") || sen_prop_string_is(status, "ok"));
}

/* __of_device_is_fail(): status "fail" or "fail-...". */
static bool sen_of_device_is_fail(const struct device_node *device)
{
	struct property *status = of_find_property(device, "status", NULL);
	size_t len;
	const char *s = status ? sen_next_string(status, NULL, &len) : NULL;

	return s && ((len == 4 && !memcmp(s, "fail", 4)) ||
		     (len >= 5 && !memcmp(s, "fail-", 5)));
}

bool of_machine_is_compatible(const char *compat)
{
	return of_device_is_compatible(sen_of_root_node, compat);
}

bool of_node_name_eq(const struct device_node *np, const char *name)
{
	const char *node_name;
	size_t len;

	if (!np)
		return false;
	node_name = kbasename(np->full_name);
	len = strcspn(node_name, "@");
	return strlen(name) == len && !strncmp(node_name, name, len);
}

bool of_node_name_prefix(const struct device_node *np, const char *prefix)
{
	if (!np)
		return false;
	return !strncmp(kbasename(np->full_name), prefix, strlen(prefix));
}

/* ---- nodes ---- */

struct device_node *of_get_next_child(const struct device_node *node,
				      struct device_node *prev)
{
	struct device_node *next;

	if (!node)
		return NULL;
	next = prev ? prev->sibling : node->child;
	of_node_get(next);
	of_node_put(prev);
	return next;
}

struct device_node *of_get_next_available_child(const struct device_node *node,
						struct device_node *prev)
{
	struct device_node *next;

	if (!node)
		return NULL;
	next = prev ? prev->sibling : node->child;
	for (; next; next = next->sibling)
		if (of_device_is_available(next))
			break;
	of_node_get(next);
	of_node_put(prev);
	return next;
}

struct device_node *of_get_child_by_name(const struct device_node *node,
					 const char *name)
{
	struct device_node *child;

	for_each_child_of_node(node, child)
		if (of_node_name_eq(child, name))
			break;
	return child;
}

/* Absolute paths only; a component matches a node's full name exactly. */
struct device_node *of_find_node_by_path(const char *path)
{
	struct device_node *np = sen_of_root_node;

	if (!np || path[0] != '/')
		return NULL;
	while (np && *path) {
		struct device_node *child;
		size_t len;

		while (*path == '/')
			path++;
		len = strcspn(path, "/:");
		if (!len)
			break;
		for (child = np->child; child; child = child->sibling) {
			const char *name = kbasename(child->full_name);

			if (!strncmp(path, name, len) && strlen(name) == len)
				break;
		}
		np = child;
		path += len;
	}
	return of_node_get(np);
}

struct device_node *of_find_node_by_phandle(phandle handle)
{
	struct device_node *np;

	if (!handle)
		return NULL;
	for (np = sen_of_allnodes; np; np = np->allnext)
		if (np->phandle == handle)
			break;
	return of_node_get(np);
}

struct device_node *of_parse_phandle(const struct device_node *np,
				     const char *phandle_name, int index)
{
	int len;
	const u8 *list = of_get_property(np, phandle_name, &len);

	if (!list || index < 0 || index >= len / 4)
		return NULL;
	return of_find_node_by_phandle(sen_be32(list + 4 * index));
}

/* The CPU nodes of /cpus in order, skipping failed ones. */
static struct device_node *sen_next_cpu_node(struct device_node *prev)
{
	struct device_node *next;

	if (prev) {
		next = prev->sibling;
	} else {
		struct device_node *cpus = of_find_node_by_path("/cpus");

		next = cpus ? cpus->child : NULL;
		of_node_put(cpus);
	}
	for (; next; next = next->sibling) {
		struct property *type = of_find_property(next, "device_type", NULL);

		if (sen_of_device_is_fail(next))
			continue;
		if (of_node_name_eq(next, "cpu") || sen_prop_string_is(type, "cpu"))
			break;
	}
	of_node_get(next);
	of_node_put(prev);
	return next;
}

u64 sen_cpu_logical_map(unsigned int cpu);

/* arch_find_n_match_cpu_physical_id(): any of the node's reg entries. */
static bool sen_cpu_node_matches(struct device_node *cpun, int cpu,
				 unsigned int *thread)
{
	/* as size_t arithmetic, like the kernel's sizeof(*cell) * ac */
	size_t ac = (u32)of_n_addr_cells(cpun), tid, i;
	int len;
	const u8 *cell = of_get_property(cpun, "reg", &len);

	if (!cell && !ac && sen_cpu_logical_map(cpu) == 0)
		return true;
	if (!cell || !ac)
		return false;
	for (tid = 0; tid < (size_t)len / (4 * ac); tid++) {
		u64 hwid = 0;

		for (i = 0; i < ac; i++)
			hwid = hwid << 32 | sen_be32(cell + 4 * (tid * ac + i));
		if (hwid == sen_cpu_logical_map(cpu)) {
			if (thread)
				*thread = tid;
			return true;
		}
	}
	return false;
}

struct device_node *of_get_cpu_node(int cpu, unsigned int *thread)
{
	struct device_node *np;

	for (np = sen_next_cpu_node(NULL); np; np = sen_next_cpu_node(np))
		if (sen_cpu_node_matches(np, cpu, thread))
			return np;
	return NULL;
}

/* For the fake platform: walk the CPU nodes as for_each_of_cpu_node(). */
struct device_node *sen_of_next_cpu_node(struct device_node *prev)
{
	return sen_next_cpu_node(prev);
}
