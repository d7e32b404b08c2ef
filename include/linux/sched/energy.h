/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched-energy: the platform energy model the scheduler consults.
 *
 * The model describes, for every performance domain (a set of CPUs that
 * share one clock, which sched-energy requires to be one cpu-map
 * cluster):
 *
 *  - its operating points: frequency, the capacity of one CPU at that
 *    frequency, the active power of one busy CPU and the shared power of
 *    the cluster (L2, interconnect) while at least one of its CPUs is
 *    busy;
 *  - its idle states, shallowest first, state 0 being WFI: the power of
 *    one CPU in the state, the power of the cluster while every CPU of
 *    the cluster is in that state or a deeper one, the exit latency and
 *    target residency, and the energy one CPU spends to leave the state.
 *
 * All powers of one model are in one unit (microwatts, or an abstract
 * unit for built-in tables taken from hand-tuned data); the scheduler
 * only ever compares energies of the same model.
 *
 * The model is built in process context by the architecture (see
 * arch/arm64/kernel/energy_model.c), validated, and published with RCU.
 * It is replaced as a whole, never modified in place, so readers in any
 * context see either the old or the new model, complete:
 *
 *	rcu_read_lock();		(or preemption/interrupts disabled)
 *	m = sen_model_rcu();
 *	if (m)
 *		d = sen_cpu_domain(m, cpu);
 *	...
 *	rcu_read_unlock();
 *
 * The model is static apart from rebuilds on CPU hotplug and cpufreq
 * policy changes: thermal capping and run-time recalibration are not
 * modelled.
 */
#ifndef _LINUX_SCHED_ENERGY_H
#define _LINUX_SCHED_ENERGY_H

#include <linux/cpumask.h>
#include <linux/jump_label.h>
#include <linux/math.h>
#include <linux/rcupdate.h>
#include <linux/time64.h>
#include <linux/types.h>

struct dentry;
struct rq;
struct seq_file;
struct task_struct;

/* Limits of one performance domain; the builder refuses larger tables. */
#define SEN_MAX_OPPS		32
#define SEN_MAX_IDLE_STATES	8
#define SEN_IDLE_NAME_LEN	16
/* Room for the reason a model was refused (sen_model_available()). */
#define SEN_REASON_LEN		192

/**
 * struct sen_opp - one operating point of a performance domain
 * @freq:		frequency in kHz
 * @cap:		capacity of one CPU at @freq (SCHED_CAPACITY_SCALE units)
 * @cpu_power:		power of one busy CPU at @freq
 * @cluster_power:	shared power of the cluster while any of its CPUs is
 *			busy, at @freq
 * @cost:		derived: energy of one CPU's full-capacity work at
 *			this OPP, @cpu_power * SCHED_CAPACITY_SCALE / @cap,
 *			so that the energy of util u here is u * @cost
 * @efficient:		derived: false when a higher OPP does the same work
 *			for no more energy (cpu and cluster power per unit of
 *			capacity, one busy CPU); such an OPP is never worth
 *			running at
 */
struct sen_opp {
	unsigned long freq;
	unsigned long cap;
	unsigned long cpu_power;
	unsigned long cluster_power;
	unsigned long cost;
	bool efficient;
};

/**
 * struct sen_idle_state - one idle state of the CPUs of a domain
 * @name:		the cpuidle name (device-tree node name, "WFI" for
 *			state 0)
 * @cpu_power:		power of one CPU in this state
 * @cluster_power:	power of the cluster while all of its CPUs are in this
 *			state or deeper
 * @wakeup_energy:	energy one CPU spends to leave this state, in the
 *			model's power unit times microseconds (0 if unknown)
 * @exit_latency_us:	entry + exit latency, as cpuidle counts it
 * @residency_us:	minimum residency for the state to pay off
 */
struct sen_idle_state {
	char name[SEN_IDLE_NAME_LEN];
	unsigned long cpu_power;
	unsigned long cluster_power;
	unsigned long wakeup_energy;
	unsigned int exit_latency_us;
	unsigned int residency_us;
};

