/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: RCU as plain pointer operations on one thread, with
 * lockdep's checks kept: rcu_dereference_check() and _protected() abort
 * when their condition is false outside a read-side section.  kfree_rcu()
 * defers the free to the next synchronize_rcu()/rcu_barrier(), which the
 * harness calls where a grace period would have ended.
 */
#ifndef _SEN_SHIM_RCUPDATE_H
#define _SEN_SHIM_RCUPDATE_H

#include <linux/kernel.h>

struct rcu_head {
	struct rcu_head *next;
	void *ptr;		/* what kfree_rcu() frees (fake only) */
};

extern int sen_rcu_nesting;

static inline void rcu_read_lock(void)
{
	sen_rcu_nesting++;
}

static inline void rcu_read_unlock(void)
{
	if (--sen_rcu_nesting < 0)
		sen_bug("%s() without rcu_read_lock()", __func__);
}

#define rcu_read_lock_held()		(sen_rcu_nesting > 0)
#define rcu_read_lock_any_held()	(sen_rcu_nesting > 0)

#define rcu_assign_pointer(p, v)	WRITE_ONCE((p), (v))
#define RCU_INIT_POINTER(p, v)		WRITE_ONCE((p), (v))
#define rcu_access_pointer(p)		READ_ONCE(p)

#define rcu_dereference_check(p, c)					\
	({								\
		if (!(c) && !rcu_read_lock_held())			\
			sen_bug("suspicious rcu_dereference_check() usage at %s:%d", \
				__FILE__, __LINE__);			\
		READ_ONCE(p);						\
	})
#define rcu_dereference(p)		rcu_dereference_check((p), 0)
#define rcu_dereference_protected(p, c)					\
	({								\
		if (!(c))						\
			sen_bug("suspicious rcu_dereference_protected() usage at %s:%d", \
				__FILE__, __LINE__);			\
		(p);							\
	})
#define rcu_replace_pointer(rcu_ptr, ptr, c)				\
	({								\
		typeof(rcu_ptr) *__rp = &(rcu_ptr);			\
		typeof(ptr) __tmp = rcu_dereference_protected(*__rp, (c)); \
									\
		rcu_assign_pointer(*__rp, (ptr));			\
		__tmp;							\
	})

void sen_kfree_rcu(struct rcu_head *head, void *ptr);
#define kfree_rcu(ptr, rhf)						\
	do {								\
		typeof(ptr) __p = (ptr);				\
									\
		sen_kfree_rcu((struct rcu_head *)((char *)__p +		\
			      offsetof(typeof(*__p), rhf)), __p);	\
	} while (0)

void synchronize_rcu(void);
void rcu_barrier(void);

#endif /* _SEN_SHIM_RCUPDATE_H */
