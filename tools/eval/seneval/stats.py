# SPDX-License-Identifier: GPL-2.0
"""Paired ratios, bootstrap intervals and verdicts.

A comparison of mode A against a reference mode B is made round by round:
in round r both ran the same workload in the same boot, close in time, so
r's ratio A_r / B_r cancels what drifts between rounds (host load, the
boot's rt-app calibration).  The figure reported is the median of those
per-round ratios, with a 95% percentile-bootstrap confidence interval of
that median: resample the n ratios with replacement, take each
resample's median, and read the 2.5th and 97.5th percentiles of those
medians.  The resampling uses a fixed seed, so the same runs always give
the same interval.

The verdict reads the interval against 1.0 (no difference), lower being
better (energy, time): "better" when the whole interval is below 1.0,
"worse" when it is above, "no difference" when it contains 1.0.  With
fewer than MIN_ROUNDS ratios there is no verdict: the percentile interval
of a median of 2-4 values is too coarse to mean anything.
"""
import math
import random

MIN_ROUNDS = 5
RESAMPLES = 10000
LEVEL = 0.95


def median(xs):
    """The median of a non-empty sequence (the mean of the middle two)."""
    s = sorted(xs)
    n = len(s)
    if not n:
        raise ValueError("median of nothing")
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def percentile(sorted_xs, q):
    """The q-th quantile (0..1) of sorted values, linearly interpolated."""
    if not sorted_xs:
        raise ValueError("percentile of nothing")
    pos = q * (len(sorted_xs) - 1)
    i = int(pos)
    if i + 1 >= len(sorted_xs):
        return sorted_xs[-1]
    return sorted_xs[i] + (sorted_xs[i + 1] - sorted_xs[i]) * (pos - i)


def paired_ratios(a, b):
    """Per-round ratios a[r] / b[r] over the rounds both have (dicts)."""
    return {r: a[r] / b[r] for r in sorted(a) if r in b and b[r] > 0 and a[r] is not None}


def bootstrap_ci(xs, stat=median, resamples=RESAMPLES, level=LEVEL, seed=1):
    """Percentile-bootstrap interval (lo, hi) of stat(xs)."""
    xs = list(xs)
    if len(xs) < 2:
        return (None, None)
    rng = random.Random(seed)
    n = len(xs)
    est = sorted(stat([xs[rng.randrange(n)] for _ in range(n)]) for _ in range(resamples))
    tail = (1 - level) / 2
    return (percentile(est, tail), percentile(est, 1 - tail))


def verdict(lo, hi, n):
    """better / worse / no difference for an interval of a ratio (lower is better)."""
    if n < MIN_ROUNDS or lo is None:
        return "too few rounds"
    if hi < 1.0:
        return "better"
    if lo > 1.0:
        return "worse"
    return "no difference"


def compare(ratios):
    """Summary of per-round ratios: n, median, 95% interval, verdict."""
    xs = list(ratios.values()) if isinstance(ratios, dict) else list(ratios)
    if not xs:
        return {"n": 0, "median": None, "lo": None, "hi": None, "verdict": "no pairs"}
    lo, hi = bootstrap_ci(xs)
    return {"n": len(xs), "median": median(xs), "lo": lo, "hi": hi,
            "verdict": verdict(lo, hi, len(xs))}


def rounds_for(c, half_width=0.05):
    """Rounds an A/A comparison needs for its interval to lie within
    median +- half_width, from compare()'s result.

    The interval of a median narrows as 1/sqrt(rounds), so n rounds whose
    interval reaches w from the median (the wider side) need
    n * (w / half_width)^2.  At least the rounds already run; None when
    there is no interval to scale.
    """
    if not c or c.get("lo") is None or c.get("median") is None:
        return None
    w = max(c["hi"] - c["median"], c["median"] - c["lo"])
    return max(c["n"], math.ceil(c["n"] * (w / half_width) ** 2 - 1e-9))


def fmt(c, digits=2):
    """'1.02 [0.97-1.06]' for compare()'s result ('-' without pairs)."""
    if not c or c.get("median") is None:
        return "-"
    f = f"{{:.{digits}f}}"
    if c["lo"] is None:
        return f.format(c["median"])
    return f"{f.format(c['median'])} [{f.format(c['lo'])}-{f.format(c['hi'])}]"


def bootstrap_ratio_ci(new, old, stat=median, resamples=RESAMPLES, level=LEVEL, seed=1):
    """Two-sample percentile-bootstrap interval (lo, hi) of stat(new) / stat(old).

    For two independent sets of per-round ratios (two evaluation runs, two
    kernels): each resample draws len(new) values from new and len(old)
    from old, with replacement, and takes the ratio of their statistics.
    """
    new, old = list(new), list(old)
    if len(new) < 2 or len(old) < 2:
        return (None, None)
    rng = random.Random(seed)
    est = []
    for _ in range(resamples):
        a = stat([new[rng.randrange(len(new))] for _ in new])
        b = stat([old[rng.randrange(len(old))] for _ in old])
        est.append(a / b)
    est.sort()
    tail = (1 - level) / 2
    return (percentile(est, tail), percentile(est, 1 - tail))


def compare_runs(new, old):
    """new against old: two sets of per-round ratios (lists or dicts).

    Returns n_new, n_old, the ratio of their medians, its 95% two-sample
    bootstrap interval and a verdict (lower is better, as above).
    """
    new = list(new.values()) if isinstance(new, dict) else list(new)
    old = list(old.values()) if isinstance(old, dict) else list(old)
    if not new or not old:
        return {"n_new": len(new), "n_old": len(old), "median": None, "lo": None,
                "hi": None, "verdict": "no pairs"}
    lo, hi = bootstrap_ratio_ci(new, old)
    return {"n_new": len(new), "n_old": len(old), "median": median(new) / median(old),
            "lo": lo, "hi": hi, "verdict": verdict(lo, hi, min(len(new), len(old)))}
