# SPDX-License-Identifier: GPL-2.0
"""seneval.lisa: LISA's optimum and estimate, worked out by hand."""
import os
import tempfile
import unittest

import itertools
import random

from seneval.lisa import MARGIN, board_power, lisa_check, lisa_power, optimum, placements
from seneval.trace import Trace

from .synth import marker, switch, write


def dom(cpus, opps, deepest):
    """A domain with OPPs [(cap, P_cpu, P_cluster)] and its deepest idle
    state (P_cpu, P_cluster), as lisa_power() reads them."""
    return {"cpus": cpus, "opp": [{"cap": c, "cpu": p, "cluster": cl} for c, p, cl in opps],
            "idle": [{"cpu": deepest[0], "cluster": deepest[1]}]}


# Two clusters: LITTLE CPUs 0-1, cap 200 (cpu 100, cluster 50) and 400
# (300, 80), deepest idle (0, 10); big CPU 2, cap 1024 (1000, 200), idle
# (0, 20).
LIT = dom([0, 1], [(200, 100, 50), (400, 300, 80)], (0, 10))
BIG = dom([2], [(1024, 1000, 200)], (0, 20))

# Three clusters (2 + 1 + 1): A CPUs 0-1, cap 100 (cpu 40, cluster 20)
# and 200 (100, 40), idle (0, 10); B CPU 2, cap 300 (150, 30) and 600
# (400, 60), idle (0, 20); C CPU 3, cap 1024 (1000, 100), idle (0, 50).
A = dom([0, 1], [(100, 40, 20), (200, 100, 40)], (0, 10))
B = dom([2], [(300, 150, 30), (600, 400, 60)], (0, 20))
C = dom([3], [(1024, 1000, 100)], (0, 50))


