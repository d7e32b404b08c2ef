// SPDX-License-Identifier: GPL-2.0
/*
 * sched-energy: CPU-utilization tracking for energy decisions.
 *
 * PELT's util_avg answers "how busy was this task over the last ~100 ms",
 * with a 32 ms half-life: a task that grows from 10% to 70% takes tens of
 * milliseconds to be seen, a new task hundreds.  Energy decisions need
 * the task's demand now.  This tracker measures each task over spans of
 * whole wakeup-to-wakeup cycles, as many cycles as make at least one
 * window (SEN_UTIL_WINDOW_NS), so that a task woken twice in its period
 * is not taken for a busier one:
 *
 *   sample = busy / span		(invariant running time over wall time,
 *					 capacity units, 0..1024)
 *   demand = mean of the last SEN_UTIL_HIST samples (without a lone
 *            one more than twice the others), or the lower of the two
 *            newest samples if both are more than 1/8 above that mean
 *
 * A periodic task whose period is a window or more gets one sample per
 * period, its duty cycle exactly, whatever the phase of the scheduler
 * tick; a faster one its duty cycle over a few periods.  The demand is
 * held while the task sleeps (no decay between activations), rises at
 * once when the task runs longer than before (see below), and falls to a
 * new, lower level within SEN_UTIL_HIST samples.
 *
 * A task in the middle of a span is watched too, at every tick and when
 * it goes to sleep: once it has run longer than its previous span allows,
 * its demand is raised to
 *
 *   estimate = busy / max(elapsed, typical span, SEN_UTIL_WINDOW_NS)
 *
 * (elapsed counted from the task's first run in the span: waiting for a
 * CPU is not idleness), which is what the sample will at least be when
 * the span ends.  So a
 * task stepping from 10% to 70% of a 16 ms period is recognised when its
 * longer burst ends (11.2 ms), and a new task that never sleeps after one
 * window (8 ms).
 *
 * A task that does not sleep (a spinner, or one held back by CFS
 * bandwidth throttling, which keeps it queued) has no wakeup to end its
 * span, so its demand could rise but never fall.  The tick closes such a
 * span once it covers SEN_UTIL_ROLL_WINDOWS windows and twice the task's
 * typical cycle (sen_util_roll_due(): a periodic task is never cut in its
 * burst), with the sample busy / time since its first run in the span;
 * a spinner throttled to 10% is then believed at 10% within
 * SEN_UTIL_HIST rolls, and can be moved down by the balancer.

 * Running time is made invariant as PELT's is: scaled by the CPU's
 * capacity and by its current frequency (arch_scale_cpu_capacity(),
 * arch_scale_freq_capacity()).
 *
 * CPU utilization is the sum of the demands of the CPU's runnable fair
 * tasks, plus those of the tasks that slept on it recently (each held for
 * twice its last cycle, between one and four windows, in one of
 * SEN_HOLD_SLOTS lock-free slots, so that a periodic task still counts
 * while it sleeps between activations), plus RT, deadline and IRQ
 * pressure from PELT.  A task's contribution moves with it: it leaves the
 * old CPU when the task is dequeued from it or, if it slept there, when it
 * wakes up anywhere.
 *
 * Hooks, all called with the task's rq locked (sen_util_exec() takes
 * it), none allocating:
 *   __sched_fork()	 sen_util_fork()	clear the state     O(1)
 *   sched_exec()	 sen_util_exec()	start over          O(1)
 *   update_curr()	 sen_util_account()	add running time    O(1)
 *   enqueue_task_fair() sen_util_enqueue()	close the cycle     O(SEN_UTIL_HIST)
 *   dequeue_task_fair() sen_util_dequeue()	estimate, hold      O(slots in use)
 *   task_tick_fair()	 sen_util_tick()	estimate or roll    O(SEN_UTIL_HIST)
 *
 * All but the first are static branches, on only while the policy or the
 * sched_energy governor reads the tracker (sen_util_track_policy(),
 * sen_util_track_governor()): otherwise the scheduler runs as mainline.
 *
 * Approximations: a CPU keeps at most SEN_HOLD_SLOTS sleeping tasks'
 * contributions (beyond, a sleeping task stops counting at once); hold
 * expiry is judged with the reading CPU's clock; tasks that sleep longer
 * than four windows stop counting until they wake.
 */
#include <linux/debugfs.h>
#include <linux/mutex.h>
#include <linux/sched/clock.h>
#include <linux/sched/cputime.h>
#include <linux/sched/energy.h>
#include <linux/seq_file.h>
#include <linux/smp.h>
#include <linux/workqueue.h>

#include "sched.h"

#define CREATE_TRACE_POINTS
#include <trace/events/sched_energy.h>

/**
 * sen_trace_print_cands() - print a trace's candidates when it is read
 * @p:		the trace's output sequence
 * @cands:	the candidates recorded (struct sen_cand)
 * @len:	their size in bytes
 *
 * Return: "cpu:delta,..." ("fit:cpu" for a move for capacity), "-" for
 * none, NUL-terminated in @p.
 */
const char *sen_trace_print_cands(struct trace_seq *p, const void *cands,
				  unsigned int len)
{
	const char *ret = trace_seq_buffer_ptr(p);
	const struct sen_cand *c = cands;
	unsigned int i, n = len / sizeof(*c);

	/* The events keep a candidate as two s32 (a field must be scalar). */
	BUILD_BUG_ON(sizeof(*c) != 2 * sizeof(s32));

	for (i = 0; i < n; i++) {
		if (c[i].delta == SEN_CAND_FIT)
			trace_seq_printf(p, "%sfit:%d", i ? "," : "", c[i].cpu);
		else
			trace_seq_printf(p, "%s%d:%+d", i ? "," : "", c[i].cpu,
					 c[i].delta);
	}
	if (!n)
		trace_seq_putc(p, '-');
	trace_seq_putc(p, '\0');
	return ret;
}

/* A lone sample more than 2^SEN_UTIL_OUTLIER_SHIFT times the others. */
#define SEN_UTIL_OUTLIER_SHIFT	1

/*
 * One hold slot: a sleeping task's contribution, valid while @token is
 * non-zero and @expires is in the future.  The owning CPU fills free or
 * expired slots under its rq lock; whoever wakes the task frees the slot
 * with a cmpxchg of the token, from any CPU.  Tokens are unique per CPU
 * (a 32-bit counter), so a stale token never frees a reused slot.
 *
 * Readers need not look at the slots: sen_util_cpu.held is the sum of
 * the contributions of the slots whose token is non-zero (added by the
 * owner as it fills a slot, taken off by whoever zeroes the token), and
 * it is the CPU's held utilization until sen_util_cpu.held_until, the
 * earliest expiry of those slots when last looked.  Past it, the first
 * reader sums the slots of sen_util_cpu.used that have not expired,
 * zeroes the tokens of those that have (taking them off the sum, as
 * their waker would) and moves held_until on (sen_util_held_scan()): an
 * idle CPU, whose owner fills no slot for long, costs one scan per
 * expiry, not one per reader.  A bit of the mask is set when its slot is
 * filled and cleared when the owner next finds it free, and only the
 * owner writes the mask.
 */
struct sen_hold_slot {
	atomic_t	token;
	u16		contrib;
	u64		expires;
};

struct sen_util_cpu {
	unsigned long		runnable;	/* under the rq lock */
	unsigned long		spread;		/* runnable tasks', rq lock */
	u32			next_token;	/* under the rq lock */
	unsigned long		used;		/* slots in use, rq lock */
	atomic_long_t		held;		/* slots with a token */
	u64			held_until;	/* held is exact before */
	struct sen_hold_slot	slot[SEN_HOLD_SLOTS];
};

