/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: hotplug state registration is recorded; the harness
 * calls the callbacks to stand for a CPU going on- or offline.
 */
#ifndef _SEN_SHIM_CPUHOTPLUG_H
#define _SEN_SHIM_CPUHOTPLUG_H

#include <linux/kernel.h>

enum cpuhp_state {
	CPUHP_INVALID = -1,
	CPUHP_OFFLINE = 0,
	CPUHP_AP_ONLINE_DYN = 100,
	CPUHP_AP_ONLINE_DYN_END = 130,
	CPUHP_ONLINE,
};

int cpuhp_setup_state_nocalls(enum cpuhp_state state, const char *name,
			      int (*startup)(unsigned int cpu),
			      int (*teardown)(unsigned int cpu));

#endif /* _SEN_SHIM_CPUHOTPLUG_H */
