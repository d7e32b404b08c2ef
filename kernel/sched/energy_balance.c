// SPDX-License-Identifier: GPL-2.0
/*
 * sched-energy: energy-aware load balancing.
 *
 * Wakeup placement (energy.c) only helps tasks that wake up.  Two tasks
 * stacked on one CPU stay stacked until one of them sleeps, and a task
 * that never sleeps is never placed again.  Mainline EAS has the same
 * gap: below its overutilized flag its load balancer moves misfit tasks
 * and nothing else.  This file closes it while the policy is on, below
 * each domain's tipping point (energy.c):
 *
 *  - push, from the scheduler tick of a busy CPU, at most once per
 *    SEN_BALANCE_NS: of the running task and the longest-waiting ones
 *    (SEN_BALANCE_SCAN in all), the one whose move saves the most energy
 *    goes to the cheapest CPU: a waiting one at once, from the tick, the
 *    running one through a stopper as mainline's active balance does.
 *    This covers idle targets too, NOHZ-idle ones included: the busy CPU
 *    decides, the idle one needs no kick;
 *  - pull, when a CPU is about to go idle (sched_balance_newidle()): a
 *    task waiting on another CPU of the root domain comes over if that
 *    saves energy;
 *  - a task that no longer fits its CPU (less than 20% of the CPU left
 *    with its settled demand, because it grew or shares the CPU) goes, in
 *    both, to the cheapest allowed CPU it fits on, else to the one with
 *    the most room for it when that is more room than it has, energy or
 *    not (sen_balance_pick()); besides,
 *    a misfit task goes up as under mainline EAS:
 *    find_busiest_group() handles misfit tasks before it asks
 *    sen_lb_classic(), and the classic balancer does the rest only in
 *    sched domains that span a tipped performance domain.
 *
 * A move is made when it saves more than 1/8 of what the task costs where
 * it is, 1/2 within the task's own domain: twice the wakeup margins
 * (energy.c), because a balance move costs more than a wakeup's choice (a
 * stopper preempts the running task, whose cache is warm) and is judged
 * on signals of a task in the middle of its span; and since a move must
 * save that much either way, two estimates closer than that do not bounce
 * a task between two CPUs.  Within a domain, at 1/8 as elsewhere, tasks
 * of juno-r0's mp3 were pushed between the LITTLE CPUs six times a run,
 * mostly while one ran a long activation that lifted its demand, and
 * each push made the task it landed on move away at its next wakeup: at
 * 1/2, 16 paired rounds migrated 15.5 times a run less [6, 25] for no
 * difference in energy (docs/evaluation.md).  A
 * task the balancer moved is not moved again for energy for
 * SEN_BALANCE_STAY_NS (for capacity it may be); moves down to a smaller
 * CPU must fit its peak in 80% of its capacity, moves up only its demand,
 * and a task leaves its CPU for room only when its settled demand no
 * longer fits in SEN_STAY_PCT% there (sen_pick_fits()): without those
 * bands a task near a CPU's capacity went away for room at one long
 * activation, or at a demand wobbling around 80%, and came back for
 * energy every few ticks.  A task whose samples straddle both bands
 * still did, every second or so: one that left a CPU for room is now held
 * off CPUs as small for four seconds, doubled at each return, unless it
 * would use less than 60% of one (sen_room_note()).  Nor is a running
 * task moved for room before its first complete sample (a new task that
 * has run since its fork): what it ran so far says little of its demand
 * (one waiting for its CPU may go: that is contention, not demand), and a
 * shell's child that runs for 10 ms climbed from a LITTLE CPU to the
 * biggest in two pushes 3-6 ms apart.  If it keeps running, its first
 * sample comes within SEN_UTIL_ROLL_WINDOWS windows, and mainline's
 * misfit path may move it meanwhile as it would under mainline EAS.
 *
 * Cost: one tipping-point check (a sum over the domain's CPUs) and at
 * most SEN_BALANCE_SCAN decisions (each linear in CPUs + OPPs per domain)
 * per busy CPU per SEN_BALANCE_NS; a newly idle CPU looks only at CPUs
 * with two or more runnable fair tasks, without their locks first.  No
 * allocation; the push work is per CPU.
 */
#include <linux/debugfs.h>
#include <linux/kthread.h>
#include <linux/sched/clock.h>
#include <linux/sched/cputime.h>
#include <linux/sched/energy.h>
#include <linux/seq_file.h>
#include <linux/stop_machine.h>

#include "sched.h"

#include <trace/events/sched_energy.h>

