/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: cpufreq policies as the fake platform creates them from
 * the device tree (one per OPP table, as drivers/cpufreq/emu-cpufreq.c
 * does).  cpufreq_cpu_get()/put() count references; the harness checks
 * they balance.
 */
#ifndef _SEN_SHIM_CPUFREQ_H
#define _SEN_SHIM_CPUFREQ_H

#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <linux/notifier.h>

#define CPUFREQ_ENTRY_INVALID		~0u
#define CPUFREQ_TABLE_END		~1u
#define CPUFREQ_BOOST_FREQ		BIT(0)
#define CPUFREQ_INEFFICIENT_FREQ	BIT(1)

struct cpufreq_frequency_table {
	unsigned int flags;
	unsigned int driver_data;
	unsigned int frequency;		/* kHz - doesn't need to be in ascending order */
};

struct cpufreq_cpuinfo {
	unsigned int max_freq;
	unsigned int min_freq;
	unsigned int transition_latency;
};

struct cpufreq_policy {
	cpumask_var_t cpus;
	cpumask_var_t related_cpus;
	unsigned int cpu;
	unsigned int cur;
	struct cpufreq_cpuinfo cpuinfo;
	struct cpufreq_frequency_table *freq_table;
	int sen_refs;			/* fake: cpufreq_cpu_get() count */
};

#define CPUFREQ_TRANSITION_NOTIFIER	(0)
#define CPUFREQ_POLICY_NOTIFIER		(1)
#define CPUFREQ_CREATE_POLICY		(0)
#define CPUFREQ_REMOVE_POLICY		(1)

struct cpufreq_policy *cpufreq_cpu_get(unsigned int cpu);
void cpufreq_cpu_put(struct cpufreq_policy *policy);
int cpufreq_register_notifier(struct notifier_block *nb, unsigned int list);
int cpufreq_unregister_notifier(struct notifier_block *nb, unsigned int list);

/*
 * The table loops' step: the entry at *@next, or with @valid_only the
 * first at or after it that is not CPUFREQ_ENTRY_INVALID; *@next moves
 * past it.  As in the kernel, the loops end on the CPUFREQ_TABLE_END
 * entry, where they leave pos.
 */
static inline struct cpufreq_frequency_table *
sen_cpufreq_next(struct cpufreq_frequency_table **next, bool valid_only)
{
	struct cpufreq_frequency_table *pos = *next;

	while (valid_only && pos->frequency == CPUFREQ_ENTRY_INVALID)
		pos++;
	*next = pos + 1;
	return pos;
}

#define cpufreq_for_each_entry(pos, table)				\
	for (struct cpufreq_frequency_table *__sen_next = (table);	\
	     ((pos) = sen_cpufreq_next(&__sen_next, false))->frequency != \
	     CPUFREQ_TABLE_END;)

#define cpufreq_for_each_valid_entry(pos, table)			\
	for (struct cpufreq_frequency_table *__sen_next = (table);	\
	     ((pos) = sen_cpufreq_next(&__sen_next, true))->frequency != \
	     CPUFREQ_TABLE_END;)

#endif /* _SEN_SHIM_CPUFREQ_H */
