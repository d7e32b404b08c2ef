/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: mutexes on one thread.  Locking is a flag, kept for
 * lockdep's checks: recursive locking, unlocking a free mutex and
 * lockdep_assert_held() on a free mutex abort.
 */
#ifndef _SEN_SHIM_MUTEX_H
#define _SEN_SHIM_MUTEX_H

#include <linux/kernel.h>

struct mutex {
	const char *name;
	bool held;
};

extern int sen_locks_held;

#define DEFINE_MUTEX(m)		struct mutex m = { .name = #m }

static inline void mutex_init(struct mutex *m)
{
	m->held = false;
}

static inline void mutex_lock(struct mutex *m)
{
	if (m->held)
		sen_bug("possible recursive locking detected: %s", m->name);
	m->held = true;
	sen_locks_held++;
}

static inline void mutex_unlock(struct mutex *m)
{
	if (!m->held)
		sen_bug("unlocking %s, which is not locked", m->name);
	m->held = false;
	sen_locks_held--;
}

#define lockdep_is_held(m)	((m)->held)
static inline void sen_lockdep_assert_held(const struct mutex *m,
					   const char *file, int line)
{
	if (!m->held)
		sen_bug("lockdep_assert_held(%s) at %s:%d", m->name, file, line);
}

#define lockdep_assert_held(m)						\
	sen_lockdep_assert_held((m), __FILE__, __LINE__)

#endif /* _SEN_SHIM_MUTEX_H */
