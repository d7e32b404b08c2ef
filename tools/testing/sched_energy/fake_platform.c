// SPDX-License-Identifier: GPL-2.0
/*
 * The platform the builder reads, derived from the device tree the way
 * Linux 6.1 derives it on the project's boards, in boot order:
 *
 *  1. possible CPUs (arch/arm64/kernel/smp.c, of_parse_and_init_cpus()):
 *     /cpus children named "cpu" or of device_type "cpu", numbered in
 *     blob order after the boot CPU, whose MPIDR is taken to be 0 as on
 *     QEMU virt; bad or duplicate reg values leave holes in the numbering;
 *  2. topology and capacity (drivers/base/arch_topology.c): cpu-map
 *     socket/cluster/core/thread nodes give the cluster ids, and
 *     capacity-dmips-mhz of the CPUs reached from it the raw capacities,
 *     normalised to 1024 and again by each policy's fmax once every CPU
 *     has a policy;
 *  3. cpufreq policies and the energy model as the project's emulated
 *     DVFS driver makes them (drivers/cpufreq/emu-cpufreq.c): one policy
 *     per operating-points-v2 table, power from opp-microwatt or from
 *     dynamic-power-coefficient x V^2 x f, any bad table disabling DVFS
 *     as a whole; the energy model registered per policy with the checks
 *     of em_dev_register_perf_domain() (kernel/power/energy_model.c).
 *
 * Departures from Linux: every possible CPU is online and has a device;
 * enable-method, clocks (clock-frequency freq_factor), ACPI and NUMA are
 * ignored; raw_capacity is sized by nr_cpu_ids where 6.1 sizes it by
 * num_possible_cpus() (and would overrun it when the numbering has
 * holes); the cpufreq core's governors, sysfs and QoS do not exist, only
 * the policy fields the builder reads.
 */
#include <linux/arch_topology.h>
#include <linux/cpu.h>
#include <linux/cpufreq.h>
#include <linux/cpumask.h>
#include <linux/energy_model.h>
#include <linux/kernel.h>
#include <linux/of.h>
#include <linux/of_device.h>
#include <linux/sched/topology.h>
#include <linux/string.h>

#include "sen_test.h"

#define INVALID_HWID		ULONG_MAX
#define MPIDR_HWID_BITMASK	0xff00ffffffUL

unsigned int nr_cpu_ids = 1;
struct cpumask __cpu_possible_mask;
struct cpumask __cpu_online_mask;
struct cpu_topology cpu_topology[SEN_NR_CPUS];
unsigned long sen_cpu_scale[SEN_NR_CPUS];

/* For the harness: the cpu-map cluster node arch_topology put a CPU in. */
struct device_node *sen_topology_cluster[SEN_NR_CPUS];

static u64 sen_logical_map[SEN_NR_CPUS];
static struct device sen_cpu_dev[SEN_NR_CPUS];

struct device_node *sen_of_next_cpu_node(struct device_node *prev);

u64 sen_cpu_logical_map(unsigned int cpu)
{
	return cpu < SEN_NR_CPUS ? sen_logical_map[cpu] : INVALID_HWID;
}

struct device *get_cpu_device(unsigned int cpu)
{
	if (cpu < nr_cpu_ids && cpu_possible(cpu))
		return &sen_cpu_dev[cpu];
	return NULL;
}

/* ---- 1. possible CPUs ---- */

static u64 sen_of_get_cpu_hwid(struct device_node *cpun)
{
	size_t ac = (u32)of_n_addr_cells(cpun), i;
	const u8 *cell;
	u64 hwid = 0;
	int len;

	cell = of_get_property(cpun, "reg", &len);
	if (!cell || !ac || 4 * ac > (size_t)len)
		return ~0ULL;
	for (i = 0; i < ac; i++)
		hwid = hwid << 32 | ((u64)cell[4 * i] << 24 | cell[4 * i + 1] << 16 |
				     cell[4 * i + 2] << 8 | cell[4 * i + 3]);
	return hwid;
}

