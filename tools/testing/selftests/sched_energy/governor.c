// SPDX-License-Identifier: GPL-2.0
/*
 * The sched_energy cpufreq governor on an emulated big.LITTLE board:
 *
 *  - it can be selected on every policy and reads back;
 *  - a small task (10%, or half the lowest OPP's capacity) keeps its
 *    LITTLE domain at the lowest OPP;
 *  - a task stepping from 10% to 70% on a big CPU raises the big domain
 *    above its lowest OPP within 20 ms of the step (the tracker's 16 ms
 *    and a tick), and schedutil's delay is logged next to it;
 *  - uclamp_min puts a floor under a small task's domain;
 *  - the policy's scaling_max_freq and scaling_min_freq bound it;
 *  - switching governors (sched_energy, schedutil, performance) under load
 *    is clean, and each request is traced.
 *
 * The governor may run on the emulated driver's fast_switch or, booted
 * with emu_cpufreq.fast_switch=0, on its kthread: the tests are the same.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "../kselftest_harness.h"
#include "se_util.h"

#define SYS_CPU		"/sys/devices/system/cpu"
#define GOV		"sched_energy"
#define REQUEST		SE_TRACEFS "/events/sched_energy/sen_freq_request/enable"
#define PERIOD_US	16000

static void gov_path(char *buf, size_t len, int cpu, const char *file)
{
	snprintf(buf, len, SYS_CPU "/cpu%d/cpufreq/%s", cpu, file);
}

static int set_gov(int cpu, const char *gov)
{
	char path[128];

	gov_path(path, sizeof(path), cpu, "scaling_governor");
	return se_write(path, gov);
}

static long cur_freq(int cpu)
{
	return se_cpufreq(cpu, "scaling_cur_freq");
}

/* Set a governor on every policy (through each of its CPUs). */
static int set_all(const char *gov)
{
	int cpu, err = 0;

	for (cpu = 0; cpu < se_nr_cpus() && cpu < SE_MAX_CPUS; cpu++)
		err = err ?: set_gov(cpu, gov);
	return err;
}

FIXTURE(gov) {
	char saved[SE_MAX_CPUS][32];	/* each CPU's policy's governor */
};

FIXTURE_SETUP(gov)
{
	char path[128], avail[256];
	int l = se_first_cpu(1), b = se_first_cpu(0), cpu;

	if (l < 0 || b < 0)
		SKIP(return, "needs LITTLE and big CPUs");
	gov_path(path, sizeof(path), l, "scaling_available_governors");
	if (se_read_str(path, avail, sizeof(avail)))
		SKIP(return, "no cpufreq");
	ASSERT_NE(NULL, strstr(avail, GOV)) TH_LOG("governors: %s", avail);
	for (cpu = 0; cpu < se_nr_cpus() && cpu < SE_MAX_CPUS; cpu++) {
		gov_path(path, sizeof(path), cpu, "scaling_governor");
		ASSERT_EQ(0, se_read_str(path, self->saved[cpu], sizeof(self->saved[cpu])));
	}
	ASSERT_EQ(0, set_all(GOV));
	se_sleep_ms(100);
}

FIXTURE_TEARDOWN(gov)
{
	int big = se_first_cpu(0), cpu;
	char path[128];

	/* Limits back to the hardware's, whatever a test left. */
	gov_path(path, sizeof(path), big, "scaling_min_freq");
	se_write_long(path, se_cpufreq(big, "cpuinfo_min_freq"));
	gov_path(path, sizeof(path), big, "scaling_max_freq");
	se_write_long(path, se_cpufreq(big, "cpuinfo_max_freq"));
	for (cpu = 0; cpu < se_nr_cpus() && cpu < SE_MAX_CPUS; cpu++)
		if (self->saved[cpu][0])
			set_gov(cpu, self->saved[cpu]);
}

/* Tasks whose comm starts with @prefix. */
static int count_comm(const char *prefix)
{
	struct dirent *de;
	char path[300], comm[32];
	int n = 0;
	DIR *d = opendir("/proc");

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		if (!se_read_str(path, comm, sizeof(comm)) &&
		    !strncmp(comm, prefix, strlen(prefix)))
			n++;
	}
	closedir(d);
	return n;
}

