/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interfaces between the harness, the fakes and the wrappers of the code
 * under test.
 */
#ifndef _SEN_TEST_H
#define _SEN_TEST_H

#include <linux/kernel.h>

struct cpufreq_policy;
struct dentry;
struct device_node;

/* fake_kernel.c */
extern bool sen_verbose;
extern int sen_locks_held;
extern int sen_cpus_read_locked;
extern int sen_rcu_nesting;
extern unsigned long sen_alloc_count;	/* kmalloc calls since the reset */
extern unsigned long sen_fail_alloc_at;	/* that call fails (1-based); 0: none */

void sen_kernel_reset(void);
const char *sen_log(void);
size_t sen_log_len(void);
unsigned int sen_log_count(int level, const char *prefix, size_t from);
struct dentry *sen_debugfs_lookup(const char *path);
char *sen_debugfs_read(const char *path);
unsigned int sen_work_pending(void);
void sen_run_work(void);
unsigned int sen_cpufreq_notifiers(void);
void sen_cpufreq_notify(unsigned long event, struct cpufreq_policy *policy);
unsigned int sen_cpuhp_states(void);
void sen_cpuhp_run(unsigned int cpu, bool up);

/* fake_of.c */
int sen_fdt_check(const void *blob, size_t size);
int sen_of_load(const void *blob, size_t size);
void sen_of_unload(void);
void sen_of_save_refs(void);
void sen_of_check_refs(const char *when);

/* fake_platform.c */
int sen_platform_boot(const void *blob, size_t size);
void sen_platform_shutdown(void);
struct cpufreq_policy *sen_platform_policy(unsigned int cpu);
extern struct device_node *sen_topology_cluster[];
void sen_platform_check_refs(const char *when);

/* sen_kernel.c, sen_arch.c: the code under test's static entry points */
void sen_test_model_reset(void);
int sen_test_debugfs_init(void);
int sen_test_arch_init(void);
void sen_test_rebuild(void);

/* harness.c */
/*
 * Boot the fake platform from @data (a flattened device tree), build the
 * model through the real builder and check every invariant; abort() on a
 * violation.  With @fail_alloc_at, that allocation of the code under test
 * fails (see slab.h).
 *
 * Return: 0 if @data is not a device tree the fakes accept, 1 if it ran;
 * *@allocs (if not NULL) gets the number of allocations the code under
 * test made.
 */
struct sen_known_bug {
	const char *id;
	const char *what;
	unsigned long seen;
};

extern struct sen_known_bug sen_known_bugs[];	/* NULL id ends it */
extern char sen_harness_outcome[];	/* the first build's, for -v */
int sen_harness_run(const void *data, size_t size, unsigned long fail_alloc_at,
		    unsigned long *allocs);

/* fuzz.c */
u32 sen_rand(u32 *state);

/* inputs.c */
typedef void (*sen_input_fn)(const char *file);
void sen_walk_inputs(const char *path, sen_input_fn fn);

#endif /* _SEN_TEST_H */