/*
 * Written at every enqueue and dequeue and read by other CPUs' decisions:
 * lines of its own, not those of per-CPU data that every wakeup reads
 * elsewhere (sd_llc_id for cpus_share_cache()).
 */
static DEFINE_PER_CPU_SHARED_ALIGNED(struct sen_util_cpu, sen_util_pcpu);

/* The hooks act (sen_util_track_update() below says when). */
static bool sen_util_live;

/*
 * Set while a CPU's cpufreq policy runs the sched_energy governor, the
 * one frequency governor that reads this tracker: only then does a demand
 * raised at the tick call cpufreq_update_util().  Schedutil must not see
 * calls that mainline does not make (each one, for instance, halves its
 * iowait boost).
 */
static DEFINE_PER_CPU(bool, sen_util_drives_freq);

/**
 * sen_util_drive_freq() - a CPU's policy starts or stops the sched_energy governor
 * @cpu:	the CPU
 * @on:		true from the governor's start, false from its stop
 */
void sen_util_drive_freq(int cpu, bool on)
{
	WRITE_ONCE(per_cpu(sen_util_drives_freq, cpu), on);
}

/**
 * sen_util_scale() - make running time invariant
 * @delta:	running time in ns
 * @cap:	the CPU's capacity (arch_scale_cpu_capacity())
 * @freq:	its frequency scale (arch_scale_freq_capacity()); may exceed
 *		SCHED_CAPACITY_SCALE under speed-equalised emulation
 *
 * Return: @delta in ns of work at full capacity, as PELT scales it.
 */
u64 sen_util_scale(u64 delta, unsigned long cap, unsigned long freq)
{
	return ((delta * freq) >> SCHED_CAPACITY_SHIFT) * cap >>
		SCHED_CAPACITY_SHIFT;
}

/**
 * sen_util_ratio() - a share of time in capacity units
 * @busy:	invariant running time
 * @span:	the wall time it was spent in
 *
 * Return: min(@busy, @span) * SCHED_CAPACITY_SCALE / @span, 0 for an empty
 * span.  Exact for any u64 inputs (no overflow at long sleeps).
 */
unsigned int sen_util_ratio(u64 busy, u64 span)
{
	if (!span)
		return 0;
	if (busy >= span)
		return SCHED_CAPACITY_SCALE;
	/*
	 * busy < span, so the result is below SCHED_CAPACITY_SCALE.  If
	 * busy << 10 could overflow, scale span down instead (both are then
	 * above 2^54 ns, half a year: the rounding is irrelevant).
	 */
	if (busy > (U64_MAX >> SCHED_CAPACITY_SHIFT))
		return min_t(u64, div64_u64(busy, span >> SCHED_CAPACITY_SHIFT),
			     SCHED_CAPACITY_SCALE - 1);
	return div64_u64(busy << SCHED_CAPACITY_SHIFT, span);
}

/* One pass over a task's samples: what the demand rules read of them. */
struct sen_util_scan {
	unsigned int sum;
	unsigned int top;
	unsigned int second;	/* the second largest sample, 0 for none */
};

static void sen_util_scan(const u16 *hist, unsigned int n,
			  struct sen_util_scan *sc)
{
	unsigned int i;

	*sc = (struct sen_util_scan){ };
	for (i = 0; i < n; i++) {
		sc->sum += hist[i];
		if (hist[i] > sc->top) {
			sc->second = sc->top;
			sc->top = hist[i];
		} else if (hist[i] > sc->second) {
			sc->second = hist[i];
		}
	}
}

/*
 * The level of @n (at least one) samples: their mean, without the largest
 * when it is more than 2^SEN_UTIL_OUTLIER_SHIFT times every other one and
 * there are at least three.  One activation stretched that far (a vCPU
 * its host did not run, an interrupt storm) says nothing about the next
 * ones; kept in the mean it would hold the demand, and the domain's OPP,
 * up for SEN_UTIL_HIST - 1 more cycles.  Real growth is never a lone high
 * sample for long: the next high one is no longer alone, and two in a
 * row are believed (sen_util_demand()).
 */
static unsigned int sen_util_level(const struct sen_util_scan *sc,
				   unsigned int n)
{
	if (n >= 3 && sc->top > sc->second << SEN_UTIL_OUTLIER_SHIFT)
		return (sc->sum - sc->top) / (n - 1);
	return sc->sum / n;
}

/* Samples in a row above the level that are growth (debugfs). */
static unsigned int sen_growth_samples __read_mostly = SEN_UTIL_GROWTH_SAMPLES;

/* sen_util_demand() of a scan of @n (at least one) samples. */
static unsigned int sen_util_demand_of(const struct sen_util_scan *sc,
				       unsigned int n, unsigned int sample,
				       unsigned int prev, unsigned int growth)
{
	unsigned int avg = sen_util_level(sc, n);
	unsigned int above = avg + (avg >> SEN_UTIL_MARGIN_SHIFT);

	if (sample <= above)
		return avg;
	BUILD_BUG_ON(SEN_UTIL_GROWTH_SAMPLES_MAX != 2);
	if (growth < 2)
		return sample;
	return prev > above ? min(sample, prev) : avg;
}

/* sen_util_spread() of a scan. */
static unsigned int sen_util_spread_of(const struct sen_util_scan *sc,
				       unsigned int demand)
{
	return sc->second > demand ? sc->second - demand : 0;
}

/**
 * sen_util_demand() - demand from the sample history
 * @hist:	the last samples, including @sample
 * @n:		number of valid samples (1..SEN_UTIL_HIST)
 * @sample:	the newest sample
 * @prev:	the sample before it, 0 for none
 * @growth:	how many samples in a row above the level are growth: 1 or
 *		2 (sen_growth_samples, SEN_UTIL_GROWTH_SAMPLES by default)
 *
 * The level of the samples (their mean, without a lone outlier:
 * sen_util_level()) is the demand, unless the newest @growth samples are
 * all above it by more than 1/2^SEN_UTIL_MARGIN_SHIFT: then the task has
 * grown and the least of them is believed.  The margin keeps wakeup
 * jitter (a sample a little above the others) from biasing the demand
 * upwards.  Two samples and not one: on phone3, 10-18% of a 20% task's
 * activations ran 1.5-2 times as long (host stalls), and each, believed,
 * lifted its whole cluster an OPP or two for a period; a task that grows
 * is raised within its span meanwhile (sen_util_grown()).
 *
 * Return: the demand.
 */
unsigned int sen_util_demand(const u16 *hist, unsigned int n,
			     unsigned int sample, unsigned int prev,
			     unsigned int growth)
{
	struct sen_util_scan sc;

	if (!n)
		return sample;
	sen_util_scan(hist, n, &sc);
	return sen_util_demand_of(&sc, n, sample, prev, growth);
}

/**
 * sen_util_spread() - how far recent samples went above the demand
 * @hist:	the last samples
 * @n:		number of valid samples (0..SEN_UTIL_HIST)
 * @demand:	the demand computed from them
 *
 * One sample is not a trend: a burst stretched once (an interrupt storm,
 * a stalled vCPU) already lifts the mean, so the spread is measured from
 * the second largest sample.
 *
 * Return: the second largest sample minus @demand, 0 if it is not above
 * it or there are fewer than two samples.
 */
unsigned int sen_util_spread(const u16 *hist, unsigned int n,
			     unsigned int demand)
{
	struct sen_util_scan sc;

	sen_util_scan(hist, n, &sc);
	return sen_util_spread_of(&sc, demand);
}

