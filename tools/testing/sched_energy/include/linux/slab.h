/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: kmalloc and friends over calloc/free.  The harness can
 * make the Nth allocation of the code under test fail (sen_fail_alloc_at),
 * to run its -ENOMEM paths.
 */
#ifndef _SEN_SHIM_SLAB_H
#define _SEN_SHIM_SLAB_H

#include <linux/kernel.h>

#define GFP_KERNEL	0x1u
#define GFP_ATOMIC	0x2u
#define __GFP_ZERO	0x100u

void *kmalloc(size_t size, gfp_t flags);
void kfree(const void *p);

static inline void *kzalloc(size_t size, gfp_t flags)
{
	return kmalloc(size, flags | __GFP_ZERO);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	return kzalloc(size_mul(n, size), flags);
}

static inline void *kmalloc_array(size_t n, size_t size, gfp_t flags)
{
	return kmalloc(size_mul(n, size), flags);
}

#define kvfree(p)		kfree(p)
#define kvzalloc(s, f)		kzalloc((s), (f))

#endif /* _SEN_SHIM_SLAB_H */
