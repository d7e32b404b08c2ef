// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the sched-energy platform energy model: every rule of
 * the validator on synthetic models (each one broken in one place must be
 * refused, naming the CPU and the rule), the derived costs and
 * efficiency, and the model the kernel built for the board it boots on.
 */
#include <kunit/test.h>
#include <linux/arch_topology.h>
#include <linux/energy_model.h>
#include <linux/sched.h>
#include <linux/sched/energy.h>
#include <linux/slab.h>

#define WHY_LEN 192

/*
 * A valid model over the possible CPUs: the first half LITTLE (capacity
 * 446 at the top), the rest big (1024), Juno r0-like numbers.
 */
static struct sen_model *sen_test_model(struct kunit *test)
{
	static const unsigned long freq[2][5] = {
		{ 450000, 575000, 700000, 775000, 850000 },
		{ 450000, 625000, 800000, 950000, 1100000 },
	};
	static const unsigned long power[2][5] = {
		{ 42361, 58161, 79380, 97921, 119000 },
		{ 160367, 239328, 343440, 454408, 583000 },
	};
	static const unsigned long cluster[2][5] = {
		{ 26000, 30000, 39000, 47000, 57000 },
		{ 24000, 32000, 43000, 49000, 64000 },
	};
	unsigned int nr = num_possible_cpus() > 1 ? 2 : 1;
	unsigned int half = num_possible_cpus() / 2, n = 0, i, j;
	struct sen_model *m;
	int cpu;

