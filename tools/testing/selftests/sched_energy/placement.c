// SPDX-License-Identifier: GPL-2.0
/*
 * Task placement and frequency on an emulated big.LITTLE board, with
 * mainline EAS on (kernel.sched_energy_aware=1), plain CFS, and the
 * sched-energy policy on (kernel.sched_energy=1), all under schedutil and
 * the emulated DVFS driver.  Each test states the behaviour it expects in
 * its mode:
 *
 *  EAS, sched-energy: a ~10% task settles on a LITTLE CPU and the LITTLE
 *       domain stays at or near its lowest OPP; a ~70% task settles on a
 *       big CPU and the big domain's frequency rises above its lowest OPP.
 *  CFS: no energy preference for the ~10% task (where it runs is only
 *       logged), but the domain it runs on stays at or near its lowest
 *       OPP; the ~70% task is a misfit on LITTLE and settles on a big CPU.
 *
 * "LITTLE" is the smallest capacity.  On a board with a middle cluster
 * (phone3) "big" is any CPU bigger than LITTLE, the ~70% task fitting a
 * middle CPU too, and "near its lowest OPP" is the lowest OPP whose
 * capacity holds the ~10% task with schedutil's 25% headroom, or the
 * second lowest if that is higher (phone3's LITTLE CPUs need their third,
 * 883 MHz, for 10% of the biggest CPU).
 *
 * "Settles" means at least 70% of the task's periods in 1 s (after 1 s to
 * settle) start on a CPU of that kind; a domain's frequency is its median
 * over that second, weighted by time (cpufreq stats).  The task reports
 * where it runs itself and the test sleeps meanwhile: a sampler reading
 * /proc and sysfs every few milliseconds costs, on a slow emulation host,
 * a quarter of the CPU it runs on, and that load alone would lift the
 * frequency of the domain it lands on.
 */
#define _GNU_SOURCE
#include <stdbool.h>

#include "../kselftest_harness.h"
#include "se_util.h"

#define SYS_CPU		"/sys/devices/system/cpu"
#define EAS_SYSCTL	"/proc/sys/kernel/sched_energy_aware"
#define SEN_SYSCTL	"/proc/sys/kernel/sched_energy"
#define PERIOD_US	16000
#define WINDOW_MS	1000

/* The n-th lowest available frequency of a CPU's policy (0-based), or -1. */
static long nth_freq(int cpu, int n)
{
	char path[128], buf[512], *p;
	long f[64];
	int count = 0;

	snprintf(path, sizeof(path), SYS_CPU "/cpu%d/cpufreq/scaling_available_frequencies", cpu);
	if (se_read_str(path, buf, sizeof(buf)))
		return -1;
	for (p = strtok(buf, " "); p && count < 64; p = strtok(NULL, " "))
		f[count++] = atol(p);
	qsort(f, count, sizeof(long), se_cmp_long);
	return n < count ? f[n] : -1;
}

struct run {
	unsigned long periods;		/* in the window */
	unsigned long on_little, on_mid, on_big;
	long little_freq, mid_freq, big_freq;	/* medians, kHz; mid -1: none */
	unsigned int busy_pct;		/* the task's CPU time share, rounded up */
};

/* The first CPU bigger than LITTLE and smaller than big, or -1. */
static int first_mid_cpu(void)
{
	long least = se_cpu_capacity(se_last_smallest_cpu()), c;
	int cpu;

	for (cpu = 0; cpu < se_nr_cpus(); cpu++) {
		c = se_cpu_capacity(cpu);
		if (c > least && c < 1024)
			return cpu;
	}
	return -1;
}

/*
 * "At or near the lowest OPP" of @cpu's domain for a task of @pct% of the
 * biggest CPU: the lowest frequency whose capacity holds it with 25%
 * headroom, or the second lowest if that is higher.
 */
static long near_lowest_freq(int cpu, int pct)
{
	long cap = se_cpu_capacity(cpu), max = se_cpufreq(cpu, "cpuinfo_max_freq"), f;
	int n;

	for (n = 0; (f = nth_freq(cpu, n)) > 0; n++)
		if (cap * f / max * 100 >= 1024L * pct * 5 / 4)
			break;
	if (f <= 0)
		return max;
	return f > nth_freq(cpu, 1) ? f : nth_freq(cpu, 1);
}