/**
 * enum sen_source - where a part of the model came from
 * @SEN_SRC_NONE:	not known; the part is modelled as zero
 * @SEN_SRC_DT:		device-tree sched-energy-* properties
 * @SEN_SRC_EM:		the kernel energy model (opp-microwatt or
 *			dynamic-power-coefficient, through cpufreq)
 * @SEN_SRC_BUILTIN:	a built-in table matched by the machine compatible
 * @SEN_SRC_TEST:	a synthetic model (KUnit)
 */
enum sen_source {
	SEN_SRC_NONE,
	SEN_SRC_DT,
	SEN_SRC_EM,
	SEN_SRC_BUILTIN,
	SEN_SRC_TEST,
};

/**
 * enum sen_unit - the unit of every power in a model
 * @SEN_UNIT_UW:	microwatts
 * @SEN_UNIT_ABSTRACT:	a unit of the table's author, consistent within the
 *			model (built-in tables of the Android EAS trees)
 */
enum sen_unit {
	SEN_UNIT_UW,
	SEN_UNIT_ABSTRACT,
};

/**
 * struct sen_domain - a performance domain, which is also one cluster
 * @cpus:	the possible CPUs of the domain
 * @id:		index of the domain in its model, in order of first CPU
 * @nr_opps:	number of valid entries of @opp, ascending frequency
 * @nr_idle:	number of valid entries of @idle, shallowest first
 * @opp:	operating points
 * @idle:	idle states; @idle[0] is WFI
 */
struct sen_domain {
	struct cpumask cpus;
	unsigned int id;
	unsigned int nr_opps;
	unsigned int nr_idle;
	struct sen_opp opp[SEN_MAX_OPPS];
	struct sen_idle_state idle[SEN_MAX_IDLE_STATES];
};

/**
 * struct sen_model - the platform energy model
 * @rcu:		frees the model after the last reader
 * @unit:		unit of every power of the model
 * @src_active:		source of the CPU active power
 * @src_cluster:	source of the cluster shared power
 * @src_idle:		source of the idle powers
 * @table:		name of the built-in table, if one was used
 * @cpu_domain:		index in @dom of each CPU's domain (nr_cpu_ids entries,
 *			stored after @dom), -1 for CPUs that are not possible
 * @nr_domains:		number of entries of @dom
 * @dom:		the performance domains, in order of first CPU
 */
struct sen_model {
	struct rcu_head rcu;
	enum sen_unit unit;
	enum sen_source src_active;
	enum sen_source src_cluster;
	enum sen_source src_idle;
	const char *table;
	s16 *cpu_domain;
	unsigned int nr_domains;
	struct sen_domain dom[];
};

#ifdef CONFIG_SCHED_ENERGY

extern struct sen_model __rcu *sen_model_ptr;

/**
 * sen_model_rcu() - the current platform energy model
 *
 * Context: an RCU read-side critical section, including one implied by
 * disabled preemption or interrupts; the model stays valid until that
 * section ends.
 *
 * Return: the model, or NULL when there is none (not built yet, or
 * refused).
 */
static inline const struct sen_model *sen_model_rcu(void)
{
	return rcu_dereference_check(sen_model_ptr, rcu_read_lock_any_held());
}

/**
 * sen_cpu_domain() - the performance domain of a CPU
 * @m:		a model obtained from sen_model_rcu()
 * @cpu:	a CPU number below nr_cpu_ids
 *
 * Return: the domain, or NULL if @cpu is not a possible CPU.
 */
static inline const struct sen_domain *
sen_cpu_domain(const struct sen_model *m, int cpu)
{
	int d = m->cpu_domain[cpu];

	return d < 0 ? NULL : &m->dom[d];
}

