// SPDX-License-Identifier: GPL-2.0
/*
 * arm64: build the sched-energy platform energy model.
 *
 * The model (include/linux/sched/energy.h) has one performance domain per
 * cpufreq policy, which must also be one cpu-map cluster.  Its numbers
 * come from, in order:
 *
 *  - operating points: the kernel energy model of the CPU (frequencies
 *    and active power from opp-microwatt or dynamic-power-coefficient),
 *    else the cpufreq policy's frequency table;
 *  - capacity at an OPP: arch_scale_cpu_capacity() * f / fmax, as the
 *    rest of the scheduler computes it;
 *  - idle states: WFI (state 0, as cpuidle-psci and cpuidle-arm register
 *    it), then the CPU's cpu-idle-states, with their DT latencies;
 *  - cluster active power and idle power: the sched-energy-* properties
 *    of the cpu-map cluster nodes (see Documentation/devicetree/bindings/
 *    cpu/sched-energy.yaml), else a built-in table matched by the machine
 *    compatible (then the whole table, active power included, comes from
 *    it so that all powers share one unit), else zero: the model then
 *    knows what the kernel energy model knows and no more.
 *
 * The model is rebuilt after boot (late_initcall_sync), when a cpufreq
 * policy is created or removed and when a CPU goes on- or offline; each
 * rebuild is published as a whole (sen_model_publish()), or refused with
 * one message naming the CPU, the property and the rule.
 */
#include <linux/arch_topology.h>
#include <linux/cpu.h>
#include <linux/cpufreq.h>
#include <linux/cpuhotplug.h>
#include <linux/energy_model.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/of_device.h>
#include <linux/sched/energy.h>
#include <linux/sched/topology.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#define SEN_WHY_LEN	192

/*
 * Built-in tables for boards whose device tree carries no power data.
 * They are the hand-tuned tables of the Android EAS trees
 * (arch/arm64/kernel/energy_model.h there, also LISA's platform files),
 * in those trees' abstract unit.  Android used the Juno r0 tables for
 * Juno r2 unchanged (A72 cluster with the A57 numbers); so does this.
 *
 * Each busy state gives a capacity, the power of one busy CPU and the
 * cluster's busy power.  Each running OPP takes the busy state nearest
 * in capacity; when two OPPs would take the same state the model is
 * refused by the validator, as their powers would not increase.  Idle
 * columns are WFI, then the board's two DT idle states (cpu-sleep,
 * cluster-sleep); the tables' separate "active idle" column equals WFI
 * and is not repeated.
 */
#define SEN_BUILTIN_BUSY	5
#define SEN_BUILTIN_IDLE	3

struct sen_builtin_busy {
	u16 cap;
	u16 cpu;
	u16 cluster;
};

struct sen_builtin_table {
	struct sen_builtin_busy busy[SEN_BUILTIN_BUSY];
	u16 idle_cpu[SEN_BUILTIN_IDLE];
	u16 idle_cluster[SEN_BUILTIN_IDLE];
};

struct sen_builtin_core {
	const char *compatible;
	const struct sen_builtin_table *table;
};

struct sen_builtin_board {
	const char *machine;
	const char *name;
	struct sen_builtin_core core[2];
};

static const struct sen_builtin_table sen_juno_a53 = {
	.busy = { { 235, 33, 26 }, { 302, 46, 30 }, { 368, 61, 39 },
		  { 406, 76, 47 }, { 447, 93, 57 } },
	.idle_cpu = { 6, 0, 0 },
	.idle_cluster = { 56, 56, 17 },
};

static const struct sen_builtin_table sen_juno_a57 = {
	.busy = { { 417, 168, 24 }, { 579, 251, 32 }, { 744, 359, 43 },
		  { 883, 479, 49 }, { 1024, 616, 64 } },
	.idle_cpu = { 15, 0, 0 },
	.idle_cluster = { 65, 65, 24 },
};

static const struct sen_builtin_table sen_hikey960_a53 = {
	.busy = { { 133, 87, 12 }, { 250, 164, 22 }, { 351, 265, 36 },
		  { 429, 388, 67 }, { 462, 502, 144 } },
	.idle_cpu = { 5, 0, 0 },
	.idle_cluster = { 12, 12, 0 },
};