/* A busy CPU weighs its tasks at most once per this. */
#define SEN_BALANCE_NS		(8 * NSEC_PER_MSEC)
/* Tasks of one runqueue weighed per balance. */
#define SEN_BALANCE_SCAN	4
/* A task the balancer moved is not moved for energy for this long. */
#define SEN_BALANCE_STAY_NS	(4 * SEN_BALANCE_NS)

/* A push in flight from one CPU: the tick fills it, the stopper runs it. */
struct sen_push {
	struct cpu_stop_work work;
	struct task_struct *p;
	int dst;
	bool busy;
	u64 next;
	struct sen_move mv;
};

static DEFINE_PER_CPU(struct sen_push, sen_push);

enum sen_bal_stat {
	SEN_BAL_PUSH,
	SEN_BAL_PUSH_FAILED,
	SEN_BAL_PULL,
	SEN_BAL_NR,
};

static const char * const sen_bal_names[SEN_BAL_NR] = {
	[SEN_BAL_PUSH]		= "pushes",
	[SEN_BAL_PUSH_FAILED]	= "pushes_failed",
	[SEN_BAL_PULL]		= "pulls",
};

struct sen_bal_stats {
	unsigned long n[SEN_BAL_NR];
};

static DEFINE_PER_CPU(struct sen_bal_stats, sen_bal_stats);

/*
 * Has the balancer moved @p less than SEN_BALANCE_STAY_NS before @now?
 * Such a task is judged on samples taken where it was; it stays for a few
 * periods, so that the next move is judged on what it does here.
 */
static bool sen_settling(struct task_struct *p, u64 now)
{
	return sen_stamp_within(READ_ONCE(p->sen_util.balanced), sen_stamp(now),
				SEN_BALANCE_STAY_NS >> 20);
}

/*
 * Share of the task's cost an energy move must save: 1/2^this within its
 * own domain (debugfs balance_local_shift: 1, twice the wakeup's local
 * margin; 3 is the old 1/8), 1/2^SEN_BALANCE_MARGIN_SHIFT elsewhere.
 */
#define SEN_BALANCE_MARGIN_SHIFT	3
static unsigned int sen_balance_local_shift __read_mostly = 1;

/* Complete samples a task needs before a move for room (debugfs). */
static unsigned int sen_fit_samples __read_mostly = 1;

/**
 * sen_balance_saves() - does an energy move save enough to be made
 * @mv:	the move sen_balance_pick() priced
 *
 * Return: true if it saves more than 1/8 of the size of the task's cost
 * where it is, or 1/2 if @mv->local (debugfs balance_local_shift).
 */
bool sen_balance_saves(const struct sen_move *mv)
{
	unsigned int shift = mv->local ? READ_ONCE(sen_balance_local_shift) :
					 SEN_BALANCE_MARGIN_SHIFT;

	return sen_saves(mv->saving, mv->cost, shift);
}

/*
 * Worth moving: the task no longer fits where it is, has more room there
 * and, if it is running (not waiting for its CPU), a complete sample; or,
 * if it is not settling in after a move, the move saves more than 1/8 of
 * the size of the task's cost, 1/2 within its domain (see above; a cost
 * can be negative, and its share must not be).
 */
static bool sen_worth(const struct sen_move *mv, struct task_struct *p,
		      int cpu, u64 now)
{
	if (mv->dst == cpu)
		return false;
	if (mv->fit)
		return !task_on_cpu(task_rq(p), p) ||
		       READ_ONCE(p->sen_util.nr_hist) >= READ_ONCE(sen_fit_samples);
	return sen_balance_saves(mv) && !sen_settling(p, now);
}

/* Could the balancer ever move @p to another CPU? */
static bool sen_movable(struct task_struct *p)
{
	return p->nr_cpus_allowed > 1 && !is_migration_disabled(p) &&
	       !((p->flags & PF_KTHREAD) && kthread_is_per_cpu(p));
}

/* May the balancer take @p, a task that is not running, off @src? */
static bool sen_can_move(struct rq *src, struct task_struct *p, int dst)
{
	lockdep_assert_rq_held(src);
	if (task_rq(p) != src || !task_on_rq_queued(p) || task_on_cpu(src, p) ||
	    p->sched_class != &fair_sched_class || !sen_movable(p) ||
	    !cpumask_test_cpu(dst, p->cpus_ptr) || !cpu_active(dst))
		return false;
#ifdef CONFIG_CFS_BANDWIDTH
	if (p->se.cfs_rq->throttle_count)
		return false;
#endif
	return true;
}

/*
 * Take @p off @src (locked, clock updated) for @dst; @fit: for room
 * (struct sen_move), which a task leaving a smaller CPU remembers.
 */
