// SPDX-License-Identifier: GPL-2.0
/*
 * Emulated DVFS for virtual machines and emulators
 *
 * QEMU and other emulators give a guest no frequency scaling, so neither
 * schedutil nor an energy model can exist there and energy-aware
 * scheduling cannot be exercised.  This driver makes the operating points
 * that the device tree describes (operating-points-v2 tables with
 * opp-hz, opp-microvolt and opp-microwatt or a CPU dynamic-power-coefficient)
 * selectable: one cpufreq policy per OPP table, a fast_switch and a
 * trivial target_index that only record the request, and an energy model
 * registered from the same numbers.  A requested frequency changes nothing
 * about how fast the guest runs; it is what the policy asked for, visible
 * in sysfs, in the cpu_frequency trace event and in the energy model.
 *
 * Speed-equalised frequency invariance (invariance=equalised, the
 * default).  An emulated CPU runs at the host's speed whatever capacity
 * the device tree gives it and whatever frequency is requested.  The
 * scheduler's invariance turns observed running time into work done at
 * full capacity; here observed running time already is that.  So this
 * driver installs a frequency-scale source that keeps
 *
 *	arch_scale_cpu_capacity(cpu) * arch_freq_scale(cpu) = 1024 * 1024
 *
 * i.e. arch_freq_scale = 1024 * 1024 / capacity, refreshed from the tick.
 * A task's utilization is then the same on every CPU and at every
 * frequency, as it would be on real hardware for the same work, and the
 * DVFS feedback loop does not collapse to the lowest OPP (with plain
 * cur/max scaling, a task's utilization would drop with the frequency,
 * the governor would lower the frequency further, and so on).  The
 * users of arch_scale_freq_capacity() all multiply it with the CPU
 * capacity (PELT's clock and IRQ utilization, deadline GRUB), so values
 * above 1024 only undo the capacity scaling, and no product exceeds what
 * a big CPU at its top OPP would give.  invariance=frequency selects the
 * usual cur/max scaling instead, to study that collapse.
 *
 * Bad data (no OPPs, frequencies not increasing, missing or zero power, a
 * CPU without a table) is reported once, naming the CPU and the property,
 * and the driver does not register: the system runs on without DVFS.
 */

#define pr_fmt(fmt) "emu-cpufreq: " fmt

#include <linux/arch_topology.h>
#include <linux/cpu.h>
#include <linux/cpufreq.h>
#include <linux/cpumask.h>
#include <linux/energy_model.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/slab.h>
#include <linux/string.h>

#define EMU_MAX_OPPS		32
/* Default rate limit for governors (schedutil's rate_limit_us). */
#define EMU_TRANSITION_DELAY_US	1000
#define EMU_DEFAULT_LATENCY_NS	100000

static bool fast_switch = true;
module_param(fast_switch, bool, 0444);
MODULE_PARM_DESC(fast_switch,
		 "offer fast_switch to governors (0: they must use ->target_index from a kthread)");

static char *invariance = "equalised";
module_param(invariance, charp, 0444);
MODULE_PARM_DESC(invariance,
		 "frequency invariance: equalised (capacity x freq_scale = 1024^2) or frequency (cur/max)");

struct emu_opp {
	unsigned int khz;
	unsigned int uv;
	unsigned long uw;
};

/**
 * struct emu_domain - one frequency domain (one OPP table, one policy)
 * @table:	the operating-points-v2 table node
 * @cpus:	CPUs that use @table
 * @nr:		number of OPPs
 * @opp:	OPPs in increasing frequency
 * @freq_table:	the same as a cpufreq table, CPUFREQ_TABLE_END terminated
 * @cur:	last requested frequency in kHz
 * @latency_ns:	largest clock-latency-ns of the OPPs
 * @coeff:	dynamic-power-coefficient of the CPUs (0 if absent)
 */
struct emu_domain {
	struct device_node *table;
	struct cpumask cpus;
	unsigned int nr;
	struct emu_opp opp[EMU_MAX_OPPS];
	struct cpufreq_frequency_table freq_table[EMU_MAX_OPPS + 1];
	unsigned int cur;
	unsigned int latency_ns;
	u32 coeff;
};

static struct emu_domain *emu_domains;
static unsigned int emu_nr_domains;
static DEFINE_PER_CPU(struct emu_domain *, emu_cpu_domain);
static bool emu_equalised;

/*
 * Tick-time frequency-scale source for speed-equalised invariance: see the
 * comment at the top.  Runs on the local CPU with interrupts off.
 */
