// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel services the code under test calls, on one thread:
 *
 *  - printk into a log the harness reads (sen_log_*());
 *  - vsnprintf with the kernel's %pOF and %*pb[l] extensions;
 *  - kmalloc/kfree over malloc/free, with an injectable failure;
 *  - RCU: kfree_rcu() frees at the next synchronize_rcu();
 *  - seq_file and debugfs: files are a table, read by path;
 *  - the system workqueue, the cpufreq policy notifier chain and the
 *    hotplug state table: recorded, and run when the harness says.
 *
 * Departures from the kernel: no concurrency (locks are checked flags),
 * a grace period ends only when the harness ends it, work runs only when
 * flushed, and printk has no rate limit or console.
 */
#include <ctype.h>

#include <linux/cpufreq.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "sen_test.h"

/* This file formats with libc's snprintf; the kernel's is built on it. */
#undef snprintf
#undef vsnprintf

int sen_rcu_nesting;
int sen_locks_held;
int sen_cpus_read_locked;
bool sen_verbose;

/* ---- printk and the log ---- */

static char *sen_log_buf;
static size_t sen_log_used, sen_log_size;

static void sen_log_append(const char *s, size_t n)
{
	if (sen_log_used + n + 1 > sen_log_size) {
		size_t size = max_t(size_t, 4096, 2 * (sen_log_used + n + 1));
		char *p = realloc(sen_log_buf, size);

		if (!p)
			abort();
		sen_log_buf = p;
		sen_log_size = size;
	}
	memcpy(sen_log_buf + sen_log_used, s, n);
	sen_log_used += n;
	sen_log_buf[sen_log_used] = '\0';
}

void sen_printk(int level, const char *fmt, ...)
{
	char head[8], *msg;
	va_list args;
	int len;

	va_start(args, fmt);
	len = sen_vsnprintf(NULL, 0, fmt, args);
	va_end(args);
	msg = malloc(len + 1);
	if (!msg)
		abort();
	va_start(args, fmt);
	sen_vsnprintf(msg, len + 1, fmt, args);
	va_end(args);

	snprintf(head, sizeof(head), "<%d>", level);
	sen_log_append(head, strlen(head));
	sen_log_append(msg, len);
	if (!len || msg[len - 1] != '\n')
		sen_log_append("\n", 1);
	if (sen_verbose)
		fprintf(stderr, "%s%s%s", head, msg,
			len && msg[len - 1] == '\n' ? "" : "\n");
	free(msg);
}

const char *sen_log(void)
{
	return sen_log_buf ? sen_log_buf : "";
}

size_t sen_log_len(void)
{
	return sen_log_used;
}

/*
 * Count the log lines from offset @from at @level (any level if negative)
 * whose message starts with @prefix.
 */
unsigned int sen_log_count(int level, const char *prefix, size_t from)
{
	const char *p = sen_log() + min(from, sen_log_used);
	size_t plen = strlen(prefix);
	unsigned int n = 0;

	/* lines are "<L>message\n", L one digit (sen_printk()) */
	for (; *p; p = strchrnul(p, '\n') + !!*strchrnul(p, '\n')) {
		if (p[0] != '<' || !isdigit((unsigned char)p[1]) || p[2] != '>')
			continue;
		if ((level < 0 || p[1] - '0' == level) && !strncmp(p + 3, prefix, plen))
			n++;
	}
	return n;
}

void sen_bug(const char *fmt, ...)
{
	char msg[1024];
	va_list args;

	va_start(args, fmt);
	sen_vsnprintf(msg, sizeof(msg), fmt, args);
	va_end(args);
	fflush(stdout);
	fprintf(stderr, "\nsched_energy harness: FAILED: %s\n", msg);
	fprintf(stderr, "--- kernel log of this input ---\n%s--- end of log ---\n",
		sen_log());
	abort();
}

/* ---- vsnprintf ---- */

struct sen_out {
	char *buf;
	size_t size;
	size_t len;		/* would-be length, as snprintf returns */
};

static void sen_out_str(struct sen_out *o, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++, o->len++)
		if (o->len + 1 < o->size)
			o->buf[o->len] = s[i];
}

static void sen_out_fmt(struct sen_out *o, const char *fmt, ...)
{
	char small[128], *big = NULL;
	va_list args;
	int n;

	va_start(args, fmt);
	n = vsnprintf(small, sizeof(small), fmt, args);
	va_end(args);
	if (n < 0)
		sen_bug("vsnprintf: bad conversion \"%s\"", fmt);
	if ((size_t)n >= sizeof(small)) {
		big = malloc(n + 1);
		if (!big)
			abort();
		va_start(args, fmt);
		vsnprintf(big, n + 1, fmt, args);
		va_end(args);
	}
	sen_out_str(o, big ? big : small, n);
	free(big);
}

