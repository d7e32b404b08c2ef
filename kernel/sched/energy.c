// SPDX-License-Identifier: GPL-2.0
/*
 * sched-energy: the energy estimator and energy-aware wakeup placement.
 *
 * The estimator prices one performance domain (one cluster) over the next
 * period of the waking task, from the platform model (energy.h) and the
 * utilization tracker (util_track.c):
 *
 *  - the domain runs at the lowest efficient OPP whose capacity covers its
 *    busiest CPU with the tracker's headroom (sen_opp_index() and
 *    sen_util_headroom(), as the sched_energy governor picks it);
 *  - a CPU with utilization u is busy a fraction b = u / cap(OPP) of the
 *    period at the OPP's CPU power, and idle the rest of it in the
 *    deepest idle state whose target residency fits the idle time, if
 *    that comes in one stretch; each period it wakes up once from that
 *    state, paying the state's wakeup energy;
 *  - the cluster is busy while any of its CPUs is.  CPUs are taken to be
 *    busy independently of each other, so the cluster is idle a fraction
 *    prod(1 - b_i) of the period, in the shallowest of its CPUs' states
 *    (a CPU with work keeps the cluster out of deeper ones), and busy
 *    the rest at the OPP's cluster power;
 *  - a CPU with no work is in the deepest state all period, and a domain
 *    with no work is in its deepest cluster state.
 *
 * A move costs the energy of the destination domain with the task minus
 * the energy without it; the task's own contribution is first taken off
 * the CPU that holds it.  Only the destination domain changes, so a
 * decision is linear in CPUs + OPPs per domain, with at most four
 * candidates per domain.  A domain is priced once without the task; a
 * candidate that leaves its OPP where it was changes only its own CPU's
 * part and the cluster's (sen_domain_energy_with()).
 *
 * Approximations: the period is the waking task's typical span (two
 * tracker windows when it has none); idle time comes in one stretch per
 * period; busy times of CPUs are independent; the OPP is sized with the
 * tracker's minimum headroom (the moved task's spread is not known), and
 * without the RT, DL bandwidth and uclamp terms the governor adds, so under
 * RT load or clamps the governor may run a domain faster than priced;
 * thermal capping and the cost of a migration (cache refill) are
 * not modelled, the last one being why prev_cpu is kept unless another
 * CPU saves more than 1/16 of its energy (1/4 within its domain, where
 * only the idle states differ).
 *
 * The tipping point.  Utilization only predicts energy while tasks get
 * the CPU time they want: once tasks queue for CPUs, a task's utilization
 * is its share, not its demand, and the estimates mean nothing.  That is
 * judged per domain, not for the whole system as mainline's overutilized
 * flag does: a domain tips when its CPUs together are above 80% of their
 * capacity *and* it has more runnable fair tasks than CPUs (so one heavy
 * task alone on a big CPU, which gets all it asks for, tips nothing).  It
 * must stay so for SEN_TIP_NS (a tick) before the domain tips, and fall
 * below 60% or to no more tasks than CPUs for SEN_UNTIP_NS (two tracker
 * windows, the time the tracker needs to see a drop) before it untips, so
 * short spikes do not flap it.  The balancer's tick (energy_balance.c)
 * feeds it, at most once per SEN_TIP_EVAL_NS per domain: a domain whose
 * CPUs are busy is looked at every tick, and decisions only read it (a
 * tipped domain no tick has looked at for SEN_TIP_EVAL_NS is looked at
 * by the decision that finds it so, sen_domain_tipped()).  A wakeup whose
 * prev_cpu is in a tipped domain goes to the classic path, CPUs of a
 * tipped domain are no candidates, and in a sched domain that spans a
 * tipped one the classic load balancer runs unchanged.
 */
#include <linux/capability.h>
#include <linux/cpuidle.h>
#include <linux/debugfs.h>
#include <linux/sched/cputime.h>
#include <linux/sched/clock.h>
#include <linux/sched/energy.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sysctl.h>

#include "sched.h"

#include <trace/events/sched_energy.h>

/*
 * Candidates kept per domain: prev_cpu, pack, spare, shallowest idle, and
 * the one destination a balancer asks about.
 */
#define SEN_CANDS_PER_DOM	5
/* Share of prev_cpu's cost a wakeup move must save (sen_wake_target()). */
#define SEN_WAKE_MARGIN_SHIFT		4
#define SEN_WAKE_LOCAL_MARGIN_SHIFT	2
/*
 * A task that left a CPU for room is kept off CPUs as small for
 * 2^SEN_ROOM_HOLD_SHIFT units of sen_stamp() (about four seconds),
 * doubled each time it comes back and leaves again, up to
 * 2^SEN_ROOM_SHIFT_MAX times, unless its peak would use less than
 * SEN_ROOM_FREE_PCT% of such a CPU (sen_room_note()).
 */
#define SEN_ROOM_HOLD_SHIFT	12
#define SEN_ROOM_SHIFT_MAX	3
#define SEN_ROOM_FREE_PCT	60
/*
 * How long a domain must be above (below) its tipping point to (un)tip,
 * the overload judged on observations no further apart than
 * SEN_TIP_GAP_NS (a busy domain is looked at every tick); a domain is
 * summed at most once per SEN_TIP_EVAL_NS.
 */
#define SEN_TIP_NS		(4 * NSEC_PER_MSEC)
#define SEN_TIP_GAP_NS		(2 * TICK_NSEC)
#define SEN_TIP_EVAL_NS		NSEC_PER_MSEC
#define SEN_UNTIP_NS		(16 * NSEC_PER_MSEC)

DEFINE_STATIC_KEY_FALSE(sen_policy_key);

static unsigned int sysctl_sched_energy;
/* sen_util_headroom()'s least headroom; debugfs headroom_shift changes it. */
unsigned int sen_headroom_shift __read_mostly = SEN_HEADROOM_SHIFT;
/* Serialises the sysctl: start, stop, scratch allocation. */
static DEFINE_MUTEX(sen_policy_mutex);

/*
 * Per-CPU scratch of one decision: the utilization snapshot of the domain
 * being weighed, its CPU numbers and each CPU's price without the task.
 * Decisions run with interrupts off (p->pi_lock), so a CPU's scratch has
 * one user at a time.  Allocated when the policy is first turned on,
 * never in a decision.
 */
struct sen_scratch {
	unsigned long *util;
	int *cpu;
	struct sen_cpu_price *price;
};

static DEFINE_PER_CPU(struct sen_scratch, sen_scratch);

/* This CPU's scratch, NULL until sen_scratch_alloc() has published it. */
static inline struct sen_scratch *sen_scratch_get(void)
{
	struct sen_scratch *sc = this_cpu_ptr(&sen_scratch);

	/* Pairs with the release in sen_scratch_alloc(): sc->cpu is set. */
	return smp_load_acquire(&sc->util) ? sc : NULL;
}

