/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched-energy trace events: the utilization tracker's per-task and
 * per-CPU signals (kernel/sched/util_track.c), the placement decisions
 * (kernel/sched/energy.c) and the governor's frequency requests
 * (kernel/sched/energy_gov.c).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM sched_energy

#if !defined(_TRACE_SCHED_ENERGY_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SCHED_ENERGY_H

#include <linux/sched.h>
#include <linux/tracepoint.h>

#ifndef _SEN_CANDS_DEFINED
#define _SEN_CANDS_DEFINED
struct trace_seq;
const char *sen_trace_print_cands(struct trace_seq *p, const void *cands,
				  unsigned int len);
#endif

#ifndef _SEN_UTIL_EV_DEFINED
#define _SEN_UTIL_EV_DEFINED
/* Why a task's demand was updated. */
enum sen_util_ev {
	SEN_UTIL_EV_WAKEUP,	/* a cycle ended: new sample */
	SEN_UTIL_EV_RAISE,	/* a cycle in progress outgrew the demand */
	SEN_UTIL_EV_ROLL,	/* a span without wakeup closed at the tick */
};
#endif

TRACE_DEFINE_ENUM(SEN_UTIL_EV_WAKEUP);
TRACE_DEFINE_ENUM(SEN_UTIL_EV_RAISE);
TRACE_DEFINE_ENUM(SEN_UTIL_EV_ROLL);

TRACE_EVENT(sen_util_task,
	    TP_PROTO(struct task_struct *p, int cpu, unsigned int sample, int ev),
	    TP_ARGS(p, cpu, sample, ev),
	    TP_STRUCT__entry(__array(char, comm, TASK_COMM_LEN)
			     __field(pid_t, pid)
			     __field(int, cpu)
			     __field(unsigned int, sample)
			     __field(unsigned int, demand)
			     __field(unsigned long long, last_cycle)
			     __field(int, ev)),
	    TP_fast_assign(memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
			   __entry->pid = p->pid;
			   __entry->cpu = cpu;
			   __entry->sample = sample;
			   __entry->demand = p->sen_util.demand;
			   __entry->last_cycle = p->sen_util.last_cycle;
			   __entry->ev = ev;),
	    TP_printk("comm=%s pid=%d cpu=%d sample=%u demand=%u last_cycle_us=%llu ev=%s",
		      __entry->comm, __entry->pid, __entry->cpu, __entry->sample,
		      __entry->demand, __entry->last_cycle / 1000,
		      __print_symbolic(__entry->ev,
				       { SEN_UTIL_EV_WAKEUP, "wakeup" },
				       { SEN_UTIL_EV_RAISE, "raise" },
				       { SEN_UTIL_EV_ROLL, "roll" }))
);

TRACE_EVENT(sen_util_cpu,
	    TP_PROTO(int cpu, unsigned long runnable, unsigned long held,
		     unsigned long rt, unsigned long dl, unsigned long irq),
	    TP_ARGS(cpu, runnable, held, rt, dl, irq),
	    TP_STRUCT__entry(__field(int, cpu)
			     __field(unsigned long, runnable)
			     __field(unsigned long, held)
			     __field(unsigned long, rt)
			     __field(unsigned long, dl)
			     __field(unsigned long, irq)),
	    TP_fast_assign(__entry->cpu = cpu;
			   __entry->runnable = runnable;
			   __entry->held = held;
			   __entry->rt = rt;
			   __entry->dl = dl;
			   __entry->irq = irq;),
	    TP_printk("cpu=%d util=%lu runnable=%lu held=%lu rt=%lu dl=%lu irq=%lu",
		      __entry->cpu, __entry->runnable + __entry->held +
		      __entry->rt + __entry->dl + __entry->irq,
		      __entry->runnable, __entry->held, __entry->rt,
		      __entry->dl, __entry->irq)
);

#ifndef _SEN_WHY_DEFINED
#define _SEN_WHY_DEFINED
/* How a placement decision ended. */
enum sen_why {
	SEN_WHY_ENERGY,		/* the candidate with the lowest energy */
	SEN_WHY_PREV,		/* prev_cpu: nothing saves enough to move */
	SEN_WHY_OVERUTIL,	/* a CPU is above its tipping point: classic path */
	SEN_WHY_NOFIT,		/* no allowed CPU fits the task: classic path */
	SEN_WHY_NOMODEL,	/* no platform model: classic path */
};

