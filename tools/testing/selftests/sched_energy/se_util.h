/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the sched_energy selftests: reading sysfs, debugfs and
 * the flattened device tree in /proc/device-tree, and CPU lists.
 */
#ifndef SE_UTIL_H
#define SE_UTIL_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SE_MAX_CPUS	64
#define SE_DT_CPUS	"/proc/device-tree/cpus"

typedef uint64_t se_mask_t;	/* one bit per CPU, SE_MAX_CPUS at most */

/* Read a whole (small) file into buf; returns its length or -errno. */
static inline int se_read(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	return n;
}

/* Read a file holding one decimal number; returns 0 or -errno. */
static inline int se_read_long(const char *path, long *val)
{
	char buf[64], *end;
	int n = se_read(path, buf, sizeof(buf));

	if (n < 0)
		return n;
	errno = 0;
	*val = strtol(buf, &end, 0);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}

/* Read a string file without its trailing newline; returns 0 or -errno. */
static inline int se_read_str(const char *path, char *buf, size_t size)
{
	int n = se_read(path, buf, size);

	if (n < 0)
		return n;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\0'))
		buf[--n] = '\0';
	return 0;
}

/* Parse a CPU list ("0-3,5") into a mask; returns 0 or -EINVAL. */
static inline int se_parse_cpulist(const char *s, se_mask_t *mask)
{
	*mask = 0;
	while (*s && *s != '\n') {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s || a < 0 || a >= SE_MAX_CPUS)
			return -EINVAL;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a || b >= SE_MAX_CPUS)
				return -EINVAL;
			s = end;
		}
		for (; a <= b; a++)
			*mask |= 1ULL << a;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	return 0;
}

/* Number of possible CPUs, from /sys/devices/system/cpu/possible. */
static inline int se_nr_cpus(void)
{
	char buf[128];
	se_mask_t m;
	int n = 0;

	if (se_read_str("/sys/devices/system/cpu/possible", buf, sizeof(buf)) ||
	    se_parse_cpulist(buf, &m))
		return -1;
	while (m) {
		n += m & 1;
		m >>= 1;
	}
	return n;
}

/* Read a big-endian u32 array property of the device tree. */
static inline int se_dt_u32s(const char *path, uint32_t *val, int max)
{
	unsigned char buf[4 * 64];
	FILE *f = fopen(path, "rb");
	size_t n;
	int i;

	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (n % 4)
		return -EINVAL;
	for (i = 0; i < (int)n / 4 && i < max; i++)
		val[i] = (uint32_t)buf[4 * i] << 24 | buf[4 * i + 1] << 16 |
			 buf[4 * i + 2] << 8 | buf[4 * i + 3];
	return i;
}

/* Device-tree node of a CPU (QEMU virt names them cpu@N with reg N). */
static inline void se_dt_cpu_path(char *buf, size_t size, int cpu, const char *prop)
{
	snprintf(buf, size, SE_DT_CPUS "/cpu@%x/%s", cpu, prop);
}

/* Map a device-tree phandle to a CPU number, or -1. */
static inline int se_dt_phandle_to_cpu(uint32_t phandle, int nr_cpus)
{
	char path[256];
	uint32_t ph = 0;
	int cpu;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		se_dt_cpu_path(path, sizeof(path), cpu, "phandle");
		if (se_dt_u32s(path, &ph, 1) == 1 && ph == phandle)
			return cpu;
	}
	return -1;
}

#endif /* SE_UTIL_H */
