// SPDX-License-Identifier: GPL-2.0
/*
 * Checks that an emulated big.LITTLE board comes up as its device tree
 * describes it: clusters, CPU capacities, idle states and the sched
 * domains that energy-aware scheduling relies on.
 *
 * Expectations come from /proc/device-tree, so the test holds on any
 * board.  When run by scripts/run-tests, the board's declared figures
 * (boards/NAME.conf) are also passed in the environment and compared
 * exactly: SE_BOARD_CAPACITY, SE_BOARD_CLUSTERS, SE_BOARD_IDLE_STATES.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <time.h>

#include "../kselftest_harness.h"
#include "se_util.h"

#define SYS_CPU		"/sys/devices/system/cpu"
#define SCHED_DOMAINS	"/sys/kernel/debug/sched/domains"

/* Clusters of the DT cpu-map (cpu-map/[socketN/]clusterN/coreN/cpu). */
static int dt_clusters(se_mask_t *clusters, int max, int nr_cpus)
{
	char path[768], sub[1100];
	struct dirent *cl, *co;
	DIR *map, *cd;
	int n = 0;

	map = opendir(SE_DT_CPUS "/cpu-map");
	if (!map)
		return -errno;
	while ((cl = readdir(map)) && n < max) {
		if (strncmp(cl->d_name, "cluster", 7))
			continue;
		snprintf(path, sizeof(path), SE_DT_CPUS "/cpu-map/%s", cl->d_name);
		cd = opendir(path);
		if (!cd)
			continue;
		clusters[n] = 0;
		while ((co = readdir(cd))) {
			uint32_t ph = 0;
			int cpu;

			if (strncmp(co->d_name, "core", 4))
				continue;
			snprintf(sub, sizeof(sub), "%s/%s/cpu", path, co->d_name);
			if (se_dt_u32s(sub, &ph, 1) != 1)
				continue;
			cpu = se_dt_phandle_to_cpu(ph, nr_cpus);
			if (cpu >= 0)
				clusters[n] |= 1ULL << cpu;
		}
		closedir(cd);
		n++;
	}
	closedir(map);
	return n;
}

static int sys_cluster(int cpu, se_mask_t *mask)
{
	char path[256], buf[256];

	snprintf(path, sizeof(path), SYS_CPU "/cpu%d/topology/cluster_cpus_list", cpu);
	if (se_read_str(path, buf, sizeof(buf)))
		return -1;
	return se_parse_cpulist(buf, mask);
}

/* cpuinfo_max_freq of the CPU's cpufreq policy in kHz, or 0 without one. */
static long cpufreq_max_khz(int cpu)
{
	char path[256];
	long f;

	snprintf(path, sizeof(path), SYS_CPU "/cpu%d/cpufreq/cpuinfo_max_freq", cpu);
	return se_read_long(path, &f) ? 0 : f;
}

TEST(clusters_match_device_tree)
{
	se_mask_t dt[SE_MAX_CPUS], seen = 0;
	int nr = se_nr_cpus(), n, cpu, i;

	ASSERT_GT(nr, 0);
	n = dt_clusters(dt, SE_MAX_CPUS, nr);
	ASSERT_GE(n, 1) TH_LOG("no clusters in " SE_DT_CPUS "/cpu-map");
	for (cpu = 0; cpu < nr; cpu++) {
		se_mask_t sys;

		ASSERT_EQ(0, sys_cluster(cpu, &sys));
		for (i = 0; i < n; i++)
			if (dt[i] & (1ULL << cpu))
				break;
		ASSERT_LT(i, n) TH_LOG("cpu%d is in no DT cluster", cpu);
		EXPECT_EQ(dt[i], sys) TH_LOG("cpu%d: kernel cluster %#llx, DT %#llx",
					     cpu, (unsigned long long)sys,
					     (unsigned long long)dt[i]);
		seen |= 1ULL << cpu;
	}
	EXPECT_EQ(seen, (nr == 64 ? ~0ULL : (1ULL << nr) - 1));
}

/*
 * arch_topology: capacity = dmips * fmax_MHz (fmax = 1 without cpufreq),
 * scaled so that the largest is 1024, rounded down.
 */
TEST(capacity_matches_device_tree)
{
	uint64_t raw[SE_MAX_CPUS], scale = 1;
	int nr = se_nr_cpus(), cpu;

	ASSERT_GT(nr, 0);
	for (cpu = 0; cpu < nr; cpu++) {
		char path[256];
		uint32_t dmips = 0;
		long khz = cpufreq_max_khz(cpu);

		se_dt_cpu_path(path, sizeof(path), cpu, "capacity-dmips-mhz");
		ASSERT_EQ(1, se_dt_u32s(path, &dmips, 1)) TH_LOG("%s missing", path);
		raw[cpu] = (uint64_t)dmips * (khz ? khz / 1000 : 1);
		if (raw[cpu] > scale)
			scale = raw[cpu];
	}
	for (cpu = 0; cpu < nr; cpu++) {
		/* braces: EXPECT_*() TH_LOG() is two statements */
		EXPECT_EQ((long)((raw[cpu] << 10) / scale), se_cpu_capacity(cpu))
			TH_LOG("cpu%d capacity", cpu);
	}
}

