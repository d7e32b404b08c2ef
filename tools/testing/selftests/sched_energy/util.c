// SPDX-License-Identifier: GPL-2.0
/*
 * The sched-energy utilization tracker on a running system: periodic
 * tasks at a 16 ms period are sampled every millisecond through
 * /proc/PID/sched, where the tracker's demand (sen.util.demand) sits next
 * to PELT's util_avg and util_est of the same task, and the CPU signals
 * through /sys/kernel/debug/sched_energy/cpu_util.
 *
 * Checked: the demand of 20%, 50% and 80% tasks on a LITTLE and a big
 * CPU is what they run, as they measure it themselves, and does not sag
 * while they sleep (traced, see steady.settles_at_duty); a 10% -> 70%
 * step is recognised within 16 ms and a 70% -> 10% step within 100 ms; a
 * new task that never sleeps is recognised within 16 ms (these three are
 * timed by the sen_util_task trace event, not by the sampler, whose vCPU
 * the host may stall); a task's contribution leaves its CPU for the new
 * one when it is moved; a CPU's signal is the sum of its tasks'; the
 * trace event carries the same demand; the tracker runs only while the
 * policy or the sched_energy governor uses it.
 * PELT's figures for the step runs are logged.
 *
 * The tracker is off unless something reads it: these tests switch the
 * policy on for their run, and put back the setting they found.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/prctl.h>

#include "../kselftest_harness.h"
#include "se_util.h"

#define PERIOD_US	16000
#define CPU_UTIL	"/sys/kernel/debug/sched_energy/cpu_util"
#define UTIL_EVENT	"sched_energy/sen_util_task"
#define SEN_SYSCTL	"/proc/sys/kernel/sched_energy"

static long saved_policy = -1;
static pid_t policy_owner;

static void policy_restore(void)
{
	/* Only the process that switched it: the harness forks each test. */
	if (getpid() != policy_owner || saved_policy < 0)
		return;
	if (se_write_long(SEN_SYSCTL, saved_policy))
		fprintf(stderr, "# util: cannot put kernel.sched_energy back to %ld\n",
			saved_policy);
}

/* Switch the policy, and with it the tracker, on for the whole run. */
static void __attribute__((constructor)) policy_on(void)
{
	if (se_read_long(SEN_SYSCTL, &saved_policy)) {
		saved_policy = -1;
		return;
	}
	policy_owner = getpid();
	atexit(policy_restore);
	if (se_write(SEN_SYSCTL, "1"))
		fprintf(stderr, "# util: kernel.sched_energy=1 refused: the tracker may be off\n");
}

/*
 * The lockdep/KASAN/UBSAN kernel (make test-debug) runs the same code at a
 * fraction of the speed: tasks overrun their bursts by a third, so the
 * timing bounds say nothing there.  The timing tests skip on it; the
 * workloads of the others still drive the tracker under the checkers.
 */
static long demand_of(pid_t pid)
{
	return se_task_sched_stat(pid, "sen.util.demand");
}

/* runnable + held of a CPU from debugfs, or -1. */
static long cpu_tasks_util(int cpu)
{
	char buf[4096], *line, *save = NULL;
	long c, runnable, held;

	if (se_read(CPU_UTIL, buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "%ld %ld %ld", &c, &runnable, &held) == 3 && c == cpu)
			return runnable + held;
	return -1;
}

/*
 * What every thread but @a and @b says it adds to @cpu
 * (sen.util.contrib where sen.util.contrib_cpu is @cpu): the kworkers and
 * ksoftirqd of a CPU count on it too.  Read one thread after another
 * while they come and go, so it is an estimate: the test allows for it
 * above the demands of its own tasks, never below.
 */
static long others_contrib(int cpu, pid_t a, pid_t b)
{
	DIR *proc = opendir("/proc"), *task;
	struct dirent *pe, *te;
	char path[300];
	long sum = 0, c;

	if (!proc)
		return -1;
	while ((pe = readdir(proc))) {
		if (pe->d_name[0] < '0' || pe->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", pe->d_name);
		task = opendir(path);
		if (!task)
			continue;	/* it exited */
		while ((te = readdir(task))) {
			pid_t tid = atoi(te->d_name);

			if (tid <= 0 || tid == a || tid == b)
				continue;
			if (se_task_sched_stat(tid, "sen.util.contrib_cpu") != cpu)
				continue;
			c = se_task_sched_stat(tid, "sen.util.contrib");
			if (c > 0)
				sum += c;
		}
		closedir(task);
	}
	closedir(proc);
	return sum;
}

/* A CPU other than @a and @b to run the sampler on. */
static int other_cpu(int a, int b)
{
	int cpu, nr = se_nr_cpus();

	for (cpu = nr - 1; cpu >= 0; cpu--)
		if (cpu != a && cpu != b)
			return cpu;
	return -1;
}

/* A d1% -> d2% task at PERIOD_US: see se_duty_task(). */
static pid_t duty_task(int d1, int d2, int switch_ms, int cpu, uint64_t *t_switch)
{
	return se_duty_task(d1, d2, switch_ms, PERIOD_US, cpu, t_switch);
}

struct series {
	int n;
	uint64_t t[1024], runtime[1024];
	long demand[1024], util_avg[1024], util_est[1024];
};

/* Sample a task every millisecond for @ms milliseconds. */
static void sample(pid_t pid, int ms, struct series *s)
{
	uint64_t next = se_now_ns();

	s->n = 0;
	while (s->n < ms && s->n < 1024) {
		struct timespec ts;

		s->t[s->n] = se_now_ns();
		s->runtime[s->n] = se_runtime_ns(pid);
		s->demand[s->n] = demand_of(pid);
		s->util_avg[s->n] = se_task_sched_stat(pid, "se.avg.util_avg");
		s->util_est[s->n] = se_task_sched_stat(pid, "se.avg.util_est.ewma");
		s->n++;
		next += 1000000;
		ts.tv_sec = next / 1000000000ULL;
		ts.tv_nsec = next % 1000000000ULL;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
}

/* First sample at or after @from whose @v reaches @level (>=) or falls to it. */
static long first_time_ms(const struct series *s, const long *v, uint64_t from,
			  long level, int rising)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->t[i] >= from && (rising ? v[i] >= level : v[i] <= level))
			return (long)((s->t[i] - from) / 1000000);
	return -1;
}

