// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the arithmetic of the sched-energy utilization tracker
 * (kernel/sched/util_track.c): invariance scaling, cycle samples at the
 * extremes, the demand rule through steps up and down, the estimate of a
 * cycle in progress, hold times, the typical span through an overrun
 * and a late wakeup, a periodic task's cycles replayed through the
 * same functions the scheduler hooks use, and how the trace events print
 * the candidates they record raw.
 */
#include <kunit/test.h>
#include <linux/sched.h>
#include <linux/sched/energy.h>
#include <linux/trace_seq.h>
#include <trace/events/sched_energy.h>

#define MS	NSEC_PER_MSEC

static void sen_util_scale_invariance(struct kunit *test)
{
	u64 d = 10 * MS;

	/* Full capacity at fmax: unchanged. */
	KUNIT_EXPECT_EQ(test, sen_util_scale(d, 1024, 1024), d);
	/* Half the frequency: half the work. */
	KUNIT_EXPECT_EQ(test, sen_util_scale(d, 1024, 512), d / 2);
	/* A LITTLE CPU of capacity 446 at fmax. */
	KUNIT_EXPECT_EQ(test, sen_util_scale(d, 446, 1024), d * 446 / 1024);
	/*
	 * Speed-equalised emulation: freq scale 1024 * 1024 / 446 keeps
	 * capacity x freq at 1024^2, so time is work (within rounding).
	 */
	KUNIT_EXPECT_LE(test, d - sen_util_scale(d, 446, 1024 * 1024 / 446),
			d / 1000);
	/* Ten seconds at the largest scales does not overflow. */
	KUNIT_EXPECT_EQ(test, sen_util_scale(10000 * MS, 1024, 1024), 10000 * MS);
}

static void sen_util_ratio_extremes(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sen_util_ratio(3200 * NSEC_PER_USEC, 16 * MS), 204U);
	KUNIT_EXPECT_EQ(test, sen_util_ratio(8 * MS, 16 * MS), 512U);
	KUNIT_EXPECT_EQ(test, sen_util_ratio(20 * MS, 16 * MS), 1024U);
	KUNIT_EXPECT_EQ(test, sen_util_ratio(0, 16 * MS), 0U);
	KUNIT_EXPECT_EQ(test, sen_util_ratio(5, 0), 0U);
	/* A task that ran 1 ms and slept an hour. */
	KUNIT_EXPECT_EQ(test, sen_util_ratio(MS, 3600ULL * 1000 * MS), 0U);
	/* Values whose product with 1024 overflows 64 bits. */
	KUNIT_EXPECT_EQ(test, sen_util_ratio(1ULL << 60, 1ULL << 61), 512U);
	KUNIT_EXPECT_EQ(test, sen_util_ratio(U64_MAX - 1, U64_MAX), 1023U);
	KUNIT_EXPECT_EQ(test, sen_util_ratio(U64_MAX, U64_MAX), 1024U);
}

static void sen_util_demand_steps(struct kunit *test)
{
	u16 hist[SEN_UTIL_HIST] = { 102, 102, 102, 102 };
	unsigned int i, d, prev = 1024;

	KUNIT_EXPECT_EQ(test, sen_util_demand(hist, SEN_UTIL_HIST, 102, 0, 1), 102U);
	/* Up: the newest sample wins at once. */
	hist[0] = 716;
	KUNIT_EXPECT_EQ(test, sen_util_demand(hist, SEN_UTIL_HIST, 716, 0, 1), 716U);
	/*
	 * Down: 70% then 10% samples; falling at every cycle and believed
	 * once the last 70% one is alone (562, 409, 102).
	 */
	for (i = 0; i < SEN_UTIL_HIST; i++)
		hist[i] = 716;
	for (i = 0; i < SEN_UTIL_HIST - 1; i++) {
		hist[i] = 102;
		d = sen_util_demand(hist, SEN_UTIL_HIST, 102, 0, 1);
		KUNIT_EXPECT_LT(test, d, prev);
		prev = d;
	}
	KUNIT_EXPECT_EQ(test, prev, 102U);
	/* Within 1/8 above the mean (jitter): the mean. */
	for (i = 0; i < SEN_UTIL_HIST; i++)
		hist[i] = 200;
	hist[0] = 220;
	KUNIT_EXPECT_EQ(test, sen_util_demand(hist, SEN_UTIL_HIST, 220, 0, 1), 205U);
	/* Beyond 1/8 above it: the sample. */
	hist[0] = 240;
	KUNIT_EXPECT_EQ(test, sen_util_demand(hist, SEN_UTIL_HIST, 240, 0, 1), 240U);
	/* A first sample alone. */
	hist[0] = 102;
	KUNIT_EXPECT_EQ(test, sen_util_demand(hist, 1, 102, 0, 1), 102U);
	KUNIT_EXPECT_EQ(test, sen_util_demand(hist, 0, 300, 0, 1), 300U);
}

