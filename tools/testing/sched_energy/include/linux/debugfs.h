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

/*
 * A u64 attribute (sen_debugfs_knob()): a file the harness lists but does
 * not read; its get and set are kept referenced so that they build.
 */
#define DEFINE_DEBUGFS_ATTRIBUTE(__fops, __get, __set, __fmt)		\
static int (*const __fops ## _get)(void *, u64 *) __maybe_unused = __get; \
static int (*const __fops ## _set)(void *, u64) __maybe_unused = __set; \
static const struct file_operations __fops = { .name = #__fops }

#define debugfs_create_file_unsafe	debugfs_create_file

#endif /* _SEN_SHIM_DEBUGFS_H */