static void emu_set_freq_scale(void)
{
	unsigned long cap = topology_get_cpu_scale(smp_processor_id());

	if (!cap)
		cap = SCHED_CAPACITY_SCALE;
	this_cpu_write(arch_freq_scale,
		       (SCHED_CAPACITY_SCALE << SCHED_CAPACITY_SHIFT) / cap);
}

static struct scale_freq_data emu_sfd = {
	.source = SCALE_FREQ_SOURCE_CPUFREQ,
	.set_freq_scale = emu_set_freq_scale,
};

static unsigned int emu_cpufreq_get(unsigned int cpu)
{
	struct emu_domain *d = per_cpu(emu_cpu_domain, cpu);

	return d ? READ_ONCE(d->cur) : 0;
}

static int emu_cpufreq_target_index(struct cpufreq_policy *policy,
				    unsigned int index)
{
	struct emu_domain *d = per_cpu(emu_cpu_domain, policy->cpu);

	WRITE_ONCE(d->cur, policy->freq_table[index].frequency);
	return 0;
}

/* Called under the runqueue lock with interrupts off: no sleeping. */
static unsigned int emu_cpufreq_fast_switch(struct cpufreq_policy *policy,
					    unsigned int target_freq)
{
	struct emu_domain *d = per_cpu(emu_cpu_domain, policy->cpu);
	int index;

	/* The lowest OPP at or above the request, as CPUFREQ_RELATION_L. */
	index = cpufreq_table_find_index_l(policy, target_freq, false);
	if (index < 0)
		return 0;
	WRITE_ONCE(d->cur, policy->freq_table[index].frequency);
	return d->cur;
}

static int emu_cpufreq_init(struct cpufreq_policy *policy)
{
	struct emu_domain *d = per_cpu(emu_cpu_domain, policy->cpu);

	if (!d)
		return -ENODEV;
	cpumask_copy(policy->cpus, &d->cpus);
	policy->freq_table = d->freq_table;
	policy->cpuinfo.transition_latency = d->latency_ns;
	policy->transition_delay_us = EMU_TRANSITION_DELAY_US;
	policy->fast_switch_possible = fast_switch;
	policy->dvfs_possible_from_any_cpu = true;
	policy->cur = d->cur;
	/*
	 * The cpufreq core enabled frequency invariance when this driver
	 * registered, so replacing its source does not rebuild the sched
	 * domains from here.
	 */
	if (emu_equalised)
		topology_set_scale_freq_source(&emu_sfd, &d->cpus);
	return 0;
}

static int emu_cpufreq_exit(struct cpufreq_policy *policy)
{
	if (emu_equalised)
		topology_clear_scale_freq_source(SCALE_FREQ_SOURCE_CPUFREQ,
						 policy->related_cpus);
	return 0;
}

/* Energy model callback: the OPP at or above *khz, power in microwatts. */
static int emu_active_power(struct device *dev, unsigned long *uw,
			    unsigned long *khz)
{
	struct emu_domain *d = per_cpu(emu_cpu_domain, dev->id);
	unsigned int i;

	if (!d)
		return -EINVAL;
	for (i = 0; i < d->nr; i++) {
		if (d->opp[i].khz >= *khz) {
			*khz = d->opp[i].khz;
			*uw = d->opp[i].uw;
			return 0;
		}
	}
	return -EINVAL;
}

static void emu_cpufreq_register_em(struct cpufreq_policy *policy)
{
	struct emu_domain *d = per_cpu(emu_cpu_domain, policy->cpu);
	struct em_data_callback em_cb = EM_DATA_CB(emu_active_power);
	int ret;

	ret = em_dev_register_perf_domain(get_cpu_device(policy->cpu), d->nr,
					  &em_cb, policy->related_cpus, true);
	if (ret)
		pr_warn("cpus %*pbl: energy model not registered: %d\n",
			cpumask_pr_args(policy->related_cpus), ret);
}

static struct cpufreq_driver emu_cpufreq_driver = {
	.name		= "emu-cpufreq",
	.flags		= CPUFREQ_NEED_INITIAL_FREQ_CHECK,
	.verify		= cpufreq_generic_frequency_table_verify,
	.target_index	= emu_cpufreq_target_index,
	.fast_switch	= emu_cpufreq_fast_switch,
	.get		= emu_cpufreq_get,
	.init		= emu_cpufreq_init,
	.exit		= emu_cpufreq_exit,
	.register_em	= emu_cpufreq_register_em,
	.attr		= cpufreq_generic_attr,
};

