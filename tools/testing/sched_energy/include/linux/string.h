/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: libc's string functions plus strscpy(). */
#ifndef _SEN_SHIM_STRING_H
#define _SEN_SHIM_STRING_H

#include <linux/kernel.h>

/*
 * Copy at most @count - 1 bytes and terminate; read @src no further than
 * its NUL or @count bytes, as the kernel's does.
 *
 * Return: the length copied, or -E2BIG if @src was truncated.
 */
static inline ssize_t strscpy(char *dst, const char *src, size_t count)
{
	size_t i;

	if (!count)
		return -E2BIG;
	for (i = 0; i < count; i++) {
		dst[i] = src[i];
		if (!src[i])
			return i;
	}
	dst[count - 1] = '\0';
	return -E2BIG;
}

static inline const char *kbasename(const char *path)
{
	const char *tail = strrchr(path, '/');

	return tail ? tail + 1 : path;
}

#endif /* _SEN_SHIM_STRING_H */
