# SPDX-License-Identifier: GPL-2.0
"""seneval.energy: a trace's energy on the real board, worked out by hand."""
import os
import tempfile
import unittest

from seneval.energy import energy_floor, periodic_bound, trace_energy
from seneval.model import parse_model
from seneval.trace import Trace

from .synth import freq_marker, idle, marker, model_text, switch, write

# Domain 0, CPUs 0-1: OPPs cap 512 (P_cpu 100, P_cluster 40 uW) and 1024
# (300, 60); idle WFI (cpu 10, cluster 20), off (cpu 0, cluster 5, wakeup
# 1000 uW x us = 0.001 uJ).  Domain 1, CPU 2: OPP cap 256 (50, 10); WFI
# (4, 6).  The window is [1, 2): W = 1 s; energies in uJ.
DOMS, UNIT = parse_model(model_text([
    ("0-1", [(500000, 512, 100, 40), (1000000, 1024, 300, 60)],
     [("WFI", 10, 20, 0), ("off", 0, 5, 1000)]),
    ("2", [(250000, 256, 50, 10)], [("WFI", 4, 6, 0)]),
]))
START = [marker(1.0, "se: start")]
END = [marker(2.0, "se: end")]


def freqs(khz):
    return [freq_marker(0.5, 0, khz), freq_marker(0.5, 1, khz)]


