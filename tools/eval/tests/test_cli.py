# SPDX-License-Identifier: GPL-2.0
"""The analysis front ends: --help prints usage and exits 0, each of them."""
import os
import subprocess
import sys
import unittest

SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts")
FRONT_ENDS = ["eval-analyse", "eval-compare", "trace-energy", "idlestat-check",
              "bench-balance-analyse", "eval-workloads"]


class Help(unittest.TestCase):
    def test_every_front_end_prints_usage(self):
        for name in FRONT_ENDS:
            with self.subTest(name=name):
                p = subprocess.run([sys.executable, os.path.join(SCRIPTS, name), "--help"],
                                   capture_output=True, text=True, timeout=60)
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertIn("usage:", p.stdout)
