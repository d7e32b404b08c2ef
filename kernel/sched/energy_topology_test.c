// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the CPU topology that sched-energy builds its platform
 * model on: clusters partition the CPUs, all CPUs of a cluster have one
 * capacity, the biggest CPU has capacity SCHED_CAPACITY_SCALE, the sched
 * domain carrying SD_ASYM_CPUCAPACITY_FULL sees every capacity, and each
 * cpufreq policy (a performance domain) lies within one cluster.
 *
 * They run on whatever board the kernel boots on; checks that only make
 * sense on an asymmetric board or with a cpufreq driver are skipped,
 * with the reason, elsewhere.
 */
#include <kunit/test.h>
#include <linux/arch_topology.h>
#include <linux/cpufreq.h>
#include <linux/cpumask.h>
#include <linux/sched/cputime.h>

#include "sched.h"

static void se_topo_cluster_masks_partition(struct kunit *test)
{
	int cpu, other;

	for_each_possible_cpu(cpu) {
		const struct cpumask *cl = topology_cluster_cpumask(cpu);

		KUNIT_EXPECT_TRUE_MSG(test, cpumask_test_cpu(cpu, cl),
				      "cpu%d not in its own cluster", cpu);
		for_each_possible_cpu(other) {
			const struct cpumask *ocl = topology_cluster_cpumask(other);

			KUNIT_EXPECT_TRUE_MSG(test, cpumask_equal(cl, ocl) ||
					      !cpumask_intersects(cl, ocl),
					      "clusters of cpu%d and cpu%d overlap",
					      cpu, other);
		}
	}
}

static void se_topo_cluster_capacity_uniform(struct kunit *test)
{
	int cpu, other;

	for_each_possible_cpu(cpu) {
		for_each_cpu(other, topology_cluster_cpumask(cpu))
			KUNIT_EXPECT_EQ_MSG(test, arch_scale_cpu_capacity(cpu),
					    arch_scale_cpu_capacity(other),
					    "cpu%d and cpu%d share a cluster",
					    cpu, other);
	}
}

static void se_topo_max_capacity_is_scale(struct kunit *test)
{
	unsigned long max = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		KUNIT_EXPECT_GT(test, arch_scale_cpu_capacity(cpu), 0UL);
		max = max(max, arch_scale_cpu_capacity(cpu));
	}
	KUNIT_EXPECT_EQ(test, max, SCHED_CAPACITY_SCALE);
}

static bool se_topo_asymmetric(void)
{
	int cpu;

	for_each_online_cpu(cpu)
		if (arch_scale_cpu_capacity(cpu) !=
		    arch_scale_cpu_capacity(cpumask_first(cpu_online_mask)))
			return true;
	return false;
}

static void se_topo_asym_domain_sees_all_capacities(struct kunit *test)
{
	int cpu, other;

	if (!se_topo_asymmetric())
		kunit_skip(test, "all online CPUs have the same capacity");

	rcu_read_lock();
	for_each_online_cpu(cpu) {
		struct sched_domain *sd;

		sd = rcu_dereference(per_cpu(sd_asym_cpucapacity, cpu));
		/* No ASSERT here: it would leave the RCU read section. */
		KUNIT_EXPECT_NOT_NULL_MSG(test, sd, "cpu%d has no asym domain", cpu);
		if (!sd)
			continue;
		KUNIT_EXPECT_TRUE(test, sd->flags & SD_ASYM_CPUCAPACITY_FULL);
		for_each_online_cpu(other)
			KUNIT_EXPECT_TRUE_MSG(test,
					      cpumask_test_cpu(other, sched_domain_span(sd)),
					      "cpu%d's asym domain misses cpu%d",
					      cpu, other);
	}
	rcu_read_unlock();
}

static void se_topo_perf_domains_within_clusters(struct kunit *test)
{
	int cpu, policies = 0;

	for_each_possible_cpu(cpu) {
		struct cpufreq_policy *policy = cpufreq_cpu_get(cpu);

		if (!policy)
			continue;
		policies++;
		KUNIT_EXPECT_TRUE_MSG(test, cpumask_subset(policy->related_cpus,
							   topology_cluster_cpumask(cpu)),
				      "cpu%d: policy %*pbl crosses its cluster %*pbl", cpu,
				      cpumask_pr_args(policy->related_cpus),
				      cpumask_pr_args(topology_cluster_cpumask(cpu)));
		cpufreq_cpu_put(policy);
	}
	if (!policies)
		kunit_skip(test, "no cpufreq policies");
}

static struct kunit_case se_topo_cases[] = {
	KUNIT_CASE(se_topo_cluster_masks_partition),
	KUNIT_CASE(se_topo_cluster_capacity_uniform),
	KUNIT_CASE(se_topo_max_capacity_is_scale),
	KUNIT_CASE(se_topo_asym_domain_sees_all_capacities),
	KUNIT_CASE(se_topo_perf_domains_within_clusters),
	{}
};

static struct kunit_suite se_topo_suite = {
	.name = "sched_energy_topology",
	.test_cases = se_topo_cases,
};

kunit_test_suite(se_topo_suite);