/**
 * sen_util_settled() - the demand without its latest jump
 * @hist:	the last samples
 * @n:		number of valid samples (0..SEN_UTIL_HIST)
 * @demand:	the demand: from them, or raised in the span in progress
 *
 * The demand believes one high sample, or one long burst in progress, at
 * once: right for deciding where a task goes, too eager for deciding that
 * it must leave the CPU it is on.  One sample is not a trend here either:
 * the settled demand is the mean of the samples, or the second largest
 * if that is above the mean, never above the demand.  A task leaves for
 * room once two samples or its mean say it needs to; a task with one long
 * activation in every few still counts at its mean.
 *
 * Return: min(@demand, max(mean, second largest sample)); @demand with
 * fewer than two samples.
 */
unsigned int sen_util_settled(const u16 *hist, unsigned int n,
			      unsigned int demand)
{
	struct sen_util_scan sc;

	if (n < 2)
		return demand;
	sen_util_scan(hist, n, &sc);
	return min(demand, max(sc.sum / n, sc.second));
}

/**
 * sen_util_estimate() - lower bound of the sample of a span in progress
 * @busy:	invariant running time so far in the cycle
 * @elapsed:	wall time since the cycle began
 * @last_cycle:	typical span length, 0 if none
 *
 * Return: @busy over the longest of @elapsed, @last_cycle and one window:
 * the cycle is expected to last at least that long, so the sample will be
 * at least this.
 */
unsigned int sen_util_estimate(u64 busy, u64 elapsed, u64 last_cycle)
{
	return sen_util_ratio(busy, max3(elapsed, last_cycle,
					 (u64)SEN_UTIL_WINDOW_NS));
}

/**
 * sen_util_hold_ns() - how long a sleeping task still counts on its CPU
 * @last_cycle: its typical span length, 0 if none
 *
 * Return: twice @last_cycle, within one to four windows.
 */
u64 sen_util_hold_ns(u64 last_cycle)
{
	return clamp_t(u64, 2 * last_cycle, SEN_UTIL_WINDOW_NS,
		       4 * SEN_UTIL_WINDOW_NS);
}

/**
 * sen_util_typical_span() - a task's typical span, one more span seen
 * @spans:	the task's last two spans, newest first, in units of
 *		2^SEN_UTIL_SPAN_SHIFT ns, 0 for none; @span is added
 * @span:	the span that just ended, ns
 *
 * A span is not always one period: a burst that overran its period (it
 * waited for a CPU, or its vCPU was not run) starts the next activation
 * without a sleep, and the span covers two.  The median of the last three
 * spans ignores one such span and follows a real change of period after
 * two.  (A moving average took the long span in, and for several spans
 * after it the sample divided one period's work by more than a period.)
 *
 * Return: the median of @span and the two before it (@span itself when
 * there are none), within 2^SEN_UTIL_SPAN_SHIFT ns.
 */
u64 sen_util_typical_span(u32 *spans, u64 span)
{
	u32 c = min_t(u64, span >> SEN_UTIL_SPAN_SHIFT, U32_MAX);
	u32 a = spans[0] ? spans[0] : c;
	u32 b = spans[0] ? spans[1] : c;
	u32 med;

	spans[1] = a;
	spans[0] = c;
	med = max(min(a, b), min(max(a, b), c));
	return med == c ? span : (u64)med << SEN_UTIL_SPAN_SHIFT;
}

/**
 * sen_util_span_floor() - the time a span's busy time is divided by
 * @spans:	the task's last two spans (sen_util_typical_span()), before
 *		@span is added
 * @typical:	the typical span before @span
 * @span:	the span that just ended, ns
 *
 * A wakeup late by L makes one span L longer and the next L shorter,
 * while the work per period stays the same: the shorter span is divided
 * by the typical one, so it does not read as a busier task.  But not by
 * more than the mean of it and the span before: after a span that
 * overran, or with late and early wakeups alternating (18, 14, 18, ... ms
 * for a 16 ms period, where the median is 18), the typical span is longer
 * than a period, and the mean of the last two is the period.  A period
 * that really shortens is believed at its second span.
 *
 * Return: the longest of @span and the shorter of @typical and that mean.
 */
u64 sen_util_span_floor(const u32 *spans, u64 typical, u64 span)
{
	u64 prev = (u64)spans[0] << SEN_UTIL_SPAN_SHIFT;

	return max(span, min(typical, (prev + span) / 2));
}

/**
 * sen_util_roll_due() - should the tick close a span without a wakeup
 * @span:	wall time since the span began
 * @last_cycle:	typical span length, 0 if none
 *
 * Return: true once @span covers SEN_UTIL_ROLL_WINDOWS windows and twice
 * @last_cycle: a task waking at its period never gets there, and one
 * with a long period is not cut in the middle of its burst.
 */
bool sen_util_roll_due(u64 span, u64 last_cycle)
{
	return span >= max_t(u64, SEN_UTIL_ROLL_WINDOWS * SEN_UTIL_WINDOW_NS,
			     2 * last_cycle);
}

/* The sample @back spans before the newest (0: the newest); 0 for none. */
static unsigned int sen_util_sample(const struct sen_task_util *u,
				    unsigned int back)
{
	if (back >= u->nr_hist)
		return 0;
	return u->hist[(u->hist_idx + SEN_UTIL_HIST - 1 - back) % SEN_UTIL_HIST];
}

/* Record the sample of a span that ends at @now and start the next one. */
static void sen_util_close(struct task_struct *p, int cpu, u64 now,
			   unsigned int sample, int ev)
{
	struct sen_task_util *u = &p->sen_util;
	struct sen_util_scan sc;
	unsigned int prev;

	u->hist[u->hist_idx] = sample;
	u->hist_idx = (u->hist_idx + 1) % SEN_UTIL_HIST;
	if (u->nr_hist < SEN_UTIL_HIST)
		u->nr_hist++;
	sen_util_scan(u->hist, u->nr_hist, &sc);
	prev = sen_util_sample(u, 1);
	u->demand = sen_util_demand_of(&sc, u->nr_hist, sample, prev,
				       READ_ONCE(sen_growth_samples));
	u->spread = sen_util_spread_of(&sc, u->demand);
	u->rolled = ev == SEN_UTIL_EV_ROLL;
	trace_sen_util_task(p, cpu, sample, ev);
	u->cycle_start = now;
	u->run_start = 0;
	u->busy = 0;
}

/* Where a span is measured from: its first run (waiting to run is not idleness). */
static u64 sen_util_span_start(const struct sen_task_util *u)
{
	return max(u->cycle_start, u->run_start);
}

/*
 * Close the span of a task that has run through it without sleeping
 * (sen_util_roll_due()).  The typical cycle is left alone: it is the
 * task's wakeup-to-wakeup period, and it has none.
 */
static void sen_util_roll(struct task_struct *p, int cpu, u64 now)
{
	struct sen_task_util *u = &p->sen_util;
	u64 start = sen_util_span_start(u);

	sen_util_close(p, cpu, now, sen_util_ratio(u->busy, now - start),
		       SEN_UTIL_EV_ROLL);
	/* It is running: the next span is judged from now. */
	u->run_start = now;
}

static void sen_util_runnable_add(int cpu, long delta)
{
	struct sen_util_cpu *cu = per_cpu_ptr(&sen_util_pcpu, cpu);

	WRITE_ONCE(cu->runnable, cu->runnable + delta);
}

/* Make a runnable task's spread count on @cpu as it is now. */
static void sen_util_spread_set(int cpu, struct sen_task_util *u)
{
	struct sen_util_cpu *cu = per_cpu_ptr(&sen_util_pcpu, cpu);

	WRITE_ONCE(cu->spread, cu->spread + u->spread - u->spread_contrib);
	u->spread_contrib = u->spread;
}

