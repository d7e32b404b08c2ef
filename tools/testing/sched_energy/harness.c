// SPDX-License-Identifier: GPL-2.0
/*
 * One input, for both drivers: boot the fake platform from a flattened
 * device tree, publish a small synthetic model (standing for the model of
 * an earlier build, which a refusal must withdraw), run the arm64 builder
 * as late_initcall_sync does, then once more as a cpufreq policy event
 * and a CPU hotplug event schedule it, and check:
 *
 *  - no crash, no sanitizer report, no lockdep-style splat (shims);
 *  - a published model passes sen_model_validate() again, and the rules
 *    it documents restated here (a weakened validator would pass its own
 *    check); every possible
 *    CPU is in exactly one domain and cpu_domain[] agrees; domains are in
 *    order of first CPU; cost is cpu_power * 1024 / cap; an OPP is
 *    efficient exactly when no higher OPP does the work for no more
 *    energy, so at least the top one is; frequencies, capacities, spans
 *    and active powers are the platform's (energy model or cpufreq,
 *    arch_scale_cpu_capacity() * f / fmax); sources and unit agree;
 *    debugfs status, model and idlestat show the model, line for line;
 *  - a refusal leaves no model (the synthetic one is gone), gives a
 *    non-empty reason naming a possible CPU, shown by debugfs status and
 *    model, logged once as an error with one "policy unavailable" line;
 *  - the rebuilds run once (coalesced), give the same debugfs output and
 *    log nothing, as the platform did not change;
 *  - every device-tree node and cpufreq policy reference taken is put
 *    back, no lock is left held, and nothing leaks (LeakSanitizer).
 *
 * With allocation failure injection only the consistency checks apply.
 */
#include <linux/cpufreq.h>
#include <linux/energy_model.h>
#include <linux/rcupdate.h>
#include <linux/sched/energy.h>
#include <linux/sched/topology.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <linux/of.h>

#include "sen_test.h"

