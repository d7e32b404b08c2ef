# SPDX-License-Identifier: GPL-2.0
"""seneval.perf: modelled run time and lateness per rt-app activation, by hand."""
import os
import tempfile
import unittest

from seneval.model import parse_model
from seneval.perf import model_lateness, modelled_run, run_segments
from seneval.rtapp import clock_offset
from seneval.trace import Trace

from .synth import freq_marker, line, marker, model_text, rtapp_log, switch, write

# Domain 0: CPUs 0-1, OPPs 400 MHz (cap 256) and 800 MHz (cap 512);
# domain 1: CPU 2, 1 GHz (cap 1024).  Powers do not matter here.
DOMS, _ = parse_model(model_text([
    ("0-1", [(400000, 256, 10, 5), (800000, 512, 30, 10)], [("WFI", 1, 2, 0)]),
    ("2", [(1000000, 1024, 100, 20)], [("WFI", 1, 2, 0)])]))

# Thread 0 ("t", pid 7).  Each domain starts at its lowest OPP (markers
# at 0.5).  Its activations (log rows, times in the trace's clock):
#   A [1.000, 1.050): 2000 us of work, period 10 ms; runs 1.000-1.010 on
#     CPU0 (cap 256).  Then it runs 1.060-1.070 on CPU2, in no activation.
#   B [1.100, 1.150): 6000 us, 10 ms; runs 1.100-1.103 on CPU0 (cap 256)
#     and 1.103-1.109 on CPU2 (cap 1024).
#   C [1.200, 1.250): 3000 us, 10 ms; runs 1.200-1.208 on CPU1; at 1.204
#     CPU0's cpu_frequency event moves domain 0 to 800 MHz (cap 512).
#   D [1.300, 1.350): 1000 us, no timer (c_period 0); runs 1.300-1.301.
#   E [1.400, 1.450): 1000 us, 10 ms; never runs (lost events): unpriced.
# rt-app's own slack says all of them were on time.
LINES = [freq_marker(0.5, 0, 400000), freq_marker(0.5, 1, 400000),
         freq_marker(0.5, 2, 1000000),
         marker(0.9, "se: start W sen 1"), marker(0.9, "[0] starts", "t", 7),
         marker(1.0, "[0] begins loop 0 phase 0 step 0", "t", 7),
         switch(1.000, 0, 7, "t"), switch(1.010, 0, 0),
         switch(1.060, 2, 7, "t"), switch(1.070, 2, 0),
         marker(1.1, "[0] begins loop 0 phase 0 step 1", "t", 7),
         switch(1.100, 0, 7, "t"), switch(1.103, 0, 0), switch(1.103, 2, 7, "t"),
         switch(1.109, 2, 0),
         marker(1.2, "[0] begins loop 0 phase 0 step 2", "t", 7),
         switch(1.200, 1, 7, "t"),
         line(1.204, 0, "cpu_frequency", "state=800000 cpu_id=0"),
         switch(1.208, 1, 0),
         marker(1.3, "[0] begins loop 0 phase 0 step 3", "t", 7),
         switch(1.300, 1, 7, "t"), switch(1.301, 1, 0),
         marker(1.4, "[0] begins loop 0 phase 0 step 4", "t", 7),
         marker(2.0, "se: end")]
ROWS = [(1.0, 5, 2000, 10000, 1.05), (1.1, 5, 6000, 10000, 1.15),
        (1.2, 5, 3000, 10000, 1.25), (1.3, 5, 1000, 0, 1.35), (1.4, 5, 1000, 10000, 1.45)]