/*
 * What the task really ran, capacity units: CPU time over wall time
 * between samples @from and the last one.  On the emulator a task's
 * syscalls and wakeups add a little to its bursts; the tracker is judged
 * against this, and against the nominal duty with a wider margin.
 */
static long ran(const struct series *s, int from)
{
	int last = s->n - 1;

	if (from < 0 || from >= last)
		return -1;
	return (long)((s->runtime[last] - s->runtime[from]) * 1024 /
		      (s->t[last] - s->t[from]));
}

static int index_at(const struct series *s, uint64_t t)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->t[i] >= t)
			return i;
	return -1;
}

/*
 * What the task typically runs from sample @from on, capacity units: the
 * median over windows of one period of the task (each holds one burst,
 * whatever its phase) of CPU time over wall time.  A host stall lengthens
 * the burst it falls in (the guest counts it as running): ran()'s mean
 * over the whole stretch carries every stall into the reference a step is
 * judged against, the median does not.  The windows are cut by the
 * samples' times, not their count: a sampler the host stalled takes its
 * late samples back to back.  -1 with fewer than three windows.
 */
static long ran_typical(const struct series *s, int from, uint64_t period_ns)
{
	long v[64];
	int n = 0, i = from, j;

	while (i >= 0 && n < 64) {
		j = index_at(s, s->t[i] + period_ns);
		if (j < 0)
			break;
		v[n++] = (long)((s->runtime[j] - s->runtime[i]) * 1024 /
				(s->t[j] - s->t[i]));
		i = j;
	}
	return n < 3 ? -1 : se_median(v, n);
}

FIXTURE(steady) {
	pid_t pid;
};

FIXTURE_VARIANT(steady) {
	int duty;
	int little;
};

FIXTURE_VARIANT_ADD(steady, duty20_little) { .duty = 20, .little = 1 };
FIXTURE_VARIANT_ADD(steady, duty50_little) { .duty = 50, .little = 1 };
FIXTURE_VARIANT_ADD(steady, duty80_little) { .duty = 80, .little = 1 };
FIXTURE_VARIANT_ADD(steady, duty20_big) { .duty = 20, .little = 0 };
FIXTURE_VARIANT_ADD(steady, duty50_big) { .duty = 50, .little = 0 };
FIXTURE_VARIANT_ADD(steady, duty80_big) { .duty = 80, .little = 0 };

FIXTURE_SETUP(steady)
{
	self->pid = -1;
}

FIXTURE_TEARDOWN(steady)
{
	se_kill(self->pid);
}

/* One sen_util_task event of the traced task. */
struct util_event {
	uint64_t t;
	long sample, demand;
	char ev;	/* 'w'akeup, 'r'aise, r'o'll */
};

/* The traced sen_util_task events, oldest first; their number. */
static int util_events(struct util_event *e, int max)
{
	static char buf[1 << 20];
	char *line, *save = NULL, *body, *p;
	int n = 0;
	double t;

	if (se_read(SE_TRACEFS "/trace", buf, sizeof(buf)) < 0)
		return 0;
	for (line = strtok_r(buf, "\n", &save); line && n < max;
	     line = strtok_r(NULL, "\n", &save)) {
		if (se_trace_event(line, &t, &body))
			continue;
		p = strstr(body, " sample=");
		if (!p || sscanf(p, " sample=%ld demand=%ld", &e[n].sample, &e[n].demand) != 2)
			continue;
		p = strstr(body, " ev=");
		e[n].ev = p && p[4] == 'r' && p[5] == 'o' ? 'o' : p ? p[4] : '?';
		e[n].t = (uint64_t)t;
		n++;
	}
	return n;
}

/* A read of the task's demand from /proc, made between @a and @b. */
struct demand_read {
	uint64_t a, b;
	long demand;
};

#define GROWTH	"/sys/kernel/debug/sched_energy/growth_samples"

/*
 * What the tracker's rule makes of a task's last SEN_UTIL_HIST (4)
 * samples, @h[0] the newest (util_track.c): their mean (the level),
 * without the largest when it is more than twice every other one; or,
 * when the @growth newest samples (1 or 2, debugfs growth_samples) are
 * all more than 1/8 above the level, the least of them.
 */
