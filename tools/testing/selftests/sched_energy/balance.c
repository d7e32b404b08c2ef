// SPDX-License-Identifier: GPL-2.0
/*
 * The sched-energy load balancer and its per-domain tipping point, with
 * kernel.sched_energy=1:
 *
 *  - two tasks that never sleep, stacked on one LITTLE CPU and then let go,
 *    are separated by the energy-aware balancer (its push/pull counters
 *    move) within a bounded time, without a wakeup to re-place them;
 *  - a task that shrinks from 80% to 10% of a big CPU ends up LITTLE, and
 *    so does one that never sleeps, throttled from 80% to 10% by CFS
 *    bandwidth (cgroup v2 cpu.max): the balancer moves it, not a wakeup;
 *  - one 90% task on a big CPU tips no domain: small tasks are still
 *    placed by energy (no "overutilized" decision) on the LITTLE cluster;
 *  - more never-sleeping tasks than LITTLE CPUs tip the LITTLE domain, its
 *    release untips it, and a burst shorter than the tipping delay does
 *    not flip it at all;
 *  - a misfit task on a LITTLE CPU reaches an idle big CPU (LISA's misfit
 *    check) and stays there.
 *
 * Counters and tipping states come from /sys/kernel/debug/sched_energy/
 * balance and policy.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "se_util.h"

#define SEN_SYSCTL	"/proc/sys/kernel/sched_energy"
#define POLICY		SE_POLICY
#define BALANCE		"/sys/kernel/debug/sched_energy/balance"
#define PERIOD_US	16000
#define CGROOT		"/sys/fs/cgroup"
#define CG		CGROOT "/se_balance"

static long moves(void)
{
	return se_stat(BALANCE, "pushes") + se_stat(BALANCE, "pulls");
}

/*
 * "tipped=" or "flips=" of the domain holding @cpu, from the policy
 * file's "domainN: cpus=LIST tipped=T flips=F" lines; -1 if not found.
 */
