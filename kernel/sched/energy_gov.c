// SPDX-License-Identifier: GPL-2.0
/*
 * sched-energy: the "sched_energy" cpufreq governor.
 *
 * Selecting it in a policy's scaling_governor is how that policy opts in.
 * The scheduler calls it from its existing utilization update points
 * (cpufreq_update_util(): PELT updates of the root cfs_rq, RT and DL
 * changes) and from the tracker's tick when a task's demand rises; it
 * picks the domain's OPP from the platform energy model:
 *
 *  - each CPU needs its tracked fair demand (runnable and recently slept
 *    tasks, util_track.c) plus a headroom, then RT, DL bandwidth, IRQ
 *    pressure and uclamp as schedutil counts them (effective_cpu_util());
 *  - the headroom is the tracker's uncertainty: the sum of how far the
 *    recent samples of the CPU's runnable tasks went above their demands
 *    (from the second largest: one sample is not a trend),
 *    and at least 1/2^sen_headroom_shift of the demand (1/16 unless
 *    changed in debugfs; sen_util_headroom());
 *  - the domain runs at the lowest efficient OPP whose capacity covers its
 *    neediest CPU (sen_opp_index(), the function the estimator uses for
 *    the same domain), within the policy's min and max;
 *  - a higher OPP is requested as soon as the driver allows
 *    (transition_delay_us); a lower one only once no request in the last
 *    SEN_GOV_DOWN_NS wanted the current one or more, so that a periodic
 *    task's sleep does not drop the frequency it will need again.
 *
 * One CPU of a policy chooses at a time; the others leave it a request
 * instead of waiting for the policy's lock (sen_gov_update()).  Requests
 * go through the driver's fast_switch when it has one, from the
 * scheduler's context; otherwise an irq_work queues them to a SCHED_FIFO
 * kthread that calls the driver, as schedutil does.  Without a platform
 * model, the OPP is the lowest whose frequency covers the need at the
 * policy's maximum frequency, so the governor stays usable.
 *
 * The tracker runs while a policy has this governor (from its init to its
 * exit, sen_util_track_governor()); it is switched on by a work item, so
 * for the first moments the governor sees no demand and requests the
 * lowest OPP.
 */
#include <linux/cpufreq.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/sched/clock.h>
#include <linux/sched/cpufreq.h>
#include <linux/sched/cputime.h>
#include <linux/sched/energy.h>
#include <linux/slab.h>

#include "sched.h"

#include <trace/events/sched_energy.h>

/* Ramp-down delay: two tracker windows, one period of a typical task. */
#define SEN_GOV_DOWN_NS		(2 * SEN_UTIL_WINDOW_NS)

struct sen_gov_policy {
	struct cpufreq_policy	*policy;
	raw_spinlock_t		update_lock;	/* the fields below */
	u64			last_change;	/* time of the last request */
	u64			hold_until;	/* no ramp-down before this */
	s64			delay_ns;	/* transition_delay_us */
	unsigned int		next_freq;
	bool			limits_changed;
	bool			work_in_progress;
	int			again;		/* a CPU asked for a choice */

	/* Slow path: drivers without fast_switch. */
	struct irq_work		irq_work;
	struct kthread_work	work;
	struct mutex		work_lock;	/* serialises the driver calls */
	struct kthread_worker	worker;
	struct task_struct	*thread;
};

struct sen_gov_cpu {
	struct update_util_data	update_util;
	struct sen_gov_policy	*gp;
	int			cpu;
};

static DEFINE_PER_CPU(struct sen_gov_cpu, sen_gov_cpu);

/**
 * sen_gov_cpu_need() - the capacity a CPU needs for the next period
 * @cpu:	the CPU
 * @now:	local_clock() of this update (sen_cpu_fair_util())
 *
 * Return: its fair demand with the tracker's headroom, plus RT, DL
 * bandwidth and IRQ, clamped by uclamp; the CPU's capacity when an RT
 * task is runnable (without uclamp) or the CPU has no idle time.
 */
static unsigned long sen_gov_cpu_need(int cpu, u64 now)
{
	unsigned long fair = sen_cpu_fair_util(cpu, now);

	return effective_cpu_util(cpu, sen_util_headroom(fair, sen_cpu_spread(cpu)),
				  FREQUENCY_UTIL, NULL);
}