/* Replay @n samples one by one; the demand after each is @want's. */
static void sen_util_replay(struct kunit *test, const u16 *samples,
			    const unsigned int *want, unsigned int n,
			    unsigned int growth)
{
	u16 hist[SEN_UTIL_HIST];
	unsigned int i, nr = 0, idx = 0, prev = 0;

	for (i = 0; i < n; i++) {
		hist[idx] = samples[i];
		idx = (idx + 1) % SEN_UTIL_HIST;
		nr = min_t(unsigned int, nr + 1, SEN_UTIL_HIST);
		KUNIT_EXPECT_EQ_MSG(test, sen_util_demand(hist, nr, samples[i], prev, growth),
				    want[i], "sample %u, growth %u", i, growth);
		prev = samples[i];
	}
}

/*
 * Growth believed after two samples (SEN_UTIL_GROWTH_SAMPLES), replayed
 * sample by sample.  A 22% task (225) whose activation a stalled vCPU
 * stretched once to 400: the level takes it in (268 for the next three
 * cycles, 400 being less than twice the others), but the demand never
 * becomes 400, which believing one sample made it (and its CPU's OPP with
 * it).  A 10% -> 70% step (102 -> 716): the first 716 alone is a lone
 * outlier, left out of the level (102); the second is growth, believed as
 * the lower of the two.  Two newest samples above the level by different
 * amounts: the lower one.
 */
static void sen_util_demand_two_samples(struct kunit *test)
{
	static const u16 stretched[] = { 225, 225, 225, 225, 400, 225, 225, 225, 225 };
	static const unsigned int stretched_two[] = {
		225, 225, 225, 225, 268, 268, 268, 268, 225 };
	static const unsigned int stretched_one[] = {
		225, 225, 225, 225, 400, 268, 268, 268, 225 };
	static const u16 step[] = { 102, 102, 102, 102, 716, 716, 716 };
	static const unsigned int step_two[] = { 102, 102, 102, 102, 102, 716, 716 };
	static const u16 above[SEN_UTIL_HIST] = { 200, 200, 300, 320 };
	static const u16 within[SEN_UTIL_HIST] = { 200, 200, 280, 320 };

	sen_util_replay(test, stretched, stretched_two, ARRAY_SIZE(stretched),
			SEN_UTIL_GROWTH_SAMPLES);
	sen_util_replay(test, stretched, stretched_one, ARRAY_SIZE(stretched), 1);
	sen_util_replay(test, step, step_two, ARRAY_SIZE(step), SEN_UTIL_GROWTH_SAMPLES);

	KUNIT_EXPECT_EQ(test, sen_util_demand(above, SEN_UTIL_HIST, 320, 300, 2), 300U);
	/* The one before is within 1/8 of the level (250 + 31): the level. */
	KUNIT_EXPECT_EQ(test, sen_util_demand(within, SEN_UTIL_HIST, 320, 280, 2), 250U);
}

/*
 * The demand held through a sleep (sen_util_sleep_demand()).
 *
 * Below a step (raise_history 2 and 3): a 22% task (samples 225) whose
 * activation ran long (the span's estimate 400) holds its level, 225,
 * whatever the tick raised it to, unless the activation before ran long
 * too (newest sample 400: the lower of the two, 400, or 380 for an
 * estimate of 380; level 268, growth above 301), or growth is believed at
 * one sample (growth_samples 1: 400 at once).  An estimate within 1/8 of
 * the level is the level; a task whose last two samples grew keeps that
 * demand through one short activation (level 312: the samples' own 400).
 * A task with one sample: level and newest are that sample.
 *
 * A step (raise_history 3): a 10% task (samples 102) that stepped to 70%
 * (estimate 717) holds 717 through its first sleep; one stretched 2.5
 * times (255) holds its level, and 3 times (306) is a step.  Without a
 * step ratio (raise_history 2) the step waits for a second sample.
 * Measured from 128 at least (raise_history 4), a step is 384 or more.
 */