class Lateness(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        d = self.dir.name
        self.logs = os.path.join(d, "logs")
        rtapp_log(os.path.join(self.logs, "w-t-0.log"), ROWS)
        self.tr = Trace(write(os.path.join(d, "t.trace"), "".join(LINES)))

    def tearDown(self):
        self.dir.cleanup()

    def test_segments(self):
        # pid 7's stretches: CPU0 cap 256, CPU2 1024, CPU0 256, CPU2 1024,
        # CPU1 256 then 512 (split at the OPP change), CPU1 512.
        starts, ends, caps = run_segments(DOMS, self.tr)[7]
        self.assertEqual(caps, [256, 1024, 256, 1024, 256, 512, 512])
        self.assertEqual(starts[4:6], [1.2, 1.204])
        self.assertEqual(ends[4:6], [1.204, 1.208])

    def test_one_opp(self):
        # A: all its running at cap 256: R = 2000 * 1024 / 256 = 8000 us,
        # on time (<= 10000).  The run at 1.060-1.070 on CPU2 is outside
        # [1.000, 1.050): counted, it would give 2000 * (0.5 * 4 + 0.5 *
        # 1) = 5000.
        segs = run_segments(DOMS, self.tr)[7]
        self.assertAlmostEqual(modelled_run(segs, 1.0, 1.05, 2000), 8000.0)

    def test_two_cpus_two_capacities(self):
        # B: 3 ms traced at cap 256, 6 ms at 1024: shares 1/3 and 2/3.  R =
        # 6000 * (1/3 * 1024/256 + 2/3 * 1024/1024) = 6000 * (4/3 + 2/3) =
        # 12000 us: late (> 10000), though rt-app's slack was positive.
        segs = run_segments(DOMS, self.tr)[7]
        self.assertAlmostEqual(modelled_run(segs, 1.1, 1.15, 6000), 12000.0)

    def test_opp_change_mid_run(self):
        # C: 4 ms at cap 256, 4 ms at 512 (the domain's OPP, changed by
        # another CPU's event): R = 3000 * (0.5 * 4 + 0.5 * 2) = 9000 us,
        # on time.  At 256 only it would be 12000, late.
        segs = run_segments(DOMS, self.tr)[7]
        self.assertAlmostEqual(modelled_run(segs, 1.2, 1.25, 3000), 9000.0)

    def test_no_work_no_run(self):
        segs = run_segments(DOMS, self.tr)[7]
        # No work: 0 whatever ran.  Work but no running traced: unpriced.
        self.assertEqual(modelled_run(segs, 1.4, 1.45, 0), 0.0)
        self.assertIsNone(modelled_run(segs, 1.4, 1.45, 1000))
        self.assertIsNone(modelled_run(None, 1.0, 1.05, 1000))

    def test_task_share(self):
        # Timed and priced: A (on time, R/period 0.8), B (late, 1.2), C (on
        # time, 0.9); D has no timer, E is unpriced.  1 of 3 late: 33%,
        # over 15%: the criterion fails.  Median R / period 0.9.
        r = model_lateness(DOMS, self.tr, self.logs, 0.9, 2.0)
        t = r["tasks"]["w-t-0"]
        self.assertEqual(t["n"], 3)
        self.assertAlmostEqual(t["late"], 1 / 3)
        self.assertAlmostEqual(t["ratio_median"], 0.9)
        self.assertAlmostEqual(r["worst"], 1 / 3)
        self.assertEqual(r["unpriced"], 1)
        self.assertFalse(r["pass"])

    def test_window(self):
        # Activations count by their start: [1.05, 1.2) holds B only (late:
        # 100%); [1.15, 1.35) C and D, C the only timed one (on time: 0%,
        # passes).  [1.5, 2.0) none: no task, worst 0, passes.
        r = model_lateness(DOMS, self.tr, self.logs, 1.05, 1.2)
        self.assertEqual((r["tasks"]["w-t-0"]["n"], r["worst"]), (1, 1.0))
        r = model_lateness(DOMS, self.tr, self.logs, 1.15, 1.35)
        self.assertEqual((r["tasks"]["w-t-0"]["n"], r["worst"], r["pass"]), (1, 0.0, True))
        r = model_lateness(DOMS, self.tr, self.logs, 1.5, 2.0)
        self.assertEqual((r["tasks"], r["worst"], r["pass"]), ({}, 0.0, True))

    def test_clock_offset(self):
        # The same log on a clock 0.166 s behind the trace's.  Each row's
        # start is 0.166 s before its "begins loop" marker: clock_offset()
        # is 0.166, and with it the figures are those above (1 of 3 late,
        # E unpriced).  Without it, over [0.9, 2.0) the rows start at
        # 0.934 (B), 1.034 (C), 1.134 (D), 1.234 (E): B and E find no
        # running, C finds the stray run 1.060-1.070 at cap 1024 (R =
        # 3000 us, on time): 0 of 1 late, 2 unpriced.
        rtapp_log(os.path.join(self.logs, "w-t-0.log"),
                  [(s - 0.166, sl, d, p, e - 0.166) for s, sl, d, p, e in ROWS])
        off = clock_offset(self.tr, self.logs)
        self.assertAlmostEqual(off, 0.166)
        r = model_lateness(DOMS, self.tr, self.logs, 0.9, 2.0, off)
        self.assertAlmostEqual(r["tasks"]["w-t-0"]["late"], 1 / 3)
        self.assertEqual(r["unpriced"], 1)
        r = model_lateness(DOMS, self.tr, self.logs, 0.9, 2.0)
        self.assertEqual((r["tasks"]["w-t-0"]["n"], r["worst"], r["unpriced"]), (1, 0.0, 2))


class Criterion(unittest.TestCase):
    """LISA's test_slack on the model: at most 15% of activations late."""

    def run_with(self, nlate):
        # 20 activations of thread 1 (pid 8) from 1.0, every 20 ms, 5000 us
        # of work, a 10 ms period; each runs 5 ms (traced).  On time on
        # CPU2 (cap 1024: R = 5000 us); late on CPU0 (cap 256: R = 5000 *
        # 4 = 20000 us).  The first nlate run on CPU0.
        with tempfile.TemporaryDirectory() as d:
            lines = [freq_marker(0.5, 0, 400000), freq_marker(0.5, 2, 1000000),
                     marker(0.9, "se: start W sen 1"), marker(0.9, "[1] starts", "u", 8)]
            rows = []
            for i in range(20):
                t = 1.0 + 0.02 * i
                cpu = 0 if i < nlate else 2
                lines += [marker(t, f"[1] begins loop 0 phase 0 step {i}", "u", 8),
                          switch(t, cpu, 8, "u"), switch(t + 0.005, cpu, 0)]
                rows.append((t, 5, 5000, 10000, t + 0.02))
            lines.append(marker(2.0, "se: end"))
            logs = os.path.join(d, "logs")
            rtapp_log(os.path.join(logs, "w-u-1.log"), rows)
            tr = Trace(write(os.path.join(d, "t.trace"), "".join(lines)))
            return model_lateness(DOMS, tr, logs, 0.9, 2.0)

    def test_fifteen_percent(self):
        # 3 of 20 late: 15%, at the limit: passes.  4 of 20: 20%: fails.
        # None late: 0%.
        r = self.run_with(3)
        self.assertAlmostEqual(r["worst"], 0.15)
        self.assertTrue(r["pass"])
        r = self.run_with(4)
        self.assertAlmostEqual(r["worst"], 0.2)
        self.assertFalse(r["pass"])
        r = self.run_with(0)
        self.assertEqual((r["worst"], r["pass"]), (0.0, True))
        # R / period: 0.5 on time; the median of 20 with 4 late (2.0) is
        # 0.5.
        self.assertAlmostEqual(self.run_with(4)["tasks"]["w-u-1"]["ratio_median"], 0.5)


if __name__ == "__main__":
    unittest.main()