static void sen_util_spread_clear(int cpu, struct sen_task_util *u)
{
	struct sen_util_cpu *cu = per_cpu_ptr(&sen_util_pcpu, cpu);

	WRITE_ONCE(cu->spread, cu->spread - u->spread_contrib);
	u->spread_contrib = 0;
}

/*
 * The held contributions of @cu that have not expired at @now, read past
 * @cu->held_until.  Expired slots are freed here (the token's cmpxchg
 * decides who subtracts: this reader, the owner or a waker), then
 * held_until moves to the earliest expiry left, unless it changed since
 * it was read: the owner, filling a slot meanwhile, writes it after the
 * slot and its own scan, and its value stands.  Readers run under RCU (or
 * with interrupts off); a reader that finds the tracker stopped leaves
 * the slots alone, the stop resets them after a grace period.
 */
static noinline unsigned long sen_util_held_scan(struct sen_util_cpu *cu,
						 u64 now)
{
	/* Pairs with the releases in sen_util_hold(): its slots first. */
	u64 seen = smp_load_acquire(&cu->held_until), until = U64_MAX;
	bool reap = READ_ONCE(sen_util_live);
	unsigned long used, sum = 0;
	unsigned int i;

	/* Pairs with the release in sen_util_hold(): the slot is filled. */
	used = smp_load_acquire(&cu->used);
	for_each_set_bit(i, &used, SEN_HOLD_SLOTS) {
		struct sen_hold_slot *s = &cu->slot[i];
		int token = atomic_read_acquire(&s->token);
		u64 expires = READ_ONCE(s->expires);

		if (!token)
			continue;
		if (expires > now) {
			sum += READ_ONCE(s->contrib);
			until = min(until, expires);
		} else if (!reap) {
			until = 0;	/* left in place: the bound stays */
		} else if (atomic_cmpxchg(&s->token, token, 0) == token) {
			atomic_long_sub(READ_ONCE(s->contrib), &cu->held);
		}
	}
	/* Fully ordered: the subtractions are seen before the new bound. */
	if (until > seen)
		cmpxchg64(&cu->held_until, seen, until);
	return sum;
}

/*
 * The contributions held on @cpu at @now: the running sum while no slot
 * has expired (O(1), the common case), else the slots that have not.
 * Inline: decisions call it for every CPU.
 */
static __always_inline unsigned long sen_util_held(int cpu, u64 now)
{
	struct sen_util_cpu *cu = per_cpu_ptr(&sen_util_pcpu, cpu);

	/*
	 * A part is taken off only after it was added (the token is
	 * released after the add), so the sum is never negative; clamped
	 * all the same, a negative sum would read as a huge one.
	 */
	if (likely(now < READ_ONCE(cu->held_until)))
		return max(atomic_long_read(&cu->held), 0L);
	return sen_util_held_scan(cu, now);
}

static void sen_util_trace_cpu(int cpu, u64 now)
{
	struct rq *rq = cpu_rq(cpu);

	if (trace_sen_util_cpu_enabled())
		trace_sen_util_cpu(cpu, READ_ONCE(per_cpu(sen_util_pcpu, cpu).runnable),
				   sen_util_held(cpu, now), cpu_util_rt(rq),
				   cpu_util_dl(rq), cpu_util_irq(rq));
}

/*
 * A runnable task counted on @cpu counts @contrib there from now on, and
 * its spread as it is now.
 */
static void sen_util_recount(int cpu, struct sen_task_util *u,
			     unsigned int contrib, u64 now)
{
	sen_util_runnable_add(cpu, (long)contrib - u->contrib);
	u->contrib = contrib;
	sen_util_spread_set(cpu, u);
	sen_util_trace_cpu(cpu, now);
}

/* Keep a sleeping task's contribution on its CPU for a while. */
static void sen_util_hold(struct rq *rq, struct task_struct *p, u64 now)
{
	struct sen_util_cpu *cu = per_cpu_ptr(&sen_util_pcpu, cpu_of(rq));
	struct sen_task_util *u = &p->sen_util;
	unsigned long used = cu->used;
	u64 until = U64_MAX, expires;
	struct sen_hold_slot *s;
	unsigned int i;
	u32 token;

	BUILD_BUG_ON(SEN_HOLD_SLOTS > BITS_PER_LONG);
	/*
	 * Forget the slots freed since (by a wakeup, anywhere) and those
	 * expired, taking the latter off the sum.  Only this CPU makes a
	 * token non-zero, so a slot found free stays free until it fills it.
	 */
	for_each_set_bit(i, &used, SEN_HOLD_SLOTS) {
		struct sen_hold_slot *c = &cu->slot[i];

		token = atomic_read(&c->token);
		expires = READ_ONCE(c->expires);
		if (!token) {
			__clear_bit(i, &used);
		} else if (expires > now) {
			until = min(until, expires);
		} else if (atomic_cmpxchg(&c->token, token, 0) == token) {
			atomic_long_sub(READ_ONCE(c->contrib), &cu->held);
			__clear_bit(i, &used);
		}
	}
	i = find_first_zero_bit(&used, SEN_HOLD_SLOTS);
	if (!u->contrib || i >= SEN_HOLD_SLOTS) {
		WRITE_ONCE(cu->used, used);
		/* Pairs with the acquire in sen_util_held_scan(). */
		smp_store_release(&cu->held_until, until);
		u->contrib = 0;
		u->contrib_cpu = -1;
		return;
	}
	s = &cu->slot[i];
	token = ++cu->next_token;
	if (!token)
		token = ++cu->next_token;
	expires = now + sen_util_hold_ns(u->last_cycle);
	WRITE_ONCE(s->contrib, u->contrib);
	WRITE_ONCE(s->expires, expires);
	atomic_long_add(u->contrib, &cu->held);
	atomic_set_release(&s->token, token);
	__set_bit(i, &used);
	/* Pairs with the acquire in sen_util_held_scan(): the slot first. */
	smp_store_release(&cu->used, used);
	/* The bound after the mask: sen_util_held_scan() reads it first. */
	smp_store_release(&cu->held_until, min(until, expires));
	u->held = 1;
	u->hold_slot = i;
	u->hold_token = token;
}

/* Take a woken task's contribution off the CPU it slept on. */
static void sen_util_unhold(struct task_struct *p)
{
	struct sen_task_util *u = &p->sen_util;

	if (u->held) {
		struct sen_util_cpu *cu = per_cpu_ptr(&sen_util_pcpu, u->contrib_cpu);

		/* The slot still holds u->contrib while the token is ours. */
		if (atomic_cmpxchg(&cu->slot[u->hold_slot].token, u->hold_token,
				   0) == u->hold_token)
			atomic_long_sub(u->contrib, &cu->held);
		u->held = 0;
	}
	u->contrib = 0;
	u->contrib_cpu = -1;
}

/**
 * sen_util_grown() - the demand a span in progress shows, if it is growth
 * @busy:	invariant running time so far in the span
 * @elapsed:	wall time since the span's first run
 * @last_cycle:	typical span length, 0 if none
 * @demand:	the current demand
 * @nr_hist:	number of complete samples (0: a new task)
 * @rolled:	the span was opened by a roll (the task did not sleep)
 *
 * Wakeup jitter makes the estimate of a steady task wobble around its
 * demand; only a rise by more than 1/2^SEN_UTIL_MARGIN_SHIFT (or by more
 * than half of what is left up to full capacity) is growth.  A new task
 * has no steady state yet: any rise counts, above SEN_UTIL_NEW, what it is
 * priced at and counts on its CPU until then (the estimate is only a
 * lower bound of the sample to come).
 *
 * A span opened by a roll has no end the task chose: a task that never
 * sleeps but is throttled runs in bursts of a tick or two, and a burst
 * just after the roll reads as several times its share (8 ms of a 10%
 * task's 50 ms period is 512 over one window).  The next roll, at most
 * SEN_UTIL_ROLL_WINDOWS windows away, measures it; until then it is not
 * raised.
 *
 * Return: the raised demand, or 0 if the span shows no growth.
 */