/* What asked for the decision. */
enum sen_kind {
	SEN_KIND_WAKEUP,
	SEN_KIND_FORK,
	SEN_KIND_EXEC,
};
#endif

TRACE_DEFINE_ENUM(SEN_WHY_ENERGY);
TRACE_DEFINE_ENUM(SEN_WHY_PREV);
TRACE_DEFINE_ENUM(SEN_WHY_OVERUTIL);
TRACE_DEFINE_ENUM(SEN_WHY_NOFIT);
TRACE_DEFINE_ENUM(SEN_WHY_NOMODEL);
TRACE_DEFINE_ENUM(SEN_KIND_WAKEUP);
TRACE_DEFINE_ENUM(SEN_KIND_FORK);
TRACE_DEFINE_ENUM(SEN_KIND_EXEC);

/*
 * One placement decision.  @cands lists the @nr_cands candidates weighed
 * (struct sen_cand, kept as two s32 each), printed as "cpu:delta"
 * separated by commas ("-" for none), delta being the energy the move adds
 * to the candidate's domain (mean power over the period, model unit); a
 * candidate that does not fit is not listed.  @cpu is -1 when the classic
 * path decides.
 */
TRACE_EVENT(sen_decision,
	    TP_PROTO(struct task_struct *p, int kind, int prev_cpu,
		     unsigned long util, u64 period_us,
		     const struct sen_cand *cands, int nr_cands, int cpu, int why),
	    TP_ARGS(p, kind, prev_cpu, util, period_us, cands, nr_cands, cpu, why),
	    TP_STRUCT__entry(__array(char, comm, TASK_COMM_LEN)
			     __field(pid_t, pid)
			     __field(int, kind)
			     __field(int, prev_cpu)
			     __field(unsigned long, util)
			     __field(u64, period_us)
			     __dynamic_array(s32, cands, 2 * nr_cands)
			     __field(int, cpu)
			     __field(int, why)),
	    TP_fast_assign(memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
			   __entry->pid = p->pid;
			   __entry->kind = kind;
			   __entry->prev_cpu = prev_cpu;
			   __entry->util = util;
			   __entry->period_us = period_us;
			   memcpy(__get_dynamic_array(cands), cands,
				  __get_dynamic_array_len(cands));
			   __entry->cpu = cpu;
			   __entry->why = why;),
	    TP_printk("comm=%s pid=%d kind=%s prev_cpu=%d util=%lu period_us=%llu cands=%s cpu=%d why=%s",
		      __entry->comm, __entry->pid,
		      __print_symbolic(__entry->kind,
				       { SEN_KIND_WAKEUP, "wakeup" },
				       { SEN_KIND_FORK, "fork" },
				       { SEN_KIND_EXEC, "exec" }),
		      __entry->prev_cpu, __entry->util, __entry->period_us,
		      sen_trace_print_cands(p, __get_dynamic_array(cands),
					    __get_dynamic_array_len(cands)),
		      __entry->cpu,
		      __print_symbolic(__entry->why,
				       { SEN_WHY_ENERGY, "energy" },
				       { SEN_WHY_PREV, "prev" },
				       { SEN_WHY_OVERUTIL, "overutilized" },
				       { SEN_WHY_NOFIT, "nofit" },
				       { SEN_WHY_NOMODEL, "nomodel" }))
);

/*
 * A domain crossed its tipping point (kernel/sched/energy.c): @util of
 * its CPUs together against their capacity @cap, with @tasks runnable
 * fair tasks.  @tipped: 1 above it (the
 * classic paths decide), 0 below.
 */
TRACE_EVENT(sen_tipping,
	    TP_PROTO(int first_cpu, unsigned long util, unsigned long cap,
		     unsigned int tasks, int tipped),
	    TP_ARGS(first_cpu, util, cap, tasks, tipped),
	    TP_STRUCT__entry(__field(int, first_cpu)
			     __field(unsigned long, util)
			     __field(unsigned long, cap)
			     __field(unsigned int, tasks)
			     __field(int, tipped)),
	    TP_fast_assign(__entry->first_cpu = first_cpu;
			   __entry->util = util;
			   __entry->cap = cap;
			   __entry->tasks = tasks;
			   __entry->tipped = tipped;),
	    TP_printk("domain_cpu=%d util=%lu cap=%lu tasks=%u tipped=%d",
		      __entry->first_cpu, __entry->util, __entry->cap,
		      __entry->tasks, __entry->tipped)
);