static void sen_detach(struct rq *src, struct task_struct *p, int dst, bool fit)
{
	u64 now = local_clock();

	if (fit)
		sen_room_note(p, cpu_of(src), dst, now);
	deactivate_task(src, p, DEQUEUE_NOCLOCK);
	set_task_cpu(p, dst);
	WRITE_ONCE(p->sen_util.balanced, sen_stamp(now));
}

/* Queue a detached @p on @dst; interrupts off, no rq lock held. */
static void sen_attach(struct task_struct *p, int dst)
{
	struct rq *rq = cpu_rq(dst);
	struct rq_flags rf;

	rq_lock(rq, &rf);
	update_rq_clock(rq);
	activate_task(rq, p, ENQUEUE_NOCLOCK);
	/*
	 * An idle @dst is only rescheduled.  check_preempt_curr() would also
	 * have @dst's next schedule() skip its clock update, which holds
	 * only if that comes at once: an idle CPU takes its exit latency
	 * first (milliseconds for a vCPU the host must wake), and the task
	 * would be charged that wait as running time from a stale clock.
	 */
	if (rcu_access_pointer(rq->curr) == rq->idle)
		resched_curr(rq);
	else
		check_preempt_curr(rq, p, 0);
	rq_unlock(rq, &rf);
}

/*
 * The stopper of a push, on the task's CPU: the task, running when the
 * tick chose it, is now preempted and can be moved like a waiting one.
 * Everything is checked again: it may have slept, moved or changed its
 * affinity, the target may be going offline, the policy may be off.
 */
static int sen_push_stop(void *data)
{
	struct sen_push *w = data;
	struct task_struct *p = w->p;
	struct rq *src = this_rq();
	struct rq_flags rf;
	int done = 0;

	rq_lock_irq(src, &rf);
	if (sen_enabled() && sen_can_move(src, p, w->dst)) {
		update_rq_clock(src);
		sen_detach(src, p, w->dst, w->mv.fit);
		done = 1;
	}
	rq_unlock(src, &rf);
	if (done)
		sen_attach(p, w->dst);
	local_irq_enable();

	trace_sen_balance(p, SEN_BALANCE_PUSH, cpu_of(src), w->dst,
			  div_s64(w->mv.saving, SCHED_CAPACITY_SCALE),
			  w->mv.cand, w->mv.nr_cand, done);
	this_cpu_inc(sen_bal_stats.n[done ? SEN_BAL_PUSH : SEN_BAL_PUSH_FAILED]);
	put_task_struct(p);
	WRITE_ONCE(w->busy, false);
	return 0;
}

/**
 * sen_balance_tick() - push a task that costs less energy elsewhere
 * @rq:		the runqueue of the CPU whose tick this is
 *
 * Called by trigger_load_balance() while the policy is on.  Feeds the
 * tipping point of @rq's domain; then, at most once per SEN_BALANCE_NS,
 * and only below that tipping point,
 * weighs the running task and up to SEN_BALANCE_SCAN - 1 waiting ones
 * (longest waiting first) and pushes the one whose move saves most, if
 * that is worth a move.
 *
 * Context: the tick, interrupts off, @rq not locked.
 */
void sen_balance_tick(struct rq *rq)
{
	struct sen_push *w = this_cpu_ptr(&sen_push);
	int cpu = cpu_of(rq), n = 0;
	struct task_struct *p, *best = NULL, *moved = NULL;
	struct sen_move mv;
	struct rq_flags rf;
	u64 now = local_clock();

	if (sen_tip_check(cpu, now) || (s64)(now - w->next) < 0 ||
	    READ_ONCE(w->busy) || !READ_ONCE(rq->cfs.h_nr_running))
		return;
	w->next = now + SEN_BALANCE_NS;

	rq_lock(rq, &rf);
	list_for_each_entry_reverse(p, &rq->cfs_tasks, se.group_node) {
		if (++n > SEN_BALANCE_SCAN)
			break;
		if (!sen_movable(p) || !sen_balance_pick(p, cpu, -1, now, &mv) ||
		    !sen_worth(&mv, p, cpu, now))
			continue;
		if (!best || (mv.fit && !w->mv.fit) ||
		    (mv.fit == w->mv.fit && mv.saving > w->mv.saving)) {
			best = p;
			w->mv = mv;
		}
	}
	if (best && !task_on_cpu(rq, best)) {
		/* A waiting task is taken off here and now: no stopper. */
		if (sen_can_move(rq, best, w->mv.dst)) {
			update_rq_clock(rq);
			sen_detach(rq, best, w->mv.dst, w->mv.fit);
			moved = best;
		}
		best = NULL;
	} else if (best) {
		get_task_struct(best);
		w->p = best;
		w->dst = w->mv.dst;
		WRITE_ONCE(w->busy, true);
	}
	rq_unlock(rq, &rf);

	if (moved) {
		/* Traced while detached: once attached it may run and exit. */
		trace_sen_balance(moved, SEN_BALANCE_PUSH, cpu, w->mv.dst,
				  div_s64(w->mv.saving, SCHED_CAPACITY_SCALE),
				  w->mv.cand, w->mv.nr_cand, 1);
		sen_attach(moved, w->mv.dst);
		__this_cpu_inc(sen_bal_stats.n[SEN_BAL_PUSH]);
	}
	if (best && !stop_one_cpu_nowait(cpu, sen_push_stop, w, &w->work)) {
		/* This CPU is going offline: its stopper is parked. */
		put_task_struct(best);
		WRITE_ONCE(w->busy, false);
	}
}

