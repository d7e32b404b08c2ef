// SPDX-License-Identifier: GPL-2.0
/*
 * sched-energy: the architecture-independent half of the platform energy
 * model: validation, derived values, publication and debugfs.
 *
 * The architecture builds a struct sen_model (arch/arm64/kernel/
 * energy_model.c) and hands it to sen_model_publish(), which validates
 * every table, derives the per-OPP costs and efficiency, and swaps it in
 * with RCU.  A model that breaks a rule is refused with one message that
 * names the CPU, the property the number came from and the rule; the
 * previous model is withdrawn, so the policy becomes unavailable and says
 * so, and the kernel carries on.
 *
 * debugfs (sched_energy/):
 *   status	"available" or "unavailable: <reason>"
 *   model	the whole model, one table per performance domain
 *   idlestat	the model in idlestat's energy-model format (idlestat -e)
 */
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/energy.h>
#include <linux/sched/topology.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

struct sen_model __rcu *sen_model_ptr;

/* Serialises publication, the reason string and debugfs readers. */
static DEFINE_MUTEX(sen_model_mutex);
static char sen_reason[SEN_REASON_LEN] = "not built yet";

/**
 * sen_model_size() - bytes to allocate for a model
 * @nr_domains: number of performance domains
 *
 * Return: the size of a struct sen_model with @nr_domains domains and its
 * per-CPU domain index.
 */
size_t sen_model_size(unsigned int nr_domains)
{
	return size_add(size_add(sizeof(struct sen_model),
				 array_size(nr_domains, sizeof(struct sen_domain))),
			array_size(nr_cpu_ids, sizeof(s16)));
}

/**
 * sen_model_init() - prepare a zeroed model buffer
 * @m:		sen_model_size(@nr_domains) zeroed bytes
 * @nr_domains:	number of performance domains
 *
 * Points cpu_domain at its storage after the domains and marks every CPU
 * as in no domain.
 */
void sen_model_init(struct sen_model *m, unsigned int nr_domains)
{
	unsigned int cpu;

	m->nr_domains = nr_domains;
	m->cpu_domain = (s16 *)&m->dom[nr_domains];
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		m->cpu_domain[cpu] = -1;
}

/* Names the origin of a number in refusal messages. */
enum sen_field {
	SEN_F_FREQ,
	SEN_F_CAP,
	SEN_F_CPU_ACTIVE,
	SEN_F_CLUSTER_ACTIVE,
	SEN_F_CPU_IDLE,
	SEN_F_CLUSTER_IDLE,
	SEN_F_LATENCY,
	SEN_F_RESIDENCY,
};

static const char *sen_field_name(const struct sen_model *m, enum sen_field f)
{
	enum sen_source src = SEN_SRC_NONE;

	switch (f) {
	case SEN_F_FREQ:
		return "operating points (cpufreq)";
	case SEN_F_CAP:
		return "capacity (capacity-dmips-mhz x frequency)";
	case SEN_F_LATENCY:
		return "entry-latency-us + exit-latency-us";
	case SEN_F_RESIDENCY:
		return "min-residency-us";
	case SEN_F_CPU_ACTIVE:
		src = m->src_active;
		if (src == SEN_SRC_EM)
			return "energy model (opp-microwatt / dynamic-power-coefficient)";
		break;
	case SEN_F_CLUSTER_ACTIVE:
		src = m->src_cluster;
		if (src == SEN_SRC_DT)
			return "sched-energy-cluster-active-microwatt";
		break;
	case SEN_F_CPU_IDLE:
		src = m->src_idle;
		if (src == SEN_SRC_DT)
			return "sched-energy-cpu-idle-microwatt";
		break;
	case SEN_F_CLUSTER_IDLE:
		src = m->src_idle;
		if (src == SEN_SRC_DT)
			return "sched-energy-cluster-idle-microwatt";
		break;
	}
	if (src == SEN_SRC_BUILTIN)
		return "built-in table";
	if (src == SEN_SRC_TEST)
		return "test table";
	return "power";
}

