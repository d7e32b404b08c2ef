/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: the base of every shim header.  Types, compiler
 * attributes, printk into the harness's log, the kernel's printf
 * extensions (%pOF, %*pbl), errno values and small helpers.
 */
#ifndef _SEN_SHIM_KERNEL_H
#define _SEN_SHIM_KERNEL_H

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/compiler_types.h>
#include <linux/types.h>

/*
 * The harness's CPU limit, SEN_NR_CPUS (from the Makefile's NR_CPUS knob);
 * the shims size their per-CPU arrays and cpumasks with it as NR_CPUS.
 */
#ifndef SEN_NR_CPUS
#define SEN_NR_CPUS		64
#endif
#define NR_CPUS			SEN_NR_CPUS

#define __init
#define __initdata
#define __exit

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
/* One untorn access that the compiler neither drops nor merges. */
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define barrier()		__atomic_signal_fence(__ATOMIC_SEQ_CST)

#define MODULE_LICENSE(s)
#define MODULE_DESCRIPTION(s)

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member)					\
	((type *)((char *)(ptr) - offsetof(type, member)))

#define U8_MAX			((u8)~0U)
#define U16_MAX			((u16)~0U)
#define S16_MAX			((s16)(U16_MAX >> 1))
#define U32_MAX			((u32)~0U)
#define S32_MAX			((s32)(U32_MAX >> 1))
#define U64_MAX			((u64)~0ULL)

#define BITS_PER_LONG		(8 * (int)sizeof(long))
#define BITS_TO_LONGS(nr)	(((nr) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define BIT(nr)			(1UL << (nr))

/* No type check, unlike the kernel's: the compiler's warnings do that. */
#define min(a, b)	({ typeof(a) _a = (a); typeof(b) _b = (b); _a < _b ? _a : _b; })
#define max(a, b)	({ typeof(a) _a = (a); typeof(b) _b = (b); _a > _b ? _a : _b; })
#define min_t(type, a, b)	min((type)(a), (type)(b))
#define max_t(type, a, b)	max((type)(a), (type)(b))

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

/* linux/err.h */
#define MAX_ERRNO	4095
#define IS_ERR_VALUE(x)	unlikely((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)

static inline void *ERR_PTR(long error)
{
	return (void *)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
	return IS_ERR_VALUE((unsigned long)ptr);
}

static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR(ptr);
}

/* linux/overflow.h: saturate at SIZE_MAX so that an allocation fails. */
static inline size_t size_add(size_t a, size_t b)
{
	size_t r;

	return __builtin_add_overflow(a, b, &r) ? SIZE_MAX : r;
}

static inline size_t size_mul(size_t a, size_t b)
{
	size_t r;

	return __builtin_mul_overflow(a, b, &r) ? SIZE_MAX : r;
}

#define array_size(n, size)	size_mul(n, size)

/*
 * The kernel's vsprintf: libc's conversions plus %pOF (a device-tree
 * node's full path) and %*pb / %*pbl (a bitmap as hex / as a range list);
 * any other %p prints "(ptrval)".  Every snprintf of the code under test
 * goes through it.
 */
int sen_vsnprintf(char *buf, size_t size, const char *fmt, va_list args);
__printf(3, 4) int sen_snprintf(char *buf, size_t size, const char *fmt, ...);
#define vsnprintf	sen_vsnprintf
#define snprintf	sen_snprintf

/* printk: one log line per call, kept for the harness (sen_log_*()). */
#define LOGLEVEL_ERR		3
#define LOGLEVEL_WARNING	4
#define LOGLEVEL_INFO		6
#define LOGLEVEL_DEBUG		7

__printf(2, 3) void sen_printk(int level, const char *fmt, ...);

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif
#define pr_err(fmt, ...)	sen_printk(LOGLEVEL_ERR, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	sen_printk(LOGLEVEL_WARNING, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	sen_printk(LOGLEVEL_INFO, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...)						\
	do {								\
		if (0)							\
			sen_printk(LOGLEVEL_DEBUG, pr_fmt(fmt), ##__VA_ARGS__); \
	} while (0)

/*
 * A kernel WARN or lockdep splat: the harness treats it as a failure, so
 * it aborts with the message (a sanitizer-visible crash for libFuzzer).
 */
__printf(1, 2) __noreturn void sen_bug(const char *fmt, ...);

#define WARN_ON(cond)							\
	({								\
		bool __c = !!(cond);					\
		if (unlikely(__c))					\
			sen_bug("WARNING at %s:%d: %s", __FILE__, __LINE__, #cond); \
		__c;							\
	})
#define WARN_ON_ONCE(cond)	WARN_ON(cond)
#define WARN(cond, fmt, ...)						\
	({								\
		bool __c = !!(cond);					\
		if (unlikely(__c))					\
			sen_bug("WARNING at %s:%d: " fmt, __FILE__, __LINE__, \
				##__VA_ARGS__);				\
		__c;							\
	})

#define might_sleep()		do { } while (0)

#endif /* _SEN_SHIM_KERNEL_H */