class Power(unittest.TestCase):
    def test_one_domain(self):
        # utils 100, 0: OPP cap 200 (covers 100), a = 0.5 and 0: CPUs
        # 0.5 * 100 = 50, cluster 0.5 * 50 + 0.5 * 10 = 30: 80.  With the
        # 20% margin: 200 * 0.8 = 160 >= 100, the same OPP: 80.
        self.assertAlmostEqual(lisa_power(LIT, [100, 0]), 80.0)
        self.assertAlmostEqual(lisa_power(LIT, [100, 0], 0.8), 80.0)
        # 200: at cap 200, a = 1: 100 + 50 = 150; with the margin (160 <
        # 200) at cap 400, a = 0.5: 150 + 0.5 * 80 + 0.5 * 10 = 195.
        self.assertAlmostEqual(lisa_power(LIT, [200, 0]), 150.0)
        self.assertAlmostEqual(lisa_power(LIT, [200, 0], 0.8), 195.0)

    def test_two_clusters(self):
        # Both tasks of 100 on CPU0: a = 1 at cap 200, 100 + 50 = 150, big
        # idle 20: 170.
        self.assertAlmostEqual(board_power([LIT, BIG], {0: 200}), 170.0)
        # One on CPU0 (80, as above) and one on the big CPU: a = 100 / 1024,
        # 1000 a + 200 a + 20 (1 - a).
        a = 100 / 1024
        self.assertAlmostEqual(board_power([LIT, BIG], {0: 100, 2: 100}),
                               80 + 1000 * a + 200 * a + 20 * (1 - a))

    def test_two_cluster_optimum(self):
        # Two tasks of 100: one per LITTLE CPU, cap 200, a = 0.5 each:
        # 2 * 50 + 0.5 * 50 + 0.5 * 10 = 130, big idle 20: 150.  Both on
        # CPU0: 170 (and ranked with the margin it needs cap 400).  One on
        # the big CPU: 80 + 135.2 = 215.2.  So 150.
        self.assertAlmostEqual(optimum([LIT, BIG], [100, 100], {}), 150.0)
        # 350 fits a LITTLE CPU (cap 400), but without 20% spare (350 / 0.8
        # = 437.5 > 400), which at a = 0.875 would cost only 262.5 + 70 +
        # 1.25 + 20 = 353.75: on the big CPU, a = 350 / 1024 = 0.341796875:
        # 341.796875 + 68.359375 + 13.1640625 = 423.3203125, + LITTLE idle
        # 10: 433.3203125.
        self.assertAlmostEqual(optimum([LIT, BIG], [350], {}), 433.3203125)

    def test_ranked_with_the_margin(self):
        # One task of 90 on the three-cluster board.  On A it needs cap 200
        # to keep 20% spare (100 * 0.8 < 90): ranked at a = 0.45, 45 + 18 +
        # 5.5 = 68.5, + B and C idle 70: 138.5, though at cap 100 it would
        # cost 36 + 18 + 1 + 70 = 125.  On B, cap 300 (240 >= 90), a = 0.3:
        # 45 + 9 + 14 = 68, + 10 + 50 = 128.  On C: 87.89 + 8.79 + 45.61 +
        # 30 = 172.29.  B ranks first: 128, not A's 125.
        self.assertAlmostEqual(optimum([A, B, C], [90], {}), 128.0)

    def test_three_cluster_optimum(self):
        # Tasks of 80 and 200.  With 20% spare, 200 fits B or C only
        # (200 / 0.8 = 250 > A's 200); 80 fits anywhere (100 <= 200), 280
        # on one CPU only B or C.  Ranked (OPPs with the margin) and priced:
        #   80 on A, 200 on B: A cap 100 (80 <= 0.8 * 100), a = 0.8:
        #     0.8 * 40 + 0.8 * 20 + 0.2 * 10 = 50; B cap 300 (200 <= 240),
        #     a = 2/3: 100 + 20 + 20/3 = 126.67; C idle 50: 226.67
        #   80 on A, 200 on C: 50 + 20 + (195.31 + 19.53 + 40.23) = 325.08
        #   both on B: ranked at cap 600 (280 > 240), a = 0.467: 225.33,
        #     + 10 + 50 = 285.33
        #   80 on C, 200 on B: 10 + 126.67 + 132.03 = 268.70; both on C,
        #     80 on B and 200 on C: more still.
        # The least is 80 on A, 200 on B: 50 + 126.67 + 50 = 680 / 3.
        self.assertAlmostEqual(optimum([A, B, C], [80, 200], {}), 680 / 3)
        self.assertAlmostEqual(optimum([A, B, C], [200, 80], {}), 680 / 3)
        # The estimate of 80 on CPU0 and 200 on CPU3: A 50, B idle 20, C a
        # = 200 / 1024 = 0.1953125: 195.3125 + 19.53125 + 50 * 0.8046875 =
        # 255.078125.  325.078125 in all.
        self.assertAlmostEqual(board_power([A, B, C], {0: 80, 3: 200}), 325.078125)

    def test_three_cluster_no_spare(self):
        # Two tasks of 700 and one CPU (C) that fits one with 20% spare:
        # no placement leaves the margin, none fits at all (B's 600 <
        # 700, C 1400 > 1024).  The least excess: one on C, one on B,
        # 100 over B's capacity (on A: 500; both on C: 376).  Priced: A idle
        # 10; B at its top OPP, a = 1: 400 + 60 = 460; C a = 700 / 1024 =
        # 0.68359375: 683.59375 + 68.359375 + 50 * 0.31640625 = 767.7734375.
        # 1237.7734375.  (Taking any CPU up to 1024 and pricing an
        # overloaded CPU as merely busy put the second task on A, at
        # 100 + 40 + 20 + 767.77 = 927.77, as if A could run it.)
        self.assertAlmostEqual(optimum([A, B, C], [700, 700], {}), 1237.7734375)

    def test_placements_lose_no_optimum(self):
        # placements() tries one of each set of placements that differ only
        # in which alike CPU of a domain holds what; every placement of
        # ncpus ^ ntasks must have the same loads per domain, up to that
        # order, as one of them, and the optimum of random tasks must be
        # the one over every placement.
        doms = [dom([0, 1, 2], [(100, 40, 20), (200, 100, 40)], (0, 10)),
                dom([3, 4], [(300, 150, 30), (600, 400, 60)], (0, 20)),
                dom([5], [(1024, 1000, 100)], (0, 50))]

        def canon(load):
            return tuple(tuple(sorted(load.get(c, 0) for c in d["cpus"])) for d in doms)

        def brute(utils):
            cap = {c: d["opp"][-1]["cap"] for d in doms for c in d["cpus"]}
            best = None
            for place in itertools.product(range(6), repeat=len(utils)):
                load = {}
                for u, c in zip(utils, place):
                    load[c] = load.get(c, 0) + u
                excess = sum(max(0, v - cap[c]) for c, v in load.items())
                spare = not excess and all(v <= 1024 and v / MARGIN <= cap[c]
                                           for c, v in load.items())
                rank = (0 if spare else 1 if not excess else 2, excess,
                        board_power(doms, load, MARGIN))
                if best is None or rank < best[0]:
                    best = (rank, load)
            return board_power(doms, best[1])

        for n in range(1, 5):
            utils = [1 << i for i in range(n)]  # every sum tells its tasks
            seen = set()
            for place in itertools.product(range(6), repeat=n):
                load = {}
                for u, c in zip(utils, place):
                    load[c] = load.get(c, 0) + u
                seen.add(canon(load))
            mine = []
            for place in placements(doms, n):
                load = {}
                for u, c in zip(utils, place):
                    load[c] = load.get(c, 0) + u
                mine.append(canon(load))
            self.assertEqual(len(mine), len(set(mine)))
            self.assertEqual(set(mine), seen)
        rng = random.Random(7)
        for _ in range(20):
            utils = [rng.randint(10, 700) for _ in range(rng.randint(1, 4))]
            self.assertAlmostEqual(optimum(doms, utils, {}), brute(sorted(utils)), msg=utils)

    def test_cache(self):
        cache = {}
        optimum([A, B, C], [80, 200], cache)
        self.assertEqual(list(cache), [(80, 200)])
        cache[(80, 200)] = 1.0
        self.assertEqual(optimum([A, B, C], [200, 80], cache), 1.0)


