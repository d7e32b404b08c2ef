/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: CPU devices and the hotplug lock (a checked counter). */
#ifndef _SEN_SHIM_CPU_H
#define _SEN_SHIM_CPU_H

#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <linux/device.h>

extern int sen_cpus_read_locked;

static inline void cpus_read_lock(void)
{
	sen_cpus_read_locked++;
}

static inline void cpus_read_unlock(void)
{
	if (--sen_cpus_read_locked < 0)
		sen_bug("%s() without cpus_read_lock()", __func__);
}

struct device *get_cpu_device(unsigned int cpu);

#endif /* _SEN_SHIM_CPU_H */
