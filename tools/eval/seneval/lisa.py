# SPDX-License-Identifier: GPL-2.0
"""LISA's placement check (lisa_tests eas_behaviour test_task_placement).

For the LISA scenarios, each task's expected utilization is its duty cycle
(x 1024 / 100) in the phase its rt-app markers say it is in, and it is
counted on the CPU it last ran on (sched_switch).  The power of a placement
(per-CPU utilizations u) is, per domain, at the lowest OPP k whose capacity
covers the domain's largest utilization u_max (ideal DVFS; the top OPP if
none does), each CPU active a = min(1, u / cap_k), idle in the deepest
state (ideal cpuidle):

  P = sum_domain [ sum_cpu (a P_cpu(k) + (1 - a) P_cpu_idle(deepest))
                   + max(a) P_cluster(k) + (1 - max(a)) P_cluster_idle(deepest) ]

The optimum is the least P over every placement of the same tasks on the
board's CPUs (ncpus ^ ntasks of them; placements that differ only in which
of a domain's alike CPUs holds what are tried once) that leaves each CPU 20% spare
capacity (u / 0.8 <= its top capacity), ranked with OPPs chosen with that
margin (cap_k * 0.8 >= u_max) and then priced as above; the estimate is the
same P for the placement the trace shows.  Both are integrated over the
measured window (rtapp.measured_window(): after the warm-up); the check
passes when estimate <= optimum x (1 + threshold / 100).

When no placement leaves 20% spare (two big tasks on a board with one big
CPU, as the three-cluster 4 + 3 + 1 board), LISA finds no optimum; here
the placements that fit each CPU's top capacity without the margin are
taken instead, and if none does either, those with the least load beyond
the CPUs' capacities (the least work that cannot be done in time), each
set again ranked with the margin.  So a big task goes to the largest CPUs
left, never to a small CPU priced as merely fully busy.

The same check is also made with each task's utilization per phase as it
ran (traced running time over wall time; lisa_check(traced=True)): rt-app's
own work per activation makes a task larger than its duty cycle on the
emulator, and a policy that places the larger task well is judged against
the optimum for that task, not for a smaller one it never saw.
"""

from .rtapp import measured_window, phase_changes
from .trace import rtapp_segments

MARGIN = 0.8


def lisa_power(d, utils, margin=1.0):
    """P of one domain (see the top), utils: its CPUs' utilizations."""
    umax = max(utils)
    k = next((k for k, o in enumerate(d["opp"]) if o["cap"] * margin >= umax), len(d["opp"]) - 1)
    o, deep = d["opp"][k], d["idle"][-1]
    acts = [min(1.0, u / o["cap"]) for u in utils]
    p = sum(a * o["cpu"] + (1 - a) * deep["cpu"] for a in acts)
    amax = max(acts)
    return p + amax * o["cluster"] + (1 - amax) * deep["cluster"]


def board_power(doms, per_cpu, margin=1.0):
    """P of the board, per_cpu: {cpu: utilization} (others idle)."""
    return sum(lisa_power(d, [per_cpu.get(c, 0.0) for c in d["cpus"]], margin) for d in doms)


def placements(doms, n):
    """Every placement of n tasks on the CPUs of doms, as a tuple of CPUs,
    but one per set of placements that differ only in which of a domain's
    CPUs (alike: same OPPs and idle states) holds which tasks: a task goes
    to a CPU of its domain that earlier tasks use, or to the first unused
    one.  Four, three and one CPUs and five tasks: 1,193 placements instead of
    32,768."""
    def rec(i, place, used):
        if i == n:
            yield tuple(place)
            return
        for k, d in enumerate(doms):
            for c in d["cpus"][:used[k] + 1]:
                place.append(c)
                more = c == d["cpus"][used[k]] if used[k] < len(d["cpus"]) else False
                used[k] += more
                yield from rec(i + 1, place, used)
                used[k] -= more
                place.pop()
    yield from rec(0, [], [0] * len(doms))


