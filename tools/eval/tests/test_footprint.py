# SPDX-License-Identifier: GPL-2.0
"""tools/footprint: the phase bookkeeping and the plugin's build."""
import importlib.util
import os
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
FOOTPRINT = os.path.join(HERE, "..", "..", "footprint")
spec = importlib.util.spec_from_file_location("footprint_analyse",
                                              os.path.join(FOOTPRINT, "analyse.py"))
analyse = importlib.util.module_from_spec(spec)
spec.loader.exec_module(analyse)


def phase(n, calls, insns):
    return (f"phase {n} calls {calls} insns {insns} loads 1.0 stores 1.0 "
            "lines 1.0 pages 1.0 shared 1.0\n")


class Runs(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)

    def write(self, guest, phases):
        with open(os.path.join(self.dir, "guest.out"), "w") as f:
            f.write(guest)
        with open(os.path.join(self.dir, "phases.txt"), "w") as f:
            f.writelines(phases)

    def test_each_run_is_the_phase_after_its_switch(self):
        # Phases 1 and 3 are the switches (boot before the first), 2 and 4
        # the runs, 5 the guest's own sync at power-off.
        self.write("boot noise\nse-footprint: eas 1\nse-footprint: sen 1\n",
                   [phase(1, 900, 5.0), phase(2, 20000, 1800.0), phase(3, 30, 7.0),
                    phase(4, 20010, 2700.0), phase(5, 3, 9.0)])
        runs = analyse.read_runs(self.dir, 18000)
        self.assertEqual([(m, r, f["insns"], ph) for m, r, f, ph in runs],
                         [("eas", 1, 1800.0, 2), ("sen", 1, 2700.0, 4)])

    def test_a_phase_with_too_few_calls_is_refused(self):
        # One pair makes 10000 wakeups: 800 calls means the phases slipped
        # (a sync the bookkeeping does not know of).
        self.write("se-footprint: eas 1\n", [phase(1, 900, 5.0), phase(2, 800, 1800.0)])
        with self.assertRaises(SystemExit):
            analyse.read_runs(self.dir, 9000)

    def test_a_missing_phase_is_refused(self):
        self.write("se-footprint: eas 1\nse-footprint: sen 1\n",
                   [phase(1, 900, 5.0), phase(2, 20000, 1800.0)])
        with self.assertRaises(SystemExit):
            analyse.read_runs(self.dir, 18000)


@unittest.skipUnless(shutil.which("gcc"), "no gcc")
class Plugin(unittest.TestCase):
    def test_builds_without_warnings(self):
        with tempfile.TemporaryDirectory() as d:
            r = subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror", "-shared",
                                "-fPIC", "-o", os.path.join(d, "f.so"),
                                os.path.join(FOOTPRINT, "footprint.c"), "-lpthread"],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
