// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the sched-energy estimator (kernel/sched/energy.c) on
 * synthetic two-CPU domains whose energies are worked out by hand in the
 * comments: the OPP and idle-state choices, packing two small tasks on
 * one CPU beating spreading them (the second CPU's wakeups cost more than
 * the shared cluster time saved), spreading beating packing (packing would
 * raise the OPP), a small task costing less on an awake LITTLE cluster
 * than on a sleeping big one, and no overflow at 64 CPUs and full power.
 *
 * Fractions of the 16 ms period are in 1/1024 and truncated, as the
 * estimator computes them; energies are mean power x 1024.
 */
#include <kunit/test.h>
#include <linux/sched.h>
#include <linux/sched/energy.h>
#include <linux/slab.h>

#define PERIOD_US	16000

struct sen_test_opp {
	unsigned long cap, cpu, cluster;
};

struct sen_test_idle {
	unsigned long cpu, cluster, wakeup;
	unsigned int residency;
};

static struct sen_domain *
sen_test_domain(struct kunit *test, const struct sen_test_opp *opp,
		unsigned int nr_opps, const struct sen_test_idle *idle,
		unsigned int nr_idle)
{
	struct sen_domain *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, d);
	d->nr_opps = nr_opps;
	for (i = 0; i < nr_opps; i++) {
		d->opp[i].freq = 100000 * (i + 1);
		d->opp[i].cap = opp[i].cap;
		d->opp[i].cpu_power = opp[i].cpu;
		d->opp[i].cluster_power = opp[i].cluster;
		d->opp[i].efficient = true;
	}
	d->nr_idle = nr_idle;
	for (i = 0; i < nr_idle; i++) {
		d->idle[i].cpu_power = idle[i].cpu;
		d->idle[i].cluster_power = idle[i].cluster;
		d->idle[i].wakeup_energy = idle[i].wakeup;
		d->idle[i].residency_us = idle[i].residency;
	}
	return d;
}

/*
 * LITTLE: OPPs (capacity, CPU power, cluster power) 200/100/40 and
 * 400/300/60; idle states WFI (CPU 20, cluster 40), cpu-off (0, 40,
 * residency 1 ms) and cluster-off (0, 5, 5 ms, wakeup energy 32000, that
 * is 32000 * 1024 / 16000 = 2048 per wakeup in a 16 ms period).
 */
static const struct sen_test_opp little_opp[] = {
	{ 200, 100, 40 }, { 400, 300, 60 },
};

static const struct sen_test_idle little_idle[] = {
	{ 20, 40, 0, 0 }, { 0, 40, 0, 1000 }, { 0, 5, 32000, 5000 },
};

/* big: 512/400/100 and 1024/1200/150; its cluster-off draws 10. */
static const struct sen_test_opp big_opp[] = {
	{ 512, 400, 100 }, { 1024, 1200, 150 },
};

static const struct sen_test_idle big_idle[] = {
	{ 50, 100, 0, 0 }, { 0, 100, 0, 1000 }, { 0, 10, 32000, 5000 },
};

static struct sen_domain *little(struct kunit *test)
{
	return sen_test_domain(test, little_opp, 2, little_idle, 3);
}

static struct sen_domain *big(struct kunit *test)
{
	return sen_test_domain(test, big_opp, 2, big_idle, 3);
}

/* The lowest efficient OPP covering the need, else the top one. */
static void sen_energy_opp_index(struct kunit *test)
{
	struct sen_domain *d = little(test);

	KUNIT_EXPECT_EQ(test, sen_opp_index(d, 0), 0U);
	KUNIT_EXPECT_EQ(test, sen_opp_index(d, 200), 0U);
	KUNIT_EXPECT_EQ(test, sen_opp_index(d, 201), 1U);
	KUNIT_EXPECT_EQ(test, sen_opp_index(d, 500), 1U);	/* beyond: top */
	d->opp[0].efficient = false;
	KUNIT_EXPECT_EQ(test, sen_opp_index(d, 10), 1U);
}

/*
 * The headroom: 1/8 of the demand (the growth the tracker does not
 * believe at once), or the spread when larger.  With it, 178 still fits
 * the 200 OPP (178 + 22 = 200), 179 does not (179 + 22 = 201).
 */
static void sen_energy_headroom(struct kunit *test)
{
	struct sen_domain *d = little(test);

	KUNIT_EXPECT_EQ(test, sen_util_headroom(0, 0), 0UL);
	KUNIT_EXPECT_EQ(test, sen_util_headroom(800, 0), 900UL);
	KUNIT_EXPECT_EQ(test, sen_util_headroom(800, 50), 900UL);
	KUNIT_EXPECT_EQ(test, sen_util_headroom(800, 300), 1100UL);
	KUNIT_EXPECT_EQ(test, sen_util_headroom(7, 0), 7UL);
	KUNIT_EXPECT_EQ(test, sen_opp_index(d, sen_util_headroom(178, 0)), 0U);
	KUNIT_EXPECT_EQ(test, sen_opp_index(d, sen_util_headroom(179, 0)), 1U);
	KUNIT_EXPECT_EQ(test, sen_opp_index(d, sen_util_headroom(100, 101)), 1U);
}