static const struct sen_builtin_table sen_hikey960_a73 = {
	.busy = { { 390, 404, 102 }, { 615, 861, 124 }, { 782, 1398, 221 },
		  { 915, 2200, 330 }, { 1024, 2848, 433 } },
	.idle_cpu = { 18, 0, 0 },
	.idle_cluster = { 102, 102, 0 },
};

static const struct sen_builtin_board sen_builtin[] = {
	{
		.machine = "arm,juno",
		.name = "builtin:juno-r0",
		.core = {
			{ "arm,cortex-a53", &sen_juno_a53 },
			{ "arm,cortex-a57", &sen_juno_a57 },
		},
	},
	{
		.machine = "arm,juno-r2",
		.name = "builtin:juno-r2",
		.core = {
			{ "arm,cortex-a53", &sen_juno_a53 },
			{ "arm,cortex-a72", &sen_juno_a57 },
		},
	},
	{
		.machine = "hisilicon,hi3660-hikey960",
		.name = "builtin:hikey960",
		.core = {
			{ "arm,cortex-a53", &sen_hikey960_a53 },
			{ "arm,cortex-a73", &sen_hikey960_a73 },
		},
	},
};

/* The DT properties of a cpu-map cluster node (all u32 arrays). */
#define SEN_PROP_CLUSTER_ACTIVE	"sched-energy-cluster-active-microwatt"
#define SEN_PROP_CPU_IDLE	"sched-energy-cpu-idle-microwatt"
#define SEN_PROP_CLUSTER_IDLE	"sched-energy-cluster-idle-microwatt"
#define SEN_PROP_WAKEUP		"sched-energy-wakeup-nanojoule"

static const char * const sen_dt_props[] = {
	SEN_PROP_CLUSTER_ACTIVE, SEN_PROP_CPU_IDLE, SEN_PROP_CLUSTER_IDLE,
	SEN_PROP_WAKEUP,
};

struct sen_build {
	struct sen_model *m;
	const struct sen_builtin_board *board;
	struct device_node *cpu_map;
	bool dt_power;
	char why[SEN_WHY_LEN];
};

