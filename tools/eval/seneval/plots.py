# SPDX-License-Identifier: GPL-2.0
"""The evaluation's plots (PNG, matplotlib, imported only here).

placement-WORKLOAD.png: per mode, each rt-app thread's running time on
each CPU (run.analyse_run()'s segments) over the whole run, the parts
outside the measured window shaded, and each domain's frequency over its
top frequency; energy.png: each workload's energy relative to the base
mode (mainline EAS) per round, and LISA's estimate over the optimum with
each scenario's threshold.
"""
import os

from . import stats

from .model import cpulist_str


def plots(res, segs, doms, traces, outdir, modes):
    """Write the PNGs into outdir.  res[wl][mode]: analyse_run()'s figures
    per round; segs[wl][mode] and traces[wl][mode]: its segments and
    trace of round 1."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ncpu = sum(len(d["cpus"]) for d in doms)
    for wl, per_mode in segs.items():
        fig, axes = plt.subplots(2 * len(modes), 1, figsize=(11, 2.2 * len(modes) * 1.6),
                                 gridspec_kw={"height_ratios": [3, 1] * len(modes)}, sharex=True)
        for i, m in enumerate(modes):
            if m not in per_mode:
                continue
            ax, fx = axes[2 * i], axes[2 * i + 1]
            sg, tr = per_mode[m], traces[wl][m]
            pids = sorted({p for c in sg for _, _, p in sg[c]})
            cmap = plt.get_cmap("tab20")
            for c in range(ncpu):
                by = {}
                for s, w, p in sg.get(c, []):
                    by.setdefault(p, []).append((s, w))
                for p, bars in by.items():
                    ax.broken_barh(bars, (c - 0.4, 0.8), color=cmap(pids.index(p) % 20), linewidth=0)
            ax.set_yticks(range(ncpu))
            ax.set_yticklabels([f"cpu{c}" for c in range(ncpu)], fontsize=7)
            e = res[wl][m][0]
            ax.set_title(f"{wl}, {m}: {e['energy_mj']:.0f} mJ, {e['migrations']} migrations",
                         fontsize=9)
            w0, w1 = (x - tr.start for x in e["window"])
            for a, b in ((0.0, w0), (w1, tr.end - tr.start)):
                if b > a:
                    ax.axvspan(a, b, color="0.9", zorder=0, linewidth=0)
            for di, d in enumerate(doms):
                xs, ys = [0.0], [None]
                c0 = d["cpus"][0]
                top = d["opp"][-1]["freq"]
                for t, k, c, a, b in tr.ev:
                    if k == "f" and c == c0:
                        x = max(0.0, min(t, tr.end) - tr.start)
                        if t <= tr.start:
                            ys[0] = a / top
                        elif t < tr.end:
                            xs.append(x)
                            ys.append(a / top)
                ys = [y if y is not None else 0 for y in ys]
                xs.append(tr.end - tr.start)
                ys.append(ys[-1])
                fx.step(xs, ys, where="post", label=f"cpus {cpulist_str(d['cpus'])}")
            fx.set_ylim(0, 1.05)
            fx.set_ylabel("f / fmax", fontsize=7)
            fx.legend(fontsize=6, loc="lower right")
        axes[-1].set_xlabel("time (s) from the start of the run (shaded: not measured)")
        fig.tight_layout()
        fig.savefig(os.path.join(outdir, f"placement-{wl}.png"), dpi=80)
        plt.close(fig)
    # Energy per workload relative to mainline EAS; LISA's estimate over
    # the optimum, with each scenario's threshold.
    wls = list(res)
    lisa_wls = [w for w in wls if any(r.get("lisa") for r in res[w].get(modes[0], []))]
    fig, axes = plt.subplots(1, 2, figsize=(max(9, 1.0 * (len(wls) + len(lisa_wls))), 3.8),
                             gridspec_kw={"width_ratios": [max(1, len(wls)), max(1, len(lisa_wls))]})
    width = 0.8 / len(modes)
    base = "eas" if "eas" in modes else modes[0]

    def bars(ax, names, value):
        for i, m in enumerate(modes):
            ys, lo, hi = [], [], []
            for wl in names:
                rs = [v for v in (value(wl, m, r) for r in range(len(res[wl].get(m, []))))
                      if v is not None]
                # The median and its 95% bootstrap interval, as the table.
                ci = stats.bootstrap_ci(rs) if len(rs) > 1 else (None, None)
                ys.append(stats.median(rs) if rs else 0)
                lo.append(ys[-1] - ci[0] if ci[0] is not None else 0)
                hi.append(ci[1] - ys[-1] if ci[1] is not None else 0)
            ax.bar([x + i * width for x in range(len(names))], ys, width, yerr=[lo, hi],
                   label=m, capsize=2)
        ax.set_xticks([x + width * (len(modes) - 1) / 2 for x in range(len(names))])
        ax.set_xticklabels(names, rotation=30, ha="right", fontsize=7)

    def vs_base(wl, m, i):
        one = res[wl][m][i]
        b = [x for x in res[wl].get(base, []) if x["round"] == one["round"]]
        if not b or one.get("left_out") or b[0].get("left_out"):
            return None
        return one["energy_mj"] / b[0]["energy_mj"]

    bars(axes[0], wls, vs_base)
    axes[0].axhline(1.0, color="grey", linewidth=0.5)
    axes[0].set_ylabel(f"modelled energy / {base}\n(median, 95% interval)")
    axes[0].legend(fontsize=7)
    bars(axes[1], lisa_wls, lambda wl, m, r: (res[wl][m][r].get("lisa") or {}).get("ratio"))
    for x, wl in enumerate(lisa_wls):
        thr = 1 + next(r["lisa"]["threshold_pct"] for r in res[wl][modes[0]] if r.get("lisa")) / 100
        axes[1].plot([x - width / 2, x + width * (len(modes) - 0.5)], [thr, thr],
                     color="black", linewidth=1)
    axes[1].axhline(1.0, color="grey", linewidth=0.5)
    axes[1].set_ylabel("LISA estimate / optimum (line: pass below)")
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, "energy.png"), dpi=80)
    plt.close(fig)