/* The deepest state whose residency fits the idle stretch. */
static void sen_energy_idle_index(struct kunit *test)
{
	struct sen_domain *d = little(test);

	KUNIT_EXPECT_EQ(test, sen_idle_index(d, 0), 0U);
	KUNIT_EXPECT_EQ(test, sen_idle_index(d, 999), 0U);
	KUNIT_EXPECT_EQ(test, sen_idle_index(d, 1000), 1U);
	KUNIT_EXPECT_EQ(test, sen_idle_index(d, 4999), 1U);
	KUNIT_EXPECT_EQ(test, sen_idle_index(d, 5000), 2U);
	KUNIT_EXPECT_EQ(test, sen_idle_index(d, U64_MAX), 2U);
}

/* A domain with no work: every CPU and the cluster in cluster-off. */
static void sen_energy_idle_domain(struct kunit *test)
{
	unsigned long util[2] = { 0, 0 };

	/* 1024 * (0 + 0 + 5) */
	KUNIT_EXPECT_EQ(test, sen_domain_energy(little(test), util, 2, -1, 0,
						PERIOD_US), 5120ULL);
	/* The added utilization counts: {40, 0} is not idle. */
	KUNIT_EXPECT_NE(test, sen_domain_energy(little(test), util, 2, 0, 40,
						PERIOD_US), 5120ULL);
}

/*
 * Two 40-tasks on LITTLE.
 *
 * Packed, {80, 0}: OPP 0 (80 + 80 / 8 = 90 <= 200).  CPU0 busy
 * b = 80 * 1024 / 200 = 409, idle 615/1024 of 16 ms = 9609 us: cluster-off;
 * 409 * 100 + 615 * 0 + 2048 = 42948.  CPU1 idle all along: 0.  Cluster
 * idle 615 (9609 us, cluster-off): 409 * 40 + 615 * 5 = 19435.
 * Total 62383.
 *
 * Spread, {40, 40}: OPP 0.  Each CPU b = 204, idle 820 (12812 us,
 * cluster-off): 204 * 100 + 2048 = 22448, twice 44896.  Cluster idle
 * 820 * 820 / 1024 = 656 (10250 us, cluster-off): 368 * 40 + 656 * 5 =
 * 18000.  Total 62896.
 *
 * Spreading keeps the cluster busy 368/1024 of the period instead of
 * 409/1024 (1535 less, with the truncations) but wakes a second CPU from
 * cluster-off every period (2048 more): packing wins.
 */
static void sen_energy_pack_beats_spread(struct kunit *test)
{
	struct sen_domain *d = little(test);
	unsigned long packed[2] = { 80, 0 }, spread[2] = { 40, 40 };
	unsigned long one[2] = { 40, 0 };
	u64 e_pack, e_spread;

	e_pack = sen_domain_energy(d, packed, 2, -1, 0, PERIOD_US);
	e_spread = sen_domain_energy(d, spread, 2, -1, 0, PERIOD_US);
	KUNIT_EXPECT_EQ(test, e_pack, 62383ULL);
	KUNIT_EXPECT_EQ(test, e_spread, 62896ULL);
	KUNIT_EXPECT_LT(test, e_pack, e_spread);
	/* The same through add_idx: the move onto CPU0 or CPU1. */
	KUNIT_EXPECT_EQ(test, sen_domain_energy(d, one, 2, 0, 40, PERIOD_US), e_pack);
	KUNIT_EXPECT_EQ(test, sen_domain_energy(d, one, 2, 1, 40, PERIOD_US), e_spread);

	/* Without the wakeup cost, spreading is cheaper: 58800 < 60335. */
	d->idle[2].wakeup_energy = 0;
	KUNIT_EXPECT_EQ(test, sen_domain_energy(d, packed, 2, -1, 0, PERIOD_US), 60335ULL);
	KUNIT_EXPECT_EQ(test, sen_domain_energy(d, spread, 2, -1, 0, PERIOD_US), 58800ULL);
}

/*
 * Two 90-tasks on LITTLE.
 *
 * Packed, {180, 0}: 180 + 22 = 202 > 200, OPP 1 (cap 400).  CPU0
 * b = 180 * 1024 / 400 = 460, idle 564 (8812 us, cluster-off):
 * 460 * 300 + 2048 = 140048.  Cluster idle 564 (cluster-off):
 * 460 * 60 + 564 * 5 = 30420.  Total 170468.
 *
 * Spread, {90, 90}: OPP 0.  Each b = 460, idle 564 (cluster-off):
 * 460 * 100 + 2048 = 48048, twice 96096.  Cluster idle
 * 564 * 564 / 1024 = 310, 4843 us: only cpu-off for the cluster;
 * 714 * 40 + 310 * 40 = 40960.  Total 137056: spreading wins, as
 * packing would triple the CPU power for the doubled work.
 */
