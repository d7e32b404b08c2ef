/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched-energy: per-task state of the utilization tracker, embedded in
 * struct task_struct.  Kept apart from <linux/sched/energy.h> so that
 * <linux/sched.h> can include it without pulling in anything else.
 * See kernel/sched/util_track.c.
 */
#ifndef _LINUX_SCHED_ENERGY_TYPES_H
#define _LINUX_SCHED_ENERGY_TYPES_H

#include <linux/types.h>

#ifdef CONFIG_SCHED_ENERGY

/* Samples a task's demand is computed from. */
#define SEN_UTIL_HIST	4
/* Unit of struct sen_task_util's @spans: about a microsecond. */
#define SEN_UTIL_SPAN_SHIFT	10

/**
 * struct sen_task_util - utilization tracking state of one task
 * @cycle_start:	rq clock (ns) at the start of the current sample span
 *			(a wakeup); 0 before the task first became runnable
 * @run_start:		rq clock when the task first ran in the span, 0 if it
 *			has not yet
 * @busy:		invariant running time since @cycle_start, in ns of
 *			work at full capacity
 * @last_cycle:		typical length of a span (whole wakeup-to-wakeup
 *			cycles, at least one window): the median of the last
 *			three (sen_util_typical_span())
 * @spans:		the last two spans, newest first, in units of
 *			2^SEN_UTIL_SPAN_SHIFT ns
 * @hist:		the last samples (busy / span, capacity units)
 * @demand:		the task's demand, capacity units
 * @spread:		uncertainty of @demand: how far the second largest of
 *			the samples went above it; for a task with no sample
 *			yet, all of it
 * @spread_contrib:	@spread as added to the CPU while runnable
 * @contrib:		what the task adds to its CPU's utilization now
 * @contrib_cpu:	the CPU holding @contrib, -1 for none
 * @held:		@contrib is held on @contrib_cpu while the task sleeps
 * @hold_slot:		the hold slot on @contrib_cpu
 * @hold_token:		the token that owns that slot
 * @nr_hist:		valid entries of @hist
 * @hist_idx:		next entry of @hist to write
 * @rolled:		the current span was opened by a roll at the tick, not
 *			by a wakeup (sen_util_grown())
 * @balanced:		when the energy-aware balancer last moved the task,
 *			local_clock() >> 20 with bit 0 set; 0 for never
 * @roomed:		when the task last left a CPU for room to a bigger one
 *			(sen_room_note()), as @balanced
 * @room_cap:		the capacity of the CPU it left then
 * @room_shift:		how many times in a row it came back and left again:
 *			the hold is doubled that often (sen_room_next_shift())
 * @gen:		the tracker's generation (its stops) the span and
 *			contribution fields belong to; older ones are void
 */
struct sen_task_util {
	u64	cycle_start;
	u64	run_start;
	u64	busy;
	u64	last_cycle;
	u32	spans[2];
	u16	hist[SEN_UTIL_HIST];
	u16	demand;
	u16	spread;
	u16	spread_contrib;
	u16	contrib;
	s16	contrib_cpu;
	u8	held;
	u8	hold_slot;
	u32	hold_token;
	u8	nr_hist;
	u8	hist_idx;
	u8	rolled;
	u32	balanced;
	u32	roomed;
	u16	room_cap;
	u8	room_shift;
	u32	gen;
};

#endif /* CONFIG_SCHED_ENERGY */

#endif /* _LINUX_SCHED_ENERGY_TYPES_H */
