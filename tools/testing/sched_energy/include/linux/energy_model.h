/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: the kernel energy model (kernel/power/energy_model.c)
 * as the fake platform registers it for each cpufreq policy, with the
 * checks and the cost computation of em_dev_register_perf_domain().
 */
#ifndef _SEN_SHIM_ENERGY_MODEL_H
#define _SEN_SHIM_ENERGY_MODEL_H

#include <linux/kernel.h>
#include <linux/cpumask.h>

struct em_perf_state {
	unsigned long frequency;
	unsigned long power;
	unsigned long cost;
	unsigned long flags;
};

#define EM_PERF_STATE_INEFFICIENT	BIT(0)

struct em_perf_domain {
	struct em_perf_state *table;
	int nr_perf_states;
	unsigned long flags;
	unsigned long cpus[];
};

#define EM_PERF_DOMAIN_MICROWATTS		BIT(0)
#define EM_PERF_DOMAIN_SKIP_INEFFICIENCIES	BIT(1)
#define EM_PERF_DOMAIN_ARTIFICIAL		BIT(2)

#define em_span_cpus(em)	(to_cpumask((em)->cpus))
#define em_is_artificial(em)	((em)->flags & EM_PERF_DOMAIN_ARTIFICIAL)

#define EM_MAX_POWER		(64000000) /* 64 Watts */

struct em_perf_domain *em_cpu_get(int cpu);

#endif /* _SEN_SHIM_ENERGY_MODEL_H */