TEST(capacity_uniform_per_cluster)
{
	int nr = se_nr_cpus(), cpu, other;
	long max = 0;

	ASSERT_GT(nr, 0);
	for (cpu = 0; cpu < nr; cpu++) {
		se_mask_t cl;
		long cap = se_cpu_capacity(cpu);

		ASSERT_GT(cap, 0);
		if (cap > max)
			max = cap;
		ASSERT_EQ(0, sys_cluster(cpu, &cl));
		for (other = 0; other < nr; other++) {
			if (!(cl & (1ULL << other)))
				continue;
			EXPECT_EQ(cap, se_cpu_capacity(other))
				TH_LOG("cpu%d and cpu%d share a cluster", cpu, other);
		}
	}
	EXPECT_EQ(1024, max);
}

/* The board's declared figures, when the runner passes them. */
TEST(board_declared_figures)
{
	const char *caps = getenv("SE_BOARD_CAPACITY");
	const char *clusters = getenv("SE_BOARD_CLUSTERS");
	int nr = se_nr_cpus(), cpu;
	char *s, *tok, *save;

	if (!caps || !clusters)
		SKIP(return, "SE_BOARD_CAPACITY/CLUSTERS unset (set by scripts/run-qemu)");
	s = strdup(caps);
	for (cpu = 0, tok = strtok_r(s, " ", &save); tok; tok = strtok_r(NULL, " ", &save), cpu++) {
		/* braces: EXPECT_*() TH_LOG() is two statements */
		EXPECT_EQ(atol(tok), se_cpu_capacity(cpu)) TH_LOG("cpu%d capacity", cpu);
	}
	EXPECT_EQ(nr, cpu) TH_LOG("SE_BOARD_CAPACITY lists %d CPUs, kernel has %d", cpu, nr);
	free(s);

	s = strdup(clusters);
	for (tok = strtok_r(s, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		se_mask_t want, got;
		int first;

		ASSERT_EQ(0, se_parse_cpulist(tok, &want));
		first = __builtin_ctzll(want);
		ASSERT_EQ(0, sys_cluster(first, &got));
		EXPECT_EQ(want, got) TH_LOG("cluster of cpu%d", first);
	}
	free(s);
}

struct dt_idle {
	char name[256];
	uint32_t entry, exit, residency;
};

static uint32_t dt_idle_u32(const char *node, const char *prop)
{
	char path[768];
	uint32_t v = 0;

	snprintf(path, sizeof(path), SE_DT_CPUS "/idle-states/%s/%s", node, prop);
	return se_dt_u32s(path, &v, 1) == 1 ? v : 0;
}

/* The DT idle states of a CPU, in cpu-idle-states order. */
static int dt_idle_states(int cpu, struct dt_idle *st, int max)
{
	uint32_t ph[16];
	char path[768];
	struct dirent *d;
	int n, i, found = 0;
	DIR *dir;

	se_dt_cpu_path(path, sizeof(path), cpu, "cpu-idle-states");
	n = se_dt_u32s(path, ph, 16);
	if (n <= 0)
		return n;
	dir = opendir(SE_DT_CPUS "/idle-states");
	if (!dir)
		return -errno;
	while ((d = readdir(dir))) {
		uint32_t p = 0;

		snprintf(path, sizeof(path), SE_DT_CPUS "/idle-states/%s/phandle", d->d_name);
		if (d->d_name[0] == '.' || se_dt_u32s(path, &p, 1) != 1)
			continue;
		for (i = 0; i < n && i < max; i++) {
			if (ph[i] != p)
				continue;
			snprintf(st[i].name, sizeof(st[i].name), "%s", d->d_name);
			st[i].entry = dt_idle_u32(d->d_name, "entry-latency-us");
			st[i].exit = dt_idle_u32(d->d_name, "exit-latency-us");
			st[i].residency = dt_idle_u32(d->d_name, "min-residency-us");
			found++;
		}
	}
	closedir(dir);
	return found == n ? n : -ENOENT;
}

/* A cpuidle sysfs attribute of a CPU's state: a number, or -1. */
static long idle_stat(int cpu, int state, const char *what)
{
	char path[256];
	long v;

	snprintf(path, sizeof(path), SYS_CPU "/cpu%d/cpuidle/state%d/%s", cpu, state, what);
	return se_read_long(path, &v) ? -1 : v;
}

/* The name of a CPU's cpuidle state; 0 or -errno. */
static int idle_name(int cpu, int state, char *buf, size_t size)
{
	char path[256];

	snprintf(path, sizeof(path), SYS_CPU "/cpu%d/cpuidle/state%d/name", cpu, state);
	return se_read_str(path, buf, size);
}

/*
 * cpuidle-psci exposes state0 (WFI) and then the DT states in order, with
 * latency = entry + exit and residency = min-residency.
 */
TEST(idle_states_match_device_tree)
{
	int nr = se_nr_cpus(), cpu, i, n;

	ASSERT_GT(nr, 0);
	for (cpu = 0; cpu < nr; cpu++) {
		struct dt_idle st[16];
		char name[256];

		n = dt_idle_states(cpu, st, 16);
		ASSERT_GT(n, 0) TH_LOG("cpu%d: no usable cpu-idle-states in the DT", cpu);
		ASSERT_EQ(0, idle_name(cpu, 0, name, sizeof(name)))
			TH_LOG("cpu%d has no cpuidle states (cpuidle-psci not probed?)", cpu);
		EXPECT_STREQ("WFI", name);
		for (i = 0; i < n; i++) {
			ASSERT_EQ(0, idle_name(cpu, i + 1, name, sizeof(name)))
				TH_LOG("cpu%d: state%d (%s) missing", cpu, i + 1, st[i].name);
			EXPECT_STREQ(st[i].name, name);
			EXPECT_EQ((long)(st[i].entry + st[i].exit),
				  idle_stat(cpu, i + 1, "latency"))
				TH_LOG("cpu%d %s latency", cpu, name);
			EXPECT_EQ((long)st[i].residency, idle_stat(cpu, i + 1, "residency"))
				TH_LOG("cpu%d %s residency", cpu, name);
		}
		EXPECT_NE(0, idle_name(cpu, n + 1, name, sizeof(name)))
			TH_LOG("cpu%d has more states than its DT", cpu);
	}
}

/*
 * The deeper states are really entered (QEMU accepts their PSCI params and
 * Linux sees the suspend succeed): after a quiet half second some CPU has
 * used a state deeper than WFI, and no state was ever rejected.
 */
TEST(idle_states_entered)
{
	struct timespec ts = { 0, 500 * 1000 * 1000 };
	int nr = se_nr_cpus(), cpu, s;
	long deep = 0;

	ASSERT_GT(nr, 0);
	nanosleep(&ts, NULL);
	for (cpu = 0; cpu < nr; cpu++) {
		for (s = 0; idle_stat(cpu, s, "usage") >= 0; s++) {
			EXPECT_EQ(0, idle_stat(cpu, s, "rejected"))
				TH_LOG("cpu%d state%d rejected by PSCI", cpu, s);
			if (s > 0)
				deep += idle_stat(cpu, s, "usage");
		}
		ASSERT_GT(s, 1) TH_LOG("cpu%d has no idle state beyond WFI", cpu);
	}
	EXPECT_GT(deep, 0);
}

static int domain_str(int cpu, int level, const char *file, char *buf, size_t size)
{
	char path[256];

	snprintf(path, sizeof(path), SCHED_DOMAINS "/cpu%d/domain%d/%s", cpu, level, file);
	return se_read_str(path, buf, size);
}

/*
 * The sched domains EAS relies on: an MC level per cluster (a shared L2)
 * with symmetric capacities, and a DIE level above it that sees every
 * capacity (SD_ASYM_CPUCAPACITY_FULL).  A CPU alone in its cluster (a
 * phone's prime core) has no MC level: the scheduler drops a domain of
 * one CPU, so its first level is DIE.
 */
TEST(sched_domains_per_cluster)
{
	int nr = se_nr_cpus(), cpu, level;
	se_mask_t cl;
	char buf[512];

	ASSERT_GT(nr, 0);
	if (access(SCHED_DOMAINS, F_OK))
		SKIP(return, SCHED_DOMAINS " missing (needs CONFIG_SCHED_DEBUG and debugfs)");
	for (cpu = 0; cpu < nr; cpu++) {
		ASSERT_EQ(0, sys_cluster(cpu, &cl));
		level = 0;
		if (__builtin_popcountll(cl) > 1) {
			ASSERT_EQ(0, domain_str(cpu, 0, "name", buf, sizeof(buf)));
			EXPECT_STREQ("MC", buf) TH_LOG("cpu%d domain0", cpu);
			ASSERT_EQ(0, domain_str(cpu, 0, "flags", buf, sizeof(buf)));
			EXPECT_EQ(NULL, strstr(buf, "SD_ASYM_CPUCAPACITY"))
				TH_LOG("cpu%d MC flags: %s", cpu, buf);
			level = 1;
		}
		ASSERT_EQ(0, domain_str(cpu, level, "name", buf, sizeof(buf)));
		EXPECT_STREQ("DIE", buf) TH_LOG("cpu%d domain%d", cpu, level);
		ASSERT_EQ(0, domain_str(cpu, level, "flags", buf, sizeof(buf)));
		EXPECT_NE(NULL, strstr(buf, "SD_ASYM_CPUCAPACITY_FULL"))
			TH_LOG("cpu%d DIE flags: %s", cpu, buf);
		EXPECT_NE(0, domain_str(cpu, level + 1, "name", buf, sizeof(buf)))
			TH_LOG("cpu%d: a level above DIE", cpu);
	}
}

TEST_HARNESS_MAIN