static void sen_util_sleep_demand_rules(struct kunit *test)
{
	static const u16 steady[] = { 225, 225, 225, 225 };
	static const u16 long_before[] = { 225, 225, 225, 400 };
	static const u16 grown[] = { 225, 225, 400, 400 };
	static const u16 small[] = { 102, 102, 102, 102 };
	static const struct {
		const u16 *hist;
		unsigned int n, newest, before, est, growth, step, least, want;
	} c[] = {
		{ steady, 4, 225, 225, 400, 2, 0, 0, 225 },
		{ steady, 4, 225, 225, 400, 1, 0, 0, 400 },
		{ long_before, 4, 400, 225, 400, 2, 0, 0, 400 },
		{ long_before, 4, 400, 225, 380, 2, 0, 0, 380 },
		{ long_before, 4, 400, 225, 300, 2, 0, 0, 268 },
		{ grown, 4, 400, 400, 225, 2, 0, 0, 400 },
		{ steady, 1, 225, 0, 400, 2, 0, 0, 225 },
		{ small, 4, 102, 102, 717, 2, 3, 0, 717 },
		{ small, 4, 102, 102, 255, 2, 3, 0, 102 },
		{ small, 4, 102, 102, 306, 2, 3, 0, 306 },
		{ small, 4, 102, 102, 717, 2, 0, 0, 102 },
		{ small, 1, 102, 0, 717, 2, 3, 0, 717 },
		{ small, 4, 102, 102, 717, 2, 3, 128, 717 },
		{ small, 4, 102, 102, 383, 2, 3, 128, 102 },
		{ small, 4, 102, 102, 384, 2, 3, 128, 384 },
	};
	unsigned int i;

	BUILD_BUG_ON(ARRAY_SIZE(steady) != SEN_UTIL_HIST);
	for (i = 0; i < ARRAY_SIZE(c); i++)
		KUNIT_EXPECT_EQ_MSG(test, sen_util_sleep_demand(c[i].hist, c[i].n, c[i].newest,
								c[i].before, c[i].est,
								c[i].growth, c[i].step,
								c[i].least),
				    c[i].want, "case %u", i);
}

/*
 * A lone outlier, under the one-sample rule (growth_samples 1).  A 6%
 * task (samples 58, 60, 55) whose one activation a stalled vCPU stretched
 * to 600: the 600 is believed while it is the newest, and the next
 * ordinary sample brings the demand back to the others' mean (a mean of
 * all four would read 193 for three more cycles).  Twice the others is
 * not yet an outlier (100, 100, 100, 200: the mean, 125), two high
 * samples are a trend (58, 60, 600, 600: the mean), and with two samples
 * nothing is left out.
 */
static void sen_util_demand_drops_lone_outlier(struct kunit *test)
{
	u16 hist[SEN_UTIL_HIST] = { 58, 60, 55, 600 };

	KUNIT_EXPECT_EQ(test, sen_util_demand(hist, SEN_UTIL_HIST, 600, 0, 1), 600U);
	hist[0] = 60;
	KUNIT_EXPECT_EQ(test, sen_util_demand(hist, SEN_UTIL_HIST, 60, 0, 1), 58U);
	KUNIT_EXPECT_EQ(test, sen_util_spread(hist, SEN_UTIL_HIST, 58), 2U);
	hist[0] = 100;
	hist[1] = 100;
	hist[2] = 100;
	hist[3] = 200;
	KUNIT_EXPECT_EQ(test, sen_util_demand(hist, SEN_UTIL_HIST, 100, 0, 1), 125U);
	hist[0] = 58;
	hist[1] = 60;
	hist[2] = 600;
	hist[3] = 600;
	KUNIT_EXPECT_EQ(test, sen_util_demand(hist, SEN_UTIL_HIST, 58, 0, 1), 329U);
	hist[0] = 60;
	hist[1] = 600;
	KUNIT_EXPECT_EQ(test, sen_util_demand(hist, 2, 60, 0, 1), 330U);
}