static int nr_policies(void)
{
	DIR *d = opendir(SYS_CPU "/cpufreq");
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		n += !strncmp(de->d_name, "policy", 6);
	closedir(d);
	return n;
}

/*
 * Selected on every policy; with the driver's fast_switch withheld
 * (emu_cpufreq.fast_switch=0) each policy has its request kthread.
 */
TEST_F(gov, selected_and_reads_back)
{
	char path[128], now[32], fast[8] = "Y";
	int cpu;

	for (cpu = 0; cpu < se_nr_cpus(); cpu++) {
		gov_path(path, sizeof(path), cpu, "scaling_governor");
		ASSERT_EQ(0, se_read_str(path, now, sizeof(now)));
		EXPECT_STREQ(GOV, now) TH_LOG("cpu%d", cpu);
	}
	se_read_str("/sys/module/emu_cpufreq/parameters/fast_switch", fast, sizeof(fast));
	TH_LOG("fast_switch %s, %d sen_gov kthreads", fast, count_comm("sen_gov:"));
	EXPECT_EQ(fast[0] == 'N' ? nr_policies() : 0, count_comm("sen_gov:"));
}

/*
 * The share of the next @ms milliseconds, in 1/1000, that @cpu's policy
 * spends at @freq, from cpufreq stats: nothing samples it meanwhile.
 */
static long residency(int cpu, long freq, unsigned int ms)
{
	struct se_tis a, b;

	if (se_time_in_state(cpu, &a))
		return -1;
	se_sleep_ms(ms);
	if (se_time_in_state(cpu, &b))
		return -1;
	return se_tis_share(&a, &b, freq);
}

/*
 * A small task alone in the LITTLE cluster (this process sleeps on a big
 * CPU): the domain spends at least 75% of 3 s at its lowest OPP, time
 * weighted (cpufreq stats).  The task is sized from the board: at most
 * 10%, and at most half of the lowest OPP's capacity (cpu_capacity x fmin
 * / fmax; 6% on hikey960, whose LITTLE lowest OPP is 133/1024), so that
 * the tracker's headroom and one doubled sample still fit there.  The
 * task alone never needs more; what lifts the domain is a vCPU stalled
 * by a loaded host while something runs on it (the task, or a kernel
 * thread on another LITTLE CPU): the guest sees a burst of several ms,
 * the governor rightly follows it and holds the raised OPP for its
 * ramp-down delay (16 ms), so a quarter of the time allows a few dozen
 * such stalls in the window.
 */
TEST_F(gov, small_task_lowest_opp)
{
	int l = se_first_cpu(1), duty;
	long min = se_cpufreq(l, "cpuinfo_min_freq");
	long max = se_cpufreq(l, "cpuinfo_max_freq");
	long low_cap, share;
	pid_t pid;

	/* There, kernel threads and interrupts alone lift the LITTLE cluster. */
	if (se_debug_kernel())
		SKIP(return, "the lowest-OPP bound needs a non-debug kernel");
	ASSERT_LT(0, min);
	ASSERT_LE(min, max);
	low_cap = se_cpu_capacity(l) * min / max;
	duty = low_cap * 100 / 2048;
	duty = duty > 10 ? 10 : duty;
	ASSERT_LE(2, duty) TH_LOG("lowest OPP capacity %ld: no room for a task", low_cap);
	ASSERT_EQ(0, se_pin(0, se_first_cpu(0)));
	pid = se_periodic_task(duty, PERIOD_US, l + 1);
	ASSERT_LT(0, pid);
	se_sleep_ms(500);
	share = residency(l, min, 3000);
	se_kill(pid);
	TH_LOG("%d%% task; LITTLE at its lowest OPP (%ld kHz, capacity %ld)", duty, min, low_cap);
	TH_LOG("for %ld/1000 of 3 s", share);
	EXPECT_LE(750, share);
}

#define FREQ_EVENT	"power/cpu_frequency"

#define TASK_EVENT	"sched_energy/sen_util_task"

/*
 * Log the traced events of the big CPU from 20 ms before @sw (ns) to
 * @ms after it: the tracker's view of the task and the governor's
 * requests, to explain a late step.
 */
