// SPDX-License-Identifier: GPL-2.0
/*
 * footprint: a QEMU TCG plugin that measures what one call of a guest
 * kernel function executes and touches, the function's callees included.
 *
 * The emulator's time per instruction depends on its software TLB and
 * code cache, so the host's clock prices a decision differently from
 * hardware.  This counts instead, per call: instructions, loads, stores,
 * the distinct 64-byte lines and 4 KiB pages accessed, and the distinct
 * lines another vCPU stored to since this one last touched them (on
 * hardware, the coherence misses).  scripts/bench-footprint drives it.
 *
 * Arguments (-plugin footprint.so,entry=A,exit=A,mark=A,out=FILE):
 *   entry  guest address of the function's first instruction
 *   exit   address of its return instruction (the function must have one
 *          and no tail call out: the script checks the disassembly)
 *   mark   address of a function the guest calls to end a phase
 *          (ksys_sync: the guest runs sync); each phase's per-call means
 *          go to FILE as one line
 *   prof   (optional) a file for each phase's counts per guest address
 * The guest must run with nokaslr (the kernels here have no KASLR), and
 * with -icount: every vCPU then runs on one host thread, so the phase
 * sums and the line tables below are never updated by two at once.  The
 * interface below is QEMU's plugin API, version 1 (QEMU 7.2); Debian
 * ships no header for it.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
typedef uint32_t qemu_plugin_meminfo_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef struct qemu_info_t qemu_info_t;

enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
enum qemu_plugin_mem_rw { QEMU_PLUGIN_MEM_R = 1, QEMU_PLUGIN_MEM_W,
			  QEMU_PLUGIN_MEM_RW };

typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu, void *udata);
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu,
					  qemu_plugin_meminfo_t info,
					  uint64_t vaddr, void *udata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *udata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags,
					  void *udata);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags,
					    void *udata);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn,
				      qemu_plugin_vcpu_mem_cb_t cb,
				      enum qemu_plugin_cb_flags flags,
				      enum qemu_plugin_mem_rw rw, void *udata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *udata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

#define MAX_VCPUS	64
#define SET_BITS	12		/* a call's distinct lines: 4096 slots */
#define WRITER_BITS	22		/* the last writer of 4M lines */
#define KERNEL_VA	0xffff000000000000ULL

enum { N_CALLS, N_INSNS, N_LOADS, N_STORES, N_LINES, N_PAGES, N_SHARED,
       N_FIELDS };
static const char * const names[N_FIELDS] = {
	"calls", "insns", "loads", "stores", "lines", "pages", "shared",
};

/* A set of addresses cleared by a new generation, not by a memset. */
struct set {
	uint64_t key[1 << SET_BITS];
	uint32_t gen[1 << SET_BITS];
};

struct vcpu {
	bool inside;
	uint32_t gen;
	uint64_t call[N_FIELDS];	/* the call in progress */
	uint64_t sum[N_FIELDS];		/* the phase so far */
	struct set lines, pages;
};

static struct vcpu *vcpus;
/*
 * Per line (hashed): its address with the last storing vCPU in bits 0-5,
 * and the vCPUs that have accessed it since that store.
 */
static uint64_t *writer, *seen;
static uint64_t entry_va, exit_va, mark_va;
static FILE *out, *prof;
static unsigned int phase;

/* The top @bits bits of @key's multiplicative hash: a table index. */
static uint32_t slot_of(uint64_t key, unsigned int bits)
{
	return (uint32_t)((key * 0x9e3779b97f4a7c15ULL) >> (64 - bits));
}

/*
 * With prof=FILE: per guest address, what calls executed there (the
 * instructions of the block starting there, the loads and stores of the
 * instruction there), written at every mark; the script sums them per
 * function.
 */
#define PROF_BITS	16
struct site {
	uint64_t va, insns, loads, stores, lines, shared;
};
static struct site *sites;
static pthread_mutex_t sites_lock = PTHREAD_MUTEX_INITIALIZER;