unsigned int sen_util_grown(u64 busy, u64 elapsed, u64 last_cycle,
			    unsigned int demand, unsigned int nr_hist,
			    bool rolled)
{
	unsigned int est;

	if (rolled)
		return 0;
	est = sen_util_estimate(busy, elapsed, last_cycle);
	if (!nr_hist)
		return est > max_t(unsigned int, demand, SEN_UTIL_NEW) ? est : 0;
	if (est <= demand + min_t(unsigned int, demand >> SEN_UTIL_MARGIN_SHIFT,
				  (SCHED_CAPACITY_SCALE - demand) / 2))
		return 0;
	return est > demand ? est : 0;
}

/**
 * sen_util_sleep_demand() - the demand to hold for a task going to sleep
 * @hist:	its samples (the span ending in this sleep not among them)
 * @n:		number of valid samples (at least one)
 * @newest:	the newest of them
 * @before:	the one before it, 0 for none
 * @est:	the estimate of the span this sleep ends: its sample, if the
 *		task wakes up on time (sen_util_estimate())
 * @growth:	samples in a row above the level that are growth (1 or 2,
 *		sen_growth_samples)
 * @step:	an estimate this many times what the samples hold, or more,
 *		is a step, believed at once (0: none is)
 * @least:	what the samples hold counts at least this much there
 *
 * A task going to sleep has done its activation's work, and the span's
 * estimate is its sample in all but name.  Held through the sleep, it
 * should be believed as sen_util_demand() believes a sample: above the
 * level only after @growth of them in a row.  So the demand held is the
 * larger of what the samples say (as when the newest was taken) and what
 * they say with the estimate as one more: one long activation (a vCPU its
 * host did not run, one burst of extra work) is not held through the sleep
 * that follows it, even if the tick raised the task while it ran; a second
 * in a row is.  A stretched activation runs 1.3-2 times its level (a
 * host's stall, a cache-cold run); one whose work stepped up runs several
 * times it (7 for 10% -> 70%).  So with @step, an estimate @step times
 * what the samples hold, or more, is held at once.  A host's stall is a
 * larger share of a small task's activation: with @least, a step of a
 * task that holds less is measured from @least.
 *
 * Return: max(sen_util_demand() of the samples, the same with @est the
 * newest but not in the level); @est instead if @step and @est is @step
 * times that (or @least) or more.
 */
unsigned int sen_util_sleep_demand(const u16 *hist, unsigned int n,
				   unsigned int newest, unsigned int before,
				   unsigned int est, unsigned int growth,
				   unsigned int step, unsigned int least)
{
	struct sen_util_scan sc;
	unsigned int d;

	sen_util_scan(hist, n, &sc);
	d = max(sen_util_demand_of(&sc, n, newest, before, growth),
		sen_util_demand_of(&sc, n, est, newest, growth));
	return (step && est / step >= max(d, least)) ? est : d;
}

/*
 * debugfs raise_history: 1 (the default) raises a task with a history in
 * a span in progress as soon as it has outgrown its demand, at the tick
 * and as it goes to sleep, and holds the raise through the sleep.  For
 * trials: 0 believes it at its samples alone (a task with no complete
 * sample yet is always raised); 2 raises it at the tick only and holds
 * through its sleeps what the growth rule believes
 * (sen_util_sleep_demand()), which saved 3-4% on mp3 and
 * ThreeSmallTasks but sees a 10% -> 70% step only at its second long
 * burst; 3 is 2 that holds a step (SEN_UTIL_STEP times the demand held)
 * at once, which made no difference from 1 over three boards, and 4 is 3
 * with a step measured from SEN_UTIL_NEW at least.  Raising only near or
 * past the end of the task's period, at the OPP its CPU runs, was tried
 * and made no measured difference (docs/evaluation.md; those rules had
 * the values 2 to 4 then).
 */
static unsigned int sen_raise_history __read_mostly = 1;

/* raise_history 3, 4: an estimate this many times the demand held is a step. */
#define SEN_UTIL_STEP	3

/*
 * raise_history 2 to 4 (@mode): the demand a task with a history holds
 * through the sleep it goes to @elapsed after its span's first run
 * (sen_util_sleep_demand()); true if it changed.
 */
static bool sen_util_sleep_settle(struct task_struct *p, u64 elapsed,
				  unsigned int mode)
{
	struct sen_task_util *u = &p->sen_util;
	unsigned int d;

	if (u->rolled)
		return false;
	d = sen_util_sleep_demand(u->hist, u->nr_hist, sen_util_sample(u, 0),
				  sen_util_sample(u, 1),
				  sen_util_estimate(u->busy, elapsed, u->last_cycle),
				  READ_ONCE(sen_growth_samples),
				  mode >= 3 ? SEN_UTIL_STEP : 0,
				  mode == 4 ? SEN_UTIL_NEW : 0);
	if (d == u->demand)
		return false;
	u->demand = d;
	u->spread = sen_util_spread(u->hist, u->nr_hist, d);
	trace_sen_util_task(p, task_cpu(p), d, SEN_UTIL_EV_RAISE);
	return true;
}

/*
 * Raise the demand of a task in its cycle if it has outgrown it; @sleep:
 * as it goes to sleep, the span's work done.
 */
static bool sen_util_raise(struct task_struct *p, u64 now, bool sleep)
{
	struct sen_task_util *u = &p->sen_util;
	u64 start = sen_util_span_start(u);
	unsigned int est, mode = READ_ONCE(sen_raise_history);

	if (!u->cycle_start || now <= start)
		return false;
	if (u->nr_hist && !mode)
		return false;
	if (sleep && u->nr_hist && mode >= 2)
		return sen_util_sleep_settle(p, now - start, mode);
	est = sen_util_grown(u->busy, now - start, u->last_cycle, u->demand,
			     u->nr_hist, u->rolled);
	if (!est)
		return false;
	/*
	 * A task with no complete sample yet may be anything up to twice
	 * what it has shown so far; one with a history keeps the spread of
	 * its samples (none above the raised demand).
	 */
	u->spread = u->nr_hist ? sen_util_spread(u->hist, u->nr_hist, est) : est;
	u->demand = est;
	trace_sen_util_task(p, task_cpu(p), est, SEN_UTIL_EV_RAISE);
	return true;
}

/*
 * The tracker runs while a user reads it: the policy, or a cpufreq policy
 * with the sched_energy governor.  Its state changes under sen_util_mutex:
 *
 *  - sen_util_key patches the hooks in and out; patching goes site by
 *    site, so the hooks act only while sen_util_live is set, which is set
 *    once every CPU runs every patched site and cleared before they are
 *    patched out: a task's enqueue and dequeue never disagree;
 *  - sen_util_gen counts the stops: a task's state from an earlier
 *    generation is void (sen_util_enter()), so a stop does not have to
 *    find every task (an exiting one is no longer on the task lists).
 */
DEFINE_STATIC_KEY_FALSE(sen_util_key);
static u32 sen_util_gen;
static DEFINE_MUTEX(sen_util_mutex);
static bool sen_util_policy_user;		/* under sen_util_mutex */
static atomic_t sen_util_governor_users = ATOMIC_INIT(0);

