/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: time constants. */
#ifndef _SEN_SHIM_TIME64_H
#define _SEN_SHIM_TIME64_H

#define MSEC_PER_SEC	1000L
#define USEC_PER_MSEC	1000L
#define NSEC_PER_USEC	1000L
#define NSEC_PER_MSEC	1000000L
#define NSEC_PER_SEC	1000000000L

#endif /* _SEN_SHIM_TIME64_H */