static void site_add(uint64_t va, uint64_t insns, bool load, bool store,
		     bool line, bool shared)
{
	uint32_t i = slot_of(va, PROF_BITS);
	uint32_t n;

	pthread_mutex_lock(&sites_lock);
	for (n = 0; n < (1u << PROF_BITS); n++, i = (i + 1) & ((1 << PROF_BITS) - 1)) {
		struct site *s = &sites[i];

		if (s->va && s->va != va)
			continue;
		s->va = va;
		s->insns += insns;
		s->loads += load;
		s->stores += store;
		s->lines += line;
		s->shared += shared;
		break;
	}
	pthread_mutex_unlock(&sites_lock);
}

/* Add @key to @s in generation @gen; true if it was not there. */
static bool set_add(struct set *s, uint32_t gen, uint64_t key)
{
	uint32_t i = slot_of(key, SET_BITS);
	uint32_t n;

	for (n = 0; n < (1u << SET_BITS); n++, i = (i + 1) & ((1 << SET_BITS) - 1)) {
		if (s->gen[i] != gen) {
			s->gen[i] = gen;
			s->key[i] = key;
			return true;
		}
		if (s->key[i] == key)
			return false;
	}
	return false;	/* full: the call touched over 4096 lines */
}

static uint64_t *writer_slot(uint64_t line)
{
	return &writer[slot_of(line, WRITER_BITS)];
}

static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info,
		   uint64_t vaddr, void *udata)
{
	struct vcpu *v = &vcpus[vcpu % MAX_VCPUS];
	uint64_t line = vaddr & ~63ULL;
	bool store = qemu_plugin_mem_is_store(info);
	uint64_t *w = writer_slot(line), *r = &seen[w - writer];
	uint64_t me = 1ULL << (vcpu % MAX_VCPUS);
	/* Another vCPU stored to it since this one last touched it. */
	bool cold = (__atomic_load_n(w, __ATOMIC_RELAXED) & ~63ULL) == line &&
		    !(__atomic_load_n(r, __ATOMIC_RELAXED) & me);

	if (v->inside) {
		bool first = set_add(&v->lines, v->gen, line);

		if (sites)
			site_add((uintptr_t)udata, 0, !store, store, first,
				 first && cold);
		v->call[store ? N_STORES : N_LOADS]++;
		if (first) {
			v->call[N_LINES]++;
			if (cold)
				v->call[N_SHARED]++;
		}
		if (set_add(&v->pages, v->gen, vaddr >> 12))
			v->call[N_PAGES]++;
	}
	if (store) {
		__atomic_store_n(w, line | (vcpu % MAX_VCPUS), __ATOMIC_RELAXED);
		__atomic_store_n(r, me, __ATOMIC_RELAXED);
	} else if (cold) {
		__atomic_fetch_or(r, me, __ATOMIC_RELAXED);
	}
}

/* A translated block: its address and instruction count. */
struct block {
	uint64_t va, n;
};

static void on_tb(unsigned int vcpu, void *udata)
{
	struct vcpu *v = &vcpus[vcpu % MAX_VCPUS];
	const struct block *b = udata;

	if (!v->inside)
		return;
	v->call[N_INSNS] += b->n;
	if (sites)
		site_add(b->va, b->n, false, false, false, false);
}

/*
 * The call's first instruction.  A block's callback runs before its
 * instructions' callbacks, so the block the function starts with was not
 * counted: @udata is that block when the entry starts one.
 */
static void on_call(unsigned int vcpu, void *udata)
{
	struct vcpu *v = &vcpus[vcpu % MAX_VCPUS];
	const struct block *b = udata;

	memset(v->call, 0, sizeof(v->call));
	v->gen++;
	v->inside = true;
	if (b)
		on_tb(vcpu, udata);
}

static void on_return(unsigned int vcpu, void *udata)
{
	struct vcpu *v = &vcpus[vcpu % MAX_VCPUS];
	int i;

	(void)udata;
	if (!v->inside)
		return;
	v->inside = false;
	v->call[N_CALLS] = 1;
	for (i = 0; i < N_FIELDS; i++)
		v->sum[i] += v->call[i];
}

