# SPDX-License-Identifier: GPL-2.0
"""The events of an ftrace text trace that the analysis uses.

A line of /sys/kernel/tracing/trace (folded here; the flags column, and
a "(TGID)" column before the CPU, are optional):

      COMM-PID    [CPU] FLAGS  TIMESTAMP: EVENT: TEXT
    small-1240    [002] d..2.  123.456789: sched_switch: prev_comm=small
        prev_pid=1240 prev_prio=120 prev_state=S ==> next_comm=swapper/2 next_pid=0 ...

Trace(path) keeps, in time order, Trace.ev: tuples (t, kind, cpu, a, b):

  "s"  sched_switch            cpu: the line's CPU; a: next_pid (0: the
                               idle task); b: next_comm
  "i"  cpu_idle                cpu: cpu_id; a: the state entered, -1 on an
                               exit (state 4294967295)
  "f"  cpu_frequency           cpu: cpu_id; a: the frequency (kHz).  Also a
                               trace_marker line "cpu_frequency: state=KHZ
                               cpu_id=CPU": the event only records changes,
                               so the scripts write each CPU's frequency at
                               the start that way
  "m"  sched_migrate_task      cpu: dest_cpu; a: pid; b: orig_cpu
  "k"  hrtimer_expire_entry of tick_sched_timer (a scheduler tick)
                               cpu: the line's CPU
  "b"  sen_balance             cpu: the line's CPU (a balancer's move)

"k" and "b" have a = b = None.  Also: Trace.markers, every other
trace_marker line as (t, pid, comm, text); Trace.start and Trace.end, the
times of the "se: start" and "se: end" markers (guest/bin/se-eval writes
them around a run); Trace.first and Trace.last, the times of the first and
last lines read; Trace.rtapp, {pid: comm} of rt-app's threads (each writes
"[IDX] starts" itself); Trace.decisions and Trace.wakeups, the numbers of
sched-energy's placement decisions and of sched_wakeup* events in the
whole trace.  The decisions are what a "se: decisions N" marker says
(guest/bin/se-eval writes one from the policy's debugfs counters), or
without one the number of sen_decision events.
"""
import gzip
import re

from . import Error

LINE = re.compile(r"^\s*(.*?)-(\d+)\s+(?:\(\s*[\d-]+\)\s+)?\[(\d+)\]\s+(?:\S+\s+)?"
                  r"(\d+\.\d+): (\w+): (.*)$")
STATE_CPU = re.compile(r"state=(\d+) cpu_id=(\d+)")
SWITCH = re.compile(r"next_comm=(.*) next_pid=(\d+)")
MIGRATE = re.compile(r" pid=(\d+) .*orig_cpu=(\d+) dest_cpu=(\d+)")
RTAPP_START = re.compile(r"\[(\d+)\] starts")
IDLE_EXIT = -1


class TraceError(Error):
    pass