/* The frequency the domain needs; the need, its CPU and OPP for the trace. */
static unsigned int sen_gov_pick(struct sen_gov_policy *gp, unsigned long *need,
				 int *needy, int *opp)
{
	struct cpufreq_policy *policy = gp->policy;
	const struct sen_domain *d = NULL;
	const struct sen_model *m;
	unsigned long max_need = 0, cap, n;
	u64 now = local_clock();
	unsigned int freq;
	int cpu;

	*needy = policy->cpu;
	for_each_cpu(cpu, policy->cpus) {
		n = sen_gov_cpu_need(cpu, now);
		if (n > max_need) {
			max_need = n;
			*needy = cpu;
		}
	}
	*need = max_need;

	rcu_read_lock();
	m = sen_model_rcu();
	if (m)
		d = sen_cpu_domain(m, policy->cpu);
	if (d && d->nr_opps) {
		*opp = sen_opp_index(d, max_need);
		freq = d->opp[*opp].freq;
	} else {
		/* No model: the frequency that covers the need, from the top. */
		*opp = -1;
		cap = arch_scale_cpu_capacity(policy->cpu);
		freq = div64_ul((u64)policy->cpuinfo.max_freq * min(max_need, cap), cap);
	}
	rcu_read_unlock();
	return cpufreq_driver_resolve_freq(policy, freq);
}

static void sen_gov_request(struct sen_gov_policy *gp, u64 time,
			    unsigned int freq)
{
	gp->next_freq = freq;
	gp->last_change = time;
	if (gp->policy->fast_switch_enabled) {
		cpufreq_driver_fast_switch(gp->policy, freq);
	} else if (!gp->work_in_progress) {
		gp->work_in_progress = true;
		irq_work_queue(&gp->irq_work);
	}
}

/* Choose the domain's frequency at @time; the policy's lock held. */
static void sen_gov_choose(struct sen_gov_policy *gp, u64 time)
{
	unsigned long need;
	unsigned int freq;
	int needy, opp, why;

	/* Within the driver's minimum interval, as schedutil: not even look. */
	if (!READ_ONCE(gp->limits_changed) &&
	    (s64)(time - gp->last_change) < gp->delay_ns)
		return;
	freq = sen_gov_pick(gp, &need, &needy, &opp);
	/* Wanting the current frequency or more postpones any ramp-down. */
	if (freq >= gp->next_freq)
		gp->hold_until = time + SEN_GOV_DOWN_NS;
	if (READ_ONCE(gp->limits_changed)) {
		WRITE_ONCE(gp->limits_changed, false);
		why = SEN_FREQ_LIMITS;
	} else if (freq > gp->next_freq) {
		why = SEN_FREQ_UP;
	} else if (freq < gp->next_freq && time >= gp->hold_until) {
		why = SEN_FREQ_DOWN;
	} else {
		return;		/* the same, or down too soon */
	}
	sen_gov_request(gp, time, freq);
	trace_sen_freq_request(gp->policy->cpu, needy, need, opp, freq, why);
}

/* Choices one update may make: its own and one asked for meanwhile. */
#define SEN_GOV_CHOICES		2

/*
 * Called by the scheduler, its rq locked.  One CPU of the policy chooses
 * at a time, from every CPU's signals.  A CPU that finds the choice being
 * made does not spin for the policy's lock with its rq locked and
 * interrupts off (under a hypervisor the holder's vCPU can be preempted
 * for milliseconds, and every CPU of the policy would wait with it): it
 * leaves a request, @gp->again, and the holder chooses once more, before
 * or right after it unlocks.  A request left beyond SEN_GOV_CHOICES is
 * taken by the policy's next update.
 */
static void sen_gov_update(struct update_util_data *hook, u64 time,
			   unsigned int flags)
{
	struct sen_gov_cpu *gc = container_of(hook, struct sen_gov_cpu, update_util);
	struct sen_gov_policy *gp = gc->gp;
	int n = 0;

	if (!cpufreq_this_cpu_can_update(gp->policy))
		return;

	WRITE_ONCE(gp->again, 1);
	/*
	 * Our CPU's new signals are stored before the request, and the
	 * request before we look at the lock: paired with the holder's
	 * barrier after it unlocks, one of us sees the other.
	 */
	smp_mb();
	do {
		if (!raw_spin_trylock(&gp->update_lock))
			return;		/* the holder will see the request */
		/* Fully ordered: the choice reads signals stored before it. */
		while (n < SEN_GOV_CHOICES && xchg(&gp->again, 0)) {
			sen_gov_choose(gp, time);
			n++;
		}
		raw_spin_unlock(&gp->update_lock);
		/* A request left while we were unlocking is ours to take. */
		smp_mb();
	} while (n < SEN_GOV_CHOICES && READ_ONCE(gp->again));
}

static void sen_gov_work(struct kthread_work *work)
{
	struct sen_gov_policy *gp = container_of(work, struct sen_gov_policy, work);
	unsigned long flags;
	unsigned int freq;

	/* Take the latest request; a newer one may come while we switch. */
	raw_spin_lock_irqsave(&gp->update_lock, flags);
	freq = gp->next_freq;
	gp->work_in_progress = false;
	raw_spin_unlock_irqrestore(&gp->update_lock, flags);

	mutex_lock(&gp->work_lock);
	__cpufreq_driver_target(gp->policy, freq, CPUFREQ_RELATION_L);
	mutex_unlock(&gp->work_lock);
}