enum sen_stat {
	SEN_STAT_ENERGY = SEN_WHY_ENERGY,
	SEN_STAT_PREV = SEN_WHY_PREV,
	SEN_STAT_OVERUTIL = SEN_WHY_OVERUTIL,
	SEN_STAT_NOFIT = SEN_WHY_NOFIT,
	SEN_STAT_NOMODEL = SEN_WHY_NOMODEL,
	SEN_STAT_FORK,
	SEN_STAT_EXEC,
	SEN_NR_STATS,
};

static const char * const sen_stat_names[SEN_NR_STATS] = {
	[SEN_STAT_ENERGY]	= "energy",
	[SEN_STAT_PREV]		= "prev",
	[SEN_STAT_OVERUTIL]	= "overutilized",
	[SEN_STAT_NOFIT]	= "nofit",
	[SEN_STAT_NOMODEL]	= "nomodel",
	[SEN_STAT_FORK]		= "fork",
	[SEN_STAT_EXEC]		= "exec",
};

struct sen_stats {
	unsigned long n[SEN_NR_STATS];
};

static DEFINE_PER_CPU(struct sen_stats, sen_stats);

/*
 * Tipping-point state of one domain, kept in the per-CPU slot of the
 * domain's first CPU.  Updated by whoever gets @lock (a trylock: a busy
 * lock means someone else is judging the same domain right now).
 */
struct sen_tip {
	raw_spinlock_t lock;
	u64 since;		/* the other side's condition holds since, 0: no */
	u64 last;		/* the last observation */
	bool tipped;
	unsigned long flips;
};

/*
 * Read by every decision on any CPU: a line of its own, not the one of
 * sen_stats, which its CPU writes at every decision.
 */
static DEFINE_PER_CPU_SHARED_ALIGNED(struct sen_tip, sen_tip);

/**
 * sen_policy_wanted() - does sched-energy own energy-aware placement
 *
 * Context: any; a lockless read of the sysctl.
 *
 * Read by build_perf_domains(): while this is true, mainline EAS gets no
 * performance domains, whatever kernel.sched_energy_aware says.
 *
 * Return: true from the moment kernel.sched_energy=1 is accepted until it
 * is set back to 0.
 */
bool sen_policy_wanted(void)
{
	return READ_ONCE(sysctl_sched_energy);
}

/**
 * sen_opp_index() - the OPP a domain runs at for a need
 * @d:		the domain
 * @need:	its neediest CPU's utilization, headroom included
 *		(sen_util_headroom())
 *
 * The lowest efficient OPP whose capacity covers @need, or the highest
 * OPP if none does.  The sched_energy governor requests this OPP and the
 * estimator prices this one.  O(OPPs).
 *
 * Return: an index into @d->opp.
 */
unsigned int sen_opp_index(const struct sen_domain *d, unsigned long need)
{
	unsigned int i;

	for (i = 0; i < d->nr_opps; i++)
		if (d->opp[i].efficient && d->opp[i].cap >= need)
			return i;
	return d->nr_opps - 1;
}

/* The OPP a domain is priced at when its neediest CPU has @max_util. */
static unsigned int sen_domain_opp(const struct sen_domain *d,
				   unsigned long max_util)
{
	return sen_opp_index(d, sen_util_headroom(max_util, 0));
}

/**
 * sen_idle_index() - the idle state an idle stretch reaches
 * @d:		the domain
 * @idle_us:	length of the stretch
 *
 * Return: the deepest state whose target residency is at most @idle_us;
 * 0 (WFI) if none is.
 */
unsigned int sen_idle_index(const struct sen_domain *d, u64 idle_us)
{
	unsigned int i;

	for (i = d->nr_idle - 1; i > 0; i--)
		if (d->idle[i].residency_us <= idle_us)
			return i;
	return 0;
}

/*
 * One CPU with utilization @u (> 0) over the period at OPP @o: busy @u /
 * cap(@o) of it, idle the rest in the state that stretch reaches, woken
 * once from it.  Sets @pr's busy share and state; returns its energy.
 */
static inline u64 sen_cpu_energy(const struct sen_domain *d,
				 const struct sen_opp *o, unsigned long u,
				 u64 period_us, struct sen_cpu_price *pr)
{
	u64 b = min_t(u64, div64_u64((u64)u << SCHED_CAPACITY_SHIFT, o->cap),
		      SCHED_CAPACITY_SCALE);
	unsigned int s = sen_idle_index(d, (period_us * (SCHED_CAPACITY_SCALE - b)) >>
					SCHED_CAPACITY_SHIFT);

	pr->busy = b;
	pr->state = s;
	return b * o->cpu_power + (SCHED_CAPACITY_SCALE - b) * d->idle[s].cpu_power +
	       div64_u64((u64)d->idle[s].wakeup_energy << SCHED_CAPACITY_SHIFT,
			 period_us);
}

/*
 * The cluster over the period at OPP @o: idle the share @q of it in the
 * state that stretch reaches but no deeper than @s_min (its busy CPUs'
 * shallowest), busy the rest.
 */
static u64 sen_cluster_energy(const struct sen_domain *d,
			      const struct sen_opp *o, u64 q,
			      unsigned int s_min, u64 period_us)
{
	unsigned int s = min(s_min, sen_idle_index(d, (period_us * q) >>
						   SCHED_CAPACITY_SHIFT));

	return (SCHED_CAPACITY_SCALE - q) * o->cluster_power +
	       q * d->idle[s].cluster_power;
}

/* A CPU with no work: in the deepest state all period. */
static u64 sen_cpu_idle_energy(const struct sen_domain *d)
{
	return (u64)SCHED_CAPACITY_SCALE * d->idle[d->nr_idle - 1].cpu_power;
}

/*
 * The CPUs of a domain at OPP @o, @util[@idx] with @add on top (@idx -1:
 * none), and then its cluster: each busy CPU shortens the cluster's idle
 * share and keeps it out of states deeper than its own.  Each CPU's part
 * goes to @price[] unless that is NULL, the CPUs' sum to *@cpus.
 */
static u64 sen_domain_at(const struct sen_domain *d, const struct sen_opp *o,
			 const unsigned long *util, unsigned int nr, int idx,
			 unsigned long add, u64 period_us,
			 struct sen_cpu_price *price, u64 *cpus)
{
	unsigned int i, s_min = d->nr_idle - 1;
	u64 energy = 0, q = SCHED_CAPACITY_SCALE;
	struct sen_cpu_price one;

	for (i = 0; i < nr; i++) {
		struct sen_cpu_price *pr = price ? &price[i] : &one;
		unsigned long u = util[i] + (i == idx ? add : 0);

		if (!u) {
			pr->energy = sen_cpu_idle_energy(d);
			pr->busy = 0;
			pr->state = d->nr_idle - 1;
		} else {
			pr->energy = sen_cpu_energy(d, o, u, period_us, pr);
			s_min = min_t(unsigned int, s_min, pr->state);
			q = (q * (SCHED_CAPACITY_SCALE - pr->busy)) >>
			    SCHED_CAPACITY_SHIFT;
		}
		energy += pr->energy;
	}
	*cpus = energy;
	return energy + sen_cluster_energy(d, o, q, s_min, period_us);
}