size_t sen_model_size(unsigned int nr_domains);
bool sen_model_available(char *why, size_t len);
void sen_model_init(struct sen_model *m, unsigned int nr_domains);
int sen_model_validate(const struct sen_model *m, char *why, size_t len);
void sen_model_derive(struct sen_model *m);
int sen_model_publish(struct sen_model *m);
__printf(1, 2) void sen_model_withdraw(const char *fmt, ...);
const char *sen_source_name(enum sen_source src, const struct sen_model *m);

struct dentry *sen_debugfs_dir(void);

/**
 * struct sen_knob - a tunable of sched-energy, as a file in its debugfs
 * @val:	the value; its users read it with READ_ONCE()
 * @min:	the least value a write may set
 * @max:	the greatest
 */
struct sen_knob {
	unsigned int	*val;
	unsigned int	min;
	unsigned int	max;
};

void sen_debugfs_knob(const char *name, struct sen_knob *knob);

/*
 * Utilization tracking (kernel/sched/util_track.c).  Demands and CPU
 * utilization are in capacity units, frequency- and capacity-invariant.
 */
#define SEN_UTIL_WINDOW_NS	(8 * NSEC_PER_MSEC)
#define SEN_HOLD_SLOTS		32
#define SEN_UTIL_MARGIN_SHIFT	3	/* growth: samples > 1/8 above level */
/*
 * Least OPP headroom, 1/2^shift of the demand: the default, and the range
 * debugfs sched_energy/headroom_shift accepts (sen_util_headroom()).
 */
#define SEN_HEADROOM_SHIFT	4
#define SEN_HEADROOM_SHIFT_MIN	1
#define SEN_HEADROOM_SHIFT_MAX	8
#define SEN_UTIL_ROLL_WINDOWS	4	/* a span without wakeup closes after */
/*
 * Samples in a row above the level that the tracker takes for growth
 * (sen_util_demand()): the default, and the most debugfs
 * sched_energy/growth_samples accepts.
 */
#define SEN_UTIL_GROWTH_SAMPLES	2
#define SEN_UTIL_GROWTH_SAMPLES_MAX	2
/* Demand a decision assumes for a task with no sample and no estimate yet. */
#define SEN_UTIL_NEW		(SCHED_CAPACITY_SCALE / 8)
/*
 * A task goes to a CPU where it fits in SEN_FIT_PCT% of the capacity
 * (fits_capacity()'s margin), and stays on its CPU while its settled
 * demand fits in SEN_STAY_PCT%: the band between keeps a task near the
 * threshold from going away for room and coming back for energy
 * (sen_pick_fits()).
 */
#define SEN_FIT_PCT		80
#define SEN_STAY_PCT		90

unsigned long sen_task_util(struct task_struct *p);
unsigned long sen_task_settled(struct task_struct *p, unsigned long demand);
unsigned long sen_task_fit_util(struct task_struct *p, int cpu);
unsigned long sen_cpu_util(int cpu, u64 now);
unsigned long sen_cpu_fair_util(int cpu, u64 now);
unsigned long sen_cpu_spread(int cpu);

extern unsigned int sen_headroom_shift;

/**
 * sen_util_headroom() - capacity to provide for a tracked demand
 * @util:	the demand
 * @spread:	the tracker's uncertainty about it: how far recent samples
 *		went above it (all of it for a task with no sample yet)
 *
 * The headroom is the tracker's measured uncertainty, the spread, and at
 * least 1/2^sen_headroom_shift of the demand (SEN_HEADROOM_SHIFT: 1/16,
 * unless changed in debugfs for a trial).  The tracker believes growth
 * beyond 1/2^SEN_UTIL_MARGIN_SHIFT of the demand after two samples;
 * smaller growth reaches the demand through the mean of its samples, and
 * a task that runs longer than its demand says is raised within its
 * span.  A floor of 1/8 put a task of 22% (226, plus 28: 254) just under
 * the capacity of phone3's lowest mid-cluster OPP (255), so that any
 * spread took it to the next OPP.  The governor and the estimator both
 * size a domain's OPP with it.
 *
 * Return: @util plus the headroom.
 */
