// SPDX-License-Identifier: GPL-2.0
/*
 * Checks the platform energy model the kernel built, as debugfs shows it
 * (/sys/kernel/debug/sched_energy/), against what the rest of the system
 * says independently: the cpufreq policies and cpu_capacity, the kernel
 * energy model's debugfs, cpuidle's states, and the sched-energy-*
 * properties of the device tree's cpu-map clusters.  Also checks the
 * idlestat export against idlestat's parser rules, and that the model
 * survives CPU hotplug (it is rebuilt, still covering every CPU).
 */
#define _GNU_SOURCE
#include <dirent.h>

#include "../kselftest_harness.h"
#include "se_util.h"

#define SEN_DEBUGFS	"/sys/kernel/debug/sched_energy"
#define SYS_CPU		"/sys/devices/system/cpu"
#define EM_DEBUGFS	"/sys/kernel/debug/energy_model"
#define MAX_DOM		16
#define MAX_OPP		32
#define MAX_IDLE	8

struct dom {
	se_mask_t cpus;
	int nr_opps, nr_idle;
	long freq[MAX_OPP], cap[MAX_OPP], cpu_p[MAX_OPP], cl_p[MAX_OPP];
	char name[MAX_IDLE][32];
	long icpu[MAX_IDLE], icl[MAX_IDLE], lat[MAX_IDLE], res[MAX_IDLE];
};

struct model {
	char unit[16], src_active[32], src_cluster[32], src_idle[32];
	int nr;
	struct dom d[MAX_DOM];
};

/* Parse debugfs "model"; 0, or -1 with the offending line in *bad. */
static int read_model(struct model *m, char *bad, size_t badlen)
{
	static char buf[65536];
	char *line, *save = NULL;
	struct dom *d = NULL;
	int section = 0, declared = -1;

	memset(m, 0, sizeof(*m));
	if (se_read(SEN_DEBUGFS "/model", buf, sizeof(buf)) < 0) {
		snprintf(bad, badlen, "cannot read %s/model", SEN_DEBUGFS);
		return -1;
	}
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char cpus[128], name[32];
		long a[6];
		int i;

		if (sscanf(line, "unit %15s", m->unit) == 1)
			continue;
		if (sscanf(line, "source active %31s cluster %31s idle %31s",
			   m->src_active, m->src_cluster, m->src_idle) == 3)
			continue;
		if (sscanf(line, "domains %d", &declared) == 1)
			continue;
		if (sscanf(line, "domain %d cpus %127s", &i, cpus) == 2) {
			if (i != m->nr || m->nr == MAX_DOM)
				goto fail;
			d = &m->d[m->nr++];
			if (se_parse_cpulist(cpus, &d->cpus))
				goto fail;
			continue;
		}
		if (!strncmp(line, "  opp ", 6)) {
			section = 1;
			continue;
		}
		if (!strncmp(line, "  idle ", 7)) {
			section = 2;
			continue;
		}
		if (!d)
			goto fail;
		if (section == 1 &&
		    sscanf(line, " %d %ld %ld %ld %ld %ld", &i, &a[0], &a[1],
			   &a[2], &a[3], &a[4]) == 6) {
			if (i != d->nr_opps || i == MAX_OPP)
				goto fail;
			d->freq[i] = a[0];
			d->cap[i] = a[1];
			d->cpu_p[i] = a[2];
			d->cl_p[i] = a[3];
			d->nr_opps++;
			continue;
		}
		if (section == 2 &&
		    sscanf(line, " %d %31s %ld %ld %ld %ld %ld", &i, name, &a[0],
			   &a[1], &a[2], &a[3], &a[4]) == 7) {
			if (i != d->nr_idle || i == MAX_IDLE)
				goto fail;
			strcpy(d->name[i], name);
			d->icpu[i] = a[0];
			d->icl[i] = a[1];
			d->lat[i] = a[3];
			d->res[i] = a[4];
			d->nr_idle++;
			continue;
		}
fail:
		snprintf(bad, badlen, "unexpected line: \"%s\"", line);
		return -1;
	}
	if (declared != m->nr || !m->nr || !m->unit[0] || !m->src_active[0]) {
		snprintf(bad, badlen, "incomplete model: %d of %d domains", m->nr, declared);
		return -1;
	}
	return 0;
}

/* path = /sys/devices/system/cpu/cpuN/LEAF */
static char *cpu_path(char *path, size_t len, int cpu, const char *leaf)
{
	snprintf(path, len, SYS_CPU "/cpu%d/%s", cpu, leaf);
	return path;
}

static int first_cpu(se_mask_t m)
{
	return m ? __builtin_ctzll(m) : -1;
}

FIXTURE(model) {
	struct model m;
	int nr_cpus;
};