/* Void a task's contribution from an earlier generation. */
static void sen_util_renew(struct sen_task_util *u)
{
	WRITE_ONCE(u->gen, sen_util_gen);
	WRITE_ONCE(u->held, 0);
	WRITE_ONCE(u->contrib, 0);
	WRITE_ONCE(u->contrib_cpu, -1);
	u->spread_contrib = 0;
	u->cycle_start = 0;
	u->run_start = 0;
	u->busy = 0;
}

/*
 * May a hook act, and on what: the caller holds the task's rq lock.
 * Demands and their history survive a stop: a task is priced as it was
 * last seen, as one that slept as long would be.
 */
static bool sen_util_enter(struct sen_task_util *u)
{
	if (!READ_ONCE(sen_util_live))
		return false;
	if (unlikely(u->gen != READ_ONCE(sen_util_gen)))
		sen_util_renew(u);
	return true;
}

/*
 * Count every queued fair task on its CPU, the tracker just live: the
 * hooks did not see them come.  A task a hook has counted since is left.
 */
static void sen_util_adopt(void)
{
	struct task_struct *p;
	struct rq_flags rf;
	int cpu;

	for_each_online_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);

		rq_lock_irqsave(rq, &rf);
		update_rq_clock(rq);
		list_for_each_entry(p, &rq->cfs_tasks, se.group_node) {
			struct sen_task_util *u = &p->sen_util;

			if (!sen_util_enter(u) || u->contrib_cpu >= 0)
				continue;
			if (!u->cycle_start)
				u->cycle_start = rq_clock(rq);
			u->contrib = sen_task_util(p);
			u->contrib_cpu = cpu;
			sen_util_runnable_add(cpu, u->contrib);
			sen_util_spread_set(cpu, u);
		}
		rq_unlock_irqrestore(rq, &rf);
	}
}

/* Switch the tracker on or off to match its users; sen_util_mutex held. */
static void sen_util_track_update(void)
{
	bool want = sen_util_policy_user ||
		    atomic_read(&sen_util_governor_users) > 0;
	unsigned int i;
	int cpu;

	lockdep_assert_held(&sen_util_mutex);
	if (want == READ_ONCE(sen_util_live))
		return;
	if (want) {
		static_branch_enable(&sen_util_key);
		/* Every CPU takes an interrupt: it runs the new sites. */
		kick_all_cpus_sync();
		WRITE_ONCE(sen_util_live, true);
		sen_util_adopt();
		return;
	}
	WRITE_ONCE(sen_util_live, false);
	/*
	 * Every hook runs with its rq locked and interrupts off: after a
	 * grace period none acts any more.
	 */
	synchronize_rcu();
	static_branch_disable(&sen_util_key);
	for_each_possible_cpu(cpu) {
		struct sen_util_cpu *cu = per_cpu_ptr(&sen_util_pcpu, cpu);

		WRITE_ONCE(cu->runnable, 0);
		WRITE_ONCE(cu->spread, 0);
		WRITE_ONCE(cu->used, 0);
		for (i = 0; i < SEN_HOLD_SLOTS; i++)
			atomic_set(&cu->slot[i].token, 0);
		atomic_long_set(&cu->held, 0);
		WRITE_ONCE(cu->held_until, 0);
	}
	WRITE_ONCE(sen_util_gen, sen_util_gen + 1);
}

static void sen_util_track_work_fn(struct work_struct *work)
{
	mutex_lock(&sen_util_mutex);
	sen_util_track_update();
	mutex_unlock(&sen_util_mutex);
}

static DECLARE_WORK(sen_util_track_work, sen_util_track_work_fn);

/**
 * sen_util_track_policy() - the policy starts or stops using the tracker
 * @on:	true before the policy starts, false after it stopped
 *
 * Synchronous: when it returns with @on true, the hooks act and every
 * queued fair task counts on its CPU.
 *
 * Context: process context, may sleep; not with the CPU hotplug lock held.
 */
void sen_util_track_policy(bool on)
{
	mutex_lock(&sen_util_mutex);
	sen_util_policy_user = on;
	sen_util_track_update();
	mutex_unlock(&sen_util_mutex);
}

/**
 * sen_util_track_governor() - a cpufreq policy starts or stops the governor
 * @on:	true from the governor's init, false from its exit
 *
 * The governor's init and exit run with the CPU hotplug lock held when a
 * CPU comes or goes, and switching a static key takes it: the switch is
 * left to a work item.  Until it runs, the sums the governor reads are
 * those of a tracker that was off (zero), and it requests the lowest OPP.
 *
 * Context: any; does not sleep.
 */
void sen_util_track_governor(bool on)
{
	if (on)
		atomic_inc(&sen_util_governor_users);
	else
		atomic_dec(&sen_util_governor_users);
	schedule_work(&sen_util_track_work);
}

#ifdef CONFIG_SCHED_ENERGY_KUNIT_TEST
/**
 * sen_util_pose_begin() - keep the tracker off and pose CPU utilizations
 *
 * For the KUnit benchmark of whole decisions on synthetic platforms:
 * while the tracker is off and has no user, its per-CPU sums are zero
 * and unused (their readers are the policy's decisions, the sched_energy
 * governor, debugfs and the trace event); sen_util_mutex, held until
 * sen_util_pose_end(), keeps the tracker off: a user that turns it on
 * waits.  A sched_energy governor started meanwhile would read the posed
 * sums until then, as it reads the zero sums of a tracker it waits for
 * (sen_util_track_governor()).
 *
 * Context: process context, may sleep.
 * Return: 0 with sen_util_mutex held, or -EBUSY if the tracker is on or
 * a governor is about to turn it on.
 */
int sen_util_pose_begin(void)
{
	mutex_lock(&sen_util_mutex);
	if (READ_ONCE(sen_util_live) ||
	    atomic_read(&sen_util_governor_users) > 0) {
		mutex_unlock(&sen_util_mutex);
		return -EBUSY;
	}
	return 0;
}

/**
 * sen_util_pose() - the fair utilization a CPU shows decisions
 * @cpu:	a possible CPU
 * @util:	what sen_cpu_fair_util() reads for it until the next pose
 *
 * Context: between sen_util_pose_begin() and sen_util_pose_end().
 */
void sen_util_pose(int cpu, unsigned long util)
{
	lockdep_assert_held(&sen_util_mutex);
	WRITE_ONCE(per_cpu(sen_util_pcpu, cpu).runnable, util);
}

/**
 * sen_util_pose_end() - back to the sums of a tracker that is off
 *
 * Zeroes every posed sum, as the tracker leaves them when it stops, and
 * releases sen_util_mutex.
 *
 * Context: after sen_util_pose_begin() returned 0; may sleep.
 */
void sen_util_pose_end(void)
{
	int cpu;

	lockdep_assert_held(&sen_util_mutex);
	for_each_possible_cpu(cpu)
		WRITE_ONCE(per_cpu(sen_util_pcpu, cpu).runnable, 0);
	mutex_unlock(&sen_util_mutex);
}
#endif

/**
 * sen_util_tracking() - is the utilization tracker on
 *
 * Return: true while its hooks act (sen_util_track_policy(),
 * sen_util_track_governor()).
 */
bool sen_util_tracking(void)
{
	return READ_ONCE(sen_util_live);
}

/**
 * sen_util_fork() - start a new task with no history
 * @p: the new task
 */
void sen_util_fork(struct task_struct *p)
{
	memset(&p->sen_util, 0, sizeof(p->sen_util));
	p->sen_util.contrib_cpu = -1;
}

/* sen_util_exec() forgets; debugfs exec_fresh (0: keeps) for trials. */
static unsigned int sen_exec_fresh __read_mostly = 1;

