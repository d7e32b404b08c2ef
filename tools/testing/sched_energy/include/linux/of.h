/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: the device-tree API over a tree unflattened from the
 * input blob by fake_of.c.  Node references are counted; the harness
 * checks that the code under test returns every one it takes, and a put
 * below the count the tree was built with aborts ("Bad of_node_put()").
 */
#ifndef _SEN_SHIM_OF_H
#define _SEN_SHIM_OF_H

#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/types.h>

struct property {
	char *name;
	int length;
	void *value;
	struct property *next;
};

struct device_node {
	const char *name;		/* node name without unit address */
	const char *full_name;		/* node name with unit address */
	u32 phandle;
	struct property *properties;
	struct device_node *parent;
	struct device_node *child;
	struct device_node *sibling;
	/* fake only */
	char *path;			/* full path, for %pOF and lookups */
	int refcount;
	struct device_node *allnext;	/* every node, depth first */
};

struct device_node *of_node_get(struct device_node *np);
void of_node_put(struct device_node *np);

struct device_node *of_find_node_by_path(const char *path);
struct device_node *of_find_node_by_phandle(phandle handle);
struct device_node *of_get_next_child(const struct device_node *node,
				      struct device_node *prev);
struct device_node *of_get_next_available_child(const struct device_node *node,
						struct device_node *prev);
struct device_node *of_get_child_by_name(const struct device_node *node,
					 const char *name);
struct device_node *of_parse_phandle(const struct device_node *np,
				     const char *phandle_name, int index);
struct device_node *of_get_cpu_node(int cpu, unsigned int *thread);

struct property *of_find_property(const struct device_node *np,
				  const char *name, int *lenp);
const void *of_get_property(const struct device_node *np, const char *name,
			    int *lenp);
int of_property_count_elems_of_size(const struct device_node *np,
				    const char *propname, int elem_size);
int of_property_read_variable_u32_array(const struct device_node *np,
					const char *propname, u32 *out_values,
					size_t sz_min, size_t sz_max);
int of_property_read_u64(const struct device_node *np, const char *propname,
			 u64 *out_value);
int of_n_addr_cells(struct device_node *np);

bool of_device_is_compatible(const struct device_node *device,
			     const char *compat);
bool of_device_is_available(const struct device_node *device);
bool of_machine_is_compatible(const char *compat);
bool of_node_name_eq(const struct device_node *np, const char *name);
bool of_node_name_prefix(const struct device_node *np, const char *prefix);

static inline int of_property_count_u32_elems(const struct device_node *np,
					      const char *propname)
{
	return of_property_count_elems_of_size(np, propname, sizeof(u32));
}

static inline int of_property_read_u32_array(const struct device_node *np,
					     const char *propname,
					     u32 *out_values, size_t sz)
{
	int ret = of_property_read_variable_u32_array(np, propname, out_values,
						      sz, 0);

	return ret >= 0 ? 0 : ret;
}

static inline int of_property_read_u32(const struct device_node *np,
				       const char *propname, u32 *out_value)
{
	return of_property_read_u32_array(np, propname, out_value, 1);
}

static inline bool of_property_read_bool(const struct device_node *np,
					 const char *propname)
{
	return of_find_property(np, propname, NULL);
}

/*
 * The child loops' cursor: as the kernel's loops, each step puts the
 * previous child and gets the next one.
 */
struct sen_of_iter {
	const struct device_node *node;
	struct device_node *child;
};

static inline struct device_node *sen_of_iter_next(struct sen_of_iter *it,
						   bool available_only)
{
	if (available_only)
		it->child = of_get_next_available_child(it->node, it->child);
	else
		it->child = of_get_next_child(it->node, it->child);
	return it->child;
}

#define for_each_child_of_node(parent, child)				\
	for (struct sen_of_iter __sen_it = { .node = (parent) };	\
	     ((child) = sen_of_iter_next(&__sen_it, false));)
#define for_each_available_child_of_node(parent, child)		\
	for (struct sen_of_iter __sen_it = { .node = (parent) };	\
	     ((child) = sen_of_iter_next(&__sen_it, true));)

#endif /* _SEN_SHIM_OF_H */
