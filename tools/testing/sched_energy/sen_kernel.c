// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/sched/energy_model.c, compiled unchanged, and the harness's way
 * into its static parts.
 */
#include "../../../kernel/sched/energy_model.c"

#include "sen_test.h"

static char sen_boot_reason[SEN_REASON_LEN];

/* The reason a freshly booted kernel gives, before any build. */
static void __attribute__((constructor)) sen_save_boot_reason(void)
{
	strscpy(sen_boot_reason, sen_reason, sizeof(sen_boot_reason));
}

/* Back to the state of a fresh boot: no model, the initial reason. */
void sen_test_model_reset(void)
{
	struct sen_model *old;

	mutex_lock(&sen_model_mutex);
	old = rcu_replace_pointer(sen_model_ptr, NULL,
				  lockdep_is_held(&sen_model_mutex));
	strscpy(sen_reason, sen_boot_reason, sizeof(sen_reason));
	mutex_unlock(&sen_model_mutex);
	if (old)
		kfree_rcu(old, rcu);
	sen_debugfs = NULL;
}

/* fs_initcall */
int sen_test_debugfs_init(void)
{
	return sen_model_debugfs_init();
}
