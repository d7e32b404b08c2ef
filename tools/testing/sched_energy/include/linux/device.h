/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: a CPU device is its number, DT node and energy model. */
#ifndef _SEN_SHIM_DEVICE_H
#define _SEN_SHIM_DEVICE_H

#include <linux/kernel.h>

struct device_node;
struct em_perf_domain;

struct device {
	int id;
	struct device_node *of_node;
	struct em_perf_domain *em_pd;
};

#endif /* _SEN_SHIM_DEVICE_H */
