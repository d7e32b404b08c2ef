// SPDX-License-Identifier: GPL-2.0
/*
 * Emulated DVFS (drivers/cpufreq/emu-cpufreq.c) and mainline EAS on top
 * of it: every CPU has a cpufreq policy with the device tree's OPPs,
 * schedutil governs, the kernel energy model holds the device tree's
 * power numbers, mainline EAS has started, and utilization is the same on
 * LITTLE and big CPUs (speed-equalised invariance).
 */
#define _GNU_SOURCE
#include <dirent.h>

#include "../kselftest_harness.h"
#include "se_util.h"

#define SYS_CPU		"/sys/devices/system/cpu"
#define EM_DEBUGFS	"/sys/kernel/debug/energy_model"
#define DT_ROOT		"/proc/device-tree"

struct dt_opp {
	unsigned long khz;
	unsigned long uv;
};

/* The OPP table node (top-level) with this phandle, as a path. */
static int dt_node_by_phandle(uint32_t ph, char *path, size_t size)
{
	struct dirent *d;
	DIR *dir = opendir(DT_ROOT);

	if (!dir)
		return -errno;
	while ((d = readdir(dir))) {
		char p[512];
		uint32_t v = 0;

		snprintf(p, sizeof(p), DT_ROOT "/%s/phandle", d->d_name);
		if (d->d_name[0] != '.' && se_dt_u32s(p, &v, 1) == 1 && v == ph) {
			snprintf(path, size, DT_ROOT "/%s", d->d_name);
			closedir(dir);
			return 0;
		}
	}
	closedir(dir);
	return -ENOENT;
}

static int cmp_opp(const void *a, const void *b)
{
	const struct dt_opp *x = a, *y = b;

	return x->khz < y->khz ? -1 : x->khz > y->khz;
}

/* The phandle of a CPU's operating-points-v2 table, or 0. */
static uint32_t dt_cpu_table(int cpu)
{
	char path[512];
	uint32_t ph = 0;

	se_dt_cpu_path(path, sizeof(path), cpu, "operating-points-v2");
	return se_dt_u32s(path, &ph, 1) == 1 ? ph : 0;
}

/* The OPPs of a CPU's operating-points-v2 table, sorted; count or -errno. */
static int dt_cpu_opps(int cpu, struct dt_opp *opp, int max, uint32_t *table_ph)
{
	uint32_t ph = dt_cpu_table(cpu);
	char table[512];
	struct dirent *d;
	int n = 0;
	DIR *dir;

	if (!ph)
		return -ENOENT;
	if (table_ph)
		*table_ph = ph;
	if (dt_node_by_phandle(ph, table, sizeof(table)))
		return -ENOENT;
	dir = opendir(table);
	if (!dir)
		return -errno;
	while ((d = readdir(dir)) && n < max) {
		uint32_t hz[2] = { 0, 0 }, uv = 0;
		char p[1024];

		snprintf(p, sizeof(p), "%s/%s/opp-hz", table, d->d_name);
		if (d->d_name[0] == '.' || se_dt_u32s(p, hz, 2) != 2)
			continue;
		snprintf(p, sizeof(p), "%s/%s/opp-microvolt", table, d->d_name);
		se_dt_u32s(p, &uv, 1);
		opp[n].khz = (((uint64_t)hz[0] << 32) | hz[1]) / 1000;
		opp[n].uv = uv;
		n++;
	}
	closedir(dir);
	qsort(opp, n, sizeof(*opp), cmp_opp);
	return n;
}

static int cpufreq_str(int cpu, const char *file, char *buf, size_t size)
{
	char path[256];

	snprintf(path, sizeof(path), SYS_CPU "/cpu%d/cpufreq/%s", cpu, file);
	return se_read_str(path, buf, size);
}

