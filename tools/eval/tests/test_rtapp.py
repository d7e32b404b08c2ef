# SPDX-License-Identifier: GPL-2.0
"""seneval.rtapp: rt-app's logs, markers and the measured window."""
import os
import tempfile
import unittest

from seneval.rtapp import (activations, has_warmup, load_workloads, log_work,
                           measured_window, slack, work_factors)
from seneval.trace import Trace

from .synth import marker, rtapp_log, switch, write

LISA_WL = {"name": "Two", "kind": "lisa", "threshold_pct": 5,
           "tasks": [{"name": "small", "instances": 2, "phases": [[20, 2.0]]}]}
EXAMPLE_WL = {"name": "mp3", "kind": "example"}


class Logs(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.logs = os.path.join(self.dir.name, "logs")
        # Four timed activations at 1, 2, 3, 4 s with slack 5, -3, 7, -1
        # us, 1600 us of work each; one without a timer (c_period 0) at 5 s.
        rtapp_log(os.path.join(self.logs, "w-t-0.log"),
                  [(1.0, 5, 1600, 16000), (2.0, -3, 1600, 16000), (3.0, 7, 1600, 16000),
                   (4.0, -1, 1600, 16000), (5.0, -9, 1600, 0)])
        write(os.path.join(self.logs, "rt-app.out"), "not a log\n")

    def tearDown(self):
        self.dir.cleanup()

    def test_activations(self):
        a = activations(self.logs)
        self.assertEqual(list(a), ["w-t-0"])
        self.assertEqual(len(a["w-t-0"]), 5)
        self.assertEqual(a["w-t-0"][1]["slack"], -3)
        self.assertEqual(a["w-t-0"][1]["start"], 2000000)
        self.assertEqual(activations(os.path.join(self.dir.name, "none")), {})

    def test_slack(self):
        # Two of the four timed activations late; the untimed one not
        # counted.
        self.assertEqual(slack(self.logs), {"w-t-0": 0.5})
        # From 2.5 s: 7 and -1, one of two.  From 3.5 s: -1 only.
        self.assertEqual(slack(self.logs, 2.5), {"w-t-0": 0.5})
        self.assertEqual(slack(self.logs, 3.5), {"w-t-0": 1.0})
        # Before 1.5 s: 5 only; [1.5, 3.5): -3 and 7.
        self.assertEqual(slack(self.logs, None, 1.5), {"w-t-0": 0.0})
        self.assertEqual(slack(self.logs, 1.5, 3.5), {"w-t-0": 0.5})
        # No activation in the window: no figure.
        self.assertEqual(slack(self.logs, 6.0), {})
        # Zero slack is on time (LISA counts slack < 0).
        rtapp_log(os.path.join(self.logs, "w-t-1.log"), [(1.0, 0, 1600, 16000),
                                                          (2.0, -1, 1600, 16000)])
        self.assertEqual(slack(self.logs)["w-t-1"], 0.5)

    def test_work(self):
        # Thread 0 (w-t-0.log): 5 x 1600 us = 0.008 s; in [2.5, 4.5): the
        # activations at 3 and 4 s, 0.0032 s.
        self.assertEqual(list(log_work(self.logs)), [0])
        self.assertAlmostEqual(log_work(self.logs)[0], 0.008)
        self.assertAlmostEqual(log_work(self.logs, 2.5, 4.5)[0], 0.0032)

    def test_work_factors(self):
        # Thread 0 (pid 7, w-t-0.log) runs 1.0-1.5 and 2.0-2.5 on CPU0,
        # thread 1 (pid 8, w-t-1.log: one activation at 1.0 s, 30000 us)
        # 1.0-1.01 on CPU1; thread 2 (pid 9) has no log.
        rtapp_log(os.path.join(self.logs, "w-t-1.log"), [(1.0, 5, 30000, 16000)])
        lines = [marker(0.9, "se: start"), marker(1.0, "[0] starts", "t", 7),
                 marker(1.0, "[1] starts", "t", 8), marker(1.0, "[2] starts", "t", 9),
                 switch(1.0, 0, 7), switch(1.0, 1, 8), switch(1.01, 1, 0), switch(1.5, 0, 0),
                 switch(2.0, 0, 7), switch(2.5, 0, 0), marker(3.0, "se: end")]
        tr = Trace(write(os.path.join(self.dir.name, "t.trace"), "".join(lines)))
        # Over [1.0, 3.0): thread 0 did the activations at 1 and 2 s, 3200
        # us = 0.0032 s of work, in 1.0 s traced: 0.0032, clamped to 0.05;
        # thread 1 0.03 s in 0.01 s: 3, clamped to 1.5.
        self.assertEqual(work_factors(tr, self.logs, 1.0, 3.0), {7: 0.05, 8: 1.5})
        # Thread 1 with 12000 us of work, over [1.0, 1.05): 0.012 / 0.01
        # = 1.2.
        rtapp_log(os.path.join(self.logs, "w-t-1.log"), [(1.0, 5, 12000, 16000)])
        self.assertAlmostEqual(work_factors(tr, self.logs, 1.0, 1.05)[8], 1.2)


class Window(unittest.TestCase):
    def trace(self, lines):
        with tempfile.TemporaryDirectory() as d:
            return Trace(write(os.path.join(d, "t.trace"), "".join(lines)))

    def test_lisa_window(self):
        # Two instances of "small": the warm-up ends when the last one
        # begins phase 1 (2.1); the window ends when the first one exits
        # (3.0).  Another task's markers do not count.
        tr = self.trace([
            marker(1.0, "se: start"),
            marker(1.0, "[0] begins loop 0 phase 0 step 0", "small", 7),
            marker(1.0, "[1] begins loop 0 phase 0 step 0", "small", 8),
            marker(2.0, "[0] begins loop 0 phase 1 step 62", "small", 7),
            marker(2.1, "[1] begins loop 0 phase 1 step 62", "small", 8),
            marker(2.5, "[2] begins loop 0 phase 1 step 62", "other", 9),
            marker(3.0, "[0] exiting", "small", 7), marker(3.1, "[1] exiting", "small", 8),
            marker(3.5, "se: end")])
        self.assertTrue(has_warmup(LISA_WL))
        self.assertEqual(measured_window(tr, LISA_WL), (2.1, 3.0))
        # An example has no warm-up: the whole run.
        self.assertFalse(has_warmup(EXAMPLE_WL))
        self.assertEqual(measured_window(tr, EXAMPLE_WL), (1.0, 3.5))

    def test_no_exit(self):
        # No exit marker: to "se: end".
        tr = self.trace([marker(1.0, "se: start"),
                         marker(2.0, "[0] begins loop 0 phase 1 step 62", "small", 7),
                         marker(3.5, "se: end")])
        self.assertEqual(measured_window(tr, LISA_WL), (2.0, 3.5))

    def test_no_phase_markers(self):
        tr = self.trace([marker(1.0, "se: start"), marker(3.5, "se: end")])
        self.assertIsNone(measured_window(tr, LISA_WL))


class Workloads(unittest.TestCase):
    def test_manifest(self):
        wls = {w["name"]: w for w in load_workloads()["workloads"]}
        self.assertEqual(wls["mp3"]["kind"], "example")
        self.assertEqual(wls["RampUp"]["kind"], "lisa")
        self.assertTrue(has_warmup(wls["RampUp"]))
        self.assertFalse(has_warmup(wls["mp3"]))


if __name__ == "__main__":
    unittest.main()