static long demand_rule(const long *h, long growth)
{
	long sum = 0, top = 0, second = 0, avg, above;
	int i;

	for (i = 0; i < 4; i++) {
		sum += h[i];
		if (h[i] > top) {
			second = top;
			top = h[i];
		} else if (h[i] > second) {
			second = h[i];
		}
	}
	avg = top > 2 * second ? (sum - top) / 3 : sum / 4;
	above = avg + (avg >> 3);
	if (h[0] <= above)
		return avg;
	if (growth < 2)
		return h[0];
	return h[1] > above ? (h[0] < h[1] ? h[0] : h[1]) : avg;
}

#define STEADY_MS	1500

/*
 * A steady periodic task's demand is what it runs, and is held while it
 * sleeps.  It is judged against what the task itself measured of each
 * activation (se_duty_task_acts()), not against the nominal duty: on the
 * emulator the syscalls and wakeups of a 20% task add up to a third to
 * its bursts, and a stalled vCPU stretches a span or a burst now and
 * then, which the tracker takes into its mean (and for growth only when
 * two samples in a row say so).  Over 1.5 s
 * (about 90 activations):
 *  - the tracker's sample of a span is the share of it the task ran:
 *    the median of their ratio, span by span, is within 5% of 1;
 *  - at every wakeup, the demand is what the tracker's rule makes of the
 *    last four traced samples (exactly: nothing else moves it);
 *  - the demand it settles at (its median at wakeups) lies between the
 *    task's median share and what it ran on the whole (its mean share),
 *    within 5%: the demand is a mean of four samples, so it sits between
 *    the two when stalls stretch some bursts (the tracker's samples
 *    follow the task's own spans less noisily than the task measures
 *    them, so the rule is not replayed on the task's shares);
 *  - it never sags: only a wakeup or a roll lowers it, and what /proc
 *    shows between events is the traced value.
 */
TEST_F(steady, settles_at_duty)
{
	static struct util_event ev[4096];
	static struct demand_read rd[1024];
	static long demands[1024], shares[SE_ACTS], ratio[SE_ACTS];
	int cpu = se_last_cpu(variant->little), nev, nrd = 0, ns = 0, nd = 0, nr = 0;
	long typ, demand_med, ran_all, growth, h[4] = { 0 };
	int i, j, rule_bad = 0;
	unsigned int first, last, k;
	struct se_acts *acts = se_acts_map();
	uint64_t t0;
	char filter[32];

	if (se_debug_kernel())
		SKIP(return, "timing bounds need a non-debug kernel");
	ASSERT_EQ(0, se_read_long(GROWTH, &growth)) TH_LOG("no %s", GROWTH);
	ASSERT_LE(0, cpu);
	ASSERT_NE(NULL, acts);
	se_pin(0, other_cpu(cpu, -1));
	self->pid = se_duty_task_acts(variant->duty, variant->duty, 0, PERIOD_US, cpu,
				      NULL, acts);
	ASSERT_LT(0, self->pid);
	se_sleep_ms(400);
	snprintf(filter, sizeof(filter), "pid == %d", self->pid);
	ASSERT_EQ(0, se_trace_on(UTIL_EVENT, filter));
	t0 = se_now_ns();
	first = __atomic_load_n(&acts->n, __ATOMIC_ACQUIRE);
	/* Read the demand every 7 ms (off the 16 ms period): light, and not in phase. */
	while (nrd < 1024 && se_now_ns() - t0 < STEADY_MS * 1000000ULL) {
		rd[nrd].a = se_now_ns();
		rd[nrd].demand = demand_of(self->pid);
		rd[nrd].b = se_now_ns();
		nrd++;
		se_sleep_ms(7);
	}
	se_trace_pause(UTIL_EVENT);
	last = __atomic_load_n(&acts->n, __ATOMIC_ACQUIRE);
	nev = util_events(ev, 4096);
	se_trace_off(UTIL_EVENT);
	ASSERT_LT(first + 16, last) TH_LOG("the task ran %u activations", last - first);
	ASSERT_LT(16, nev) TH_LOG("%d sen_util_task events traced", nev);

	/* first + 1: the span before it may have begun before the trace. */
	for (k = first + 1; k + 1 < last; k++)
		shares[k - first - 1] = se_acts_share(acts, k);
	typ = se_median(shares, last - first - 2);

	for (j = 0; j < nev; j++) {
		if (ev[j].ev != 'w' && ev[j].ev != 'o')
			continue;
		memmove(h + 1, h, 3 * sizeof(*h));
		h[0] = ev[j].sample;
		ns++;
		if (ev[j].ev == 'w' && nd < 1024)
			demands[nd++] = ev[j].demand;
		if (ns >= 4 && ev[j].demand != demand_rule(h, growth) && !rule_bad++)
			TH_LOG("event %d: demand %ld after samples %ld %ld %ld %ld", j,
			       ev[j].demand, h[3], h[2], h[1], h[0]);
	}
	/* Each span's sample against the task's own share of it. */
	for (k = first + 1; k + 1 < last; k++) {
		int w = -1;

		for (j = 0; j < nev; j++)
			if (ev[j].ev == 'w' && ev[j].t > acts->t[k] && ev[j].t <= acts->t[k + 1])
				w = j;
		if (w >= 0)
			ratio[nr++] = ev[w].sample * 1000 / se_acts_share(acts, k);
	}
	ASSERT_LT(16, nr) TH_LOG("only %d spans ended by a traced wakeup", nr);
	qsort(ratio, nr, sizeof(*ratio), se_cmp_long);
	demand_med = nd ? se_median(demands, nd) : -1;
	TH_LOG("cpu%d duty %d%% (%.0f): median share %ld, demand %ld", cpu, variant->duty,
	       variant->duty * 10.24, typ, demand_med);
	TH_LOG("sample/share per span (per mille): p10 %ld p50 %ld p90 %ld of %d",
	       ratio[nr / 10], ratio[nr / 2], ratio[nr * 9 / 10], nr);
	EXPECT_LE(950, ratio[nr / 2]);
	EXPECT_GE(1050, ratio[nr / 2]);
	/* What the task ran on the whole: its CPU time over the interval */
	ran_all = (long)((acts->cpu_ns[last - 1] - acts->cpu_ns[first + 1]) * 1024 /
			 (acts->t[last - 1] - acts->t[first + 1]));
	TH_LOG("the task ran %ld on the whole", ran_all);
	EXPECT_LE((typ < ran_all ? typ : ran_all) * 0.95, demand_med);
	EXPECT_GE((typ > ran_all ? typ : ran_all) * 1.05, demand_med);
	EXPECT_EQ(0, rule_bad);

	/*
	 * No sag: nothing but the traced events moves the demand (a raise
	 * only lifts it, a wakeup or a roll sets it from the samples), so
	 * what /proc shows between events is the traced value.  Trace times
	 * are whole microseconds.
	 */
	for (i = 0; i < nrd; i++) {
		long prev = -1;
		int ok = 0;

		/*
		 * The value before the read began, or any set while it ran,
		 * or the next one (set a moment before its event is stamped).
		 */
		for (j = 0; j < nev && ev[j].t <= rd[i].b + 1000; j++) {
			if (ev[j].t + 1000 < rd[i].a)
				prev = ev[j].demand;
			else
				ok |= ev[j].demand == rd[i].demand;
		}
		if (prev < 0)
			continue;	/* before the first event */
		ok |= prev == rd[i].demand || (j < nev && ev[j].demand == rd[i].demand);
		EXPECT_TRUE(ok)
			TH_LOG("read %d at +%.1f ms: demand %ld, traced %ld", i,
			       (rd[i].a - t0) / 1e6, rd[i].demand, prev);
		if (!ok)
			break;
	}
}