class Check(unittest.TestCase):
    # RampUp-like: one task "ramp", phases 10% then 30% (phase 0, the
    # warm-up, copies 10%), threshold 15%.
    WL = {"name": "Ramp", "kind": "lisa", "threshold_pct": 15,
          "tasks": [{"name": "ramp", "instances": 1, "phases": [[10, 0.5], [30, 0.5]]}]}

    def test_estimate_and_optimum(self):
        # The task runs on CPU0 from 1.0, on the big CPU 2 from 2.6; phase
        # 1 (the end of the warm-up) at 2.0, phase 2 at 2.5, exits at 3.0:
        # the window is [2.0, 3.0).
        #   2.0-2.5, 102.4 on CPU0: LITTLE cap 200, a = 0.512: 51.2 +
        #     0.512 * 50 + 0.488 * 10 = 81.68, big idle 20: 101.68, x 0.5
        #     = 50.84; the optimum is the same placement (the big CPU:
        #     100 + 20 + 18 + 10 = 148).
        #   2.5-2.6, 307.2 on CPU0: cap 400, a = 0.768: 230.4 + 61.44 +
        #     2.32 = 294.16, + 20 = 314.16, x 0.1 = 31.416.
        #   2.6-3.0, 307.2 on CPU2: a = 0.3: 300 + 60 + 14 = 374, + 10 =
        #     384, x 0.4 = 153.6.  The optimum keeps it on LITTLE (307.2 /
        #     0.8 = 384 <= 400): 314.16 x 0.5 = 157.08 for 2.5-3.0.
        # Estimate 50.84 + 31.416 + 153.6 = 235.856; optimum 50.84 + 157.08
        # = 207.92; 235.856 <= 207.92 x 1.15 = 239.108: pass.
        lines = [marker(0.9, "se: start"), marker(1.0, "[0] starts", "ramp", 7),
                 marker(1.0, "[0] begins loop 0 phase 0 step 0", "ramp", 7),
                 switch(1.0, 0, 7, "ramp"),
                 marker(2.0, "[0] begins loop 0 phase 1 step 62", "ramp", 7),
                 marker(2.5, "[0] begins loop 0 phase 2 step 93", "ramp", 7),
                 switch(2.6, 2, 7, "ramp"), switch(2.6, 0, 0),
                 marker(3.0, "[0] exiting", "ramp", 7), marker(3.2, "se: end")]
        with tempfile.TemporaryDirectory() as d:
            tr = Trace(write(os.path.join(d, "t.trace"), "".join(lines)))
        r = lisa_check([LIT, BIG], tr, self.WL, {})
        self.assertAlmostEqual(r["estimate"], 235.856)
        self.assertAlmostEqual(r["optimum"], 207.92)
        self.assertAlmostEqual(r["ratio"], 235.856 / 207.92)
        self.assertTrue(r["pass"])
        self.assertEqual((r["measured_from"], r["window_s"]), (2.0, 1.0))
        r = lisa_check([LIT, BIG], tr, dict(self.WL, threshold_pct=5), {})
        self.assertFalse(r["pass"])

    def test_traced_utilization(self):
        # A "20%" task that ran at 35% (rt-app's own work) on the big CPU
        # 2: in [2.0, 2.35) of the window [2.0, 3.0).  As a 20% task (204.8)
        # its place is LITTLE (204.8 / 0.8 = 256 <= 400): cap 400, a =
        # 0.512: 153.6 + 40.96 + 4.88 = 199.44, + big idle 20 = 219.44;
        # where it ran, a = 0.2: 200 + 40 + 16 = 256, + LITTLE idle 10 =
        # 266.  As the 35% task it was, round(1024 x 0.35) = 358, it needs
        # the big CPU (358 / 0.8 = 447.5 > 400), where it ran: a = 358 /
        # 1024 = 0.349609375: 349.609375 + 69.921875 + 13.0078125 + 10 =
        # 442.5390625, both estimate and optimum.
        wl = {"name": "One", "kind": "lisa", "threshold_pct": 5,
              "tasks": [{"name": "small", "instances": 1, "phases": [[20, 1.0]]}]}
        lines = [marker(0.9, "se: start"), marker(1.0, "[0] starts", "small", 7),
                 marker(1.0, "[0] begins loop 0 phase 0 step 0", "small", 7),
                 switch(1.0, 2, 7, "small"), switch(1.2, 2, 0),
                 marker(2.0, "[0] begins loop 0 phase 1 step 62", "small", 7),
                 switch(2.0, 2, 7, "small"), switch(2.35, 2, 0),
                 marker(3.0, "[0] exiting", "small", 7), marker(3.2, "se: end")]
        with tempfile.TemporaryDirectory() as d:
            tr = Trace(write(os.path.join(d, "t.trace"), "".join(lines)))
        r = lisa_check([LIT, BIG], tr, wl, {})
        self.assertAlmostEqual(r["estimate"], 266.0)
        self.assertAlmostEqual(r["optimum"], 219.44)
        self.assertFalse(r["pass"])
        r = lisa_check([LIT, BIG], tr, wl, {}, traced=True)
        self.assertAlmostEqual(r["estimate"], 442.5390625)
        self.assertAlmostEqual(r["optimum"], 442.5390625)
        self.assertTrue(r["pass"])

    def test_no_markers(self):
        lines = [marker(0.9, "se: start"), switch(1.0, 0, 7, "ramp"), marker(3.2, "se: end")]
        with tempfile.TemporaryDirectory() as d:
            tr = Trace(write(os.path.join(d, "t.trace"), "".join(lines)))
        self.assertIsNone(lisa_check([LIT, BIG], tr, self.WL, {}))


if __name__ == "__main__":
    unittest.main()