/* Run a duty_pct% periodic task for 2 s and see where it runs in the last. */
static int observe(unsigned int duty_pct, struct run *r)
{
	int little = se_first_cpu(1), big = se_first_cpu(0), mid = first_mid_cpu();
	struct se_where *w = se_where_map(), w0, w1;
	struct se_tis l0, l1, m0, m1, b0, b1;
	long least = se_cpu_capacity(se_last_smallest_cpu()), cap;
	uint64_t rt0, rt1, t0, t1;
	int cpu, ret = -1;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	if (!w)
		return -1;
	pid = se_periodic_task_where(duty_pct, PERIOD_US, -1, w);
	if (pid < 0)
		goto out;
	se_sleep_ms(1000);
	se_where_snap(w, &w0);
	rt0 = se_runtime_ns(pid);
	t0 = se_now_ns();
	if (se_time_in_state(little, &l0) || se_time_in_state(big, &b0) ||
	    (mid >= 0 && se_time_in_state(mid, &m0)))
		goto out;
	se_sleep_ms(WINDOW_MS);
	se_where_snap(w, &w1);
	rt1 = se_runtime_ns(pid);
	t1 = se_now_ns();
	if (!rt1 || t1 <= t0)
		goto out;
	r->busy_pct = (unsigned int)((rt1 - rt0) * 100 / (t1 - t0)) + 1;
	if (se_time_in_state(little, &l1) || se_time_in_state(big, &b1) ||
	    (mid >= 0 && se_time_in_state(mid, &m1)))
		goto out;
	for (cpu = 0; cpu < SE_MAX_CPUS; cpu++) {
		unsigned long n = w1.periods[cpu] - w0.periods[cpu];

		if (!n)
			continue;
		r->periods += n;
		cap = se_cpu_capacity(cpu);
		if (cap == least)
			r->on_little += n;
		else if (cap < 1024)
			r->on_mid += n;
		else
			r->on_big += n;
	}
	r->little_freq = se_tis_median(&l0, &l1);
	r->mid_freq = mid >= 0 ? se_tis_median(&m0, &m1) : -1;
	r->big_freq = se_tis_median(&b0, &b1);
	ret = 0;
out:
	se_kill(pid);
	munmap(w, sizeof(*w));
	return ret;
}

FIXTURE(mode) {
	long saved, saved_sen;
};

FIXTURE_VARIANT(mode) {
	const char *name;
	bool eas;	/* kernel.sched_energy_aware */
	bool sen;	/* kernel.sched_energy */
};

FIXTURE_VARIANT_ADD(mode, eas) {
	.name = "EAS", .eas = true,
};

FIXTURE_VARIANT_ADD(mode, cfs) {
	.name = "CFS",
};

FIXTURE_VARIANT_ADD(mode, sen) {
	.name = "sched-energy", .eas = true, .sen = true,
};

FIXTURE_SETUP(mode)
{
	if (se_first_cpu(1) < 0 || se_first_cpu(0) < 0)
		SKIP(return, "needs LITTLE and big CPUs");
	if (se_cpufreq(se_first_cpu(1), "scaling_cur_freq") < 0)
		SKIP(return, "needs cpufreq");
	ASSERT_EQ(0, se_read_long(EAS_SYSCTL, &self->saved));
	ASSERT_EQ(0, se_read_long(SEN_SYSCTL, &self->saved_sen));
	ASSERT_EQ(0, se_write(SEN_SYSCTL, variant->sen ? "1" : "0"));
	ASSERT_EQ(0, se_write(EAS_SYSCTL, variant->eas ? "1" : "0"));
	se_sleep_ms(200);	/* let the rebuilt domains and idle settle */
}

FIXTURE_TEARDOWN(mode)
{
	se_write_long(SEN_SYSCTL, self->saved_sen);
	se_write_long(EAS_SYSCTL, self->saved);
}

TEST_F(mode, small_task)
{
	int little = se_first_cpu(1), big = se_first_cpu(0), pct;
	struct run r;

	ASSERT_EQ(0, observe(10, &r));
	/*
	 * The OPP is judged against the task as it ran: on a slow emulator
	 * host the wakeup and the loop's own work make a 10% task 12-15%,
	 * and any governor then rightly asks for more.
	 */
	pct = r.busy_pct > 10 ? r.busy_pct : 10;
	TH_LOG("%s: 10%% task (%u%% run) on LITTLE %lu/%lu periods; median LITTLE %ld, big %ld kHz",
	       variant->name, r.busy_pct, r.on_little, r.periods, r.little_freq, r.big_freq);
	ASSERT_GT(r.periods, WINDOW_MS * 1000 / PERIOD_US / 2);
	ASSERT_LT(0, r.little_freq);
	ASSERT_LT(0, r.big_freq);
	if (variant->eas) {
		EXPECT_GE(r.on_little * 10, r.periods * 7);
		EXPECT_LE(r.little_freq, near_lowest_freq(little, pct));
	} else if (r.on_little >= r.on_mid + r.on_big) {
		EXPECT_LE(r.little_freq, near_lowest_freq(little, pct));
	} else if (r.on_mid > r.on_big) {
		EXPECT_LE(r.mid_freq, near_lowest_freq(first_mid_cpu(), pct));
	} else {
		EXPECT_LE(r.big_freq, near_lowest_freq(big, pct));
	}
}

TEST_F(mode, big_task)
{
	int big = se_first_cpu(0), on;
	struct run r;

	ASSERT_EQ(0, observe(70, &r));
	TH_LOG("%s: 70%% task on big %lu, middle %lu of %lu periods", variant->name,
	       r.on_big, r.on_mid, r.periods);
	TH_LOG("median LITTLE %ld kHz, middle %ld kHz, big %ld kHz", r.little_freq,
	       r.mid_freq, r.big_freq);
	ASSERT_GT(r.periods, WINDOW_MS * 1000 / PERIOD_US / 2);
	ASSERT_LT(0, r.big_freq);
	EXPECT_GE((r.on_mid + r.on_big) * 10, r.periods * 7);
	/* The domain it mostly ran on left its lowest OPP. */
	on = r.on_mid > r.on_big ? first_mid_cpu() : big;
	EXPECT_GT(on == big ? r.big_freq : r.mid_freq, nth_freq(on, 0));
}

TEST_HARNESS_MAIN
