# SPDX-License-Identifier: GPL-2.0
"""seneval.run: a run's figures over its measured window."""
import os
import tempfile
import unittest

from seneval.model import load_model
from seneval.run import active_energy, analyse_run, decision_cost

from .synth import freq_marker, line, marker, model_text, rtapp_log, switch, write

# CPUs 0-1 in one domain: cap 512 (cpu 100, cluster 40 uW), cap 1024 (300,
# 60); WFI (10, 20), off (0, 5, wakeup 1000).
MODEL = model_text([("0-1", [(500000, 512, 100, 40), (1000000, 1024, 300, 60)],
                     [("WFI", 10, 20, 0), ("off", 0, 5, 1000)])])
LISA_WL = {"name": "Small", "kind": "lisa", "threshold_pct": 5,
           "tasks": [{"name": "small", "instances": 1, "phases": [[20, 2.0]]}]}
EXAMPLE_WL = {"name": "Small", "kind": "example"}

# One rt-app thread "small" (pid 7) at the top OPP: in its warm-up (phase
# 0, from 1.0) it runs 1.2-1.4 on CPU0 and migrates at 1.5; in phase 1
# (from 2.0, the end of the warm-up) it runs 2.2-2.4 and migrates at 2.5;
# it exits at 3.0, the run ends at 3.5.  Its log: an activation at 1.0 s
# (slack -5 us) and one at 2.0 s (slack 5 us), each ending 0.5 s later
# (its run and its timer's sleep), 0.1 s of work each, a 16 ms period.
# The log's clock is the trace's: each row starts at its "begins loop"
# marker (clock offset 0).
TRACE = [freq_marker(0.5, 0, 1000000), freq_marker(0.5, 1, 1000000),
         marker(1.0, "se: start Small sen 1"), marker(1.0, "[0] starts", "small", 7),
         marker(1.0, "[0] begins loop 0 phase 0 step 0", "small", 7),
         switch(1.2, 0, 7, "small"), switch(1.4, 0, 0),
         line(1.5, 0, "sched_migrate_task", "comm=small pid=7 prio=120 orig_cpu=0 dest_cpu=0"),
         marker(2.0, "[0] begins loop 0 phase 1 step 62", "small", 7),
         switch(2.2, 0, 7, "small"), switch(2.4, 0, 0),
         line(2.5, 0, "sched_migrate_task", "comm=small pid=7 prio=120 orig_cpu=0 dest_cpu=0"),
         marker(3.0, "[0] exiting", "small", 7), marker(3.5, "se: end")]