/**
 * sen_domain_energy() - the energy of a domain over one period
 * @d:		the domain
 * @util:	utilization of each of its CPUs that counts (online ones)
 * @nr:		number of entries of @util
 * @add_idx:	index into @util of a CPU that gets @add on top, -1 for none
 * @add:	utilization added to @util[@add_idx]
 * @period_us:	the period
 *
 * See the top of this file for the model.  Fractions of the period are in
 * 1/SCHED_CAPACITY_SCALE; the result is the mean power over the period in
 * the model's unit, times SCHED_CAPACITY_SCALE.  It cannot overflow: each
 * term is below 2^10 * 2^32 and there are at most 2 * nr + 2 of them.
 *
 * Return: the energy, 0 for a domain without CPUs or states.
 */
u64 sen_domain_energy(const struct sen_domain *d, const unsigned long *util,
		      unsigned int nr, int add_idx, unsigned long add,
		      u64 period_us)
{
	unsigned long max_util = 0;
	unsigned int i;
	u64 cpus;

	if (!nr || !d->nr_opps || !d->nr_idle)
		return 0;
	for (i = 0; i < nr; i++)
		max_util = max(max_util, util[i] + (i == add_idx ? add : 0));
	if (!max_util)
		return nr * sen_cpu_idle_energy(d) + (u64)SCHED_CAPACITY_SCALE *
		       d->idle[d->nr_idle - 1].cluster_power;
	return sen_domain_at(d, &d->opp[sen_domain_opp(d, max_util)], util, nr,
			     add_idx, add, max_t(u64, period_us, 1), NULL, &cpus);
}

/**
 * sen_domain_base() - price a domain without the task, for its candidates
 * @d:		the domain
 * @util:	utilization of each of its CPUs that counts
 * @nr:		number of entries of @util
 * @period_us:	the period
 * @base:	filled: the energy, and each CPU's part of it in @base->cpu
 *		(room for @nr entries, the caller's)
 *
 * A decision prices a domain once without the task and once with it on
 * each candidate.  Most candidates leave the domain's OPP where it was,
 * and then only the candidate's own term and the cluster's change:
 * sen_domain_energy_with() recomputes those from what this keeps.  A
 * domain of one CPU, or with no work, keeps nothing (@base->opp is -1)
 * and its candidates are priced in full.
 *
 * Return: sen_domain_energy(@d, @util, @nr, -1, 0, @period_us).
 */
u64 sen_domain_base(const struct sen_domain *d, const unsigned long *util,
		    unsigned int nr, u64 period_us, struct sen_dom_base *base)
{
	unsigned int i;

	base->opp = -1;
	base->max_util = 0;
	for (i = 0; i < nr; i++)
		base->max_util = max(base->max_util, util[i]);
	/*
	 * One CPU: its own term is all a candidate changes, and the task
	 * moves its OPP more often than not; no work to keep.
	 */
	if (nr < 2 || !base->max_util || !d->nr_opps || !d->nr_idle) {
		base->energy = sen_domain_energy(d, util, nr, -1, 0, period_us);
		return base->energy;
	}
	base->opp = sen_domain_opp(d, base->max_util);
	base->energy = sen_domain_at(d, &d->opp[base->opp], util, nr, -1, 0,
				     max_t(u64, period_us, 1), base->cpu,
				     &base->cpus);
	return base->energy;
}

/**
 * sen_domain_energy_with() - a domain's energy with the task on one CPU
 * @d:		the domain
 * @util:	as given to sen_domain_base()
 * @nr:		as given to sen_domain_base()
 * @idx:	index into @util of the CPU that gets the task
 * @add:	the task's utilization
 * @period_us:	as given to sen_domain_base()
 * @base:	sen_domain_base() of @d, @util, @nr and @period_us
 *
 * When the task leaves the domain's OPP where it was, the other CPUs'
 * terms are @base's: only @idx's is recomputed, and the cluster's from
 * the kept busy shares, multiplied in the same order, so the result is
 * sen_domain_energy()'s to the last bit (KUnit checks it).  Otherwise the
 * whole domain is priced again.
 *
 * Return: sen_domain_energy(@d, @util, @nr, @idx, @add, @period_us).
 */
u64 sen_domain_energy_with(const struct sen_domain *d,
			   const unsigned long *util, unsigned int nr, int idx,
			   unsigned long add, u64 period_us,
			   const struct sen_dom_base *base)
{
	unsigned long u = util[idx] + add;
	unsigned int i, s_min;
	struct sen_cpu_price pr;
	const struct sen_opp *o;
	u64 energy, q = SCHED_CAPACITY_SCALE;

	if (base->opp < 0 || sen_domain_opp(d, max(base->max_util, u)) != base->opp)
		return sen_domain_energy(d, util, nr, idx, add, period_us);
	if (!add)
		return base->energy;

	period_us = max_t(u64, period_us, 1);
	o = &d->opp[base->opp];
	energy = base->cpus - base->cpu[idx].energy +
		 sen_cpu_energy(d, o, u, period_us, &pr);
	s_min = d->nr_idle - 1;
	for (i = 0; i < nr; i++) {
		/* An idle CPU's busy share is 0 and its state the deepest. */
		const struct sen_cpu_price *c = i == idx ? &pr : &base->cpu[i];

		s_min = min_t(unsigned int, s_min, c->state);
		q = (q * (SCHED_CAPACITY_SCALE - c->busy)) >> SCHED_CAPACITY_SHIFT;
	}
	return energy + sen_cluster_energy(d, o, q, s_min, period_us);
}

/* One decision in progress. */
struct sen_pick {
	struct task_struct *p;
	const struct cpumask *span;	/* the root domain's CPUs */
	unsigned long util;		/* the task's demand */
	unsigned long peak;		/* demand + spread: to fit a smaller CPU */
	unsigned long prev_cap;		/* top capacity of prev_cpu's domain */
	unsigned long settled;		/* demand to stay on prev_cpu */
	unsigned long held;		/* its contribution on @held_cpu */
	int held_cpu;
	int prev_cpu;
	u64 period_us;
	int best_cpu;
	s64 best_delta;
	int fit_cpu;			/* cheapest fitting CPU but prev_cpu */
	s64 fit_delta;
	const struct sen_domain *prev_dom;	/* prev_cpu's domain */
	int far_cpu;			/* cheapest outside prev_dom */
	s64 far_delta;
	s64 prev_delta;			/* S64_MAX: prev_cpu not weighed */
	int target;			/* a balancer's destination, or -1 */
	bool balance;			/* weigh prev_cpu even if overfull */
	long prev_room;			/* balance: room left on prev_cpu */
	long roomy_room;		/* with the task, and on the roomiest */
	int roomy;			/* other CPU: where it fits best */
	bool prev_fits;
	unsigned long room_cap;		/* held off CPUs this small */
	u64 now;			/* local_clock() at the start */
	struct sen_cand *trace;		/* NULL when the event is off */
	int trace_len;			/* candidates in @trace */
};

/* Room to grow: SEN_FIT_PCT% of the capacity, as fits_capacity(). */
static inline bool sen_fits(unsigned long util, unsigned long cap)
{
	return util * 100 < cap * SEN_FIT_PCT;
}