class Trace:
    """The events of one trace that the analysis uses (see the top).

    need_markers: without an "se: start" and an "se: end" marker, raise
    TraceError (an incomplete evaluation run); if False, a missing marker's
    time is that of the first (start) or last (end) line instead.
    """

    def __init__(self, path, need_markers=True):
        self.ev = []
        self.markers = []
        self.start = self.end = self.first = self.last = None
        self.decisions = self.wakeups = 0
        self._counted = None
        opener = gzip.open if path.endswith(".gz") else open
        try:
            with opener(path, "rt", errors="replace") as f:
                for line in f:
                    self._line(line)
        except (OSError, EOFError) as e:
            raise TraceError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None
        if self.first is None:
            raise TraceError(f"{path}: no trace event")
        if need_markers and (self.start is None or self.end is None):
            raise TraceError(f"{path}: no se: start/end marker (incomplete run?)")
        if self.start is None:
            self.start = self.first
        if self.end is None:
            self.end = self.last
        self.ev.sort(key=lambda e: e[0])
        if self._counted is not None:
            self.decisions = self._counted
        self.rtapp = {pid: comm for t, pid, comm, text in self.markers
                      if RTAPP_START.match(text)}

    def _line(self, line):
        m = LINE.match(line)
        if not m:
            return
        comm, pid, cpu, t, ev, rest = (m.group(1).strip(), int(m.group(2)), int(m.group(3)),
                                       float(m.group(4)), m.group(5), m.group(6))
        if self.first is None:
            self.first = t
        self.last = t
        if ev == "tracing_mark_write":
            if rest.startswith("cpu_frequency: "):
                ev, rest = "cpu_frequency", rest[len("cpu_frequency: "):]
            else:
                if rest.startswith("se: start"):
                    self.start = t
                elif rest.startswith("se: end"):
                    self.end = t
                elif rest.startswith("se: decisions "):
                    self._counted = int(rest.split()[2])
                self.markers.append((t, pid, comm, rest))
                return
        if ev == "sched_switch":
            s = SWITCH.search(rest)
            if s:
                self.ev.append((t, "s", cpu, int(s.group(2)), s.group(1)))
        elif ev == "cpu_idle":
            s = STATE_CPU.search(rest)
            if s:
                st = int(s.group(1))
                self.ev.append((t, "i", int(s.group(2)), IDLE_EXIT if st > 1000 else st, None))
        elif ev == "cpu_frequency":
            s = STATE_CPU.search(rest)
            if s:
                self.ev.append((t, "f", int(s.group(2)), int(s.group(1)), None))
        elif ev == "sched_migrate_task":
            s = MIGRATE.search(rest)
            if s:
                self.ev.append((t, "m", int(s.group(3)), int(s.group(1)), int(s.group(2))))
        elif ev == "hrtimer_expire_entry":
            if "function=tick_sched_timer" in rest:
                self.ev.append((t, "k", cpu, None, None))
        elif ev == "sen_balance":
            self.ev.append((t, "b", cpu, None, None))
        elif ev == "sen_decision":
            self.decisions += 1
        elif ev.startswith("sched_wakeup"):
            self.wakeups += 1


def busy_by_pid(tr, t0, t1):
    """{pid: traced running time in [t0, t1)}, from sched_switch."""
    cur, out = {}, {}
    for t, kind, cpu, a, b in tr.ev:
        if kind != "s":
            continue
        if t <= t0:
            cur[cpu] = (a, t0)
            continue
        if t >= t1:
            break
        if cpu in cur:
            pid, since = cur[cpu]
            out[pid] = out.get(pid, 0.0) + t - since
        cur[cpu] = (a, t)
    for pid, since in cur.values():
        out[pid] = out.get(pid, 0.0) + t1 - since
    return out


def rtapp_segments(tr, t0, t1):
    """{cpu: [(start, length, pid), ...]}: when each rt-app thread
    (Trace.rtapp) ran on each CPU in [t0, t1), start from t0."""
    segs, running = {}, {}
    for t, kind, cpu, a, b in tr.ev:
        if t >= t1:
            break
        if kind != "s":
            continue
        if cpu in running:
            pid, since = running.pop(cpu)
            if t > t0:
                segs.setdefault(cpu, []).append((max(since, t0) - t0, t - max(since, t0), pid))
        if a in tr.rtapp:
            running[cpu] = (a, t)
    for cpu, (pid, since) in running.items():
        segs.setdefault(cpu, []).append((max(since, t0) - t0, t1 - max(since, t0), pid))
    return segs


# Kernel threads whose CPU time is the scheduler's own overhead: the
# stopper (migration/N), softirqs run late (ksoftirqd/N), workqueues
# (kworker/...), RCU and the sched_energy governor's slow-path kthread.
KTHREAD = re.compile(r"^(migration|ksoftirqd|kworker|rcu_|sen_gov)")


def kthread_time(tr, t0, t1):
    """{"total": s, "migration": s, "ksoftirqd": s, "kworker": s, "other": s}:
    the running time in [t0, t1) of the kernel threads KTHREAD names, from
    sched_switch (each pid's comm as its switch-in names it)."""
    comm = {}
    for t, kind, cpu, a, b in tr.ev:
        if kind == "s" and a not in comm:
            comm[a] = b
    out = {"total": 0.0, "migration": 0.0, "ksoftirqd": 0.0, "kworker": 0.0, "other": 0.0}
    for pid, busy in busy_by_pid(tr, t0, t1).items():
        m = KTHREAD.match(comm.get(pid, "")) if pid else None
        if not m:
            continue
        key = m.group(1) if m.group(1) in out else "other"
        out[key] += busy
        out["total"] += busy
    return out