/*
 * Run a task stepping from @d1 to @d2 percent on @cpu (after 400 ms) and
 * sample it for @ms from 300 ms on.  Return: when its first @d2 burst
 * started (CLOCK_MONOTONIC ns), 0 if there was no step.
 */
static uint64_t step_run(int d1, int d2, int cpu, int ms, struct series *s,
			 int *traced)
{
	uint64_t *t_switch = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	uint64_t sw;
	pid_t pid;

	if (t_switch == MAP_FAILED)
		return 0;
	*t_switch = 0;
	se_pin(0, other_cpu(cpu, -1));
	pid = duty_task(d1, d2, 400, cpu, t_switch);
	*traced = 0;
	if (pid > 0) {
		char filter[32];

		snprintf(filter, sizeof(filter), "pid == %d", pid);
		*traced = !se_trace_on(UTIL_EVENT, filter);
		se_sleep_ms(300);
		sample(pid, ms, s);
		se_kill(pid);
		se_trace_pause(UTIL_EVENT);
	}
	sw = __atomic_load_n(t_switch, __ATOMIC_ACQUIRE);
	munmap(t_switch, 4096);
	return sw;
}

/*
 * The task's traced events from 20 ms before a step to 40 ms after it,
 * logged when the step was seen late: what the tracker took from each
 * span and activation on the way.
 */
static void step_log(struct __test_metadata *_metadata, uint64_t sw)
{
	static struct util_event ev[4096];
	int n = util_events(ev, 4096), i;

	for (i = 0; i < n; i++)
		if (ev[i].t + 20000000ULL >= sw && ev[i].t <= sw + 40000000ULL)
			TH_LOG("  %+.2f ms: %c sample %ld demand %ld",
			       ((double)ev[i].t - (double)sw) / 1e6, ev[i].ev,
			       ev[i].sample, ev[i].demand);
}

/*
 * A d1% -> d2% step on the first big CPU: ms from the step until the
 * demand crosses level_pct% of what the task typically runs once settled
 * (ran_typical() from 200 ms after the step), -1 if never.  Timed by the
 * trace event when there is one (see se_trace_on()), else by the
 * sampler; the sampler's figure and PELT's util_avg and util_est for the
 * same run are logged next to it, and the traced events around the step
 * if it took longer than @bound_ms.
 */