/* Room to stay: SEN_STAY_PCT% of the capacity. */
static inline bool sen_fits_stay(unsigned long util, unsigned long cap)
{
	return util * 100 < cap * SEN_STAY_PCT;
}

/*
 * Does the task fit @cpu, of capacity @cap, whose utilization without it
 * is @util?  Thresholds differ with the direction, so that a task near
 * one is not moved back and forth across it:
 *  - to stay on prev_cpu, its settled demand must fit in SEN_STAY_PCT% of
 *    the capacity (sen_task_settled(): one long activation does not make
 *    it leave; the band above 80%: a demand that wobbles around 80% does
 *    not either);
 *  - to go to a CPU smaller than its own, its peak (demand plus the
 *    spread of its recent samples): a task that only just fits a small
 *    CPU by its mean would stop fitting at its next long activation; and
 *    not to one as small as a CPU it recently left for room, unless it
 *    would use little of it (sen_room_note());
 *  - to go anywhere else, its demand.
 */
static inline bool sen_pick_fits(const struct sen_pick *pk, int cpu,
				 unsigned long util, unsigned long cap)
{
	if (cpu == pk->prev_cpu)
		return sen_fits_stay(util + pk->settled, cap);
	if (cap < pk->prev_cap && cap <= pk->room_cap &&
	    pk->peak * 100 >= cap * SEN_ROOM_FREE_PCT)
		return false;
	return sen_fits(util + (cap < pk->prev_cap ? pk->peak : pk->util), cap);
}

/**
 * sen_room_next_shift() - the hold's doubling for a task leaving for room
 * @last:	sen_stamp() of its previous departure for room, 0 for none
 * @shift:	the doubling of the hold that followed it
 * @now:	sen_stamp() of this departure
 *
 * A task whose samples straddle a small CPU's fit limit (phone3's "20%"
 * task reads 21-26% with rt-app's own work, the LITTLE limit is 22%)
 * keeps leaving for room at two long activations close together and
 * coming back for energy at four short ones.  Coming back and leaving
 * again within twice the hold doubles the next hold; a task that stayed
 * away that long starts again from one.
 *
 * Return: the new doubling, at most SEN_ROOM_SHIFT_MAX.
 */
u8 sen_room_next_shift(u32 last, u8 shift, u32 now)
{
	if (sen_stamp_within(last, now, 2U << (SEN_ROOM_HOLD_SHIFT + shift)))
		return min_t(u8, shift + 1, SEN_ROOM_SHIFT_MAX);
	return 0;
}

/**
 * sen_room_holds() - is a task still held off CPUs it left for room
 * @since:	sen_stamp() of its departure, 0 for none
 * @shift:	the hold's doubling (sen_room_next_shift())
 * @now:	sen_stamp() of the decision
 *
 * Return: true within 2^(SEN_ROOM_HOLD_SHIFT + @shift) units after @since.
 */
bool sen_room_holds(u32 since, u8 shift, u32 now)
{
	return sen_stamp_within(since, now, 1U << (SEN_ROOM_HOLD_SHIFT + shift));
}

/**
 * sen_room_note() - remember that a task leaves a CPU for room
 * @p:		the task
 * @src:	the CPU it leaves, too small for it
 * @dst:	where it goes
 * @now:	local_clock()
 *
 * Only a move to a bigger CPU counts, and only when the task's own
 * settled demand, from a full history of samples, no longer fits in
 * SEN_STAY_PCT% of @src (a task that only shared @src is free to go to
 * another CPU like it, and a new one whose first span ran long has shown
 * nothing yet).  While the hold lasts, the task goes to no CPU as small
 * as @src (sen_pick_fits()) unless its peak would use less than
 * SEN_ROOM_FREE_PCT% of it: a task that really shrank goes at once, one
 * that only had four short activations in a row, and still needs 60-80%
 * of the small CPU, does not.
 *
 * Context: @p's pi_lock held (a wakeup) or its rq locked (a balancer
 * move); written only when a task leaves for room, read locklessly by
 * decisions.
 */
void sen_room_note(struct task_struct *p, int src, int dst, u64 now)
{
	struct sen_task_util *u = &p->sen_util;
	unsigned long cap = arch_scale_cpu_capacity(src);
	u32 t = sen_stamp(now);

	if (arch_scale_cpu_capacity(dst) <= cap || u->nr_hist < SEN_UTIL_HIST ||
	    sen_fits_stay(sen_task_settled(p, sen_task_util(p)), cap))
		return;
	WRITE_ONCE(u->room_shift, sen_room_next_shift(u->roomed, u->room_shift, t));
	WRITE_ONCE(u->room_cap, cap);
	WRITE_ONCE(u->roomed, t);
}

/* Keep a candidate for the trace, while its event is on (see sen_cand). */
static void sen_trace_add(struct sen_pick *pk, int cpu, s32 delta)
{
	if (pk->trace && pk->trace_len < SEN_NR_CANDS)
		pk->trace[pk->trace_len++] = (struct sen_cand){ cpu, delta };
}

static void sen_trace_cand(struct sen_pick *pk, int cpu, s64 delta)
{
	if (pk->trace)
		sen_trace_add(pk, cpu, clamp_t(s64, div_s64(delta, SCHED_CAPACITY_SCALE),
					       SEN_CAND_FIT + 1, S32_MAX));
}

static struct sen_tip *sen_domain_tip(const struct sen_domain *d)
{
	return per_cpu_ptr(&sen_tip, cpumask_first(&d->cpus));
}

/*
 * Is a domain's last observation SEN_TIP_EVAL_NS old at @now?  Its tipping
 * state is shared by every CPU that decides: written by ticks at most that
 * often, it is only read on wakeups.
 */
static bool sen_tip_due(const struct sen_domain *d, u64 now)
{
	return (s64)(now - READ_ONCE(sen_domain_tip(d)->last)) >= SEN_TIP_EVAL_NS;
}

/*
 * Feed a domain's tipping point, which the caller found due at @now:
 * @util summed over @nr active CPUs whose capacities (at the top OPP) sum
 * to @total, @tasks runnable fair tasks on them.
 */
static void sen_tip_note(const struct sen_domain *d, unsigned long util,
			 unsigned int nr, unsigned long total, unsigned int tasks,
			 u64 now)
{
	struct sen_tip *t = sen_domain_tip(d);
	bool cross;

	if (!nr || !raw_spin_trylock(&t->lock))
		return;
	/* Another CPU may have fed it since @now was read. */
	if (!sen_tip_due(d, now))
		goto out;
	if (t->tipped)
		cross = util * 10 < total * 6 || tasks <= nr;
	else
		cross = util * 1280 > total * 1024 && tasks > nr;
	/*
	 * Tipping needs the overload seen without a gap (what happened while
	 * no one looked is not known); untipping only needs no overload seen.
	 */
	if (!cross) {
		t->since = 0;
	} else if (!t->since ||
		   (!t->tipped && (s64)(now - t->last) > SEN_TIP_GAP_NS)) {
		t->since = now;
	} else if ((s64)(now - t->since) >=
		   (t->tipped ? SEN_UNTIP_NS : SEN_TIP_NS)) {
		WRITE_ONCE(t->tipped, !t->tipped);
		t->since = 0;
		WRITE_ONCE(t->flips, t->flips + 1);
		trace_sen_tipping(cpumask_first(&d->cpus), util, total, tasks,
				  t->tipped);
	}
	WRITE_ONCE(t->last, now);
out:
	raw_spin_unlock(&t->lock);
}

