# SPDX-License-Identifier: GPL-2.0
"""The analysis front ends: --help prints usage and exits 0, each of them;
eval-compare --pair."""
import json
import os
import subprocess
import sys
import tempfile
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


class ComparePair(unittest.TestCase):
    """eval-compare --pair: two modes of one run, round by round."""

    def run_pair(self, summary, *modes):
        with tempfile.TemporaryDirectory() as d:
            path, out = os.path.join(d, "results.json"), os.path.join(d, "out.json")
            with open(path, "w") as f:
                json.dump({"meta": {"kernel": "k"}, "summary": summary}, f)
            p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "eval-compare"),
                                "--pair", *modes, path, "--json", out],
                               capture_output=True, text=True, timeout=60)
            res = json.load(open(out)) if os.path.exists(out) else None
        return p, res

    def test_round_by_round(self):
        # sen / eas wanders from round to round (0.80-1.22, a noisy host);
        # senh4 is 10% below sen in every round: the per-round ratio is 0.90
        # exactly, which two runs' medians alone could not show.
        sen = {str(r): 0.8 + 0.03 * r for r in range(1, 15)}
        h4 = {r: 0.9 * v for r, v in sen.items()}
        h4["15"] = 0.5   # a round sen did not run has no pair
        summary = {"workloads": {"w": {"sen": {"vs_ref": {"ratios": sen}},
                                       "senh4": {"vs_ref": {"ratios": h4}}}}}
        p, res = self.run_pair(summary, "sen", "senh4")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(res["w"]["n"], 14)
        self.assertAlmostEqual(res["w"]["median"], 0.9)
        self.assertAlmostEqual(res["w"]["hi"], 0.9)
        self.assertEqual(res["w"]["verdict"], "better")

    def test_missing_mode_is_an_error(self):
        summary = {"workloads": {"w": {"sen": {"vs_ref": {"ratios": {"1": 1.0}}}}}}
        p, res = self.run_pair(summary, "sen", "senh4")
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("no workload has both sen and senh4", p.stderr)

    def test_no_shared_round(self):
        summary = {"workloads": {"w": {"sen": {"vs_ref": {"ratios": {"1": 1.0}}},
                                       "senh4": {"vs_ref": {"ratios": {"2": 0.9}}}}}}
        p, res = self.run_pair(summary, "sen", "senh4")
        self.assertIn("no round has both modes", p.stdout)
        self.assertNotEqual(p.returncode, 0)


class ComparePool(unittest.TestCase):
    """eval-compare --pool: the rounds of several runs of one policy."""

    def run_pool(self, summaries, *args, clocks=()):
        with tempfile.TemporaryDirectory() as d:
            paths = []
            for i, s in enumerate(summaries):
                paths.append(os.path.join(d, f"r{i}.json"))
                meta = {"kernel": "k"}
                if i < len(clocks):
                    meta["clock"] = clocks[i]
                with open(paths[-1], "w") as f:
                    json.dump({"meta": meta, "summary": s}, f)
            out = os.path.join(d, "out.json")
            p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "eval-compare"),
                                "--pool", *args, *paths, "--json", out],
                               capture_output=True, text=True, timeout=60)
            res = json.load(open(out)) if os.path.exists(out) else None
        return p, res

    def test_rounds_together(self):
        # Two runs of 8 rounds (rounds numbered 1-8 in each): 16 ratios,
        # 0.80-0.87 and 0.90-0.97, pooled median 0.885; each run on its own
        # says 0.835 and 0.935.  A workload only one run has keeps its 8.
        a = {str(r): 0.79 + 0.01 * r for r in range(1, 9)}
        b = {str(r): 0.89 + 0.01 * r for r in range(1, 9)}
        s1 = {"workloads": {"w": {"sen": {"vs_ref": {"ratios": a}}},
                            "x": {"sen": {"vs_ref": {"ratios": a}}}},
              "ideal_idle": {"w": {"sen": {"ratios": b}}}}
        s2 = {"workloads": {"w": {"sen": {"vs_ref": {"ratios": b}}}},
              "ideal_idle": {"w": {"sen": {"ratios": b}}}}
        p, res = self.run_pool([s1, s2])
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(res["w"]["n"], 16)
        self.assertAlmostEqual(res["w"]["median"], 0.885)
        self.assertEqual(res["x"]["n"], 8)
        self.assertEqual(res["w"]["verdict"], "better")
        # --key ideal_idle reads the IDEAL IDLE rows.
        p, res = self.run_pool([s1, s2], "--key", "ideal_idle")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(res["w"]["n"], 16)
        self.assertAlmostEqual(res["w"]["median"], 0.935)
        self.assertNotIn("x", res)

    def test_pool_needs_runs_and_a_workload(self):
        s = {"workloads": {"w": {"sen": {"vs_ref": {"ratios": {"1": 1.0}}}}}}
        p, res = self.run_pool([s])
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("two or more", p.stderr)
        p, res = self.run_pool([s, s], "--mode", "senh4")
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("no workload has senh4", p.stderr)

    def test_clocks_do_not_mix(self):
        # A run on the instruction clock and one on the host's (a run
        # without "clock" in its meta was made on the host's) are not one
        # population: refused, whatever the figures.
        s = {"workloads": {"w": {"sen": {"vs_ref": {"ratios": {"1": 0.9, "2": 0.8}}}}}}
        p, res = self.run_pool([s, s], clocks=("icount",))
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("different clocks (host, icount)", p.stderr)
        self.assertIsNone(res)
        p, res = self.run_pool([s, s], clocks=("icount", "icount"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(res["w"]["n"], 4)

    def test_pool_pairs(self):
        # --pool --pair: the round-by-round ratios of two modes in each run
        # (senh4 0.9 of sen in run one, 0.8 in run two), taken together.
        sen = {str(r): 0.8 + 0.03 * r for r in range(1, 9)}
        s1 = {"workloads": {"w": {"sen": {"vs_ref": {"ratios": sen}},
                                  "senh4": {"vs_ref": {"ratios": {
                                      r: 0.9 * v for r, v in sen.items()}}}}}}
        s2 = {"workloads": {"w": {"sen": {"vs_ref": {"ratios": sen}},
                                  "senh4": {"vs_ref": {"ratios": {
                                      r: 0.8 * v for r, v in sen.items()}}}}}}
        p, res = self.run_pool([s1, s2], "--pair", "sen", "senh4")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(res["w"]["n"], 16)
        self.assertAlmostEqual(res["w"]["median"], 0.85)
        self.assertEqual(res["w"]["verdict"], "better")