/*
 * The spread: how far the second largest sample went above the demand.
 * Steady at 200: none.  One jittery sample at 220 (demand 205, the mean):
 * none either, one sample is not a trend.  Two at 250 (demand 225, still
 * within 1/8 of the mean): 250 - 225 = 25.
 * Stepping down from 716 to 102 (demand 409, the mean, after two low
 * samples): 307, the uncertainty the governor covers until the demand
 * settles.
 */
static void sen_util_spread_of_samples(struct kunit *test)
{
	u16 hist[SEN_UTIL_HIST] = { 200, 200, 200, 200 };

	KUNIT_EXPECT_EQ(test, sen_util_spread(hist, SEN_UTIL_HIST, 200), 0U);
	KUNIT_EXPECT_EQ(test, sen_util_spread(hist, 0, 200), 0U);
	hist[0] = 220;
	KUNIT_EXPECT_EQ(test, sen_util_spread(hist, SEN_UTIL_HIST,
					      sen_util_demand(hist, SEN_UTIL_HIST, 220, 0, 1)), 0U);
	hist[0] = 250;
	hist[1] = 250;
	KUNIT_EXPECT_EQ(test, sen_util_demand(hist, SEN_UTIL_HIST, 250, 0, 1), 225U);
	KUNIT_EXPECT_EQ(test, sen_util_spread(hist, SEN_UTIL_HIST, 225), 25U);
	/* A single sample: no second one, no spread. */
	KUNIT_EXPECT_EQ(test, sen_util_spread(hist, 1, 100), 0U);
	hist[0] = 102;
	hist[1] = 102;
	hist[2] = 716;
	hist[3] = 716;
	KUNIT_EXPECT_EQ(test, sen_util_demand(hist, SEN_UTIL_HIST, 102, 0, 1), 409U);
	KUNIT_EXPECT_EQ(test, sen_util_spread(hist, SEN_UTIL_HIST, 409), 307U);
	/* A demand above every sample (a raise): no spread from the samples. */
	KUNIT_EXPECT_EQ(test, sen_util_spread(hist, SEN_UTIL_HIST, 800), 0U);
}

/*
 * A 20% task whose one activation was stretched (211, 211, 211, 391):
 * its demand under the one-sample rule (growth_samples 1) believes the
 * 391 at once, its settled demand is the mean,
 * 256.  A real step needs two samples: 100, 100, 100, 700 settles at the
 * mean, 250; 100, 100, 700, 700 at the second largest, 700.  A raise
 * above every sample (a burst in progress) settles there too; a demand
 * below it is the demand; with one sample there is nothing to discount.
 */
static void sen_util_settled_needs_two_samples(struct kunit *test)
{
	u16 hist[SEN_UTIL_HIST] = { 211, 211, 211, 391 };
	unsigned int d = sen_util_demand(hist, SEN_UTIL_HIST, 391, 0, 1);

	KUNIT_EXPECT_EQ(test, d, 391U);
	KUNIT_EXPECT_EQ(test, sen_util_settled(hist, SEN_UTIL_HIST, d), 256U);
	hist[0] = 100;
	hist[1] = 100;
	hist[2] = 100;
	hist[3] = 700;
	KUNIT_EXPECT_EQ(test, sen_util_settled(hist, SEN_UTIL_HIST, 700), 250U);
	hist[2] = 700;
	KUNIT_EXPECT_EQ(test, sen_util_settled(hist, SEN_UTIL_HIST, 700), 700U);
	KUNIT_EXPECT_EQ(test, sen_util_settled(hist, SEN_UTIL_HIST, 900), 700U);
	KUNIT_EXPECT_EQ(test, sen_util_settled(hist, SEN_UTIL_HIST, 400), 400U);
	/* two samples: the smaller is the second largest, the mean wins */
	KUNIT_EXPECT_EQ(test, sen_util_settled(hist, 2, 900), 100U);
	hist[1] = 300;
	KUNIT_EXPECT_EQ(test, sen_util_settled(hist, 2, 900), 200U);
	KUNIT_EXPECT_EQ(test, sen_util_settled(hist, 1, 900), 900U);
	KUNIT_EXPECT_EQ(test, sen_util_settled(hist, 0, 128), 128U);
}