	/*
	 * The rules refer to a LITTLE and a big domain: a machine with one
	 * CPU (kunit.py's default QEMU) cannot hold them.
	 */
	if (nr < 2)
		kunit_skip(test, "needs two possible CPUs (kunit.py: --qemu_args='-smp 6')");
	m = kunit_kzalloc(test, sen_model_size(nr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m);
	sen_model_init(m, nr);
	m->src_active = SEN_SRC_TEST;
	m->src_cluster = SEN_SRC_TEST;
	m->src_idle = SEN_SRC_TEST;
	for_each_possible_cpu(cpu) {
		i = nr == 2 && n++ >= half ? 1 : 0;
		cpumask_set_cpu(cpu, &m->dom[i].cpus);
		m->cpu_domain[cpu] = i;
	}
	for (i = 0; i < nr; i++) {
		struct sen_domain *d = &m->dom[i];
		unsigned int t = nr == 2 ? i : 1;
		unsigned long top = t ? 1024 : 446;

		d->id = i;
		d->nr_opps = 5;
		for (j = 0; j < 5; j++) {
			d->opp[j].freq = freq[t][j];
			d->opp[j].cap = top * freq[t][j] / freq[t][4];
			d->opp[j].cpu_power = power[t][j];
			d->opp[j].cluster_power = cluster[t][j];
		}
		d->nr_idle = 3;
		strscpy(d->idle[0].name, "WFI", SEN_IDLE_NAME_LEN);
		strscpy(d->idle[1].name, "cpu-sleep-0", SEN_IDLE_NAME_LEN);
		strscpy(d->idle[2].name, "cluster-sleep-0", SEN_IDLE_NAME_LEN);
		d->idle[0].cpu_power = 6000;
		d->idle[0].cluster_power = 56000;
		d->idle[1].cluster_power = 56000;
		d->idle[2].cluster_power = 17000;
		d->idle[0].exit_latency_us = 1;
		d->idle[0].residency_us = 1;
		d->idle[1].exit_latency_us = 1500;
		d->idle[1].residency_us = 2000;
		d->idle[2].exit_latency_us = 1600;
		d->idle[2].residency_us = 2500;
	}
	return m;
}

static void sen_model_valid_accepted(struct kunit *test)
{
	struct sen_model *m = sen_test_model(test);
	char why[WHY_LEN] = "";

	KUNIT_EXPECT_EQ_MSG(test, sen_model_validate(m, why, sizeof(why)), 0,
			    "refused: %s", why);
}

/* One broken rule each; the model must be refused with @want in the reason. */
enum sen_break {
	BRK_FREQ_ORDER, BRK_FREQ_ZERO, BRK_CAP_ORDER, BRK_CAP_ZERO, BRK_CAP_BIG,
	BRK_CAP_TOP, BRK_POWER_ZERO, BRK_POWER_ORDER, BRK_POWER_HUGE,
	BRK_CLUSTER_ORDER, BRK_NO_OPPS, BRK_MANY_OPPS, BRK_NO_IDLE,
	BRK_MANY_IDLE, BRK_IDLE_CPU, BRK_IDLE_CLUSTER, BRK_WFI_POWER,
	BRK_LATENCY, BRK_RESIDENCY, BRK_NO_DOMAIN, BRK_UNCOVERED, BRK_TWICE,
	BRK_EMPTY_DOMAIN,
};

struct sen_bad_case {
	const char *desc;
	enum sen_break brk;
	const char *want;
};

static void sen_break_model(struct sen_model *m, enum sen_break brk)
{
	struct sen_domain *first = &m->dom[0];
	struct sen_domain *last = &m->dom[m->nr_domains - 1];
	int cpu;

	switch (brk) {
	case BRK_FREQ_ORDER:
		last->opp[2].freq = last->opp[1].freq;
		break;
	case BRK_FREQ_ZERO:
		first->opp[0].freq = 0;
		break;
	case BRK_CAP_ORDER:
		last->opp[3].cap = last->opp[2].cap;
		break;
	case BRK_CAP_ZERO:
		first->opp[0].cap = 0;
		break;
	case BRK_CAP_BIG:
		last->opp[4].cap = SCHED_CAPACITY_SCALE + 1;
		break;
	case BRK_CAP_TOP:
		last->opp[4].cap = 1000;
		break;
	case BRK_POWER_ZERO:
		first->opp[0].cpu_power = 0;
		break;
	case BRK_POWER_ORDER:
		last->opp[4].cpu_power = last->opp[3].cpu_power;
		break;
	case BRK_POWER_HUGE:
		last->opp[4].cpu_power = (unsigned long)U32_MAX + 1;
		break;
	case BRK_CLUSTER_ORDER:
		first->opp[1].cluster_power = 1;
		break;
	case BRK_NO_OPPS:
		first->nr_opps = 0;
		break;
	case BRK_MANY_OPPS:
		first->nr_opps = SEN_MAX_OPPS + 1;
		break;
	case BRK_NO_IDLE:
		first->nr_idle = 0;
		break;
	case BRK_MANY_IDLE:
		first->nr_idle = SEN_MAX_IDLE_STATES + 1;
		break;
	case BRK_IDLE_CPU:
		last->idle[2].cpu_power = 1;
		break;
	case BRK_IDLE_CLUSTER:
		first->idle[2].cluster_power = 60000;
		break;
	case BRK_WFI_POWER:
		first->idle[0].cpu_power = first->opp[0].cpu_power;
		break;
	case BRK_LATENCY:
		first->idle[2].exit_latency_us = 10;
		break;
	case BRK_RESIDENCY:
		first->idle[2].residency_us = 10;
		break;
	case BRK_NO_DOMAIN:
		m->nr_domains = 0;
		break;
	case BRK_UNCOVERED:
		cpu = cpumask_last(&last->cpus);
		cpumask_clear_cpu(cpu, &last->cpus);
		if (cpumask_empty(&last->cpus))
			m->nr_domains--;
		m->cpu_domain[cpu] = -1;
		break;
	case BRK_TWICE:
		cpumask_set_cpu(cpumask_first(&first->cpus), &last->cpus);
		break;
	case BRK_EMPTY_DOMAIN:
		cpumask_clear(&first->cpus);
		break;
	}
}

static const struct sen_bad_case sen_bad_cases[] = {
	{ "frequency repeated", BRK_FREQ_ORDER,
	  "operating points (cpufreq): opp 2: frequency" },
	{ "zero frequency", BRK_FREQ_ZERO, "opp 0: zero frequency" },
	{ "capacity repeated", BRK_CAP_ORDER,
	  "capacity (capacity-dmips-mhz x frequency): opp 3: capacity" },
	{ "zero capacity", BRK_CAP_ZERO, "opp 0: capacity 0 outside" },
	{ "capacity above scale", BRK_CAP_BIG, "opp 4: capacity 1025 outside" },
	{ "top capacity not scale", BRK_CAP_TOP, "largest capacity 1000" },
	{ "zero power", BRK_POWER_ZERO,
	  "test table: opp 0: power 0 must be positive" },
	{ "power not increasing", BRK_POWER_ORDER,
	  "opp 4: power 454408 not above 454408" },
	{ "power beyond 32 bits", BRK_POWER_HUGE,
	  "must be positive and fit 32 bits" },
	{ "cluster power decreasing", BRK_CLUSTER_ORDER,
	  "opp 1: power 1 below 26000" },
	{ "no operating point", BRK_NO_OPPS, "0 operating points" },
	{ "too many operating points", BRK_MANY_OPPS, "33 operating points" },
	{ "no idle state", BRK_NO_IDLE, "0 idle states" },
	{ "too many idle states", BRK_MANY_IDLE, "9 idle states" },
	{ "idle cpu power rising", BRK_IDLE_CPU,
	  "state 2 (cluster-sleep-0): power 1 above 0" },
	{ "idle cluster power rising", BRK_IDLE_CLUSTER,
	  "state 2 (cluster-sleep-0): power 60000 above 56000" },
	{ "WFI above active", BRK_WFI_POWER,
	  "state 0 (WFI): power 42361 not below" },
	{ "latency falling", BRK_LATENCY,
	  "state 2 (cluster-sleep-0): 10 us shorter than 1500 us" },
	{ "residency falling", BRK_RESIDENCY,
	  "state 2 (cluster-sleep-0): 10 us shorter than 2000 us" },
	{ "no domain", BRK_NO_DOMAIN, "no performance domain" },
	{ "cpu uncovered", BRK_UNCOVERED, "not in any performance domain" },
	{ "cpu twice", BRK_TWICE, "in domain" },
	{ "empty domain", BRK_EMPTY_DOMAIN, "has no CPU" },
};

static void sen_case_desc(const struct sen_bad_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sen_bad, sen_bad_cases, sen_case_desc);

static void sen_model_bad_refused(struct kunit *test)
{
	const struct sen_bad_case *c = test->param_value;
	struct sen_model *m = sen_test_model(test);
	char why[WHY_LEN] = "";

	sen_break_model(m, c->brk);
	KUNIT_ASSERT_EQ_MSG(test, sen_model_validate(m, why, sizeof(why)),
			    -EINVAL, "%s: accepted", c->desc);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(why, c->want),
				  "reason \"%s\" lacks \"%s\"", why, c->want);
	/* Every reason that concerns a CPU starts by naming it. */
	if (strcmp(c->want, "no performance domain") &&
	    strcmp(c->want, "has no CPU"))
		KUNIT_EXPECT_TRUE_MSG(test, !strncmp(why, "cpu", 3),
				      "reason \"%s\" names no CPU", why);
}