static bool sen_is_mpidr_duplicate(unsigned int cpu, u64 hwid)
{
	unsigned int i;

	for (i = 1; i < cpu && i < SEN_NR_CPUS; i++)
		if (sen_logical_map[i] == hwid)
			return true;
	return false;
}

static void sen_smp_init_cpus(void)
{
	struct device_node *dn;
	unsigned int cpu_count = 1, i, last = 0;
	bool bootcpu_valid = false;

	nr_cpu_ids = SEN_NR_CPUS;
	cpumask_clear(&__cpu_possible_mask);
	for (i = 0; i < SEN_NR_CPUS; i++)
		sen_logical_map[i] = INVALID_HWID;
	sen_logical_map[0] = 0;

	for (dn = sen_of_next_cpu_node(NULL); dn; dn = sen_of_next_cpu_node(dn)) {
		u64 hwid = sen_of_get_cpu_hwid(dn);

		if (hwid & ~MPIDR_HWID_BITMASK)
			goto next;
		if (sen_is_mpidr_duplicate(cpu_count, hwid)) {
			pr_err("%pOF: duplicate cpu reg properties in the DT\n", dn);
			goto next;
		}
		if (hwid == sen_logical_map[0]) {
			if (bootcpu_valid) {
				pr_err("%pOF: duplicate boot cpu reg property in DT\n", dn);
				goto next;
			}
			bootcpu_valid = true;
			continue;
		}
		if (cpu_count >= SEN_NR_CPUS)
			goto next;
		sen_logical_map[cpu_count] = hwid;
next:
		cpu_count++;
	}

	cpumask_set_cpu(0, &__cpu_possible_mask);
	if (!bootcpu_valid)
		pr_err("missing boot CPU MPIDR, not enabling secondaries\n");
	for (i = 1; bootcpu_valid && i < SEN_NR_CPUS; i++) {
		if (sen_logical_map[i] != INVALID_HWID) {
			cpumask_set_cpu(i, &__cpu_possible_mask);
			last = i;
		}
	}
	nr_cpu_ids = last + 1;
	cpumask_copy(&__cpu_online_mask, &__cpu_possible_mask);

	/* register_cpu(): each device holds its node for good */
	for (i = 0; i < SEN_NR_CPUS; i++) {
		memset(&sen_cpu_dev[i], 0, sizeof(sen_cpu_dev[i]));
		sen_cpu_dev[i].id = i;
		if (i < nr_cpu_ids && cpu_possible(i))
			sen_cpu_dev[i].of_node = of_get_cpu_node(i, NULL);
	}
}

/* ---- 2. topology and capacity ---- */

static u32 *sen_raw_capacity;
static bool sen_cap_parsing_failed;
static unsigned long sen_freq_factor[SEN_NR_CPUS];
static struct cpumask sen_cpus_to_visit;
static bool sen_cap_notifier;

static void sen_reset_cpu_topology(void)
{
	unsigned int cpu;

	for (cpu = 0; cpu < SEN_NR_CPUS; cpu++) {
		sen_topology_cluster[cpu] = NULL;
		cpu_topology[cpu].thread_id = -1;
		cpu_topology[cpu].core_id = -1;
		cpu_topology[cpu].cluster_id = -1;
		cpu_topology[cpu].package_id = -1;
	}
}

static void sen_normalize_cpu_scale(void)
{
	u64 capacity, capacity_scale = 1;
	unsigned int cpu;

	if (!sen_raw_capacity)
		return;
	for_each_possible_cpu(cpu) {
		capacity = (u64)sen_raw_capacity[cpu] * sen_freq_factor[cpu];
		capacity_scale = max(capacity, capacity_scale);
	}
	for_each_possible_cpu(cpu) {
		capacity = (u64)sen_raw_capacity[cpu] * sen_freq_factor[cpu];
		sen_cpu_scale[cpu] = div64_u64(capacity << SCHED_CAPACITY_SHIFT,
					       capacity_scale);
	}
}

