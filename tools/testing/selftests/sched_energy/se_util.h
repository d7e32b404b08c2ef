/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the sched_energy selftests: reading sysfs, debugfs and
 * the flattened device tree in /proc/device-tree, and CPU lists.
 */
#ifndef SE_UTIL_H
#define SE_UTIL_H

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#define SE_MAX_CPUS	64
#define SE_DT_CPUS	"/proc/device-tree/cpus"

typedef uint64_t se_mask_t;	/* one bit per CPU, SE_MAX_CPUS at most */

/* Read a whole (small) file into buf; returns its length or -errno. */
static inline int se_read(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	return n;
}

/* Read a file holding one decimal number; returns 0 or -errno. */
static inline int se_read_long(const char *path, long *val)
{
	char buf[64], *end;
	int n = se_read(path, buf, sizeof(buf));

	if (n < 0)
		return n;
	errno = 0;
	*val = strtol(buf, &end, 0);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}

/* Read a string file without its trailing newline; returns 0 or -errno. */
static inline int se_read_str(const char *path, char *buf, size_t size)
{
	int n = se_read(path, buf, size);

	if (n < 0)
		return n;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\0'))
		buf[--n] = '\0';
	return 0;
}

/* Parse a CPU list ("0-3,5") into a mask; returns 0 or -EINVAL. */
static inline int se_parse_cpulist(const char *s, se_mask_t *mask)
{
	*mask = 0;
	while (*s && *s != '\n') {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s || a < 0 || a >= SE_MAX_CPUS)
			return -EINVAL;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a || b >= SE_MAX_CPUS)
				return -EINVAL;
			s = end;
		}
		for (; a <= b; a++)
			*mask |= 1ULL << a;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	return 0;
}

/* Number of possible CPUs, from /sys/devices/system/cpu/possible. */
static inline int se_nr_cpus(void)
{
	char buf[128];
	se_mask_t m;
	int n = 0;

	if (se_read_str("/sys/devices/system/cpu/possible", buf, sizeof(buf)) ||
	    se_parse_cpulist(buf, &m))
		return -1;
	while (m) {
		n += m & 1;
		m >>= 1;
	}
	return n;
}

/* cpu_capacity of a CPU, or -1. */
static inline long se_cpu_capacity(int cpu)
{
	char path[128];
	long cap;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpu_capacity", cpu);
	return se_read_long(path, &cap) ? -1 : cap;
}

/*
 * Do two CPUs share a cpufreq policy (a performance domain)?  From
 * cpufreq's related_cpus ("0 1 2 3"); CPUs of equal capacity when it is
 * missing.
 */
static inline int se_same_domain(int a, int b)
{
	char path[128], buf[256], *s = buf, *end;
	long c;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/related_cpus", a);
	if (se_read_str(path, buf, sizeof(buf)))
		return se_cpu_capacity(a) == se_cpu_capacity(b);
	for (;;) {
		c = strtol(s, &end, 10);
		if (end == s)
			return 0;
		if (c == b)
			return 1;
		s = end;
	}
}

/* Is @cpu LITTLE (capacity < 1024) or big (1024), as @little asks? */
static inline int se_cpu_is(int cpu, int little)
{
	long cap = se_cpu_capacity(cpu);

	return cap > 0 && (little ? cap < 1024 : cap == 1024);
}

/* The first LITTLE or big CPU (se_cpu_is()), or -1. */
static inline int se_first_cpu(int little)
{
	int nr = se_nr_cpus(), cpu;

	for (cpu = 0; cpu < nr; cpu++)
		if (se_cpu_is(cpu, little))
			return cpu;
	return -1;
}

/* The last LITTLE or big CPU, or -1: away from CPU0 and its interrupts. */
static inline int se_last_cpu(int little)
{
	int cpu;

	for (cpu = se_nr_cpus() - 1; cpu >= 0; cpu--)
		if (se_cpu_is(cpu, little))
			return cpu;
	return -1;
}

/*
 * The last CPU of the smallest capacity, or -1: se_last_cpu(1) where
 * there are two sizes, a CPU of the LITTLE cluster, not of the middle
 * one, where there are three.
 */