/* Look at a domain at @now: sum its active CPUs, feed its tipping point. */
static void sen_tip_observe(const struct sen_domain *d, u64 now)
{
	unsigned long sum = 0, total = 0;
	unsigned int n = 0, tasks = 0;
	int c;

	if (!d->nr_opps)
		return;
	for_each_cpu_and(c, &d->cpus, cpu_active_mask) {
		sum += sen_cpu_util(c, now);
		total += d->opp[d->nr_opps - 1].cap;
		tasks += READ_ONCE(cpu_rq(c)->cfs.h_nr_running);
		n++;
	}
	sen_tip_note(d, sum, n, total, tasks, now);
}

/*
 * Is a domain above its tipping point at @now?  A busy CPU looks at its
 * domain at every tick; a tipped domain nobody has looked at for
 * SEN_TIP_EVAL_NS (its CPUs went idle and stopped ticking, or the host
 * stalled them) is looked at now, so that it untips on time.
 */
static bool sen_domain_tipped(const struct sen_domain *d, u64 now)
{
	struct sen_tip *t = sen_domain_tip(d);

	if (!READ_ONCE(t->tipped))
		return false;
	if ((s64)(now - READ_ONCE(t->last)) > SEN_TIP_EVAL_NS)
		sen_tip_observe(d, now);
	return READ_ONCE(t->tipped);
}

/*
 * Snapshot one domain's CPUs and pick its candidates (none if it is
 * tipped).  False if it holds prev_cpu and is tipped: the decision is the
 * classic path's.
 */
static bool sen_snapshot(struct sen_pick *pk, const struct sen_domain *d,
			 struct sen_scratch *sc, unsigned int *nr, int *cand)
{
	unsigned long cap = d->opp[d->nr_opps - 1].cap;
	unsigned int n = 0, lat, best_lat = UINT_MAX;
	int cpu, pack = -1, spare = -1, idle = -1;
	bool has_prev = false;

	for_each_cpu_and(cpu, &d->cpus, pk->span) {
		struct cpuidle_state *st;
		unsigned long u;

		if (!cpu_active(cpu))
			continue;
		u = sen_cpu_util(cpu, pk->now);
		if (cpu == pk->held_cpu)
			u -= min(u, pk->held);
		sc->util[n] = u;
		sc->cpu[n] = cpu;
		if (cpu == pk->target)
			cand[4] = n;
		if (cpu == pk->prev_cpu)
			has_prev = true;
		if (cpumask_test_cpu(cpu, pk->p->cpus_ptr)) {
			long room = (long)cap - (long)(u + pk->util);

			if (cpu == pk->prev_cpu) {
				pk->prev_room = room;
				pk->prev_fits = sen_pick_fits(pk, cpu, u, cap);
			} else if ((pk->target < 0 || cpu == pk->target) &&
				 (pk->roomy < 0 || room > pk->roomy_room)) {
				pk->roomy = cpu;
				pk->roomy_room = room;
			}
			if (cpu == pk->prev_cpu)
				cand[0] = n;
			if (sen_pick_fits(pk, cpu, u, cap) &&
			    (pack < 0 || u > sc->util[pack]))
				pack = n;
			if (sen_fits(u, cap) &&
			    (spare < 0 || u < sc->util[spare]))
				spare = n;
			if (available_idle_cpu(cpu)) {
				st = idle_get_state(cpu_rq(cpu));
				lat = st ? st->exit_latency : 0;
				if (idle < 0 || lat < best_lat ||
				    (lat == best_lat && u < sc->util[idle])) {
					best_lat = lat;
					idle = n;
				}
			}
		}
		n++;
	}
	*nr = n;
	if (sen_domain_tipped(d, pk->now)) {
		if (pk->roomy >= 0 && cpumask_test_cpu(pk->roomy, &d->cpus))
			pk->roomy = -1;
		cand[0] = -1;
		cand[4] = -1;
		return !has_prev;
	}
	cand[1] = pack;
	cand[2] = spare;
	cand[3] = idle;
	return true;
}

/* Weigh the candidates of one domain; false if prev_cpu's domain tipped. */
static bool sen_weigh_domain(struct sen_pick *pk, const struct sen_domain *d,
			     struct sen_scratch *sc)
{
	unsigned long cap = d->opp[d->nr_opps - 1].cap;
	int cand[SEN_CANDS_PER_DOM] = { -1, -1, -1, -1, -1 };
	struct sen_dom_base base = { .cpu = sc->price };
	bool priced = false;	/* with the first candidate */
	unsigned int nr, i, j;

	if (!sen_snapshot(pk, d, sc, &nr, cand))
		return false;
	if (!nr)
		return true;
	for (i = 0; i < SEN_CANDS_PER_DOM; i++) {
		int c = cand[i];
		s64 delta;

		if (c < 0)
			continue;
		if (pk->target >= 0 && sc->cpu[c] != pk->target &&
		    sc->cpu[c] != pk->prev_cpu)
			continue;
		/* A balancer weighs where the task is, full or not. */
		if (!(pk->balance && sc->cpu[c] == pk->prev_cpu) &&
		    !sen_pick_fits(pk, sc->cpu[c], sc->util[c], cap))
			continue;
		for (j = 0; j < i && cand[j] != c; j++)
			;
		if (j < i)
			continue;	/* weighed already */
		if (!priced) {
			sen_domain_base(d, sc->util, nr, pk->period_us, &base);
			priced = true;
		}
		delta = sen_domain_energy_with(d, sc->util, nr, c, pk->util,
					       pk->period_us, &base) - base.energy;
		sen_trace_cand(pk, sc->cpu[c], delta);
		if (sc->cpu[c] == pk->prev_cpu) {
			pk->prev_delta = delta;
		} else if (pk->fit_cpu < 0 || delta < pk->fit_delta) {
			pk->fit_cpu = sc->cpu[c];
			pk->fit_delta = delta;
		}
		if (pk->best_cpu < 0 || delta < pk->best_delta) {
			pk->best_cpu = sc->cpu[c];
			pk->best_delta = delta;
		}
		if (d != pk->prev_dom && (pk->far_cpu < 0 || delta < pk->far_delta)) {
			pk->far_cpu = sc->cpu[c];
			pk->far_delta = delta;
		}
	}
	return true;
}

