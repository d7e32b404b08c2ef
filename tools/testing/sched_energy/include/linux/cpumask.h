/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: cpumasks over NR_CPUS bits, with nr_cpu_ids set per
 * input by the fake platform.  As in 6.1, operations span nr_cpu_ids bits
 * (nr_cpumask_bits).  cpumask_var_t is allocated as with
 * CONFIG_CPUMASK_OFFSTACK=y, cpumask_size() bytes on the heap, so that the
 * sanitizers see a leaked or overrun mask; it is a pointer type made with
 * __typeof__, so that "cpumask_var_t a, b;" declares two pointers.
 */
#ifndef _SEN_SHIM_CPUMASK_H
#define _SEN_SHIM_CPUMASK_H

#include <linux/kernel.h>

struct cpumask {
	unsigned long bits[BITS_TO_LONGS(NR_CPUS)];
};

#define cpumask_var_t		__typeof__(struct cpumask *)

extern unsigned int nr_cpu_ids;
extern struct cpumask __cpu_possible_mask;
extern struct cpumask __cpu_online_mask;
#define cpu_possible_mask	((const struct cpumask *)&__cpu_possible_mask)
#define cpu_online_mask		((const struct cpumask *)&__cpu_online_mask)

#define nr_cpumask_bits		nr_cpu_ids
#define cpumask_bits(maskp)	((maskp)->bits)
#define to_cpumask(bitmap)	((struct cpumask *)(bitmap))
/* The two arguments of %*pbl: as one macro expansion, a list. */
#define __sen_arg_list(...)	__VA_ARGS__
#define cpumask_pr_args(maskp)	__sen_arg_list(nr_cpu_ids, cpumask_bits(maskp))

static inline unsigned int cpumask_size(void)
{
	return BITS_TO_LONGS(nr_cpumask_bits) * sizeof(long);
}

static inline unsigned int __sen_bitword(unsigned int cpu)
{
	return cpu / BITS_PER_LONG;
}

static inline unsigned long __sen_bitmask(unsigned int cpu)
{
	return 1UL << (cpu % BITS_PER_LONG);
}

static inline unsigned int __sen_cpu_check(unsigned int cpu)
{
	if (cpu >= nr_cpumask_bits)
		sen_bug("cpumask: cpu %u out of range (nr_cpu_ids %u)", cpu,
			nr_cpu_ids);
	return cpu;
}

static inline bool cpumask_test_cpu(int cpu, const struct cpumask *m)
{
	unsigned int c = __sen_cpu_check(cpu);

	return m->bits[__sen_bitword(c)] & __sen_bitmask(c);
}

static inline void cpumask_set_cpu(unsigned int cpu, struct cpumask *m)
{
	cpu = __sen_cpu_check(cpu);
	m->bits[__sen_bitword(cpu)] |= __sen_bitmask(cpu);
}

static inline void cpumask_clear_cpu(int cpu, struct cpumask *m)
{
	unsigned int c = __sen_cpu_check(cpu);

	m->bits[__sen_bitword(c)] &= ~__sen_bitmask(c);
}

/* The first set bit at or after @start, or nr_cpumask_bits. */
static inline unsigned int __sen_find_next(const struct cpumask *m,
					   unsigned int start)
{
	unsigned int cpu;

	for (cpu = start; cpu < nr_cpumask_bits; cpu++)
		if (m->bits[__sen_bitword(cpu)] & __sen_bitmask(cpu))
			return cpu;
	return nr_cpumask_bits;
}

static inline unsigned int cpumask_first(const struct cpumask *m)
{
	return __sen_find_next(m, 0);
}

static inline unsigned int cpumask_next(int n, const struct cpumask *m)
{
	return __sen_find_next(m, n + 1);
}

/*
 * for_each_cpu()'s cursor: as the kernel's loop, each step looks for the
 * next set bit after the previous CPU in the mask as it is then.
 */
