/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: static keys as plain booleans. */
#ifndef _SEN_SHIM_JUMP_LABEL_H
#define _SEN_SHIM_JUMP_LABEL_H

#include <linux/kernel.h>

struct static_key_false {
	bool enabled;
};

#define DEFINE_STATIC_KEY_FALSE(name)	struct static_key_false name = { false }
#define DECLARE_STATIC_KEY_FALSE(name)	extern struct static_key_false name
#define static_branch_unlikely(k)	unlikely((k)->enabled)
#define static_branch_enable(k)		((k)->enabled = true)
#define static_branch_disable(k)	((k)->enabled = false)

#endif /* _SEN_SHIM_JUMP_LABEL_H */
