// SPDX-License-Identifier: GPL-2.0
/*
 * arch/arm64/kernel/energy_model.c, compiled unchanged, and the harness's
 * way into its static parts.
 */
#include "../../../arch/arm64/kernel/energy_model.c"

#include "sen_test.h"

/* late_initcall_sync: the first build, then notifier and hotplug setup. */
int sen_test_arch_init(void)
{
	return sen_arm64_model_init();
}

void sen_test_rebuild(void)
{
	sen_model_rebuild();
}