#define sen_fail(b, fmt, ...)						\
	({								\
		snprintf((b)->why, sizeof((b)->why), fmt, ##__VA_ARGS__); \
		-EINVAL;						\
	})

/* @cpu_np is @core's CPU or one of its threadN's, as parse_core() reads them. */
static bool sen_core_has_cpu(struct device_node *core, struct device_node *cpu_np)
{
	struct device_node *np, *t;
	char name[20];
	bool found;
	int i;

	np = of_parse_phandle(core, "cpu", 0);
	found = np == cpu_np;
	of_node_put(np);
	for (i = 0; !found; i++) {
		snprintf(name, sizeof(name), "thread%d", i);
		t = of_get_child_by_name(core, name);
		if (!t)
			break;
		np = of_parse_phandle(t, "cpu", 0);
		found = np == cpu_np;
		of_node_put(np);
		of_node_put(t);
	}
	return found;
}

static struct device_node *sen_find_in_cluster(struct device_node *cl,
					       struct device_node *cpu_np, int depth,
					       unsigned int *n);

/*
 * Search @parent's @prefix0, @prefix1, ... children in sequence, as
 * arch_topology reads them, each as a cluster at @depth; the first
 * cluster found, with a reference.  *@any: @parent has such a child.
 */
static struct device_node *sen_find_in_children(struct device_node *parent,
						const char *prefix,
						struct device_node *cpu_np,
						int depth, unsigned int *n,
						bool *any)
{
	struct device_node *c, *f, *found = NULL;
	char name[20];
	int i;

	*any = false;
	for (i = 0; ; i++) {
		snprintf(name, sizeof(name), "%s%d", prefix, i);
		c = of_get_child_by_name(parent, name);
		if (!c)
			return found;
		*any = true;
		f = sen_find_in_cluster(c, cpu_np, depth, n);
		of_node_put(c);
		if (found)
			of_node_put(f);
		else
			found = f;
	}
}

/*
 * The leaf cluster node under @cl holding @cpu_np, with a reference, the
 * way parse_cluster() in drivers/base/arch_topology.c walks cpu-map:
 * clusterN children in sequence (nested or not), then, in a leaf cluster
 * below the socket level (@depth > 0), coreN children in sequence.  The
 * first such cluster is returned; *@n counts the cores that hold the CPU.
 */
static struct device_node *sen_find_in_cluster(struct device_node *cl,
					       struct device_node *cpu_np, int depth,
					       unsigned int *n)
{
	struct device_node *c, *found;
	char name[20];
	bool nested;
	int i;

	found = sen_find_in_children(cl, "cluster", cpu_np, depth + 1, n, &nested);
	if (nested || !depth)
		return found;
	for (i = 0; ; i++) {
		snprintf(name, sizeof(name), "core%d", i);
		c = of_get_child_by_name(cl, name);
		if (!c)
			return found;
		if (sen_core_has_cpu(c, cpu_np)) {
			(*n)++;
			if (!found)
				found = of_node_get(cl);
		}
		of_node_put(c);
	}
}

/*
 * The cpu-map cluster node holding @cpu_np, with a reference: under the
 * socketN nodes if there are any (parse_socket()), else under cpu-map
 * itself.  *@n receives the number of cores holding it.
 */
static struct device_node *sen_find_cluster(struct device_node *cpu_map,
					    struct device_node *cpu_np, unsigned int *n)
{
	struct device_node *found;
	bool sockets;

	*n = 0;
	found = sen_find_in_children(cpu_map, "socket", cpu_np, 0, n, &sockets);
	return sockets ? found : sen_find_in_cluster(cpu_map, cpu_np, 0, n);
}

static bool sen_dt_has_power(struct device_node *np)
{
	struct device_node *child;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sen_dt_props); i++)
		if (of_find_property(np, sen_dt_props[i], NULL))
			return true;
	for_each_child_of_node(np, child) {
		if (sen_dt_has_power(child)) {
			of_node_put(child);
			return true;
		}
	}
	return false;
}

/* The CPUs that share @cpu's clock, or an empty mask. */
static void sen_domain_span(int cpu, struct cpumask *span)
{
	struct em_perf_domain *pd = em_cpu_get(cpu);
	struct cpufreq_policy *policy;

	cpumask_clear(span);
	if (pd) {
		cpumask_and(span, em_span_cpus(pd), cpu_possible_mask);
		return;
	}
	policy = cpufreq_cpu_get(cpu);
	if (policy) {
		cpumask_and(span, policy->related_cpus, cpu_possible_mask);
		cpufreq_cpu_put(policy);
	}
}

static int sen_check_cluster(struct sen_build *b, const struct cpumask *span)
{
	int first = cpumask_first(span);
	int id = topology_cluster_id(first);
	int cpu;

	for_each_possible_cpu(cpu) {
		bool same = topology_cluster_id(cpu) == id;

		if (same != cpumask_test_cpu(cpu, span))
			return sen_fail(b,
					"cpu%d: cpu-map: performance domain %*pbl is not one cluster (cluster of cpu%d: id %d, of cpu%d: id %d); sched-energy needs one clock per cluster",
					cpu, cpumask_pr_args(span), first, id,
					cpu, topology_cluster_id(cpu));
	}
	return 0;
}