struct sen_cpu_iter {
	const struct cpumask *cpus;
	unsigned int next;
};

static inline unsigned int sen_cpu_iter_next(struct sen_cpu_iter *it)
{
	unsigned int cpu = __sen_find_next(it->cpus, it->next);

	it->next = cpu + 1;
	return cpu;
}

#define for_each_cpu(cpu, mask)						\
	for (struct sen_cpu_iter __sen_it = { .cpus = (mask) };		\
	     ((cpu) = sen_cpu_iter_next(&__sen_it)) < nr_cpumask_bits;)
#define for_each_possible_cpu(cpu)	for_each_cpu((cpu), cpu_possible_mask)
#define for_each_online_cpu(cpu)	for_each_cpu((cpu), cpu_online_mask)
#define cpu_possible(cpu)	cpumask_test_cpu((cpu), cpu_possible_mask)
#define cpu_online(cpu)		cpumask_test_cpu((cpu), cpu_online_mask)

static inline unsigned int cpumask_weight(const struct cpumask *m)
{
	unsigned int cpu, n = 0;

	for_each_cpu(cpu, m)
		n++;
	return n;
}

#define num_possible_cpus()	cpumask_weight(cpu_possible_mask)
#define num_online_cpus()	cpumask_weight(cpu_online_mask)

static inline bool cpumask_empty(const struct cpumask *m)
{
	return cpumask_first(m) >= nr_cpumask_bits;
}

static inline void cpumask_clear(struct cpumask *m)
{
	memset(m->bits, 0, cpumask_size());
}

static inline void cpumask_copy(struct cpumask *dst, const struct cpumask *src)
{
	memcpy(dst->bits, src->bits, cpumask_size());
}

static inline bool cpumask_equal(const struct cpumask *a, const struct cpumask *b)
{
	unsigned int cpu;

	for (cpu = 0; cpu < nr_cpumask_bits; cpu++)
		if (cpumask_test_cpu(cpu, a) != cpumask_test_cpu(cpu, b))
			return false;
	return true;
}

static inline bool cpumask_and(struct cpumask *dst, const struct cpumask *a,
			       const struct cpumask *b)
{
	unsigned int i;
	unsigned long any = 0;

	for (i = 0; i < BITS_TO_LONGS(nr_cpumask_bits); i++)
		any |= dst->bits[i] = a->bits[i] & b->bits[i];
	return any;
}

static inline void cpumask_or(struct cpumask *dst, const struct cpumask *a,
			      const struct cpumask *b)
{
	unsigned int i;

	for (i = 0; i < BITS_TO_LONGS(nr_cpumask_bits); i++)
		dst->bits[i] = a->bits[i] | b->bits[i];
}

static inline bool cpumask_andnot(struct cpumask *dst, const struct cpumask *a,
				  const struct cpumask *b)
{
	unsigned int i;
	unsigned long any = 0;

	for (i = 0; i < BITS_TO_LONGS(nr_cpumask_bits); i++)
		any |= dst->bits[i] = a->bits[i] & ~b->bits[i];
	return any;
}

static inline bool cpumask_subset(const struct cpumask *a, const struct cpumask *b)
{
	unsigned int cpu;

	for_each_cpu(cpu, a)
		if (!cpumask_test_cpu(cpu, b))
			return false;
	return true;
}

static inline bool cpumask_intersects(const struct cpumask *a,
				      const struct cpumask *b)
{
	unsigned int cpu;

	for_each_cpu(cpu, a)
		if (cpumask_test_cpu(cpu, b))
			return true;
	return false;
}

/* kmalloc of cpumask_size() bytes; see slab.h for fault injection. */
bool zalloc_cpumask_var(cpumask_var_t *mask, gfp_t flags);
bool alloc_cpumask_var(cpumask_var_t *mask, gfp_t flags);
void free_cpumask_var(cpumask_var_t mask);

#endif /* _SEN_SHIM_CPUMASK_H */
