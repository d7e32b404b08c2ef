/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: kernel integer types.  It shadows the UAPI header of the
 * same name, so it also gives what libc headers expect from it (__u32...).
 */
#ifndef _SEN_SHIM_TYPES_H
#define _SEN_SHIM_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <asm/types.h>

#include <linux/compiler_types.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef uint32_t __be32;
typedef uint64_t __be64;
typedef u32 phandle;
typedef unsigned int __bitwise gfp_t;

#endif /* _SEN_SHIM_TYPES_H */