static void sen_parse_cpu_capacity(struct device_node *cpu_node, int cpu)
{
	u32 cpu_capacity;

	if (sen_cap_parsing_failed)
		return;
	if (!of_property_read_u32(cpu_node, "capacity-dmips-mhz", &cpu_capacity)) {
		if (!sen_raw_capacity) {
			sen_raw_capacity = calloc(nr_cpu_ids, sizeof(*sen_raw_capacity));
			if (!sen_raw_capacity)
				abort();
		}
		sen_raw_capacity[cpu] = cpu_capacity;
	} else {
		if (sen_raw_capacity) {
			pr_err("cpu_capacity: missing %pOF raw capacity\n", cpu_node);
			pr_err("cpu_capacity: partial information: fallback to 1024 for all CPUs\n");
		}
		sen_cap_parsing_failed = true;
		free(sen_raw_capacity);
		sen_raw_capacity = NULL;
	}
}

static int sen_of_cpu_node_to_id(struct device_node *cpu_node)
{
	struct device_node *np;
	unsigned int cpu;
	bool found;

	for_each_possible_cpu(cpu) {
		np = of_cpu_device_node_get(cpu);
		found = cpu_node == np;
		of_node_put(np);
		if (found)
			return cpu;
	}
	return -ENODEV;
}

static int sen_get_cpu_for_node(struct device_node *node)
{
	struct device_node *cpu_node = of_parse_phandle(node, "cpu", 0);
	int cpu;

	if (!cpu_node)
		return -1;
	cpu = sen_of_cpu_node_to_id(cpu_node);
	if (cpu >= 0)
		sen_parse_cpu_capacity(cpu_node, cpu);
	of_node_put(cpu_node);
	return cpu;
}

static struct device_node *sen_parsing_cluster;

static void sen_set_topology(int cpu, int package_id, int cluster_id,
			     int core_id, int thread_id)
{
	sen_topology_cluster[cpu] = sen_parsing_cluster;
	cpu_topology[cpu].package_id = package_id;
	cpu_topology[cpu].cluster_id = cluster_id;
	cpu_topology[cpu].core_id = core_id;
	cpu_topology[cpu].thread_id = thread_id;
}

static int sen_parse_core(struct device_node *core, int package_id,
			  int cluster_id, int core_id)
{
	struct device_node *t;
	bool leaf = true;
	char name[20];
	int i = 0, cpu;

	do {
		snprintf(name, sizeof(name), "thread%d", i);
		t = of_get_child_by_name(core, name);
		if (t) {
			leaf = false;
			cpu = sen_get_cpu_for_node(t);
			if (cpu >= 0) {
				sen_set_topology(cpu, package_id, cluster_id,
						 core_id, i);
			} else if (cpu != -ENODEV) {
				pr_err("%pOF: Can't get CPU for thread\n", t);
				of_node_put(t);
				return -EINVAL;
			}
			of_node_put(t);
		}
		i++;
	} while (t);

	cpu = sen_get_cpu_for_node(core);
	if (cpu >= 0) {
		if (!leaf) {
			pr_err("%pOF: Core has both threads and CPU\n", core);
			return -EINVAL;
		}
		sen_set_topology(cpu, package_id, cluster_id, core_id,
				 cpu_topology[cpu].thread_id);
	} else if (leaf && cpu != -ENODEV) {
		pr_err("%pOF: Can't get CPU for leaf core\n", core);
		return -EINVAL;
	}
	return 0;
}

static int sen_parse_cluster(struct device_node *cluster, int package_id,
			     int cluster_id, int depth)
{
	bool leaf = true, has_cores = false;
	struct device_node *c;
	int core_id = 0, i, ret;
	char name[20];

	i = 0;
	do {
		snprintf(name, sizeof(name), "cluster%d", i);
		c = of_get_child_by_name(cluster, name);
		if (c) {
			leaf = false;
			ret = sen_parse_cluster(c, package_id, i, depth + 1);
			of_node_put(c);
			if (ret)
				return ret;
		}
		i++;
	} while (c);

	i = 0;
	do {
		snprintf(name, sizeof(name), "core%d", i);
		c = of_get_child_by_name(cluster, name);
		if (c) {
			has_cores = true;
			if (depth == 0) {
				pr_err("%pOF: cpu-map children should be clusters\n", c);
				of_node_put(c);
				return -EINVAL;
			}
			if (leaf) {
				sen_parsing_cluster = cluster;
				ret = sen_parse_core(c, package_id, cluster_id,
						     core_id++);
			} else {
				pr_err("%pOF: Non-leaf cluster with core %s\n",
				       cluster, name);
				ret = -EINVAL;
			}
			of_node_put(c);
			if (ret)
				return ret;
		}
		i++;
	} while (c);

	if (leaf && !has_cores)
		pr_warn("%pOF: empty cluster\n", cluster);
	return 0;
}

