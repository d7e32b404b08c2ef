/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: capacity scale; arch_scale_cpu_capacity() is arm64's,
 * the arch_topology CPU scale (set by the fake platform).
 */
#ifndef _SEN_SHIM_SCHED_TOPOLOGY_H
#define _SEN_SHIM_SCHED_TOPOLOGY_H

#include <linux/kernel.h>
#include <linux/arch_topology.h>

#define SCHED_CAPACITY_SHIFT	10
#define SCHED_CAPACITY_SCALE	((long)BIT(SCHED_CAPACITY_SHIFT))

#define arch_scale_cpu_capacity	topology_get_cpu_scale

#endif /* _SEN_SHIM_SCHED_TOPOLOGY_H */
