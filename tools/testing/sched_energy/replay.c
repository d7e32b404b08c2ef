// SPDX-License-Identifier: GPL-2.0
/*
 * Regression driver: run every file named, and every file of every
 * directory named, through sen_harness_run(), then each again with every
 * allocation of the code under test failing in turn (-n: not); -v prints
 * each input's outcome; an input still running after -tSECONDS (10) is a
 * failure, as a hang.  A failed
 * invariant or a sanitizer report ends the run with the input's name and
 * a non-zero exit status; otherwise the last line is "N passed, 0 failed".
 */
#include <sanitizer/common_interface_defs.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "sen_test.h"

static const char *current;
static unsigned int nr_passed, nr_skipped;
static unsigned long nr_fault_runs;
static bool faults = true, verbose;
static unsigned int timeout = 10;	/* seconds per input, all its runs */
static double slowest;
static const char *slowest_input;
static unsigned long known_inputs[16];	/* inputs hitting each known bug */

static void sen_replay_died(void)
{
	fprintf(stderr, "sen_replay: failed on %s\n", current ? current : "(none)");
}

static void sen_replay_timeout(int sig)
{
	fprintf(stderr, "sen_replay: %s: still running after %u s\n",
		current ? current : "(none)", timeout);
	abort();
}

static double sen_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sen_replay_abort(int sig)
{
	sen_replay_died();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void sen_replay_file(const char *path)
{
	unsigned long allocs = 0, n;
	size_t size = 0, room = 0;
	char *data = NULL;
	FILE *f = fopen(path, "rb");

	if (!f) {
		perror(path);
		exit(1);
	}
	for (;;) {
		size_t got;

		if (size == room) {
			room = room ? 2 * room : 65536;
			data = realloc(data, room);
			if (!data)
				abort();
		}
		got = fread(data + size, 1, room - size, f);
		if (!got)
			break;
		size += got;
	}
	fclose(f);

	unsigned long before[16];
	unsigned int k;

	for (k = 0; sen_known_bugs[k].id && k < 16; k++)
		before[k] = sen_known_bugs[k].seen;
	double start = sen_now();

	current = path;
	alarm(timeout);
	if (!sen_harness_run(data, size, 0, &allocs)) {
		alarm(0);
		if (sen_verbose)
			fprintf(stderr, "sen_replay: %s: not a device tree, skipped\n", path);
		nr_skipped++;
		free(data);
		return;
	}
	if (verbose)
		printf("%s: %s\n", path, sen_harness_outcome);
	for (n = 1; faults && n <= allocs; n++, nr_fault_runs++)
		sen_harness_run(data, size, n, NULL);
	alarm(0);
	if (sen_now() - start > slowest) {
		slowest = sen_now() - start;
		free((char *)slowest_input);
		slowest_input = strdup(path);
	}
	for (k = 0; sen_known_bugs[k].id && k < 16; k++)
		known_inputs[k] += sen_known_bugs[k].seen != before[k];
	nr_passed++;
	free(data);
}

int main(int argc, char **argv)
{
	int i = 1;

	sen_verbose = getenv("SEN_VERBOSE");
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-n"))
			faults = false;
		else if (!strcmp(argv[i], "-v"))
			verbose = true;
		else if (!strncmp(argv[i], "-t", 2) && atoi(argv[i] + 2) > 0)
			timeout = atoi(argv[i] + 2);
		else
			break;
	}
	if (i == argc || argv[i][0] == '-') {
		fprintf(stderr, "usage: %s [-n] [-v] [-tSECONDS] FILE|DIR...\n", argv[0]);
		return 2;
	}
	__sanitizer_set_death_callback(sen_replay_died);
	signal(SIGABRT, sen_replay_abort);
	signal(SIGALRM, sen_replay_timeout);
	for (; i < argc; i++)
		sen_walk_inputs(argv[i], sen_replay_file);
	current = NULL;
	for (i = 0; sen_known_bugs[i].id && i < 16; i++)
		if (known_inputs[i])
			printf("sen_replay: known bug %s (%s): %lu inputs, %s\n",
			       sen_known_bugs[i].id, sen_known_bugs[i].what,
			       known_inputs[i], "allowed by SEN_KNOWN_BUGS");
	printf("sen_replay: %u inputs run, %u skipped (not a device tree), ",
	       nr_passed, nr_skipped);
	printf("%lu runs with an allocation failing; slowest %.3f s (%s)\n",
	       nr_fault_runs, slowest, slowest_input ? slowest_input : "-");
	printf("%u passed, 0 failed\n", nr_passed);
	return nr_passed ? 0 : 1;
}