class AnalyseRun(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        d = self.dir.name
        self.model = write(os.path.join(d, "model.txt"), MODEL)
        self.path = write(os.path.join(d, "runs", "Small", "sen-1.trace.gz"), "".join(TRACE))
        rtapp_log(os.path.join(d, "runs", "Small", "sen-1", "small-0.log"),
                  [(1.0, -5, 100000, 16000, 1.5), (2.0, 5, 100000, 16000, 2.5)])
        self.doms, _ = load_model(self.model)

    def tearDown(self):
        self.dir.cleanup()

    def test_lisa_window(self):
        r, segs, tr = analyse_run(self.doms, LISA_WL, self.path, {})
        # The window: the end of the warm-up (2.0) to the exit (3.0).
        self.assertEqual(r["window"], [2.0, 3.0])
        self.assertAlmostEqual(r["wall_s"], 1.0)
        # In it: 0.1 s of work (the activation at 2.0), traced 0.2 s, a
        # work factor of 0.5 (stretch 2).  CPU0 0.1 s busy at cap 1024:
        # 0.1 * 300 = 30, cluster 0.1 * 60 = 6; idle all WFI (no cpu_idle
        # event): CPU0 0.9 * 10 = 9, CPU1 1.0 * 10 = 10, cluster 0.9 * 20
        # = 18.  73 uJ: 0.073 mJ.  As traced (no factor): 0.2 * 300 +
        # 0.2 * 60 + 0.8 * 10 + 10 + 0.8 * 20 = 106 uJ.
        self.assertAlmostEqual(r["work_s"], 0.1)
        self.assertAlmostEqual(r["stretch"], 2.0)
        self.assertAlmostEqual(r["active_mj"], 0.036)
        self.assertAlmostEqual(r["idle_mj"], 0.037)
        self.assertAlmostEqual(r["energy_mj"], 0.073)
        self.assertAlmostEqual(r["traced_mj"], 0.106)
        # The migration at 2.5 only; the activation at 2.0 only (slack 5).
        self.assertEqual(r["migrations"], 1)
        self.assertEqual(r["clock_offset_s"], 0.0)
        self.assertEqual(r["slack_neg"], {"small-0": 0.0})
        self.assertTrue(r["host_slack_pass"])
        # The model: that activation ran 2.2-2.4 on CPU0 at cap 1024, R =
        # 100000 us * 1024 / 1024 = 100 ms > its 16 ms period: late, 1 of
        # 1.  LISA's slack criterion fails on the model, passes on the
        # host's view.
        self.assertEqual(r["model_late"], {"small-0": 1.0})
        self.assertEqual(r["model_late_worst"], 1.0)
        self.assertFalse(r["model_slack_pass"])
        # One activation in the window is not a periodic task all through
        # it: no periodic bound.
        self.assertIsNone(r["bound_mj"])
        self.assertAlmostEqual(r["model_ratio_median"]["small-0"], 100 / 16)
        self.assertEqual(r["model_unpriced"], 0)
        self.assertFalse(r["lisa"]["slack_pass"])
        self.assertTrue(r["lisa"]["host_slack_pass"])
        # LISA: 20% = 204.8 on CPU0 all the window, cap 512, a = 0.4: 40 +
        # 0.4 * 40 + 0.6 * 5 = 59 uJ over 1 s; the optimum is the same.
        self.assertEqual((r["lisa"]["measured_from"], r["lisa"]["window_s"]), (2.0, 1.0))
        self.assertAlmostEqual(r["lisa"]["estimate_mj"], 0.059)
        self.assertAlmostEqual(r["lisa"]["optimum_mj"], 0.059)
        self.assertTrue(r["lisa"]["pass"])
        # The plots' segments cover the whole run, from its start (1.0).
        self.assertEqual(len(segs[0]), 2)
        for (a, w, p), start in zip(segs[0], (0.2, 1.2)):
            self.assertAlmostEqual(a, start)
            self.assertAlmostEqual(w, 0.2)
        self.assertEqual((tr.start, tr.end), (1.0, 3.5))

    def test_no_warmup(self):
        # The same run as an example workload: the whole run, 1.0-3.5.
        # Both activations (0.2 s of work, one of two late), both
        # migrations; 0.4 s traced, factor 0.5: CPU0 0.2 * 300 = 60,
        # cluster 12; idle CPU0 2.3 * 10, CPU1 2.5 * 10, cluster 2.3 * 20:
        # 23 + 25 + 46 = 94.  166 uJ.
        r, segs, tr = analyse_run(self.doms, EXAMPLE_WL, self.path, {})
        self.assertEqual(r["window"], [1.0, 3.5])
        self.assertAlmostEqual(r["work_s"], 0.2)
        self.assertEqual(r["migrations"], 2)
        self.assertEqual(r["slack_neg"], {"small-0": 0.5})
        self.assertAlmostEqual(r["energy_mj"], 0.166)
        self.assertNotIn("lisa", r)
        # Two activations 16 ms apart do not fill 2.5 s: no periodic bound.
        self.assertIsNone(r["bound_mj"])

    def test_periodic_bound(self):
        # A timer thread all through the window (1.0-3.5): 157 activations
        # of 1 ms every 16 ms, 0.157 s of work (u = 64.3072), traced 0.4 s
        # (seen at 163.84).  At cap 512 (covers 174.08) busy 0.1256 at
        # 100 + 40, off in the 14 ms gap at 0 + 5, woken once (1000 /
        # 16000), CPU1 off: 12.56 + 0.0625 + 5.024 + 4.372 = 22.0185 uW
        # over 2.5 s.  (At 1024: 18.84 + 0.0625 + 3.768 + 4.686.)
        # (The trace without its two "begins loop" markers: rows and
        # markers would not pair, and the clock offset is then 0.)
        write(self.path, "".join(x for x in TRACE if "begins loop" not in x))
        log = os.path.join(self.dir.name, "runs", "Small", "sen-1", "small-0.log")
        rtapp_log(log, [(1.0 + 0.016 * i, 0, 1000, 16000) for i in range(157)])
        r, segs, tr = analyse_run(self.doms, EXAMPLE_WL, self.path, {})
        self.assertAlmostEqual(r["bound_mj"], 22.0185 * 2.5 / 1000)
        # Without a timer (resumed by another thread), 84 activations of
        # 5 ms every 30 ms: the period is read off the starts.  0.42 s of
        # work (u = 172.032), seen at 163.84: at 512 busy 0.336 at 100 +
        # 40, off in the 19.9 ms gap, woken once (1000 / 30000): 33.6 +
        # 0.0333 + 13.44 + 3.32 = 50.3933 uW.
        rtapp_log(log, [(1.0 + 0.03 * i, 0, 5000, 0) for i in range(84)])
        r, segs, tr = analyse_run(self.doms, EXAMPLE_WL, self.path, {})
        self.assertAlmostEqual(r["bound_mj"], (33.6 + 1000 / 30000 + 13.44 + 3.32) * 2.5 / 1000)
        # A timer thread that does no work (it only resumes the other) is
        # left out: the same bound.
        rtapp_log(os.path.join(self.dir.name, "runs", "Small", "sen-1", "tick-1.log"),
                  [(1.0 + 0.006 * i, 0, 0, 6000) for i in range(10)])
        r, segs, tr = analyse_run(self.doms, EXAMPLE_WL, self.path, {})
        self.assertAlmostEqual(r["bound_mj"], (33.6 + 1000 / 30000 + 13.44 + 3.32) * 2.5 / 1000)
        # Half the window's activations: not all through it, no bound.
        rtapp_log(log, [(1.0 + 0.03 * i, 0, 5000, 0) for i in range(42)])
        r, segs, tr = analyse_run(self.doms, EXAMPLE_WL, self.path, {})
        self.assertIsNone(r["bound_mj"])

    def test_no_bound_for_varying_work(self):
        write(self.path, "".join(x for x in TRACE if "begins loop" not in x))
        # Activations all through the window of 1 ms and then 0.4 ms: not
        # one repeated activation, so no periodic bound; nor with two
        # periods.
        for rows in ([(1.0 + 0.016 * i, 0, 1000 if i < 80 else 400, 16000) for i in range(157)],
                     [(1.0 + 0.016 * i, 0, 1000, 16000 if i < 80 else 17000)
                      for i in range(157)]):
            rtapp_log(os.path.join(self.dir.name, "runs", "Small", "sen-1", "small-0.log"), rows)
            r, segs, tr = analyse_run(self.doms, EXAMPLE_WL, self.path, {})
            self.assertIsNone(r["bound_mj"])

    def test_active_energy(self):
        # As traced over the whole run: 0.4 s at cap 1024, 0.4 * 300 +
        # 0.4 * 60 = 144 uJ.
        a = active_energy(self.model, self.path)
        self.assertEqual(a["window"], [1.0, 3.5])
        self.assertAlmostEqual(a["active_mj"], 0.144)
        self.assertEqual(a["clusters"][0]["cpus"], [0, 1])

    def test_decision_cost(self):
        p = write(os.path.join(self.dir.name, "console.log"),
                  "[    2.5] boot\n[    3.0]     # sched_energy_decision_cost: cpus=6 domains=2 "
                  "opps=5 ns_per_decision=1234 ns_best=1000 ns_per_domain=617\n"
                  "[    3.1]     # sen_whole_cpus: sched_energy_decision_whole: cpus=8 "
                  "domains=2 opps=10 board_cpus=6 decisions=50 ns_per_decision=3440 "
                  "ns_per_cpu=430 ns_best=3100\n")
        self.assertEqual(decision_cost(p), [
            {"kind": "sums", "cpus": "6", "domains": "2", "opps": "5",
             "ns_per_decision": "1234", "ns_best": "1000", "ns_per_domain": "617"},
            {"kind": "whole", "cpus": "8", "domains": "2", "opps": "10", "board_cpus": "6",
             "decisions": "50", "ns_per_decision": "3440", "ns_per_cpu": "430",
             "ns_best": "3100"}])
        self.assertEqual(decision_cost(os.path.join(self.dir.name, "none")), [])


if __name__ == "__main__":
    unittest.main()