/* The task's demand, its peak, the period to price it over, the time. */
static void sen_pick_task(struct sen_pick *pk, struct task_struct *p, u64 now)
{
	u64 cycle;

	pk->p = p;
	pk->now = now;
	pk->fit_cpu = -1;
	pk->far_cpu = -1;
	pk->prev_cap = SCHED_CAPACITY_SCALE;
	pk->util = sen_task_util(p);	/* SEN_UTIL_NEW for a new task */
	pk->peak = pk->util + READ_ONCE(p->sen_util.spread);
	pk->settled = sen_task_settled(p, pk->util);
	pk->room_cap = sen_room_holds(READ_ONCE(p->sen_util.roomed),
				      READ_ONCE(p->sen_util.room_shift),
				      sen_stamp(now)) ?
		       READ_ONCE(p->sen_util.room_cap) : 0;
	cycle = READ_ONCE(p->sen_util.last_cycle);
	pk->period_us = div_u64(cycle ? clamp_t(u64, cycle, SEN_UTIL_WINDOW_NS,
						8 * SEN_UTIL_WINDOW_NS) :
					2 * SEN_UTIL_WINDOW_NS, NSEC_PER_USEC);
}

/* Weigh every domain; the reason when the classic path must decide. */
static int sen_pick_weigh(struct sen_pick *pk, const struct sen_model *m,
			  struct sen_scratch *sc)
{
	const struct sen_domain *d = sen_cpu_domain(m, pk->prev_cpu);
	unsigned int i;

	pk->prev_dom = d;
	if (d && d->nr_opps)
		pk->prev_cap = d->opp[d->nr_opps - 1].cap;

	for (i = 0; i < m->nr_domains; i++) {
		if (!sen_weigh_domain(pk, &m->dom[i], sc)) {
			pk->trace_len = 0;	/* weighed in part only */
			return SEN_WHY_OVERUTIL;
		}
	}
	return pk->best_cpu < 0 ? SEN_WHY_NOFIT : SEN_WHY_ENERGY;
}

/**
 * sen_balance_pick() - where moving a queued or running task saves energy
 * @p:		a fair task on @cpu's runqueue
 * @cpu:	its CPU
 * @target:	the one destination to weigh, or -1 to weigh them all
 * @now:	local_clock() of the caller's pass (sen_cpu_util())
 * @mv:		filled with the cheapest CPU, what moving there saves and
 *		what the task costs on @cpu, and the candidates weighed
 *
 * The load balancer's question (energy_balance.c).  Unlike a wakeup, the
 * task's own CPU is weighed even when it is too full for the task; and
 * when it is (less than 20% of it left with the task's settled demand on
 * it), the answer is a move for capacity, not energy (@mv->fit): to the
 * cheapest other CPU the task fits on, or if there is none to the allowed
 * CPU that leaves it the most room, if that is more room than it has now.
 * A CPU smaller than @cpu must fit the task's peak, not only its demand
 * (sen_pick_fits()).
 *
 * Context: @cpu's rq locked, interrupts off; no allocation, no sleeping.
 * Return: false if there is no answer: no model, @cpu's domain above its
 * tipping point, or no candidate.
 */
bool sen_balance_pick(struct task_struct *p, int cpu, int target, u64 now,
		      struct sen_move *mv)
{
	struct sen_pick pk = {
		.prev_cpu = cpu, .best_cpu = -1, .prev_delta = S64_MAX,
		.held_cpu = -1, .target = target, .balance = true,
		.trace = trace_sen_balance_enabled() ? mv->cand : NULL,
		.roomy = -1,
	};
	const struct sen_model *m;
	struct sen_scratch *sc;
	bool ok = false;
	int why;

	sen_pick_task(&pk, p, now);
	/* idle_get_state() wants a real RCU read side, not only irqs off. */
	rcu_read_lock();
	m = sen_model_rcu();
	sc = sen_scratch_get();
	if (!m || !sc)
		goto out;
	pk.held = sen_task_contrib(p, &pk.held_cpu, pk.now);
	pk.span = cpu_rq(cpu)->rd->span;
	mv->fit = false;
	why = sen_pick_weigh(&pk, m, sc);
	if (why == SEN_WHY_OVERUTIL)
		goto out;
	/*
	 * The task no longer fits where it is (it shares its CPU, or it
	 * grew): it goes, whatever the energy, to the cheapest other CPU it
	 * fits on (each was weighed above), or if there is none to the one
	 * that leaves it the most room, if that is more room than it has.
	 */
	if (!pk.prev_fits && pk.fit_cpu < 0 && pk.roomy >= 0 &&
	    pk.roomy_room > pk.prev_room)
		pk.fit_cpu = pk.roomy;
	if (!pk.prev_fits && pk.fit_cpu >= 0) {
		mv->dst = pk.fit_cpu;
		mv->fit = true;
		sen_trace_add(&pk, pk.fit_cpu, SEN_CAND_FIT);
		mv->cost = 0;
		mv->saving = 0;
		ok = true;
		goto out;
	}
	if (why != SEN_WHY_ENERGY || pk.prev_delta == S64_MAX)
		goto out;
	mv->dst = pk.best_cpu;
	mv->local = pk.best_cpu != pk.far_cpu;
	mv->cost = pk.prev_delta;
	mv->saving = pk.prev_delta - pk.best_delta;
	ok = true;
out:
	rcu_read_unlock();
	mv->nr_cand = pk.trace_len;
	return ok;
}

/**
 * sen_tip_check() - feed the tipping point of a CPU's domain
 * @cpu:	the CPU
 * @now:	local_clock() of the caller (the tick's or the pull's)
 *
 * The balancer's tick calls this on every tick of a busy CPU, so that a
 * busy domain is watched even when nothing in it wakes up (tasks that
 * never sleep); a domain looked at less than SEN_TIP_EVAL_NS ago is not
 * summed again.
 *
 * Context: any; reads the tracker's signals without locks.
 * Return: true if @cpu's domain is above its tipping point.
 */
bool sen_tip_check(int cpu, u64 now)
{
	const struct sen_model *m;
	const struct sen_domain *d;
	bool tipped = false;

	rcu_read_lock();
	m = sen_model_rcu();
	d = m ? sen_cpu_domain(m, cpu) : NULL;
	if (d) {
		if (sen_tip_due(d, now))	/* not summed again for nothing */
			sen_tip_observe(d, now);
		tipped = sen_domain_tipped(d, now);
	}
	rcu_read_unlock();
	return tipped;
}

/**
 * sen_lb_classic() - must the classic load balancer run in a sched domain
 * @span:	the sched domain's CPUs
 *
 * Called by find_busiest_group() while the policy is on: below every
 * tipping point, moves are the energy-aware balancer's (and misfit
 * tasks', which find_busiest_group() handles first, as under mainline EAS).
 *
 * Return: true if a performance domain with CPUs in @span is tipped, or
 * if there is no model.
 */
bool sen_lb_classic(const struct cpumask *span)
{
	const struct sen_model *m;
	bool classic = false;
	unsigned int i;

	rcu_read_lock();
	m = sen_model_rcu();
	if (!m)
		classic = true;
	/* The clock is read only for a domain that is tipped. */
	for (i = 0; m && i < m->nr_domains && !classic; i++)
		classic = cpumask_intersects(&m->dom[i].cpus, span) &&
			  READ_ONCE(sen_domain_tip(&m->dom[i])->tipped) &&
			  sen_domain_tipped(&m->dom[i], local_clock());
	rcu_read_unlock();
	return classic;
}