/*
 * Parse one OPP table into @d.  @cpu and @cpu_np name the first CPU that
 * uses it, for the messages.  Returns 0 or -EINVAL after one pr_err().
 */
static int __init emu_parse_table(struct emu_domain *d, int cpu,
				  struct device_node *cpu_np)
{
	struct device_node *opp_np;
	bool any_uw = false, all_uw = true;
	unsigned int i;

	for_each_available_child_of_node(d->table, opp_np) {
		struct emu_opp *o = &d->opp[d->nr];
		u64 hz;
		u32 v;

		if (d->nr == EMU_MAX_OPPS) {
			pr_err("cpu%d: %pOF: more than %d OPPs\n", cpu, d->table,
			       EMU_MAX_OPPS);
			of_node_put(opp_np);
			return -EINVAL;
		}
		if (of_property_read_u64(opp_np, "opp-hz", &hz) || !hz ||
		    hz / 1000 > UINT_MAX) {
			pr_err("cpu%d: %pOF: missing or invalid opp-hz\n", cpu, opp_np);
			of_node_put(opp_np);
			return -EINVAL;
		}
		o->khz = div_u64(hz, 1000);
		if (d->nr && o->khz <= d->opp[d->nr - 1].khz) {
			pr_err("cpu%d: %pOF: opp-hz %llu not above the previous OPP's %u kHz (OPPs must be in increasing frequency)\n",
			       cpu, opp_np, hz, d->opp[d->nr - 1].khz);
			of_node_put(opp_np);
			return -EINVAL;
		}
		o->uv = 0;
		of_property_read_u32(opp_np, "opp-microvolt", &o->uv);
		if (!of_property_read_u32(opp_np, "opp-microwatt", &v)) {
			if (!v) {
				pr_err("cpu%d: %pOF: opp-microwatt is 0\n", cpu, opp_np);
				of_node_put(opp_np);
				return -EINVAL;
			}
			o->uw = v;
			any_uw = true;
		} else {
			all_uw = false;
		}
		v = 0;
		of_property_read_u32(opp_np, "clock-latency-ns", &v);
		d->latency_ns = max(d->latency_ns, v);
		d->nr++;
	}

	if (!d->nr) {
		pr_err("cpu%d: %pOF: no OPPs\n", cpu, d->table);
		return -EINVAL;
	}
	if (any_uw && !all_uw) {
		pr_err("cpu%d: %pOF: opp-microwatt on some OPPs only\n", cpu, d->table);
		return -EINVAL;
	}
	if (!any_uw) {
		/* P[uW] = C[uW/MHz/V^2] * V[mV]^2 * f[MHz] / 10^6, as drivers/opp */
		if (!d->coeff) {
			pr_err("cpu%d: %pOF: no power data: neither opp-microwatt nor a non-zero dynamic-power-coefficient\n",
			       cpu, cpu_np);
			return -EINVAL;
		}
		for (i = 0; i < d->nr; i++) {
			struct emu_opp *o = &d->opp[i];
			u64 mv = o->uv / 1000;

			if (!mv) {
				pr_err("cpu%d: %pOF: OPP %u kHz has no opp-microvolt (needed with dynamic-power-coefficient)\n",
				       cpu, d->table, o->khz);
				return -EINVAL;
			}
			o->uw = div_u64((u64)d->coeff * mv * mv * (o->khz / 1000), 1000000);
			if (!o->uw) {
				pr_err("cpu%d: %pOF: OPP %u kHz has zero power\n",
				       cpu, d->table, o->khz);
				return -EINVAL;
			}
		}
	}

	for (i = 0; i < d->nr; i++) {
		d->freq_table[i].driver_data = i;
		d->freq_table[i].frequency = d->opp[i].khz;
	}
	d->freq_table[d->nr].frequency = CPUFREQ_TABLE_END;
	if (!d->latency_ns)
		d->latency_ns = EMU_DEFAULT_LATENCY_NS;
	/* Boot at the top OPP, as firmware usually leaves it. */
	d->cur = d->opp[d->nr - 1].khz;
	return 0;
}

/*
 * Build the domains from the device tree.  Returns 0, -ENODEV when no CPU
 * has an OPP table (not an emulated DVFS platform), or -EINVAL after one
 * message naming the CPU and the property.
 */