static inline int se_last_smallest_cpu(void)
{
	long cap, least = -1;
	int cpu, last = -1;

	for (cpu = se_nr_cpus() - 1; cpu >= 0; cpu--) {
		cap = se_cpu_capacity(cpu);
		if (cap > 0 && (least < 0 || cap < least)) {
			least = cap;
			last = cpu;
		}
	}
	return last;
}

/* qsort() comparison of longs, ascending. */
static inline int se_cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

/* The median of @n (1..1024) values; @v is left as it is. */
static inline long se_median(const long *v, int n)
{
	static long tmp[1024];

	memcpy(tmp, v, n * sizeof(*v));
	qsort(tmp, n, sizeof(*tmp), se_cmp_long);
	return tmp[n / 2];
}

/* Read a big-endian u32 array property of the device tree. */
static inline int se_dt_u32s(const char *path, uint32_t *val, int max)
{
	unsigned char buf[4 * 64];
	FILE *f = fopen(path, "rb");
	size_t n;
	int i;

	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (n % 4)
		return -EINVAL;
	for (i = 0; i < (int)n / 4 && i < max; i++)
		val[i] = (uint32_t)buf[4 * i] << 24 | buf[4 * i + 1] << 16 |
			 buf[4 * i + 2] << 8 | buf[4 * i + 3];
	return i;
}

/* Device-tree node of a CPU (QEMU virt names them cpu@N with reg N). */
static inline void se_dt_cpu_path(char *buf, size_t size, int cpu, const char *prop)
{
	snprintf(buf, size, SE_DT_CPUS "/cpu@%x/%s", cpu, prop);
}

/* Map a device-tree phandle to a CPU number, or -1. */
static inline int se_dt_phandle_to_cpu(uint32_t phandle, int nr_cpus)
{
	char path[256];
	uint32_t ph = 0;
	int cpu;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		se_dt_cpu_path(path, sizeof(path), cpu, "phandle");
		if (se_dt_u32s(path, &ph, 1) == 1 && ph == phandle)
			return cpu;
	}
	return -1;
}

/* ---- periodic tasks -------------------------------------------------- */

#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>

static inline uint64_t se_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static inline void se_sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Move a task to one CPU. */
static inline int se_pin(pid_t pid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(pid, sizeof(set), &set);
}

/*
 * Where a periodic task ran, as the task itself reports it: each period
 * counts once, on the CPU its busy part starts on.  Nothing samples the
 * task, so watching it costs no CPU time that would count as load on the
 * CPUs it is watched on.  Lives in a shared mapping (se_where_map()).
 */
struct se_where {
	unsigned long periods[SE_MAX_CPUS];
};