static inline unsigned long sen_util_headroom(unsigned long util,
					      unsigned long spread)
{
	return util + max(spread, util >> READ_ONCE(sen_headroom_shift));
}

/* The tracker's arithmetic, exposed for its KUnit suite. */
u64 sen_util_scale(u64 delta, unsigned long cap, unsigned long freq);
unsigned int sen_util_ratio(u64 busy, u64 span);
unsigned int sen_util_demand(const u16 *hist, unsigned int n,
			     unsigned int sample, unsigned int prev,
			     unsigned int growth);
unsigned int sen_util_spread(const u16 *hist, unsigned int n,
			     unsigned int demand);
unsigned int sen_util_settled(const u16 *hist, unsigned int n,
			      unsigned int demand);
unsigned int sen_util_sleep_demand(const u16 *hist, unsigned int n,
				   unsigned int newest, unsigned int before,
				   unsigned int est, unsigned int growth,
				   unsigned int step, unsigned int least);
unsigned int sen_util_estimate(u64 busy, u64 elapsed, u64 last_cycle);
unsigned int sen_util_grown(u64 busy, u64 elapsed, u64 last_cycle,
			    unsigned int demand, unsigned int nr_hist,
			    bool rolled);
u64 sen_util_hold_ns(u64 last_cycle);
u64 sen_util_typical_span(u32 *spans, u64 span);
u64 sen_util_span_floor(const u32 *spans, u64 typical, u64 span);
bool sen_util_roll_due(u64 span, u64 last_cycle);

void sen_util_drive_freq(int cpu, bool on);
void sen_util_track_policy(bool on);
void sen_util_track_governor(bool on);

bool sen_util_tracking(void);

/*
 * The tracker runs only while something reads it: the policy
 * (kernel.sched_energy=1) or a cpufreq policy with the sched_energy
 * governor.  Otherwise its hooks are patched-out branches, and the
 * scheduler runs as mainline does.
 */
DECLARE_STATIC_KEY_FALSE(sen_util_key);

/* Scheduler hooks, called with the task's rq locked. */
void sen_util_fork(struct task_struct *p);
void __sen_util_account(struct rq *rq, struct task_struct *p, u64 delta_exec);
void __sen_util_enqueue(struct rq *rq, struct task_struct *p, int flags);
void __sen_util_dequeue(struct rq *rq, struct task_struct *p, int flags);
void __sen_util_tick(struct rq *rq, struct task_struct *curr);
void __sen_util_exec(struct task_struct *p);
void sen_util_proc_show(struct task_struct *p, struct seq_file *m);

static inline void sen_util_account(struct rq *rq, struct task_struct *p,
				    u64 delta_exec)
{
	if (static_branch_unlikely(&sen_util_key))
		__sen_util_account(rq, p, delta_exec);
}

static inline void sen_util_enqueue(struct rq *rq, struct task_struct *p,
				    int flags)
{
	if (static_branch_unlikely(&sen_util_key))
		__sen_util_enqueue(rq, p, flags);
}

static inline void sen_util_dequeue(struct rq *rq, struct task_struct *p,
				    int flags)
{
	if (static_branch_unlikely(&sen_util_key))
		__sen_util_dequeue(rq, p, flags);
}

static inline void sen_util_tick(struct rq *rq, struct task_struct *curr)
{
	if (static_branch_unlikely(&sen_util_key))
		__sen_util_tick(rq, curr);
}

/* Before an exec's placement (sched_exec()): the new program starts anew. */
static inline void sen_util_exec(struct task_struct *p)
{
	if (static_branch_unlikely(&sen_util_key))
		__sen_util_exec(p);
}

unsigned long sen_task_contrib(struct task_struct *p, int *cpu, u64 now);