/* %*pbl: "0-3,5"; %*pb: hex words, most significant first. */
static void sen_out_bitmap(struct sen_out *o, const unsigned long *bits,
			   int nbits, bool list)
{
	int i, first = 1;

	if (nbits < 0)
		nbits = 0;
	if (!list) {
		int words = BITS_TO_LONGS(nbits);

		for (i = words - 1; i >= 0; i--) {
			unsigned long v = bits[i];
			int chunk = i == words - 1 && nbits % BITS_PER_LONG ?
				    nbits % BITS_PER_LONG : BITS_PER_LONG;

			if (chunk < BITS_PER_LONG)
				v &= (1UL << chunk) - 1;
			sen_out_fmt(o, i == words - 1 ? "%0*lx" : ",%016lx",
				    (chunk + 3) / 4, v);
		}
		return;
	}
	for (i = 0; i < nbits; i++) {
		int end;

		if (!(bits[i / BITS_PER_LONG] & (1UL << (i % BITS_PER_LONG))))
			continue;
		for (end = i; end + 1 < nbits &&
		     (bits[(end + 1) / BITS_PER_LONG] &
		      (1UL << ((end + 1) % BITS_PER_LONG))); end++)
			;
		sen_out_fmt(o, end > i ? "%s%d-%d" : "%s%d", first ? "" : ",",
			    i, end);
		first = 0;
		i = end;
	}
}

int sen_vsnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	struct sen_out o = { buf, size, 0 };

	while (*fmt) {
		char spec[48];
		size_t n = 0;
		int width = -1;
		enum { L_INT, L_CHAR, L_SHORT, L_LONG, L_LLONG, L_SIZE, L_PTRDIFF,
		       L_INTMAX } lm = L_INT;
		char conv;

		if (*fmt != '%') {
			sen_out_str(&o, fmt++, 1);
			continue;
		}
		fmt++;
		if (*fmt == '%') {
			sen_out_str(&o, fmt++, 1);
			continue;
		}
		spec[n++] = '%';
		while (*fmt && strchr("-+ #0", *fmt) && n < 8)
			spec[n++] = *fmt++;
		if (*fmt == '*') {
			width = va_arg(args, int);
			n += snprintf(spec + n, sizeof(spec) - n, "%d", width);
			fmt++;
		} else {
			if (isdigit((unsigned char)*fmt))
				width = atoi(fmt);
			while (isdigit((unsigned char)*fmt) && n < 20)
				spec[n++] = *fmt++;
		}
		if (*fmt == '.') {
			spec[n++] = *fmt++;
			if (*fmt == '*') {
				n += snprintf(spec + n, sizeof(spec) - n, "%d",
					      va_arg(args, int));
				fmt++;
			} else {
				while (isdigit((unsigned char)*fmt) && n < 32)
					spec[n++] = *fmt++;
			}
		}
		if (fmt[0] == 'h' && fmt[1] == 'h') {
			lm = L_CHAR;
			spec[n++] = *fmt++;
			spec[n++] = *fmt++;
		} else if (fmt[0] == 'l' && fmt[1] == 'l') {
			lm = L_LLONG;
			spec[n++] = *fmt++;
			spec[n++] = *fmt++;
		} else if (*fmt && strchr("hlzLtj", *fmt)) {
			lm = *fmt == 'h' ? L_SHORT : *fmt == 'z' ? L_SIZE :
			     *fmt == 't' ? L_PTRDIFF : *fmt == 'j' ? L_INTMAX :
			     *fmt == 'L' ? L_LLONG : L_LONG;
			spec[n++] = *fmt++;
		}
		conv = *fmt;
		if (!conv)
			sen_bug("vsnprintf: format ends inside a conversion");
		fmt++;
		spec[n++] = conv;
		spec[n] = '\0';

		switch (conv) {
		case 'd':
		case 'i':
			switch (lm) {
			case L_LONG:
				sen_out_fmt(&o, spec, va_arg(args, long));
				break;
			case L_LLONG:
				sen_out_fmt(&o, spec, va_arg(args, long long));
				break;
			case L_SIZE:
				sen_out_fmt(&o, spec, va_arg(args, ssize_t));
				break;
			case L_PTRDIFF:
				sen_out_fmt(&o, spec, va_arg(args, ptrdiff_t));
				break;
			case L_INTMAX:
				sen_out_fmt(&o, spec, va_arg(args, intmax_t));
				break;
			default:
				sen_out_fmt(&o, spec, va_arg(args, int));
				break;
			}
			break;
		case 'u':
		case 'x':
		case 'X':
		case 'o':
			switch (lm) {
			case L_LONG:
				sen_out_fmt(&o, spec, va_arg(args, unsigned long));
				break;
			case L_LLONG:
				sen_out_fmt(&o, spec, va_arg(args, unsigned long long));
				break;
			case L_SIZE:
				sen_out_fmt(&o, spec, va_arg(args, size_t));
				break;
			case L_PTRDIFF:
				sen_out_fmt(&o, spec, va_arg(args, ptrdiff_t));
				break;
			case L_INTMAX:
				sen_out_fmt(&o, spec, va_arg(args, uintmax_t));
				break;
			default:
				sen_out_fmt(&o, spec, va_arg(args, unsigned int));
				break;
			}
			break;
		case 'c':
			sen_out_fmt(&o, spec, va_arg(args, int));
			break;
		case 's': {
			const char *s = va_arg(args, const char *);

			sen_out_fmt(&o, spec, s ? s : "(null)");
			break;
		}
		case 'p': {
			const void *p = va_arg(args, const void *);

			if (fmt[0] == 'O' && fmt[1] == 'F') {
				const struct device_node *np = p;

				fmt += 2;
				/* %pOFn is the name; every other flag, the path */
				if (*fmt == 'n')
					sen_out_fmt(&o, "%s", np ? np->name : "(null)");
				else
					sen_out_fmt(&o, "%s", np ? np->path : "(null)");
				while (isalnum((unsigned char)*fmt))
					fmt++;
			} else if (fmt[0] == 'b') {
				bool list = fmt[1] == 'l';

				fmt += list ? 2 : 1;
				sen_out_bitmap(&o, p, width, list);
			} else {
				while (isalnum((unsigned char)*fmt))
					fmt++;
				sen_out_str(&o, "(ptrval)", 8);
			}
			break;
		}
		default:
			sen_bug("vsnprintf: unsupported conversion %%%c", conv);
		}
	}
	if (o.size)
		o.buf[min(o.len, o.size - 1)] = '\0';
	return o.len;
}