static long step_response(struct __test_metadata *_metadata, int d1, int d2,
			  int run_ms, int level_pct, long bound_ms)
{
	static struct series s;
	int cpu = se_first_cpu(0), up = d2 > d1, traced;
	long level, t, t_trace = -1, truth;
	uint64_t sw;

	ASSERT_LE(0, cpu);
	sw = step_run(d1, d2, cpu, run_ms, &s, &traced);
	truth = sw ? ran_typical(&s, index_at(&s, sw + 200000000ULL),
				 PERIOD_US * 1000ULL) : -1;
	level = truth * level_pct / 100;
	if (traced && truth > 0)
		t_trace = se_trace_first_ms(sw, "demand", level, up);
	if (traced && truth > 0 && (t_trace < 0 || t_trace > bound_ms))
		step_log(_metadata, sw);
	se_trace_off(UTIL_EVENT);
	ASSERT_NE(0, sw) TH_LOG("the task never switched");
	ASSERT_LT(0, truth);
	t = first_time_ms(&s, s.demand, sw, level, up);
	TH_LOG("%d%%->%d%% on cpu%d: ran %ld, demand %s %ld after %ld ms (trace: %s%ld ms)",
	       d1, d2, cpu, truth, up ? ">=" : "<=", level, t,
	       traced ? "" : "none, ", t_trace);
	TH_LOG("%d%%->%d%% on cpu%d: util_avg after %ld ms, util_est after %ld ms (-1: > %d ms)",
	       d1, d2, cpu, first_time_ms(&s, s.util_avg, sw, level, up),
	       first_time_ms(&s, s.util_est, sw, level, up), s.n);
	return traced ? t_trace : t;
}

/* 10% -> 70% recognised (within 10% of what the task then runs) within 16 ms. */
TEST(step_up_within_16ms)
{
	long t;

	if (se_debug_kernel())
		SKIP(return, "timing bounds need a non-debug kernel");
	t = step_response(_metadata, 10, 70, 600, 90, 16);
	ASSERT_LE(0, t);
	EXPECT_GE(16, t);
}

/*
 * 70% -> 10% believed within 100 ms: the demand is the mean of the last
 * four spans (a lone 70% one left out), so it is down to the new level
 * three cycles (48 ms) after the switch.  "Down" is within a quarter of
 * what the task runs: one span stretched by a stalled vCPU must not stand
 * for a tracker that never let go of the old level (which stays at seven
 * times the new one).
 *
 * The tracker cannot see a span end before the task wakes, and a host
 * that stalls the vCPU wakes it late: the 100 ms are counted on the
 * task's own schedule, from the deadline of its first 10% activation to
 * that of the wakeup at which the traced demand is down
 * (se_duty_task_acts() notes how late each one ran), not to when the
 * host got round to them.  A stall can also stretch a burst (the task
 * stops when its own CPU time says so, and a stall between two of its
 * clock reads counts): such a span is really longer, the tracker is
 * right to count it, and it weighs on the demand for four spans.  So
 * "down" is judged against what the task itself ran: at most a quarter
 * above the larger of its settled share and, once the wakeup closes four
 * 10% spans, the mean of its own shares of those four (the tracker's
 * window; before that the demand still holds 70% spans, and a level
 * taken from fewer spans would let one stretched span excuse a tracker
 * that never let go).
 */
TEST(step_down_within_100ms)
{
	static struct util_event ev[4096];
	static long shares[SE_ACTS];
	int cpu = se_first_cpu(0), nev, n = 0, nsh = 0, j, traced;
	struct se_acts *acts = se_acts_map();
	uint64_t *t_switch = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	uint64_t sw, sw_due = 0, due = 0;
	unsigned int i, k = 0, last, first_low = 0;
	long settled, level = 0, mean = 0;
	char filter[32];
	pid_t pid;

	if (se_debug_kernel())
		SKIP(return, "timing bounds need a non-debug kernel");
	ASSERT_LE(0, cpu);
	ASSERT_NE(NULL, acts);
	ASSERT_NE(MAP_FAILED, t_switch);
	*t_switch = 0;
	se_pin(0, other_cpu(cpu, -1));
	pid = se_duty_task_acts(70, 10, 400, PERIOD_US, cpu, t_switch, acts);
	ASSERT_LT(0, pid);
	snprintf(filter, sizeof(filter), "pid == %d", pid);
	traced = !se_trace_on(UTIL_EVENT, filter);
	if (!traced)
		se_kill(pid);
	ASSERT_TRUE(traced);
	se_sleep_ms(800);
	se_trace_pause(UTIL_EVENT);
	se_kill(pid);
	nev = util_events(ev, 4096);
	se_trace_off(UTIL_EVENT);
	sw = __atomic_load_n(t_switch, __ATOMIC_ACQUIRE);
	last = __atomic_load_n(&acts->n, __ATOMIC_ACQUIRE);
	ASSERT_NE(0, sw) TH_LOG("the task never switched");
	/* What it runs once settled: its median share from 200 ms on. */
	for (i = 0; i + 1 < last; i++) {
		if (!sw_due && acts->t[i] >= sw) {
			sw_due = acts->t[i] - acts->late[i];	/* the first 10% one's */
			first_low = i;
		}
		if (acts->t[i] >= sw + 200000000ULL)
			shares[nsh++] = se_acts_share(acts, i);
	}
	ASSERT_NE(0, sw_due);
	ASSERT_LE(8, nsh);
	settled = se_median(shares, nsh);
	for (j = 0; j < nev; j++) {
		if (ev[j].ev != 'w' || ev[j].t < sw)
			continue;
		n++;
		/* the activation this wakeup started; it closed the spans before */
		for (i = 0; i < last && acts->t[i] < ev[j].t; i++)
			;
		if (i == last) {	/* the task stopped before it noted this one */
			j = nev;
			break;
		}
		due = acts->t[i] - acts->late[i];
		mean = 0;
		for (k = 0; k < 4 && i > first_low + k; k++)
			mean += se_acts_share(acts, i - 1 - k);
		mean = k == 4 ? mean / 4 : 0;
		level = (mean > settled ? mean : settled) * 125 / 100;
		if (ev[j].demand <= level)
			break;
	}
	ASSERT_LT(j, nev) TH_LOG("the demand never fell to %ld (the task ran %ld; last level %ld)",
				 settled * 125 / 100, settled, level);
	TH_LOG("70%%->10%% on cpu%d: runs %ld; demand %ld <= %ld at wakeup %d after the switch",
	       cpu, settled, ev[j].demand, level, n);
	TH_LOG("the task's own mean share of the four 10%% spans before it: %ld (0: fewer)",
	       mean);
	TH_LOG("that wakeup was due %.1f ms after the switch, traced at %.1f ms",
	       ((double)due - sw_due) / 1e6, ((double)ev[j].t - sw_due) / 1e6);
	EXPECT_GE(100000000LL, (int64_t)(due - sw_due));
}

