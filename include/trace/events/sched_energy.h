/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched-energy trace events: the utilization tracker's per-task and
 * per-CPU signals (kernel/sched/util_track.c).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM sched_energy

#if !defined(_TRACE_SCHED_ENERGY_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SCHED_ENERGY_H

#include <linux/sched.h>
#include <linux/tracepoint.h>

#ifndef _SEN_UTIL_EV_DEFINED
#define _SEN_UTIL_EV_DEFINED
/* Why a task's demand was updated. */
enum sen_util_ev {
	SEN_UTIL_EV_WAKEUP,	/* a cycle ended: new sample */
	SEN_UTIL_EV_RAISE,	/* a cycle in progress outgrew the demand */
};
#endif

TRACE_DEFINE_ENUM(SEN_UTIL_EV_WAKEUP);
TRACE_DEFINE_ENUM(SEN_UTIL_EV_RAISE);

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
				       { SEN_UTIL_EV_RAISE, "raise" }))
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

#endif /* _TRACE_SCHED_ENERGY_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