/*
 * Energy estimation and placement (kernel/sched/energy.c).  Energies are
 * the mean power over one period, in the model's power unit times
 * SCHED_CAPACITY_SCALE, so that they stay integers.
 */
DECLARE_STATIC_KEY_FALSE(sen_policy_key);

/**
 * sen_enabled() - is the sched-energy policy on (kernel.sched_energy=1)
 *
 * Return: true while the policy is on; a static branch, free when off.
 */
static inline bool sen_enabled(void)
{
	return static_branch_unlikely(&sen_policy_key);
}

/**
 * sen_stamp() - a coarse timestamp for per-task move records
 * @now:	local_clock()
 *
 * Return: @now in units of 2^20 ns (about a millisecond), with bit 0 set so
 * that 0 means "never"; compared with (s32) differences, so it is good for
 * intervals up to 2^31 units (about 26 days).
 */
static inline u32 sen_stamp(u64 now)
{
	return (u32)(now >> 20) | 1;
}

/**
 * sen_stamp_within() - is a stamp set and less than a window before another
 * @since:	a sen_stamp(), 0 for none
 * @now:	a later sen_stamp()
 * @window:	the window, in sen_stamp() units (below 2^31)
 *
 * Return: true if @since is set and @now is less than @window after it.
 */
static inline bool sen_stamp_within(u32 since, u32 now, u32 window)
{
	return since && (s32)(now - since) < (s32)window;
}

bool sen_policy_wanted(void);
u8 sen_room_next_shift(u32 last, u8 shift, u32 now);
bool sen_room_holds(u32 since, u8 shift, u32 now);
void sen_room_note(struct task_struct *p, int src, int dst, u64 now);
unsigned int sen_opp_index(const struct sen_domain *d, unsigned long util);
unsigned int sen_idle_index(const struct sen_domain *d, u64 idle_us);
u64 sen_domain_energy(const struct sen_domain *d, const unsigned long *util,
		      unsigned int nr, int add_idx, unsigned long add,
		      u64 period_us);

/**
 * struct sen_cpu_price - one CPU of a domain priced at the domain's OPP
 * @energy:	its energy over the period (sen_domain_energy()'s unit)
 * @busy:	its busy share of the period, in 1/SCHED_CAPACITY_SCALE
 * @state:	the idle state its idle stretch reaches
 */
struct sen_cpu_price {
	u64	energy;
	u16	busy;
	u8	state;
};

/**
 * struct sen_dom_base - a domain priced without the task (sen_domain_base())
 * @cpu:	per CPU of the snapshot, room for as many as it has (the
 *		caller's)
 * @energy:	the domain's energy: sen_domain_energy() with nothing added
 * @cpus:	the sum of @cpu[].energy (@energy without the cluster's)
 * @max_util:	its neediest CPU's utilization
 * @opp:	the OPP it runs at, -1 when no CPU has work
 */
struct sen_dom_base {
	struct sen_cpu_price	*cpu;
	u64			energy;
	u64			cpus;
	unsigned long		max_util;
	int			opp;
};

u64 sen_domain_base(const struct sen_domain *d, const unsigned long *util,
		    unsigned int nr, u64 period_us, struct sen_dom_base *base);
u64 sen_domain_energy_with(const struct sen_domain *d,
			   const unsigned long *util, unsigned int nr, int idx,
			   unsigned long add, u64 period_us,
			   const struct sen_dom_base *base);
int sen_select_cpu(struct task_struct *p, int prev_cpu, int wake_flags);
#ifdef CONFIG_SCHED_ENERGY_KUNIT_TEST
/* For the KUnit benchmark of whole decisions (energy_test.c). */
int sen_bench_prepare(void);
int sen_select_cpu_on(const struct sen_model *m, struct task_struct *p,
		      int prev_cpu, int wake_flags, int *why);
int sen_util_pose_begin(void);
void sen_util_pose(int cpu, unsigned long util);
void sen_util_pose_end(void);
#endif