/*
 * A new task that never sleeps: recognised as big (demand above 80%, more
 * than a LITTLE CPU's capacity) within 16 ms of its own running from its
 * start, timed by the trace (the child names itself as it starts, and
 * the tracker's events come at its ticks).  The task notes the gaps in its
 * running (se_busy_noting_gaps()): a vCPU the host does not run for a few
 * milliseconds delays the ticks that raise the demand by as much, and
 * that time is the host's, not the tracker's.
 */
TEST(new_task_within_16ms)
{
	static struct series s;
	struct shared {
		uint64_t t_start;
		struct se_gaps g;
	} *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int cpu = se_first_cpu(0), traced;
	long level = 1024 * 80 / 100;
	int64_t t = -1, t_trace = -1;
	uint64_t start, gaps = 0;
	pid_t pid;

	if (se_debug_kernel())
		SKIP(return, "timing bounds need a non-debug kernel");
	ASSERT_NE(MAP_FAILED, sh);
	memset(sh, 0, sizeof(*sh));
	traced = !se_trace_on(UTIL_EVENT, "comm == \"se_new_busy\"");
	/*
	 * Forked where it belongs, so that it never sleeps: a child that
	 * pinned itself would wait for the stopper that moves it, and that
	 * wakeup would close its first span (fork to migration, 19 ms on a
	 * slow host) and make it a task with a history.
	 */
	ASSERT_EQ(0, se_pin(0, cpu));
	pid = se_fork();
	if (!pid) {
		prctl(PR_SET_NAME, "se_new_busy");
		__atomic_store_n(&sh->t_start, se_now_ns(), __ATOMIC_RELEASE);
		se_busy_noting_gaps(&sh->g);
	}
	se_pin(0, other_cpu(cpu, -1));
	if (pid > 0) {
		sample(pid, 100, &s);
		se_kill(pid);
	}
	start = __atomic_load_n(&sh->t_start, __ATOMIC_ACQUIRE);
	if (traced && start)
		t_trace = se_trace_first_ns(start, "demand", level, 1);
	if (t_trace > 16000000)		/* what the tracker saw, for the log */
		se_trace_dump(start - 1000000, 12);
	se_trace_off(UTIL_EVENT);
	ASSERT_LT(0, pid);
	ASSERT_NE(0, start);
	t = first_time_ms(&s, s.demand, start, level, 1);
	TH_LOG("new busy task on cpu%d: demand >= %ld after %lld ms (trace: %s%lld ms)",
	       cpu, level, (long long)t, traced ? "" : "none, ",
	       t_trace < 0 ? -1LL : (long long)(t_trace / 1000000));
	TH_LOG("new busy task on cpu%d: util_avg >= %ld after %ld ms", cpu, level,
	       first_time_ms(&s, s.util_avg, start, level, 1));
	if (traced)
		t = t_trace;
	else if (t >= 0)
		t *= 1000000;
	if (t >= 0)
		gaps = se_gaps_within(&sh->g, start, start + t);
	TH_LOG("of which the task did not run %llu us (%u gaps over %llu us)",
	       (unsigned long long)gaps / 1000, sh->g.n, SE_GAP_NS / 1000);
	munmap(sh, sizeof(*sh));
	ASSERT_LE(0, t);
	EXPECT_GE(16000000, t - (int64_t)gaps);
}

/* A CPU's tasks' utilization without what other threads add there. */
static long own_util(int cpu, pid_t pid)
{
	return cpu_tasks_util(cpu) - others_contrib(cpu, pid, -1);
}

#define MOVES	5