FIXTURE_SETUP(model)
{
	char status[256], bad[256];

	ASSERT_EQ(0, se_read_str(SEN_DEBUGFS "/status", status, sizeof(status)))
		TH_LOG("no %s/status: is debugfs mounted and CONFIG_SCHED_ENERGY on?",
		       SEN_DEBUGFS);
	ASSERT_STREQ("available", status);
	ASSERT_EQ(0, read_model(&self->m, bad, sizeof(bad))) TH_LOG("%s", bad);
	self->nr_cpus = se_nr_cpus();
	ASSERT_GT(self->nr_cpus, 0);
}

FIXTURE_TEARDOWN(model)
{
}

/* Every CPU in one domain, which is its cluster and its cpufreq policy. */
TEST_F(model, domains_are_clusters_and_policies)
{
	se_mask_t seen = 0;
	int i, cpu;

	for (i = 0; i < self->m.nr; i++) {
		struct dom *d = &self->m.d[i];

		EXPECT_EQ(0, seen & d->cpus) TH_LOG("domain %d overlaps another", i);
		seen |= d->cpus;
		for (cpu = 0; cpu < self->nr_cpus; cpu++) {
			char path[256], buf[256];
			se_mask_t cl, rel;

			if (!(d->cpus & (1ULL << cpu)))
				continue;
			cpu_path(path, sizeof(path), cpu, "topology/cluster_cpus_list");
			ASSERT_EQ(0, se_read_str(path, buf, sizeof(buf)));
			ASSERT_EQ(0, se_parse_cpulist(buf, &cl));
			EXPECT_EQ(d->cpus, cl) TH_LOG("cpu%d: domain is not its cluster", cpu);
			cpu_path(path, sizeof(path), cpu, "cpufreq/related_cpus");
			ASSERT_EQ(0, se_read_str(path, buf, sizeof(buf)));
			/* related_cpus is space separated */
			for (char *p = buf; *p; p++)
				if (*p == ' ')
					*p = ',';
			ASSERT_EQ(0, se_parse_cpulist(buf, &rel));
			EXPECT_EQ(d->cpus, rel) TH_LOG("cpu%d: domain is not its policy", cpu);
		}
	}
	EXPECT_EQ((1ULL << self->nr_cpus) - 1, seen) TH_LOG("CPUs outside every domain");
}

/* Frequencies are cpufreq's, capacities cpu_capacity x f / fmax. */
TEST_F(model, opps_match_cpufreq_and_capacity)
{
	int i, j;

	for (i = 0; i < self->m.nr; i++) {
		struct dom *d = &self->m.d[i];
		int cpu = first_cpu(d->cpus);
		long f[MAX_OPP], cap = se_cpu_capacity(cpu);
		char path[256], buf[1024], *p = buf, *end;
		int n = 0;

		cpu_path(path, sizeof(path), cpu, "cpufreq/scaling_available_frequencies");
		ASSERT_EQ(0, se_read_str(path, buf, sizeof(buf)));
		while (n < MAX_OPP && (f[n] = strtol(p, &end, 10), end != p)) {
			p = end;
			n++;
		}
		/* cpufreq lists them in table order; the model ascending */
		for (j = 1; j < n; j++)
			for (int k = j; k > 0 && f[k - 1] > f[k]; k--) {
				long t = f[k];

				f[k] = f[k - 1];
				f[k - 1] = t;
			}
		ASSERT_EQ(n, d->nr_opps)
			TH_LOG("cpu%d: %d cpufreq frequencies, %d model OPPs", cpu, n, d->nr_opps);
		for (j = 0; j < n; j++) {
			EXPECT_EQ(f[j], d->freq[j]) TH_LOG("cpu%d opp %d", cpu, j);
			EXPECT_EQ(cap * d->freq[j] / d->freq[n - 1], d->cap[j])
				TH_LOG("cpu%d opp %d capacity", cpu, j);
		}
	}
}

/* With active power from the energy model, it is the EM's, OPP by OPP. */
TEST_F(model, active_power_matches_energy_model)
{
	int i, j;

	if (strcmp(self->m.src_active, "energy-model"))
		SKIP(return, "active power from %s", self->m.src_active);
	for (i = 0; i < self->m.nr; i++) {
		struct dom *d = &self->m.d[i];
		int cpu = first_cpu(d->cpus);

		for (j = 0; j < d->nr_opps; j++) {
			char path[256];
			long p;

			snprintf(path, sizeof(path), EM_DEBUGFS "/cpu%d/ps:%ld/power",
				 cpu, d->freq[j]);
			ASSERT_EQ(0, se_read_long(path, &p)) TH_LOG("%s", path);
			EXPECT_EQ(p, d->cpu_p[j]) TH_LOG("cpu%d opp %d", cpu, j);
		}
	}
}

