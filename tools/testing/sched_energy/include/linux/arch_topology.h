/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: the arch_topology state that the fake platform fills
 * from the device tree as drivers/base/arch_topology.c does (cpu-map
 * cluster ids, capacity-dmips-mhz capacities).
 */
#ifndef _SEN_SHIM_ARCH_TOPOLOGY_H
#define _SEN_SHIM_ARCH_TOPOLOGY_H

#include <linux/kernel.h>

struct cpu_topology {
	int thread_id;
	int core_id;
	int cluster_id;
	int package_id;
};

extern struct cpu_topology cpu_topology[NR_CPUS];
extern unsigned long sen_cpu_scale[NR_CPUS];

#define topology_physical_package_id(cpu)	(cpu_topology[cpu].package_id)
#define topology_cluster_id(cpu)		(cpu_topology[cpu].cluster_id)
#define topology_core_id(cpu)			(cpu_topology[cpu].core_id)

static inline unsigned long topology_get_cpu_scale(int cpu)
{
	return sen_cpu_scale[cpu];
}

#endif /* _SEN_SHIM_ARCH_TOPOLOGY_H */