/*
 * fair.c's misfit test (fits_capacity(): 80%) on sen_task_fit_util() is
 * the stay band on the task's own CPU: a task settled at 85% of a LITTLE
 * CPU (capacity 446) fits there, one at 92% does not; on any other CPU
 * the same 85% does not fit (80% to go there).  A task with one long
 * activation in four (380, 380, 380, 446) is judged by its settled
 * demand, the mean 396, not by its demand, 446.
 */
static void sen_util_fit_util_stay_band(struct kunit *test)
{
	struct task_struct *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	const unsigned long cap = 446;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, p);
	task_thread_info(p)->cpu = 1;
	p->sen_util.nr_hist = SEN_UTIL_HIST;
	for (i = 0; i < SEN_UTIL_HIST; i++)
		p->sen_util.hist[i] = cap * 85 / 100;		/* 379 */
	p->sen_util.demand = cap * 85 / 100;
	KUNIT_EXPECT_LT(test, sen_task_fit_util(p, 1) * 1280, cap * 1024);
	KUNIT_EXPECT_GE(test, sen_task_fit_util(p, 2) * 1280, cap * 1024);
	for (i = 0; i < SEN_UTIL_HIST; i++)
		p->sen_util.hist[i] = cap * 92 / 100;		/* 410 */
	p->sen_util.demand = cap * 92 / 100;
	KUNIT_EXPECT_GE(test, sen_task_fit_util(p, 1) * 1280, cap * 1024);
	for (i = 0; i < SEN_UTIL_HIST; i++)
		p->sen_util.hist[i] = 380;
	p->sen_util.hist[3] = 446;
	p->sen_util.demand = sen_util_demand(p->sen_util.hist, SEN_UTIL_HIST, 446, 0, 1);
	KUNIT_EXPECT_EQ(test, p->sen_util.demand, 446U);
	KUNIT_EXPECT_EQ(test, sen_task_settled(p, 446), 396UL);
	KUNIT_EXPECT_LT(test, sen_task_fit_util(p, 1) * 1280, cap * 1024);
}

static void sen_util_estimate_in_cycle(struct kunit *test)
{
	/* 10% -> 70% at a 16 ms period: known when the 11.2 ms burst ends. */
	KUNIT_EXPECT_EQ(test, sen_util_estimate(11200 * NSEC_PER_USEC,
						11200 * NSEC_PER_USEC, 16 * MS), 716U);
	/* Half-way through that burst, half of it. */
	KUNIT_EXPECT_EQ(test, sen_util_estimate(5600 * NSEC_PER_USEC,
						5600 * NSEC_PER_USEC, 16 * MS), 358U);
	/* A new task that never sleeps: full after one window. */
	KUNIT_EXPECT_EQ(test, sen_util_estimate(SEN_UTIL_WINDOW_NS,
						SEN_UTIL_WINDOW_NS, 0), 1024U);
	/* ... but not after a fraction of one. */
	KUNIT_EXPECT_EQ(test, sen_util_estimate(MS, MS, 0),
			(unsigned int)(1024 * MS / SEN_UTIL_WINDOW_NS));
	/* A long cycle in progress counts its whole length. */
	KUNIT_EXPECT_EQ(test, sen_util_estimate(10 * MS, 100 * MS, 16 * MS), 102U);
}

static void sen_util_hold_bounds(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sen_util_hold_ns(0), (u64)SEN_UTIL_WINDOW_NS);
	KUNIT_EXPECT_EQ(test, sen_util_hold_ns(MS), (u64)SEN_UTIL_WINDOW_NS);
	KUNIT_EXPECT_EQ(test, sen_util_hold_ns(12 * MS), 24 * MS);
	KUNIT_EXPECT_EQ(test, sen_util_hold_ns(16 * MS), 4 * (u64)SEN_UTIL_WINDOW_NS);
	KUNIT_EXPECT_EQ(test, sen_util_hold_ns(3600ULL * 1000 * MS),
			4 * (u64)SEN_UTIL_WINDOW_NS);
}