TEST(policies_match_device_tree)
{
	int nr = se_nr_cpus(), cpu, other, i, n;

	ASSERT_GT(nr, 0);
	for (cpu = 0; cpu < nr; cpu++) {
		struct dt_opp opp[32];
		char buf[512], want[512] = "", *p = want;
		uint32_t ph;
		se_mask_t related, same = 0;

		n = dt_cpu_opps(cpu, opp, 32, &ph);
		ASSERT_GT(n, 0) TH_LOG("cpu%d: no OPP table in the device tree", cpu);
		ASSERT_EQ(0, cpufreq_str(cpu, "scaling_available_frequencies", buf, sizeof(buf)))
			TH_LOG("cpu%d has no cpufreq policy", cpu);
		for (i = 0; i < n; i++)
			p += sprintf(p, "%lu ", opp[i].khz);
		while (p > want && p[-1] == ' ')
			*--p = '\0';
		while (strlen(buf) && buf[strlen(buf) - 1] == ' ')
			buf[strlen(buf) - 1] = '\0';
		EXPECT_STREQ(want, buf) TH_LOG("cpu%d frequencies", cpu);

		ASSERT_EQ(0, cpufreq_str(cpu, "related_cpus", buf, sizeof(buf)));
		related = 0;
		for (p = strtok(buf, " "); p; p = strtok(NULL, " "))
			related |= 1ULL << atoi(p);
		for (other = 0; other < nr; other++)
			if (dt_cpu_table(other) == ph)
				same |= 1ULL << other;
		EXPECT_EQ(same, related) TH_LOG("cpu%d policy CPUs", cpu);

		ASSERT_EQ(0, cpufreq_str(cpu, "scaling_driver", buf, sizeof(buf)));
		EXPECT_STREQ("emu-cpufreq", buf);
	}
}

TEST(governor_is_schedutil)
{
	int nr = se_nr_cpus(), cpu;
	char buf[64];

	ASSERT_GT(nr, 0);
	for (cpu = 0; cpu < nr; cpu++) {
		ASSERT_EQ(0, cpufreq_str(cpu, "scaling_governor", buf, sizeof(buf)));
		EXPECT_STREQ("schedutil", buf) TH_LOG("cpu%d", cpu);
	}
}

/*
 * /sys/kernel/debug/energy_model/cpuN/ps:KHZ/power equals the device
 * tree's C * V[mV]^2 * f[MHz] / 10^6 microwatts for every OPP, and there
 * is one perf domain per OPP table.
 */
TEST(energy_model_matches_device_tree)
{
	int nr = se_nr_cpus(), cpu, i, n, pds = 0, tables = 0;
	uint32_t seen[SE_MAX_CPUS];

	ASSERT_GT(nr, 0);
	ASSERT_EQ(0, access(EM_DEBUGFS, F_OK)) TH_LOG("no " EM_DEBUGFS);
	for (cpu = 0; cpu < nr; cpu++) {
		struct dt_opp opp[32];
		char path[256], buf[256];
		uint32_t coeff = 0, ph;
		int t;

		n = dt_cpu_opps(cpu, opp, 32, &ph);
		ASSERT_GT(n, 0);
		for (t = 0; t < tables; t++)
			if (seen[t] == ph)
				break;
		if (t == tables)
			seen[tables++] = ph;
		snprintf(path, sizeof(path), EM_DEBUGFS "/cpu%d/cpus", cpu);
		if (se_read_str(path, buf, sizeof(buf)))
			continue;	/* not the first CPU of its domain */
		pds++;
		se_dt_cpu_path(path, sizeof(path), cpu, "dynamic-power-coefficient");
		ASSERT_EQ(1, se_dt_u32s(path, &coeff, 1));
		for (i = 0; i < n; i++) {
			uint64_t mv = opp[i].uv / 1000;
			long want = (long)(coeff * mv * mv * (opp[i].khz / 1000) / 1000000), got;

			snprintf(path, sizeof(path), EM_DEBUGFS "/cpu%d/ps:%lu/power",
				 cpu, opp[i].khz);
			ASSERT_EQ(0, se_read_long(path, &got)) TH_LOG("%s missing", path);
			EXPECT_EQ(want, got) TH_LOG("cpu%d %lu kHz power (uW)", cpu, opp[i].khz);
		}
	}
	EXPECT_EQ(tables, pds);
	EXPECT_GE(pds, 2);
}

/*
 * Mainline EAS is on: the sysctl reads 1 and, with sched_verbose on the
 * command line, the last EAS message of the boot says it started and the
 * perf domains were printed.
 */
