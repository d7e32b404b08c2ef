/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: nothing of the scheduler proper is needed. */
#ifndef _SEN_SHIM_SCHED_H
#define _SEN_SHIM_SCHED_H

#include <linux/kernel.h>

#endif /* _SEN_SHIM_SCHED_H */