/* Forget @p's samples; it is current on @rq, which is locked. */
static void sen_util_restart(struct rq *rq, struct task_struct *p)
{
	struct sen_task_util *u = &p->sen_util;
	int cpu = cpu_of(rq);
	u64 now;

	update_rq_clock(rq);
	now = rq_clock(rq);
	memset(u->hist, 0, sizeof(u->hist));
	memset(u->spans, 0, sizeof(u->spans));
	u->nr_hist = 0;
	u->hist_idx = 0;
	u->rolled = 0;
	WRITE_ONCE(u->demand, 0);
	WRITE_ONCE(u->spread, 0);
	WRITE_ONCE(u->last_cycle, 0);
	u->busy = 0;
	u->cycle_start = now;
	u->run_start = now;
	/* Current, so runnable: counted on this CPU, or not yet at all. */
	if (u->contrib_cpu == cpu)
		sen_util_recount(cpu, u, sen_task_util(p), now);
}

/**
 * __sen_util_exec() - a task is about to run a new program
 * @p: the task, current
 *
 * What a task ran before an exec says little about the program it starts:
 * a harness's child that ran flat out for 11 ms loading `timeout` carried
 * a demand of 800-992 into the exec of rt-app, which was then placed on
 * the one cluster that demand fits (the big one) and started there.  So an
 * exec starts over as a fork does: the samples, the demand and the typical
 * span go, and the task counts as a new task (SEN_UTIL_NEW) on its CPU
 * until the new program's first sample.  Its running time is measured
 * from now.  What the balancer noted about it (when it was last moved,
 * the CPUs it did not fit) is kept: that is about the CPUs.
 *
 * Called by sched_exec() before the exec's placement, which then prices
 * the new program as a new task.  Mainline's PELT keeps a task's signal
 * across an exec; its EAS does not place execs.
 *
 * Context: process context, interrupts on, @p is current, no locks held;
 * takes its rq lock.
 */
void __sen_util_exec(struct task_struct *p)
{
	struct rq_flags rf;
	struct rq *rq;

	if (!READ_ONCE(sen_exec_fresh))
		return;
	/* Interrupts off: current stays on this CPU. */
	rq = this_rq_lock_irq(&rf);
	if (sen_util_enter(&p->sen_util))
		sen_util_restart(rq, p);
	rq_unlock_irq(rq, &rf);
}

/**
 * __sen_util_account() - account running time to the current fair task
 * @rq:		its runqueue, locked
 * @p:		the task
 * @delta_exec:	ns it ran since the last update
 *
 * Context: the tracker on (sen_util_account() checks).
 */
void __sen_util_account(struct rq *rq, struct task_struct *p, u64 delta_exec)
{
	struct sen_task_util *u = &p->sen_util;
	int cpu = cpu_of(rq);

	if (!sen_util_enter(u))
		return;
	if (!u->run_start)
		u->run_start = rq_clock(rq) - delta_exec;
	u->busy += sen_util_scale(delta_exec, arch_scale_cpu_capacity(cpu),
				  arch_scale_freq_capacity(cpu));
}

/**
 * __sen_util_enqueue() - a fair task becomes runnable on @rq
 * @rq:		the runqueue, locked
 * @p:		the task
 * @flags:	enqueue flags; ENQUEUE_WAKEUP ends the task's sample span
 *		once it covers a window
 *
 * Context: the tracker on (sen_util_enqueue() checks).
 */
void __sen_util_enqueue(struct rq *rq, struct task_struct *p, int flags)
{
	struct sen_task_util *u = &p->sen_util;
	int cpu = cpu_of(rq);
	u64 now = rq_clock(rq);

	if (!sen_util_enter(u))
		return;
	sen_util_unhold(p);
	/* A wakeup ends the span if it covers a window; else it goes on. */
	if ((flags & ENQUEUE_WAKEUP) && u->cycle_start &&
	    now >= u->cycle_start + SEN_UTIL_WINDOW_NS) {
		u64 cycle = now - u->cycle_start;
		/* A span shorter than typical is jitter, up to a point. */
		u64 floor = sen_util_span_floor(u->spans, u->last_cycle, cycle);
		unsigned int sample = sen_util_ratio(u->busy, floor);

		WRITE_ONCE(u->last_cycle, sen_util_typical_span(u->spans, cycle));
		sen_util_close(p, cpu, now, sample, SEN_UTIL_EV_WAKEUP);
	} else if (!u->cycle_start) {
		u->cycle_start = now;
	} else if ((flags & ENQUEUE_WAKEUP) && !u->nr_hist) {
		/*
		 * A new task woken before its first span is complete: judge
		 * it from now on, a wait at its start is not idleness.
		 */
		u->run_start = now;
	}
	/*
	 * A task with no sample yet counts what a decision prices it at
	 * (SEN_UTIL_NEW), or tasks forked back to back would all see the
	 * same sums and be stacked on one CPU.
	 */
	u->contrib = sen_task_util(p);
	u->contrib_cpu = cpu;
	sen_util_runnable_add(cpu, u->contrib);
	sen_util_spread_set(cpu, u);
	sen_util_trace_cpu(cpu, now);
}

/**
 * __sen_util_dequeue() - a fair task leaves @rq
 * @rq:		the runqueue, locked
 * @p:		the task
 * @flags:	dequeue flags; with DEQUEUE_SLEEP the task's contribution is
 *		held on the CPU while it sleeps
 *
 * Context: the tracker on (sen_util_dequeue() checks).
 */
void __sen_util_dequeue(struct rq *rq, struct task_struct *p, int flags)
{
	struct sen_task_util *u = &p->sen_util;
	int cpu = cpu_of(rq);
	u64 now = rq_clock(rq);

	if (!sen_util_enter(u))
		return;
	sen_util_runnable_add(cpu, -(long)u->contrib);
	sen_util_spread_clear(cpu, u);
	if ((flags & DEQUEUE_SLEEP) && READ_ONCE(p->__state) != TASK_DEAD) {
		sen_util_raise(p, now, true);
		u->contrib = u->demand;
		/* It may not have been counted yet (sen_util_adopt()). */
		u->contrib_cpu = cpu;
		sen_util_hold(rq, p, now);
	} else {
		u->contrib = 0;
		u->contrib_cpu = -1;
	}
	sen_util_trace_cpu(cpu, now);
}

/**
 * __sen_util_tick() - the scheduler tick on @rq, @curr running
 * @rq:		the runqueue, locked
 * @curr:	its current fair task
 *
 * Context: the tracker on (sen_util_tick() checks).
 */
void __sen_util_tick(struct rq *rq, struct task_struct *curr)
{
	struct sen_task_util *u = &curr->sen_util;
	u64 now = rq_clock(rq);
	int cpu = cpu_of(rq);

	if (!sen_util_enter(u))
		return;
	if (u->contrib_cpu != cpu || u->held || !u->cycle_start)
		return;
	if (sen_util_roll_due(now - u->cycle_start, u->last_cycle))
		sen_util_roll(curr, cpu, now);
	else if (!sen_util_raise(curr, now, false))
		return;
	if (u->demand == u->contrib && u->spread == u->spread_contrib)
		return;
	sen_util_recount(cpu, u, u->demand, now);
	/* The frequency follows now, not at the next PELT update. */
	if (READ_ONCE(per_cpu(sen_util_drives_freq, cpu)))
		cpufreq_update_util(rq, 0);
}

/**
 * sen_task_util() - a task's demand
 * @p: the task
 *
 * Return: its demand in capacity units, invariant; SEN_UTIL_NEW for a
 * task with neither a sample nor an estimate yet (what a decision prices
 * it at, and what it adds to its CPU while runnable).
 */
unsigned long sen_task_util(struct task_struct *p)
{
	unsigned long demand = READ_ONCE(p->sen_util.demand);

	return demand || READ_ONCE(p->sen_util.nr_hist) ? demand : SEN_UTIL_NEW;
}

