/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: HZ=1000; delayed work runs when the harness says. */
#ifndef _SEN_SHIM_JIFFIES_H
#define _SEN_SHIM_JIFFIES_H

#define HZ	1000

static inline unsigned long msecs_to_jiffies(unsigned int m)
{
	return m;
}

#endif /* _SEN_SHIM_JIFFIES_H */
