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
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/sched/energy.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <trace/events/sched_energy.h>

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
 * The headroom: the spread, at least 1/16 of the demand.  With it, 189
 * still fits the 200 OPP (189 + 11 = 200), 190 does not (190 + 11 = 201).
 */
static void sen_energy_headroom(struct kunit *test)
{
	struct sen_domain *d = little(test);

	KUNIT_EXPECT_EQ(test, sen_util_headroom(0, 0), 0UL);
	KUNIT_EXPECT_EQ(test, sen_util_headroom(800, 0), 850UL);
	KUNIT_EXPECT_EQ(test, sen_util_headroom(800, 40), 850UL);
	KUNIT_EXPECT_EQ(test, sen_util_headroom(800, 300), 1100UL);
	KUNIT_EXPECT_EQ(test, sen_util_headroom(15, 0), 15UL);
	KUNIT_EXPECT_EQ(test, sen_opp_index(d, sen_util_headroom(189, 0)), 0U);
	KUNIT_EXPECT_EQ(test, sen_opp_index(d, sen_util_headroom(190, 0)), 1U);
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
 * Packed, {80, 0}: OPP 0 (80 + 80 / 16 = 85 <= 200).  CPU0 busy
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
 * Two 95-tasks on LITTLE.
 *
 * Packed, {190, 0}: 190 + 11 = 201 > 200, OPP 1 (cap 400).  CPU0
 * b = 190 * 1024 / 400 = 486, idle 538 (8406 us, cluster-off):
 * 486 * 300 + 2048 = 147848.  Cluster idle 538 (cluster-off):
 * 486 * 60 + 538 * 5 = 31850.  Total 179698.
 *
 * Spread, {95, 95}: OPP 0.  Each b = 486, idle 538 (cluster-off):
 * 486 * 100 + 2048 = 50648, twice 101296.  Cluster idle
 * 538 * 538 / 1024 = 282, 4406 us: only cpu-off for the cluster;
 * 742 * 40 + 282 * 40 = 40960.  Total 142256: spreading wins, as
 * packing would triple the CPU power for the doubled work.
 */
static void sen_energy_spread_beats_pack(struct kunit *test)
{
	struct sen_domain *d = little(test);
	unsigned long packed[2] = { 190, 0 }, spread[2] = { 95, 95 };
	u64 e_pack, e_spread;

	e_pack = sen_domain_energy(d, packed, 2, -1, 0, PERIOD_US);
	e_spread = sen_domain_energy(d, spread, 2, -1, 0, PERIOD_US);
	KUNIT_EXPECT_EQ(test, e_pack, 179698ULL);
	KUNIT_EXPECT_EQ(test, e_spread, 142256ULL);
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

/*
 * The hold after a departure for room (sen_room_note()): about four
 * seconds (2^12 units of 2^20 ns: 4.29 s), eight if the task comes back
 * and leaves again within twice that, then 17 and 34 s at most; a task
 * that stayed away twice its last hold starts again from four.  Stamps
 * are compared across the wrap of their 32 bits, and 0 is never a stamp.
 */
static void sen_room_hold_backs_off(struct kunit *test)
{
	u32 t = sen_stamp(10 * NSEC_PER_SEC), next;
	u8 shift = sen_room_next_shift(0, 0, t);
	unsigned int i;

	KUNIT_EXPECT_EQ(test, shift, 0);
	KUNIT_EXPECT_TRUE(test, sen_room_holds(t, shift, sen_stamp(14200 * NSEC_PER_MSEC)));
	KUNIT_EXPECT_FALSE(test, sen_room_holds(t, shift, sen_stamp(14400 * NSEC_PER_MSEC)));
	/* Back at 14.4 s, out again at 15 s: eight seconds. */
	next = sen_stamp(15 * NSEC_PER_SEC);
	shift = sen_room_next_shift(t, shift, next);
	t = next;
	KUNIT_EXPECT_EQ(test, shift, 1);
	KUNIT_EXPECT_TRUE(test, sen_room_holds(t, shift, sen_stamp(23500 * NSEC_PER_MSEC)));
	KUNIT_EXPECT_FALSE(test, sen_room_holds(t, shift, sen_stamp(23700 * NSEC_PER_MSEC)));
	/* Every return within twice the hold doubles it, up to eight times. */
	for (i = 0; i < 4; i++) {
		next = t + (2U << (12 + shift)) - 2;
		shift = sen_room_next_shift(t, shift, next);
		t = next;
	}
	KUNIT_EXPECT_EQ(test, shift, 3);
	KUNIT_EXPECT_TRUE(test, sen_room_holds(t, shift, t + (1U << 15) - 2));
	KUNIT_EXPECT_FALSE(test, sen_room_holds(t, shift, t + (1U << 15)));
	/* Away for twice the hold: from four seconds again. */
	KUNIT_EXPECT_EQ(test, sen_room_next_shift(t, shift, t + (2U << 15)), 0);
	/* Never left; across the wrap of the stamp. */
	KUNIT_EXPECT_FALSE(test, sen_room_holds(0, 0, t));
	KUNIT_EXPECT_TRUE(test, sen_room_holds(0xffffff01U, 0, 0xffffff01U + 100));
	KUNIT_EXPECT_EQ(test, sen_stamp(0), 1U);
}

/*
 * A balancer's energy move must save more than 1/8 of the task's cost
 * where it is, and 1/2 within its own domain: juno-r0's mp3 tasks were
 * pushed between LITTLE CPUs for savings of 13-67% of their cost.  The
 * share is of the cost's size: a cost can be negative.
 */
static void sen_balance_local_margin(struct kunit *test)
{
	struct sen_move mv = { .cost = 40000, .saving = 12000 };

	KUNIT_EXPECT_TRUE(test, sen_balance_saves(&mv));	/* 30% */
	mv.local = true;
	KUNIT_EXPECT_FALSE(test, sen_balance_saves(&mv));
	mv.saving = 20000;
	KUNIT_EXPECT_FALSE(test, sen_balance_saves(&mv));	/* 1/2 exactly */
	mv.saving = 20001;
	KUNIT_EXPECT_TRUE(test, sen_balance_saves(&mv));
	mv.cost = -40000;
	KUNIT_EXPECT_TRUE(test, sen_balance_saves(&mv));
	mv.saving = 12000;
	KUNIT_EXPECT_FALSE(test, sen_balance_saves(&mv));
	mv.local = false;
	KUNIT_EXPECT_TRUE(test, sen_balance_saves(&mv));
	mv.saving = 5000;
	KUNIT_EXPECT_FALSE(test, sen_balance_saves(&mv));	/* 12.5% */
	mv.saving = 0;
	mv.cost = 0;
	KUNIT_EXPECT_FALSE(test, sen_balance_saves(&mv));
}

static struct kunit_case sen_energy_cases[] = {
	KUNIT_CASE(sen_balance_local_margin),
	KUNIT_CASE(sen_energy_opp_index),
	KUNIT_CASE(sen_energy_headroom),
	KUNIT_CASE(sen_energy_idle_index),
	KUNIT_CASE(sen_energy_idle_domain),
	KUNIT_CASE(sen_energy_pack_beats_spread),
	KUNIT_CASE(sen_energy_spread_beats_pack),
	KUNIT_CASE(sen_energy_wake_cluster),
	KUNIT_CASE(sen_energy_64_cpus_full_power),
	KUNIT_CASE(sen_room_hold_backs_off),
	{}
};

static struct kunit_suite sen_energy_suite = {
	.name = "sched_energy_estimator",
	.test_cases = sen_energy_cases,
};

kunit_test_suite(sen_energy_suite);

/**
 * DOC: sched_energy_decision_cost
 *
 * A microbenchmark of the energy estimation of one placement decision, on
 * synthetic models of 6 (4 + 2), 8 (4 + 4), 16, 64 and 128 CPUs in
 * domains of four, and of 8, 16, 64 and 128 CPUs each in a domain of its
 * own (a performance domain per CPU, as on hybrid x86 parts), with 5, 10
 * and 20 OPPs per domain (SEN_MAX_OPPS is 32, so 20 fits), to show how
 * the cost grows with the platform.
 *
 * What is timed, per decision: for every domain, what sen_weigh_domain()
 * does after its snapshot: one base sen_domain_energy() without the task,
 * one sen_domain_energy() with the task added to each of the domain's
 * first SEN_CANDS_PER_DOM (5) CPUs (every CPU of a domain of four, the one
 * CPU of a domain of one), and keeping the least delta over all domains.
 * The real path weighs at most that many distinct candidates and skips
 * those the task does not fit, so this is its upper bound.
 *
 * What is not timed: the runqueue snapshot (sen_snapshot(): reading each
 * CPU's utilization, active and idle state and runnable tasks, feeding the
 * tipping point, choosing the candidates), the task's demand and period
 * (sen_pick_task()), RCU, the prev_cpu margin and the trace event of
 * sen_select_cpu().  The models and utilizations stay in the cache from
 * one decision to the next, which a real wakeup's do not.
 *
 * The models are Juno r0-like: LITTLE domains of capacity 446 at 450-850
 * MHz and big ones of 1024 at 450-1100 MHz, OPPs evenly spaced between
 * 820 and 1000 mV, CPU power from the boards' dynamic-power-coefficients
 * (140 and 530 uW/MHz/V^2), cluster and idle power from boards/juno-r0.dtsi,
 * three idle states (WFI, cpu-sleep, cluster-sleep) with assumed wakeup
 * energies; the lower half of the domains are LITTLE.  Each model has
 * SEN_COST_SNAPS snapshots, drawn with a fixed seed: per CPU idle (30%),
 * light (40%), medium (20%) or heavy (10%) utilization, a task of 16 to 255
 * and a period of 8 to 64 ms; the decisions go through them in turn.
 * Everything is allocated before the clock starts.
 *
 * The number of decisions timed per configuration is the parameter
 * energy_test.bench_decisions (default 50, which keeps the suite short at
 * every boot); each configuration reports one line:
 *
 *   sched_energy_decision_cost: cpus=C domains=D opps=O decisions=N
 *   ns_per_decision=T ns_per_domain=T/D ns_best=B ns_full=F
 *
 * with T the mean over all decisions, B the mean over the fastest chunk
 * of SEN_COST_CHUNK decisions (the least disturbed by the host of an
 * emulated board) and F the mean of the same decisions with every
 * candidate's domain priced in full (sen_domain_energy_with()'s shortcut
 * off), timed alternately with T (sen_cost_time()).
 *
 * Each case also asserts, for every snapshot, that every energy is
 * non-zero, that adding the task lowers no domain's energy by more than
 * one wakeup charge at an unchanged OPP (see sen_cost_snap_check()), and
 * that every timed decision picks the CPU a brute-force evaluation of
 * every CPU finds, with the same delta.
 *
 * Whole decisions (cases sen_whole_cpus and sen_whole_per_cpu_domains):
 * sen_select_cpu_on(), the wakeup's decision code for code on a model the
 * caller gives, times everything above plus what the sums leave out: the
 * task's figures, the snapshot of every domain (each CPU's utilization,
 * active and idle state and exit latency, the fit checks, the candidates,
 * the tipping points) and the margins.  The same synthetic models, with
 * 10 OPPs, of 6, 8, 16, 32, 64 and 128 CPUs in domains of four and of 8
 * to 128 CPUs in domains of one; a guest has fewer CPUs, so each domain's
 * CPUs are the board's own active CPUs, taken in turn (a domain of four
 * on four distinct ones).  While the tracker is off and the policy has
 * never tipped a domain (so at boot; the case skips otherwise:
 * sen_bench_prepare(), sen_util_pose_begin()) the board's CPUs are shown
 * a snapshot's utilizations (sen_util_pose()), a new one every
 * SEN_WHOLE_CHUNK (8) decisions, and the waking task is a stand-in with a
 * snapshot's demand and period, counted on no CPU, prev_cpu the board's
 * CPUs the model has, in turn.  Each configuration reports:
 *
 *   sched_energy_decision_whole: cpus=C domains=D opps=10 board_cpus=R
 *   decisions=N ns_per_decision=T ns_per_cpu=T/C ns_best=B ns_median=M
 *
 * with R the board's CPUs the model uses, B the mean of the fastest
 * chunk and M the median chunk's (a host stall inflates T, not M).
 * Neither a lower nor an upper bound of a real platform of C CPUs: the
 * board's few CPUs are read again and again, warmer than C CPUs would
 * be; and a CPU in several synthetic domains is weighed as prev_cpu in
 * each of them (up to one candidate more per domain), each domain's
 * tipping state is its first CPU's.  The slope over C is the point.
 * Each case asserts that every domain got its CPUs and that every timed
 * decision ended on an active CPU by energy (why energy or prev), not on
 * the classic path.
 */
#define SEN_COST_CANDS		5	/* SEN_CANDS_PER_DOM in energy.c */
#define SEN_COST_DOM_CPUS	4	/* CPUs per domain, but in the per-CPU shape */
#define SEN_COST_NR_IDLE	3
#define SEN_COST_SNAPS		8
#define SEN_COST_CHUNK		64	/* decisions timed between reschedules */
#define SEN_WHOLE_OPPS		10	/* per domain, in whole decisions */
#define SEN_WHOLE_CHUNK		8	/* whole decisions per posed snapshot */

static unsigned int bench_decisions = 50;
module_param(bench_decisions, uint, 0444);
MODULE_PARM_DESC(bench_decisions,
		 "decisions timed per configuration by sched_energy_decision_cost");

/* One kind of cluster: frequencies in kHz, voltages in mV, powers in uW. */
struct sen_cost_kind {
	unsigned long cap, fmin, fmax, vmin, vmax, coef;
	unsigned long cluster_min, cluster_max;
	unsigned long cpu_idle[SEN_COST_NR_IDLE];
	unsigned long cluster_idle[SEN_COST_NR_IDLE];
	unsigned long wakeup[SEN_COST_NR_IDLE];	/* uW x us (pJ) */
	unsigned int latency[SEN_COST_NR_IDLE];
	unsigned int residency[SEN_COST_NR_IDLE];
};

static const struct sen_cost_kind sen_cost_little = {
	.cap = 446, .fmin = 450000, .fmax = 850000, .vmin = 820, .vmax = 1000,
	.coef = 140, .cluster_min = 26000, .cluster_max = 57000,
	.cpu_idle = { 6000, 0, 0 }, .cluster_idle = { 56000, 56000, 17000 },
	.wakeup = { 0, 10000000, 40000000 },
	.latency = { 1, 1500, 1600 }, .residency = { 0, 2000, 2500 },
};

static const struct sen_cost_kind sen_cost_big = {
	.cap = 1024, .fmin = 450000, .fmax = 1100000, .vmin = 820, .vmax = 1000,
	.coef = 530, .cluster_min = 24000, .cluster_max = 64000,
	.cpu_idle = { 15000, 0, 0 }, .cluster_idle = { 65000, 65000, 24000 },
	.wakeup = { 0, 25000000, 80000000 },
	.latency = { 1, 1500, 1600 }, .residency = { 0, 2000, 2500 },
};

/* One decision's input, and the brute-force answer. */
struct sen_cost_snap {
	unsigned long *util;	/* per CPU, domain after domain */
	unsigned long task;
	u64 period_us;
	int best_cpu;
	s64 best_delta;
};

struct sen_cost_bench {
	struct sen_model *m;
	struct sen_cpu_price *price;	/* sen_domain_base()'s, one domain */
	unsigned int nr_cpus;
	unsigned int dom_cpus;		/* CPUs per domain (the last may have fewer) */
	unsigned int nr_opps;
	struct sen_cost_snap snap[SEN_COST_SNAPS];
};

static unsigned int sen_cost_dom_cpus(const struct sen_cost_bench *b,
				      unsigned int i)
{
	return min(b->dom_cpus, b->nr_cpus - i * b->dom_cpus);
}

static void sen_cost_fill(struct sen_domain *d, const struct sen_cost_kind *k,
			  unsigned int nr_opps)
{
	unsigned int i, n = nr_opps - 1;

	d->nr_opps = nr_opps;
	for (i = 0; i < nr_opps; i++) {
		unsigned long f = k->fmin + (k->fmax - k->fmin) * i / n;
		unsigned long mv = k->vmin + (k->vmax - k->vmin) * i / n;

		d->opp[i].freq = f;
		d->opp[i].cap = k->cap * f / k->fmax;
		/* P = C V^2 f: uW/MHz/V^2 x MHz x mV^2 / 10^6 */
		d->opp[i].cpu_power = k->coef * (f / 1000) * mv * mv / 1000000;
		d->opp[i].cluster_power = k->cluster_min +
			(k->cluster_max - k->cluster_min) * i / n;
	}
	d->nr_idle = SEN_COST_NR_IDLE;
	for (i = 0; i < SEN_COST_NR_IDLE; i++) {
		d->idle[i].cpu_power = k->cpu_idle[i];
		d->idle[i].cluster_power = k->cluster_idle[i];
		d->idle[i].wakeup_energy = k->wakeup[i];
		d->idle[i].exit_latency_us = k->latency[i];
		d->idle[i].residency_us = k->residency[i];
	}
}

/* A realistic spread: idle, light, medium or heavy, below @cap * 3/4. */
static unsigned long sen_cost_util(struct rnd_state *rs, unsigned long cap)
{
	u32 r = prandom_u32_state(rs) % 100, v = prandom_u32_state(rs);

	if (r < 30)
		return 0;
	if (r < 70)
		return 1 + v % (cap / 8);
	if (r < 90)
		return cap / 8 + v % (cap * 3 / 8);
	return cap / 2 + v % (cap / 4);
}

/*
 * A model of @nr_cpus CPUs in domains of @dom_cpus with @nr_opps OPPs per
 * domain, and snapshots.
 */
static struct sen_cost_bench *sen_cost_build(struct kunit *test,
					     unsigned int nr_cpus,
					     unsigned int dom_cpus,
					     unsigned int nr_opps)
{
	unsigned int nr_dom = DIV_ROUND_UP(nr_cpus, dom_cpus);
	struct sen_cost_bench *b;
	struct rnd_state rs;
	unsigned int i, cpu;

	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	b->m = kunit_kzalloc(test, sen_model_size(nr_dom), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b->m);
	b->price = kunit_kcalloc(test, dom_cpus, sizeof(*b->price), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b->price);
	b->nr_cpus = nr_cpus;
	b->dom_cpus = dom_cpus;
	b->nr_opps = nr_opps;
	/* CPUs are indices into the snapshots: the guest has fewer. */
	sen_model_init(b->m, nr_dom);
	b->m->src_active = SEN_SRC_TEST;
	b->m->src_cluster = SEN_SRC_TEST;
	b->m->src_idle = SEN_SRC_TEST;
	for (i = 0; i < nr_dom; i++) {
		struct sen_domain *d = &b->m->dom[i];

		d->id = i;
		sen_cost_fill(d, i < nr_dom / 2 ? &sen_cost_little : &sen_cost_big,
			      nr_opps);
	}
	sen_model_derive(b->m);
	/* The premise of sen_cost_snap_check()'s bound. */
	for (i = 0; i < nr_dom; i++) {
		const struct sen_domain *d = &b->m->dom[i];

		KUNIT_ASSERT_GE(test, d->opp[0].cpu_power + d->opp[0].cluster_power,
				d->idle[0].cpu_power + d->idle[0].cluster_power);
	}

	prandom_seed_state(&rs, nr_cpus);
	for (i = 0; i < SEN_COST_SNAPS; i++) {
		struct sen_cost_snap *s = &b->snap[i];

		s->util = kunit_kcalloc(test, nr_cpus, sizeof(*s->util),
					GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, s->util);
		for (cpu = 0; cpu < nr_cpus; cpu++) {
			const struct sen_domain *d =
				&b->m->dom[cpu / dom_cpus];

			s->util[cpu] = sen_cost_util(&rs,
						     d->opp[d->nr_opps - 1].cap);
		}
		s->task = 16 + prandom_u32_state(&rs) % 240;
		s->period_us = 8000 * (1 + prandom_u32_state(&rs) % 8);
	}
	return b;
}

/*
 * The timed part of one decision: per domain a base energy and one energy
 * per candidate (its first SEN_COST_CANDS CPUs), the least delta over all
 * domains.  Ties go to the lower CPU, as in the brute force.  As
 * sen_weigh_domain() does it (sen_domain_base(), sen_domain_energy_with()),
 * or with @full every candidate priced from scratch (sen_domain_energy()),
 * for comparison.
 */
static int sen_cost_decide(const struct sen_cost_bench *b,
			   const struct sen_cost_snap *s, s64 *best_delta,
			   bool full)
{
	const struct sen_model *m = b->m;
	struct sen_dom_base base = { .cpu = b->price };
	unsigned int i, j, nr;
	int best = -1;

	for (i = 0; i < m->nr_domains; i++) {
		const struct sen_domain *d = &m->dom[i];
		const unsigned long *util = s->util + i * b->dom_cpus;
		u64 without;

		nr = sen_cost_dom_cpus(b, i);
		without = full ? sen_domain_energy(d, util, nr, -1, 0, s->period_us) :
			  sen_domain_base(d, util, nr, s->period_us, &base);
		for (j = 0; j < min_t(unsigned int, nr, SEN_COST_CANDS); j++) {
			s64 delta = (full ?
				     sen_domain_energy(d, util, nr, j, s->task,
						       s->period_us) :
				     sen_domain_energy_with(d, util, nr, j, s->task,
							    s->period_us, &base)) -
				    without;

			if (best < 0 || delta < *best_delta) {
				best = i * b->dom_cpus + j;
				*best_delta = delta;
			}
		}
	}
	return best;
}

/* The domain's need with @add on its CPU @idx (-1: none). */
static unsigned long sen_cost_need(const unsigned long *util, unsigned int nr,
				   int idx, unsigned long add)
{
	unsigned long max_util = 0;
	unsigned int i;

	for (i = 0; i < nr; i++)
		max_util = max(max_util, util[i] + (i == idx ? add : 0));
	return sen_util_headroom(max_util, 0);
}

/**
 * sen_cost_snap_check() - brute force and sanity of one snapshot
 * @test:	the test
 * @b:		the model
 * @s:		the snapshot; gets the least-energy CPU and its delta
 *
 * Weighs the task on every CPU, each with its own base energy, and
 * asserts that every energy is non-zero and that adding the task lowers
 * no domain's energy by more than one wakeup charge, W * 1024 / period
 * for the idle state with the largest W, when the OPP does not change.
 *
 * Why not "never lowers": more work shortens the CPU's idle stretches,
 * and the estimator then charges a shallower state, whose wakeup energy
 * is smaller.  Otherwise, at one OPP, a busy fraction that grows by db
 * costs db * (P_opp - P_wfi) more on the CPU, and the cluster's idle
 * fraction shrinks by no more than db (truncations included), which costs
 * at most db * (P_cluster_wfi - P_cluster_opp) less when, as in the Juno
 * tables, the cluster idles above its low-OPP active power; the lowest
 * OPP's powers must cover that (asserted).  Across an OPP change there is
 * no such bound: a faster OPP lengthens every CPU's idle stretches, and
 * with these tables the energy can fall by more than a wakeup charge.
 */
static void sen_cost_snap_check(struct kunit *test,
				const struct sen_cost_bench *b,
				struct sen_cost_snap *s)
{
	struct sen_dom_base base = { .cpu = b->price };
	unsigned int cpu;

	s->best_cpu = -1;
	for (cpu = 0; cpu < b->nr_cpus; cpu++) {
		unsigned int i = cpu / b->dom_cpus, j;
		int idx = cpu % b->dom_cpus;
		unsigned int nr = sen_cost_dom_cpus(b, i);
		const struct sen_domain *d = &b->m->dom[i];
		const unsigned long *util = s->util + i * b->dom_cpus;
		u64 without, with, charge = 0;

		for (j = 0; j < d->nr_idle; j++)
			charge = max(charge, div64_u64((u64)d->idle[j].wakeup_energy <<
						       SCHED_CAPACITY_SHIFT,
						       s->period_us));
		without = sen_domain_energy(d, util, nr, -1, 0, s->period_us);
		with = sen_domain_energy(d, util, nr, idx, s->task, s->period_us);
		KUNIT_ASSERT_GT(test, without, 0ULL);
		KUNIT_ASSERT_GT(test, with, 0ULL);
		/* The decisions' shortcut gives the same figures to the bit. */
		KUNIT_ASSERT_EQ(test, sen_domain_base(d, util, nr, s->period_us,
						      &base), without);
		KUNIT_ASSERT_EQ(test, sen_domain_energy_with(d, util, nr, idx,
							     s->task, s->period_us,
							     &base), with);
		if (sen_opp_index(d, sen_cost_need(util, nr, -1, 0)) ==
		    sen_opp_index(d, sen_cost_need(util, nr, idx, s->task)))
			KUNIT_ASSERT_GE_MSG(test, with + charge, without,
					    "cpu%u of %u, opps %u, task %lu",
					    cpu, b->nr_cpus, b->nr_opps, s->task);
		if (s->best_cpu < 0 || (s64)(with - without) < s->best_delta) {
			s->best_cpu = cpu;
			s->best_delta = with - without;
		}
	}
}

/*
 * Time @n decisions in chunks of SEN_COST_CHUNK, the shortcut's and the
 * full pricing's alternately, so that a host's slow patch slows both;
 * counts in @wrong the decisions that differ from the brute force.  Each
 * chunk is first run once untimed, so that neither timed pass is the one
 * that brings the snapshots into the cache, and every other chunk times
 * the full pricing first: the order alone was worth 15-20%.
 */
static void sen_cost_time(const struct sen_cost_bench *b, unsigned int n,
			  u64 *ns, u64 *best, u64 *ns_full, unsigned int *wrong)
{
	unsigned int i, k, end, pass, full;
	u64 t0, chunk;
	s64 delta;
	int cpu;

	*ns = 0;
	*ns_full = 0;
	*best = U64_MAX;
	*wrong = 0;
	for (k = 0; k < n; k = end) {
		end = min(n, k + SEN_COST_CHUNK);
		for (pass = 0; pass < 3; pass++) {
			full = pass && ((pass - 1) ^ ((k / SEN_COST_CHUNK) & 1));
			t0 = ktime_get_ns();
			for (i = k; i < end; i++) {
				const struct sen_cost_snap *s =
					&b->snap[i % SEN_COST_SNAPS];

				cpu = sen_cost_decide(b, s, &delta, full);
				*wrong += cpu != s->best_cpu ||
					  delta != s->best_delta;
			}
			chunk = ktime_get_ns() - t0;
			if (!pass)
				continue;
			if (full) {
				*ns_full += chunk;
				continue;
			}
			*ns += chunk;
			/* The least disturbed chunk: an emulator's host is noisy. */
			*best = min(*best, div_u64(chunk, end - k));
		}
		cond_resched();
	}
}

static void sen_cost_run(struct kunit *test, unsigned int nr_cpus,
			 unsigned int dom_cpus)
{
	static const unsigned int opps[] = { 5, 10, 20 };
	unsigned int n = max(bench_decisions, 1U), o, i, wrong;
	struct sen_cost_bench *b;
	u64 ns, ns_full, best;
	s64 delta;
	int cpu;

	for (o = 0; o < ARRAY_SIZE(opps); o++) {
		b = sen_cost_build(test, nr_cpus, dom_cpus, opps[o]);
		for (i = 0; i < SEN_COST_SNAPS; i++) {
			sen_cost_snap_check(test, b, &b->snap[i]);
			cpu = sen_cost_decide(b, &b->snap[i], &delta, false);
			KUNIT_ASSERT_EQ(test, cpu, b->snap[i].best_cpu);
			KUNIT_ASSERT_EQ(test, delta, b->snap[i].best_delta);
		}

		/* The timed loops: no allocation, no output. */
		sen_cost_time(b, n, &ns, &best, &ns_full, &wrong);
		KUNIT_EXPECT_EQ(test, wrong, 0U);
		kunit_info(test,
			   "sched_energy_decision_cost: cpus=%u domains=%u opps=%u decisions=%u ns_per_decision=%llu ns_per_domain=%llu ns_best=%llu ns_full=%llu",
			   nr_cpus, b->m->nr_domains, opps[o], n, div_u64(ns, n),
			   div64_u64(ns, (u64)n * b->m->nr_domains), best,
			   div_u64(ns_full, n));
	}
}

static void sen_cost_6_cpus(struct kunit *test)
{
	sen_cost_run(test, 6, SEN_COST_DOM_CPUS);
}

static void sen_cost_8_cpus(struct kunit *test)
{
	sen_cost_run(test, 8, SEN_COST_DOM_CPUS);
}

static void sen_cost_16_cpus(struct kunit *test)
{
	sen_cost_run(test, 16, SEN_COST_DOM_CPUS);
}

static void sen_cost_64_cpus(struct kunit *test)
{
	sen_cost_run(test, 64, SEN_COST_DOM_CPUS);
}

static void sen_cost_128_cpus(struct kunit *test)
{
	sen_cost_run(test, 128, SEN_COST_DOM_CPUS);
}

/* A performance domain per CPU. */
static void sen_cost_per_cpu_domains(struct kunit *test)
{
	static const unsigned int cpus[] = { 8, 16, 64, 128 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cpus); i++)
		sen_cost_run(test, cpus[i], 1);
}

/*
 * Whole decisions (see the DOC above, "sched_energy_decision_whole"): the
 * synthetic CPUs of a bench built by sen_cost_build() become the board's
 * own active CPUs, in turn, each domain on distinct ones.  Each CPU's
 * domain is the first one that holds it.
 */
static unsigned int sen_whole_map(struct sen_cost_bench *b, int *real)
{
	unsigned int nr_real = 0, i, k;
	int cpu;

	for_each_cpu(cpu, cpu_active_mask)
		real[nr_real++] = cpu;
	if (nr_real < b->dom_cpus)
		return 0;
	for (i = 0; i < b->m->nr_domains; i++) {
		struct sen_domain *d = &b->m->dom[i];

		cpumask_clear(&d->cpus);
		for (k = 0; k < sen_cost_dom_cpus(b, i); k++) {
			cpu = real[(i * b->dom_cpus + k) % nr_real];
			cpumask_set_cpu(cpu, &d->cpus);
			if (b->m->cpu_domain[cpu] < 0)
				b->m->cpu_domain[cpu] = i;
		}
	}
	return nr_real;
}

/* Stand-ins for waking tasks: demand, history and period of a snapshot. */
static struct task_struct *sen_whole_tasks(struct kunit *test,
					   const struct sen_cost_bench *b)
{
	struct task_struct *t;
	unsigned int i;

	t = kunit_kcalloc(test, SEN_COST_SNAPS, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	for (i = 0; i < SEN_COST_SNAPS; i++) {
		struct sen_task_util *u = &t[i].sen_util;

		cpumask_copy(&t[i].cpus_mask, cpu_possible_mask);
		t[i].cpus_ptr = &t[i].cpus_mask;
		u->demand = b->snap[i].task;
		u->hist[0] = b->snap[i].task;
		u->nr_hist = 1;
		u->spread = b->snap[i].task / 8;
		u->last_cycle = b->snap[i].period_us * NSEC_PER_USEC;
		u->contrib_cpu = -1;	/* counted nowhere: a waking task */
	}
	return t;
}

/* Show the board's CPUs a snapshot's utilizations: its first CPUs'. */
static void sen_whole_pose(const struct sen_cost_bench *b,
			   const struct sen_cost_snap *s, const int *real,
			   unsigned int nr_real)
{
	unsigned int i;

	for (i = 0; i < nr_real; i++)
		sen_util_pose(real[i], s->util[i % b->nr_cpus]);
}

/*
 * Time @n whole decisions in chunks of SEN_WHOLE_CHUNK, each chunk on one
 * posed snapshot with interrupts off and in an RCU read-side section, as
 * a wakeup decides, prev_cpu the first @nr_used of the board's CPUs in
 * turn (those the model has); @per_chunk gets each chunk's mean, @bad
 * counts timed decisions that did not end on a CPU.
 */
static void sen_whole_time(const struct sen_cost_bench *b,
			   struct task_struct *t, const int *real,
			   unsigned int nr_real, unsigned int nr_used,
			   unsigned int n, u64 *ns, u64 *per_chunk, unsigned int *bad)
{
	unsigned int i, k, end, pass, snap;
	unsigned long flags;
	int cpu, why;
	u64 t0, chunk;

	*ns = 0;
	*bad = 0;
	for (k = 0; k < n; k = end) {
		end = min(n, k + SEN_WHOLE_CHUNK);
		snap = (k / SEN_WHOLE_CHUNK) % SEN_COST_SNAPS;
		sen_whole_pose(b, &b->snap[snap], real, nr_real);
		/* The first pass warms up, as in sen_cost_time(). */
		for (pass = 0; pass < 2; pass++) {
			local_irq_save(flags);
			rcu_read_lock();
			t0 = ktime_get_ns();
			for (i = k; i < end; i++) {
				cpu = sen_select_cpu_on(b->m, &t[i % SEN_COST_SNAPS],
							real[i % nr_used], 0, &why);
				*bad += pass && (cpu < 0 || !cpu_active(cpu) ||
						 (why != SEN_WHY_ENERGY &&
						  why != SEN_WHY_PREV));
			}
			chunk = ktime_get_ns() - t0;
			rcu_read_unlock();
			local_irq_restore(flags);
		}
		*ns += chunk;
		per_chunk[k / SEN_WHOLE_CHUNK] = div_u64(chunk, end - k);
		cond_resched();
	}
}

static int sen_whole_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static void sen_whole_run(struct kunit *test, unsigned int nr_cpus,
			  unsigned int dom_cpus)
{
	unsigned int n = max(bench_decisions, 1U), nr_real, nr_used, bad;
	struct sen_cost_bench *b;
	struct task_struct *t;
	unsigned int i, nr_chunks = DIV_ROUND_UP(n, SEN_WHOLE_CHUNK);
	u64 ns = 0, *chunk;
	int *real, ret;

	bad = 0;
	ret = sen_bench_prepare();
	if (ret == -EBUSY)
		kunit_skip(test, "the policy is on or left a domain tipped");
	KUNIT_ASSERT_EQ(test, ret, 0);
	b = sen_cost_build(test, nr_cpus, dom_cpus, SEN_WHOLE_OPPS);
	real = kunit_kcalloc(test, nr_cpu_ids, sizeof(*real), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, real);
	t = sen_whole_tasks(test, b);
	chunk = kunit_kcalloc(test, nr_chunks, sizeof(*chunk), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, chunk);
	/* sen_util_mutex before the hotplug lock, as the tracker takes them. */
	if (sen_util_pose_begin())
		kunit_skip(test, "the tracker is on: the CPUs' sums are live");
	cpus_read_lock();	/* the board's CPUs stay as mapped */
	nr_real = sen_whole_map(b, real);
	nr_used = min(nr_real, nr_cpus);
	if (nr_real)
		sen_whole_time(b, t, real, nr_real, nr_used, n, &ns, chunk, &bad);
	cpus_read_unlock();
	sen_util_pose_end();
	if (!nr_real)
		kunit_skip(test, "fewer active CPUs than a domain has");
	for (i = 0; i < b->m->nr_domains; i++)
		KUNIT_ASSERT_EQ(test, cpumask_weight(&b->m->dom[i].cpus),
				sen_cost_dom_cpus(b, i));
	KUNIT_EXPECT_EQ(test, bad, 0U);
	sort(chunk, nr_chunks, sizeof(*chunk), sen_whole_cmp, NULL);
	kunit_info(test,
		   "sched_energy_decision_whole: cpus=%u domains=%u opps=%u board_cpus=%u decisions=%u ns_per_decision=%llu ns_per_cpu=%llu ns_best=%llu ns_median=%llu",
		   nr_cpus, b->m->nr_domains, SEN_WHOLE_OPPS, nr_used, n,
		   div_u64(ns, n), div64_u64(ns, (u64)n * nr_cpus), chunk[0],
		   chunk[nr_chunks / 2]);
}

static void sen_whole_cpus(struct kunit *test)
{
	static const unsigned int cpus[] = { 6, 8, 16, 32, 64, 128 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cpus); i++)
		sen_whole_run(test, cpus[i], SEN_COST_DOM_CPUS);
}

static void sen_whole_per_cpu_domains(struct kunit *test)
{
	static const unsigned int cpus[] = { 8, 16, 32, 64, 128 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cpus); i++)
		sen_whole_run(test, cpus[i], 1);
}

static struct kunit_case sen_cost_cases[] = {
	KUNIT_CASE(sen_cost_6_cpus),
	KUNIT_CASE(sen_cost_8_cpus),
	KUNIT_CASE(sen_cost_16_cpus),
	KUNIT_CASE(sen_cost_64_cpus),
	KUNIT_CASE(sen_cost_128_cpus),
	KUNIT_CASE(sen_cost_per_cpu_domains),
	KUNIT_CASE(sen_whole_cpus),
	KUNIT_CASE(sen_whole_per_cpu_domains),
	{}
};

static struct kunit_suite sen_cost_suite = {
	.name = "sched_energy_decision_cost",
	.test_cases = sen_cost_cases,
};

kunit_test_suite(sen_cost_suite);