static inline struct se_where *se_where_map(void)
{
	void *p = mmap(NULL, sizeof(struct se_where), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* A copy of @w's counts as they are now. */
static inline void se_where_snap(const struct se_where *w, struct se_where *snap)
{
	int i;

	for (i = 0; i < SE_MAX_CPUS; i++)
		snap->periods[i] = __atomic_load_n(&w->periods[i], __ATOMIC_RELAXED);
}

/*
 * fork() for a test's load: the child is killed when the process that
 * forked it ends, also when an assertion aborts it before it could kill
 * its load (a stray spinner skews every later test, and keeps the output
 * pipe of the run open, which then never ends).
 */
static inline pid_t se_fork(void)
{
	pid_t parent = getpid(), pid = fork();

	if (!pid && (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent))
		_exit(1);
	return pid;
}

/*
 * Fork a task that is busy for duty_pct percent of every period_us and
 * sleeps the rest, on absolute deadlines, until killed.  On an emulated
 * board with speed-equalised invariance its utilization is about
 * duty_pct% of 1024 wherever it runs.  cpu >= 0 pins it; @where, if not
 * NULL, counts its periods per CPU.  Returns the pid.
 */
static inline pid_t se_periodic_task_where(unsigned int duty_pct, unsigned int period_us,
					   int cpu, struct se_where *where)
{
	pid_t pid = se_fork();

	if (pid)
		return pid;
	if (cpu >= 0 && se_pin(0, cpu))
		_exit(2);
	{
		uint64_t period = (uint64_t)period_us * 1000;
		uint64_t busy = period * duty_pct / 100;
		uint64_t next = se_now_ns();

		for (;;) {
			struct timespec ts;
			int c = where ? sched_getcpu() : -1;

			if (c >= 0 && c < SE_MAX_CPUS)
				__atomic_fetch_add(&where->periods[c], 1, __ATOMIC_RELAXED);
			while (se_now_ns() < next + busy)
				;
			next += period;
			ts.tv_sec = next / 1000000000ULL;
			ts.tv_nsec = next % 1000000000ULL;
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		}
	}
}

/*
 * Fork a task that never leaves the runqueue: a 100% periodic task still
 * calls clock_nanosleep() once a period, and with a deadline a few ns
 * away it sleeps until the timer interrupt, which a stalled vCPU can
 * delay by milliseconds.  cpu >= 0 pins it.  Returns the pid.
 */
static inline pid_t se_spinner(int cpu)
{
	pid_t pid = se_fork();

	if (pid)
		return pid;
	if (cpu >= 0 && se_pin(0, cpu))
		_exit(2);
	for (;;)
		;
}

static inline pid_t se_periodic_task(unsigned int duty_pct, unsigned int period_us, int cpu)
{
	return se_periodic_task_where(duty_pct, period_us, cpu, NULL);
}

/*
 * A busy loop that notes when it did not run: a gap of more than
 * SE_GAP_NS between two readings of the clock is time its CPU spent on
 * something else (a long interrupt, another task) or, under emulation,
 * time the host did not run the vCPU at all.  A timing bound on what the
 * scheduler makes of a busy task is a bound on the task's own running
 * time; the gaps tell how much of the time that passed it did not get.
 * @g lives in a shared mapping; the loop never returns.
 */
#define SE_GAP_NS	1000000ULL
#define SE_GAPS		512

struct se_gaps {
	unsigned int n;
	uint64_t at[SE_GAPS], len[SE_GAPS];
};

static inline void se_busy_noting_gaps(struct se_gaps *g)
{
	uint64_t prev = se_now_ns(), now;

	for (;;) {
		now = se_now_ns();
		if (now - prev > SE_GAP_NS && g->n < SE_GAPS) {
			g->at[g->n] = prev;
			g->len[g->n] = now - prev;
			__atomic_store_n(&g->n, g->n + 1, __ATOMIC_RELEASE);
		}
		prev = now;
	}
}

/* How much of [@from, @to) (ns, CLOCK_MONOTONIC) lies in @g's gaps. */
static inline uint64_t se_gaps_within(const struct se_gaps *g, uint64_t from, uint64_t to)
{
	unsigned int i, n = __atomic_load_n(&g->n, __ATOMIC_ACQUIRE);
	uint64_t sum = 0;

	for (i = 0; i < n; i++) {
		uint64_t a = g->at[i] > from ? g->at[i] : from;
		uint64_t b = g->at[i] + g->len[i] < to ? g->at[i] + g->len[i] : to;

		if (b > a)
			sum += b - a;
	}
	return sum;
}

static inline void se_kill(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

/* CPU time a task has run, ns (/proc/PID/schedstat), or 0. */
static inline uint64_t se_runtime_ns(pid_t pid)
{
	char path[64], buf[128];

	snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
	if (se_read(path, buf, sizeof(buf)) < 0)
		return 0;
	return strtoull(buf, NULL, 10);
}

/* CPU time this thread has run, ns: what the scheduler accounts. */
static inline uint64_t se_thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * Each activation of a periodic task as the task itself saw it: when its
 * burst began (CLOCK_MONOTONIC ns), how late that was after the deadline
 * it slept until, and its own CPU time then.  Two
 * neighbours give the share of its span the task ran, measured by the
 * task and not by what a test checks; a host stall shows in it as a
 * share off the task's usual one.  Lives in a shared mapping
 * (se_acts_map()); the task stops noting when it is full.
 */
#define SE_ACTS		1024

struct se_acts {
	unsigned int n;
	uint64_t t[SE_ACTS], cpu_ns[SE_ACTS], late[SE_ACTS];
};

static inline struct se_acts *se_acts_map(void)
{
	void *p = mmap(NULL, sizeof(struct se_acts), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* Share of span @i (activation @i to @i + 1) the task ran, 0..1024. */
static inline long se_acts_share(const struct se_acts *a, unsigned int i)
{
	return (long)((a->cpu_ns[i + 1] - a->cpu_ns[i]) * 1024 /
		      (a->t[i + 1] - a->t[i]));
}

/*
 * Fork a task at period_us that runs @d1 percent of every period until
 * @switch_ms, then @d2 percent; with @t_switch (shared memory), it stores
 * the time its first @d2 burst started (CLOCK_MONOTONIC ns) there; with
 * @acts, it notes each activation.  Its bursts are measured in its own
 * CPU time, so a late timer wakeup or a preempted vCPU on the emulator
 * does not change how much it runs: its utilization is the duty cycle
 * the test expects.  cpu >= 0 pins it.
 */
static inline pid_t se_duty_task_acts(int d1, int d2, int switch_ms, unsigned int period_us,
				      int cpu, uint64_t *t_switch, struct se_acts *acts)
{
	pid_t pid = se_fork();
	uint64_t period = period_us * 1000ULL, next, end, start;
	int duty = d1;

	if (pid)
		return pid;
	if (cpu >= 0)
		se_pin(0, cpu);
	next = se_now_ns();
	end = next + switch_ms * 1000000ULL;
	for (;;) {
		struct timespec ts;

		if (duty != d2 && next >= end) {
			duty = d2;
			/* the step: when the first longer/shorter burst starts */
			if (t_switch)
				__atomic_store_n(t_switch, se_now_ns(), __ATOMIC_RELEASE);
		}
		start = se_thread_ns();
		if (acts && acts->n < SE_ACTS) {
			acts->t[acts->n] = se_now_ns();
			acts->late[acts->n] = acts->t[acts->n] - next;
			acts->cpu_ns[acts->n] = start;
			__atomic_store_n(&acts->n, acts->n + 1, __ATOMIC_RELEASE);
		}
		while (se_thread_ns() < start + period * duty / 100)
			;
		next += period;
		ts.tv_sec = next / 1000000000ULL;
		ts.tv_nsec = next % 1000000000ULL;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
}

static inline pid_t se_duty_task(int d1, int d2, int switch_ms, unsigned int period_us,
				 int cpu, uint64_t *t_switch)
{
	return se_duty_task_acts(d1, d2, switch_ms, period_us, cpu, t_switch, NULL);
}

/* A number of a CPU's cpufreq directory (scaling_cur_freq, ...), or -1. */
static inline long se_cpufreq(int cpu, const char *file)
{
	char path[128];
	long f;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/%s", cpu, file);
	return se_read_long(path, &f) ? -1 : f;
}

/*
 * Time a CPU's cpufreq policy has spent at each frequency since boot
 * (cpufreq stats, in 10 ms units).  Two readings give a window's
 * frequency residency with nothing running to sample it.
 */
struct se_tis {
	int n;
	long freq[64];
	long long t[64];
};

/* Read @cpu's time_in_state into @s; returns 0 or -errno. */
static inline int se_time_in_state(int cpu, struct se_tis *s)
{
	char path[128], buf[4096], *line, *save = NULL;
	int n;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/stats/time_in_state",
		 cpu);
	n = se_read(path, buf, sizeof(buf));
	if (n < 0)
		return n;
	s->n = 0;
	for (line = strtok_r(buf, "\n", &save); line && s->n < 64;
	     line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "%ld %lld", &s->freq[s->n], &s->t[s->n]) == 2)
			s->n++;
	return s->n ? 0 : -ENODATA;
}

/* The time between two readings of the same policy, or -1 if they differ. */
static inline long long se_tis_total(const struct se_tis *a, const struct se_tis *b)
{
	long long total = 0;
	int i;

	if (a->n != b->n)
		return -1;
	for (i = 0; i < a->n; i++) {
		if (a->freq[i] != b->freq[i] || b->t[i] < a->t[i])
			return -1;
		total += b->t[i] - a->t[i];
	}
	return total;
}

/*
 * The median frequency over the time between two readings of the same
 * policy: the lowest frequency at or below which it spent at least half
 * of that time.  -1 when the readings do not match or no time passed.
 */
static inline long se_tis_median(const struct se_tis *a, const struct se_tis *b)
{
	long long total = se_tis_total(a, b), below = 0;
	long best = -1;
	int i, j;

	if (total <= 0)
		return -1;
	/* the table's order is the driver's: walk it by rising frequency */
	for (j = 0; j < a->n; j++) {
		long f = -1;

		for (i = 0; i < a->n; i++)
			if (a->freq[i] > best && (f < 0 || a->freq[i] < f))
				f = a->freq[i];
		if (f < 0)
			break;
		best = f;
		for (i = 0; i < a->n; i++)
			if (a->freq[i] == f)
				below += b->t[i] - a->t[i];
		if (2 * below >= total)
			return f;
	}
	return best;
}

/* Of the time between two readings, the share at @freq in 1/1000, or -1. */
static inline long se_tis_share(const struct se_tis *a, const struct se_tis *b, long freq)
{
	long long total = se_tis_total(a, b), at = 0;
	int i;

	if (total <= 0)
		return -1;
	for (i = 0; i < a->n; i++)
		if (a->freq[i] == freq)
			at += b->t[i] - a->t[i];
	return (long)(at * 1000 / total);
}

/* The CPU a task last ran on (field 39 of /proc/PID/stat), or -1. */
static inline int se_task_cpu(pid_t pid)
{
	char path[64], buf[1024], *p;
	int field;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (se_read(path, buf, sizeof(buf)) < 0)
		return -1;
	p = strrchr(buf, ')');		/* comm may contain spaces */
	if (!p)
		return -1;
	for (field = 2; field < 39 && p; field++)
		p = strchr(p + 1, ' ');
	return p ? atoi(p + 1) : -1;
}

/* A "name : value" number of /proc/PID/sched (CONFIG_SCHED_DEBUG), or -1. */
static inline long se_task_sched_stat(pid_t pid, const char *name)
{
	char path[64], buf[8192], *p;
	size_t len = strlen(name);

	snprintf(path, sizeof(path), "/proc/%d/sched", pid);
	if (se_read(path, buf, sizeof(buf)) < 0)
		return -1;
	for (p = buf; (p = strstr(p, name)); p += len) {
		if ((p == buf || p[-1] == '\n') && (p[len] == ' ' || p[len] == ':')) {
			p = strchr(p, ':');
			return p ? atol(p + 1) : -1;
		}
	}
	return -1;
}

/*
 * A lockdep/KASAN kernel: its overhead stretches every kernel path, so
 * tests of timing bounds skip there.
 */
static inline int se_debug_kernel(void)
{
	return access("/proc/lockdep", F_OK) == 0;
}

/* A "name: value" number of a file (the sched_energy debugfs files), or -1. */
static inline long se_stat(const char *file, const char *name)
{
	char buf[2048], *p;
	size_t len = strlen(name);

	if (se_read(file, buf, sizeof(buf)) < 0)
		return -1;
	for (p = buf; (p = strstr(p, name)); p += len)
		if ((p == buf || p[-1] == '\n') && p[len] == ':')
			return atol(p + len + 1);
	return -1;
}

#define SE_POLICY	"/sys/kernel/debug/sched_energy/policy"
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* sched_energy placement decisions made so far, whatever their outcome. */
static inline long se_decisions(void)
{
	return se_stat(SE_POLICY, "decisions");
}

/* Write a string to a sysfs/procfs file; 0 or -errno. */
static inline int se_write(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (!f)
		return -errno;
	if (fputs(val, f) < 0)
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

/* Write a number to a sysfs/procfs/debugfs file; 0 or -errno. */
static inline int se_write_long(const char *path, long val)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%ld", val);
	return se_write(path, buf);
}

#define SE_TRACEFS	"/sys/kernel/tracing"

/*
 * Trace @event ("sched_energy/sen_util_task", "power/cpu_frequency")
 * where @filter holds, stamped with CLOCK_MONOTONIC (trace_clock "mono",
 * the clock of se_now_ns()), into an emptied buffer.  A sampler on
 * another vCPU sees a change late when the host stalls that vCPU (by
 * 20-190 ms now and then on a loaded host); the event's time is when the
 * kernel made it.  Return: 0, or -1 if the event cannot be traced.
 */
static inline int se_trace_on(const char *event, const char *filter)
{
	char path[128], ctl[160];

	snprintf(path, sizeof(path), SE_TRACEFS "/events/%s/", event);
	snprintf(ctl, sizeof(ctl), "%senable", path);
	if (access(ctl, W_OK) || se_write(SE_TRACEFS "/trace_clock", "mono"))
		return -1;
	snprintf(ctl, sizeof(ctl), "%sfilter", path);
	if (se_write(ctl, filter) || se_write(SE_TRACEFS "/trace", ""))
		return -1;
	snprintf(ctl, sizeof(ctl), "%senable", path);
	return se_write(ctl, "1") ? -1 : 0;
}

/* Stop tracing @event; the buffer is kept for se_trace_first_ms(). */
static inline void se_trace_pause(const char *event)
{
	char ctl[160];

	snprintf(ctl, sizeof(ctl), SE_TRACEFS "/events/%s/enable", event);
	se_write(ctl, "0");
}

/* Stop tracing @event, drop its filter, back to the default clock. */
static inline void se_trace_off(const char *event)
{
	char ctl[160];

	se_trace_pause(event);
	snprintf(ctl, sizeof(ctl), SE_TRACEFS "/events/%s/filter", event);
	se_write(ctl, "0");
	se_write(SE_TRACEFS "/trace_clock", "local");
}

/*
 * Split a trace line, "comm-pid [cpu] flags seconds.micros: event: ...",
 * at its time: the time in ns into @t, what follows it into @body.
 * Returns 0, or -1 for a comment or a line that is no event.
 */
static inline int se_trace_event(char *line, double *t, char **body)
{
	char *p = strstr(line, ": "), *ts;

	if (line[0] == '#' || !p)
		return -1;
	*p = '\0';
	ts = strrchr(line, ' ');
	*t = atof(ts ? ts + 1 : line) * 1e9;
	*body = p + 1;
	return 0;
}

/*
 * ns from @from (CLOCK_MONOTONIC ns) to the first traced event at or
 * after it whose "@field=" value reaches @level (@rising) or falls to it;
 * -1 if none.
 */
static inline int64_t se_trace_first_ns(uint64_t from, const char *field, long level,
					int rising)
{
	static char buf[1 << 20];
	char *line, *save = NULL, *body, *p, key[40];
	long v;
	double t;

	if (se_read(SE_TRACEFS "/trace", buf, sizeof(buf)) < 0)
		return -1;
	snprintf(key, sizeof(key), " %s=", field);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (se_trace_event(line, &t, &body) || t + 1000 < (double)from)
			continue;
		p = strstr(body, key);
		if (!p || sscanf(p + strlen(key), "%ld", &v) != 1)
			continue;
		if (rising ? v >= level : v <= level)
			return t > (double)from ? (int64_t)(t - (double)from) : 0;
	}
	return -1;
}

/* The same in whole milliseconds, or -1. */
static inline long se_trace_first_ms(uint64_t from, const char *field, long level,
				     int rising)
{
	int64_t ns = se_trace_first_ns(from, field, level, rising);

	return ns < 0 ? -1 : (long)(ns / 1000000);
}

/* Print up to @max traced events from @from on to stderr, as "# " lines. */
static inline void se_trace_dump(uint64_t from, int max)
{
	static char buf[1 << 20];
	char *line, *save = NULL, *body;
	double t;

	if (se_read(SE_TRACEFS "/trace", buf, sizeof(buf)) < 0)
		return;
	for (line = strtok_r(buf, "\n", &save); line && max > 0;
	     line = strtok_r(NULL, "\n", &save)) {
		if (se_trace_event(line, &t, &body) || t + 1000 < (double)from)
			continue;
		fprintf(stderr, "# %.3f ms:%s\n", (t - (double)from) / 1e6, body);
		max--;
	}
}

#endif /* SE_UTIL_H */
