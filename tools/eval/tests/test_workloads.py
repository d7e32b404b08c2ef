# SPDX-License-Identifier: GPL-2.0
"""scripts/eval-workloads: the JSON rt-app gets and the analysis's manifest."""
import json
import os
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


class Workloads(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        ex = os.path.join(cls.dir.name, "examples")
        os.makedirs(ex)
        for name in ("mp3-short", "video-short", "browser-short"):
            with open(os.path.join(ex, name + ".json"), "w") as f:
                # rt-app's dialect: a repeated key, a bare "suspend", a
                # trailing comma.
                f.write('{ "tasks": { "T%s": { "loop": -1, "run": 275, "resume": "x",\n'
                        '  "run": 4725, "suspend", }, },\n'
                        '  "global": { "calibration": "CPU0", "logdir": "./" } }\n' % name[0])
        cls.out = os.path.join(cls.dir.name, "wl")
        subprocess.run([os.path.join(ROOT, "scripts", "eval-workloads"), ex, cls.out], check=True)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def load(self, name):
        with open(os.path.join(self.out, name + ".json")) as f:
            return json.loads(f.read().replace("PLOAD", "100"))

    def test_example(self):
        w = self.load("mp3")
        task = w["tasks"]["Tm"]
        # Repeated run keys keep their values and their order, as runtime
        # events (CPU time, scripts/build-rtapp); a bare suspend suspends
        # its own thread.
        self.assertEqual(list(task), ["loop", "runtime", "resume", "runtime1", "suspend"])
        self.assertEqual((task["runtime"], task["runtime1"]), (275, 4725))
        self.assertEqual(task["suspend"], "Tm")
        # Fixed calibration, phase markers on.
        self.assertEqual(w["global"]["calibration"], 100)
        self.assertIs(w["global"]["ftrace"], True)

    def test_lisa_phases(self):
        ph = self.load("RampUp")["tasks"]["ramp"]["phases"]
        # A warm-up phase (the first step's 5%, 1 s) and 14 steps of 5% to
        # 70% of 16 ms (16000 * d / 100 = 160 d us), 0.5 s = 31 loops each.
        self.assertEqual(len(ph), 15)
        self.assertEqual([p["runtime"] for p in ph.values()],
                         [800] + [160 * d for d in range(5, 71, 5)])
        self.assertTrue(all(p["loop"] == 31 for p in list(ph.values())[1:]))
        self.assertFalse(any("run" in p for p in ph.values()))
        with open(os.path.join(self.out, "EnergyModelWakeMigration.json")) as f:
            self.assertIn('"instance": NBIG', f.read())

    def test_manifest(self):
        with open(os.path.join(self.out, "workloads.json")) as f:
            names = [w["name"] for w in json.load(f)["workloads"]]
        self.assertEqual(names[:3], ["mp3", "video", "browser"])
        self.assertEqual(len(names), 10)


if __name__ == "__main__":
    unittest.main()