#define check(cond, fmt, ...)						\
	do {								\
		if (!(cond))						\
			sen_bug("invariant violated: " fmt, ##__VA_ARGS__); \
	} while (0)

/*
 * Known bugs of the code under test: an invariant that fails because of
 * one is fatal like any other, unless its id is in the comma-separated
 * list $SEN_KNOWN_BUGS; then it is only counted (sen_known_bugs[]).  The
 * bugs below were found by this fuzzer and are fixed; the ids stay so
 * that a regression can be counted while it is being fixed.
 */
struct sen_known_bug sen_known_bugs[] = {
	{ "cluster-lookup",
	  "the builder's cpu-map walk and arch_topology disagree on a CPU's cluster" },
	{ "wakeup-malformed",
	  "a malformed sched-energy-wakeup-nanojoule is ignored, not refused" },
	{ NULL, NULL },
};

static bool sen_bug_known(const char *id)
{
	const char *list = getenv("SEN_KNOWN_BUGS"), *p;
	size_t len = strlen(id);

	for (p = list; p && *p; p += strcspn(p, ","), p += *p == ',') {
		if (!strncmp(p, id, len) && (p[len] == ',' || !p[len]))
			return true;
	}
	return false;
}

#define check_bug(bug, cond, fmt, ...)					\
	do {								\
		if (!(cond)) {						\
			const char *__id = (bug);			\
			struct sen_known_bug *__k = sen_known_bugs;	\
									\
			while (strcmp(__k->id, __id))			\
				__k++;					\
			if (!sen_bug_known(__id))			\
				sen_bug("invariant violated [known bug %s]: " fmt, \
					__id, ##__VA_ARGS__);		\
			__k->seen++;					\
		}							\
	} while (0)

struct sen_snap {
	bool available;
	char why[SEN_REASON_LEN];
	char *status;
	char *model;
	char *idlestat;
};

char sen_harness_outcome[SEN_REASON_LEN + 64];

static char *sen_read(const char *path)
{
	char *text = sen_debugfs_read(path);

	check(text, "debugfs %s does not exist", path);
	return text;
}

static void sen_snap_take(struct sen_snap *s)
{
	memset(s->why, 0, sizeof(s->why));
	s->available = sen_model_available(s->why, sizeof(s->why));
	s->status = sen_read("sched_energy/status");
	s->model = sen_read("sched_energy/model");
	s->idlestat = sen_read("sched_energy/idlestat");
}

static void sen_snap_free(struct sen_snap *s)
{
	free(s->status);
	free(s->model);
	free(s->idlestat);
}

static unsigned int sen_lines(const char *text)
{
	unsigned int n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* The domain's frequencies as the platform gives them; 0 if none. */
static unsigned int sen_platform_freqs(unsigned int cpu, unsigned long *freq,
				       struct cpumask *span)
{
	struct em_perf_domain *pd = em_cpu_get(cpu);
	struct cpufreq_policy *policy = sen_platform_policy(cpu);
	struct cpufreq_frequency_table *pos;
	unsigned int n = 0, i;

	if (pd) {
		cpumask_and(span, em_span_cpus(pd), cpu_possible_mask);
		for (i = 0; i < (unsigned int)pd->nr_perf_states && i < SEN_MAX_OPPS; i++)
			freq[n++] = pd->table[i].frequency;
		return n;
	}
	cpumask_clear(span);
	if (!policy)
		return 0;
	cpumask_and(span, policy->related_cpus, cpu_possible_mask);
	cpufreq_for_each_valid_entry(pos, policy->freq_table) {
		unsigned long f = pos->frequency;

		for (i = 0; i < n && freq[i] != f; i++)
			;
		if (i < n || n == SEN_MAX_OPPS)
			continue;
		for (i = n; i > 0 && freq[i - 1] > f; i--)
			freq[i] = freq[i - 1];
		freq[i] = f;
		n++;
	}
	return n;
}

/*
 * The rules of include/linux/sched/energy.h and sen_model_validate()'s
 * comment, restated independently of the validator.
 */
static void sen_check_rules(const struct sen_domain *d)
{
	unsigned int i;

	for (i = 0; i < d->nr_opps; i++) {
		const struct sen_opp *o = &d->opp[i], *p = o - 1;

		check(o->freq && o->cap && o->cap <= SCHED_CAPACITY_SCALE &&
		      o->cpu_power && o->cpu_power <= U32_MAX &&
		      o->cluster_power <= U32_MAX,
		      "domain %u opp %u: %lu kHz, capacity %lu, power %lu + %lu",
		      d->id, i, o->freq, o->cap, o->cpu_power, o->cluster_power);
		check(!i || (o->freq > p->freq && o->cap > p->cap &&
			     o->cpu_power > p->cpu_power &&
			     o->cluster_power >= p->cluster_power),
		      "domain %u opp %u does not rise above opp %u", d->id, i, i - 1);
	}
	check(d->idle[0].cpu_power < d->opp[0].cpu_power,
	      "domain %u: WFI %lu not below the lowest active power %lu",
	      d->id, d->idle[0].cpu_power, d->opp[0].cpu_power);
	for (i = 0; i < d->nr_idle; i++) {
		const struct sen_idle_state *st = &d->idle[i], *p = st - 1;

		check(st->cluster_power <= U32_MAX, "domain %u idle %u: power %lu",
		      d->id, i, st->cluster_power);
		check(!i || (st->cpu_power <= p->cpu_power &&
			     st->cluster_power <= p->cluster_power &&
			     st->exit_latency_us >= p->exit_latency_us &&
			     st->residency_us >= p->residency_us),
		      "domain %u idle %u is not deeper than idle %u", d->id, i, i - 1);
	}
}

static void sen_check_domain(const struct sen_model *m, const struct sen_domain *d)
{
	unsigned int first = cpumask_first(&d->cpus), i, j, n;
	unsigned long freq[SEN_MAX_OPPS], scale = arch_scale_cpu_capacity(first);
	struct em_perf_domain *pd = em_cpu_get(first);
	struct cpumask span;

	check(d->nr_opps >= 1 && d->nr_opps <= SEN_MAX_OPPS,
	      "domain %u: %u OPPs", d->id, d->nr_opps);
	check(d->nr_idle >= 1 && d->nr_idle <= SEN_MAX_IDLE_STATES,
	      "domain %u: %u idle states", d->id, d->nr_idle);
	check(!strcmp(d->idle[0].name, "WFI"), "domain %u: idle state 0 is %s",
	      d->id, d->idle[0].name);
	sen_check_rules(d);

	for (i = 0; i < d->nr_opps; i++) {
		const struct sen_opp *o = &d->opp[i];
		unsigned long total = (o->cpu_power + o->cluster_power) *
				      SCHED_CAPACITY_SCALE / o->cap;
		bool beaten = false;

		check(o->cost == o->cpu_power * SCHED_CAPACITY_SCALE / o->cap,
		      "domain %u opp %u: cost %lu, cpu_power %lu * 1024 / cap %lu is %lu",
		      d->id, i, o->cost, o->cpu_power, o->cap,
		      o->cpu_power * SCHED_CAPACITY_SCALE / o->cap);
		for (j = i + 1; j < d->nr_opps; j++)
			beaten |= (d->opp[j].cpu_power + d->opp[j].cluster_power) *
				  SCHED_CAPACITY_SCALE / d->opp[j].cap <= total;
		check(o->efficient == !beaten,
		      "domain %u opp %u: efficient is %d, a higher OPP %s as cheap",
		      d->id, i, o->efficient, beaten ? "is" : "is not");
	}
	check(d->opp[d->nr_opps - 1].efficient, "domain %u: no efficient OPP", d->id);

	/* The platform's view of the same CPUs. */
	n = sen_platform_freqs(first, freq, &span);
	check(cpumask_equal(&span, &d->cpus),
	      "domain %u: cpus %*pbl, but the platform's domain of cpu%u is %*pbl",
	      d->id, cpumask_pr_args(&d->cpus), first, cpumask_pr_args(&span));
	check(n == d->nr_opps, "domain %u: %u OPPs, the platform has %u",
	      d->id, d->nr_opps, n);
	for (i = 0; i < n; i++) {
		check(d->opp[i].freq == freq[i],
		      "domain %u opp %u: %lu kHz, the platform says %lu",
		      d->id, i, d->opp[i].freq, freq[i]);
		check(d->opp[i].cap == scale * freq[i] / freq[n - 1],
		      "domain %u opp %u: capacity %lu, expected %lu * %lu / %lu",
		      d->id, i, d->opp[i].cap, scale, freq[i], freq[n - 1]);
		if (m->src_active == SEN_SRC_EM)
			check(pd && d->opp[i].cpu_power == pd->table[i].power,
			      "domain %u opp %u: power %lu is not the energy model's",
			      d->id, i, d->opp[i].cpu_power);
		if (m->src_cluster == SEN_SRC_NONE)
			check(!d->opp[i].cluster_power,
			      "domain %u opp %u: cluster power without a source",
			      d->id, i);
	}
	for (i = 0; i < d->nr_idle && m->src_idle == SEN_SRC_NONE; i++)
		check(!d->idle[i].cpu_power && !d->idle[i].cluster_power,
		      "domain %u idle %u: power without a source", d->id, i);
}

static u32 sen_dt_u32(const struct property *pp, unsigned int i)
{
	const u8 *b = (const u8 *)pp->value + 4 * i;

	return (u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 | b[3];
}

/*
 * Device-tree powers come from the cpu-map cluster node where arch_topology
 * put the domain's CPUs; every array has the model's length, and the
 * optional wakeup energies are absent (zero) or whole.
 */
static void sen_check_dt_power(const struct sen_domain *d)
{
	unsigned int first = cpumask_first(&d->cpus), i;
	struct device_node *cl = sen_topology_cluster[first];
	const struct property *act, *cpu_idle, *cl_idle, *wake;
	bool same = true;

	if (!cl)
		return;		/* arch_topology found no cpu-map: nothing to compare */
	act = of_find_property(cl, "sched-energy-cluster-active-microwatt", NULL);
	cpu_idle = of_find_property(cl, "sched-energy-cpu-idle-microwatt", NULL);
	cl_idle = of_find_property(cl, "sched-energy-cluster-idle-microwatt", NULL);
	wake = of_find_property(cl, "sched-energy-wakeup-nanojoule", NULL);

	same = act && cpu_idle && cl_idle &&
	       act->length == 4 * (int)d->nr_opps &&
	       cpu_idle->length == 4 * (int)d->nr_idle &&
	       cl_idle->length == 4 * (int)d->nr_idle;
	for (i = 0; same && i < d->nr_opps; i++)
		same = d->opp[i].cluster_power == sen_dt_u32(act, i);
	for (i = 0; same && i < d->nr_idle; i++)
		same = d->idle[i].cpu_power == sen_dt_u32(cpu_idle, i) &&
		       d->idle[i].cluster_power == sen_dt_u32(cl_idle, i);
	check_bug("cluster-lookup", same,
		  "domain %u (cpu%u): cluster and idle powers are not those of %pOF, where arch_topology put the CPU",
		  d->id, first, cl);
	if (!same)
		return;

	if (wake && wake->length == 4 * (int)d->nr_idle) {
		for (i = 0; i < d->nr_idle; i++)
			check(d->idle[i].wakeup_energy ==
			      (unsigned long)sen_dt_u32(wake, i) * 1000,
			      "domain %u idle %u: wakeup energy %lu, the DT says %u nJ",
			      d->id, i, d->idle[i].wakeup_energy, sen_dt_u32(wake, i));
		return;
	}
	check_bug("wakeup-malformed", !wake,
		  "domain %u (cpu%u): %pOF: sched-energy-wakeup-nanojoule of %d bytes for %u idle states, and the model was published",
		  d->id, first, cl, wake ? wake->length : 0, d->nr_idle);
	for (i = 0; i < d->nr_idle; i++)
		check(!d->idle[i].wakeup_energy,
		      "domain %u idle %u: wakeup energy %lu without the property",
		      d->id, i, d->idle[i].wakeup_energy);
}

static void sen_check_published(const struct sen_snap *s)
{
	char why[SEN_REASON_LEN], line[96];
	const struct sen_model *m;
	unsigned int cpu, i, lines_model = 3, lines_idlestat = 2;
	unsigned long max_cap = 0;
	struct cpumask seen;
	int prev = -1;

	rcu_read_lock();
	m = sen_model_rcu();
	check(m, "sen_model_available() is true but no model is published");
	check(!sen_model_validate(m, why, sizeof(why)),
	      "the published model fails sen_model_validate(): %s", why);
	check(m->nr_domains >= 1 && m->nr_domains <= nr_cpu_ids,
	      "%u domains for %u CPU ids", m->nr_domains, nr_cpu_ids);

	cpumask_clear(&seen);
	for (i = 0; i < m->nr_domains; i++) {
		const struct sen_domain *d = &m->dom[i];
		unsigned int first = cpumask_first(&d->cpus);

		check(d->id == i, "domain %u has id %u", i, d->id);
		check(first < nr_cpu_ids, "domain %u has no CPU", i);
		check((int)first > prev, "domain %u (cpu%u) after a domain of cpu%d",
		      i, first, prev);
		prev = first;
		for_each_cpu(cpu, &d->cpus) {
			check(cpu_possible(cpu), "cpu%u in domain %u is not possible",
			      cpu, i);
			check(!cpumask_test_cpu(cpu, &seen), "cpu%u in two domains", cpu);
			cpumask_set_cpu(cpu, &seen);
			check(sen_cpu_domain(m, cpu) == d,
			      "cpu_domain[%u] is %d, the CPU is in domain %u", cpu,
			      m->cpu_domain[cpu], i);
		}
		sen_check_domain(m, d);
		max_cap = max(max_cap, d->opp[d->nr_opps - 1].cap);
		if (m->src_cluster == SEN_SRC_DT)
			sen_check_dt_power(d);
		lines_model += 3 + d->nr_opps + d->nr_idle;
		lines_idlestat += 6 + d->nr_opps + d->nr_idle;
		snprintf(line, sizeof(line), "\ndomain %u cpus %*pbl\n", i,
			 cpumask_pr_args(&d->cpus));
		check(strstr(s->model, line), "debugfs model lacks \"%s\"", line + 1);
	}
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (cpu_possible(cpu))
			check(cpumask_test_cpu(cpu, &seen), "cpu%u is in no domain", cpu);
		else
			check(m->cpu_domain[cpu] == -1 && !sen_cpu_domain(m, cpu),
			      "cpu%u is not possible but has domain %d", cpu,
			      m->cpu_domain[cpu]);
	}

	check(max_cap == SCHED_CAPACITY_SCALE, "the largest capacity is %lu", max_cap);
	check(m->src_active == SEN_SRC_EM || m->src_active == SEN_SRC_BUILTIN,
	      "active power from source %d", m->src_active);
	if (m->src_active == SEN_SRC_BUILTIN)
		check(m->unit == SEN_UNIT_ABSTRACT && m->table &&
		      m->src_cluster == SEN_SRC_BUILTIN && m->src_idle == SEN_SRC_BUILTIN,
		      "a built-in table gives only part of the model, or in uW");
	if (m->src_cluster == SEN_SRC_DT)
		check(m->unit == SEN_UNIT_UW && m->src_idle == SEN_SRC_DT,
		      "device-tree cluster power with idle power from %d, unit %d",
		      m->src_idle, m->unit);
	if (m->src_cluster == SEN_SRC_NONE)
		check(m->src_idle == SEN_SRC_NONE, "idle power without cluster power");

	check(!strcmp(s->status, "available\n"), "debugfs status: %s", s->status);
	check(!strncmp(s->model, "unit ", 5), "debugfs model: %.80s", s->model);
	snprintf(line, sizeof(line), "\ndomains %u\n", m->nr_domains);
	check(strstr(s->model, line), "debugfs model lacks \"%s\"", line + 1);
	check(sen_lines(s->model) == lines_model,
	      "debugfs model: %u lines, expected %u", sen_lines(s->model), lines_model);
	check(!strncmp(s->idlestat, "# sched-energy model, unit ", 27),
	      "debugfs idlestat: %.80s", s->idlestat);
	snprintf(line, sizeof(line), "\nclusters %u\n", m->nr_domains);
	check(strstr(s->idlestat, line), "debugfs idlestat lacks \"%s\"", line + 1);
	check(sen_lines(s->idlestat) == lines_idlestat,
	      "debugfs idlestat: %u lines, expected %u", sen_lines(s->idlestat),
	      lines_idlestat);
	rcu_read_unlock();
}

static void sen_check_refused(const struct sen_snap *s, bool faults)
{
	char expect[SEN_REASON_LEN + 16];
	unsigned int cpu;
	int used = 0;

	rcu_read_lock();
	check(!sen_model_rcu(), "a model is published although unavailable");
	rcu_read_unlock();
	check(s->why[0], "unavailable without a reason");
	check(strlen(s->why) < SEN_REASON_LEN, "reason not terminated");
	if (!(faults && !strcmp(s->why, "model not built: out of memory"))) {
		check(sscanf(s->why, "model refused: cpu%u: %n", &cpu, &used) == 1 &&
		      used && cpu < nr_cpu_ids && cpu_possible(cpu),
		      "the reason names no possible CPU: \"%s\"", s->why);
		check_bug("cluster-lookup",
			  !strstr(s->why, ": cpu-map: not in any cluster node") ||
			  !sen_topology_cluster[cpu],
			  "cpu%u: refused as in no cpu-map cluster, but arch_topology put it in %pOF",
			  cpu, sen_topology_cluster[cpu]);
	}

	snprintf(expect, sizeof(expect), "unavailable: %s\n", s->why);
	check(!strcmp(s->status, expect), "debugfs status: \"%s\", reason \"%s\"",
	      s->status, s->why);
	check(!strcmp(s->model, expect), "debugfs model: \"%s\", reason \"%s\"",
	      s->model, s->why);
	check(!s->idlestat[0], "debugfs idlestat without a model: \"%s\"",
	      s->idlestat);
}

static void sen_check_state(const struct sen_snap *s, bool faults)
{
	if (s->available)
		sen_check_published(s);
	else
		sen_check_refused(s, faults);
}

/*
 * A valid model of the platform's possible CPUs, as KUnit builds them:
 * one domain, one OPP, WFI.  Publishing it stands for an earlier build.
 */
static void sen_publish_stale_model(void)
{
	struct sen_model *m = kzalloc(sen_model_size(1), GFP_KERNEL);
	struct sen_domain *d;
	unsigned int cpu;

	check(m, "no memory for the synthetic model");
	sen_model_init(m, 1);
	m->unit = SEN_UNIT_UW;
	m->src_active = SEN_SRC_TEST;
	m->src_cluster = SEN_SRC_TEST;
	m->src_idle = SEN_SRC_TEST;
	d = &m->dom[0];
	cpumask_copy(&d->cpus, cpu_possible_mask);
	for_each_possible_cpu(cpu)
		m->cpu_domain[cpu] = 0;
	d->nr_opps = 1;
	d->opp[0].freq = 1000000;
	d->opp[0].cap = SCHED_CAPACITY_SCALE;
	d->opp[0].cpu_power = 100000;
	d->nr_idle = 1;
	strscpy(d->idle[0].name, "WFI", sizeof(d->idle[0].name));
	d->idle[0].exit_latency_us = 1;
	d->idle[0].residency_us = 1;
	check(!sen_model_publish(m), "the synthetic model was refused");
}

int sen_harness_run(const void *data, size_t size, unsigned long fail_alloc_at,
		    unsigned long *allocs)
{
	struct sen_snap first, again;
	bool faults = fail_alloc_at;
	unsigned int cpu, last = 0;
	size_t mark;

	sen_kernel_reset();
	sen_test_model_reset();
	synchronize_rcu();
	if (sen_platform_boot(data, size))
		return 0;
	for_each_possible_cpu(cpu)
		last = cpu;

	check(!sen_test_debugfs_init(), "debugfs init failed");
	check(sen_debugfs_dir(), "no sched_energy debugfs directory");
	sen_publish_stale_model();

	/* late_initcall_sync: the first build */
	mark = sen_log_len();
	sen_alloc_count = 0;
	sen_fail_alloc_at = fail_alloc_at;
	check(!sen_test_arch_init(), "sen_arm64_model_init() failed");
	check(sen_cpufreq_notifiers() == 1 && sen_cpuhp_states() == 1,
	      "rebuild triggers not registered: %u notifiers, %u hotplug states",
	      sen_cpufreq_notifiers(), sen_cpuhp_states());
	check(!sen_log_count(LOGLEVEL_WARNING, "sched-energy: no rebuild", mark),
	      "rebuild triggers not registered");
	check(!sen_work_pending(), "the first build left work queued");
	sen_snap_take(&first);
	sen_check_state(&first, faults);
	if (first.available) {
		const char *eol = strchr(first.model, '\n');
		const char *src = eol ? strstr(eol, "source ") : NULL;

		snprintf(sen_harness_outcome, sizeof(sen_harness_outcome),
			 "available: %.*s, %.*s", eol ? (int)(eol - first.model) : 0,
			 first.model, src ? (int)strcspn(src, "\n") : 0, src ? src : "");
	} else {
		snprintf(sen_harness_outcome, sizeof(sen_harness_outcome), "%s",
			 first.why);
	}
	if (!faults && !first.available) {
		char line[SEN_REASON_LEN + 32];

		snprintf(line, sizeof(line), "sched-energy: %s\n", first.why);
		check(sen_log_count(LOGLEVEL_ERR, line, mark) == 1,
		      "the refusal \"%s\" is not logged once", first.why);
		check(sen_log_count(LOGLEVEL_ERR, "sched-energy:", mark) == 1,
		      "the refusal is logged with other errors");
		check(sen_log_count(LOGLEVEL_WARNING, "sched-energy: policy unavailable",
				    mark) == 1, "\"policy unavailable\" not logged once");
	}

	/* A policy event and a CPU going offline: one rebuild. */
	mark = sen_log_len();
	sen_cpufreq_notify(CPUFREQ_CREATE_POLICY, sen_platform_policy(0));
	check(sen_work_pending() == 1, "a policy event queued %u rebuilds",
	      sen_work_pending());
	sen_cpuhp_run(last, false);
	check(sen_work_pending() == 1, "rebuilds not coalesced: %u queued",
	      sen_work_pending());
	sen_run_work();
	sen_snap_take(&again);
	sen_check_state(&again, faults);
	if (!faults) {
		check(again.available == first.available && !strcmp(again.why, first.why),
		      "the rebuild of an unchanged platform changed the outcome: \"%s\" -> \"%s\"",
		      first.available ? "available" : first.why,
		      again.available ? "available" : again.why);
		check(!strcmp(again.model, first.model) &&
		      !strcmp(again.idlestat, first.idlestat) &&
		      !strcmp(again.status, first.status),
		      "the rebuild of an unchanged platform changed debugfs");
		check(!sen_log_count(-1, "sched-energy:", mark),
		      "the rebuild of an unchanged platform logged");
	}
	sen_snap_free(&first);
	sen_snap_free(&again);

	/* A policy removal and a CPU coming back: the same, run directly. */
	sen_cpufreq_notify(CPUFREQ_REMOVE_POLICY, NULL);
	sen_cpuhp_run(last, true);
	check(sen_work_pending() == 1, "rebuilds not coalesced: %u queued",
	      sen_work_pending());
	sen_run_work();

	if (allocs)
		*allocs = sen_alloc_count;
	sen_fail_alloc_at = 0;
	sen_test_model_reset();
	synchronize_rcu();
	check(!sen_locks_held && !sen_cpus_read_locked && !sen_rcu_nesting,
	      "locks left held: %d mutexes, %d cpus_read_lock, %d rcu_read_lock",
	      sen_locks_held, sen_cpus_read_locked, sen_rcu_nesting);
	sen_platform_check_refs("after the builds");
	sen_platform_shutdown();
	return 1;
}