class TraceEnergy(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def energy(self, lines, factor=None, window=None):
        tr = Trace(write(os.path.join(self.dir.name, "t.trace"), "".join(lines)))
        return trace_energy(DOMS, tr, *(window or (tr.start, tr.end)), factor)

    def test_converted_to_the_real_board(self):
        # CPU0 busy 0.5 s at cap 512: 0.5 * 1024 / 512 = 1.0 s of real work,
        # 1.0 * 100 = 100 uJ; the cluster busy as long: 1.0 * 40 = 40.  CPU0
        # never idle on the real board (1 - 1.0 = 0 s).  CPU1 idle 1 s in
        # "off": 0 uJ plus one wakeup, 0.001.  The cluster never idle.
        # As traced, 0.5 * 100 + 0.5 * 40 = 70.  Domain 1 (CPU 2, no OPP
        # known, no event): idle all the window in WFI, 1 * 4 + 1 * 6 = 10.
        # Active 140, idle 10.001, total 150.001.
        e = self.energy(freqs(500000) + START + [
            switch(1.0, 0, 7), idle(1.0, 1, 1), switch(1.5, 0, 0), idle(1.5, 0, 0)] + END)
        self.assertAlmostEqual(e["active"], 140.0)
        self.assertAlmostEqual(e["idle"], 10.001)
        self.assertAlmostEqual(e["total"], 150.001)
        self.assertAlmostEqual(e["traced_active"], 70.0)
        self.assertAlmostEqual(e["overrun_ms"], 0.0)
        self.assertAlmostEqual(e["wall_s"], 1.0)
        cl = e["clusters"][0]
        self.assertAlmostEqual(cl["cpu_active"], 100.0)
        self.assertAlmostEqual(cl["cluster_active"], 40.0)
        # Known OPP all the window, at 500 MHz.
        self.assertEqual(cl["opp_residency"], {"500": 1.0, "1000": 0.0})
        self.assertEqual(e["clusters"][1]["opp_s"], [0.0])
        self.assertAlmostEqual(e["cpus"][0]["real_busy_s"], 1.0)
        self.assertAlmostEqual(e["cpus"][0]["busy_s"], 0.5)

    def test_work_factor(self):
        # At the top OPP (cap 1024), the task counted at half its traced
        # time (factor 0.5): 0.25 s of work on CPU0, 0.25 * 300 = 75;
        # cluster 0.25 * 60 = 15.  Active 90.  CPU0's traced idle time: the
        # factored-out 0.25 s in WFI, then 0.5 s in off (an entry: 0.001):
        # shares 1/3 and 2/3 of its real idle time 0.75 s: 0.75 / 3 * 10 =
        # 2.5.  CPU1 in off: 0.001.  The cluster's: the factored-out 0.25 s
        # in WFI, then 0.5 s in off (its CPUs' shallowest): 0.75 / 3 * 20
        # + 0.5 * 5 = 7.5.  Domain 1 idle, 10 (as above).  Idle 2.5 +
        # 0.001 + 0.001 + 7.5 + 10 = 20.002.
        e = self.energy(freqs(1000000) + START + [
            switch(1.0, 0, 7), idle(1.0, 1, 1), switch(1.5, 0, 0), idle(1.5, 0, 1)] + END,
            factor={7: 0.5})
        self.assertAlmostEqual(e["active"], 90.0)
        self.assertAlmostEqual(e["cpus"][0]["idle"], 2.501)
        self.assertAlmostEqual(e["idle"], 20.002)

    def test_cluster_union(self):
        # Top OPP.  CPU0 busy 1.0-1.6, CPU1 1.4-1.8: CPU active 0.6 * 300 +
        # 0.4 * 300 = 300; the cluster busy over the union, 1.0-1.8, 0.8 s:
        # 0.8 * 60 = 48 (not 1.0 s, the sum).  No cpu_idle event: idle is
        # WFI, CPU0 0.4 * 10 = 4, CPU1 0.6 * 10 = 6, cluster 0.2 * 20 = 4;
        # domain 1 10 (as above): 24.
        e = self.energy(freqs(1000000) + START + [
            switch(1.0, 0, 7), switch(1.4, 1, 8), switch(1.6, 0, 0), switch(1.8, 1, 0)] + END)
        cl = e["clusters"][0]
        self.assertAlmostEqual(cl["cpu_active"], 300.0)
        self.assertAlmostEqual(cl["cluster_active"], 48.0)
        self.assertAlmostEqual(e["active"], 348.0)
        self.assertAlmostEqual(e["idle"], 24.0)

    def test_idle_states_and_wakeups(self):
        # At cap 512.  CPU0 busy 1.0-1.25 (0.25 s traced, 0.5 s real: 50),
        # then in "off" (an entry at 1.25: 0.001).  Its real idle time,
        # 1 - 0.5 = 0.5 s, all in "off" (its traced share): 0.  CPU1 enters
        # "off" at 0.8 (before the window: no wakeup counted), WFI at 1.0
        # (wakeup 0), "off" at 1.5 (0.001): shares WFI 0.5, off 0.5 of
        # its real idle time 1 s: 0.5 * 10 + 0.5 * 0 = 5, + 0.001.
        # Cluster: busy 0.25 s traced, 0.5 s real: 0.5 * 40 = 20; all idle
        # 1.25-1.5 in WFI (CPU1's, the shallower) and 1.5-2.0 in off: shares
        # 1/3 and 2/3 of 1 - 0.5 = 0.5 s real: 0.5 / 3 * 20 + 1 / 3 * 5 = 5.
        # Domain 1: 10, as above.  Active 50 + 20 = 70; idle 0.001 + 5.001
        # + 5 + 10 = 20.002.
        e = self.energy(freqs(500000) + [idle(0.8, 1, 1)] + START + [
            switch(1.0, 0, 7), idle(1.0, 1, 0), switch(1.25, 0, 0), idle(1.25, 0, 1),
            idle(1.5, 1, 1)] + END)
        self.assertAlmostEqual(e["active"], 70.0)
        self.assertAlmostEqual(e["cpus"][0]["idle"], 0.001)
        self.assertAlmostEqual(e["cpus"][1]["idle"], 5.001)
        self.assertAlmostEqual(e["idle"], 20.002)
        self.assertAlmostEqual(e["traced_active"], 0.25 * 100 + 0.25 * 40)

    def test_ideal_idle(self):
        # The trace above with each idle period (cpu_idle entry to exit; a
        # CPU counts as in one until first seen, here from 0.5) in the
        # deepest state its length reaches (residencies: WFI 20 us, off
        # 40 us), whatever state the guest chose.  CPU0: in a period from
        # 0.5, woken at 1.0 (in the window: one wakeup from off, 0.001);
        # idle 1.25 to the trace's end, 0.75 s: off, 0, woken after the
        # window.  CPU1 in a period all along: off, 0.  Cluster 0 with both
        # in periods 1.25-2.0: off, 0.5 s real * 5 = 2.5.  Domain 1 has
        # only WFI: 10.  Idle 12.501; active as traced, 70.
        lines = freqs(500000) + [idle(0.8, 1, 1)] + START + [
            switch(1.0, 0, 7), idle(1.0, 1, 0), switch(1.25, 0, 0), idle(1.25, 0, 1),
            idle(1.5, 1, 1)] + END
        tr = Trace(write(os.path.join(self.dir.name, "t.trace"), "".join(lines)))
        e = trace_energy(DOMS, tr, tr.start, tr.end, ideal_idle=True)
        self.assertAlmostEqual(e["active"], 70.0)
        self.assertAlmostEqual(e["cpus"][0]["idle"], 0.001)
        self.assertAlmostEqual(e["cpus"][1]["idle"], 0.0)
        self.assertAlmostEqual(e["idle"], 12.501)

    def test_ideal_idle_corrects_the_guest(self):
        # At cap 1024 (busy time is real).  CPU0 busy 1.0-1.5 and from
        # 1.50003; the guest chose off for the 30 us between, which only
        # reaches WFI: 30 us * 10 uW, where the trace says 0; plus its
        # wakeup at 1.0 from the period since 0.5 (off: 0.001).  CPU1 woken
        # at 1.1 (0.001), idle outside a period until 1.2 (WFI: 0.1 s *
        # 10 = 1.0), then in WFI to the end by the guest's choice, which
        # 0.8 s takes to off: 0.  As traced CPU1 would be all WFI, 10.
        lines = freqs(1000000) + START + [
            switch(1.0, 0, 7), idle(1.1, 1, -1), idle(1.2, 1, 0), switch(1.5, 0, 0),
            idle(1.5, 0, 1), idle(1.50003, 0, -1), switch(1.50003, 0, 7)] + END
        tr = Trace(write(os.path.join(self.dir.name, "t.trace"), "".join(lines)))
        e = trace_energy(DOMS, tr, tr.start, tr.end, ideal_idle=True)
        self.assertAlmostEqual(e["cpus"][0]["idle"], 0.001 + 30e-6 * 10, places=9)
        self.assertAlmostEqual(e["cpus"][1]["idle"], 1.001, places=9)
        traced = trace_energy(DOMS, tr, tr.start, tr.end)
        self.assertAlmostEqual(traced["cpus"][0]["idle"], 0.001, places=9)

    def test_overrun(self):
        # CPU0 busy all the window at cap 512: 2 s of work in 1 s, 1000 ms
        # of overrun; no idle time left on the real board.
        e = self.energy(freqs(500000) + START + [switch(1.0, 0, 7)] + END)
        self.assertAlmostEqual(e["overrun_ms"], 1000.0)
        self.assertAlmostEqual(e["cpus"][0]["idle"], 0.0)
        self.assertAlmostEqual(e["clusters"][0]["overrun_ms"], 1000.0)

    def test_window_and_unknown_opp(self):
        # Domain 1 (CPU 2, cap 256): busy from 0.9, before the window, so
        # busy at its start; its OPP known from 1.5 only, so 1.0-1.5 is not
        # charged.  1.5-2.0: 0.5 s at cap 256 is 2 s of real work: CPU
        # 2 * 50 = 100, cluster 2 * 10 = 20, overrun 2 - 1 = 1 s, no idle.
        # Domain 0 idle throughout at 500 MHz, in WFI: 2 * 10 + 20 = 40.
        e = self.energy(freqs(500000) + [switch(0.9, 2, 9)] + START + [
            freq_marker(1.5, 2, 250000)] + END)
        cl = e["clusters"][1]
        self.assertAlmostEqual(cl["active"], 120.0)
        self.assertAlmostEqual(cl["idle"], 0.0)
        self.assertAlmostEqual(cl["overrun_ms"], 1000.0)
        self.assertAlmostEqual(cl["opp_s"][0], 0.5)
        self.assertAlmostEqual(e["clusters"][0]["idle"], 40.0)
        self.assertAlmostEqual(e["total"], 160.0)

    def test_part_of_the_run(self):
        # The window [1.2, 1.7) of the first test's trace: CPU0 busy
        # 1.2-1.5 at cap 512, 0.6 s real of W = 0.5: overrun 100 ms;
        # 0.6 * 100 + 0.6 * 40 = 84 active; no idle time left for CPU0 or
        # the cluster.  CPU1 in off since 1.0 (its entry before the window:
        # no wakeup): 0.  Domain 1 in WFI for 0.5 s: 0.5 * (4 + 6) = 5.
        e = self.energy(freqs(500000) + START + [
            switch(1.0, 0, 7), idle(1.0, 1, 1), switch(1.5, 0, 0), idle(1.5, 0, 0)] + END,
            window=(1.2, 1.7))
        self.assertAlmostEqual(e["wall_s"], 0.5)
        self.assertAlmostEqual(e["active"], 84.0)
        self.assertAlmostEqual(e["overrun_ms"], 100.0)
        self.assertAlmostEqual(e["idle"], 5.0)


if __name__ == "__main__":
    unittest.main()


class EnergyFloor(unittest.TestCase):
    def test_cheapest_price_and_idle(self):
        # Idle: domain 0 two CPUs "off" (0) and cluster "off" (5), domain 1
        # WFI (4 + 6): 15 uW.  Prices per unit of work: domain 0 at cap 512
        # (100 + (40 - 5) / 2) / 512 = 0.229, at 1024 (300 + 55 / 2) / 1024
        # = 0.320; domain 1 (50 - 4 + (10 - 6)) / 256 = 0.195, the least.
        # 0.5 s of work over 1 s: 15 + 0.5 * 1024 * 50 / 256 = 115 uJ.
        self.assertAlmostEqual(energy_floor(DOMS, 0.5, 1.0), 115.0)
        self.assertAlmostEqual(energy_floor(DOMS, 0.0, 2.0), 30.0)

    def test_below_a_trace(self):
        # The run of TraceEnergy.test_converted_to_the_real_board (0.5 s of
        # work in 1 s, 150.001 uJ) cannot beat the floor.
        self.assertLess(energy_floor(DOMS, 0.5, 1.0), 150.001)

    def test_deadline(self):
        # Marginal powers: (256, 50) on domain 1, (512, 117.5) and (1024,
        # 327.5) on domain 0; the envelope with idle (0, 0) is convex
        # through all of them.  6.4 ms of work every 16 ms: r = 409.6, f(r)
        # = 50 + (409.6 - 256) * 67.5 / 256 = 90.5, over 16 ms 1.448 uJ,
        # where without the deadline 6.4 ms costs 6.4e-3 * 1024 * 50 / 256
        # = 1.28.
        self.assertAlmostEqual(energy_floor(DOMS, 0.0064, 1.0, [(6400, 16000)]), 15 + 1.448)
        self.assertAlmostEqual(energy_floor(DOMS, 0.0064, 1.0), 15 + 1.28)
        # Light enough for the cheapest point alone: no dearer.
        self.assertAlmostEqual(energy_floor(DOMS, 0.002, 1.0, [(2000, 16000)]),
                               energy_floor(DOMS, 0.002, 1.0))
        # More than the largest capacity can do in time: priced without it.
        self.assertAlmostEqual(energy_floor(DOMS, 0.02, 1.0, [(20000, 16000)]),
                               energy_floor(DOMS, 0.02, 1.0))

    def test_cluster_cheaper_active_than_idle(self):
        # One domain of two CPUs whose cluster costs 3 active and 5 idle:
        # the -2 is not shared between the CPUs (an active cluster may
        # serve one CPU at a time), (10 - 0 - 2) / 512 per unit of work.
        doms, _ = parse_model(model_text([
            ("0-1", [(500000, 512, 10, 3)], [("WFI", 0, 5, 0)])]))
        self.assertAlmostEqual(energy_floor(doms, 1.0, 1.0), 5 + 1024 * 8 / 512)


def one_task_bound(doms, work_s, wall_s, period_us, observed):
    return periodic_bound(doms, [(work_s, observed)], wall_s, period_us)


class OneTaskBound(unittest.TestCase):
    # DOMS above: residencies 20 us (WFI) and 40 us (off).  Every other
    # domain in its deepest state: domain 0 2 x 0 + 5, domain 1 4 + 6.

    def test_cheapest_opp_that_covers_the_task(self):
        # 0.2 s of work in 1 s (u = 204.8) every 16 ms, seen as it is:
        # needs 217.6.  Domain 1 (256) does not fit it with 20% spare
        # (204.8 is 80% of 256 exactly).  Domain 0 at 512: busy 0.4 at
        # 100 + 40, idle 0.6 "off" (9.6 ms reaches it) at 0 + 5, one wakeup
        # of 1000 per 16000 us, the other CPU off (0) and domain 1 at 10:
        # 56 + 3 + 0.0625 + 10 = 69.0625.  At 1024: 72 + 4 + 0.0625 + 10.
        self.assertAlmostEqual(one_task_bound(DOMS, 0.2, 1.0, 16000, 204.8), 69.0625)
        # Over two seconds, twice.
        self.assertAlmostEqual(one_task_bound(DOMS, 0.4, 2.0, 16000, 204.8), 2 * 69.0625)

    def test_seen_larger_than_its_work(self):
        # Seen at 300 (rt-app's own work): 512 still covers 318.75.
        self.assertAlmostEqual(one_task_bound(DOMS, 0.2, 1.0, 16000, 300), 69.0625)
        # Seen at 500: only 1024 covers 531.25, priced for the work done.
        self.assertAlmostEqual(one_task_bound(DOMS, 0.2, 1.0, 16000, 500), 86.0625)
        # Seen at 900: no CPU fits it with 20% spare.
        self.assertIsNone(one_task_bound(DOMS, 0.2, 1.0, 16000, 900))

    def test_small_task_on_the_small_domain(self):
        # u = 51.2: domain 1 busy 0.2 at 50 + 10, idle 0.8 in WFI at 4 + 6,
        # domain 0 off (5): 12 + 8 + 5 = 25, below domain 0's 28.5625.
        self.assertAlmostEqual(one_task_bound(DOMS, 0.05, 1.0, 16000, 51.2), 25.0)

    def test_not_below_the_floor(self):
        for args in ((0.2, 1.0, 16000, 204.8), (0.05, 1.0, 16000, 51.2)):
            self.assertGreaterEqual(one_task_bound(DOMS, *args),
                                    energy_floor(DOMS, args[0], args[1],
                                                 [(args[0] / args[1] * args[2], args[2])]))


class PeriodicBound(unittest.TestCase):
    # Several tasks of one period: DOMS above, every period 16 ms.

    def test_packed_on_the_small_domain(self):
        # Two tasks of u = 51.2.  Both on CPU 2 (seen 102.4 fits 204.8):
        # busy 0.4 at 50 + 10, idle 0.6 in WFI at 4 + 6, domain 0 off (5):
        # 20 + 2.4 + 4 + 3.6 + 5 = 35.  One on CPU 2 and one on domain 0
        # (at 512, busy 0.1, off in the gap: 10 + 0.0625 + 4 + 4.5) is
        # 20 + 18.5625; both on domain 0, on two CPUs, 20.125 + 8.5 + 10.
        self.assertAlmostEqual(periodic_bound(DOMS, [(0.05, 51.2)] * 2, 1.0, 16000), 35.0)

    def test_cluster_paid_once(self):
        # Two tasks of u = 204.8: not on CPU 2 (204.8 is not below its
        # 80%).  On CPUs 0 and 1 at 512, activations aligned: each CPU
        # busy 0.4 at 100, off in the 9.6 ms gap, woken once (80.125 for
        # both); the cluster busy 0.4 at 40 and off the rest at 5 (19);
        # domain 1 idle (10): 109.125.  On one CPU at 512 (busy 0.8, 3.2 ms
        # gaps still reach off): 80.0625 + 33 + 10 = 123.0625.
        self.assertAlmostEqual(periodic_bound(DOMS, [(0.2, 204.8)] * 2, 1.0, 16000), 109.125)

    def test_unequal_tasks_share_the_cluster(self):
        # u = 204.8 (only domain 0 fits it) and u = 51.2.  The small one on
        # CPU 2 (busy 0.2: 10 + 3.2 + 2 + 4.8 = 20), the large one on CPU 0
        # at 512 (busy 0.4: 40 + 0.0625, cluster 16 + 3): 79.0625.  Both on
        # CPUs 0 and 1 at 512: CPUs 40.0625 + 10.0625, the cluster busy as
        # long as the busier CPU (0.4: 19, not 0.1's 8.5), domain 1 idle
        # (10): 79.125.  Both on CPU 0 (busy 0.5): 50.0625 + 22.5 + 10.
        self.assertAlmostEqual(periodic_bound(DOMS, [(0.2, 204.8), (0.05, 51.2)], 1.0, 16000),
                               79.0625)

    def test_a_cpu_fits_its_tasks_sum(self):
        # Three tasks seen at 420: each fits domain 0 (below 819.2), two
        # on one CPU do not (840), though 1024 would cover them with the
        # headroom (892.5); CPU 2 fits none.
        self.assertIsNone(periodic_bound(DOMS, [(0.05, 420)] * 3, 1.0, 16000))

    def test_no_room(self):
        # Three tasks seen at 500: two CPUs fit one each (below 819.2),
        # not two, and CPU 2 none.
        self.assertIsNone(periodic_bound(DOMS, [(0.2, 500)] * 3, 1.0, 16000))

    def test_order_and_floor(self):
        tasks = [(0.05, 51.2), (0.2, 204.8), (0.1, 120)]
        b = periodic_bound(DOMS, tasks, 1.0, 16000)
        self.assertAlmostEqual(periodic_bound(DOMS, tasks[::-1], 1.0, 16000), b)
        work = sum(w for w, _ in tasks)
        self.assertGreaterEqual(b, energy_floor(DOMS, work, 1.0))
        # No better than the tasks' one-task bounds would allow with the
        # idle domains counted once: at least the largest of them.
        self.assertGreaterEqual(b, max(one_task_bound(DOMS, w, 1.0, 16000, o) for w, o in tasks))
