# SPDX-License-Identifier: GPL-2.0
"""The evaluation's table: noise floor, paired ratios, verdicts, stalls.

Input: one record per run (a dict: workload, mode, round, boot and the
figures of the run's analysis, among them energy_mj and stall).  Every
comparison is against the reference mode (mainline EAS, "eas") round by
round (stats.py).  The A/A pair (eas2 against eas) is analysed exactly
like the real comparison and printed first: its interval is the smallest
difference the run can resolve.

Two figures are compared: the energy of the run over equal time (its
mean power over the measured window, power_mw), and the energy per
second of work done (rt-app's configured run time).  Equal time matters
for the LISA scenarios: their measured window runs from the last task's
end of warm-up to the first task's exit, and when a big task overruns
its periods on a contended host its warm-up ends late and the window
shrinks (0.5 to 1.9 s for TwoBigThreeSmall, nominally 2 s).  The two
figures agree when every mode does the same work; when a workload's work
depends on how fast its threads got through, or a mode drops work,
energy per work is the fair one.

Host stalls (stalls.py): a run whose stall share is over the budget and
more than twice its cell's median (the same workload and mode) is left
out with its round's pair, and counted: that is a host hiccup.  When a
cell's median is itself over the budget, the stalls follow the mode (it
loads the host more: more busy vCPUs at once, or spinning with
interrupts off); its runs are kept, since leaving them out would hide
what the mode does, and the table says so.
"""
from . import stalls, stats

REF = "eas"
AA = "eas2"
# The clean baseline: mainline EAS on the CONFIG_SCHED_ENERGY=n kernel
# (its own boot), as modes "off-eas" and "off-eas2".
OFF = "off-eas"

MODE_TEXT = {
    "cfs": "plain CFS + schedutil",
    "eas": "mainline EAS + schedutil",
    "eas2": "mainline EAS again (A/A)",
    "sen": "sched-energy + its governor",
    "senu": "sched-energy placement + schedutil",
    "easg": "mainline EAS placement + sched_energy governor",
    "perf": "mainline EAS + performance governor",
    "off-eas": "mainline EAS, CONFIG_SCHED_ENERGY=n kernel",
    "off-eas2": "the same again (A/A)",
}


def mode_text(m):
    """What a mode is, for the table's heading."""
    if m.startswith("senh") and m[4:].isdigit():
        return f"sched-energy, least headroom 1/{1 << int(m[4:])}"
    if m.startswith("seng") and m[4:].isdigit():
        return f"sched-energy, growth after {m[4:]} sample(s)"
    if m.startswith("senf") and m[4:].isdigit():
        return f"sched-energy, moved for room after {m[4:]} sample(s)"
    if m.startswith("senx") and m[4:].isdigit():
        return ("sched-energy, exec starts over" if m[4:] == "1" else
                "sched-energy, exec keeps its history")
    if m.startswith("senr") and m[4:].isdigit():
        return {"1": "sched-energy, raised within a span and held",
                "2": "sched-energy, raised at the tick, held as samples",
                "3": "sched-energy, held as samples but a step",
                "4": "sched-energy, held as samples but a step from 1/8"}.get(
                    m[4:], "sched-energy, raised at samples only")
    return MODE_TEXT.get(m, m)


def _share(r):
    return (r.get("stall") or {}).get("share", 0.0) * 100


def mark_left_out(records, budget_pct):
    """Set each record's left_out (a host hiccup, see the top) and work rate."""
    cells = {}
    for r in records:
        cells.setdefault((r["workload"], r["mode"]), []).append(_share(r))
        w = r.get("work_s")
        r["energy_per_work"] = r["energy_mj"] / w if w else None
        # mJ / s = mW; without a window length, the energy itself.
        r["power_mw"] = r["energy_mj"] / r["wall_s"] if r.get("wall_s") else r["energy_mj"]
        if r.get("ideal_idle_mj") is not None:
            r["power_ideal_mw"] = (r["ideal_idle_mj"] / r["wall_s"] if r.get("wall_s")
                                   else r["ideal_idle_mj"])
        if r.get("floor_mj") is not None and r.get("energy_mj"):
            r["floor_share"] = r["floor_mj"] / r["energy_mj"]
        if r.get("bound_mj") and r.get("energy_mj"):
            r["over_bound"] = r["energy_mj"] / r["bound_mj"]
            if r.get("ideal_idle_mj"):
                r["ideal_over_bound"] = r["ideal_idle_mj"] / r["bound_mj"]
    for r in records:
        med = stats.median(cells[(r["workload"], r["mode"])])
        r["left_out"] = _share(r) > budget_pct and _share(r) > 2 * med