/*
 * Moving a task moves its contribution (runnable + held) at its next
 * wakeup.  A 50% task goes from a LITTLE CPU to a big one and back,
 * MOVES times; the CPUs' figures come with whatever other threads add
 * there, which come and go between two reads (a new kworker counts 1/8
 * at once), so each move is measured and the median of the moves is
 * judged: the contribution left behind at most a tenth of the task's,
 * the one arriving at least nine tenths.
 */
TEST(migration_moves_contribution)
{
	int cpu[2] = { se_first_cpu(1), se_first_cpu(0) }, m, wrong_cpu = 0, moved;
	long left[MOVES], arrived[MOVES], d, before_dst, x, c0, c, cc;
	pid_t pid;
	int i;

	ASSERT_LE(0, cpu[0]);
	ASSERT_LE(0, cpu[1]);
	se_pin(0, other_cpu(cpu[0], cpu[1]));
	pid = duty_task(50, 50, 0, cpu[0], NULL);
	ASSERT_LT(0, pid);
	se_sleep_ms(300);
	d = demand_of(pid);
	for (m = 0; m < MOVES; m++) {
		int src = cpu[m % 2], dst = cpu[(m + 1) % 2];

		/* the destination's baseline: the lowest of three */
		before_dst = own_util(dst, pid);
		for (i = 0; i < 2; i++) {
			se_sleep_ms(4);
			x = own_util(dst, pid);
			before_dst = x < before_dst ? x : before_dst;
		}
		moved = !se_pin(pid, dst);
		if (!moved)
			se_kill(pid);
		ASSERT_TRUE(moved) TH_LOG("cannot move the task to cpu%d", dst);
		se_sleep_ms(2 * PERIOD_US / 1000);
		/*
		 * What moved is the task's contribution as it is when the
		 * CPUs are read: its demand follows its spans (one a stalled
		 * vCPU stretched lifts it by a third), so it is read just
		 * before and just after them, and the smaller one counts.
		 */
		c0 = se_task_sched_stat(pid, "sen.util.contrib");
		left[m] = own_util(src, pid);
		arrived[m] = own_util(dst, pid) - before_dst;
		c = se_task_sched_stat(pid, "sen.util.contrib");
		cc = se_task_sched_stat(pid, "sen.util.contrib_cpu");
		c = c < c0 ? c : c0;
		TH_LOG("move %d, cpu%d -> cpu%d: contributes %ld on cpu%ld; left %ld, arrived %ld",
		       m + 1, src, dst, c, cc, left[m], arrived[m]);
		wrong_cpu += cc != dst;
		EXPECT_LE(d / 2, c);
		/* per mille of the task's contribution */
		left[m] = c > 0 ? left[m] * 1000 / c : 1000;
		arrived[m] = c > 0 ? arrived[m] * 1000 / c : 0;
	}
	se_kill(pid);
	EXPECT_EQ(0, wrong_cpu);
	EXPECT_GE(100, se_median(left, MOVES));
	EXPECT_LE(900, se_median(arrived, MOVES));
}

/*
 * A CPU's signal is the sum of its tasks' demands, and those add up to
 * what the tasks really ran.  The CPU's own kernel threads count on it
 * as well: what they add is read from /proc and allowed for above, never
 * below, so a contribution left behind by a task that went away still
 * shows.
 */
TEST(cpu_is_sum_of_tasks)
{
	int cpu = se_first_cpu(0), i;
	long sum = 0, sd = 0, so = 0, v, o, truth;
	uint64_t r0, t0;
	pid_t p1, p2;

	se_pin(0, other_cpu(cpu, -1));
	p1 = duty_task(20, 20, 0, cpu, NULL);
	p2 = duty_task(30, 30, 0, cpu, NULL);
	ASSERT_LT(0, p1);
	ASSERT_LT(0, p2);
	se_sleep_ms(400);
	r0 = se_runtime_ns(p1) + se_runtime_ns(p2);
	t0 = se_now_ns();
	for (i = 0; i < 100; i++) {
		v = cpu_tasks_util(cpu);
		o = others_contrib(cpu, p1, p2);
		ASSERT_LE(0, v);
		ASSERT_LE(0, o);
		sum += v;
		so += o;
		sd += demand_of(p1) + demand_of(p2);
		se_sleep_ms(1);
	}
	truth = (se_runtime_ns(p1) + se_runtime_ns(p2) - r0) * 1024 / (se_now_ns() - t0);
	se_kill(p1);
	se_kill(p2);
	TH_LOG("cpu%d: mean signal %ld, mean sum of demands %ld, others %ld, ran %ld (nominal 512)",
	       cpu, sum / 100, sd / 100, so / 100, truth);
	EXPECT_LE(sd / 100 * 95 / 100, sum / 100);
	EXPECT_GE((sd + so) / 100 * 105 / 100, sum / 100);
	EXPECT_LE(truth * 90 / 100, sd / 100);
	EXPECT_GE(truth * 110 / 100, sd / 100);
}

/*
 * The per-task trace event carries the demand /proc shows: the task is
 * stopped while tracing, so the last event for it holds its final demand.
 */
