/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: per-CPU variables, declared only (none is used here). */
#ifndef _SEN_SHIM_PERCPU_DEFS_H
#define _SEN_SHIM_PERCPU_DEFS_H

#define DECLARE_PER_CPU(type, name)	extern __typeof__(type) name

#endif /* _SEN_SHIM_PERCPU_DEFS_H */