static void sen_model_derived_costs(struct kunit *test)
{
	struct sen_model *m = sen_test_model(test);
	struct sen_domain *d = &m->dom[0];
	unsigned int j;

	/* Make opp 1 cost more per unit of work than opp 2, with its cluster. */
	d->opp[1].cpu_power = 79000;
	KUNIT_ASSERT_EQ(test, sen_model_validate(m, NULL, 0) ? 1 : 0, 0);
	sen_model_derive(m);
	for (j = 0; j < d->nr_opps; j++)
		KUNIT_EXPECT_EQ(test, d->opp[j].cost,
				d->opp[j].cpu_power * SCHED_CAPACITY_SCALE /
				d->opp[j].cap);
	KUNIT_EXPECT_TRUE(test, d->opp[0].efficient);
	KUNIT_EXPECT_FALSE(test, d->opp[1].efficient);
	KUNIT_EXPECT_TRUE(test, d->opp[2].efficient);
	KUNIT_EXPECT_TRUE(test, d->opp[d->nr_opps - 1].efficient);
}

/* The model built for this board, if there is one. */
static void sen_model_booted_covers_cpus(struct kunit *test)
{
	const struct sen_model *m;
	int cpu;

	rcu_read_lock();
	m = sen_model_rcu();
	if (!m) {
		rcu_read_unlock();
		kunit_skip(test, "no platform energy model on this board");
	}
	for_each_possible_cpu(cpu) {
		const struct sen_domain *d = sen_cpu_domain(m, cpu);
		unsigned int i, in = 0;

		KUNIT_EXPECT_NOT_NULL_MSG(test, d, "cpu%d has no domain", cpu);
		for (i = 0; i < m->nr_domains; i++)
			in += cpumask_test_cpu(cpu, &m->dom[i].cpus);
		KUNIT_EXPECT_EQ_MSG(test, in, 1U, "cpu%d in %u domains", cpu, in);
		if (d)
			KUNIT_EXPECT_EQ_MSG(test, d->opp[d->nr_opps - 1].cap,
					    arch_scale_cpu_capacity(cpu),
					    "cpu%d top capacity", cpu);
	}
	rcu_read_unlock();
}

static void sen_model_booted_matches_em(struct kunit *test)
{
	const struct sen_model *m;
	unsigned int i, j;

	rcu_read_lock();
	m = sen_model_rcu();
	if (!m || m->src_active != SEN_SRC_EM) {
		rcu_read_unlock();
		kunit_skip(test, "no model with active power from the energy model");
	}
	for (i = 0; i < m->nr_domains; i++) {
		const struct sen_domain *d = &m->dom[i];
		struct em_perf_domain *pd = em_cpu_get(cpumask_first(&d->cpus));

		KUNIT_ASSERT_NOT_NULL(test, pd);
		KUNIT_EXPECT_EQ(test, d->nr_opps, (unsigned int)pd->nr_perf_states);
		KUNIT_EXPECT_TRUE(test, cpumask_equal(&d->cpus, em_span_cpus(pd)));
		for (j = 0; j < d->nr_opps && j < pd->nr_perf_states; j++) {
			KUNIT_EXPECT_EQ(test, d->opp[j].freq, pd->table[j].frequency);
			KUNIT_EXPECT_EQ(test, d->opp[j].cpu_power, pd->table[j].power);
		}
	}
	rcu_read_unlock();
}

static struct kunit_case sen_model_cases[] = {
	KUNIT_CASE(sen_model_valid_accepted),
	KUNIT_CASE_PARAM(sen_model_bad_refused, sen_bad_gen_params),
	KUNIT_CASE(sen_model_derived_costs),
	KUNIT_CASE(sen_model_booted_covers_cpus),
	KUNIT_CASE(sen_model_booted_matches_em),
	{}
};

static struct kunit_suite sen_model_suite = {
	.name = "sched_energy_model",
	.test_cases = sen_model_cases,
};

kunit_test_suite(sen_model_suite);