static int sen_parse_socket(struct device_node *socket)
{
	struct device_node *c;
	bool has_socket = false;
	int package_id = 0, ret = 0;
	char name[20];

	do {
		snprintf(name, sizeof(name), "socket%d", package_id);
		c = of_get_child_by_name(socket, name);
		if (c) {
			has_socket = true;
			ret = sen_parse_cluster(c, package_id, -1, 0);
			of_node_put(c);
			if (ret)
				return ret;
		}
		package_id++;
	} while (c);

	if (!has_socket)
		ret = sen_parse_cluster(socket, 0, -1, 0);
	return ret;
}

static int sen_parse_dt_topology(void)
{
	struct device_node *cn, *map;
	unsigned int cpu;
	int ret = 0;

	cn = of_find_node_by_path("/cpus");
	if (!cn)
		return 0;
	map = of_get_child_by_name(cn, "cpu-map");
	if (!map)
		goto out;
	ret = sen_parse_socket(map);
	if (ret)
		goto out_map;
	sen_normalize_cpu_scale();
	for_each_possible_cpu(cpu) {
		if (cpu_topology[cpu].package_id < 0) {
			ret = -EINVAL;
			break;
		}
	}
out_map:
	of_node_put(map);
out:
	of_node_put(cn);
	return ret;
}

static void sen_init_cpu_topology(void)
{
	unsigned int cpu;

	for (cpu = 0; cpu < SEN_NR_CPUS; cpu++) {
		sen_cpu_scale[cpu] = SCHED_CAPACITY_SCALE;
		sen_freq_factor[cpu] = 1;
	}
	sen_raw_capacity = NULL;
	sen_cap_parsing_failed = false;
	sen_reset_cpu_topology();
	if (sen_parse_dt_topology())
		sen_reset_cpu_topology();

	/* register_cpufreq_notifier() */
	sen_cap_notifier = sen_raw_capacity;
	cpumask_copy(&sen_cpus_to_visit, cpu_possible_mask);
}

/* init_cpu_capacity_callback(), CPUFREQ_CREATE_POLICY */
static void sen_capacity_policy_created(struct cpufreq_policy *policy)
{
	unsigned int cpu;

	if (!sen_cap_notifier || !sen_raw_capacity)
		return;
	cpumask_andnot(&sen_cpus_to_visit, &sen_cpus_to_visit,
		       policy->related_cpus);
	for_each_cpu(cpu, policy->related_cpus)
		sen_freq_factor[cpu] = policy->cpuinfo.max_freq / 1000;
	if (cpumask_empty(&sen_cpus_to_visit)) {
		sen_normalize_cpu_scale();
		free(sen_raw_capacity);
		sen_raw_capacity = NULL;
		sen_cap_notifier = false;
	}
}

/* ---- 3. emu-cpufreq: policies and the energy model ---- */

#define EMU_MAX_OPPS	32

struct sen_emu_opp {
	unsigned int khz;
	unsigned int uv;
	unsigned long uw;
};

struct sen_emu_domain {
	struct device_node *table;
	struct cpumask cpus;
	unsigned int nr;
	struct sen_emu_opp opp[EMU_MAX_OPPS];
	struct cpufreq_frequency_table freq_table[EMU_MAX_OPPS + 1];
	u32 coeff;
};

static struct sen_emu_domain *sen_emu_domains;
static unsigned int sen_emu_nr_domains;
static struct sen_emu_domain *sen_emu_cpu_domain[SEN_NR_CPUS];
static struct cpufreq_policy *sen_cpufreq_cpu_data[SEN_NR_CPUS];
static bool sen_cpufreq_driver;