/**
 * sen_balance_newidle() - pull a waiting task if that saves energy
 * @this_rq:	the runqueue of a CPU about to go idle
 *
 * Called by sched_balance_newidle() while the policy is on, before the
 * classic balancer (which then moves misfit tasks, and other tasks in
 * tipped domains).  Looks at the other CPUs of the root domain that have
 * two or more runnable fair tasks, and takes the first waiting task whose
 * move here saves more than 1/8 of its cost (1/2 from a CPU of its domain).
 *
 * Context: interrupts off, @this_rq not locked (the caller dropped it).
 * Return: 1 if a task was pulled, else 0.
 */
int sen_balance_newidle(struct rq *this_rq)
{
	int this_cpu = cpu_of(this_rq), cpu, n;
	struct task_struct *p, *pulled;
	struct sen_move mv;
	struct rq_flags rf;
	u64 now = local_clock();

	if (sen_tip_check(this_cpu, now))
		return 0;
	for_each_cpu(cpu, this_rq->rd->span) {
		struct rq *src = cpu_rq(cpu);

		if (cpu == this_cpu || READ_ONCE(src->cfs.h_nr_running) < 2)
			continue;
		pulled = NULL;
		n = 0;
		rq_lock(src, &rf);
		list_for_each_entry_reverse(p, &src->cfs_tasks, se.group_node) {
			if (++n > SEN_BALANCE_SCAN)
				break;
			if (!sen_can_move(src, p, this_cpu) ||
			    !sen_balance_pick(p, cpu, this_cpu, now, &mv) ||
			    !sen_worth(&mv, p, cpu, now))
				continue;
			update_rq_clock(src);
			sen_detach(src, p, this_cpu, mv.fit);
			trace_sen_balance(p, SEN_BALANCE_PULL, cpu, this_cpu,
					  div_s64(mv.saving, SCHED_CAPACITY_SCALE),
					  mv.cand, mv.nr_cand, 1);
			pulled = p;
			break;
		}
		rq_unlock(src, &rf);
		if (pulled) {
			sen_attach(pulled, this_cpu);
			__this_cpu_inc(sen_bal_stats.n[SEN_BAL_PULL]);
			return 1;
		}
		if (READ_ONCE(this_rq->nr_running) || READ_ONCE(this_rq->ttwu_pending))
			break;
	}
	return 0;
}

#ifdef CONFIG_DEBUG_FS
static int sen_balance_show(struct seq_file *m, void *unused)
{
	unsigned long sum[SEN_BAL_NR] = { };
	int cpu, i;

	for_each_possible_cpu(cpu)
		for (i = 0; i < SEN_BAL_NR; i++)
			sum[i] += per_cpu(sen_bal_stats, cpu).n[i];
	for (i = 0; i < SEN_BAL_NR; i++)
		seq_printf(m, "%s: %lu\n", sen_bal_names[i], sum[i]);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sen_balance);

static struct sen_knob sen_fit_knob = { &sen_fit_samples, 0, 1 };
static struct sen_knob sen_balance_local_knob = {
	&sen_balance_local_shift, 1, SEN_BALANCE_MARGIN_SHIFT
};

static int __init sen_balance_debugfs_init(void)
{
	debugfs_create_file("balance", 0444, sen_debugfs_dir(), NULL,
			    &sen_balance_fops);
	sen_debugfs_knob("fit_samples", &sen_fit_knob);
	sen_debugfs_knob("balance_local_shift", &sen_balance_local_knob);
	return 0;
}
late_initcall(sen_balance_debugfs_init);
#endif