/* The end of a phase: its per-call means, over every vCPU, to @out. */
static void on_mark(unsigned int vcpu, void *udata)
{
	uint64_t total[N_FIELDS] = { 0 };
	int c, i;

	(void)vcpu;
	(void)udata;
	for (c = 0; c < MAX_VCPUS; c++) {
		for (i = 0; i < N_FIELDS; i++) {
			total[i] += vcpus[c].sum[i];
			vcpus[c].sum[i] = 0;
		}
	}
	fprintf(out, "phase %u calls %" PRIu64, ++phase, total[N_CALLS]);
	for (i = 1; i < N_FIELDS; i++)
		fprintf(out, " %s %.1f", names[i],
			total[N_CALLS] ? (double)total[i] / total[N_CALLS] : 0.0);
	fputc('\n', out);
	fflush(out);
	if (!sites)
		return;
	pthread_mutex_lock(&sites_lock);
	for (c = 0; c < (1 << PROF_BITS); c++) {
		struct site *s = &sites[c];

		if (s->va)
			fprintf(prof, "%u %" PRIx64 " %" PRIu64 " %" PRIu64 " %" PRIu64
				" %" PRIu64 " %" PRIu64 "\n", phase, s->va, s->insns,
				s->loads, s->stores, s->lines, s->shared);
		memset(s, 0, sizeof(*s));
	}
	pthread_mutex_unlock(&sites_lock);
	fflush(prof);
}

static void on_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	struct block *b;

	(void)id;
	if (qemu_plugin_tb_vaddr(tb) < KERNEL_VA)
		return;
	/* Kept for as long as the block may run: not freed. */
	b = malloc(sizeof(*b));
	if (!b)
		return;
	b->va = qemu_plugin_tb_vaddr(tb);
	b->n = n;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb, QEMU_PLUGIN_CB_NO_REGS, b);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t va = qemu_plugin_insn_vaddr(insn);

		if (va == entry_va)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_call,
							       QEMU_PLUGIN_CB_NO_REGS,
							       i ? NULL : b);
		else if (va == exit_va)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_return,
							       QEMU_PLUGIN_CB_NO_REGS, NULL);
		else if (va == mark_va)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark,
							       QEMU_PLUGIN_CB_NO_REGS, NULL);
		qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW,
						 (void *)(uintptr_t)va);
	}
}

static void on_atexit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	fclose(out);
	if (prof)
		fclose(prof);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
			int argc, char **argv)
{
	const char *path = NULL, *prof_path = NULL;
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq)
			goto usage;
		*eq++ = '\0';
		if (!strcmp(argv[i], "entry"))
			entry_va = strtoull(eq, NULL, 0);
		else if (!strcmp(argv[i], "exit"))
			exit_va = strtoull(eq, NULL, 0);
		else if (!strcmp(argv[i], "mark"))
			mark_va = strtoull(eq, NULL, 0);
		else if (!strcmp(argv[i], "out"))
			path = eq;
		else if (!strcmp(argv[i], "prof"))
			prof_path = eq;
		else
			goto usage;
	}
	if (!entry_va || !exit_va || !mark_va || !path)
		goto usage;
	out = fopen(path, "w");
	vcpus = calloc(MAX_VCPUS, sizeof(*vcpus));
	writer = calloc(1 << WRITER_BITS, sizeof(*writer));
	seen = calloc(1 << WRITER_BITS, sizeof(*seen));
	if (prof_path) {
		prof = fopen(prof_path, "w");
		sites = calloc(1 << PROF_BITS, sizeof(*sites));
	}
	if (!out || !vcpus || !writer || !seen || (prof_path && (!prof || !sites))) {
		fprintf(stderr, "footprint: cannot open %s or allocate\n", path);
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_trans);
	qemu_plugin_register_atexit_cb(id, on_atexit, NULL);
	return 0;
usage:
	fprintf(stderr, "footprint: usage: entry=ADDR,exit=ADDR,mark=ADDR,out=FILE[,prof=FILE]\n");
	return -1;
}