int sen_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int n;

	va_start(args, fmt);
	n = sen_vsnprintf(buf, size, fmt, args);
	va_end(args);
	return n;
}

/* ---- memory ---- */

/* The 6.1 arm64 kmalloc limit with 4K pages (MAX_ORDER 11). */
#define SEN_KMALLOC_MAX_SIZE	(4UL << 20)

unsigned long sen_alloc_count;
unsigned long sen_fail_alloc_at;

void *kmalloc(size_t size, gfp_t flags)
{
	if (size > SEN_KMALLOC_MAX_SIZE)
		sen_bug("%s of %zu bytes: above KMALLOC_MAX_SIZE", __func__, size);
	if (++sen_alloc_count == sen_fail_alloc_at)
		return NULL;
	return flags & __GFP_ZERO ? calloc(1, size) : malloc(size);
}

void kfree(const void *p)
{
	free((void *)p);
}

bool zalloc_cpumask_var(cpumask_var_t *mask, gfp_t flags)
{
	*mask = kzalloc(cpumask_size(), flags);
	return *mask;
}

bool alloc_cpumask_var(cpumask_var_t *mask, gfp_t flags)
{
	*mask = kmalloc(cpumask_size(), flags);
	return *mask;
}

void free_cpumask_var(cpumask_var_t mask)
{
	kfree(mask);
}

/* ---- RCU ---- */

static struct rcu_head *sen_rcu_pending;

void sen_kfree_rcu(struct rcu_head *head, void *ptr)
{
	head->ptr = ptr;
	head->next = sen_rcu_pending;
	sen_rcu_pending = head;
}

void synchronize_rcu(void)
{
	if (sen_rcu_nesting)
		sen_bug("%s() inside an RCU read-side section", __func__);
	while (sen_rcu_pending) {
		struct rcu_head *head = sen_rcu_pending;

		sen_rcu_pending = head->next;
		kfree(head->ptr);
	}
}

void rcu_barrier(void)
{
	synchronize_rcu();
}

/* ---- seq_file and debugfs ---- */

