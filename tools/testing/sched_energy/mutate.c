// SPDX-License-Identifier: GPL-2.0
/*
 * Mutator check: the fuzzer's own tree mutator (fuzz.c), run without
 * libFuzzer on every file named, and every file of every directory named.
 * A fuzz run must fail only on bugs of the code under test, so the
 * mutator must survive any blob, well-formed or not, with any seed.
 *
 * For each input and each of -sSEEDS seeds (default 200), a chain of
 * -dDEPTH mutations (default 30) starts from the input, each taking the
 * last one's output, as the fuzzer's corpus grows.  libFuzzer's
 * byte mutator (LLVMFuzzerMutate) is replaced by a deterministic one here,
 * so a run is repeatable: the same inputs and options do the same work.
 *
 * Fails (a sanitizer report, or a message and a non-zero exit status) if
 * the mutator touches memory it does not own, passes a bad size to the
 * allocator, or returns a size of 0 or over the room it was given; the
 * last line is otherwise "N passed, 0 failed".
 */
#include <sanitizer/common_interface_defs.h>
#include <signal.h>

#include "sen_test.h"

#define SEN_MUTATE_ROOM	65536	/* make fuzz's -max_len */

size_t sen_fuzz_custom_mutator(u8 *data, size_t size, size_t max_size,
			       unsigned int seed)
	__asm__("LLVMFuzzerCustomMutator");
size_t sen_mutate_bytes(u8 *data, size_t size, size_t max_size)
	__asm__("LLVMFuzzerMutate");

static const char *current;
static unsigned int cur_seed, cur_step;
static unsigned int nr_passed, nr_skipped;
static unsigned long nr_mutations, nr_tree_outputs;
static u32 byte_state = 1;

/*
 * The stand-in for libFuzzer's byte mutator: change, insert or erase a
 * byte, or write an edge value over four.  Like libFuzzer's, it never
 * returns more than @max_size, and returns at least one byte.
 */
size_t sen_mutate_bytes(u8 *data, size_t size, size_t max_size)
{
	static const u32 edges[] = { 0, 1, 0x7fffffff, 0x80000000, 0xffffffff };
	size_t at;
	u32 v;

	if (!max_size)
		return 0;
	if (size > max_size)
		size = max_size;
	if (!size) {
		data[0] = sen_rand(&byte_state);
		return 1;
	}
	at = sen_rand(&byte_state) % size;
	switch (sen_rand(&byte_state) % 4) {
	case 0:
		data[at] ^= 1 << (sen_rand(&byte_state) % 8);
		return size;
	case 1:
		if (size == max_size)
			return size;
		memmove(data + at + 1, data + at, size - at);
		data[at] = sen_rand(&byte_state);
		return size + 1;
	case 2:
		if (size == 1)
			return size;
		memmove(data + at, data + at + 1, size - at - 1);
		return size - 1;
	default:
		if (size - at < 4)
			return size;
		v = edges[sen_rand(&byte_state) % ARRAY_SIZE(edges)];
		memcpy(data + at, &v, 4);
		return size;
	}
}

static void sen_mutate_died(void)
{
	fprintf(stderr, "sen_mutate: failed on %s, seed %u, mutation %u\n",
		current ? current : "(none)", cur_seed, cur_step);
}

static void sen_mutate_abort(int sig)
{
	sen_mutate_died();
	signal(sig, SIG_DFL);
	raise(sig);
}

static unsigned int seeds = 200, depth = 30;

static void sen_mutate_file(const char *path)
{
	static u8 input[SEN_MUTATE_ROOM], buf[SEN_MUTATE_ROOM];
	size_t size, n;
	FILE *f = fopen(path, "rb");

	if (!f) {
		perror(path);
		exit(1);
	}
	size = fread(input, 1, sizeof(input), f);
	if (!size || !feof(f)) {
		fprintf(stderr, "sen_mutate: %s: empty, or over %d bytes: skipped\n",
			path, SEN_MUTATE_ROOM);
		fclose(f);
		nr_skipped++;
		return;
	}
	fclose(f);
	current = path;
	for (cur_seed = 1; cur_seed <= seeds; cur_seed++) {
		memcpy(buf, input, size);
		n = size;
		byte_state = cur_seed * 2654435761u | 1;
		for (cur_step = 0; cur_step < depth; cur_step++) {
			n = sen_fuzz_custom_mutator(buf, n, sizeof(buf),
						    cur_seed * 7919 + cur_step);
			nr_mutations++;
			if (!n || n > sizeof(buf)) {
				sen_mutate_died();
				fprintf(stderr, "sen_mutate: returned size %zu, room %zu\n",
					n, sizeof(buf));
				exit(1);
			}
			if (!sen_fdt_check(buf, n))
				nr_tree_outputs++;
		}
	}
	current = NULL;
	nr_passed++;
}

int main(int argc, char **argv)
{
	int i = 1;

	sen_verbose = getenv("SEN_VERBOSE");
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strncmp(argv[i], "-s", 2) && atoi(argv[i] + 2) > 0)
			seeds = atoi(argv[i] + 2);
		else if (!strncmp(argv[i], "-d", 2) && atoi(argv[i] + 2) > 0)
			depth = atoi(argv[i] + 2);
		else
			break;
	}
	if (i == argc || argv[i][0] == '-') {
		fprintf(stderr, "usage: %s [-sSEEDS] [-dDEPTH] FILE|DIR...\n", argv[0]);
		return 2;
	}
	__sanitizer_set_death_callback(sen_mutate_died);
	signal(SIGABRT, sen_mutate_abort);
	for (; i < argc; i++)
		sen_walk_inputs(argv[i], sen_mutate_file);
	printf("sen_mutate: %u inputs, %u skipped; %lu mutations, %lu gave a well-formed tree\n",
	       nr_passed, nr_skipped, nr_mutations, nr_tree_outputs);
	printf("%u passed, 0 failed\n", nr_passed);
	return nr_passed ? 0 : 1;
}