def mode_stalls(records, budget_pct):
    """(workload, mode, median stall %) of cells whose median is over the budget."""
    cells = {}
    for r in records:
        cells.setdefault((r["workload"], r["mode"]), []).append(_share(r))
    return [(w, m, stats.median(v)) for (w, m), v in cells.items()
            if stats.median(v) > budget_pct]


def per_round(records, workload, mode, key):
    """{round: value} of the runs kept for a workload and mode."""
    return {r["round"]: r[key] for r in records
            if r["workload"] == workload and r["mode"] == mode and not r["left_out"]
            and r.get(key) is not None}


def compare(records, workload, mode, ref=REF, key="power_mw"):
    """Per-round paired ratios of mode against ref, summarised."""
    ratios = stats.paired_ratios(per_round(records, workload, mode, key),
                                 per_round(records, workload, ref, key))
    c = stats.compare(ratios)
    c["ratios"] = ratios
    return c


def pooled(records, workloads, mode, ref=REF, key="power_mw"):
    """Every workload's per-round ratios together, summarised."""
    xs = []
    for w in workloads:
        xs += list(compare(records, w, mode, ref, key)["ratios"].values())
    return stats.compare(xs)


SHORT = {"no difference": "no diff", "too few rounds": "few rnds"}


def _short(c):
    """A verdict in at most 8 characters, for the table."""
    return SHORT.get(c["verdict"], c["verdict"]) if c else ""


def _median(xs, digits=0):
    xs = [x for x in xs if x is not None]
    return f"{stats.median(xs):.{digits}f}" if xs else "-"


# The overhead benchmarks of se-eval (every figure: lower is better).
BENCH_TEXT = {"hackbench": "hackbench -g 4 -l 100, s",
              "hackbench-pipe": "hackbench -p -g 4 -l 100, s",
              "pingpong": "se_pingpong, ns per round trip",
              "latency": "cyclictest p99 wakeup latency, never-sleeping tasks on half the CPUs, us",
              "decision": "select_task_rq_fair() over se_pingpong's wakeups (function profiler), "
                          "ns per call"}


def bench_text(name):
    """What a benchmark's figure is (decision@W: the decision over workload W)."""
    if name.startswith("decision@"):
        return (f"select_task_rq_fair() over rt-app {name[len('decision@'):]}'s wakeups "
                "(function profiler), ns per call")
    return BENCH_TEXT.get(name, name)


# The resolution an overhead verdict needs: the throughput target is a
# time within 2% of mainline's.
BENCH_HALF_WIDTH = 0.02


def bench_table(benches, modes, out=print):
    """Per benchmark and mode: the median of per-round ratios to REF with
    its interval and verdict; after the A/A pair, the rounds it would need
    for an interval within +-BENCH_HALF_WIDTH (stats.rounds_for()).
    @benches: {name: {round: {mode: figure}}}."""
    summary = {}
    for name, per_round in benches.items():
        summary[name] = {}
        out(f"{name} ({bench_text(name)}), figure / {REF} per round, "
            f"{len(per_round)} round(s):")
        b = {r: v[REF] for r, v in per_round.items() if REF in v}
        for m in modes:
            if m == REF:
                continue
            a = {r: v[m] for r, v in per_round.items() if m in v}
            if not a:
                continue
            c = stats.compare(stats.paired_ratios(a, b))
            summary[name][m] = c
            out(f"  {m:<6} {stats.fmt(c)}  {c['verdict']}  (median {_median(a.values(), 3)})")
            need = stats.rounds_for(c, BENCH_HALF_WIDTH) if m == AA else None
            if need:
                c["rounds_needed"] = need
                out(f"         the A/A pair would need {need} rounds for an interval within "
                    f"+-{BENCH_HALF_WIDTH:.0%}")
    return summary


