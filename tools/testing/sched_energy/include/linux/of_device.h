/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: a CPU's DT node, from its device as in the kernel. */
#ifndef _SEN_SHIM_OF_DEVICE_H
#define _SEN_SHIM_OF_DEVICE_H

#include <linux/cpu.h>
#include <linux/of.h>

static inline struct device_node *of_cpu_device_node_get(int cpu)
{
	struct device *cpu_dev = get_cpu_device(cpu);

	if (!cpu_dev)
		return of_get_cpu_node(cpu, NULL);
	return of_node_get(cpu_dev->of_node);
}

#endif /* _SEN_SHIM_OF_DEVICE_H */