#ifndef _SEN_BALANCE_DEFINED
#define _SEN_BALANCE_DEFINED
/* The energy-aware balancer's moves (kernel/sched/energy_balance.c). */
enum sen_balance_kind {
	SEN_BALANCE_PUSH,	/* the tick moves a task off its CPU */
	SEN_BALANCE_PULL,	/* a newly idle CPU takes a waiting task */
};
#endif

TRACE_DEFINE_ENUM(SEN_BALANCE_PUSH);
TRACE_DEFINE_ENUM(SEN_BALANCE_PULL);

/*
 * One move of the energy-aware balancer: @p from @src to @dst, saving
 * @saving (mean power over the task's period, model unit); @cands and
 * @nr_cands as in sen_decision ("fit:cpu" for a move for capacity).
 * @done is 0 when the task could not be moved after all (it slept, its
 * affinity changed, a CPU went offline).
 */
TRACE_EVENT(sen_balance,
	    TP_PROTO(struct task_struct *p, int kind, int src, int dst,
		     s64 saving, const struct sen_cand *cands, int nr_cands,
		     int done),
	    TP_ARGS(p, kind, src, dst, saving, cands, nr_cands, done),
	    TP_STRUCT__entry(__array(char, comm, TASK_COMM_LEN)
			     __field(pid_t, pid)
			     __field(int, kind)
			     __field(int, src)
			     __field(int, dst)
			     __field(s64, saving)
			     __dynamic_array(s32, cands, 2 * nr_cands)
			     __field(int, done)),
	    TP_fast_assign(memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
			   __entry->pid = p->pid;
			   __entry->kind = kind;
			   __entry->src = src;
			   __entry->dst = dst;
			   __entry->saving = saving;
			   memcpy(__get_dynamic_array(cands), cands,
				  __get_dynamic_array_len(cands));
			   __entry->done = done;),
	    TP_printk("comm=%s pid=%d kind=%s src=%d dst=%d saving=%lld cands=%s done=%d",
		      __entry->comm, __entry->pid,
		      __print_symbolic(__entry->kind,
				       { SEN_BALANCE_PUSH, "push" },
				       { SEN_BALANCE_PULL, "pull" }),
		      __entry->src, __entry->dst, __entry->saving,
		      sen_trace_print_cands(p, __get_dynamic_array(cands),
					    __get_dynamic_array_len(cands)),
		      __entry->done)
);

#ifndef _SEN_FREQ_DEFINED
#define _SEN_FREQ_DEFINED
/* Why the governor requested a frequency. */
enum sen_freq_why {
	SEN_FREQ_UP,		/* the need grew */
	SEN_FREQ_DOWN,		/* the need shrank for a whole ramp-down delay */
	SEN_FREQ_LIMITS,	/* the policy's min or max changed */
};
#endif

TRACE_DEFINE_ENUM(SEN_FREQ_UP);
TRACE_DEFINE_ENUM(SEN_FREQ_DOWN);
TRACE_DEFINE_ENUM(SEN_FREQ_LIMITS);

/*
 * A frequency request of the sched_energy governor for the policy of
 * @cpu: its neediest CPU @needy and that CPU's need (capacity units,
 * headroom included), the model's OPP index for it (-1 without a model)
 * and the frequency asked for, within the policy's limits.
 */
TRACE_EVENT(sen_freq_request,
	    TP_PROTO(int cpu, int needy, unsigned long need, int opp,
		     unsigned int freq, int why),
	    TP_ARGS(cpu, needy, need, opp, freq, why),
	    TP_STRUCT__entry(__field(int, cpu)
			     __field(int, needy)
			     __field(unsigned long, need)
			     __field(int, opp)
			     __field(unsigned int, freq)
			     __field(int, why)),
	    TP_fast_assign(__entry->cpu = cpu;
			   __entry->needy = needy;
			   __entry->need = need;
			   __entry->opp = opp;
			   __entry->freq = freq;
			   __entry->why = why;),
	    TP_printk("cpu=%d needy=%d need=%lu opp=%d freq=%u why=%s",
		      __entry->cpu, __entry->needy, __entry->need, __entry->opp,
		      __entry->freq,
		      __print_symbolic(__entry->why,
				       { SEN_FREQ_UP, "up" },
				       { SEN_FREQ_DOWN, "down" },
				       { SEN_FREQ_LIMITS, "limits" }))
);

#endif /* _TRACE_SCHED_ENERGY_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
