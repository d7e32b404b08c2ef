# SPDX-License-Identifier: GPL-2.0
"""seneval.stalls: host stalls from tick gaps (hand-worked traces)."""
import unittest

from seneval import stalls


class FakeTrace:
    def __init__(self, ev):
        self.ev = sorted(ev, key=lambda e: e[0])


def sw(t, cpu, pid):
    return (t, "s", cpu, pid, "x")


def tick(t, cpu):
    return (t, "k", cpu, None, None)


class HostStalls(unittest.TestCase):
    def test_one_gap_on_a_busy_cpu(self):
        # CPU 0 runs pid 5 from 0; ticks at 4, 8 ms, then none until
        # 30 ms (a 22 ms gap > 5 ticks: 22 - 4 = 18 ms stalled), tick at
        # 34, idle from 36 ms to the end (no stall while idle).  CPU 1 idle.
        tr = FakeTrace([sw(0.0, 0, 5), tick(0.004, 0), tick(0.008, 0), tick(0.030, 0),
                        tick(0.034, 0), sw(0.036, 0, 0), sw(0.0, 1, 0)])
        s = stalls.host_stalls(tr, 0.0, 0.1, 2)
        self.assertAlmostEqual(s["stall_ms"], 18.0)
        self.assertEqual(s["stalls"], 1)
        self.assertAlmostEqual(s["longest_ms"], 22.0)
        # 18 ms of 100 ms x 2 CPUs.
        self.assertAlmostEqual(s["share"], 0.09)
        self.assertEqual(s["ticks"], 4)

    def test_five_ticks_is_not_a_stall(self):
        # A 20 ms gap is exactly GAP_TICKS ticks: allowed (host time slicing).
        tr = FakeTrace([sw(0.0, 0, 5), tick(0.004, 0), tick(0.024, 0), sw(0.026, 0, 0)])
        self.assertEqual(stalls.host_stalls(tr, 0.0, 0.05, 1)["stalls"], 0)

    def test_busy_at_the_end_of_the_window(self):
        # CPU 1 runs pid 7 from 50 ms with no tick until the end at
        # 100 ms: 50 - 4 = 46 ms.
        tr = FakeTrace([sw(0.05, 1, 7)])
        s = stalls.host_stalls(tr, 0.0, 0.1, 2)
        self.assertAlmostEqual(s["stall_ms"], 46.0)

    def test_window_start_cuts_the_gap(self):
        # Busy since 0, next tick at 40 ms, window from 30 ms: only the
        # 10 ms inside the window count, which is no stall.
        tr = FakeTrace([sw(0.0, 0, 5), tick(0.040, 0), sw(0.042, 0, 0)])
        self.assertEqual(stalls.host_stalls(tr, 0.030, 0.1, 1)["stalls"], 0)
        # From 0 it is a 40 ms gap: 36 ms stalled.
        self.assertAlmostEqual(stalls.host_stalls(tr, 0.0, 0.1, 1)["stall_ms"], 36.0)

    def test_a_switch_counts_as_activity(self):
        # Switches every 10 ms between two tasks, no tick: no stall.
        tr = FakeTrace([sw(0.01 * i, 0, 5 + i % 2) for i in range(10)] + [sw(0.1, 0, 0)])
        self.assertEqual(stalls.host_stalls(tr, 0.0, 0.1, 1)["stall_ms"], 0.0)


if __name__ == "__main__":
    unittest.main()