static int sen_fill_opps(struct sen_build *b, struct sen_domain *d, int cpu)
{
	struct em_perf_domain *pd = em_cpu_get(cpu);
	unsigned long scale = arch_scale_cpu_capacity(cpu);
	struct cpufreq_frequency_table *pos;
	struct cpufreq_policy *policy;
	unsigned long fmax;
	unsigned int i, n;

	if (pd) {
		if (pd->nr_perf_states > SEN_MAX_OPPS)
			return sen_fail(b,
					"cpu%d: energy model: %d operating points, at most %d supported",
					cpu, pd->nr_perf_states, SEN_MAX_OPPS);
		for (i = 0; i < pd->nr_perf_states; i++) {
			d->opp[i].freq = pd->table[i].frequency;
			d->opp[i].cpu_power = pd->table[i].power;
		}
		d->nr_opps = pd->nr_perf_states;
		if (!(pd->flags & EM_PERF_DOMAIN_MICROWATTS) ||
		    em_is_artificial(pd))
			b->m->unit = SEN_UNIT_ABSTRACT;
	} else {
		policy = cpufreq_cpu_get(cpu);
		if (!policy)
			return sen_fail(b,
					"cpu%d: no performance domain: neither an energy model nor a cpufreq policy covers it",
					cpu);
		n = 0;
		cpufreq_for_each_valid_entry(pos, policy->freq_table) {
			unsigned long f = pos->frequency;

			for (i = 0; i < n && d->opp[i].freq != f; i++)
				;
			if (i < n)
				continue;
			if (n == SEN_MAX_OPPS) {
				cpufreq_cpu_put(policy);
				return sen_fail(b,
						"cpu%d: cpufreq: more than %d frequencies, at most %d supported",
						cpu, SEN_MAX_OPPS, SEN_MAX_OPPS);
			}
			/* insertion sort: tables are short and may be unsorted */
			for (i = n; i > 0 && d->opp[i - 1].freq > f; i--)
				d->opp[i].freq = d->opp[i - 1].freq;
			d->opp[i].freq = f;
			n++;
		}
		cpufreq_cpu_put(policy);
		d->nr_opps = n;
	}
	if (!d->nr_opps)
		return sen_fail(b, "cpu%d: no operating points", cpu);

	fmax = d->opp[d->nr_opps - 1].freq;
	for (i = 0; i < d->nr_opps; i++)
		d->opp[i].cap = fmax ? scale * d->opp[i].freq / fmax : 0;
	return 0;
}

/* Idle states of @cpu: WFI, then its cpu-idle-states in order. */
static int sen_fill_idle(struct sen_build *b, struct sen_domain *d, int cpu)
{
	struct device_node *cpu_np = of_cpu_device_node_get(cpu);
	struct sen_idle_state *s = d->idle;
	unsigned int i;
	int ret = 0;

	strscpy(s[0].name, "WFI", sizeof(s[0].name));
	s[0].exit_latency_us = 1;
	s[0].residency_us = 1;
	d->nr_idle = 1;
	if (!cpu_np)
		return 0;

	for (i = 0; ; i++) {
		struct device_node *np = of_parse_phandle(cpu_np, "cpu-idle-states", i);
		u32 entry = 0, exit = 0, res = 0;

		if (!np)
			break;
		if (!of_device_is_compatible(np, "arm,idle-state") ||
		    !of_device_is_available(np)) {
			of_node_put(np);
			continue;
		}
		if (d->nr_idle == SEN_MAX_IDLE_STATES) {
			of_node_put(np);
			ret = sen_fail(b, "cpu%d: cpu-idle-states: more than %d states",
				       cpu, SEN_MAX_IDLE_STATES - 1);
			break;
		}
		of_property_read_u32(np, "entry-latency-us", &entry);
		of_property_read_u32(np, "exit-latency-us", &exit);
		of_property_read_u32(np, "min-residency-us", &res);
		s = &d->idle[d->nr_idle++];
		strscpy(s->name, np->name, sizeof(s->name));
		s->exit_latency_us = entry + exit;
		s->residency_us = res;
		of_node_put(np);
	}
	of_node_put(cpu_np);
	return ret;
}