def optimum(doms, utils, cache):
    """The least P over the placements of tasks of utilizations utils (see
    the top).  cache: a dict kept between calls for the same model."""
    key = tuple(sorted(utils))
    if key in cache:
        return cache[key]
    cap = {c: d["opp"][-1]["cap"] for d in doms for c in d["cpus"]}
    best, best_rank = None, None
    for place in placements(doms, len(utils)):
        load = {}
        for u, c in zip(utils, place):
            load[c] = load.get(c, 0.0) + u
        excess = sum(max(0.0, v - cap[c]) for c, v in load.items())
        spare = not excess and all(v <= 1024 and v / MARGIN <= cap[c] for c, v in load.items())
        # Placements with 20% spare first, then those that fit, then by
        # the least excess; each by P with the margin's OPPs.
        rank = (0 if spare else 1 if not excess else 2, excess)
        if best_rank is not None and rank > best_rank[:2]:
            continue
        rank += (board_power(doms, load, MARGIN),)
        if best_rank is None or rank < best_rank:
            best, best_rank = load, rank
    cache[key] = board_power(doms, best) if best is not None else 0.0
    return cache[key]


def traced_utils(tr, phase_starts, t1):
    """{(pid, phase start): utilization} of each rt-app phase as it ran:
    the thread's traced running time over the phase's wall time x 1024
    (whole units, so that the optimum's cache serves every interval of
    a phase), phase_starts: {pid: [(t, phase), ...]} in time order, each
    phase ending where the next begins (the last at t1)."""
    spans = {}
    for segs in rtapp_segments(tr, tr.start, t1).values():
        for start, length, pid in segs:
            spans.setdefault(pid, []).append((tr.start + start, tr.start + start + length))
    out = {}
    for pid, starts in phase_starts.items():
        for i, (a, _) in enumerate(starts):
            b = starts[i + 1][0] if i + 1 < len(starts) else t1
            busy = sum(max(0.0, min(e, b) - max(s, a)) for s, e in spans.get(pid, []))
            out[(pid, a)] = round(1024 * busy / (b - a)) if b > a else 0
    return out


def lisa_check(doms, tr, wl, cache, traced=False):
    """The estimated and the optimal energy of a LISA scenario's run over its
    measured window (see the top), as {"estimate", "optimum" (model unit x
    s), "ratio", "threshold_pct", "pass", "window_s", "measured_from"}; None
    if the run's markers do not show the window.

    traced: each task's utilization in a phase is the one it ran at
    (traced_utils()), not its duty cycle: rt-app's own work per activation
    (logging, timers; 0.2-0.8 ms on the emulator) makes a "20%" task a
    21-25% one, which the policies see and place as such, and which the
    optimum then places the same way."""
    win = measured_window(tr, wl)
    if win is None:
        return None
    t0, t1 = win
    # Each task's duty cycle (%) per rt-app phase: phase 0 the warm-up.
    phases = {t["name"]: [t["phases"][0][0]] + [p[0] for p in t["phases"]] for t in wl["tasks"]}
    tasks = {pid: comm for t, pid, comm, text in tr.markers if comm in phases}
    changes = [(t, pid, "p", phase) for t, pid, phase in phase_changes(tr, phases)]
    changes += [(t, a, "c", cpu) for t, kind, cpu, a, b in tr.ev if kind == "s" and a in tasks]
    changes.sort(key=lambda c: c[0])
    util_of = None
    if traced:
        starts = {}
        for t, pid, kind, val in changes:
            if kind == "p":
                starts.setdefault(pid, []).append((t, val))
        util_of = traced_utils(tr, starts, t1)
    where, phase, since = {}, {}, {}
    est = opt = 0.0
    last = None
    for t, pid, kind, val in changes + [(t1, None, "end", None)]:
        if last is not None and t > t0 and len(where) == len(tasks) == len(phase):
            a, b = max(last, t0), min(t, t1)
            if b > a:
                load, utils = {}, []
                for p in tasks:
                    duty = phases[tasks[p]]
                    if util_of is not None:
                        u = util_of[(p, since[p])]
                    else:
                        u = duty[min(phase[p], len(duty) - 1)] * 10.24
                    load[where[p]] = load.get(where[p], 0.0) + u
                    utils.append(u)
                est += board_power(doms, load) * (b - a)
                opt += optimum(doms, utils, cache) * (b - a)
        if t >= t1:
            break
        last = t
        if kind == "p":
            phase[pid] = val
            since[pid] = t
        elif kind == "c":
            where[pid] = val
    thr = wl["threshold_pct"]
    return {"estimate": est, "optimum": opt, "ratio": est / opt if opt else None,
            "threshold_pct": thr, "pass": bool(opt) and est <= opt * (1 + thr / 100),
            "window_s": t1 - t0, "measured_from": t0}
