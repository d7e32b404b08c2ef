# SPDX-License-Identifier: GPL-2.0
"""Performance from the model: each rt-app activation's lateness on the real board.

QEMU runs every vCPU at one speed, whatever its capacity and OPP, and
shares two host cores among all the vCPUs: rt-app's own slack (rtapp.py)
measures the host as much as the policy.  Here each activation is priced
on the real board instead, at the capacities and OPPs it actually ran at.

An activation of an rt-app thread (one row of its log, rtapp.py) does
c_duration us of work at capacity 1024 and the top OPP (rt-app's
calibration is measured there), within [start, end] (its run and its
timer's sleep; log times shifted to the trace's clock,
rtapp.clock_offset()).  Its traced running time in [start, end]
(sched_switch, the thread's pid from its "[IDX] starts" marker) is split
by the capacity cap_k of the OPP k of its CPU's domain in force (the
domain's last cpu_frequency event, trace_marker ones included; the same
OPP bookkeeping as energy.py): b_k.  The traced times are host-distorted;
only their mix is trusted, so the work done at k is c_duration * b_k /
sum(b), and the modelled run time is

  R = sum_k c_duration * (b_k / sum b) * 1024 / cap_k

(one OPP of capacity cap: R = c_duration * 1024 / cap).  Running time
before its domain's first known OPP is left out of b; an activation with
c_duration > 0 and no priced running time in [start, end] is not counted
(reported as "unpriced").  The modelled wait (wakeup to first run) is 0:
on QEMU it is host queueing, so this figure prices placement and
frequency, not queueing delay.

An activation with a timer (c_period > 0) is late when R > c_period (its
deadline is its period).  Per task (log name): the late share of its
timed activations that start in the measured window [t0, t1)
(rtapp.measured_window(), like the slack).  Per run: the worst task's
share, and LISA's slack criterion (lisa_tests test_slack) judged on the
model: every task late in at most rtapp.SLACK_PCT % of its activations.
"""
import bisect
import statistics

from .model import domain_of
from .rtapp import SLACK_PCT, activations, log_index, thread_pids


def run_segments(doms, tr):
    """{pid: ([start, ...], [end, ...], [cap or None, ...])} of rt-app's
    threads (Trace.rtapp) over the whole trace, one entry per stretch of
    running on one CPU at one OPP (cap: the OPP's capacity; None before
    the domain's first known OPP), in time order."""
    dom = domain_of(doms)
    ncpu = len(dom)
    freq_idx = [{o["freq"]: k for k, o in enumerate(d["opp"])} for d in doms]
    opp = [None] * len(doms)
    running = {}                        # cpu: (pid, since)
    segs = {}

    def close(cpu, t):
        pid, since = running.pop(cpu)
        if t > since:
            i, k = dom[cpu], opp[dom[cpu]]
            s = segs.setdefault(pid, [])
            s.append((since, t, None if k is None else doms[i]["opp"][k]["cap"]))

    for t, kind, cpu, a, b in tr.ev:
        if cpu is None or cpu >= ncpu:
            continue
        if kind == "s":
            if cpu in running:
                close(cpu, t)
            if a in tr.rtapp:
                running[cpu] = (a, t)
        elif kind == "f":
            i = dom[cpu]
            k = freq_idx[i].get(a, opp[i])
            if k != opp[i]:
                for c in doms[i]["cpus"]:
                    if c in running:
                        pid = running[c][0]
                        close(c, t)
                        running[c] = (pid, t)
                opp[i] = k
    for cpu in list(running):
        close(cpu, max(tr.last, running[cpu][1]))
    out = {}
    for pid, s in segs.items():
        s.sort()
        out[pid] = ([x[0] for x in s], [x[1] for x in s], [x[2] for x in s])
    return out


def modelled_run(segs, s, e, c_duration):
    """R (us) of an activation over [s, e] (trace seconds) with c_duration
    us of work, segs: run_segments()'s entry of its thread (see the top);
    None if it is unpriced."""
    if c_duration <= 0:
        return 0.0
    if segs is None:
        return None
    starts, ends, caps = segs
    b = {}
    j = max(0, bisect.bisect_right(starts, s) - 1)
    while j < len(starts) and starts[j] < e:
        d = min(ends[j], e) - max(starts[j], s)
        if d > 0 and caps[j]:
            b[caps[j]] = b.get(caps[j], 0.0) + d
        j += 1
    tot = sum(b.values())
    if tot <= 0:
        return None
    return sum(c_duration * bk / tot * 1024 / cap for cap, bk in b.items())


def model_lateness(doms, tr, logdir, t0, t1, offset=0.0):
    """The modelled lateness of a run's rt-app activations starting in
    [t0, t1) (see the top), offset: rtapp.clock_offset(), as

      {"tasks": {log name: {"n": timed activations priced, "late": share
                            late, "ratio_median": median R / c_period}},
       "worst": the largest "late" (0.0 without any), "pass": every task
       within SLACK_PCT %, "unpriced": timed activations not priced}
    """
    segs = run_segments(doms, tr)
    pid_of = thread_pids(tr)
    tasks, unpriced = {}, 0
    for name, rows in activations(logdir, t0, t1, offset).items():
        pid = pid_of.get(log_index(name))
        late, ratios = 0, []
        for a in rows:
            if a["c_period"] <= 0:
                continue
            r = modelled_run(segs.get(pid), a["start"] / 1e6 + offset,
                             a["end"] / 1e6 + offset, a["c_duration"])
            if r is None:
                unpriced += 1
                continue
            late += r > a["c_period"]
            ratios.append(r / a["c_period"])
        if ratios:
            tasks[name] = {"n": len(ratios), "late": late / len(ratios),
                           "ratio_median": statistics.median(ratios)}
    worst = max((v["late"] for v in tasks.values()), default=0.0)
    return {"tasks": tasks, "worst": worst, "unpriced": unpriced,
            "pass": all(v["late"] <= SLACK_PCT / 100 for v in tasks.values())}