static long domain_stat(int cpu, const char *what)
{
	char buf[2048], *line, *save, *p;
	se_mask_t mask;

	if (se_read(POLICY, buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char list[64];

		p = strstr(line, "cpus=");
		if (strncmp(line, "domain", 6) || !p)
			continue;
		if (sscanf(p, "cpus=%63s", list) != 1 || se_parse_cpulist(list, &mask))
			continue;
		if (!(mask & (1ULL << cpu)))
			continue;
		p = strstr(line, what);
		return p ? atol(p + strlen(what)) : -1;
	}
	return -1;
}

/*
 * ns until the domain of @cpu reads tipped=@want (at least 1), 0 if it
 * does not within 1 s; polled every 2 ms.
 */
static uint64_t until_tipped(int cpu, long want)
{
	uint64_t t0 = se_now_ns();

	while (se_now_ns() - t0 < 1000000000ULL) {
		if (domain_stat(cpu, "tipped=") == want)
			return se_now_ns() - t0 + 1;
		se_sleep_ms(2);
	}
	return 0;
}

/* Of @n samples 2 ms apart, those in which @cpu's domain reads tipped=@want. */
static int tipped_samples(int cpu, long want, int n)
{
	int k, hits = 0;

	for (k = 0; k < n; k++) {
		hits += domain_stat(cpu, "tipped=") == want;
		se_sleep_ms(2);
	}
	return hits;
}

/* Let a task run on every CPU. */
static int unpin(pid_t pid)
{
	cpu_set_t set;
	int cpu;

	CPU_ZERO(&set);
	for (cpu = 0; cpu < se_nr_cpus(); cpu++)
		CPU_SET(cpu, &set);
	return sched_setaffinity(pid, sizeof(set), &set);
}

static int nr_little(void)
{
	int cpu, n = 0;

	for (cpu = 0; cpu < se_nr_cpus(); cpu++)
		n += se_cpu_is(cpu, 1);
	return n;
}

FIXTURE(bal) {
	long sen;
};

FIXTURE_SETUP(bal)
{
	if (access(SEN_SYSCTL, F_OK))
		SKIP(return, "no kernel.sched_energy (CONFIG_SCHED_ENERGY=n)");
	if (se_first_cpu(1) < 0 || se_first_cpu(0) < 0)
		SKIP(return, "needs LITTLE and big CPUs");
	ASSERT_EQ(0, se_read_long(SEN_SYSCTL, &self->sen));
	ASSERT_EQ(0, access(BALANCE, R_OK)) TH_LOG("no %s", BALANCE);
	ASSERT_EQ(0, se_write(SEN_SYSCTL, "1"));
	/* This process samples from a big CPU, away from what it watches. */
	ASSERT_EQ(0, se_pin(0, se_first_cpu(0)));
}

FIXTURE_TEARDOWN(bal)
{
	se_write(SEN_SYSCTL, self->sen ? "1" : "0");
}

/*
 * Two never-sleeping tasks on one big CPU, then free to go anywhere: no
 * wakeup will ever place them again, neither is misfit (the CPU is the
 * biggest), and mainline EAS below its tipping point would leave them
 * stacked.  The energy-aware balancer must separate them within 500 ms
 * (its push/pull counters move) and keep them apart (in 8 of 10 samples
 * of the next 100 ms).  This process samples from a LITTLE CPU.
 */
TEST_F(bal, stacked_spinners_separate)
{
	int l = se_first_cpu(0) + 1, i, apart = 0;
	long before;
	uint64_t t0, t = 0;
	pid_t a, b;

	if (l >= se_nr_cpus() || se_cpu_is(l, 1))
		l--;
	ASSERT_EQ(0, se_pin(0, se_first_cpu(1)));
	a = se_spinner(l);
	b = se_spinner(l);
	ASSERT_LT(0, a);
	ASSERT_LT(0, b);
	se_sleep_ms(300);
	EXPECT_EQ(se_task_cpu(a), se_task_cpu(b));
	before = moves();
	t0 = se_now_ns();
	ASSERT_EQ(0, unpin(a));
	ASSERT_EQ(0, unpin(b));
	while (se_now_ns() - t0 < 1000000000ULL) {
		if (se_task_cpu(a) != se_task_cpu(b)) {
			t = se_now_ns() - t0;
			break;
		}
		se_sleep_ms(2);
	}
	for (i = 0; t && i < 10; i++) {
		se_sleep_ms(10);
		apart += se_task_cpu(a) != se_task_cpu(b);
	}
	TH_LOG("apart after %llu ms (cpus %d, %d), then in %d/10 samples",
	       (unsigned long long)t / 1000000, se_task_cpu(a), se_task_cpu(b), apart);
	TH_LOG("%ld balancer moves; domain tipped=%ld flips=%ld", moves() - before,
	       domain_stat(l, "tipped="), domain_stat(l, "flips="));
	se_kill(a);
	se_kill(b);
	ASSERT_NE(0, t) TH_LOG("still stacked after 1 s");
	EXPECT_LE(t, 500000000ULL);
	EXPECT_LE(8, apart);
	EXPECT_LE(1, moves() - before);
}

/*
 * A task at 80% of a big CPU that drops to 10%: it belongs on a LITTLE CPU
 * then, and is there in 7 of 10 samples within 500 ms of the drop.  (It
 * wakes every period, so wakeup placement may be what moves it; tasks
 * that never sleep are the balancer's, above.)
 */
TEST_F(bal, shrinking_task_moves_down)
{
	int big = se_first_cpu(0) + 1, i, little = 0;
	uint64_t *t_switch = mmap(NULL, sizeof(*t_switch), PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pid;

	ASSERT_NE(MAP_FAILED, t_switch);
	if (se_cpu_is(big, 1) || se_cpu_capacity(big) < 0)
		big--;
	pid = se_duty_task(80, 10, 400, PERIOD_US, big, t_switch);
	ASSERT_LT(0, pid);
	se_sleep_ms(300);
	EXPECT_FALSE(se_cpu_is(se_task_cpu(pid), 1));
	ASSERT_EQ(0, unpin(pid));
	while (!__atomic_load_n(t_switch, __ATOMIC_ACQUIRE))
		se_sleep_ms(5);
	se_sleep_ms(400);
	for (i = 0; i < 10; i++) {
		little += se_cpu_is(se_task_cpu(pid), 1);
		se_sleep_ms(10);
	}
	TH_LOG("after 80%% -> 10%%: on LITTLE in %d/10 samples", little);
	se_kill(pid);
	munmap(t_switch, sizeof(*t_switch));
	EXPECT_LE(7, little);
}

/* A task's voluntary context switches (/proc/PID/status), -1 if unknown. */
static long nvcsw(pid_t pid)
{
	char path[64], buf[2048], *p;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (se_read(path, buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, "\nvoluntary_ctxt_switches:");
	return p ? atol(p + strlen("\nvoluntary_ctxt_switches:")) : -1;
}

/*
 * A cgroup v2 group with the cpu controller at CG; mounts cgroup2 if it
 * is not.  Returns 0, or -1 when the kernel has no CFS bandwidth control.
 */
static int cg_setup(void)
{
	if (access(CGROOT "/cgroup.controllers", F_OK)) {
		mkdir(CGROOT, 0755);
		if (mount("cgroup2", CGROOT, "cgroup2", 0, NULL))
			return -1;
	}
	if (se_write(CGROOT "/cgroup.subtree_control", "+cpu"))
		return -1;
	if (mkdir(CG, 0755) && errno != EEXIST)
		return -1;
	return access(CG "/cpu.max", W_OK);
}

/*
 * A task that never sleeps on a big CPU, throttled to 80% of it (40 of
 * every 50 ms), then to 10%: no wakeup will place it again (throttling
 * keeps it queued), so only the tracker's roll of its span at the tick
 * sees it shrink and only the balancer can move it down.  It must be on a
 * LITTLE CPU within 1 s of the change, and there in 7 of the 10 samples
 * of the next 100 ms, the balancer's counters having moved and the task
 * never having slept.
 */
TEST_F(bal, throttled_spinner_moves_down)
{
	int big = se_first_cpu(0) + 1, i, little = 0;
	long sw, before;
	uint64_t t0, t = 0;
	char pid_s[16];
	pid_t pid;

	if (cg_setup())
		SKIP(return, "no cgroup v2 cpu.max (CONFIG_CFS_BANDWIDTH)");
	if (se_cpu_is(big, 1) || se_cpu_capacity(big) < 0)
		big--;
	ASSERT_EQ(0, se_write(CG "/cpu.max", "40000 50000"));
	pid = se_spinner(big);
	ASSERT_LT(0, pid);
	snprintf(pid_s, sizeof(pid_s), "%d", pid);
	ASSERT_EQ(0, se_write(CG "/cgroup.procs", pid_s));
	se_sleep_ms(300);
	ASSERT_EQ(0, unpin(pid));
	se_sleep_ms(300);
	EXPECT_FALSE(se_cpu_is(se_task_cpu(pid), 1)) TH_LOG("80%% task on cpu%d", se_task_cpu(pid));
	sw = nvcsw(pid);
	before = moves();
	t0 = se_now_ns();
	ASSERT_EQ(0, se_write(CG "/cpu.max", "5000 50000"));
	while (se_now_ns() - t0 < 2000000000ULL) {
		if (se_cpu_is(se_task_cpu(pid), 1)) {
			t = se_now_ns() - t0;
			break;
		}
		se_sleep_ms(5);
	}
	for (i = 0; t && i < 10; i++) {
		se_sleep_ms(10);
		little += se_cpu_is(se_task_cpu(pid), 1);
	}
	TH_LOG("80%% -> 10%%: on LITTLE cpu%d after %llu ms, then in %d/10 samples",
	       se_task_cpu(pid), (unsigned long long)t / 1000000, little);
	TH_LOG("%ld balancer moves, %ld voluntary switches", moves() - before, nvcsw(pid) - sw);
	EXPECT_EQ(sw, nvcsw(pid));
	se_kill(pid);
	rmdir(CG);
	ASSERT_NE(0, t) TH_LOG("still on a big CPU after 2 s");
	EXPECT_LE(t, 1000000000ULL);
	EXPECT_LE(7, little);
	EXPECT_LE(1, moves() - before);
}

/*
 * One 90% task on a big CPU: its CPU is above 80%, which turns mainline
 * EAS off for the whole system, every decision then being "overutilized".
 * Here neither domain is tipped in 9 of 10 samples, at most 1 in 10
 * decisions goes to the classic path, and three small tasks are placed by
 * energy on the LITTLE cluster (7 of 10 samples).  (Usually there is no
 * tip at all; this process, kernel threads, and on a debug kernel their
 * overhead, can really load the big domain for a moment.)
 */
TEST_F(bal, heavy_task_tips_nothing)
{
	int big = se_first_cpu(0), little = se_first_cpu(1), i, j, on_little = 0, seen = 0;
	long over, all, flips0, flips1, tipped = 0;
	pid_t heavy, small[3];

	heavy = se_periodic_task(90, PERIOD_US, big + 1 < se_nr_cpus() &&
				 !se_cpu_is(big + 1, 1) ? big + 1 : big);
	ASSERT_LT(0, heavy);
	se_sleep_ms(200);
	flips0 = domain_stat(big, "flips=");
	flips1 = domain_stat(little, "flips=");
	over = se_stat(POLICY, "decisions_overutilized");
	all = se_decisions();
	/* Forked unpinned: children of a pinned parent would pile up on it. */
	ASSERT_EQ(0, unpin(0));
	for (i = 0; i < 3; i++) {
		small[i] = se_periodic_task(10, PERIOD_US, -1);
		ASSERT_LT(0, small[i]);
	}
	ASSERT_EQ(0, se_pin(0, big));
	se_sleep_ms(500);
	/* Sparse samples: on a debug kernel this process is a load too. */
	for (j = 0; j < 60; j++) {
		for (i = 0; i < 3; i++) {
			int cpu = se_task_cpu(small[i]);

			seen += cpu >= 0;
			on_little += cpu >= 0 && se_cpu_is(cpu, 1);
		}
		tipped += domain_stat(big, "tipped=") != 0 || domain_stat(little, "tipped=") != 0;
		se_sleep_ms(25);
	}
	over = se_stat(POLICY, "decisions_overutilized") - over;
	all = se_decisions() - all;
	TH_LOG("small tasks on LITTLE in %d/%d samples; %ld of %ld decisions overutilized",
	       on_little, seen, over, all);
	TH_LOG("a domain tipped in %ld/60 samples; flips: big %ld, LITTLE %ld", tipped,
	       domain_stat(big, "flips=") - flips0, domain_stat(little, "flips=") - flips1);
	for (i = 0; i < 3; i++)
		se_kill(small[i]);
	se_kill(heavy);
	EXPECT_LT(0, all);
	EXPECT_LE(over * 10, all);
	EXPECT_LE(tipped, 6);
	EXPECT_LE(seen * 7, on_little * 10);
}

/*
 * Twice as many never-sleeping tasks as LITTLE CPUs, pinned to them: the
 * LITTLE domain tips within 200 ms of the last one running there (the
 * tracker sees a new task that never sleeps after a window, the tipping
 * point waits 4 ms more), stays tipped while they run (50 samples over
 * 100 ms), untips within 200 ms of their end (the last one reaped) and
 * stays untipped (50 samples).  Before that, the same tasks woken
 * together 20 times to spin 0.5 ms (a spike well below the
 * 4 ms tipping delay) flip it at most twice each way: without the delay
 * every spike would; with it, only a spike a loaded host stretches past
 * the delay (its vCPUs stalled mid-spin) can.
 */
TEST_F(bal, tipping_point_hysteresis)
{
	int l = se_first_cpu(1), n = 2 * nr_little(), i, k, cpu, fd[2], held, rest;
	long flips0 = domain_stat(l, "flips="), burst_flips;
	uint64_t tip, untip;
	pid_t pid[16];

	ASSERT_LE(0, flips0);
	ASSERT_EQ(0, domain_stat(l, "tipped="));
	n = n > 16 ? 16 : n;
	/*
	 * A burst: n tasks, pinned two per LITTLE CPU, sleep on a pipe; 20
	 * times over, all wake at once and spin for 0.5 ms.
	 */
	ASSERT_EQ(0, pipe(fd));
	for (i = 0, cpu = 0; i < n; i++) {
		while (!se_cpu_is(cpu, 1))
			cpu = (cpu + 1) % se_nr_cpus();
		pid[i] = se_fork();
		ASSERT_LE(0, pid[i]);
		if (!pid[i]) {
			uint64_t end;
			char c;

			se_pin(0, cpu);
			while (read(fd[0], &c, 1) == 1) {
				end = se_now_ns() + 500000;
				while (se_now_ns() < end)
					;
			}
			_exit(0);
		}
		cpu = (cpu + 1) % se_nr_cpus();
	}
	se_sleep_ms(100);
	flips0 = domain_stat(l, "flips=");
	for (k = 0; k < 20; k++) {
		char go[16] = { 0 };

		ASSERT_EQ(n, write(fd[1], go, n));
		se_sleep_ms(30);
	}
	close(fd[1]);
	close(fd[0]);
	for (i = 0; i < n; i++)
		se_kill(pid[i]);
	burst_flips = domain_stat(l, "flips=") - flips0;
	EXPECT_GE(4, burst_flips) TH_LOG("0.5 ms bursts flipped the tipping point %ld times",
					 burst_flips);

	for (i = 0, cpu = 0; i < n; i++) {
		while (!se_cpu_is(cpu, 1))
			cpu = (cpu + 1) % se_nr_cpus();
		pid[i] = se_spinner(cpu);
		ASSERT_LT(0, pid[i]);
		cpu = (cpu + 1) % se_nr_cpus();
	}
	/* From when the last of them runs on its LITTLE CPU. */
	for (i = 0; i < n; i++)
		while (!se_cpu_is(se_task_cpu(pid[i]), 1))
			se_sleep_ms(1);
	tip = until_tipped(l, 1);
	/* No flap while the overload lasts... */
	held = tip ? tipped_samples(l, 1, 50) : 0;
	for (i = 0; i < n; i++)
		se_kill(pid[i]);
	untip = until_tipped(l, 0);
	/* ...nor after it. */
	rest = untip ? tipped_samples(l, 0, 50) : 0;
	TH_LOG("%d tasks on %d LITTLE CPUs: tipped after %llu ms, untipped %llu ms on",
	       n, n / 2, (unsigned long long)tip / 1000000, (unsigned long long)untip / 1000000);
	TH_LOG("tipped in %d/50 samples under the load, untipped in %d/50 after", held, rest);
	ASSERT_NE(0, tip) TH_LOG("never tipped");
	ASSERT_NE(0, untip) TH_LOG("never untipped");
	EXPECT_LE(tip, 200000000ULL);
	EXPECT_LE(untip, 200000000ULL);
	EXPECT_EQ(50, held);
	EXPECT_EQ(50, rest);
}

/*
 * A new task that has run since its fork has no complete sample: what it
 * ran so far says little of its demand, and the energy-aware balancer does
 * not push it for room (a shell's child that ran for 10 ms climbed from a
 * LITTLE CPU to the biggest in two pushes).  Children forked on a LITTLE
 * CPU, free to go anywhere, each spin for 20 ms of wall time and exit:
 * their first sample would come at a roll, SEN_UTIL_ROLL_WINDOWS windows
 * (32 ms) after they started.  The sen_balance trace must show no push of
 * any of them for room while it ran: such a push is the stopper's, so its
 * event comes from a migration/N thread outside interrupt context (the
 * tick's own push of a waiting task is traced in hard interrupt context,
 * from whatever runs then: that may be a migration/N thread too, one of
 * mainline's misfit path that preempted the spinner; in the trace's
 * flags, 'h' or 'H' third, or an NMI's 'z' or 'Z').  A spinner that
 * waits for its CPU (behind a kworker, or the parent on a small LITTLE
 * CPU) may be taken to room from the tick: waiting is contention, not a
 * guess at demand, and those pushes are only logged.  Mainline's misfit
 * path may still move them; that is not this balancer's doing and is not
 * counted.  Nor is a push of a child that lived, fork to reaping, for a
 * roll or longer (a host stall between its fork and its first run): it
 * may have had its first sample by then.  If no child lived shorter,
 * nothing was tested.
 */
#define FRESH_ROLL_NS	32000000ULL	/* SEN_UTIL_ROLL_WINDOWS x 8 ms */

/*
 * Is the trace line @hdr ("comm-pid [cpu] flags timestamp", as
 * se_trace_event() leaves it) an event of the stopper: a migration/N
 * thread, not in a hard interrupt?
 */
static bool from_stopper(const char *hdr)
{
	const char *f = strstr(hdr, "] ");

	if (strncmp(hdr + strspn(hdr, " "), "migration/", 10) || !f)
		return false;
	f += 2 + strspn(f + 2, " ");
	/* irqs-off, need-resched, then hardirq/softirq: 'h', 'H', 'z', 'Z' */
	return strlen(f) < 3 || !strchr("hHzZ", f[2]);
}

TEST_F(bal, fresh_task_not_pushed_for_room)
{
	static char buf[1 << 20], copy[1 << 20];
	int l = se_first_cpu(1), i, status, pushed = 0, waiting = 0, moved = 0;
	int sampled = 0, young = 0;
	char *line, *save = NULL, *body, *p;
	bool stopper, bad[5] = { false };
	uint64_t life[5];
	pid_t pid[5];
	double t;
	long v;

	/* The tracker's view of the children too, to explain a failure. */
	se_trace_on("sched_energy/sen_util_task", "0");
	if (se_trace_on("sched_energy/sen_balance", "0"))
		SKIP(return, "cannot trace sched_energy/sen_balance");
	ASSERT_EQ(0, se_pin(0, l));
	for (i = 0; i < 5; i++) {
		life[i] = se_now_ns();
		pid[i] = se_fork();
		ASSERT_LE(0, pid[i]);
		if (!pid[i]) {
			uint64_t t0 = se_now_ns();

			if (unpin(0))
				_exit(2);
			while (se_now_ns() - t0 < 20000000ULL)
				;
			_exit(se_cpu_is(sched_getcpu(), 1) ? 0 : 1);
		}
		ASSERT_EQ(pid[i], waitpid(pid[i], &status, 0));
		life[i] = se_now_ns() - life[i];
		young += life[i] < FRESH_ROLL_NS;
		ASSERT_TRUE(WIFEXITED(status));
		ASSERT_NE(2, WEXITSTATUS(status));
		moved += WEXITSTATUS(status);
	}
	se_trace_pause("sched_energy/sen_balance");
	se_trace_pause("sched_energy/sen_util_task");
	ASSERT_LT(0, se_read(SE_TRACEFS "/trace", buf, sizeof(buf)));
	memcpy(copy, buf, sizeof(buf));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (se_trace_event(line, &t, &body) || !strstr(body, "kind=push") ||
		    !strstr(body, "fit:"))
			continue;
		p = strstr(body, " pid=");
		v = p ? atol(p + 5) : -1;
		/* se_trace_event() cut @line to its header: "comm-pid [cpu] ..." */
		stopper = from_stopper(line);
		for (i = 0; i < 5; i++) {
			if (v != pid[i])
				continue;
			if (!stopper) {
				waiting++;
				TH_LOG("pushed while waiting, from %s:%s", line + strspn(line, " "),
				       body);
			} else if (life[i] >= FRESH_ROLL_NS) {
				sampled++;
				TH_LOG("pushed while running after %llu ms of life: %s",
				       (unsigned long long)life[i] / 1000000, body);
			} else {
				pushed++;
				bad[i] = true;
				TH_LOG("pushed while running, fresh (%llu ms of life): %s",
				       (unsigned long long)life[i] / 1000000, body);
			}
		}
	}
	/* What the tracker saw of a child pushed while fresh. */
	save = NULL;
	for (line = strtok_r(copy, "\n", &save); pushed && line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (se_trace_event(line, &t, &body) || !strstr(body, "sen_util_task"))
			continue;
		p = strstr(body, " pid=");
		v = p ? atol(p + 5) : -1;
		for (i = 0; i < 5; i++)
			if (v == pid[i] && bad[i])
				TH_LOG("  at %.6f s: %s", t / 1e9, body);
	}
	se_trace_off("sched_energy/sen_util_task");
	se_trace_off("sched_energy/sen_balance");
	TH_LOG("pushed for room running: %d of %d young, %d older; %d waiting; %d off LITTLE",
	       pushed, young, sampled, waiting, moved);
	if (!young)
		SKIP(return, "every child lived a roll or longer (host stalls): nothing tested");
	EXPECT_EQ(0, pushed);
}

/*
 * LISA's misfit check: a never-sleeping task started on a LITTLE CPU while
 * the big CPUs are idle reaches a big CPU (the time for the tracker to
 * see it misfit plus a balance interval: 500 ms is generous) and stays.
 */
TEST_F(bal, misfit_goes_big)
{
	int l = se_first_cpu(1), i, big = 0;
	uint64_t t0, t = 0;
	pid_t pid;

	pid = se_spinner(l);
	ASSERT_LT(0, pid);
	se_sleep_ms(20);
	ASSERT_EQ(0, unpin(pid));
	/* This process leaves the big CPUs alone: it sleeps on LITTLE. */
	ASSERT_EQ(0, se_pin(0, l + 1 < se_nr_cpus() && se_cpu_is(l + 1, 1) ? l + 1 : l));
	t0 = se_now_ns();
	while (!t && se_now_ns() - t0 < 2000000000ULL) {
		if (!se_cpu_is(se_task_cpu(pid), 1))
			t = se_now_ns() - t0;
		se_sleep_ms(5);
	}
	for (i = 0; t && i < 20; i++) {
		se_sleep_ms(10);
		big += !se_cpu_is(se_task_cpu(pid), 1);
	}
	TH_LOG("misfit task on a big CPU after %llu ms, then in %d/20 samples",
	       (unsigned long long)t / 1000000, big);
	se_kill(pid);
	ASSERT_NE(0, t) TH_LOG("still LITTLE after 2 s");
	EXPECT_LE(t, 500000000ULL);
	EXPECT_LE(18, big);
}

TEST_HARNESS_MAIN
