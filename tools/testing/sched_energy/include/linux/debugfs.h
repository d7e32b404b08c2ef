/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: debugfs as a table of files; the harness reads one by
 * path (sen_debugfs_read("sched_energy/model")), which runs its show
 * function into a seq_file.
 */
#ifndef _SEN_SHIM_DEBUGFS_H
#define _SEN_SHIM_DEBUGFS_H

#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/types.h>

typedef u16 umode_t;

struct dentry {
	char name[32];
	struct dentry *parent;
	const struct file_operations *fops;
	void *data;
};

struct dentry *debugfs_create_dir(const char *name, struct dentry *parent);
struct dentry *debugfs_create_file(const char *name, umode_t mode,
				   struct dentry *parent, void *data,
				   const struct file_operations *fops);

#endif /* _SEN_SHIM_DEBUGFS_H */