static void step_log(uint64_t sw, long ms)
{
	static char buf[1 << 20];
	char *line, *save = NULL, *body;
	double t;

	if (se_read(SE_TRACEFS "/trace", buf, sizeof(buf)) < 0)
		return;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (se_trace_event(line, &t, &body) || t < (double)sw - 20e6 ||
		    t > (double)sw + ms * 1e6)
			continue;
		fprintf(stderr, "#  %+.1f ms:%s\n", (t - (double)sw) / 1e6, body);
	}
}

/*
 * The traced frequency of the big domain at @at (ns): the state of the
 * last cpu_frequency event before it, @before if there is none.
 */
static long freq_at(uint64_t at, long before)
{
	static char buf[1 << 20];
	char *line, *save = NULL, *body, *p;
	long state = before;
	double t;

	if (se_read(SE_TRACEFS "/trace", buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (se_trace_event(line, &t, &body) || t > (double)at)
			continue;
		p = strstr(body, " state=");
		if (p)
			state = atol(p + 7);
	}
	return state;
}

/* Wait up to @ms for @cpu's domain to be at its lowest OPP; the last reading. */
static long wait_lowest(int cpu, int ms)
{
	long min = se_cpufreq(cpu, "cpuinfo_min_freq"), f;
	uint64_t give_up = se_now_ns() + ms * 1000000ULL;

	while ((f = cur_freq(cpu)) != min && se_now_ns() < give_up)
		se_sleep_ms(5);
	return f;
}

#define STEP_VOID	-3	/* the domain was not at its lowest OPP at the step */

/*
 * ms from a 10% -> 70% step on @big until the big domain leaves its lowest
 * OPP, -1: not within 500 ms, STEP_VOID: it was above it at the step
 * (another task, a kernel thread, raised it meanwhile: nothing to time).
 * Timed by the cpu_frequency trace event when it can be traced
 * (se_trace_on(): a sampler's vCPU may be stalled just then), else by
 * sampling scaling_cur_freq.  @t_switch is shared memory.  A delay over
 * @limit ms, or none, logs the events around the step (the governor's
 * requests and the tracker's view, if @sen).
 */
static long step_delay_ms(int big, uint64_t *t_switch, long limit, bool sen)
{
	long min = se_cpufreq(big, "cpuinfo_min_freq"), res = -1, last;
	uint64_t sw = 0, t, give_up;
	char filter[32];
	int traced;
	pid_t pid;

	*t_switch = 0;
	se_pin(0, se_first_cpu(1));
	snprintf(filter, sizeof(filter), "cpu == %d", big);
	if (sen) {
		se_trace_on(TASK_EVENT, filter);
		se_trace_on("sched_energy/sen_freq_request", filter);
	}
	snprintf(filter, sizeof(filter), "cpu_id == %d", big);
	traced = !se_trace_on(FREQ_EVENT, filter);
	/* From the lowest OPP, known while traced: then any change is seen. */
	last = wait_lowest(big, 1000);
	if (last != min) {
		res = STEP_VOID;
		goto out;
	}
	pid = se_duty_task(10, 70, 400, PERIOD_US, big, t_switch);
	if (pid < 0) {
		res = -2;
		goto out;
	}
	/* Before the step the frequency is sampled, not judged. */
	give_up = se_now_ns() + 2000000000ULL;
	while (!(sw = __atomic_load_n(t_switch, __ATOMIC_ACQUIRE)) && se_now_ns() < give_up)
		last = cur_freq(big);
	while (sw && (t = se_now_ns()) < sw + 500000000ULL) {
		if (cur_freq(big) > min) {
			res = (long)((t - sw) / 1000000);
			break;
		}
	}
	/* The event may come just after the frequency reads raised. */
	se_sleep_ms(10);
	se_kill(pid);
	if (traced && sw) {
		se_trace_pause(FREQ_EVENT);
		last = freq_at(sw, min);
		t = se_trace_first_ms(sw, "state", min + 1, 1);
		fprintf(stderr, "# cpu%d %ld kHz at the step; > %ld: sampled %ld ms, traced %ld\n",
			big, last, min, res, (long)t);
		res = (long)t;
	}
	if (sw && last > min)
		res = STEP_VOID;
	else if (sw && (res < 0 || res > limit))
		step_log(sw, res < 0 ? 100 : res + 5);
out:
	if (sen) {
		se_trace_off(TASK_EVENT);
		se_trace_off("sched_energy/sen_freq_request");
	}
	se_trace_off(FREQ_EVENT);
	return res;
}

/* step_delay_ms() of a step from the lowest OPP: up to 5 tries. */
static long step_from_lowest_ms(int big, uint64_t *t_switch, long limit, bool sen)
{
	long d = STEP_VOID;
	int i;

	for (i = 0; i < 5 && d == STEP_VOID; i++)
		d = step_delay_ms(big, t_switch, limit, sen);
	return d;
}

/*
 * 10% -> 70% on a big CPU: the domain leaves its lowest OPP within 20 ms
 * (one run, timed by the trace; schedutil's delay is logged next to it).
 * A run where something else had raised the domain by the step is not a
 * measurement and is run again.
 */
TEST_F_TIMEOUT(gov, step_raises_big_opp, 120)
{
	uint64_t *st = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int big = se_first_cpu(0);
	long d, su;

	ASSERT_NE(MAP_FAILED, st);
	d = step_from_lowest_ms(big, st, 20, true);
	ASSERT_EQ(0, set_all("schedutil"));
	se_sleep_ms(100);
	su = step_from_lowest_ms(big, st, LONG_MAX, false);
	munmap(st, 4096);
	TH_LOG("10%%->70%% on cpu%d: big above its lowest OPP after %ld ms (schedutil: %ld ms)",
	       big, d, su);
	ASSERT_NE(STEP_VOID, d) TH_LOG("never at its lowest OPP at the step in 5 runs");
	ASSERT_LE(0, d);
	EXPECT_GE(20, d);
}

/* The uapi sched_attr (<linux/sched/types.h> clashes with glibc's). */
struct se_sched_attr {
	uint32_t size, sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
	uint32_t sched_util_min, sched_util_max;
};

#define SE_FLAG_KEEP_ALL	0x18	/* SCHED_FLAG_KEEP_POLICY | _PARAMS */
#define SE_FLAG_UTIL_CLAMP_MIN	0x20

static int set_uclamp_min(pid_t pid, unsigned int min)
{
	struct se_sched_attr attr = {
		.size = sizeof(attr),
		.sched_flags = SE_FLAG_KEEP_ALL | SE_FLAG_UTIL_CLAMP_MIN,
		.sched_util_min = min,
	};

	return syscall(SYS_sched_setattr, pid, &attr, 0);
}

/* uclamp_min 1024 on a 10% task: its domain runs at the top OPP. */
TEST_F(gov, uclamp_min_floor)
{
	int l = se_first_cpu(1);
	long max = se_cpufreq(l, "cpuinfo_max_freq"), share;
	pid_t pid;

	ASSERT_EQ(0, se_pin(0, se_first_cpu(0)));
	pid = se_periodic_task(10, PERIOD_US, l + 1);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, set_uclamp_min(pid, 1024)) TH_LOG("sched_setattr: %s", strerror(errno));
	se_sleep_ms(300);
	/*
	 * The clamp counts while the task is runnable (10% of the time); the
	 * ramp-down delay (16 ms, its period) keeps the top OPP in between,
	 * unless a stalled vCPU delays a wakeup by more than that.
	 */
	share = residency(l, max, 1500);
	se_kill(pid);
	TH_LOG("LITTLE at its top OPP (%ld kHz) for %ld/1000 of 1.5 s, uclamp_min=1024",
	       max, share);
	EXPECT_LE(500, share);
}

