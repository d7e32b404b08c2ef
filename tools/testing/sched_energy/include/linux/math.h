/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: abs() of any integer type, as the kernel's own, for the
 * inline helpers of include/linux/sched/energy.h.
 */
#ifndef _SEN_SHIM_MATH_H
#define _SEN_SHIM_MATH_H

#include <linux/kernel.h>

#undef abs
#define abs(x) ({ __typeof__(x) __x = (x); __x < 0 ? -__x : __x; })

#endif