void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	va_list args;
	int len;

	if (m->count < m->size) {
		va_start(args, fmt);
		len = sen_vsnprintf(m->buf + m->count, m->size - m->count, fmt,
				    args);
		va_end(args);
		if (m->count + len < m->size) {
			m->count += len;
			return;
		}
	}
	m->count = m->size;
}

void seq_puts(struct seq_file *m, const char *s)
{
	size_t len = strlen(s);

	if (m->count + len >= m->size) {
		m->count = m->size;
		return;
	}
	memcpy(m->buf + m->count, s, len);
	m->count += len;
}

void seq_putc(struct seq_file *m, char c)
{
	if (m->count >= m->size)
		return;
	m->buf[m->count++] = c;
}

#define SEN_MAX_DENTRIES	16

static struct dentry sen_dentries[SEN_MAX_DENTRIES];
static unsigned int sen_nr_dentries;

static struct dentry *sen_debugfs_add(const char *name, struct dentry *parent)
{
	struct dentry *d;

	if (sen_nr_dentries == SEN_MAX_DENTRIES)
		sen_bug("debugfs: more than %d files", SEN_MAX_DENTRIES);
	d = &sen_dentries[sen_nr_dentries++];
	memset(d, 0, sizeof(*d));
	if (strlen(name) >= sizeof(d->name))
		sen_bug("debugfs: name %s too long for the fake", name);
	strcpy(d->name, name);
	d->parent = parent;
	return d;
}

struct dentry *debugfs_create_dir(const char *name, struct dentry *parent)
{
	return sen_debugfs_add(name, parent);
}

struct dentry *debugfs_create_file(const char *name, umode_t mode,
				   struct dentry *parent, void *data,
				   const struct file_operations *fops)
{
	struct dentry *d = sen_debugfs_add(name, parent);

	d->fops = fops;
	d->data = data;
	return d;
}

static bool sen_dentry_is(const struct dentry *d, const char *path, size_t len)
{
	size_t n = strlen(d->name);

	if (n > len || strncmp(path + len - n, d->name, n))
		return false;
	if (!d->parent)
		return n == len;
	return n < len && path[len - n - 1] == '/' &&
	       sen_dentry_is(d->parent, path, len - n - 1);
}

struct dentry *sen_debugfs_lookup(const char *path)
{
	unsigned int i;

	for (i = 0; i < sen_nr_dentries; i++)
		if (sen_dentry_is(&sen_dentries[i], path, strlen(path)))
			return &sen_dentries[i];
	return NULL;
}

/*
 * Read a debugfs file whole, as seq_read() does: run the show function
 * into a page, and again into twice the room while it overflows.
 *
 * Return: the text (free() it), or NULL if there is no such file.
 */
char *sen_debugfs_read(const char *path)
{
	struct dentry *d = sen_debugfs_lookup(path);
	struct seq_file m = { .size = 4096 };
	int ret;

	if (!d || !d->fops || !d->fops->show)
		return NULL;
	for (;;) {
		m.buf = malloc(m.size);
		if (!m.buf)
			abort();
		m.count = 0;
		m.private = d->data;
		ret = d->fops->show(&m, d->data);
		if (ret)
			sen_bug("debugfs %s: show returned %d", path, ret);
		if (m.count < m.size)
			break;
		free(m.buf);
		if (m.size >= (64UL << 20))
			sen_bug("debugfs %s: more than 64 MiB of output", path);
		m.size *= 2;
	}
	m.buf[m.count] = '\0';
	return m.buf;
}

/* ---- workqueue ---- */

/* An opaque handle: there is one queue. */
static char sen_system_wq;
struct workqueue_struct *system_wq = (struct workqueue_struct *)&sen_system_wq;

static struct work_struct *sen_work_head;

bool queue_work(struct workqueue_struct *wq, struct work_struct *work)
{
	struct work_struct **pp;

	if (work->pending)
		return false;
	work->pending = true;
	work->next = NULL;
	for (pp = &sen_work_head; *pp; pp = &(*pp)->next)
		;
	*pp = work;
	return true;
}

bool mod_delayed_work(struct workqueue_struct *wq, struct delayed_work *dwork,
		      unsigned long delay)
{
	bool was = dwork->work.pending;

	dwork->delay = delay;
	queue_work(wq, &dwork->work);
	return was;
}

unsigned int sen_work_pending(void)
{
	struct work_struct *w;
	unsigned int n = 0;

	for (w = sen_work_head; w; w = w->next)
		n++;
	return n;
}