/**
 * struct sen_cand - a candidate CPU as the decision and balance traces list it
 * @cpu:	the CPU
 * @delta:	the energy placing the task there adds to the CPU's domain
 *		(mean power over the task's period, model unit), or
 *		SEN_CAND_FIT for the balancer's move for capacity to @cpu
 *
 * Recorded raw while the event is on and formatted only when the trace is
 * read (sen_trace_print_cands()): formatting in the decision made a traced
 * wakeup tens of microseconds longer on an emulated CPU.
 */
struct sen_cand {
	s32 cpu;
	s32 delta;
};

#define SEN_CAND_FIT	S32_MIN
/* The candidates a trace keeps; the rest of a larger platform's are left out. */
#define SEN_NR_CANDS	16

/**
 * struct sen_move - a move the energy-aware balancer weighs
 * @dst:	the cheapest CPU for the task (its own CPU included)
 * @saving:	energy saved by moving there (energy unit as above)
 * @cost:	energy the task costs where it is
 * @fit:	the task no longer fits where it is: @dst has more room
 *		for it, whatever the energy (@saving and @cost are 0)
 * @local:	@dst is in the performance domain of the task's own CPU
 *		(an energy move there needs a larger saving)
 * @cand:	the weighed candidates, as the decision trace lists them;
 *		written only while the sched_energy:sen_balance event is on
 * @nr_cand:	how many of @cand are set (0 while the event is off)
 */
struct sen_move {
	int dst;
	bool fit;
	bool local;
	s64 saving;
	s64 cost;
	struct sen_cand cand[SEN_NR_CANDS];
	int nr_cand;
};

/**
 * sen_saves() - does a move save more than a share of the task's cost
 * @saving:	the task's cost where it is less its cost at the destination
 * @cost:	its cost where it is
 * @shift:	the share: 1/2^@shift of the size of @cost (a cost can be
 *		negative, a share must not be: a negative one takes any move)
 *
 * The margin of the wakeup (sen_wake_target()) and of the balancer.
 */
static inline bool sen_saves(s64 saving, s64 cost, unsigned int shift)
{
	return saving > (abs(cost) >> shift);
}

bool sen_balance_pick(struct task_struct *p, int cpu, int target, u64 now,
		      struct sen_move *mv);
bool sen_balance_saves(const struct sen_move *mv);
bool sen_tip_check(int cpu, u64 now);
bool sen_lb_classic(const struct cpumask *span);
void sen_balance_tick(struct rq *rq);
int sen_balance_newidle(struct rq *this_rq);

#else /* !CONFIG_SCHED_ENERGY */

static inline bool sen_enabled(void) { return false; }
static inline bool sen_policy_wanted(void) { return false; }
static inline int sen_select_cpu(struct task_struct *p, int prev_cpu,
				 int wake_flags)
{
	return -1;
}

static inline unsigned long sen_task_util(struct task_struct *p) { return 0; }
static inline unsigned long sen_task_fit_util(struct task_struct *p, int cpu)
{
	return 0;
}

static inline bool sen_lb_classic(const struct cpumask *span) { return true; }
static inline void sen_balance_tick(struct rq *rq) { }
static inline int sen_balance_newidle(struct rq *this_rq) { return 0; }

static inline void sen_util_fork(struct task_struct *p) { }
static inline void sen_util_account(struct rq *rq, struct task_struct *p,
				    u64 delta_exec) { }
static inline void sen_util_enqueue(struct rq *rq, struct task_struct *p,
				    int flags) { }
static inline void sen_util_dequeue(struct rq *rq, struct task_struct *p,
				    int flags) { }
static inline void sen_util_tick(struct rq *rq, struct task_struct *curr) { }
static inline void sen_util_exec(struct task_struct *p) { }
static inline void sen_util_proc_show(struct task_struct *p,
				      struct seq_file *m) { }

#endif /* CONFIG_SCHED_ENERGY */

#endif /* _LINUX_SCHED_ENERGY_H */