static void sen_util_roll_when_due(struct kunit *test)
{
	u64 roll = SEN_UTIL_ROLL_WINDOWS * (u64)SEN_UTIL_WINDOW_NS;

	/* A task that never slept: after SEN_UTIL_ROLL_WINDOWS windows. */
	KUNIT_EXPECT_FALSE(test, sen_util_roll_due(roll - 1, 0));
	KUNIT_EXPECT_TRUE(test, sen_util_roll_due(roll, 0));
	/* A 16 ms periodic task late by a whole period is not cut... */
	KUNIT_EXPECT_FALSE(test, sen_util_roll_due(2 * 16 * MS - 1, 16 * MS));
	/* ... nor a 100 ms one in its 50 ms burst, nor before 200 ms. */
	KUNIT_EXPECT_FALSE(test, sen_util_roll_due(50 * MS, 100 * MS));
	KUNIT_EXPECT_FALSE(test, sen_util_roll_due(199 * MS, 100 * MS));
	KUNIT_EXPECT_TRUE(test, sen_util_roll_due(200 * MS, 100 * MS));
	/* A span of a sleeping task's lifetime does not overflow the rule. */
	KUNIT_EXPECT_TRUE(test, sen_util_roll_due(U64_MAX, U64_MAX / 2));
}

/*
 * A task that never sleeps, throttled from 80% to 10% of its CPU: rolled
 * spans of 4 windows, busy over the span.  Its demand falls at every roll
 * and is the new level once one 80% sample is left (SEN_UTIL_HIST - 1
 * rolls), and stays there.
 */
static void sen_util_roll_replay(struct kunit *test)
{
	u64 span = SEN_UTIL_ROLL_WINDOWS * (u64)SEN_UTIL_WINDOW_NS;
	u16 hist[SEN_UTIL_HIST];
	unsigned int i, idx = 0, sample, demand, prev;

	sample = sen_util_ratio(span * 8 / 10, span);
	for (i = 0; i < SEN_UTIL_HIST; i++)
		hist[i] = sample;
	prev = sen_util_demand(hist, SEN_UTIL_HIST, sample, 0, 1);
	KUNIT_EXPECT_EQ(test, prev, 819U);
	for (i = 0; i < SEN_UTIL_HIST; i++) {
		sample = sen_util_ratio(span / 10, span);
		hist[idx] = sample;
		idx = (idx + 1) % SEN_UTIL_HIST;
		demand = sen_util_demand(hist, SEN_UTIL_HIST, sample, 0, 1);
		if (i < SEN_UTIL_HIST - 1)
			KUNIT_EXPECT_LT(test, demand, prev);
		else
			KUNIT_EXPECT_EQ(test, demand, prev);
		prev = demand;
	}
	KUNIT_EXPECT_EQ(test, demand, 102U);
}

/*
 * Growth in a span in progress.  A 10% task at a 16 ms period that runs
 * 8 ms of a span has grown (8/16 = 512 > 102 + 1/8); a burst of the same
 * length just after a roll (a never-sleeping task throttled to 10%: 4-8 ms
 * bursts every 50 ms at HZ=250) is not, nor is a steady task's jitter.
 */
static void sen_util_growth(struct kunit *test)
{
	const u64 us = NSEC_PER_USEC;

	KUNIT_EXPECT_EQ(test, sen_util_grown(8 * MS, 8 * MS, 16 * MS, 102, 4,
					     false), 512U);
	KUNIT_EXPECT_EQ(test, sen_util_grown(8 * MS, 8 * MS, 0, 102, 4, true),
			0U);
	KUNIT_EXPECT_EQ(test, sen_util_grown(8 * MS, 8 * MS, 16 * MS, 102, 4,
					     true), 0U);
	/* The margin over 102 is 102 / 8 = 12: 1.8 ms of 16 is 115, growth... */
	KUNIT_EXPECT_EQ(test, sen_util_grown(1800 * us, MS, 16 * MS, 102, 4,
					     false), 115U);
	/* ... 1.7 ms of 16 is 108, jitter. */
	KUNIT_EXPECT_EQ(test, sen_util_grown(1700 * us, MS, 16 * MS, 102, 4,
					     false), 0U);
	/*
	 * A new task (no sample): any rise above SEN_UTIL_NEW (128) counts;
	 * 1 ms of one 8 ms window is 128, no rise; 1.1 ms is 140.
	 */
	KUNIT_EXPECT_EQ(test, sen_util_grown(MS, MS, 0, 0, 0, false), 0U);
	KUNIT_EXPECT_EQ(test, sen_util_grown(1100 * us, 1100 * us, 0, 0, 0, false),
			140U);
	/* ... and above its demand once it was raised. */
	KUNIT_EXPECT_EQ(test, sen_util_grown(2 * MS, 2 * MS, 0, 300, 0, false), 0U);
}

