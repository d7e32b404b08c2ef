# SPDX-License-Identifier: GPL-2.0
"""rt-app: its logs and trace markers, and the evaluation's workloads.

rt-app (Debian's 1.0, rebuilt by scripts/build-rtapp so that "runtime"
counts CPU time; with "ftrace": true) writes to trace_marker, from each
thread of index IDX:

  "[IDX] starts"                            once, as the thread starts
  "[IDX] begins loop L phase P step S"      at each activation
  "[IDX] exiting"                           as it ends

and logs each activation in LOGDIR/NAME-IDX.log, one line of

  idx perf run period start end rel_st slack c_duration c_period wu_lat

(times in us; start and end CLOCK_MONOTONIC just before the
activation's first event and just after its last, so [start, end] holds
its run and its timer's sleep; c_duration the configured run time, the
work at capacity 1024 and the top OPP (the calibration is measured there);
c_period the timer's period, 0 without a timer; slack the time left to the
timer's next expiry when the activation's run ended).

Clocks (clock_offset()).  The trace's clock is not CLOCK_MONOTONIC: on
the emulated boards the two differ by a constant (0.166 s on juno-r0),
enough to shift every activation by ten periods.  The offset is taken per
run from the markers: the n-th "[IDX] begins loop" marker of thread IDX
is written just before the n-th row's start is read, so offset = the
median over the rows of (marker time - start); a log's start + offset is
its time in the trace.  Without markers the offset is 0 (the log's clock
is taken to be the trace's).  Every log time below is shifted by it.

Measured window.  The LISA scenarios (scripts/eval-workloads, lisa())
start each task with a warm-up phase, a copy of its first phase, that is
not measured; the examples (mp3, video, browser) have none.  For a LISA
scenario the window runs from the end of the warm-up (the last of its
tasks to begin its phase 1) to the first of its tasks to exit (or the
"se: end" marker); otherwise it is the whole run, "se: start" to "se: end".
Energy, work, work factors, slack and migrations are all taken over it.

Work factor of a thread (work_factors()): its configured work done in the
window (the c_duration of its activations that start in it) over its
traced running time in the window.  The workloads' "runtime" events run
for so much of the thread's CPU time, so the factor is about 1 (the few
events shorter than rt-app's 32 us work chunk overshoot); with "run"
events (a fixed number of calibrated loops, the workloads before
0a2053a) the trace shows longer running times when the host is slow or
its two cores are shared by more busy vCPUs than they can run, and
counting the running time times this factor counts the thread's work,
not the host's speed.  Clamped to [0.05, 1.5].

Slack (LISA's test_slack): an activation with a timer missed its deadline
when its slack is negative; a task passes when at most SLACK_PCT % of its
activations in the window did.  QEMU shares two host cores among the
vCPUs: rt-app's negative slack here measures emulation load as much as
the policy, so it is the host's view; the model's view, judged by the
same criterion, is perf.py's modelled lateness.
"""
import os
import re
import statistics

from .trace import busy_by_pid

SLACK_PCT = 15
COLUMNS = ("idx", "perf", "run", "period", "start", "end", "rel_st", "slack",
           "c_duration", "c_period", "wu_lat")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
PHASE = re.compile(r"\[\d+\] begins loop \d+ phase (\d+)")
BEGINS = re.compile(r"\[(\d+)\] begins loop ")
LOG_IDX = re.compile(r"-(\d+)$")
START = re.compile(r"\[(\d+)\] starts")


def activations(logdir, t0=None, t1=None, offset=0.0):
    """{log name (file name without .log): [activation, ...]}, each a dict
    of the log's columns (ints), those starting in [t0, t1) (trace seconds;
    None: unbounded), a start of s us being at s / 1e6 + offset in the
    trace (clock_offset()).  An absent logdir has none."""
    out = {}
    if not os.path.isdir(logdir):
        return out
    for f in sorted(os.listdir(logdir)):
        if not f.endswith(".log"):
            continue
        rows = []
        with open(os.path.join(logdir, f), errors="replace") as fh:
            for line in fh:
                w = line.split()
                if len(w) < len(COLUMNS) or w[0].startswith("#"):
                    continue
                try:
                    a = dict(zip(COLUMNS, map(int, w)))
                except ValueError:          # a line cut short
                    continue
                t = a["start"] / 1e6 + offset
                if t0 is not None and t < t0:
                    continue
                if t1 is not None and t >= t1:
                    continue
                rows.append(a)
        out[f[:-len(".log")]] = rows
    return out