static int sen_emu_parse_table(struct sen_emu_domain *d, int cpu,
			       struct device_node *cpu_np)
{
	struct device_node *opp_np;
	bool any_uw = false, all_uw = true;
	unsigned int i;

	for_each_available_child_of_node(d->table, opp_np) {
		struct sen_emu_opp *o = &d->opp[d->nr];
		u64 hz;
		u32 v;

		if (d->nr == EMU_MAX_OPPS) {
			pr_err("emu-cpufreq: cpu%d: %pOF: more than %d OPPs\n", cpu,
			       d->table, EMU_MAX_OPPS);
			of_node_put(opp_np);
			return -EINVAL;
		}
		if (of_property_read_u64(opp_np, "opp-hz", &hz) || !hz ||
		    hz / 1000 > UINT_MAX) {
			pr_err("emu-cpufreq: cpu%d: %pOF: missing or invalid opp-hz\n",
			       cpu, opp_np);
			of_node_put(opp_np);
			return -EINVAL;
		}
		o->khz = div_u64(hz, 1000);
		if (d->nr && o->khz <= d->opp[d->nr - 1].khz) {
			pr_err("emu-cpufreq: cpu%d: %pOF: opp-hz %llu not above the previous OPP's %u kHz\n",
			       cpu, opp_np, (unsigned long long)hz,
			       d->opp[d->nr - 1].khz);
			of_node_put(opp_np);
			return -EINVAL;
		}
		o->uv = 0;
		of_property_read_u32(opp_np, "opp-microvolt", &o->uv);
		if (!of_property_read_u32(opp_np, "opp-microwatt", &v)) {
			if (!v) {
				pr_err("emu-cpufreq: cpu%d: %pOF: opp-microwatt is 0\n",
				       cpu, opp_np);
				of_node_put(opp_np);
				return -EINVAL;
			}
			o->uw = v;
			any_uw = true;
		} else {
			all_uw = false;
		}
		d->nr++;
	}

	if (!d->nr) {
		pr_err("emu-cpufreq: cpu%d: %pOF: no OPPs\n", cpu, d->table);
		return -EINVAL;
	}
	if (any_uw && !all_uw) {
		pr_err("emu-cpufreq: cpu%d: %pOF: opp-microwatt on some OPPs only\n",
		       cpu, d->table);
		return -EINVAL;
	}
	if (!any_uw) {
		if (!d->coeff) {
			pr_err("emu-cpufreq: cpu%d: %pOF: no power data: neither opp-microwatt nor a non-zero dynamic-power-coefficient\n",
			       cpu, cpu_np);
			return -EINVAL;
		}
		for (i = 0; i < d->nr; i++) {
			struct sen_emu_opp *o = &d->opp[i];
			u64 mv = o->uv / 1000;

			if (!mv) {
				pr_err("emu-cpufreq: cpu%d: %pOF: OPP %u kHz has no opp-microvolt\n",
				       cpu, d->table, o->khz);
				return -EINVAL;
			}
			o->uw = div_u64((u64)d->coeff * mv * mv * (o->khz / 1000),
					1000000);
			if (!o->uw) {
				pr_err("emu-cpufreq: cpu%d: %pOF: OPP %u kHz has zero power\n",
				       cpu, d->table, o->khz);
				return -EINVAL;
			}
		}
	}

	for (i = 0; i < d->nr; i++) {
		d->freq_table[i].driver_data = i;
		d->freq_table[i].frequency = d->opp[i].khz;
	}
	d->freq_table[d->nr].frequency = CPUFREQ_TABLE_END;
	return 0;
}

static void sen_emu_free_domains(void)
{
	unsigned int i;

	for (i = 0; i < SEN_NR_CPUS; i++)
		sen_emu_cpu_domain[i] = NULL;
	for (i = 0; i < sen_emu_nr_domains; i++)
		of_node_put(sen_emu_domains[i].table);
	free(sen_emu_domains);
	sen_emu_domains = NULL;
	sen_emu_nr_domains = 0;
}