/*
 * A periodic task replayed cycle by cycle, as the hooks see it: the demand
 * of a 20% task at a 16 ms period is its duty cycle from the first
 * complete cycle on, whatever the sample count, and stays there.
 */
static void sen_util_periodic_replay(struct kunit *test)
{
	u16 hist[SEN_UTIL_HIST] = { 0 };
	unsigned int n = 0, idx = 0, i, demand = 0, sample;

	for (i = 0; i < 50; i++) {
		sample = sen_util_ratio(sen_util_scale(3200 * NSEC_PER_USEC, 446,
						       1024 * 1024 / 446),
					16 * MS);
		hist[idx] = sample;
		idx = (idx + 1) % SEN_UTIL_HIST;
		n = min_t(unsigned int, n + 1, SEN_UTIL_HIST);
		demand = sen_util_demand(hist, n, sample, 0, 1);
		KUNIT_EXPECT_GE(test, demand, 203U);
		KUNIT_EXPECT_LE(test, demand, 205U);
	}
}

/*
 * Spans replayed as the wakeup hook uses them: an 80% task of a 16 ms
 * period whose burst once overran (a span of two periods with two
 * bursts), then woke 2 ms late once (spans of 18 and 14 ms), then every
 * other time (18, 14, 18, 14: the median of three is then 18 or 14).
 * Every span reads 80% but the late ones, which read their 12.8 ms over
 * 18; the span after a late one is not taken for a busier task, and no
 * span for a smaller one.  A moving average of the spans read 64% after
 * the overrun; the median alone, 69% with the alternating wakeups.
 */
static void sen_util_typical_span_replay(struct kunit *test)
{
	static const unsigned int spans_ms[] = {
		16, 16, 16, 32, 16, 16, 16, 18, 14, 16, 16,
		18, 14, 18, 14, 18, 14, 16, 16,
	};
	u64 burst = 12800 * NSEC_PER_USEC, last = 0, span, busy;
	u32 spans[2] = { 0 };
	unsigned int i, sample, want;

	for (i = 0; i < ARRAY_SIZE(spans_ms); i++) {
		span = spans_ms[i] * MS;
		busy = burst * DIV_ROUND_CLOSEST(spans_ms[i], 16);
		sample = sen_util_ratio(busy, sen_util_span_floor(spans, last, span));
		want = spans_ms[i] == 18 ? 728 : 819;
		KUNIT_EXPECT_GE_MSG(test, sample, want - 1, "span %u", i);
		KUNIT_EXPECT_LE_MSG(test, sample, want + 1, "span %u", i);
		last = sen_util_typical_span(spans, span);
		KUNIT_EXPECT_GE_MSG(test, last, 14 * MS - 1024, "span %u", i);
		KUNIT_EXPECT_LE_MSG(test, last, 18 * MS, "span %u", i);
	}
}

/*
 * A period that shortens from 32 to 16 ms is believed at its second span
 * (the first is divided by the mean of 32 and 16); the first span of a
 * task is divided by itself.
 */
static void sen_util_span_floor_follows(struct kunit *test)
{
	u32 spans[2] = { 0 };
	u64 last;

	KUNIT_EXPECT_EQ(test, sen_util_span_floor(spans, 0, 32 * MS), 32 * MS);
	last = sen_util_typical_span(spans, 32 * MS);
	KUNIT_EXPECT_EQ(test, sen_util_span_floor(spans, last, 32 * MS), 32 * MS);
	last = sen_util_typical_span(spans, 32 * MS);
	KUNIT_EXPECT_EQ(test, sen_util_span_floor(spans, last, 16 * MS), 24 * MS);
	last = sen_util_typical_span(spans, 16 * MS);
	KUNIT_EXPECT_EQ(test, last, 32 * MS);
	KUNIT_EXPECT_EQ(test, sen_util_span_floor(spans, last, 16 * MS), 16 * MS);
}