TEST(mainline_eas_active)
{
	char buf[65536], cmdline[1024];
	const char *start, *stop, *p, *last = NULL;
	long v;
	FILE *f;
	size_t n;

	ASSERT_EQ(0, se_read_long("/proc/sys/kernel/sched_energy_aware", &v));
	EXPECT_EQ(1, v);
	ASSERT_EQ(0, se_read_str("/proc/cmdline", cmdline, sizeof(cmdline)));
	if (!strstr(cmdline, "sched_verbose"))
		SKIP(return, "boot with sched_verbose to check the EAS start message");
	f = popen("dmesg", "r");
	ASSERT_NE(NULL, f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	pclose(f);
	buf[n] = '\0';
	start = "sched_energy_set: starting EAS";
	stop = "sched_energy_set: stopping EAS";
	for (p = buf; (p = strstr(p, "sched_energy_set: ")); p++)
		last = p;
	ASSERT_NE(NULL, last) TH_LOG("no sched_energy_set message in dmesg");
	EXPECT_EQ(0, strncmp(last, start, strlen(start)));
	EXPECT_EQ(NULL, strstr(last, stop));
	EXPECT_NE(NULL, strstr(buf, "pd0:{ cpus=")) TH_LOG("no perf domain printed");
}

struct settled {
	long util;	/* mean util_avg over the window */
	long ran;	/* what the task ran in it, in 1/1024 of the window */
};

/*
 * A task's util_avg, averaged over a window (it ripples within a period),
 * and the share of that window it really ran, from the same clock.
 */
static int util_settled(pid_t pid, struct settled *st)
{
	uint64_t r0, r1, t0, t1;
	long sum = 0, v;
	int i, n = 0;

	se_sleep_ms(1200);	/* PELT: ~32 ms half-life, ramp from anywhere */
	t0 = se_now_ns();
	r0 = se_runtime_ns(pid);
	for (i = 0; i < 48; i++) {	/* 17 ms apart: every phase of 16 ms */
		v = se_task_sched_stat(pid, "se.avg.util_avg");
		if (v >= 0) {
			sum += v;
			n++;
		}
		se_sleep_ms(17);
	}
	r1 = se_runtime_ns(pid);
	t1 = se_now_ns();
	if (!n || !r0 || r1 <= r0 || t1 <= t0)
		return -1;
	st->util = sum / n;
	st->ran = (long)((r1 - r0) * 1024 / (t1 - t0));
	return st->ran > 0 ? 0 : -1;
}

/*
 * Speed-equalised invariance: a 30% duty task's utilization stands for
 * the share of time it runs, the same way pinned to a LITTLE CPU as pinned
 * to a big CPU, and that is about 30% of 1024 (the work it does at full
 * capacity).
 *
 * The share is measured, not assumed: a vCPU woken from idle starts the
 * task late by a host-dependent amount that the task's busy time loses,
 * and without IRQ time accounting the interrupts taken while it runs
 * count as its running time.  And util_avg in /proc is the value of the
 * task's last update, so a read while it sleeps gives the value at its
 * last dequeue, the top of the ripple: for 30% of a 16 ms period with
 * PELT's 32 ms half-life, the ripple spans 0.88 to 1.12 times the mean.
 * So each CPU's ratio of the mean read to the share is between 0.85 and
 * 1.25, and the two ratios, read the same way, are within 10% of each
 * other (a CPU whose running time were scaled by anything but 1024 over
 * its capacity would be off by its capacity ratio, 2.2 on hikey960).
 * The task runs on the last CPU of each kind and the test on another, so
 * that neither CPU has other work.
 */
TEST(utilization_same_on_little_and_big)
{
	int little = se_last_cpu(1), big = se_last_cpu(0);
	struct settled l, b;
	long rl, rb;
	pid_t pid;

	if (little < 0 || big < 0)
		SKIP(return, "no LITTLE and big CPUs");
	ASSERT_EQ(0, se_pin(0, se_first_cpu(0) != big ? se_first_cpu(0) : se_first_cpu(1)));
	pid = se_periodic_task(30, 16000, little);
	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, util_settled(pid, &l));
	ASSERT_EQ(0, se_pin(pid, big));
	ASSERT_EQ(0, util_settled(pid, &b));
	se_kill(pid);
	rl = l.util * 1000 / l.ran;
	rb = b.util * 1000 / b.ran;
	TH_LOG("30%% task on cpu%d (LITTLE): util %ld, ran %ld/1024, ratio %ld/1000",
	       little, l.util, l.ran, rl);
	TH_LOG("30%% task on cpu%d (big): util %ld, ran %ld/1024, ratio %ld/1000",
	       big, b.util, b.ran, rb);
	EXPECT_LE(850, rl);
	EXPECT_GE(1250, rl);
	EXPECT_LE(850, rb);
	EXPECT_GE(1250, rb);
	EXPECT_LE(labs(rl - rb) * 10, (rl > rb ? rl : rb));
	EXPECT_GE(l.util, 1024 * 20 / 100);
	EXPECT_LE(l.util, 1024 * 40 / 100);
	EXPECT_GE(b.util, 1024 * 20 / 100);
	EXPECT_LE(b.util, 1024 * 40 / 100);
}

TEST_HARNESS_MAIN