/* The cpu-map cluster node of a CPU, by phandle; 0 or -1. */
static int dt_cluster_of(int cpu, int nr_cpus, char *out, size_t len)
{
	char path[512], sub[1024];
	struct dirent *cl, *co;
	DIR *map, *cd;
	int found = -1;

	map = opendir(SE_DT_CPUS "/cpu-map");
	if (!map)
		return -1;
	while (found && (cl = readdir(map))) {
		if (strncmp(cl->d_name, "cluster", 7))
			continue;
		snprintf(path, sizeof(path), SE_DT_CPUS "/cpu-map/%s", cl->d_name);
		cd = opendir(path);
		if (!cd)
			continue;
		while ((co = readdir(cd))) {
			uint32_t ph = 0;

			if (strncmp(co->d_name, "core", 4))
				continue;
			snprintf(sub, sizeof(sub), "%s/%s/cpu", path, co->d_name);
			if (se_dt_u32s(sub, &ph, 1) == 1 &&
			    se_dt_phandle_to_cpu(ph, nr_cpus) == cpu) {
				snprintf(out, len, "%s", path);
				found = 0;
				break;
			}
		}
		closedir(cd);
	}
	closedir(map);
	return found;
}

/* Cluster and idle power from the device tree are the DT's numbers. */
TEST_F(model, dt_power_matches_device_tree)
{
	int i, j;

	if (strcmp(self->m.src_cluster, "device-tree"))
		SKIP(return, "cluster power from %s", self->m.src_cluster);
	for (i = 0; i < self->m.nr; i++) {
		struct dom *d = &self->m.d[i];
		int cpu = first_cpu(d->cpus);
		uint32_t act[MAX_OPP], ic[MAX_IDLE], icl[MAX_IDLE];
		char node[512], path[700];

		ASSERT_EQ(0, dt_cluster_of(cpu, self->nr_cpus, node, sizeof(node)));
		snprintf(path, sizeof(path), "%s/sched-energy-cluster-active-microwatt", node);
		ASSERT_EQ(d->nr_opps, se_dt_u32s(path, act, MAX_OPP));
		snprintf(path, sizeof(path), "%s/sched-energy-cpu-idle-microwatt", node);
		ASSERT_EQ(d->nr_idle, se_dt_u32s(path, ic, MAX_IDLE));
		snprintf(path, sizeof(path), "%s/sched-energy-cluster-idle-microwatt", node);
		ASSERT_EQ(d->nr_idle, se_dt_u32s(path, icl, MAX_IDLE));
		for (j = 0; j < d->nr_opps; j++) {
			/* braces: EXPECT_*() TH_LOG() is two statements */
			EXPECT_EQ(act[j], d->cl_p[j]) TH_LOG("cpu%d opp %d", cpu, j);
		}
		for (j = 0; j < d->nr_idle; j++) {
			EXPECT_EQ(ic[j], d->icpu[j]) TH_LOG("cpu%d idle %d", cpu, j);
			EXPECT_EQ(icl[j], d->icl[j]) TH_LOG("cpu%d idle %d", cpu, j);
		}
	}
}

/* Idle states are cpuidle's, with its latencies and residencies. */
TEST_F(model, idle_states_match_cpuidle)
{
	int i, j, cpu;

	for (i = 0; i < self->m.nr; i++) {
		struct dom *d = &self->m.d[i];

		for (cpu = 0; cpu < self->nr_cpus; cpu++) {
			if (!(d->cpus & (1ULL << cpu)))
				continue;
			for (j = 0; j < d->nr_idle; j++) {
				char path[256], leaf[64], name[64];
				long lat, res;

				snprintf(leaf, sizeof(leaf), "cpuidle/state%d/name", j);
				cpu_path(path, sizeof(path), cpu, leaf);
				ASSERT_EQ(0, se_read_str(path, name, sizeof(name)))
					TH_LOG("%s", path);
				EXPECT_STREQ(name, d->name[j]);
				snprintf(leaf, sizeof(leaf), "cpuidle/state%d/latency", j);
				cpu_path(path, sizeof(path), cpu, leaf);
				ASSERT_EQ(0, se_read_long(path, &lat));
				EXPECT_EQ(lat, d->lat[j]) TH_LOG("cpu%d %s latency", cpu, name);
				snprintf(leaf, sizeof(leaf), "cpuidle/state%d/residency", j);
				cpu_path(path, sizeof(path), cpu, leaf);
				ASSERT_EQ(0, se_read_long(path, &res));
				EXPECT_EQ(res, d->res[j]) TH_LOG("cpu%d %s residency", cpu, name);
			}
		}
	}
}