static void sen_gov_irq_work(struct irq_work *irq_work)
{
	struct sen_gov_policy *gp = container_of(irq_work, struct sen_gov_policy, irq_work);

	kthread_queue_work(&gp->worker, &gp->work);
}

static int sen_gov_kthread_create(struct sen_gov_policy *gp)
{
	struct cpufreq_policy *policy = gp->policy;
	struct task_struct *thread;

	kthread_init_work(&gp->work, sen_gov_work);
	kthread_init_worker(&gp->worker);
	thread = kthread_create(kthread_worker_fn, &gp->worker, "sen_gov:%d",
				cpumask_first(policy->related_cpus));
	if (IS_ERR(thread)) {
		pr_err("sched-energy: governor: cannot create the kthread of policy%u: %ld\n",
		       policy->cpu, PTR_ERR(thread));
		return PTR_ERR(thread);
	}
	/* Above CFS, below the RT tasks that depend on a timely response. */
	sched_set_fifo(thread);
	gp->thread = thread;
	if (!policy->dvfs_possible_from_any_cpu)
		kthread_bind_mask(thread, policy->related_cpus);
	init_irq_work(&gp->irq_work, sen_gov_irq_work);
	mutex_init(&gp->work_lock);
	wake_up_process(thread);
	return 0;
}

static int sen_gov_do_init(struct cpufreq_policy *policy)
{
	struct sen_gov_policy *gp;
	int ret;

	gp = kzalloc(sizeof(*gp), GFP_KERNEL);
	if (!gp)
		return -ENOMEM;
	gp->policy = policy;
	raw_spin_lock_init(&gp->update_lock);
	if (policy->fast_switch_possible)
		cpufreq_enable_fast_switch(policy);
	if (!policy->fast_switch_enabled) {
		ret = sen_gov_kthread_create(gp);
		if (ret) {
			kfree(gp);
			return ret;
		}
	}
	policy->governor_data = gp;
	/* The tracker runs while any policy has this governor. */
	sen_util_track_governor(true);
	return 0;
}

static void sen_gov_do_exit(struct cpufreq_policy *policy)
{
	struct sen_gov_policy *gp = policy->governor_data;

	policy->governor_data = NULL;
	sen_util_track_governor(false);
	if (gp->thread) {
		kthread_flush_worker(&gp->worker);
		kthread_stop(gp->thread);
		mutex_destroy(&gp->work_lock);
	}
	cpufreq_disable_fast_switch(policy);
	kfree(gp);
}

static int sen_gov_do_start(struct cpufreq_policy *policy)
{
	struct sen_gov_policy *gp = policy->governor_data;
	int cpu;

	gp->delay_ns = (s64)cpufreq_policy_transition_delay_us(policy) * NSEC_PER_USEC;
	gp->last_change = 0;
	gp->hold_until = 0;
	gp->next_freq = policy->cur;
	gp->limits_changed = false;
	gp->work_in_progress = false;
	gp->again = 0;

	for_each_cpu(cpu, policy->cpus) {
		struct sen_gov_cpu *gc = &per_cpu(sen_gov_cpu, cpu);

		gc->cpu = cpu;
		gc->gp = gp;
		cpufreq_add_update_util_hook(cpu, &gc->update_util, sen_gov_update);
		sen_util_drive_freq(cpu, true);
	}
	return 0;
}

static void sen_gov_do_stop(struct cpufreq_policy *policy)
{
	struct sen_gov_policy *gp = policy->governor_data;
	int cpu;

	for_each_cpu(cpu, policy->cpus) {
		sen_util_drive_freq(cpu, false);
		cpufreq_remove_update_util_hook(cpu);
	}
	/* No update callback runs after this. */
	synchronize_rcu();
	if (gp->thread) {
		irq_work_sync(&gp->irq_work);
		kthread_cancel_work_sync(&gp->work);
	}
}

static void sen_gov_do_limits(struct cpufreq_policy *policy)
{
	struct sen_gov_policy *gp = policy->governor_data;

	if (!policy->fast_switch_enabled) {
		mutex_lock(&gp->work_lock);
		cpufreq_policy_apply_limits(policy);
		mutex_unlock(&gp->work_lock);
	}
	/* The next update requests a frequency within the new limits. */
	WRITE_ONCE(gp->limits_changed, true);
}

static struct cpufreq_governor sen_gov = {
	.name		= "sched_energy",
	.owner		= THIS_MODULE,
	.flags		= CPUFREQ_GOV_DYNAMIC_SWITCHING,
	.init		= sen_gov_do_init,
	.exit		= sen_gov_do_exit,
	.start		= sen_gov_do_start,
	.stop		= sen_gov_do_stop,
	.limits		= sen_gov_do_limits,
};

cpufreq_governor_init(sen_gov);
