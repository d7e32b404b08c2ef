/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: queued work runs when the harness flushes it
 * (sen_run_work()), standing for the delay having elapsed.
 */
#ifndef _SEN_SHIM_WORKQUEUE_H
#define _SEN_SHIM_WORKQUEUE_H

#include <linux/kernel.h>

struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);

struct work_struct {
	work_func_t func;
	bool pending;
	struct work_struct *next;	/* fake queue */
};

struct delayed_work {
	struct work_struct work;
	unsigned long delay;
};

struct workqueue_struct;
extern struct workqueue_struct *system_wq;

#define DECLARE_WORK(n, f)	struct work_struct n = { .func = (f) }
#define DECLARE_DELAYED_WORK(n, f)					\
	struct delayed_work n = { .work = { .func = (f) } }
#define to_delayed_work(w)	container_of(w, struct delayed_work, work)

bool queue_work(struct workqueue_struct *wq, struct work_struct *work);
bool mod_delayed_work(struct workqueue_struct *wq, struct delayed_work *dwork,
		      unsigned long delay);

static inline bool schedule_work(struct work_struct *work)
{
	return queue_work(system_wq, work);
}

#endif /* _SEN_SHIM_WORKQUEUE_H */