/* The policy's max and min bound the requests, and are given back. */
TEST_F(gov, limits_honoured)
{
	int big = se_first_cpu(0), i, above = 0, below = 0;
	long min = se_cpufreq(big, "cpuinfo_min_freq"), max = se_cpufreq(big, "cpuinfo_max_freq");
	char path[128], v[32];
	long cap_to;
	pid_t pid;

	/* Cap at the lowest OPP above the minimum: a 70% task wants more. */
	gov_path(path, sizeof(path), big, "scaling_available_frequencies");
	ASSERT_EQ(0, se_read_str(path, v, sizeof(v)));
	cap_to = atol(strchr(v, ' ') ? strchr(v, ' ') + 1 : v);
	ASSERT_LT(min, cap_to);
	gov_path(path, sizeof(path), big, "scaling_max_freq");
	ASSERT_EQ(0, se_write_long(path, cap_to));
	pid = se_periodic_task(70, PERIOD_US, big);
	ASSERT_LT(0, pid);
	se_sleep_ms(200);
	for (i = 0; i < 50; i++) {
		above += cur_freq(big) > cap_to;
		se_sleep_ms(4);
	}
	/* A floor at the top: the same task, now never below it. */
	ASSERT_EQ(0, se_write_long(path, max));
	gov_path(path, sizeof(path), big, "scaling_min_freq");
	ASSERT_EQ(0, se_write_long(path, max));
	se_kill(pid);
	se_sleep_ms(100);
	for (i = 0; i < 50; i++) {
		below += cur_freq(big) < max;
		se_sleep_ms(4);
	}
	ASSERT_EQ(0, se_write_long(path, min));
	TH_LOG("max %ld kHz: %d/50 samples above; min %ld kHz, idle: %d/50 below",
	       cap_to, above, max, below);
	EXPECT_EQ(0, above);
	EXPECT_EQ(0, below);
}