/* Every CPU of the domain must have the idle states of its first CPU. */
static int sen_check_idle(struct sen_build *b, struct sen_domain *d)
{
	int first = cpumask_first(&d->cpus);
	struct sen_domain *tmp;
	unsigned int i;
	int cpu, ret = 0;

	tmp = kzalloc(sizeof(*tmp), GFP_KERNEL);
	if (!tmp)
		return -ENOMEM;
	for_each_cpu(cpu, &d->cpus) {
		if (cpu == first)
			continue;
		memset(tmp, 0, sizeof(*tmp));
		ret = sen_fill_idle(b, tmp, cpu);
		if (ret)
			break;
		if (tmp->nr_idle != d->nr_idle) {
			ret = sen_fail(b,
				       "cpu%d: cpu-idle-states: %u states, cpu%d of the same cluster has %u",
				       cpu, tmp->nr_idle - 1, first,
				       d->nr_idle - 1);
			break;
		}
		for (i = 0; i < d->nr_idle; i++) {
			if (strcmp(tmp->idle[i].name, d->idle[i].name) ||
			    tmp->idle[i].exit_latency_us != d->idle[i].exit_latency_us ||
			    tmp->idle[i].residency_us != d->idle[i].residency_us) {
				ret = sen_fail(b,
					       "cpu%d: cpu-idle-states: state %u (%s) differs from cpu%d's (%s) in the same cluster",
					       cpu, i, tmp->idle[i].name, first,
					       d->idle[i].name);
				break;
			}
		}
		if (ret)
			break;
	}
	kfree(tmp);
	return ret;
}

static int sen_read_array(struct sen_build *b, struct device_node *cl,
			  int cpu, const char *prop, unsigned int want,
			  u32 *vals, bool optional)
{
	int n;

	if (!of_find_property(cl, prop, NULL)) {
		if (optional)
			return 1;
		return sen_fail(b, "cpu%d: %pOF: %s: missing (other clusters carry power data)",
				cpu, cl, prop);
	}
	n = of_property_count_u32_elems(cl, prop);
	if (n < 0)
		return sen_fail(b, "cpu%d: %pOF: %s: not an array of 32-bit cells",
				cpu, cl, prop);
	if (n != want)
		return sen_fail(b, "cpu%d: %pOF: %s: %d values, need %u (%s)",
				cpu, cl, prop, n, want,
				!strcmp(prop, SEN_PROP_CLUSTER_ACTIVE) ?
				"one per operating point" :
				"WFI, then one per cpu-idle-states entry");
	return of_property_read_u32_array(cl, prop, vals, want);
}

static int sen_fill_dt_power(struct sen_build *b, struct sen_domain *d)
{
	int cpu = cpumask_first(&d->cpus);
	u32 vals[SEN_MAX_OPPS];
	struct device_node *cpu_np, *cl;
	unsigned int i, n = 0;
	int ret;

	cpu_np = of_cpu_device_node_get(cpu);
	cl = cpu_np ? sen_find_cluster(b->cpu_map, cpu_np, &n) : NULL;
	of_node_put(cpu_np);
	if (n > 1) {
		of_node_put(cl);
		return sen_fail(b, "cpu%d: cpu-map: in %u cores, must be in one", cpu, n);
	}
	if (!cl)
		return sen_fail(b,
				"cpu%d: cpu-map: not in any cluster node, which must carry its power data",
				cpu);

	ret = sen_read_array(b, cl, cpu, SEN_PROP_CLUSTER_ACTIVE, d->nr_opps,
			     vals, false);
	if (ret)
		goto out;
	for (i = 0; i < d->nr_opps; i++)
		d->opp[i].cluster_power = vals[i];

	ret = sen_read_array(b, cl, cpu, SEN_PROP_CPU_IDLE, d->nr_idle, vals,
			     false);
	if (ret)
		goto out;
	for (i = 0; i < d->nr_idle; i++)
		d->idle[i].cpu_power = vals[i];

	ret = sen_read_array(b, cl, cpu, SEN_PROP_CLUSTER_IDLE, d->nr_idle,
			     vals, false);
	if (ret)
		goto out;
	for (i = 0; i < d->nr_idle; i++)
		d->idle[i].cluster_power = vals[i];

	/* nJ -> uW x us (pJ) */
	ret = sen_read_array(b, cl, cpu, SEN_PROP_WAKEUP, d->nr_idle, vals,
			     true);
	if (ret == 1)
		ret = 0;
	else if (!ret)
		for (i = 0; i < d->nr_idle; i++)
			d->idle[i].wakeup_energy = (unsigned long)vals[i] * 1000;
out:
	of_node_put(cl);
	return ret;
}