#define sen_refuse(why, len, cpu, m, f, fmt, ...)			\
	({								\
		snprintf(why, len, "cpu%d: %s: " fmt, cpu,		\
			 sen_field_name(m, f), ##__VA_ARGS__);		\
		-EINVAL;						\
	})

static int sen_validate_opps(const struct sen_model *m,
			     const struct sen_domain *d, int cpu,
			     char *why, size_t len)
{
	const struct sen_opp *o = d->opp;
	unsigned int i;

	if (!d->nr_opps || d->nr_opps > SEN_MAX_OPPS)
		return sen_refuse(why, len, cpu, m, SEN_F_FREQ,
				  "%u operating points, need 1 to %d",
				  d->nr_opps, SEN_MAX_OPPS);

	for (i = 0; i < d->nr_opps; i++) {
		if (!o[i].freq)
			return sen_refuse(why, len, cpu, m, SEN_F_FREQ,
					  "opp %u: zero frequency", i);
		if (!o[i].cap || o[i].cap > SCHED_CAPACITY_SCALE)
			return sen_refuse(why, len, cpu, m, SEN_F_CAP,
					  "opp %u: capacity %lu outside 1..%lu",
					  i, o[i].cap, SCHED_CAPACITY_SCALE);
		if (!o[i].cpu_power || o[i].cpu_power > U32_MAX)
			return sen_refuse(why, len, cpu, m, SEN_F_CPU_ACTIVE,
					  "opp %u: power %lu must be positive and fit 32 bits",
					  i, o[i].cpu_power);
		if (o[i].cluster_power > U32_MAX)
			return sen_refuse(why, len, cpu, m, SEN_F_CLUSTER_ACTIVE,
					  "opp %u: power %lu does not fit 32 bits",
					  i, o[i].cluster_power);
		if (!i)
			continue;
		if (o[i].freq <= o[i - 1].freq)
			return sen_refuse(why, len, cpu, m, SEN_F_FREQ,
					  "opp %u: frequency %lu kHz not above %lu kHz",
					  i, o[i].freq, o[i - 1].freq);
		if (o[i].cap <= o[i - 1].cap)
			return sen_refuse(why, len, cpu, m, SEN_F_CAP,
					  "opp %u: capacity %lu not above %lu",
					  i, o[i].cap, o[i - 1].cap);
		if (o[i].cpu_power <= o[i - 1].cpu_power)
			return sen_refuse(why, len, cpu, m, SEN_F_CPU_ACTIVE,
					  "opp %u: power %lu not above %lu at a lower frequency",
					  i, o[i].cpu_power, o[i - 1].cpu_power);
		if (o[i].cluster_power < o[i - 1].cluster_power)
			return sen_refuse(why, len, cpu, m, SEN_F_CLUSTER_ACTIVE,
					  "opp %u: power %lu below %lu at a lower frequency",
					  i, o[i].cluster_power,
					  o[i - 1].cluster_power);
	}
	return 0;
}

static int sen_validate_idle(const struct sen_model *m,
			     const struct sen_domain *d, int cpu,
			     char *why, size_t len)
{
	const struct sen_idle_state *s = d->idle;
	unsigned int i;

	if (!d->nr_idle || d->nr_idle > SEN_MAX_IDLE_STATES)
		return sen_refuse(why, len, cpu, m, SEN_F_LATENCY,
				  "%u idle states, need 1 (WFI) to %d",
				  d->nr_idle, SEN_MAX_IDLE_STATES);

	if (s[0].cpu_power >= d->opp[0].cpu_power)
		return sen_refuse(why, len, cpu, m, SEN_F_CPU_IDLE,
				  "state 0 (%s): power %lu not below the lowest active power %lu",
				  s[0].name, s[0].cpu_power, d->opp[0].cpu_power);

	for (i = 0; i < d->nr_idle; i++) {
		if (s[i].cluster_power > U32_MAX)
			return sen_refuse(why, len, cpu, m, SEN_F_CLUSTER_IDLE,
					  "state %u (%s): power %lu does not fit 32 bits",
					  i, s[i].name, s[i].cluster_power);
		if (!i)
			continue;
		if (s[i].cpu_power > s[i - 1].cpu_power)
			return sen_refuse(why, len, cpu, m, SEN_F_CPU_IDLE,
					  "state %u (%s): power %lu above %lu in a shallower state",
					  i, s[i].name, s[i].cpu_power,
					  s[i - 1].cpu_power);
		if (s[i].cluster_power > s[i - 1].cluster_power)
			return sen_refuse(why, len, cpu, m, SEN_F_CLUSTER_IDLE,
					  "state %u (%s): power %lu above %lu in a shallower state",
					  i, s[i].name, s[i].cluster_power,
					  s[i - 1].cluster_power);
		if (s[i].exit_latency_us < s[i - 1].exit_latency_us)
			return sen_refuse(why, len, cpu, m, SEN_F_LATENCY,
					  "state %u (%s): %u us shorter than %u us in a shallower state",
					  i, s[i].name, s[i].exit_latency_us,
					  s[i - 1].exit_latency_us);
		if (s[i].residency_us < s[i - 1].residency_us)
			return sen_refuse(why, len, cpu, m, SEN_F_RESIDENCY,
					  "state %u (%s): %u us shorter than %u us in a shallower state",
					  i, s[i].name, s[i].residency_us,
					  s[i - 1].residency_us);
	}
	return 0;
}

/**
 * sen_model_validate() - check every rule of a platform energy model
 * @m:		the model
 * @why:	receives the reason when the model is refused
 * @len:	size of @why
 *
 * The rules: every possible CPU belongs to exactly one domain, and
 * cpu_domain[] says which; per domain 1 to SEN_MAX_OPPS operating points
 * with frequency, capacity and CPU power strictly increasing and the
 * cluster power not decreasing; the largest capacity is
 * SCHED_CAPACITY_SCALE; 1 to SEN_MAX_IDLE_STATES idle states whose CPU
 * and cluster powers do not increase with depth while their latencies and
 * residencies do not decrease, WFI drawing less than the lowest OPP; all
 * powers fit 32 bits, which keeps the estimator's products in 64 bits.
 *
 * Return: 0 if the model is usable, -EINVAL with the reason in @why.
 */
int sen_model_validate(const struct sen_model *m, char *why, size_t len)
{
	unsigned long max_cap = 0;
	unsigned int i;
	int cpu, ret;

	if (!m->nr_domains) {
		snprintf(why, len, "no performance domain");
		return -EINVAL;
	}

	for (i = 0; i < m->nr_domains; i++) {
		const struct sen_domain *d = &m->dom[i];

		cpu = cpumask_first(&d->cpus);
		if (cpu >= nr_cpu_ids) {
			snprintf(why, len, "domain %u has no CPU", i);
			return -EINVAL;
		}
		for_each_cpu(cpu, &d->cpus) {
			if (!cpu_possible(cpu)) {
				snprintf(why, len,
					 "cpu%d: in domain %u but not a possible CPU",
					 cpu, i);
				return -EINVAL;
			}
			if (m->cpu_domain[cpu] != i) {
				snprintf(why, len,
					 "cpu%d: in domain %u and domain %d",
					 cpu, i, m->cpu_domain[cpu]);
				return -EINVAL;
			}
		}
		cpu = cpumask_first(&d->cpus);
		ret = sen_validate_opps(m, d, cpu, why, len);
		if (ret)
			return ret;
		ret = sen_validate_idle(m, d, cpu, why, len);
		if (ret)
			return ret;
		max_cap = max(max_cap, d->opp[d->nr_opps - 1].cap);
	}

	for_each_possible_cpu(cpu) {
		int d = m->cpu_domain[cpu];

		if (d < 0 || d >= m->nr_domains ||
		    !cpumask_test_cpu(cpu, &m->dom[d].cpus)) {
			snprintf(why, len, "cpu%d: not in any performance domain",
				 cpu);
			return -EINVAL;
		}
	}

	if (max_cap != SCHED_CAPACITY_SCALE) {
		snprintf(why, len,
			 "cpu%d: %s: largest capacity %lu, expected %lu",
			 cpumask_first(&m->dom[0].cpus),
			 sen_field_name(m, SEN_F_CAP), max_cap,
			 SCHED_CAPACITY_SCALE);
		return -EINVAL;
	}
	return 0;
}

/**
 * sen_model_derive() - compute the derived values of a valid model
 * @m: a model that passed sen_model_validate()
 *
 * cost is the energy of one unit of work at full capacity on one CPU at
 * the OPP: cpu_power * SCHED_CAPACITY_SCALE / cap.  An OPP is efficient
 * unless some higher OPP does the same work for no more energy counting
 * the CPU and its cluster with one busy CPU (the case that decides
 * whether to raise a lightly loaded domain's frequency); like the kernel
 * energy model, the scan runs from the top OPP down.
 */
void sen_model_derive(struct sen_model *m)
{
	unsigned int i;
	int j;

	for (i = 0; i < m->nr_domains; i++) {
		struct sen_domain *d = &m->dom[i];
		unsigned long best = ULONG_MAX;

		for (j = d->nr_opps - 1; j >= 0; j--) {
			struct sen_opp *o = &d->opp[j];
			unsigned long total;

			o->cost = o->cpu_power * SCHED_CAPACITY_SCALE / o->cap;
			total = (o->cpu_power + o->cluster_power) *
				SCHED_CAPACITY_SCALE / o->cap;
			o->efficient = total < best;
			if (o->efficient)
				best = total;
		}
	}
}

static void sen_set_reason(const char *reason)
{
	lockdep_assert_held(&sen_model_mutex);
	strscpy(sen_reason, reason, sizeof(sen_reason));
}

/**
 * sen_model_publish() - validate a model and make it the current one
 * @m:		a model built by the architecture, allocated with kzalloc()
 *		(or kvzalloc-compatible kfree()) of sen_model_size(); it is
 *		owned by this function from now on
 *
 * On success the previous model is freed after an RCU grace period.  On
 * refusal the previous model is withdrawn too (it described a platform
 * that no longer is), the reason is logged once and shown in debugfs.
 *
 * Context: process context, may sleep.
 * Return: 0, or -EINVAL if the model was refused.
 */
int sen_model_publish(struct sen_model *m)
{
	char why[SEN_REASON_LEN];
	struct sen_model *old;
	int ret;

	ret = sen_model_validate(m, why, sizeof(why));
	if (ret) {
		kfree(m);
		sen_model_withdraw("model refused: %s", why);
		return ret;
	}
	sen_model_derive(m);

	mutex_lock(&sen_model_mutex);
	old = rcu_replace_pointer(sen_model_ptr, m,
				  lockdep_is_held(&sen_model_mutex));
	if (!old || strcmp(sen_reason, "available"))
		pr_info("sched-energy: model available: %u domains, %s power from %s, cluster from %s, idle from %s\n",
			m->nr_domains,
			m->unit == SEN_UNIT_UW ? "uW" : "abstract",
			sen_source_name(m->src_active, m),
			sen_source_name(m->src_cluster, m),
			sen_source_name(m->src_idle, m));
	sen_set_reason("available");
	mutex_unlock(&sen_model_mutex);
	if (old)
		kfree_rcu(old, rcu);
	return 0;
}

/**
 * sen_model_withdraw() - drop the current model, giving the reason
 * @fmt:	printf format of the reason
 *
 * The reason is logged when it differs from the last one, so a rebuild
 * that fails the same way again stays quiet.
 *
 * Context: process context, may sleep.
 */
void sen_model_withdraw(const char *fmt, ...)
{
	char why[SEN_REASON_LEN];
	struct sen_model *old;
	va_list args;

	va_start(args, fmt);
	vsnprintf(why, sizeof(why), fmt, args);
	va_end(args);

	mutex_lock(&sen_model_mutex);
	old = rcu_replace_pointer(sen_model_ptr, NULL,
				  lockdep_is_held(&sen_model_mutex));
	if (strcmp(sen_reason, why)) {
		pr_err("sched-energy: %s\n", why);
		pr_warn("sched-energy: policy unavailable: no valid platform energy model\n");
		sen_set_reason(why);
	}
	mutex_unlock(&sen_model_mutex);
	if (old)
		kfree_rcu(old, rcu);
}

/**
 * sen_model_available() - is there a model, and if not, why
 * @why:	receives the reason when there is none
 * @len:	size of @why
 *
 * Context: process context, may sleep.
 * Return: true if a model is published.
 */
bool sen_model_available(char *why, size_t len)
{
	bool ok;

	mutex_lock(&sen_model_mutex);
	ok = rcu_access_pointer(sen_model_ptr);
	if (!ok)
		strscpy(why, sen_reason, len);
	mutex_unlock(&sen_model_mutex);
	return ok;
}

/**
 * sen_source_name() - human-readable origin of a part of a model
 * @src:	the source
 * @m:		the model (for the built-in table's name)
 *
 * Return: a constant string.
 */
const char *sen_source_name(enum sen_source src, const struct sen_model *m)
{
	switch (src) {
	case SEN_SRC_DT:
		return "device-tree";
	case SEN_SRC_EM:
		return "energy-model";
	case SEN_SRC_BUILTIN:
		return m->table ? m->table : "built-in";
	case SEN_SRC_TEST:
		return "test";
	case SEN_SRC_NONE:
		break;
	}
	return "none";
}

#ifdef CONFIG_DEBUG_FS

static int sen_status_show(struct seq_file *s, void *unused)
{
	mutex_lock(&sen_model_mutex);
	if (rcu_access_pointer(sen_model_ptr))
		seq_puts(s, "available\n");
	else
		seq_printf(s, "unavailable: %s\n", sen_reason);
	mutex_unlock(&sen_model_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sen_status);

static void sen_show_domain(struct seq_file *s, const struct sen_domain *d)
{
	unsigned int i;

	seq_printf(s, "domain %u cpus %*pbl\n", d->id, cpumask_pr_args(&d->cpus));
	seq_puts(s, "  opp freq_khz capacity cpu_power cluster_power cost efficient\n");
	for (i = 0; i < d->nr_opps; i++) {
		const struct sen_opp *o = &d->opp[i];

		seq_printf(s, "  %u %lu %lu %lu %lu %lu %s\n", i, o->freq,
			   o->cap, o->cpu_power, o->cluster_power, o->cost,
			   o->efficient ? "yes" : "no");
	}
	seq_puts(s, "  idle name cpu_power cluster_power wakeup_energy exit_latency_us residency_us\n");
	for (i = 0; i < d->nr_idle; i++) {
		const struct sen_idle_state *st = &d->idle[i];

		seq_printf(s, "  %u %s %lu %lu %lu %u %u\n", i, st->name,
			   st->cpu_power, st->cluster_power, st->wakeup_energy,
			   st->exit_latency_us, st->residency_us);
	}
}

static int sen_model_show(struct seq_file *s, void *unused)
{
	const struct sen_model *m;
	unsigned int i;

	mutex_lock(&sen_model_mutex);
	m = rcu_dereference_protected(sen_model_ptr,
				      lockdep_is_held(&sen_model_mutex));
	if (!m) {
		seq_printf(s, "unavailable: %s\n", sen_reason);
		goto out;
	}
	seq_printf(s, "unit %s\n", m->unit == SEN_UNIT_UW ? "uW" : "abstract");
	seq_printf(s, "source active %s cluster %s idle %s\n",
		   sen_source_name(m->src_active, m),
		   sen_source_name(m->src_cluster, m),
		   sen_source_name(m->src_idle, m));
	seq_printf(s, "domains %u\n", m->nr_domains);
	for (i = 0; i < m->nr_domains; i++)
		sen_show_domain(s, &m->dom[i]);
out:
	mutex_unlock(&sen_model_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sen_model);

/*
 * idlestat's energy-model file (idlestat -e): one "clusterX" block per
 * domain, X = A, B, ... in domain order, P-states as "MHz cluster_power
 * core_power", C-states as "name cluster_power core_power", and the
 * wakeup energies (which idlestat parses but does not use).
 */
static int sen_idlestat_show(struct seq_file *s, void *unused)
{
	const struct sen_model *m;
	unsigned int i, j;

	mutex_lock(&sen_model_mutex);
	m = rcu_dereference_protected(sen_model_ptr,
				      lockdep_is_held(&sen_model_mutex));
	if (!m)
		goto out;
	seq_printf(s, "# sched-energy model, unit %s\n",
		   m->unit == SEN_UNIT_UW ? "uW" : "abstract");
	seq_printf(s, "clusters %u\n", m->nr_domains);
	for (i = 0; i < m->nr_domains; i++) {
		const struct sen_domain *d = &m->dom[i];

		seq_printf(s, "# cpus %*pbl\n", cpumask_pr_args(&d->cpus));
		seq_printf(s, "cluster%c: %u cap states %u C states\n",
			   'A' + i, d->nr_opps, d->nr_idle);
		seq_puts(s, "P-states:\n# speed, cluster power, core power\n");
		for (j = d->nr_opps; j-- > 0;)
			seq_printf(s, "%lu %lu %lu\n", d->opp[j].freq / 1000,
				   d->opp[j].cluster_power,
				   d->opp[j].cpu_power);
		seq_puts(s, "C-states:\n");
		for (j = 0; j < d->nr_idle; j++)
			seq_printf(s, "%s %lu %lu\n", d->idle[j].name,
				   d->idle[j].cluster_power,
				   d->idle[j].cpu_power);
		seq_printf(s, "wakeup 0 %lu\n", d->idle[d->nr_idle - 1].wakeup_energy);
	}
out:
	mutex_unlock(&sen_model_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sen_idlestat);

static struct dentry *sen_debugfs;

/**
 * sen_debugfs_dir() - the sched_energy debugfs directory
 *
 * Return: the directory, for files of other parts of sched-energy.
 */
struct dentry *sen_debugfs_dir(void)
{
	return sen_debugfs;
}

static int sen_knob_get(void *data, u64 *val)
{
	const struct sen_knob *knob = data;

	*val = READ_ONCE(*knob->val);
	return 0;
}

static int sen_knob_set(void *data, u64 val)
{
	const struct sen_knob *knob = data;

	if (val < knob->min || val > knob->max)
		return -EINVAL;
	WRITE_ONCE(*knob->val, val);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(sen_knob_fops, sen_knob_get, sen_knob_set, "%llu\n");

/**
 * sen_debugfs_knob() - make a tunable a file of the sched_energy directory
 * @name:	the file's name
 * @knob:	the tunable and its bounds; it must outlive the file
 *
 * The file reads the value and takes a write within the bounds; any other
 * write (out of range, not a number) fails with EINVAL and the value stays.
 */
void sen_debugfs_knob(const char *name, struct sen_knob *knob)
{
	debugfs_create_file_unsafe(name, 0644, sen_debugfs, knob,
				   &sen_knob_fops);
}

static int __init sen_model_debugfs_init(void)
{
	sen_debugfs = debugfs_create_dir("sched_energy", NULL);
	debugfs_create_file("status", 0444, sen_debugfs, NULL, &sen_status_fops);
	debugfs_create_file("model", 0444, sen_debugfs, NULL, &sen_model_fops);
	debugfs_create_file("idlestat", 0444, sen_debugfs, NULL, &sen_idlestat_fops);
	return 0;
}
fs_initcall(sen_model_debugfs_init);

#endif /* CONFIG_DEBUG_FS */