/* Governors switched back and forth under load: every write works. */
TEST_F(gov, switch_under_load)
{
	static const char * const govs[] = { GOV, "schedutil", "performance", GOV };
	int i, alive = 0, l = se_first_cpu(1), b = se_first_cpu(0);
	pid_t load[4];

	for (i = 0; i < 4; i++) {
		load[i] = se_periodic_task(i == 3 ? 80 : 30, 4000, -1);
		ASSERT_LT(0, load[i]);
	}
	for (i = 0; i < 60; i++) {
		ASSERT_EQ(0, set_gov(i % 2 ? b : l, govs[i % 4])) TH_LOG("to %s", govs[i % 4]);
		se_sleep_ms(5);
	}
	ASSERT_EQ(0, set_all("performance"));
	se_sleep_ms(50);
	EXPECT_EQ(se_cpufreq(b, "cpuinfo_max_freq"), cur_freq(b));
	ASSERT_EQ(0, set_all(GOV));
	for (i = 0; i < 4; i++) {
		alive += !kill(load[i], 0);
		se_kill(load[i]);
	}
	EXPECT_EQ(4, alive);
}

/* Each request is traced, with a frequency of the policy and a reason. */
TEST_F(gov, requests_traced)
{
	static char buf[1 << 20];
	char *line, *save = NULL;
	int n = 0, up = 0, down = 0, big = se_first_cpu(0);
	long min = se_cpufreq(big, "cpuinfo_min_freq");
	pid_t pid;

	if (access(REQUEST, W_OK))
		SKIP(return, "no tracefs");
	/*
	 * From the big domain's lowest OPP, where the task can only raise it:
	 * the test before may leave it at the top (performance).
	 */
	ASSERT_EQ(min, wait_lowest(big, 2000)) TH_LOG("cpu%d never idled down", big);
	ASSERT_EQ(0, se_write(SE_TRACEFS "/trace", ""));
	ASSERT_EQ(0, se_write(REQUEST, "1"));
	pid = se_periodic_task(70, PERIOD_US, big);
	ASSERT_LT(0, pid);
	se_sleep_ms(300);
	se_kill(pid);
	se_sleep_ms(200);
	ASSERT_EQ(0, se_write(REQUEST, "0"));
	ASSERT_LT(0, se_read(SE_TRACEFS "/trace", buf, sizeof(buf)));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char why[16];
		long need, freq;
		int cpu, needy, opp, fields;
		char *p = strstr(line, "sen_freq_request:"), *q;

		if (!p)
			continue;
		fields = sscanf(p, "sen_freq_request: cpu=%d needy=%d need=%ld opp=%d freq=%ld",
				&cpu, &needy, &need, &opp, &freq);
		q = strstr(p, " why=");
		fields += q && sscanf(q, " why=%15s", why) == 1;
		ASSERT_EQ(6, fields) TH_LOG("%s", line);
		n++;
		EXPECT_LE(se_cpufreq(cpu, "cpuinfo_min_freq"), freq);
		EXPECT_GE(se_cpufreq(cpu, "cpuinfo_max_freq"), freq);
		EXPECT_LE(0, opp);
		up += !strcmp(why, "up");
		down += !strcmp(why, "down");
	}
	TH_LOG("%d requests: %d up, %d down", n, up, down);
	EXPECT_LE(1, up);
	EXPECT_LE(1, down);
}

TEST_HARNESS_MAIN