static void sen_energy_spread_beats_pack(struct kunit *test)
{
	struct sen_domain *d = little(test);
	unsigned long packed[2] = { 180, 0 }, spread[2] = { 90, 90 };
	u64 e_pack, e_spread;

	e_pack = sen_domain_energy(d, packed, 2, -1, 0, PERIOD_US);
	e_spread = sen_domain_energy(d, spread, 2, -1, 0, PERIOD_US);
	KUNIT_EXPECT_EQ(test, e_pack, 170468ULL);
	KUNIT_EXPECT_EQ(test, e_spread, 137056ULL);
	KUNIT_EXPECT_LT(test, e_spread, e_pack);
}

/*
 * A 40-task when LITTLE runs one 40-task and big sleeps.
 *
 * LITTLE before, {40, 0}: CPU0 204 * 100 + 2048 = 22448; cluster idle 820:
 * 204 * 40 + 820 * 5 = 12260; 34708.  After: 62383 packed (+27675) or
 * 62896 spread (+28188).
 *
 * big before, {0, 0}: 1024 * 10 = 10240.  After, {40, 0}: OPP 0 (cap
 * 512), b = 80, idle 944 (14750 us, cluster-off): 80 * 400 + 2048 = 34048;
 * cluster 80 * 100 + 944 * 10 = 17440; 51488 (+41248).
 *
 * Waking the big cluster costs the most.
 */
static void sen_energy_wake_cluster(struct kunit *test)
{
	struct sen_domain *l = little(test), *b = big(test);
	unsigned long lu[2] = { 40, 0 }, bu[2] = { 0, 0 };
	s64 pack, spread, up;

	pack = sen_domain_energy(l, lu, 2, 0, 40, PERIOD_US) -
	       sen_domain_energy(l, lu, 2, -1, 0, PERIOD_US);
	spread = sen_domain_energy(l, lu, 2, 1, 40, PERIOD_US) -
		 sen_domain_energy(l, lu, 2, -1, 0, PERIOD_US);
	up = sen_domain_energy(b, bu, 2, 0, 40, PERIOD_US) -
	     sen_domain_energy(b, bu, 2, -1, 0, PERIOD_US);
	KUNIT_EXPECT_EQ(test, pack, 27675LL);
	KUNIT_EXPECT_EQ(test, spread, 28188LL);
	KUNIT_EXPECT_EQ(test, up, 41248LL);
	KUNIT_EXPECT_LT(test, pack, spread);
	KUNIT_EXPECT_LT(test, spread, up);
}

/*
 * 64 CPUs fully busy at the largest power the model accepts: each CPU
 * b = 1024 at the top OPP, never idle (WFI, no wakeup energy), cluster
 * busy all along: 1024 * (64 * P + P) with P = U32_MAX, no overflow.
 */
static void sen_energy_64_cpus_full_power(struct kunit *test)
{
	static const struct sen_test_idle idle[] = {
		{ 0, 0, 0, 0 }, { 0, 0, U32_MAX, 5000 },
	};
	struct sen_test_opp opp[] = {
		{ 512, U32_MAX / 2, U32_MAX / 2 }, { 1024, U32_MAX, U32_MAX },
	};
	struct sen_domain *d = sen_test_domain(test, opp, 2, idle, 2);
	unsigned long *util = kunit_kcalloc(test, 64, sizeof(*util), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, util);
	for (i = 0; i < 64; i++)
		util[i] = 1024;
	KUNIT_EXPECT_EQ(test, sen_domain_energy(d, util, 64, -1, 0, PERIOD_US),
			1024ULL * 65 * U32_MAX);
	/* Beyond full: still 100% busy, the same energy. */
	KUNIT_EXPECT_EQ(test, sen_domain_energy(d, util, 64, 5, 4096, PERIOD_US),
			1024ULL * 65 * U32_MAX);
	/* A zero period is taken as 1 us, not a division by zero. */
	util[0] = 100;
	KUNIT_EXPECT_GT(test, sen_domain_energy(d, util, 64, -1, 0, 0), 0ULL);
}

static struct kunit_case sen_energy_cases[] = {
	KUNIT_CASE(sen_energy_opp_index),
	KUNIT_CASE(sen_energy_headroom),
	KUNIT_CASE(sen_energy_idle_index),
	KUNIT_CASE(sen_energy_idle_domain),
	KUNIT_CASE(sen_energy_pack_beats_spread),
	KUNIT_CASE(sen_energy_spread_beats_pack),
	KUNIT_CASE(sen_energy_wake_cluster),
	KUNIT_CASE(sen_energy_64_cpus_full_power),
	{}
};

static struct kunit_suite sen_energy_suite = {
	.name = "sched_energy_estimator",
	.test_cases = sen_energy_cases,
};

kunit_test_suite(sen_energy_suite);
