/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: the kernel's spellings of compiler attributes and of
 * sparse's annotations, defined once here for the shims, the fakes and
 * the code under test.  __always_inline is glibc's (sys/cdefs.h), which
 * spells it as the kernel does.
 */
#ifndef _SEN_SHIM_COMPILER_TYPES_H
#define _SEN_SHIM_COMPILER_TYPES_H

#include <sys/cdefs.h>

/* sparse annotations: nothing to a compiler */
#define __rcu
#define __force
#define __user
#define __iomem
#define __bitwise

#define __sen_attribute(a)	__attribute__((a))

#define __must_check		__sen_attribute(warn_unused_result)
#define __used			__sen_attribute(used)
#define __maybe_unused		__sen_attribute(unused)
#define __printf(a, b)		__sen_attribute(format(printf, a, b))
#define __noreturn		__sen_attribute(noreturn)

#endif /* _SEN_SHIM_COMPILER_TYPES_H */