def log_index(name):
    """The thread index of a log name ("mp3-AudioOut-1": 1); None if none."""
    m = LOG_IDX.search(name)
    return int(m.group(1)) if m else None


def thread_pids(tr):
    """{thread index: pid} of rt-app's threads, from their "[IDX] starts"."""
    pid_of = {}
    for t, pid, comm, text in tr.markers:
        m = START.match(text)
        if m:
            pid_of[int(m.group(1))] = pid
    return pid_of


def clock_offset(tr, logdir):
    """The trace's time minus rt-app's (CLOCK_MONOTONIC), in seconds (see
    the top): the median over the log rows of each thread of (its n-th
    "begins loop" marker - its n-th start); 0.0 without markers or logs."""
    begins = {}
    for t, pid, comm, text in tr.markers:
        m = BEGINS.match(text)
        if m:
            begins.setdefault(int(m.group(1)), []).append(t)
    diffs = []
    for name, rows in activations(logdir).items():
        for t, a in zip(begins.get(log_index(name), []), rows):
            diffs.append(t - a["start"] / 1e6)
    return statistics.median(diffs) if diffs else 0.0


def log_work(logdir, t0=None, t1=None, offset=0.0):
    """{thread index: configured work done (s)} of the activations that
    start in [t0, t1) (sum of c_duration)."""
    work = {}
    for name, rows in activations(logdir, t0, t1, offset).items():
        idx = log_index(name)
        if idx is not None:
            work[idx] = sum(a["c_duration"] for a in rows) * 1e-6
    return work


def work_factors(tr, logdir, t0, t1, offset=0.0):
    """{pid: work factor} of rt-app's threads over [t0, t1) (see the top)."""
    work = log_work(logdir, t0, t1, offset)
    pid_of = thread_pids(tr)
    busy = busy_by_pid(tr, t0, t1)
    out = {}
    for idx, w in work.items():
        pid = pid_of.get(idx)
        if w > 0 and pid is not None and busy.get(pid):
            out[pid] = min(1.5, max(0.05, w / busy[pid]))
    return out


def slack(logdir, t0=None, t1=None, offset=0.0):
    """{log name: share of its timed activations in [t0, t1) with negative
    slack}, for the logs that have any (the host's view, see the top)."""
    per = {}
    for name, rows in activations(logdir, t0, t1, offset).items():
        timed = [a for a in rows if a["c_period"] > 0]
        if timed:
            per[name] = sum(a["slack"] < 0 for a in timed) / len(timed)
    return per


def has_warmup(wl):
    """Whether a workload (of load_workloads()) starts with a warm-up phase:
    the LISA scenarios do (scripts/eval-workloads, lisa())."""
    return wl["kind"] == "lisa"


def phase_changes(tr, names):
    """[(t, pid, phase)] of the rt-app threads named in names, from their
    "begins loop L phase P" markers."""
    out = []
    for t, pid, comm, text in tr.markers:
        m = PHASE.match(text)
        if m and comm in names:
            out.append((t, pid, int(m.group(1))))
    return out


def measured_window(tr, wl):
    """(t0, t1) of the run that is measured (see the top); None for a
    workload with a warm-up whose markers do not show its end."""
    if not has_warmup(wl):
        return tr.start, tr.end
    names = {t["name"] for t in wl["tasks"]}
    first = {}
    for t, pid, phase in phase_changes(tr, names):
        if phase == 1:
            first.setdefault(pid, t)
    if not first:
        return None
    tasks = {pid for t, pid, comm, text in tr.markers if comm in names}
    exits = [t for t, pid, comm, text in tr.markers if pid in tasks and "exiting" in text]
    t0 = max(first.values())
    t1 = min(exits + [tr.end])
    return (t0, t1) if t1 > t0 else None


def load_workloads():
    """The workloads' manifest (scripts/eval-workloads, manifest())."""
    from importlib.machinery import SourceFileLoader
    import importlib.util
    loader = SourceFileLoader("eval_workloads", os.path.join(ROOT, "scripts", "eval-workloads"))
    spec = importlib.util.spec_from_loader("eval_workloads", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod.manifest()