static int sen_emu_parse_dt(void)
{
	struct device_node **tables;
	int with = 0, without = -1, ret = 0;
	unsigned int cpu, i;

	tables = calloc(nr_cpu_ids, sizeof(*tables));
	if (!tables)
		abort();
	for_each_possible_cpu(cpu) {
		struct device_node *np = of_get_cpu_node(cpu, NULL);

		if (np)
			tables[cpu] = of_parse_phandle(np, "operating-points-v2", 0);
		of_node_put(np);
		if (tables[cpu])
			with++;
		else if (without < 0)
			without = cpu;
	}
	if (!with) {
		ret = -ENODEV;
		goto out;
	}
	if (without >= 0) {
		pr_err("emu-cpufreq: cpu%d: no operating-points-v2 (every CPU needs an OPP table, or none)\n",
		       without);
		ret = -EINVAL;
		goto out;
	}

	sen_emu_domains = calloc(num_possible_cpus(), sizeof(*sen_emu_domains));
	if (!sen_emu_domains)
		abort();
	for_each_possible_cpu(cpu) {
		struct sen_emu_domain *d = NULL;
		struct device_node *cpu_np = of_get_cpu_node(cpu, NULL);
		u32 coeff = 0;

		of_property_read_u32(cpu_np, "dynamic-power-coefficient", &coeff);
		for (i = 0; i < sen_emu_nr_domains; i++)
			if (sen_emu_domains[i].table == tables[cpu])
				d = &sen_emu_domains[i];
		if (d) {
			of_node_put(cpu_np);
			if (!of_property_read_bool(d->table, "opp-shared")) {
				pr_err("emu-cpufreq: cpu%d: %pOF: shared by cpu%d but not marked opp-shared\n",
				       cpu, d->table, cpumask_first(&d->cpus));
				ret = -EINVAL;
				goto out;
			}
			if (coeff != d->coeff) {
				pr_err("emu-cpufreq: cpu%d: dynamic-power-coefficient %u differs from cpu%d's %u in the same OPP table\n",
				       cpu, coeff, cpumask_first(&d->cpus), d->coeff);
				ret = -EINVAL;
				goto out;
			}
			cpumask_set_cpu(cpu, &d->cpus);
			sen_emu_cpu_domain[cpu] = d;
			continue;
		}
		d = &sen_emu_domains[sen_emu_nr_domains++];
		d->table = of_node_get(tables[cpu]);
		d->coeff = coeff;
		cpumask_set_cpu(cpu, &d->cpus);
		sen_emu_cpu_domain[cpu] = d;
		ret = sen_emu_parse_table(d, cpu, cpu_np);
		of_node_put(cpu_np);
		if (ret)
			goto out;
	}
out:
	for_each_possible_cpu(cpu)
		of_node_put(tables[cpu]);
	free(tables);
	return ret;
}

/* The energy model's active_power() callback of emu-cpufreq. */
static int sen_emu_active_power(struct device *dev, unsigned long *uw,
				unsigned long *khz)
{
	struct sen_emu_domain *d = sen_emu_cpu_domain[dev->id];
	unsigned int i;

	if (!d)
		return -EINVAL;
	for (i = 0; i < d->nr; i++) {
		if (d->opp[i].khz >= *khz) {
			*khz = d->opp[i].khz;
			*uw = d->opp[i].uw;
			return 0;
		}
	}
	return -EINVAL;
}

