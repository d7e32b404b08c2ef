/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: initcalls are not collected; the wrappers (sen_kernel.c,
 * sen_arch.c) call the static init functions when the harness "boots".
 */
#ifndef _SEN_SHIM_INIT_H
#define _SEN_SHIM_INIT_H

#include <linux/kernel.h>

typedef int (*initcall_t)(void);

#define __sen_initcall(fn, lvl)						\
	static initcall_t __initcall_ ## fn ## lvl __used = fn
#define core_initcall(fn)		__sen_initcall(fn, 1)
#define subsys_initcall(fn)		__sen_initcall(fn, 4)
#define fs_initcall(fn)			__sen_initcall(fn, 5)
#define device_initcall(fn)		__sen_initcall(fn, 6)
#define late_initcall(fn)		__sen_initcall(fn, 7)
#define late_initcall_sync(fn)		__sen_initcall(fn, 7s)

#endif /* _SEN_SHIM_INIT_H */
