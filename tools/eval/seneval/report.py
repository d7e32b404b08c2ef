# SPDX-License-Identifier: GPL-2.0
"""The evaluation's table: noise floor, paired ratios, verdicts, stalls.

Input: one record per run (a dict: workload, mode, round, boot and the
figures of the run's analysis, among them energy_mj and stall).  Every
comparison is against the reference mode (mainline EAS, "eas") round by
round (stats.py); a run whose host-stall share is over the budget is left
out, and so is its round's pair.  The A/A pair (eas2 against eas) is
analysed exactly like the real comparison and printed first: its
interval is the smallest difference the run can resolve.
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


def mark_left_out(records, budget_pct):
    """Set each record's left_out when its stall share is over the budget."""
    for r in records:
        st = r.get("stall") or {}
        r["left_out"] = bool(st) and st.get("share", 0.0) * 100 > budget_pct


def per_round(records, workload, mode, key):
    """{round: value} of the runs kept for a workload and mode."""
    return {r["round"]: r[key] for r in records
            if r["workload"] == workload and r["mode"] == mode and not r["left_out"]
            and r.get(key) is not None}


def compare(records, workload, mode, ref=REF, key="energy_mj"):
    """Per-round paired ratios of mode against ref, summarised."""
    ratios = stats.paired_ratios(per_round(records, workload, mode, key),
                                 per_round(records, workload, ref, key))
    c = stats.compare(ratios)
    c["ratios"] = ratios
    return c


def pooled(records, workloads, mode, ref=REF, key="energy_mj"):
    """Every workload's per-round ratios together, summarised."""
    xs = []
    for w in workloads:
        xs += list(compare(records, w, mode, ref, key)["ratios"].values())
    return stats.compare(xs)


def _median(xs, digits=0):
    xs = [x for x in xs if x is not None]
    return f"{stats.median(xs):.{digits}f}" if xs else "-"