/* em_dev_register_perf_domain(dev, nr, cb, cpus, true) */
static int sen_em_register(struct device *dev, int nr_states,
			   const struct cpumask *cpus)
{
	unsigned long cap, prev_cap = 0, power = 0, freq, prev_freq = 0;
	unsigned long prev_cost = ULONG_MAX;
	struct em_perf_domain *pd;
	struct em_perf_state *table;
	unsigned int cpu;
	int i;
	u64 fmax;

	if (!dev || !nr_states)
		return -EINVAL;
	if (dev->em_pd)
		return -EEXIST;
	for_each_cpu(cpu, cpus) {
		if (em_cpu_get(cpu)) {
			pr_err("cpu%d: EM: exists for CPU%u\n", dev->id, cpu);
			return -EEXIST;
		}
		cap = arch_scale_cpu_capacity(cpu);
		if (prev_cap && prev_cap != cap) {
			pr_err("cpu%d: EM: CPUs of %*pbl must have the same capacity\n",
			       dev->id, cpumask_pr_args(cpus));
			return -EINVAL;
		}
		prev_cap = cap;
	}

	table = calloc(nr_states, sizeof(*table));
	if (!table)
		abort();
	for (i = 0, freq = 0; i < nr_states; i++, freq++) {
		if (sen_emu_active_power(dev, &power, &freq)) {
			pr_err("cpu%d: EM: invalid perf. state\n", dev->id);
			goto fail;
		}
		if (freq <= prev_freq) {
			pr_err("cpu%d: EM: non-increasing freq: %lu\n", dev->id, freq);
			goto fail;
		}
		if (!power || power > EM_MAX_POWER) {
			pr_err("cpu%d: EM: invalid power: %lu\n", dev->id, power);
			goto fail;
		}
		table[i].power = power;
		table[i].frequency = freq;
		prev_freq = freq;
	}
	fmax = table[nr_states - 1].frequency;
	for (i = nr_states - 1; i >= 0; i--) {
		table[i].cost = div64_u64(fmax * table[i].power, table[i].frequency);
		if (table[i].cost >= prev_cost)
			table[i].flags = EM_PERF_STATE_INEFFICIENT;
		else
			prev_cost = table[i].cost;
	}

	pd = calloc(1, sizeof(*pd) + cpumask_size());
	if (!pd)
		abort();
	pd->table = table;
	pd->nr_perf_states = nr_states;
	pd->flags = EM_PERF_DOMAIN_MICROWATTS;
	cpumask_copy(em_span_cpus(pd), cpus);
	for_each_cpu(cpu, cpus)
		get_cpu_device(cpu)->em_pd = pd;
	return 0;
fail:
	free(table);
	return -EINVAL;
}

struct em_perf_domain *em_cpu_get(int cpu)
{
	struct device *dev = get_cpu_device(cpu);

	return dev ? dev->em_pd : NULL;
}

static void sen_policy_free(struct cpufreq_policy *policy)
{
	free(policy->cpus);
	free(policy->related_cpus);
	free(policy);
}

/* cpufreq_online() of emu-cpufreq's policies, CPU by CPU. */
static void sen_cpufreq_online(unsigned int cpu)
{
	struct sen_emu_domain *d = sen_emu_cpu_domain[cpu];
	struct cpufreq_frequency_table *pos;
	struct cpufreq_policy *policy;
	unsigned int j, max_freq = 0, min_freq = ~0u;

	if (sen_cpufreq_cpu_data[cpu] || !d)
		return;
	policy = calloc(1, sizeof(*policy));
	if (!policy)
		abort();
	policy->cpus = calloc(1, cpumask_size());
	policy->related_cpus = calloc(1, cpumask_size());
	if (!policy->cpus || !policy->related_cpus)
		abort();
	policy->cpu = cpu;
	cpumask_copy(policy->cpus, &d->cpus);
	policy->freq_table = d->freq_table;
	policy->cur = d->opp[d->nr - 1].khz;

	/* cpufreq_table_validate_and_sort() */
	cpufreq_for_each_valid_entry(pos, policy->freq_table) {
		max_freq = max(max_freq, pos->frequency);
		min_freq = min(min_freq, pos->frequency);
	}
	if (!max_freq && min_freq == ~0u) {
		pr_err("cpufreq: cpu%u: no valid frequency in the table\n", cpu);
		sen_policy_free(policy);
		return;
	}
	policy->cpuinfo.max_freq = max_freq;
	policy->cpuinfo.min_freq = min_freq;
	cpumask_copy(policy->related_cpus, policy->cpus);
	cpumask_and(policy->cpus, policy->cpus, cpu_online_mask);
	for_each_cpu(j, policy->related_cpus)
		sen_cpufreq_cpu_data[j] = policy;

	sen_capacity_policy_created(policy);
	if (sen_em_register(get_cpu_device(cpu), d->nr, policy->related_cpus))
		pr_warn("emu-cpufreq: cpus %*pbl: energy model not registered\n",
			cpumask_pr_args(policy->related_cpus));
}

