/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: seq_file into a buffer.  As in the kernel, output that
 * does not fit marks the file overflowed (count == size); the reader
 * (sen_debugfs_read()) then retries with a larger buffer, as seq_read()
 * does.
 */
#ifndef _SEN_SHIM_SEQ_FILE_H
#define _SEN_SHIM_SEQ_FILE_H

#include <linux/kernel.h>

struct seq_file {
	char *buf;
	size_t size;
	size_t count;
	void *private;
};

__printf(2, 3) void seq_printf(struct seq_file *m, const char *fmt, ...);
void seq_puts(struct seq_file *m, const char *s);
void seq_putc(struct seq_file *m, char c);

struct inode;
struct file;

/* Only what debugfs needs to call a show function back. */
struct file_operations {
	const char *name;
	int (*show)(struct seq_file *m, void *data);
};

#define DEFINE_SHOW_ATTRIBUTE(__name)					\
static const struct file_operations __name ## _fops = {			\
	.name = #__name,						\
	.show = __name ## _show,					\
}

#endif /* _SEN_SHIM_SEQ_FILE_H */