/*
 * A real change of period is followed after two spans, up or down; one
 * sleep of hours is not typical, two are (the spans saturate).  Spans in
 * multiples of 16 ms are exact in the stored unit.
 */
static void sen_util_typical_span_follows(struct kunit *test)
{
	u64 hours = 2 * 3600ULL * 1000 * MS;
	u32 spans[2] = { 0 };

	KUNIT_EXPECT_EQ(test, sen_util_typical_span(spans, 16 * MS), 16 * MS);
	KUNIT_EXPECT_EQ(test, sen_util_typical_span(spans, 16 * MS), 16 * MS);
	KUNIT_EXPECT_EQ(test, sen_util_typical_span(spans, 48 * MS), 16 * MS);
	KUNIT_EXPECT_EQ(test, sen_util_typical_span(spans, 48 * MS), 48 * MS);
	KUNIT_EXPECT_EQ(test, sen_util_typical_span(spans, 32 * MS), 48 * MS);
	KUNIT_EXPECT_EQ(test, sen_util_typical_span(spans, 32 * MS), 32 * MS);
	KUNIT_EXPECT_EQ(test, sen_util_typical_span(spans, hours), 32 * MS);
	KUNIT_EXPECT_EQ(test, sen_util_typical_span(spans, hours), hours);
	KUNIT_EXPECT_EQ(test, spans[0], U32_MAX);
}

/* 64 CPUs full of held and runnable maximal demands fit an unsigned long. */
static void sen_util_sums_fit(struct kunit *test)
{
	unsigned long per_cpu = (SEN_HOLD_SLOTS + 64UL) * SCHED_CAPACITY_SCALE;

	KUNIT_EXPECT_GT(test, per_cpu * 64, per_cpu);
	KUNIT_EXPECT_LT(test, per_cpu * 64, (unsigned long)U32_MAX);
}

/* The traces' candidates, recorded raw, read as "cpu:delta,...". */
static void sen_util_trace_cands(struct kunit *test)
{
	static const struct sen_cand c[] = {
		{ 2, 92323 }, { 1, -46 }, { 0, 0 }, { 4, SEN_CAND_FIT },
	};
	struct trace_seq *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	trace_seq_init(s);
	KUNIT_EXPECT_STREQ(test, sen_trace_print_cands(s, c, sizeof(c)),
			   "2:+92323,1:-46,0:+0,fit:4");
	/* None: a dash, after the first field's NUL in the same sequence. */
	KUNIT_EXPECT_STREQ(test, sen_trace_print_cands(s, c, 0), "-");
	KUNIT_EXPECT_STREQ(test, sen_trace_print_cands(s, &c[3], sizeof(c[3])), "fit:4");
}

static struct kunit_case sen_util_cases[] = {
	KUNIT_CASE(sen_util_scale_invariance),
	KUNIT_CASE(sen_util_ratio_extremes),
	KUNIT_CASE(sen_util_demand_steps),
	KUNIT_CASE(sen_util_demand_drops_lone_outlier),
	KUNIT_CASE(sen_util_demand_two_samples),
	KUNIT_CASE(sen_util_sleep_demand_rules),
	KUNIT_CASE(sen_util_spread_of_samples),
	KUNIT_CASE(sen_util_settled_needs_two_samples),
	KUNIT_CASE(sen_util_fit_util_stay_band),
	KUNIT_CASE(sen_util_estimate_in_cycle),
	KUNIT_CASE(sen_util_hold_bounds),
	KUNIT_CASE(sen_util_roll_when_due),
	KUNIT_CASE(sen_util_roll_replay),
	KUNIT_CASE(sen_util_growth),
	KUNIT_CASE(sen_util_periodic_replay),
	KUNIT_CASE(sen_util_typical_span_replay),
	KUNIT_CASE(sen_util_span_floor_follows),
	KUNIT_CASE(sen_util_typical_span_follows),
	KUNIT_CASE(sen_util_sums_fit),
	KUNIT_CASE(sen_util_trace_cands),
	{}
};

static struct kunit_suite sen_util_suite = {
	.name = "sched_energy_util",
	.test_cases = sen_util_cases,
};

kunit_test_suite(sen_util_suite);