/* Run queued work, as after every delay elapsed, until none is left. */
void sen_run_work(void)
{
	unsigned int runs = 0;

	while (sen_work_head) {
		struct work_struct *w = sen_work_head;

		if (++runs > 100)
			sen_bug("workqueue: work keeps requeueing itself");
		sen_work_head = w->next;
		w->next = NULL;
		w->pending = false;
		w->func(w);
	}
}

/* ---- cpufreq policy notifiers ---- */

static struct notifier_block *sen_policy_chain;

int cpufreq_register_notifier(struct notifier_block *nb, unsigned int list)
{
	struct notifier_block **pp;

	if (list != CPUFREQ_POLICY_NOTIFIER)
		return -EINVAL;
	for (pp = &sen_policy_chain; *pp; pp = &(*pp)->next) {
		if (*pp == nb)
			sen_bug("notifier callback already registered");
		if (nb->priority > (*pp)->priority)
			break;
	}
	nb->next = *pp;
	*pp = nb;
	return 0;
}

int cpufreq_unregister_notifier(struct notifier_block *nb, unsigned int list)
{
	struct notifier_block **pp;

	for (pp = &sen_policy_chain; *pp; pp = &(*pp)->next) {
		if (*pp == nb) {
			*pp = nb->next;
			return 0;
		}
	}
	return -ENOENT;
}

unsigned int sen_cpufreq_notifiers(void)
{
	struct notifier_block *nb;
	unsigned int n = 0;

	for (nb = sen_policy_chain; nb; nb = nb->next)
		n++;
	return n;
}

/* Call the policy notifier chain as cpufreq_online()/offline() do. */
void sen_cpufreq_notify(unsigned long event, struct cpufreq_policy *policy)
{
	struct notifier_block *nb;

	for (nb = sen_policy_chain; nb; nb = nb->next)
		if (nb->notifier_call(nb, event, policy) & NOTIFY_STOP_MASK)
			break;
}

/* ---- CPU hotplug states ---- */

#define SEN_MAX_CPUHP	(CPUHP_AP_ONLINE_DYN_END - CPUHP_AP_ONLINE_DYN)

static struct {
	const char *name;
	int (*startup)(unsigned int cpu);
	int (*teardown)(unsigned int cpu);
} sen_cpuhp[SEN_MAX_CPUHP];
static unsigned int sen_nr_cpuhp;

int cpuhp_setup_state_nocalls(enum cpuhp_state state, const char *name,
			      int (*startup)(unsigned int cpu),
			      int (*teardown)(unsigned int cpu))
{
	if (state != CPUHP_AP_ONLINE_DYN)
		return -EINVAL;
	if (sen_nr_cpuhp == SEN_MAX_CPUHP)
		return -ENOSPC;
	sen_cpuhp[sen_nr_cpuhp].name = name;
	sen_cpuhp[sen_nr_cpuhp].startup = startup;
	sen_cpuhp[sen_nr_cpuhp].teardown = teardown;
	return CPUHP_AP_ONLINE_DYN + sen_nr_cpuhp++;
}

unsigned int sen_cpuhp_states(void)
{
	return sen_nr_cpuhp;
}

/* Run the callbacks of a CPU coming online (@up) or going offline. */
void sen_cpuhp_run(unsigned int cpu, bool up)
{
	unsigned int i;

	for (i = 0; i < sen_nr_cpuhp; i++) {
		int (*fn)(unsigned int) = up ? sen_cpuhp[i].startup :
					       sen_cpuhp[i].teardown;

		if (fn && fn(cpu))
			sen_bug("cpuhp %s: callback failed for cpu%u",
				sen_cpuhp[i].name, cpu);
	}
}

/* ---- per-input reset ---- */

/* Forget every registration, as a new boot; check nothing is left held. */
void sen_kernel_reset(void)
{
	if (sen_locks_held || sen_cpus_read_locked || sen_rcu_nesting)
		sen_bug("locks left held: %d mutexes, %d cpus_read_lock, %d rcu_read_lock",
			sen_locks_held, sen_cpus_read_locked, sen_rcu_nesting);
	synchronize_rcu();
	sen_log_used = 0;
	if (sen_log_buf)
		sen_log_buf[0] = '\0';
	sen_nr_dentries = 0;
	while (sen_work_head) {
		struct work_struct *w = sen_work_head;

		sen_work_head = w->next;
		w->next = NULL;
		w->pending = false;
	}
	sen_policy_chain = NULL;
	sen_nr_cpuhp = 0;
	sen_alloc_count = 0;
	sen_fail_alloc_at = 0;
}