/* The idlestat export follows idlestat's parser and carries the model. */
TEST_F(model, idlestat_export_matches_model)
{
	static char buf[65536];
	char *line, *save = NULL;
	int clusters = -1, cl = -1, np = 0, nc = 0, mode = 0, ps = 0, cs = 0;

	ASSERT_LT(0, se_read(SEN_DEBUGFS "/idlestat", buf, sizeof(buf)));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct dom *d = cl >= 0 ? &self->m.d[cl] : NULL;
		long mhz, cp, p;
		char c, name[32];
		int n;

		if (line[0] == '#')
			continue;
		if (clusters < 0) {
			n = sscanf(line, "clusters %d", &clusters);
			ASSERT_EQ(1, n) TH_LOG("%s", line);
			ASSERT_EQ(self->m.nr, clusters);
			continue;
		}
		if (strstr(line, "cluster") && !strstr(line, "cluster-")) {
			if (d) {
				EXPECT_EQ(d->nr_opps, ps);
				EXPECT_EQ(d->nr_idle, cs);
			}
			n = sscanf(line, "cluster%c: %d cap states %d C states", &c, &np, &nc);
			ASSERT_EQ(3, n) TH_LOG("%s", line);
			cl++;
			ASSERT_EQ('A' + cl, c);
			ASSERT_LT(cl, self->m.nr);
			EXPECT_EQ(self->m.d[cl].nr_opps, np);
			EXPECT_EQ(self->m.d[cl].nr_idle, nc);
			mode = 0;
			ps = 0;
			cs = 0;
			continue;
		}
		ASSERT_NE(NULL, d) TH_LOG("line before any cluster: %s", line);
		if (!strcmp(line, "P-states:")) {
			mode = 1;
		} else if (!strcmp(line, "C-states:")) {
			mode = 2;
		} else if (!strncmp(line, "wakeup ", 7)) {
			mode = 3;
		} else if (mode == 1) {
			int j = d->nr_opps - 1 - ps;	/* listed fastest first */

			n = sscanf(line, "%ld %ld %ld", &mhz, &cp, &p);
			ASSERT_EQ(3, n) TH_LOG("%s", line);
			ASSERT_LE(0, j);
			EXPECT_EQ(d->freq[j] / 1000, mhz);
			EXPECT_EQ(d->cl_p[j], cp);
			EXPECT_EQ(d->cpu_p[j], p);
			ps++;
		} else if (mode == 2) {
			n = sscanf(line, "%31s %ld %ld", name, &cp, &p);
			ASSERT_EQ(3, n) TH_LOG("%s", line);
			ASSERT_LT(cs, d->nr_idle);
			EXPECT_STREQ(d->name[cs], name);
			EXPECT_EQ(d->icl[cs], cp);
			EXPECT_EQ(d->icpu[cs], p);
			cs++;
		} else {
			ASSERT_TRUE(0) TH_LOG("unexpected line: %s", line);
		}
	}
	ASSERT_EQ(self->m.nr - 1, cl);
	EXPECT_EQ(self->m.d[cl].nr_opps, ps);
	EXPECT_EQ(self->m.d[cl].nr_idle, cs);
}

static int set_online(int cpu, int on)
{
	char path[128];

	snprintf(path, sizeof(path), SYS_CPU "/cpu%d/online", cpu);
	return se_write(path, on ? "1" : "0");
}

/*
 * Taking the last CPU of the last domain offline and back rebuilds the
 * model; it stays available and still covers that CPU (the model is over
 * possible CPUs, the scheduler looks at the online mask).
 */
TEST_F(model, survives_hotplug)
{
	struct dom *d = &self->m.d[self->m.nr - 1];
	int cpu = 63 - __builtin_clzll(d->cpus);
	char status[256], bad[256];
	struct model after;

	if (cpu == 0)
		SKIP(return, "only cpu0, which cannot go offline");
	ASSERT_EQ(0, set_online(cpu, 0));
	se_sleep_ms(200);
	ASSERT_EQ(0, se_read_str(SEN_DEBUGFS "/status", status, sizeof(status)));
	EXPECT_STREQ("available", status);
	ASSERT_EQ(0, read_model(&after, bad, sizeof(bad))) TH_LOG("%s", bad);
	EXPECT_EQ(self->m.nr, after.nr);
	EXPECT_EQ(d->cpus, after.d[after.nr - 1].cpus);
	ASSERT_EQ(0, set_online(cpu, 1));
	se_sleep_ms(200);
	ASSERT_EQ(0, se_read_str(SEN_DEBUGFS "/status", status, sizeof(status)));
	EXPECT_STREQ("available", status);
	ASSERT_EQ(0, read_model(&after, bad, sizeof(bad))) TH_LOG("%s", bad);
	EXPECT_EQ(0, memcmp(&self->m, &after, sizeof(after)))
		TH_LOG("model differs after the CPU came back");
}

TEST_HARNESS_MAIN