static int sen_kind(int wake_flags)
{
	if (wake_flags & WF_FORK)
		return SEN_KIND_FORK;
	if (wake_flags & WF_EXEC)
		return SEN_KIND_EXEC;
	return SEN_KIND_WAKEUP;
}

/*
 * Where a waking task goes once every candidate is weighed: the cheapest
 * candidate that saves more than its margin of prev_cpu's cost, else
 * prev_cpu.  The margin is 1/16 (the price of a migration, which the model
 * does not know), and 1/4 for a CPU of prev_cpu's own domain on a wakeup:
 * there, at one OPP, the CPUs differ only in the idle states the model
 * expects, the least certain part of an estimate (it rests on when every
 * other task of each CPU next wakes).  At 1/16, tasks of the mp3 workload
 * moved between the CPUs of a cluster at four times mainline EAS's rate,
 * for savings of 5-25%; a move that lowers the domain's OPP saves more and
 * still goes.  A fork or exec keeps 1/16 everywhere: prev_cpu is then the
 * parent's, no cache of the task's own is lost.
 *
 * The margin is a share of the size of prev_cpu's cost: a cost can be
 * negative (a cluster whose WFI power exceeds its power running at the
 * lowest OPP), and a negative margin would take any move.
 */
static int sen_wake_target(const struct sen_pick *pk, int kind)
{
	unsigned int local = kind == SEN_KIND_WAKEUP ?
			     SEN_WAKE_LOCAL_MARGIN_SHIFT : SEN_WAKE_MARGIN_SHIFT;

	if (pk->prev_delta == S64_MAX)
		return pk->best_cpu;
	/* The cheapest is in prev_cpu's domain (or is prev_cpu). */
	if (pk->best_cpu != pk->far_cpu &&
	    sen_saves(pk->prev_delta - pk->best_delta, pk->prev_delta, local))
		return pk->best_cpu;
	if (pk->far_cpu >= 0 &&
	    sen_saves(pk->prev_delta - pk->far_delta, pk->prev_delta,
		      SEN_WAKE_MARGIN_SHIFT))
		return pk->far_cpu;
	return pk->prev_cpu;
}

/* A wakeup's decision for @p from @prev_cpu, its figures read. */
static __always_inline void sen_pick_wake(struct sen_pick *pk,
					  struct task_struct *p, int prev_cpu)
{
	*pk = (struct sen_pick) {
		.prev_cpu = prev_cpu, .best_cpu = -1,
		.prev_delta = S64_MAX, .held_cpu = -1, .target = -1,
		.prev_fits = true,	/* false only if weighed and too full */
	};
	sen_pick_task(pk, p, local_clock());
}

/*
 * A wakeup's decision once the task's figures are in @pk: its own
 * contribution taken off its CPU, every domain weighed on model @m with
 * scratch @sc, the margins.  Sets *@why; returns the CPU, -1 for the
 * classic path.
 */
static __always_inline int sen_decide(struct sen_pick *pk,
				      const struct sen_model *m,
				      struct sen_scratch *sc, int kind,
				      int *why)
{
	int cpu;

	pk->held = sen_task_contrib(pk->p, &pk->held_cpu, pk->now);
	pk->span = this_rq()->rd->span;
	*why = sen_pick_weigh(pk, m, sc);
	if (*why != SEN_WHY_ENERGY)
		return -1;
	cpu = sen_wake_target(pk, kind);
	*why = cpu == pk->prev_cpu ? SEN_WHY_PREV : SEN_WHY_ENERGY;
	if (!pk->prev_fits && cpu != pk->prev_cpu && kind == SEN_KIND_WAKEUP)
		sen_room_note(pk->p, pk->prev_cpu, cpu, pk->now);
	return cpu;
}

/**
 * sen_select_cpu() - the CPU where a task costs the least energy
 * @p:		the task being woken, forked or exec'ed
 * @prev_cpu:	the CPU it last ran on (the parent's for a new task)
 * @wake_flags:	WF_TTWU, WF_FORK or WF_EXEC, and WF_SYNC
 *
 * Called by select_task_rq_fair() while the policy is on.  Every allowed,
 * active CPU of the root domain may be chosen: per domain, prev_cpu, the
 * busiest CPU the task still fits on (packing), the least busy one
 * (spreading) and the idle one in the shallowest idle state are weighed,
 * and the one whose domain's energy grows least wins; prev_cpu is kept
 * unless the winner saves more than 1/16 of prev_cpu's cost, 1/4 within
 * prev_cpu's domain on a wakeup (sen_wake_target()).
 *
 * Context: p->pi_lock held, interrupts off; no allocation, no sleeping.
 * Return: the CPU, or -1 for the classic path: no model, no allowed CPU
 * the task fits on with 20% to spare, or prev_cpu's domain above its
 * tipping point.
 */
int sen_select_cpu(struct task_struct *p, int prev_cpu, int wake_flags)
{
	struct sen_cand trace[SEN_NR_CANDS] __uninitialized;	/* read once set */
	int kind = sen_kind(wake_flags), why, cpu = -1;
	const struct sen_model *m;
	struct sen_scratch *sc;
	struct sen_pick pk;

	sen_pick_wake(&pk, p, prev_cpu);
	if (trace_sen_decision_enabled())
		pk.trace = trace;

	rcu_read_lock();
	m = sen_model_rcu();
	sc = sen_scratch_get();
	if (!m || !sc)
		why = SEN_WHY_NOMODEL;
	else
		cpu = sen_decide(&pk, m, sc, kind, &why);
	rcu_read_unlock();
	__this_cpu_inc(sen_stats.n[why]);
	if (kind != SEN_KIND_WAKEUP)
		__this_cpu_inc(sen_stats.n[kind == SEN_KIND_FORK ? SEN_STAT_FORK :
					   SEN_STAT_EXEC]);
	if (pk.trace)
		trace_sen_decision(p, kind, prev_cpu, pk.util, pk.period_us,
				   trace, pk.trace_len, cpu, why);
	return cpu;
}

static int sen_scratch_alloc(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct sen_scratch *sc = per_cpu_ptr(&sen_scratch, cpu);
		struct sen_cpu_price *price;
		unsigned long *util;
		int *cpus;

		if (sc->util)
			continue;
		util = kcalloc_node(nr_cpu_ids, sizeof(*util), GFP_KERNEL,
				    cpu_to_node(cpu));
		cpus = kcalloc_node(nr_cpu_ids, sizeof(*cpus), GFP_KERNEL,
				    cpu_to_node(cpu));
		price = kcalloc_node(nr_cpu_ids, sizeof(*price), GFP_KERNEL,
				     cpu_to_node(cpu));
		if (!util || !cpus || !price) {
			kfree(util);
			kfree(cpus);
			kfree(price);
			return -ENOMEM;
		}
		sc->cpu = cpus;
		sc->price = price;
		/*
		 * Published last, after sc->cpu and sc->price: decisions test
		 * util with an acquire before they use the other arrays.
		 */
		smp_store_release(&sc->util, util);
	}
	return 0;
}

