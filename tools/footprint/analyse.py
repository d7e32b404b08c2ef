#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise one board's footprint run (scripts/bench-footprint).

Reads DIR/guest.out (the guest's "se-footprint: MODE ROUND" lines, in
phase order), DIR/phases.txt (the plugin's per-call means per phase) and,
with --functions, DIR/prof.txt and the kernel's System.map.  Mode run k
(from 0) ends phase 2k + 2: phase 2k + 1 is its mode switch (with the boot
before the first).  Prints, per figure, each mode's median per call and
sched-energy's per-round ratio to mainline EAS's with its 95% interval.
"""
import argparse
import bisect
import collections
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "eval"))
from seneval import stats  # noqa: E402

FIGURES = ["insns", "loads", "stores", "lines", "pages", "shared"]
MEANING = {
    "insns": "instructions executed",
    "loads": "loads",
    "stores": "stores",
    "lines": "distinct 64-byte lines touched",
    "pages": "distinct 4 KiB pages touched",
    "shared": "lines another CPU stored to since this one last touched them",
}


def read_runs(d, min_calls):
    """[(mode, round, phase figures, phase)] in the guest's order; a run
    phase with fewer than min_calls calls means the phases slipped."""
    order = []
    with open(os.path.join(d, "guest.out")) as f:
        for line in f:
            w = line.split()
            if len(w) == 3 and w[0] == "se-footprint:":
                order.append((w[1], int(w[2])))
    phases = {}
    with open(os.path.join(d, "phases.txt")) as f:
        for line in f:
            w = line.split()
            fig = {w[i]: float(w[i + 1]) for i in range(2, len(w) - 1, 2)}
            phases[int(w[1])] = fig
    runs = []
    for k, (mode, rnd) in enumerate(order):
        fig = phases.get(2 * k + 2)
        if fig is None or fig["calls"] < min_calls:
            sys.exit(f"footprint: phase {2 * k + 2} ({mode} round {rnd}) is missing "
                     f"or not a measuring phase: see {d}/phases.txt")
        runs.append((mode, rnd, fig, 2 * k + 2))
    if not runs:
        sys.exit(f"footprint: the guest reported no run: see {d}/guest.out")
    return runs


def functions(d, system_map, runs, top):
    """Per mode, the figures per call of each function (callees apart)."""
    syms = []
    with open(system_map) as f:
        for line in f:
            w = line.split()
            if len(w) >= 3 and w[1] in "tTwW":
                syms.append((int(w[0], 16), w[2]))
    syms.sort()
    addrs = [a for a, _ in syms]
    phase_mode = {ph: mode for mode, _, _, ph in runs}
    calls = collections.Counter()
    for mode, _, fig, _ in runs:
        calls[mode] += fig["calls"]
    agg = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0, 0, 0, 0]))
    with open(os.path.join(d, "prof.txt")) as f:
        for line in f:
            ph, va, *counts = line.split()
            mode = phase_mode.get(int(ph))
            if mode is None:
                continue
            i = bisect.bisect_right(addrs, int(va, 16)) - 1
            name = syms[i][1] if i >= 0 else "?"
            for j, c in enumerate(counts):
                agg[mode][name][j] += int(c)
    for mode in sorted(agg):
        print(f"  {mode}: per call, by function (callees apart): "
              "insns loads stores lines shared")
        rows = sorted(agg[mode].items(), key=lambda kv: -kv[1][0])
        for name, (i, ld, st, li, sh) in rows[:top]:
            n = calls[mode]
            print(f"    {name:36s} {i / n:7.1f} {ld / n:6.1f} {st / n:6.1f} "
                  f"{li / n:6.1f} {sh / n:6.2f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--min-calls", type=int, default=18000,
                    help="fewest calls of a run (default: two se_pingpong pairs' 20000 less 10%%)")
    ap.add_argument("--functions", metavar="SYSTEM_MAP")
    ap.add_argument("--top", type=int, default=15)
    a = ap.parse_args()
    runs = read_runs(a.dir, a.min_calls)
    by = collections.defaultdict(dict)
    for mode, rnd, fig, _ in runs:
        by[mode][rnd] = fig
    if "eas" not in by or "sen" not in by:
        sys.exit("footprint: need both modes, eas and sen")
    print(f"select_task_rq_fair() per call, {len(by['sen'])} round(s); "
          "sen / eas: median of per-round ratios [95% interval]")
    for f in FIGURES:
        eas = {r: v[f] for r, v in by["eas"].items()}
        sen = {r: v[f] for r, v in by["sen"].items()}
        c = stats.compare(stats.paired_ratios(sen, eas))
        print(f"  {f:7s} eas {stats.median(list(eas.values())):7.1f}  "
              f"sen {stats.median(list(sen.values())):7.1f}  "
              f"sen/eas {stats.fmt(c)} {c['verdict']:13s} ({MEANING[f]})")
    if a.functions:
        functions(a.dir, a.functions, runs, a.top)


if __name__ == "__main__":
    main()