/**
 * sen_task_settled() - a task's demand without its latest jump
 * @p:		the task
 * @demand:	its demand as the caller read it (sen_task_util())
 *
 * Context: @p's pi_lock held while it is off any runqueue (a wakeup), or
 * its rq locked: its samples do not change under the caller.
 * Return: sen_util_settled() of its samples and @demand.
 */
unsigned long sen_task_settled(struct task_struct *p, unsigned long demand)
{
	const struct sen_task_util *u = &p->sen_util;

	return sen_util_settled(u->hist, u->nr_hist, demand);
}

/**
 * sen_task_fit_util() - the demand by which a task is judged to fit a CPU
 * @p:		the task
 * @cpu:	the CPU
 *
 * On its own CPU a task is judged by its settled demand against
 * SEN_STAY_PCT% of the capacity, anywhere else by its demand against
 * SEN_FIT_PCT%, as the energy-aware moves judge staying on prev_cpu
 * (sen_pick_fits(); it also asks a smaller CPU to hold the task's peak,
 * which this does not).  For fair.c's task_fits_cpu() and so misfit
 * detection, whose test is fits_capacity()'s 80% (SEN_FIT_PCT): the
 * settled demand is scaled by SEN_FIT_PCT / SEN_STAY_PCT so that the test
 * is the stay band.  So neither one long activation nor a demand between
 * the two makes the classic balancer move a task up that the energy-aware
 * balancer would keep where it is.
 *
 * Context: as sen_task_settled().
 * Return: the demand, capacity units (scaled on @p's own CPU).
 */
unsigned long sen_task_fit_util(struct task_struct *p, int cpu)
{
	unsigned long demand = sen_task_util(p);

	if (cpu != task_cpu(p))
		return demand;
	return sen_task_settled(p, demand) * SEN_FIT_PCT / SEN_STAY_PCT;
}

/**
 * sen_cpu_util() - a CPU's utilization
 * @cpu: the CPU
 * @now: local_clock() when the caller started looking (one reading for a
 *	 whole decision: every CPU is judged at the same instant, and the
 *	 clock is read once, not once per CPU)
 *
 * Lockless; a snapshot.
 *
 * Return: the demands of its runnable fair tasks and of those that slept
 * on it less than their hold before @now, plus RT, deadline and IRQ
 * pressure, in capacity units (not capped at the CPU's capacity).
 */
unsigned long sen_cpu_util(int cpu, u64 now)
{
	struct rq *rq = cpu_rq(cpu);

	return sen_cpu_fair_util(cpu, now) + cpu_util_rt(rq) + cpu_util_dl(rq) +
	       cpu_util_irq(rq);
}

/**
 * sen_cpu_fair_util() - a CPU's fair utilization
 * @cpu: the CPU
 * @now: local_clock() when the caller started looking (sen_cpu_util())
 *
 * Lockless; a snapshot.
 *
 * Return: the demands of its runnable fair tasks and of those that slept
 * on it less than their hold before @now, in capacity units.
 */
unsigned long sen_cpu_fair_util(int cpu, u64 now)
{
	return READ_ONCE(per_cpu(sen_util_pcpu, cpu).runnable) +
	       sen_util_held(cpu, now);
}

/**
 * sen_cpu_spread() - the tracker's uncertainty about a CPU's demand
 * @cpu: the CPU
 *
 * Lockless; a snapshot.
 *
 * Return: the sum of the spreads of its runnable fair tasks.
 */
unsigned long sen_cpu_spread(int cpu)
{
	return READ_ONCE(per_cpu(sen_util_pcpu, cpu).spread);
}

/**
 * sen_task_contrib() - what a task adds to a CPU's utilization now
 * @p:		the task: waking (its pi_lock held) or current
 * @cpu:	receives the CPU that counts it, -1 for none
 * @now:	local_clock(), as for sen_cpu_util()
 *
 * A placement decision takes this off the CPU before weighing where the
 * task goes, so that the task does not compete with itself.
 *
 * Return: the contribution, 0 when none (a hold that expired counts
 * nothing either).
 */
unsigned long sen_task_contrib(struct task_struct *p, int *cpu, u64 now)
{
	const struct sen_task_util *u = &p->sen_util;
	int c = READ_ONCE(u->contrib_cpu);
	struct sen_hold_slot *s;

	*cpu = -1;
	if (c < 0 || c >= nr_cpu_ids || READ_ONCE(u->gen) != READ_ONCE(sen_util_gen))
		return 0;
	if (!READ_ONCE(u->held)) {
		*cpu = c;
		return READ_ONCE(u->contrib);
	}
	s = &per_cpu_ptr(&sen_util_pcpu, c)->slot[u->hold_slot];
	if (atomic_read_acquire(&s->token) != u->hold_token ||
	    READ_ONCE(s->expires) <= now)
		return 0;
	*cpu = c;
	return READ_ONCE(s->contrib);
}

/**
 * sen_util_proc_show() - the tracker's state in /proc/PID/sched
 * @p:	the task
 * @m:	the seq_file
 *
 * The contribution shown is what the task adds to a CPU now: 0 on CPU -1
 * once a sleeping task's hold has expired.
 */
void sen_util_proc_show(struct task_struct *p, struct seq_file *m)
{
	const struct sen_task_util *u = &p->sen_util;
	unsigned long contrib;
	int cpu;

	contrib = sen_task_contrib(p, &cpu, local_clock());
	seq_printf(m, "%-45s:%21u\n", "sen.util.demand", u->demand);
	seq_printf(m, "%-45s:%21u\n", "sen.util.spread", u->spread);
	seq_printf(m, "%-45s:%21lu\n", "sen.util.contrib", contrib);
	seq_printf(m, "%-45s:%21d\n", "sen.util.contrib_cpu", cpu);
	seq_printf(m, "%-45s:%21llu\n", "sen.util.last_cycle_us",
		   div_u64(u->last_cycle, NSEC_PER_USEC));
}

#ifdef CONFIG_DEBUG_FS
static int sen_cpu_util_show(struct seq_file *m, void *unused)
{
	u64 now = local_clock();
	int cpu;

	seq_puts(m, "cpu runnable held rt dl irq total\n");
	/* A reader may free expired holds: under RCU (sen_util_held_scan()). */
	rcu_read_lock();
	for_each_online_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);
		unsigned long v[5] = {
			READ_ONCE(per_cpu(sen_util_pcpu, cpu).runnable),
			sen_util_held(cpu, now), cpu_util_rt(rq),
			cpu_util_dl(rq), cpu_util_irq(rq),
		};

		/* one read of each part; the total is their sum */
		seq_printf(m, "%d %lu %lu %lu %lu %lu %lu\n", cpu, v[0], v[1],
			   v[2], v[3], v[4], v[0] + v[1] + v[2] + v[3] + v[4]);
	}
	rcu_read_unlock();
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sen_cpu_util);

static struct sen_knob sen_growth_knob = {
	&sen_growth_samples, 1, SEN_UTIL_GROWTH_SAMPLES_MAX
};

static struct sen_knob sen_exec_knob = { &sen_exec_fresh, 0, 1 };

static struct sen_knob sen_raise_knob = { &sen_raise_history, 0, 4 };

static int __init sen_util_debugfs_init(void)
{
	debugfs_create_file("cpu_util", 0444, sen_debugfs_dir(), NULL,
			    &sen_cpu_util_fops);
	sen_debugfs_knob("growth_samples", &sen_growth_knob);
	sen_debugfs_knob("exec_fresh", &sen_exec_knob);
	sen_debugfs_knob("raise_history", &sen_raise_knob);
	return 0;
}
late_initcall(sen_util_debugfs_init);
#endif