TEST(trace_event_matches)
{
	static char buf[1 << 20];
	char want[64], *line, *save = NULL;
	int cpu = se_first_cpu(1), hits = 0, n;
	long last = -1, now;
	pid_t pid;

	if (access(SE_TRACEFS "/events/sched_energy/sen_util_task/enable", W_OK))
		SKIP(return, "no tracefs or no sched_energy events");
	ASSERT_EQ(0, se_write(SE_TRACEFS "/trace", ""));
	se_pin(0, other_cpu(cpu, -1));
	pid = duty_task(20, 20, 0, cpu, NULL);
	ASSERT_LT(0, pid);
	se_sleep_ms(200);
	ASSERT_EQ(0, se_write(SE_TRACEFS "/events/sched_energy/sen_util_task/enable", "1"));
	se_sleep_ms(100);
	kill(pid, SIGSTOP);
	se_sleep_ms(50);
	ASSERT_EQ(0, se_write(SE_TRACEFS "/events/sched_energy/sen_util_task/enable", "0"));
	now = demand_of(pid);
	se_kill(pid);
	ASSERT_LT(0, se_read(SE_TRACEFS "/trace", buf, sizeof(buf)));
	snprintf(want, sizeof(want), " pid=%d ", pid);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *p = strstr(line, "sen_util_task:");

		if (!p || !strstr(p, want))
			continue;
		p = strstr(p, "demand=");
		ASSERT_NE(NULL, p);
		n = sscanf(p, "demand=%ld", &last);
		ASSERT_EQ(1, n);
		hits += !!strstr(line, "ev=wakeup");
	}
	TH_LOG("%d wakeup events for pid %d; last demand %ld, /proc %ld", hits, pid, last, now);
	EXPECT_LE(4, hits);
	EXPECT_EQ(now, last);
	EXPECT_LT(0, last);
}

/* The policy file's "tracker:" line: 1 on, 0 off, -1 if unreadable. */
static long tracker(void)
{
	return se_stat(SE_POLICY, "tracker");
}

#define GOVERNOR0	"/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"

/* Wait up to @ms for the tracker to be @want; its last reading. */
static long tracker_within(long want, int ms)
{
	long v = tracker();

	for (; v != want && ms > 0; ms -= 10) {
		se_sleep_ms(10);
		v = tracker();
	}
	return v;
}

/*
 * With neither the policy nor the sched_energy governor in use, the
 * tracker's hooks do not act: a spinning task adds nothing to its CPU.
 * The policy switches it on before its first decision, and every queued
 * task counts at once; the policy off, and every sum is cleared.  A
 * cpufreq policy with the sched_energy governor switches it on too (a
 * work item does it, shortly after), and off when it leaves.
 */
TEST(tracker_only_while_used)
{
	int cpu = se_first_cpu(0), nr = se_nr_cpus(), c;
	long v, on, contrib_cpu;
	char gov[64];
	pid_t pid;

	if (cpu < 0)
		SKIP(return, "needs a big CPU");
	for (c = 0; c < nr; c++) {
		char path[96];

		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", c);
		if (!se_read_str(path, gov, sizeof(gov)) && !strcmp(gov, "sched_energy"))
			SKIP(return, "cpu%d's cpufreq policy runs the sched_energy governor", c);
	}
	ASSERT_EQ(0, se_write(SEN_SYSCTL, "0"));
	EXPECT_EQ(0, tracker());
	se_pin(0, other_cpu(cpu, -1));
	/* A spinner: runnable from before the tracker comes on, to the end. */
	pid = se_spinner(cpu);
	ASSERT_LT(0, pid);
	se_sleep_ms(100);
	EXPECT_EQ(0, cpu_tasks_util(cpu));
	EXPECT_EQ(-1, se_task_sched_stat(pid, "sen.util.contrib_cpu"));

	EXPECT_EQ(0, se_write(SEN_SYSCTL, "1"));
	on = tracker();
	/* Counted at once, at least as a new task (1/8 of 1024). */
	v = cpu_tasks_util(cpu);
	contrib_cpu = se_task_sched_stat(pid, "sen.util.contrib_cpu");
	TH_LOG("cpu%d: %ld with the spinner as the policy came on (demand %ld)",
	       cpu, v, demand_of(pid));
	EXPECT_EQ(1, on);
	EXPECT_LE(128, v);
	EXPECT_EQ(cpu, contrib_cpu);

	EXPECT_EQ(0, se_write(SEN_SYSCTL, "0"));
	on = tracker();
	for (c = 0; c < nr; c++) {
		v = cpu_tasks_util(c);	/* -1: offline, not listed */
		EXPECT_GE(0, v) TH_LOG("cpu%d still has %ld", c, v);
	}
	se_kill(pid);
	EXPECT_EQ(0, on);

	if (se_read_str(GOVERNOR0, gov, sizeof(gov)) ||
	    se_write(GOVERNOR0, "sched_energy")) {
		se_write(SEN_SYSCTL, "1");
		SKIP(return, "no sched_energy governor to switch to");
	}
	v = tracker_within(1, 2000);
	EXPECT_EQ(0, se_write(GOVERNOR0, gov));
	EXPECT_EQ(1, v);
	EXPECT_EQ(0, tracker_within(0, 2000));
	ASSERT_EQ(0, se_write(SEN_SYSCTL, "1"));
}

TEST_HARNESS_MAIN