def table(records, meta, benches=None, budget_pct=None, out=print):
    """Print the table; return the summary (for results.json).
    @benches: the overhead benchmarks, {name: {round: {mode: figure}}}."""
    modes = meta["modes"]
    workloads = []
    for r in records:
        if r["workload"] not in workloads:
            workloads.append(r["workload"])
    summary = {"workloads": {}, "noise_floor": {}, "left_out": {}, "budget_pct": budget_pct}
    if not records:
        out(f"== {meta['board']}: overhead benchmarks only, {meta['boots']} boot(s), every mode "
            f"once per round, order balanced over rounds; modes: "
            + ", ".join(f"{m} ({mode_text(m)})" for m in modes))
        out(f"kernel {meta.get('kernel', '?')}")
        if benches:
            summary["benches"] = bench_table(benches, modes, out)
        return summary
    nrounds = len({r["round"] for r in records if r["mode"] in modes})
    out(f"== {meta['board']}: {nrounds} round(s) over {meta['boots']} boot(s), every mode once "
        f"per round, order balanced over rounds (every position, every predecessor); modes: "
        + ", ".join(f"{m} ({mode_text(m)})" for m in modes))
    if meta.get("clock", "host") == "host":
        out(f"host speed: rt-app {meta['pload']} ns per loop (per boot; lower is faster); "
            f"kernel {meta.get('kernel', '?')}")
    else:
        out(f"clock: {meta['clock']} (QEMU -icount: 1 ns per instruction, idle skipped, "
            f"no host stalls; rt-app {meta['pload']} ns per loop); kernel {meta.get('kernel', '?')}")
    if meta.get("extra_events"):
        out(f"extra trace events (EVAL_EVENTS; their cost is in every run): "
            f"{' '.join(meta['extra_events'])}")
    ndat = sum(1 for r in records if r.get("dat"))
    out(f"traces: trace-cmd's trace.dat beside {ndat} of {len(records)} runs "
        f"(runs/WORKLOAD/MODE-ROUND.dat: kernelshark, trace-cmd report -i)")
    if nrounds < stats.MIN_ROUNDS:
        out(f"INDICATIVE ONLY: {nrounds} round(s); a verdict needs at least {stats.MIN_ROUNDS} "
            f"(make eval runs 8)")
    # Stalls.
    n_out = {m: sum(1 for r in records if r["mode"] == m and r["left_out"]) for m in modes}
    n_all = {m: sum(1 for r in records if r["mode"] == m) for m in modes}
    summary["left_out"] = n_out
    if budget_pct is not None:
        out(f"host stalls: a busy vCPU without a tick for > {stalls.GAP_TICKS} ticks; runs over "
            f"{budget_pct:g}% of their CPU time stalled and over twice their cell's median "
            f"(host hiccups) are left out with their round's pair: "
            + ", ".join(f"{m} {n_out[m]}/{n_all[m]}" for m in modes))
    # Noise floor.
    if AA in modes and REF in modes:
        out(f"NOISE FLOOR ({AA} / {REF}, energy; median of per-round ratios [95% bootstrap "
            f"interval]): the smallest difference this run can resolve")
        line, need = [], []
        for w in workloads:
            c = compare(records, w, AA)
            summary["noise_floor"][w] = _clean(c)
            line.append(f"{w} {stats.fmt(c)}")
            r = stats.rounds_for(c)
            summary["noise_floor"][w]["rounds_for_5pct"] = r
            if r is not None and r > c["n"]:
                need.append(f"{w} {r}")
        pc = pooled(records, workloads, AA)
        pw = pooled(records, workloads, AA, key="energy_per_work")
        summary["noise_floor"]["all"] = pc
        summary["noise_floor"]["all_per_work"] = pw
        for i in range(0, len(line), 3):
            out("  " + "; ".join(line[i:i + 3]))
        out(f"  all workloads pooled: {stats.fmt(pc)} (n={pc['n']}); energy per work: "
            f"{stats.fmt(pw)}")
        if need:
            out("  rounds for an A/A interval within +-5% (the width scales as "
                "1/sqrt(rounds)): " + ", ".join(need))
    # Energy floor.
    floors = {w: per_round(records, w, REF, "floor_share") for w in workloads}
    if REF in modes and any(floors.values()):
        out(f"ENERGY FLOOR (the least energy any placement and OPPs could spend on {REF}'s rt-app "
            f"work, timed activations within their periods, the rest idle in the cheapest state; "
            f"over {REF}'s energy, median of its runs [lowest-highest]): a mode doing that work "
            f"in that time cannot go below it")
        line = []
        for w in workloads:
            xs = sorted(floors[w].values())
            if xs:
                summary.setdefault("energy_floor", {})[w] = {"median": stats.median(xs),
                                                             "lo": xs[0], "hi": xs[-1]}
                line.append(f"{w} {stats.median(xs):.2f} [{xs[0]:.2f}-{xs[-1]:.2f}]")
        for i in range(0, len(line), 3):
            out("  " + "; ".join(line[i:i + 3]))
    # Periodic bound.
    bounds = {w: per_round(records, w, REF, "over_bound") for w in workloads}
    if REF in modes and any(bounds.values()):
        out(f"PERIODIC BOUND (a workload of periodic tasks of one period and constant work: the "
            f"least energy of those tasks, each CPU's at one OPP per cluster for the whole window "
            f"covering its tasks' utilization as they ran plus 1/16 (the default least headroom, "
            f"whatever a trial mode sets), on CPUs they fit with 20% spare, activations aligned, "
            f"idle between them in the deepest state the gap reaches, every other CPU and cluster "
            f"in its deepest state; the best placement and OPPs): over {REF}'s energy, median of "
            f"its runs [lowest-highest]; and each mode's energy over its own runs' bound, median "
            f"(with idle as an ideal governor would choose it, as the bound has it)")
        for w in workloads:
            xs = sorted(1 / v for v in bounds[w].values())
            if not xs:
                continue
            over = {m: sorted(per_round(records, w, m, "over_bound").values()) for m in modes}
            ideal = {m: sorted(per_round(records, w, m, "ideal_over_bound").values())
                     for m in modes}
            summary.setdefault("periodic_bound", {})[w] = {
                "median": stats.median(xs), "lo": xs[0], "hi": xs[-1],
                "over": {m: stats.median(v) for m, v in over.items() if v},
                "ideal_over": {m: stats.median(v) for m, v in ideal.items() if v}}
            out(f"  {w} {stats.median(xs):.2f} [{xs[0]:.2f}-{xs[-1]:.2f}]; "
                + ", ".join(f"{m} {stats.median(v):.2f}" + (
                    f" (ideal idle {stats.median(ideal[m]):.2f})" if ideal[m] else "")
                    for m, v in over.items() if v))
    # Clean baseline.
    if OFF in modes and REF in modes:
        pc = pooled(records, workloads, OFF)
        aa = pooled(records, workloads, "off-eas2", OFF)
        summary["baseline"] = {"off_vs_eas": pc, "off_aa": aa}
        leak = (pc["lo"] is not None and (pc["lo"] > 1.0 or pc["hi"] < 1.0))
        out(f"CLEAN BASELINE: mainline EAS on the CONFIG_SCHED_ENERGY=n kernel / on ours with "
            f"kernel.sched_energy=0, pooled: {stats.fmt(pc)} (its own A/A {stats.fmt(aa)}): "
            + ("DIFFERENT: the hooks leak into the baseline" if leak else "no difference"))
    # Per workload.
    hdr = (f"{'workload':<25}{'mode':<6}{'n':>3} {'energy/' + REF:>17} {'verdict':<8}"
           f"{'per work/' + REF:>17} {'verdict':<8}"
           f"{'mJ':>7} {'LISA':>5} {'traced':>6} {'pass':>5} {'late %':>6} {'neg slack%':>10}"
           f" {'migr':>5} {'work s':>6} {'stall ms':>8} {'kthr':>6}")
    out("energy: modelled from the trace (median mJ over the measured window); energy/" + REF
        + ": the same over equal time (mean power), median of per-round ratios [95% interval] "
        "and verdict; per work: the same for energy per second of rt-app "
        "work done; LISA: placement estimate / exhaustive optimum "
        "(median) and rounds passing; traced: the same with each task's utilization as it ran "
        "(rt-app's own work included; median); late: worst task's share of activations late on the "
        "real board as modelled (run time at the capacities and OPPs it got > period; "
        "median); neg slack: the same from rt-app's own slack on the host (median); work: "
        "rt-app's configured run time done; stall: host stall time per run (median); kthr: "
        "ms of CPU time of the stopper, ksoftirqd, kworkers, RCU and governor threads in the "
        "window (median)")
    out(hdr)
    for w in workloads:
        summary["workloads"][w] = {}
        for m in modes:
            rs = [r for r in records if r["workload"] == w and r["mode"] == m]
            if not rs:
                continue
            kept = [r for r in rs if not r["left_out"]]
            c = compare(records, w, m) if m != REF else None
            cw = compare(records, w, m, key="energy_per_work") if m != REF else None
            lisa = [r["lisa"] for r in kept if r.get("lisa")]
            s = {"runs": len(rs), "kept": len(kept),
                 "energy_mj": [r["energy_mj"] for r in kept],
                 "vs_ref": _clean(c) if c else None,
                 "per_work_vs_ref": _clean(cw) if cw else None,
                 "lisa_ratio": [x["ratio"] for x in lisa],
                 "lisa_pass": [x["pass"] for x in lisa],
                 "lisa_traced_ratio": [x["traced_ratio"] for x in lisa
                                       if x.get("traced_ratio") is not None],
                 "model_late_worst_pct": [100 * r["model_late_worst"] for r in kept
                                          if r.get("model_late_worst") is not None],
                 "model_slack_pass": [r["model_slack_pass"] for r in kept
                                      if r.get("model_slack_pass") is not None],
                 "slack_neg_worst_pct": [100 * r["slack_neg_worst"] for r in kept],
                 "stall_ms": [r["stall"]["stall_ms"] for r in rs if r.get("stall")],
                 "kthread_ms": [r["kthread_ms"]["total"] for r in kept if r.get("kthread_ms")]}
            summary["workloads"][w][m] = s
            lp = f"{sum(s['lisa_pass'])}/{len(lisa)}" if lisa else "-"
            out(f"{w:<25}{m:<6}{len(kept):>3} {stats.fmt(c) if c else '(reference)':>17} "
                f"{_short(c):<8}{stats.fmt(cw) if cw else '':>17} {_short(cw):<8}"
                f"{_median(s['energy_mj']):>7} {_median(s['lisa_ratio'], 2):>5} "
                f"{_median(s['lisa_traced_ratio'], 2):>6} {lp:>5} "
                f"{_median(s['model_late_worst_pct'], 1):>6} "
                f"{_median(s['slack_neg_worst_pct'], 1):>10} "
                f"{_median([r['migrations'] for r in kept]):>5} "
                f"{_median([r['work_s'] for r in kept], 1):>6} {_median(s['stall_ms']):>8} "
                f"{_median(s['kthread_ms']):>6}")
    # The same with idle as an ideal governor would choose it.
    if any(r.get("power_ideal_mw") is not None for r in records):
        out("IDEAL IDLE (energy over equal time / " + REF + " with each idle period in the deepest "
            "state its length reaches, as LISA's ideal cpuidle: the guest's cpuidle choices, "
            "which the emulator's timing distorts, set aside; median of per-round ratios "
            "[95% interval])")
        for w in workloads:
            line = []
            for m in modes:
                if m == REF:
                    continue
                c = compare(records, w, m, key="power_ideal_mw")
                if c["n"]:
                    summary.setdefault("ideal_idle", {}).setdefault(w, {})[m] = _clean(c)
                    line.append(f"{m} {stats.fmt(c)} {_short(c)}")
            if line:
                out(f"  {w}: " + "; ".join(line))
    # Stalls that follow the mode are not host noise: kept, and said.
    if budget_pct is not None:
        for w, m, med in mode_stalls(records, budget_pct):
            out(f"NOTE {w} {m}: the median run has {med:.1f}% of its CPU time in host stalls "
                f"(budget {budget_pct:g}%): the stalls follow the mode, its runs are kept")
            summary.setdefault("mode_stalls", []).append({"workload": w, "mode": m,
                                                          "median_pct": med})
    for r in records:
        if r["left_out"]:
            out(f"left out: {r['workload']} {r['mode']} round {r['round']}: "
                f"{r['stall']['stall_ms']:.0f} ms stalled ({100 * r['stall']['share']:.1f}%)")
    if benches:
        summary["benches"] = bench_table(benches, modes, out)
    return summary


def _clean(c):
    """compare()'s result with JSON-friendly keys."""
    if c is None:
        return None
    d = dict(c)
    if "ratios" in d:
        d["ratios"] = {str(k): v for k, v in d["ratios"].items()}
    return d