def table(records, meta, hackbench=None, budget_pct=None, out=print):
    """Print the table; return the summary (for results.json)."""
    modes = meta["modes"]
    workloads = []
    for r in records:
        if r["workload"] not in workloads:
            workloads.append(r["workload"])
    summary = {"workloads": {}, "noise_floor": {}, "left_out": {}, "budget_pct": budget_pct}
    nrounds = len({r["round"] for r in records if r["mode"] in modes})
    out(f"== {meta['board']}: {nrounds} round(s) over {meta['boots']} boot(s), every mode once "
        f"per round, order rotated per round; modes: "
        + ", ".join(f"{m} ({MODE_TEXT.get(m, m)})" for m in modes))
    out(f"host speed: rt-app {meta['pload']} ns per loop (per boot; lower is faster); "
        f"kernel {meta.get('kernel', '?')}")
    if nrounds < stats.MIN_ROUNDS:
        out(f"INDICATIVE ONLY: {nrounds} round(s); a verdict needs at least {stats.MIN_ROUNDS} "
            f"(make eval runs 8)")
    # Stalls.
    n_out = {m: sum(1 for r in records if r["mode"] == m and r["left_out"]) for m in modes}
    n_all = {m: sum(1 for r in records if r["mode"] == m) for m in modes}
    summary["left_out"] = n_out
    if budget_pct is not None:
        out(f"host stalls: a busy vCPU without a tick for > {stalls.GAP_TICKS} ticks; runs over "
            f"{budget_pct:g}% "
            f"of their CPU time stalled are left out with their round's pair: "
            + ", ".join(f"{m} {n_out[m]}/{n_all[m]}" for m in modes))
    # Noise floor.
    if AA in modes and REF in modes:
        out(f"NOISE FLOOR ({AA} / {REF}, energy; median of per-round ratios [95% bootstrap "
            f"interval]): the smallest difference this run can resolve")
        line = []
        for w in workloads:
            c = compare(records, w, AA)
            summary["noise_floor"][w] = _clean(c)
            line.append(f"{w} {stats.fmt(c)}")
        pc = pooled(records, workloads, AA)
        summary["noise_floor"]["all"] = pc
        for i in range(0, len(line), 3):
            out("  " + "; ".join(line[i:i + 3]))
        out(f"  all workloads pooled: {stats.fmt(pc)} (n={pc['n']})")
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
    hdr = (f"{'workload':<25}{'mode':<6}{'n':>3} {'energy/' + REF:>19} {'verdict':<15}"
           f"{'mJ':>7} {'LISA est/opt':>12} {'pass':>5} {'neg slack%':>10} {'migr':>5}"
           f" {'work s':>6} {'stall ms':>8}")
    out("energy: modelled from the trace (median mJ); energy/" + REF + ": median of per-round "
        "ratios [95% interval] and verdict; LISA: placement estimate / exhaustive optimum "
        "(median) and rounds passing; neg slack: worst task's share of activations with "
        "negative rt-app slack (median); work: rt-app's configured run time done; stall: host "
        "stall time per run (median)")
    out(hdr)
    for w in workloads:
        summary["workloads"][w] = {}
        for m in modes:
            rs = [r for r in records if r["workload"] == w and r["mode"] == m]
            if not rs:
                continue
            kept = [r for r in rs if not r["left_out"]]
            c = compare(records, w, m) if m != REF else None
            lisa = [r["lisa"] for r in kept if r.get("lisa")]
            s = {"runs": len(rs), "kept": len(kept),
                 "energy_mj": [r["energy_mj"] for r in kept],
                 "vs_ref": _clean(c) if c else None,
                 "lisa_ratio": [x["ratio"] for x in lisa],
                 "lisa_pass": [x["pass"] for x in lisa],
                 "slack_neg_worst_pct": [100 * r["slack_neg_worst"] for r in kept],
                 "stall_ms": [r["stall"]["stall_ms"] for r in rs if r.get("stall")]}
            summary["workloads"][w][m] = s
            lp = f"{sum(s['lisa_pass'])}/{len(lisa)}" if lisa else "-"
            out(f"{w:<25}{m:<6}{len(kept):>3} {stats.fmt(c) if c else '(reference)':>19} "
                f"{c['verdict'] if c else '':<15}"
                f"{_median(s['energy_mj']):>7} {_median(s['lisa_ratio'], 2):>12} {lp:>5} "
                f"{_median(s['slack_neg_worst_pct'], 1):>10} "
                f"{_median([r['migrations'] for r in kept]):>5} "
                f"{_median([r['work_s'] for r in kept], 1):>6} {_median(s['stall_ms']):>8}")
    # Stalls that follow the mode are not host noise: the mode itself loads
    # the host more (more busy vCPUs at once, kernel-thread churn), and
    # leaving its runs out would hide that.  Say so.
    for w in workloads:
        lo = {m: sum(1 for r in records if r["workload"] == w and r["mode"] == m and r["left_out"])
              for m in modes}
        n = max(1, len({r["round"] for r in records if r["workload"] == w}))
        for m in modes:
            if m != REF and REF in lo and lo[m] - lo[REF] >= max(2, n / 2):
                out(f"NOTE {w}: {m} has {lo[m]} of {n} runs over the stall budget, {REF} {lo[REF]}: "
                    f"the stalls follow the mode ({m} keeps more vCPUs busy); its comparison rests "
                    f"on the runs kept")
                summary.setdefault("mode_stalls", []).append({"workload": w, "mode": m,
                                                              "left_out": lo[m], "ref": lo[REF]})
    for r in records:
        if r["left_out"]:
            out(f"left out: {r['workload']} {r['mode']} round {r['round']}: "
                f"{r['stall']['stall_ms']:.0f} ms stalled ({100 * r['stall']['share']:.1f}%)")
    if hackbench:
        summary["hackbench"] = {}
        out(f"hackbench (-g 4 -l 100), time / {REF} per round, {len(hackbench)} round(s):")
        for m in modes:
            if m == REF:
                continue
            a = {r: v[m] for r, v in hackbench.items() if m in v}
            b = {r: v[REF] for r, v in hackbench.items() if REF in v}
            c = stats.compare(stats.paired_ratios(a, b))
            summary["hackbench"][m] = c
            out(f"  {m:<6} {stats.fmt(c)}  {c['verdict']}  (median {_median(a.values(), 3)} s)")
    return summary


def _clean(c):
    """compare()'s result with JSON-friendly keys."""
    if c is None:
        return None
    d = dict(c)
    if "ratios" in d:
        d["ratios"] = {str(k): v for k, v in d["ratios"].items()}
    return d