static int __init emu_parse_dt(void)
{
	struct device_node **tables;
	int cpu, with = 0, without = -1, ret = 0;
	unsigned int i;

	tables = kcalloc(nr_cpu_ids, sizeof(*tables), GFP_KERNEL);
	if (!tables)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct device_node *np = of_get_cpu_node(cpu, NULL);

		if (np)
			tables[cpu] = of_parse_phandle(np, "operating-points-v2", 0);
		of_node_put(np);
		if (tables[cpu])
			with++;
		else if (without < 0)
			without = cpu;
	}
	if (!with) {
		ret = -ENODEV;
		goto out;
	}
	if (without >= 0) {
		pr_err("cpu%d: no operating-points-v2 (every CPU needs an OPP table, or none)\n",
		       without);
		ret = -EINVAL;
		goto out;
	}

	emu_domains = kcalloc(num_possible_cpus(), sizeof(*emu_domains), GFP_KERNEL);
	if (!emu_domains) {
		ret = -ENOMEM;
		goto out;
	}
	for_each_possible_cpu(cpu) {
		struct emu_domain *d = NULL;
		struct device_node *cpu_np = of_get_cpu_node(cpu, NULL);
		u32 coeff = 0;

		of_property_read_u32(cpu_np, "dynamic-power-coefficient", &coeff);
		for (i = 0; i < emu_nr_domains; i++)
			if (emu_domains[i].table == tables[cpu])
				d = &emu_domains[i];
		if (d) {
			/* Another CPU of an existing domain. */
			of_node_put(cpu_np);
			if (!of_property_read_bool(d->table, "opp-shared")) {
				pr_err("cpu%d: %pOF: shared by cpu%d but not marked opp-shared\n",
				       cpu, d->table, cpumask_first(&d->cpus));
				ret = -EINVAL;
				goto out;
			}
			if (coeff != d->coeff) {
				pr_err("cpu%d: dynamic-power-coefficient %u differs from cpu%d's %u in the same OPP table\n",
				       cpu, coeff, cpumask_first(&d->cpus), d->coeff);
				ret = -EINVAL;
				goto out;
			}
			cpumask_set_cpu(cpu, &d->cpus);
			per_cpu(emu_cpu_domain, cpu) = d;
			continue;
		}
		d = &emu_domains[emu_nr_domains++];
		d->table = of_node_get(tables[cpu]);
		d->coeff = coeff;
		cpumask_set_cpu(cpu, &d->cpus);
		per_cpu(emu_cpu_domain, cpu) = d;
		ret = emu_parse_table(d, cpu, cpu_np);
		of_node_put(cpu_np);
		if (ret)
			goto out;
	}
out:
	for_each_possible_cpu(cpu)
		of_node_put(tables[cpu]);
	kfree(tables);
	return ret;
}

static void __init emu_free_domains(void)
{
	unsigned int i;
	int cpu;

	for_each_possible_cpu(cpu)
		per_cpu(emu_cpu_domain, cpu) = NULL;
	for (i = 0; i < emu_nr_domains; i++)
		of_node_put(emu_domains[i].table);
	kfree(emu_domains);
	emu_domains = NULL;
	emu_nr_domains = 0;
}

static int __init emu_cpufreq_driver_init(void)
{
	unsigned int i;
	int ret;

	if (!strcmp(invariance, "equalised")) {
		emu_equalised = true;
	} else if (strcmp(invariance, "frequency")) {
		pr_err("invariance=%s: expected 'equalised' or 'frequency'; DVFS disabled\n",
		       invariance);
		return -EINVAL;
	}

	ret = emu_parse_dt();
	if (ret == -ENODEV)
		return ret;
	if (ret) {
		pr_err("invalid OPP data in the device tree; DVFS disabled\n");
		emu_free_domains();
		return ret;
	}

	ret = cpufreq_register_driver(&emu_cpufreq_driver);
	if (ret) {
		pr_err("registering the cpufreq driver failed: %d\n", ret);
		emu_free_domains();
		return ret;
	}
	for (i = 0; i < emu_nr_domains; i++)
		pr_info("cpus %*pbl: %u OPPs %u-%u MHz, %s invariance\n",
			cpumask_pr_args(&emu_domains[i].cpus), emu_domains[i].nr,
			emu_domains[i].opp[0].khz / 1000,
			emu_domains[i].opp[emu_domains[i].nr - 1].khz / 1000,
			emu_equalised ? "speed-equalised" : "frequency");
	return 0;
}
device_initcall(emu_cpufreq_driver_init);

MODULE_DESCRIPTION("Emulated DVFS for virtual machines and emulators");
MODULE_LICENSE("GPL");