static int sen_fill_builtin(struct sen_build *b, struct sen_domain *d)
{
	const struct sen_builtin_table *t = NULL;
	int cpu = cpumask_first(&d->cpus);
	struct device_node *cpu_np;
	unsigned int i, j;

	cpu_np = of_cpu_device_node_get(cpu);
	for (i = 0; cpu_np && i < ARRAY_SIZE(b->board->core); i++) {
		const struct sen_builtin_core *c = &b->board->core[i];

		if (c->compatible && of_device_is_compatible(cpu_np, c->compatible)) {
			t = c->table;
			break;
		}
	}
	of_node_put(cpu_np);
	if (!t)
		return sen_fail(b, "cpu%d: compatible: no %s table for this core",
				cpu, b->board->name);
	if (d->nr_idle != SEN_BUILTIN_IDLE)
		return sen_fail(b, "cpu%d: cpu-idle-states: %u states, the %s table has %d",
				cpu, d->nr_idle - 1, b->board->name,
				SEN_BUILTIN_IDLE - 1);

	for (i = 0; i < d->nr_opps; i++) {
		const struct sen_builtin_busy *best = &t->busy[0];

		for (j = 1; j < SEN_BUILTIN_BUSY; j++)
			if (abs((int)t->busy[j].cap - (int)d->opp[i].cap) <
			    abs((int)best->cap - (int)d->opp[i].cap))
				best = &t->busy[j];
		d->opp[i].cpu_power = best->cpu;
		d->opp[i].cluster_power = best->cluster;
	}
	for (i = 0; i < d->nr_idle; i++) {
		d->idle[i].cpu_power = t->idle_cpu[i];
		d->idle[i].cluster_power = t->idle_cluster[i];
	}
	return 0;
}

static int sen_fill_domain(struct sen_build *b, struct sen_domain *d)
{
	int cpu = cpumask_first(&d->cpus);
	int ret;

	ret = sen_check_cluster(b, &d->cpus);
	if (!ret)
		ret = sen_fill_opps(b, d, cpu);
	if (!ret)
		ret = sen_fill_idle(b, d, cpu);
	if (!ret)
		ret = sen_check_idle(b, d);
	if (ret)
		return ret;

	if (b->dt_power)
		return sen_fill_dt_power(b, d);
	if (b->board)
		return sen_fill_builtin(b, d);
	if (!em_cpu_get(cpu))
		return sen_fail(b,
				"cpu%d: no power data: no energy model (opp-microwatt or dynamic-power-coefficient), no sched-energy-* properties and no built-in table for this machine",
				cpu);
	return 0;
}

static int sen_build_model(struct sen_build *b)
{
	cpumask_var_t todo, span;
	unsigned int nr = 0, i;
	int cpu, ret = 0;

	if (!zalloc_cpumask_var(&todo, GFP_KERNEL))
		return -ENOMEM;
	if (!zalloc_cpumask_var(&span, GFP_KERNEL)) {
		free_cpumask_var(todo);
		return -ENOMEM;
	}

	/* Count the domains, checking every possible CPU has one. */
	cpumask_copy(todo, cpu_possible_mask);
	while ((cpu = cpumask_first(todo)) < nr_cpu_ids) {
		sen_domain_span(cpu, span);
		if (!cpumask_test_cpu(cpu, span)) {
			ret = sen_fail(b,
				       "cpu%d: no performance domain: neither an energy model nor a cpufreq policy covers it",
				       cpu);
			goto out;
		}
		cpumask_andnot(todo, todo, span);
		nr++;
	}

	b->m = kzalloc(sen_model_size(nr), GFP_KERNEL);
	if (!b->m) {
		ret = -ENOMEM;
		goto out;
	}
	sen_model_init(b->m, nr);
	b->m->unit = SEN_UNIT_UW;
	b->m->src_active = SEN_SRC_EM;
	b->m->src_cluster = SEN_SRC_NONE;
	b->m->src_idle = SEN_SRC_NONE;
	if (b->dt_power) {
		b->m->src_cluster = SEN_SRC_DT;
		b->m->src_idle = SEN_SRC_DT;
	} else if (b->board) {
		b->m->unit = SEN_UNIT_ABSTRACT;
		b->m->src_active = SEN_SRC_BUILTIN;
		b->m->src_cluster = SEN_SRC_BUILTIN;
		b->m->src_idle = SEN_SRC_BUILTIN;
		b->m->table = b->board->name;
	}

	cpumask_copy(todo, cpu_possible_mask);
	for (i = 0; i < nr; i++) {
		struct sen_domain *d = &b->m->dom[i];

		cpu = cpumask_first(todo);
		sen_domain_span(cpu, &d->cpus);
		cpumask_andnot(todo, todo, &d->cpus);
		d->id = i;
		for_each_cpu(cpu, &d->cpus)
			b->m->cpu_domain[cpu] = i;
		ret = sen_fill_domain(b, d);
		if (ret)
			goto out;
	}
	if (b->dt_power && b->m->unit != SEN_UNIT_UW)
		ret = sen_fail(b,
			       "cpu%d: energy model: abstract power units, but the sched-energy-* properties are in microwatts",
			       cpumask_first(&b->m->dom[0].cpus));
out:
	free_cpumask_var(span);
	free_cpumask_var(todo);
	return ret;
}

