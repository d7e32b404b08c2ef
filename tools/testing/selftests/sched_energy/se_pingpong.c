// SPDX-License-Identifier: GPL-2.0
/*
 * se_pingpong: a wakeup round-trip benchmark, not a test (the overhead
 * benchmarks of scripts/eval run it: make bench-overhead).
 *
 * Two processes pass one byte back and forth over two pipes: each pass
 * wakes a task that sleeps in read(), so a round trip is two wakeups, two
 * placements and two context switches.  What the wakeup path costs shows
 * in the time per round trip.
 *
 * The partner passes back the CPU it ran on, so the second line says how
 * many round trips found the two on one CPU: a pair on one CPU switches
 * between two address spaces at every pass, which on QEMU's TCG flushes
 * the emulated TLB (it keeps no ASIDs), and makes every wakeup that
 * follows cost more there than on real hardware.
 *
 * Usage: se_pingpong [ROUND_TRIPS]	(default 20000)
 * Prints "ns per round trip: N" and "same CPU: P%"; exits 1 with a
 * message on any error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "se_pingpong: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Read one byte (a closed pipe is an error), then write back our CPU. */
static int pass(int in, int out)
{
	unsigned char c;
	ssize_t n;

	do
		n = read(in, &c, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		return -1;
	c = (unsigned char)sched_getcpu();
	do
		n = write(out, &c, 1);
	while (n < 0 && errno == EINTR);
	return n == 1 ? 0 : -1;
}

int main(int argc, char **argv)
{
	long loops = 20000, same = 0, i;
	int ping[2], pong[2], status;
	struct timespec t0, t1;
	char *end;
	pid_t pid;

	if (argc > 1) {
		errno = 0;
		loops = strtol(argv[1], &end, 10);
		if (errno || *end || loops < 1) {
			fprintf(stderr, "usage: se_pingpong [ROUND_TRIPS >= 1]\n");
			return 2;
		}
	}
	if (pipe(ping) || pipe(pong))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		close(ping[1]);
		close(pong[0]);
		for (i = 0; i < loops; i++)
			if (pass(ping[0], pong[1]))
				_exit(1);
		_exit(0);
	}
	close(ping[0]);
	close(pong[1]);
	if (clock_gettime(CLOCK_MONOTONIC, &t0))
		die("clock_gettime");
	for (i = 0; i < loops; i++) {
		unsigned char c = 'x';

		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1) {
			kill(pid, SIGKILL);
			die("round trip");
		}
		same += c == (unsigned char)sched_getcpu();
	}
	if (clock_gettime(CLOCK_MONOTONIC, &t1))
		die("clock_gettime");
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "se_pingpong: the partner process failed\n");
		return 1;
	}
	printf("ns per round trip: %lld\n",
	       ((t1.tv_sec - t0.tv_sec) * 1000000000LL + t1.tv_nsec - t0.tv_nsec) / loops);
	printf("same CPU: %ld%%\n", same * 100 / loops);
	return 0;
}