#ifdef CONFIG_SCHED_ENERGY_KUNIT_TEST
/**
 * sen_bench_prepare() - ready the decisions of a KUnit benchmark
 *
 * Allocates the decisions' scratch, as turning the policy on does first
 * (it stays allocated), unless the policy is on or left a domain above
 * its tipping point: a benchmark's decisions read the real domains'
 * tipping state (a synthetic domain's is its first CPU's) and would
 * then end on the classic path, and feed it.
 *
 * Context: process context, may sleep.
 * Return: 0, -EBUSY (policy on, or a domain tipped), or -ENOMEM.
 */
int sen_bench_prepare(void)
{
	int cpu, ret = 0;

	mutex_lock(&sen_policy_mutex);
	if (READ_ONCE(sysctl_sched_energy))
		ret = -EBUSY;
	for_each_possible_cpu(cpu)
		if (READ_ONCE(per_cpu(sen_tip, cpu).tipped))
			ret = -EBUSY;
	if (!ret)
		ret = sen_scratch_alloc();
	mutex_unlock(&sen_policy_mutex);
	return ret;
}

/**
 * sen_select_cpu_on() - sen_select_cpu() on a model of the caller's
 * @m:		the model: its domains' CPUs must be possible CPUs
 * @p:		the task
 * @prev_cpu:	as for sen_select_cpu()
 * @wake_flags:	as for sen_select_cpu()
 * @why:	gets the reason (enum sen_why)
 *
 * The same decision, code for code, but on @m instead of the published
 * model, without the trace event and the counters: the KUnit suite
 * sched_energy_decision_cost times whole decisions on synthetic
 * platforms larger than the board with it (its
 * sched_energy_decision_whole lines).
 *
 * Context: an RCU read-side section with interrupts off, as a wakeup's;
 * sen_bench_prepare() done.
 * Return: the CPU, or -1 for the classic path.
 */
int sen_select_cpu_on(const struct sen_model *m, struct task_struct *p,
		      int prev_cpu, int wake_flags, int *why)
{
	struct sen_scratch *sc = sen_scratch_get();
	struct sen_pick pk;

	lockdep_assert_irqs_disabled();
	RCU_LOCKDEP_WARN(!rcu_read_lock_held(),
			 "a decision needs an RCU read-side section");
	sen_pick_wake(&pk, p, prev_cpu);
	if (!sc) {
		*why = SEN_WHY_NOMODEL;
		return -1;
	}
	return sen_decide(&pk, m, sc, sen_kind(wake_flags), why);
}
#endif

/*
 * With sched_verbose only, as mainline says "starting EAS": a daemon that
 * flips the policy must not flood the kernel log.
 */
static void sen_policy_say(bool on)
{
#ifdef CONFIG_SCHED_DEBUG
	if (sched_debug_verbose)
		pr_info("sched-energy: policy %s\n", on ? "on" : "off");
#endif
}

static int sen_policy_start(void)
{
	char why[SEN_REASON_LEN];
	int ret;

	if (!sen_model_available(why, sizeof(why))) {
		pr_warn("sched-energy: kernel.sched_energy=1 refused: no platform energy model (%s)\n",
			why);
		return -ENODEV;
	}
	ret = sen_scratch_alloc();
	if (ret)
		return ret;
	/* The tracker runs before the first decision reads it. */
	sen_util_track_policy(true);
	/*
	 * Mainline EAS first loses its perf domains, then ours starts.  A
	 * plain rebuild would keep the perf domains of unchanged root
	 * domains: this one builds them again, and build_perf_domains()
	 * now declines.
	 */
	WRITE_ONCE(sysctl_sched_energy, 1);
	rebuild_sched_domains_energy();
	static_branch_enable(&sen_policy_key);
	sen_policy_say(true);
	return 0;
}

static int sen_policy_stop(void)
{
	static_branch_disable(&sen_policy_key);
	WRITE_ONCE(sysctl_sched_energy, 0);
	/* Mainline EAS gets its perf domains back if it is enabled. */
	rebuild_sched_domains_energy();
	/* Unless the sched_energy governor reads it, the tracker stops too. */
	sen_util_track_policy(false);
	sen_policy_say(false);
	return 0;
}

static int sen_sysctl_handler(struct ctl_table *table, int write,
			      void *buffer, size_t *lenp, loff_t *ppos)
{
	struct ctl_table t = *table;
	unsigned int val;
	int ret;

	if (write && !capable(CAP_SYS_ADMIN))
		return -EPERM;

	mutex_lock(&sen_policy_mutex);
	val = sysctl_sched_energy;
	t.data = &val;
	ret = proc_douintvec_minmax(&t, write, buffer, lenp, ppos);
	if (!ret && write && val != sysctl_sched_energy)
		ret = val ? sen_policy_start() : sen_policy_stop();
	mutex_unlock(&sen_policy_mutex);
	return ret;
}

static struct ctl_table sen_sysctls[] = {
	{
		.procname	= "sched_energy",
		.data		= &sysctl_sched_energy,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= sen_sysctl_handler,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
	{}
};

#ifdef CONFIG_DEBUG_FS
static int sen_policy_show(struct seq_file *m, void *unused)
{
	unsigned long sum[SEN_NR_STATS] = { }, all = 0;
	const struct sen_model *model;
	int cpu, i;

	for_each_possible_cpu(cpu)
		for (i = 0; i < SEN_NR_STATS; i++)
			sum[i] += per_cpu(sen_stats, cpu).n[i];
	/* Each decision has one outcome; fork and exec count some again. */
	for (i = 0; i < SEN_STAT_FORK; i++)
		all += sum[i];
	seq_printf(m, "sched_energy: %u\n", READ_ONCE(sysctl_sched_energy));
	seq_printf(m, "mainline_eas: %d\n", sched_energy_enabled());
	seq_printf(m, "tracker: %d\n", sen_util_tracking());
	seq_printf(m, "decisions: %lu\n", all);
	for (i = 0; i < SEN_NR_STATS; i++)
		seq_printf(m, "decisions_%s: %lu\n", sen_stat_names[i], sum[i]);
	rcu_read_lock();
	model = sen_model_rcu();
	for (i = 0; model && i < model->nr_domains; i++) {
		struct sen_tip *t = sen_domain_tip(&model->dom[i]);

		seq_printf(m, "domain%d: cpus=%*pbl tipped=%d flips=%lu\n", i,
			   cpumask_pr_args(&model->dom[i].cpus),
			   sen_domain_tipped(&model->dom[i], local_clock()),
			   READ_ONCE(t->flips));
	}
	rcu_read_unlock();
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sen_policy);

static struct sen_knob sen_headroom_knob = {
	&sen_headroom_shift, SEN_HEADROOM_SHIFT_MIN, SEN_HEADROOM_SHIFT_MAX
};
#endif

static int __init sen_policy_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		raw_spin_lock_init(&per_cpu(sen_tip, cpu).lock);
	register_sysctl_init("kernel", sen_sysctls);
#ifdef CONFIG_DEBUG_FS
	debugfs_create_file("policy", 0444, sen_debugfs_dir(), NULL,
			    &sen_policy_fops);
	sen_debugfs_knob("headroom_shift", &sen_headroom_knob);
#endif
	return 0;
}
late_initcall(sen_policy_init);