static DEFINE_MUTEX(sen_build_mutex);

/**
 * sen_model_rebuild() - build the platform energy model and publish it
 *
 * Context: process context; takes the CPU hotplug read lock.
 */
static void sen_model_rebuild(void)
{
	struct sen_build *b;
	unsigned int i;
	int ret;

	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b) {
		sen_model_withdraw("model not built: out of memory");
		return;
	}

	mutex_lock(&sen_build_mutex);
	cpus_read_lock();
	b->cpu_map = of_find_node_by_path("/cpus/cpu-map");
	b->dt_power = b->cpu_map && sen_dt_has_power(b->cpu_map);
	for (i = 0; !b->dt_power && i < ARRAY_SIZE(sen_builtin); i++) {
		if (of_machine_is_compatible(sen_builtin[i].machine)) {
			b->board = &sen_builtin[i];
			break;
		}
	}
	ret = sen_build_model(b);
	cpus_read_unlock();
	of_node_put(b->cpu_map);

	if (ret == -ENOMEM) {
		kfree(b->m);
		sen_model_withdraw("model not built: out of memory");
	} else if (ret) {
		kfree(b->m);
		sen_model_withdraw("model refused: %s", b->why);
	} else {
		sen_model_publish(b->m);
	}
	mutex_unlock(&sen_build_mutex);
	kfree(b);
}

static void sen_rebuild_fn(struct work_struct *work)
{
	sen_model_rebuild();
}

static DECLARE_DELAYED_WORK(sen_rebuild_work, sen_rebuild_fn);

/*
 * Policy creation and removal, and hotplug, only schedule a rebuild: the
 * energy model of a new policy is registered after the notification, and
 * a burst of events (a whole cluster going offline) gives one rebuild.
 */
static void sen_schedule_rebuild(void)
{
	mod_delayed_work(system_wq, &sen_rebuild_work, msecs_to_jiffies(20));
}

static int sen_policy_notify(struct notifier_block *nb, unsigned long event,
			     void *data)
{
	if (event == CPUFREQ_CREATE_POLICY || event == CPUFREQ_REMOVE_POLICY)
		sen_schedule_rebuild();
	return NOTIFY_OK;
}

static struct notifier_block sen_policy_nb = {
	.notifier_call = sen_policy_notify,
};

static int sen_cpu_hotplug(unsigned int cpu)
{
	sen_schedule_rebuild();
	return 0;
}

static int __init sen_arm64_model_init(void)
{
	int ret;

	sen_model_rebuild();

	ret = cpufreq_register_notifier(&sen_policy_nb, CPUFREQ_POLICY_NOTIFIER);
	if (ret)
		pr_warn("sched-energy: no rebuild on cpufreq policy changes: %d\n",
			ret);
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "sched/energy:model",
					sen_cpu_hotplug, sen_cpu_hotplug);
	if (ret < 0)
		pr_warn("sched-energy: no rebuild on CPU hotplug: %d\n", ret);
	return 0;
}
late_initcall_sync(sen_arm64_model_init);
