# SPDX-License-Identifier: GPL-2.0
"""The figures of one evaluation run, and the other files of a run's directory.

An evaluation directory (guest/bin/se-eval, copied out by scripts/eval)
holds runs/WORKLOAD/MODE-ROUND.trace.gz, each with rt-app's logs in
runs/WORKLOAD/MODE-ROUND/.  analyse_run() gives a run's energy
(energy.trace_energy(), with rt-app's threads counted by their work,
rtapp.work_factors()), work done, slack, migrations, the modelled
lateness (perf.model_lateness()) and, for the LISA scenarios, the
placement check (lisa.lisa_check()) and LISA's slack criterion, all over
the run's measured window (rtapp.measured_window(): after the warm-up
phase for the LISA scenarios, the whole run for the others), rt-app's log
times moved to the trace's clock (rtapp.clock_offset()).

Slack has two views: the model's ("model_late": per task, the share of
activations whose modelled run time on the real board exceeds their
period; "model_late_worst", "model_slack_pass") and the host's (rt-app's
own negative slack on QEMU: "slack_neg", "slack_neg_worst",
"host_slack_pass").  LISA's criterion (at most rtapp.SLACK_PCT % of each
task's activations late) is judged on the model's: lisa "slack_pass"; the
host's verdict is kept next to it as lisa "host_slack_pass".
"""
import json
import os
import re

from .energy import energy_floor, periodic_bound, trace_energy
from .lisa import lisa_check
from .model import load_model
from .perf import model_lateness
from .rtapp import (SLACK_PCT, activations, clock_offset, log_index, log_work, measured_window,
                    slack, thread_pids, work_factors)
from .trace import Trace, busy_by_pid, kthread_time, rtapp_segments


