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
 * "Settles" means at least 70% of 200 samples (1 s, after 1 s to settle)
 * see the task on a CPU of that kind.
 */
#define _GNU_SOURCE
#include <stdbool.h>

#include "../kselftest_harness.h"
#include "se_util.h"

#define SYS_CPU		"/sys/devices/system/cpu"
#define EAS_SYSCTL	"/proc/sys/kernel/sched_energy_aware"
#define SEN_SYSCTL	"/proc/sys/kernel/sched_energy"
#define SAMPLES		200
#define PERIOD_US	16000

static long cur_freq(int cpu)
{
	return se_cpufreq(cpu, "scaling_cur_freq");
}

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
	int on_little, on_big;		/* samples */
	long little_freq, big_freq;	/* medians, kHz */
};

/* Run a duty_pct% periodic task for 2 s and sample where it runs. */
static int observe(unsigned int duty_pct, struct run *r)
{
	int little = se_first_cpu(1), big = se_first_cpu(0), i;
	long lf[SAMPLES], bf[SAMPLES];
	pid_t pid;

	memset(r, 0, sizeof(*r));
	pid = se_periodic_task(duty_pct, PERIOD_US, -1);
	if (pid < 0)
		return -1;
	se_sleep_ms(1000);
	for (i = 0; i < SAMPLES; i++) {
		int cpu = se_task_cpu(pid);

		if (cpu >= 0 && se_cpu_capacity(cpu) < 1024)
			r->on_little++;
		else if (cpu >= 0)
			r->on_big++;
		lf[i] = cur_freq(little);
		bf[i] = cur_freq(big);
		se_sleep_ms(5);
	}
	se_kill(pid);
	qsort(lf, SAMPLES, sizeof(long), se_cmp_long);
	qsort(bf, SAMPLES, sizeof(long), se_cmp_long);
	r->little_freq = lf[SAMPLES / 2];
	r->big_freq = bf[SAMPLES / 2];
	return 0;
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
	if (cur_freq(se_first_cpu(1)) < 0)
		SKIP(return, "needs cpufreq");
	ASSERT_EQ(0, se_read_long(EAS_SYSCTL, &self->saved));
	ASSERT_EQ(0, se_read_long(SEN_SYSCTL, &self->saved_sen));
	ASSERT_EQ(0, se_write(SEN_SYSCTL, variant->sen ? "1" : "0"));
	ASSERT_EQ(0, se_write(EAS_SYSCTL, variant->eas ? "1" : "0"));
	se_sleep_ms(200);	/* let the rebuilt domains and idle settle */
}

FIXTURE_TEARDOWN(mode)
{
	char v[8];

	snprintf(v, sizeof(v), "%ld", self->saved_sen);
	se_write(SEN_SYSCTL, v);
	snprintf(v, sizeof(v), "%ld", self->saved);
	se_write(EAS_SYSCTL, v);
}

TEST_F(mode, small_task)
{
	int little = se_first_cpu(1), big = se_first_cpu(0);
	struct run r;

	ASSERT_EQ(0, observe(10, &r));
	TH_LOG("%s: 10%% task on LITTLE %d/%d samples; median LITTLE %ld kHz, big %ld kHz",
	       variant->name, r.on_little, SAMPLES, r.little_freq, r.big_freq);
	ASSERT_GT(r.on_little + r.on_big, SAMPLES / 2);
	if (variant->eas) {
		EXPECT_GE(r.on_little * 10, SAMPLES * 7);
		EXPECT_LE(r.little_freq, nth_freq(little, 1));
	} else if (r.on_little >= r.on_big) {
		EXPECT_LE(r.little_freq, nth_freq(little, 1));
	} else {
		EXPECT_LE(r.big_freq, nth_freq(big, 1));
	}
}

TEST_F(mode, big_task)
{
	int big = se_first_cpu(0);
	struct run r;

	ASSERT_EQ(0, observe(70, &r));
	TH_LOG("%s: 70%% task on big %d/%d samples; median LITTLE %ld kHz, big %ld kHz",
	       variant->name, r.on_big, SAMPLES, r.little_freq, r.big_freq);
	EXPECT_GE(r.on_big * 10, SAMPLES * 7);
	EXPECT_GT(r.big_freq, nth_freq(big, 0));
}

TEST_HARNESS_MAIN