static void sen_emu_cpufreq_init(void)
{
	unsigned int cpu;
	int ret;

	sen_cpufreq_driver = false;
	ret = sen_emu_parse_dt();
	if (ret == -ENODEV)
		return;
	if (ret) {
		pr_err("emu-cpufreq: invalid OPP data in the device tree; DVFS disabled\n");
		sen_emu_free_domains();
		return;
	}
	sen_cpufreq_driver = true;
	for_each_online_cpu(cpu)
		sen_cpufreq_online(cpu);
}

struct cpufreq_policy *cpufreq_cpu_get(unsigned int cpu)
{
	struct cpufreq_policy *policy;

	if (WARN_ON(cpu >= nr_cpu_ids))
		return NULL;
	policy = sen_cpufreq_driver ? sen_cpufreq_cpu_data[cpu] : NULL;
	if (!policy || !cpumask_test_cpu(cpu, policy->cpus))
		return NULL;
	policy->sen_refs++;
	return policy;
}

void cpufreq_cpu_put(struct cpufreq_policy *policy)
{
	if (--policy->sen_refs < 0)
		sen_bug("%s() without cpufreq_cpu_get() on the policy of cpu%u",
			__func__, policy->cpu);
}

/* The policy of @cpu without taking a reference (for the harness). */
struct cpufreq_policy *sen_platform_policy(unsigned int cpu)
{
	return cpu < nr_cpu_ids && sen_cpufreq_driver ? sen_cpufreq_cpu_data[cpu] : NULL;
}

void sen_platform_check_refs(const char *when)
{
	static const char *const why = "cpufreq_cpu_get() without cpufreq_cpu_put()";
	unsigned int cpu;

	for (cpu = 0; cpu < SEN_NR_CPUS; cpu++)
		if (sen_cpufreq_cpu_data[cpu] && sen_cpufreq_cpu_data[cpu]->sen_refs)
			sen_bug("%s: policy of cpu%u: %d references left: %s",
				when, cpu, sen_cpufreq_cpu_data[cpu]->sen_refs, why);
	sen_of_check_refs(when);
}

/*
 * Boot the platform described by @blob.
 *
 * Return: 0, or -EINVAL if @blob is not a device tree (nothing to free).
 */
int sen_platform_boot(const void *blob, size_t size)
{
	if (sen_of_load(blob, size))
		return -EINVAL;
	sen_smp_init_cpus();
	sen_init_cpu_topology();
	sen_emu_cpufreq_init();
	sen_of_save_refs();
	return 0;
}

void sen_platform_shutdown(void)
{
	unsigned int cpu, j;

	for (cpu = 0; cpu < SEN_NR_CPUS; cpu++) {
		struct em_perf_domain *pd = sen_cpu_dev[cpu].em_pd;
		struct cpufreq_policy *policy = sen_cpufreq_cpu_data[cpu];

		if (pd) {
			for (j = 0; j < SEN_NR_CPUS; j++)
				if (sen_cpu_dev[j].em_pd == pd)
					sen_cpu_dev[j].em_pd = NULL;
			free(pd->table);
			free(pd);
		}
		if (policy) {
			for (j = 0; j < SEN_NR_CPUS; j++)
				if (sen_cpufreq_cpu_data[j] == policy)
					sen_cpufreq_cpu_data[j] = NULL;
			sen_policy_free(policy);
		}
		of_node_put(sen_cpu_dev[cpu].of_node);
		sen_cpu_dev[cpu].of_node = NULL;
	}
	sen_emu_free_domains();
	free(sen_raw_capacity);
	sen_raw_capacity = NULL;
	sen_cpufreq_driver = false;
	sen_of_unload();
	nr_cpu_ids = 1;
	cpumask_clear(&__cpu_possible_mask);
	cpumask_set_cpu(0, &__cpu_possible_mask);
	cpumask_copy(&__cpu_online_mask, &__cpu_possible_mask);
}