def periodic_tasks_bound(doms, tr, acts, wall_s, t0, t1):
    """energy.periodic_bound() of a run whose rt-app threads with work all
    repeat one activation (the same configured work every time, to 5%)
    with one period (to 5%: a period read off the starts wobbles with the
    host) all through the window (their activations times the period
    cover it, to 10%), every such thread seen running; None for any other
    run.  A thread's period is its timer's, or without a timer (a thread
    another one resumes, as in the examples' chains) the median time
    between its activations' starts; threads that do no work (a timer
    that only resumes another thread) are left out.  A thread's observed
    utilization is its traced running time over the window.  The bound
    does not know a chain's order: it may run a chain's links side by
    side.  acts: rtapp.activations() of the window [t0, t1)."""
    if wall_s <= 0:
        return None
    pid_of = thread_pids(tr)
    busy = busy_by_pid(tr, t0, t1)
    tasks, periods = [], []
    for name, rows in acts.items():
        work = [a["c_duration"] for a in rows]
        if rows and not any(work):
            continue
        pid = pid_of.get(log_index(name))
        if (len(rows) < 3 or not busy.get(pid) or min(work) <= 0 or
                max(work) > 1.05 * min(work)):
            return None
        if all(a["c_period"] > 0 for a in rows):
            timer = sorted(a["c_period"] for a in rows)
            if timer[-1] > 1.05 * timer[0]:
                return None
            period = timer[len(rows) // 2]
        else:
            gaps = sorted(b["start"] - a["start"] for a, b in zip(rows, rows[1:]))
            period = gaps[len(gaps) // 2]
        if period <= 0 or abs(len(rows) * period * 1e-6 - wall_s) > 0.1 * wall_s:
            return None
        periods.append(period)
        tasks.append((sum(work) * 1e-6, busy[pid] / wall_s * 1024))
    if not tasks or max(periods) > 1.05 * min(periods):
        return None
    return periodic_bound(doms, tasks, wall_s, sorted(periods)[len(periods) // 2])


def analyse_run(doms, wl, path, cache):
    """(figures, segments, trace) of the run traced in path (a .trace.gz),
    of workload wl (rtapp.load_workloads()); cache: lisa.optimum()'s.
    Energies in mJ (a uW model).  segments: rtapp_segments() of the whole
    run, for the plots."""
    tr = Trace(path)
    logdir = path[:-len(".trace.gz")]
    lisa = lisa_check(doms, tr, wl, cache) if wl["kind"] == "lisa" else None
    t0, t1 = measured_window(tr, wl) or (tr.start, tr.end)
    off = clock_offset(tr, logdir)
    factor = work_factors(tr, logdir, t0, t1, off)
    e = trace_energy(doms, tr, t0, t1, factor)
    raw = trace_energy(doms, tr, t0, t1)
    ideal = trace_energy(doms, tr, t0, t1, factor, ideal_idle=True)
    per = slack(logdir, t0, t1, off)
    late = model_lateness(doms, tr, logdir, t0, t1, off)
    pids = set(tr.rtapp)
    work = sum(log_work(logdir, t0, t1, off).values())
    acts = activations(logdir, t0, t1, off)
    timed = [(a["c_duration"], a["c_period"]) for rows in acts.values()
             for a in rows if a["c_period"] > 0]
    bound = periodic_tasks_bound(doms, tr, acts, e["wall_s"], t0, t1)
    migr = sum(1 for t, k, c, a, b in tr.ev if k == "m" and a in pids and t0 <= t < t1)
    r = {"window": [t0, t1], "clock_offset_s": off,
         "energy_mj": e["total"] / 1000, "active_mj": e["active"] / 1000,
         "idle_mj": e["idle"] / 1000, "traced_active_mj": e["traced_active"] / 1000,
         "traced_mj": raw["total"] / 1000, "ideal_idle_mj": ideal["total"] / 1000,
         "work_s": work, "floor_mj": energy_floor(doms, work, e["wall_s"], timed) / 1000,
         "bound_mj": bound / 1000 if bound is not None else None,
         "stretch": (sum(1 / f for f in factor.values()) / len(factor)) if factor else 1.0,
         "overrun_ms": e["overrun_ms"], "wall_s": e["wall_s"], "migrations": migr,
         "decisions": tr.decisions, "wakeups": tr.wakeups,
         "kthread_ms": {k: 1000 * v for k, v in kthread_time(tr, t0, t1).items()},
         "clusters": [{"cpus": c["cpus"], "energy_mj": (c["active"] + c["idle"]) / 1000,
                       "active_mj": c["active"] / 1000, "idle_mj": c["idle"] / 1000,
                       "opp_residency": c["opp_residency"]} for c in e["clusters"]],
         "cpus": {str(c): {"energy_mj": (v["active"] + v["idle"]) / 1000,
                           "busy_s": v["busy_s"]} for c, v in e["cpus"].items()},
         "slack_neg": per,
         "slack_neg_worst": max(per.values()) if per else 0.0,
         "host_slack_pass": all(v <= SLACK_PCT / 100 for v in per.values()),
         "model_late": {k: v["late"] for k, v in late["tasks"].items()},
         "model_late_worst": late["worst"], "model_slack_pass": late["pass"],
         "model_ratio_median": {k: v["ratio_median"] for k, v in late["tasks"].items()},
         "model_unpriced": late["unpriced"]}
    if lisa:
        traced = lisa_check(doms, tr, wl, cache, traced=True)
        lisa["traced_ratio"] = traced["ratio"]
        lisa["traced_pass"] = traced["pass"]
        lisa["slack_pass"] = r["model_slack_pass"]
        lisa["host_slack_pass"] = r["host_slack_pass"]
        lisa["estimate_mj"] = lisa.pop("estimate") / 1000
        lisa["optimum_mj"] = lisa.pop("optimum") / 1000
        r["lisa"] = lisa
    return r, rtapp_segments(tr, tr.start, tr.end), tr


def active_energy(model, trace):
    """The as-traced active energy (mJ) of a trace's run, "se: start" to
    "se: end", board and per cluster: what idlestat computes, for
    scripts/idlestat-check's cross-check."""
    doms, unit = load_model(model)
    tr = Trace(trace)
    e = trace_energy(doms, tr, tr.start, tr.end)
    scale = 1e-3 if unit == "uW" else 1.0
    return {"window": [tr.start, tr.end],
            "active_mj": e["traced_active"] * scale,
            "clusters": [{"cpus": c["cpus"], "active_mj": c["traced_active"] * scale}
                         for c in e["clusters"]]}


def active_only(model, trace):
    """Print active_energy() as JSON (scripts/eval-analyse --active)."""
    print(json.dumps(active_energy(model, trace)))


def decision_cost(path):
    """The KUnit decision-cost benchmark's lines in a console log, as
    [{"kind": "sums" or "whole", "cpus": .., "domains": .., "opps": ..,
    "ns_per_decision": .., ...}]: "sums" the energy sums of a decision,
    "whole" the whole decision (sched_energy_decision_whole lines)."""
    rows = []
    if not os.path.exists(path):
        return rows
    with open(path, errors="replace") as f:
        for line in f:
            m = re.search(r"sched_energy_decision_(cost|whole): (cpus=.*)$", line)
            if m:
                row = {"kind": "sums" if m.group(1) == "cost" else "whole"}
                row.update(kv.split("=") for kv in m.group(2).split())
                rows.append(row)
    return rows
