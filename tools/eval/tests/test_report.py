# SPDX-License-Identifier: GPL-2.0
"""seneval.report: pairing, leaving out stalled runs, the table's verdicts."""
import unittest

from seneval import report


def rec(w, m, r, e, share=0.0):
    return {"workload": w, "mode": m, "round": r, "energy_mj": e, "migrations": 0,
            "work_s": 1.0, "slack_neg_worst": 0.0, "stall": {"share": share, "stall_ms": 0.0}}


class Report(unittest.TestCase):
    def setUp(self):
        # Eight rounds: sen at 0.8 of eas, eas2 equal to eas, cfs at 1.1,
        # except round 3, whose sen run stalled for 5% of its CPU time.
        self.rs = []
        for r in range(1, 9):
            e = 100.0 + r
            self.rs += [rec("mp3", "eas", r, e), rec("mp3", "eas2", r, e),
                        rec("mp3", "sen", r, 0.8 * e, 0.05 if r == 3 else 0.0),
                        rec("mp3", "cfs", r, 1.1 * e)]
        report.mark_left_out(self.rs, 2.0)

    def test_stalled_run_and_its_pair_left_out(self):
        c = report.compare(self.rs, "mp3", "sen")
        self.assertEqual(c["n"], 7)
        self.assertNotIn(3, c["ratios"])
        self.assertAlmostEqual(c["median"], 0.8)
        self.assertEqual(c["verdict"], "better")

    def test_table_verdicts_and_noise_floor(self):
        lines = []
        meta = {"board": "b", "boots": 2, "modes": ["cfs", "eas", "eas2", "sen"], "pload": "1"}
        s = report.table(self.rs, meta, None, 2.0, out=lines.append)
        self.assertEqual(s["noise_floor"]["mp3"]["median"], 1.0)
        self.assertEqual(s["noise_floor"]["mp3"]["verdict"], "no difference")
        self.assertEqual(s["workloads"]["mp3"]["cfs"]["vs_ref"]["verdict"], "worse")
        self.assertEqual(s["workloads"]["mp3"]["sen"]["kept"], 7)
        self.assertEqual(s["left_out"]["sen"], 1)
        text = "\n".join(lines)
        self.assertIn("NOISE FLOOR", text)
        self.assertIn("left out: mp3 sen round 3", text)
        # The noise floor is printed before the per-workload rows.
        self.assertLess(text.index("NOISE FLOOR"), text.index("mp3  "))

    def test_clock_in_header(self):
        # A run on the instruction clock says so where a host-clock run
        # gives the host's speed; a run without a clock is a host-clock one.
        for clock, want, not_want in (("icount", "clock: icount", "host speed"),
                                      (None, "host speed: rt-app 1 ns", "clock:")):
            lines = []
            meta = {"board": "b", "boots": 2, "modes": ["eas", "eas2", "sen"], "pload": "1"}
            if clock:
                meta["clock"] = clock
            report.table(self.rs, meta, None, 2.0, out=lines.append)
            text = "\n".join(lines)
            self.assertIn(want, text)
            self.assertNotIn(not_want, text)

    def test_energy_floor(self):
        # The floor is read off the reference's runs only: 60 mJ of eas's
        # 100 + r in rounds 1-8 is 0.59 down to 0.55, median 0.57.
        for r in self.rs:
            r["floor_mj"] = 60.0 if r["mode"] == "eas" else 1.0
        report.mark_left_out(self.rs, 2.0)
        lines = []
        meta = {"board": "b", "boots": 2, "modes": ["cfs", "eas", "eas2", "sen"], "pload": "1"}
        s = report.table(self.rs, meta, None, 2.0, out=lines.append)
        f = s["energy_floor"]["mp3"]
        self.assertAlmostEqual(f["median"], (60 / 104.0 + 60 / 105.0) / 2)
        self.assertAlmostEqual(f["lo"], 60 / 108.0)
        self.assertAlmostEqual(f["hi"], 60 / 101.0)
        self.assertIn("ENERGY FLOOR", "\n".join(lines))
        self.assertIn("mp3 0.57 [0.56-0.59]", "\n".join(lines))

    def test_ideal_idle(self):
        # sen's ideal-idle energy 0.9 of eas's in every round but the
        # stalled one (left out, as for the traced figure).
        for r in self.rs:
            r["ideal_idle_mj"] = r["energy_mj"] * (0.9 / 0.8 if r["mode"] == "sen" else 1.0)
        report.mark_left_out(self.rs, 2.0)
        lines = []
        meta = {"board": "b", "boots": 2, "modes": ["cfs", "eas", "eas2", "sen"], "pload": "1"}
        s = report.table(self.rs, meta, None, 2.0, out=lines.append)
        c = s["ideal_idle"]["mp3"]["sen"]
        self.assertAlmostEqual(c["median"], 0.9)
        self.assertEqual(c["n"], 7)
        self.assertEqual(c["verdict"], "better")
        self.assertAlmostEqual(s["ideal_idle"]["mp3"]["eas2"]["median"], 1.0)
        self.assertIn("IDEAL IDLE", "\n".join(lines))

    def test_no_floor_without_its_figures(self):
        lines = []
        meta = {"board": "b", "boots": 2, "modes": ["cfs", "eas", "eas2", "sen"], "pload": "1"}
        s = report.table(self.rs, meta, None, 2.0, out=lines.append)
        self.assertNotIn("energy_floor", s)
        self.assertNotIn("ENERGY FLOOR", "\n".join(lines))
        self.assertNotIn("ideal_idle", s)

    def test_trace_dat_count(self):
        lines = []
        for r in self.rs:
            r["dat"] = r["mode"] != "cfs"
        meta = {"board": "b", "boots": 2, "modes": ["cfs", "eas", "eas2", "sen"], "pload": "1"}
        report.table(self.rs, meta, None, 2.0, out=lines.append)
        self.assertIn("trace.dat beside 24 of 32 runs", "\n".join(lines))

    def test_indicative_with_few_rounds(self):
        lines = []
        few = [r for r in self.rs if r["round"] <= 2]
        meta = {"board": "b", "boots": 1, "modes": ["eas", "sen"], "pload": "1"}
        s = report.table(few, meta, None, 2.0, out=lines.append)
        self.assertIn("INDICATIVE ONLY", "\n".join(lines))
        self.assertEqual(s["workloads"]["mp3"]["sen"]["vs_ref"]["verdict"], "too few rounds")

    def test_model_late_column(self):
        # sen's worst task late in 10% of its activations in rounds 1-4,
        # 30% in 5-8 (round 3 left out): kept 10, 10, 10, 30, 30, 30, 30:
        # median 30%.  eas's records carry no modelled figure: "-".
        for r in self.rs:
            if r["mode"] == "sen":
                r["model_late_worst"] = 0.1 if r["round"] <= 4 else 0.3
                r["model_slack_pass"] = r["round"] <= 4
        lines = []
        meta = {"board": "b", "boots": 2, "modes": ["eas", "sen"], "pload": "1"}
        s = report.table(self.rs, meta, None, 2.0, out=lines.append)
        sen = s["workloads"]["mp3"]["sen"]
        self.assertEqual(sen["model_late_worst_pct"], [10.0, 10.0, 10.0, 30.0, 30.0, 30.0, 30.0])
        self.assertEqual(sum(sen["model_slack_pass"]), 3)
        self.assertEqual(s["workloads"]["mp3"]["eas"]["model_late_worst_pct"], [])
        hdr = next(x for x in lines if x.startswith("workload"))
        row = next(x for x in lines if x.startswith("mp3") and " sen " in x)
        # "late %" right before "neg slack%", its median under it.
        self.assertIn("late % neg slack%", hdr)
        col = hdr.index("late %") + len("late %")
        self.assertEqual(row[col - 4:col], "30.0")
        self.assertLessEqual(len(hdr), 160)

    def test_equal_time(self):
        # Eight rounds of a LISA-like run whose window varies: eas spends
        # 100 mJ in 2 s, sen 50 mJ in 1 s (its window shrank).  The same
        # power, 50 mW: no difference over equal time, although its energy
        # over its own window is half.
        rs = []
        for r in range(1, 9):
            rs.append(dict(rec("w", "eas", r, 100.0), wall_s=2.0))
            rs.append(dict(rec("w", "sen", r, 50.0), wall_s=1.0))
        report.mark_left_out(rs, 2.0)
        c = report.compare(rs, "w", "sen")
        self.assertEqual(c["median"], 1.0)
        self.assertEqual(c["verdict"], "no difference")
        self.assertEqual(report.compare(rs, "w", "sen", key="energy_mj")["median"], 0.5)

    def test_benches_paired(self):
        lines = []
        # sen 1.5x slower on hackbench in every round; pingpong: 0.5x in
        # rounds 1-4 and 2x in 5-8: the median of the ratios is between
        # them (1.25) and the interval spans 1.0.
        bs = {"hackbench": {r: {"eas": 1.0, "sen": 1.5} for r in range(1, 9)},
              "pingpong": {r: {"eas": 100.0, "sen": 50.0 if r <= 4 else 200.0}
                           for r in range(1, 9)}}
        meta = {"board": "b", "boots": 2, "modes": ["eas", "sen"], "pload": "1"}
        s = report.table(self.rs, meta, bs, 2.0, out=lines.append)
        self.assertEqual(s["benches"]["hackbench"]["sen"]["median"], 1.5)
        self.assertEqual(s["benches"]["hackbench"]["sen"]["verdict"], "worse")
        self.assertEqual(s["benches"]["pingpong"]["sen"]["median"], 1.25)
        self.assertEqual(s["benches"]["pingpong"]["sen"]["verdict"], "no difference")
        self.assertTrue(any(x.startswith("pingpong (se_pingpong") for x in lines))
        self.assertFalse(any("would need" in x for x in lines))  # no A/A pair

    def test_benches_aa_rounds_needed(self):
        # eas2 equal to eas in rounds 1-4 and 20% slower in 5-8: the A/A
        # interval reaches 1.0 and 1.2 around a median of 1.1, 0.1 from it,
        # five times the +-2% wanted: 8 * 5^2 = 200 rounds.
        lines = []
        bs = {"hackbench": {r: {"eas": 10.0, "eas2": 10.0 if r <= 4 else 12.0}
                            for r in range(1, 9)}}
        meta = {"board": "b", "boots": 2, "modes": ["eas", "eas2"], "pload": "1"}
        s = report.table([], meta, bs, 2.0, out=lines.append)
        c = s["benches"]["hackbench"]["eas2"]
        self.assertAlmostEqual(c["median"], 1.1)
        self.assertEqual((round(c["lo"], 6), round(c["hi"], 6)), (1.0, 1.2))
        self.assertEqual(c["rounds_needed"], 200)
        self.assertIn("the A/A pair would need 200 rounds for an interval within +-2%",
                      "\n".join(lines))

    def test_benches_only(self):
        # A run with no workloads (make bench-overhead): the benchmarks alone.
        lines = []
        bs = {"latency": {r: {"eas": 100.0, "sen": 80.0} for r in range(1, 9)}}
        meta = {"board": "b", "boots": 2, "modes": ["eas", "eas2", "sen"], "pload": "1"}
        s = report.table([], meta, bs, 2.0, out=lines.append)
        self.assertEqual(s["benches"]["latency"]["sen"]["median"], 0.8)
        self.assertEqual(s["benches"]["latency"]["sen"]["verdict"], "better")
        self.assertNotIn("eas2", s["benches"]["latency"])
        self.assertIn("overhead benchmarks only", lines[0])

    def test_decision_over_a_workload_is_named(self):
        # decision@W: the decision's cost over workload W's wakeups.
        lines = []
        bs = {"decision@mp3": {r: {"eas": 4000.0, "sen": 3600.0} for r in range(1, 9)}}
        meta = {"board": "b", "boots": 2, "modes": ["eas", "sen"], "pload": "1"}
        s = report.table([], meta, bs, 2.0, out=lines.append)
        self.assertEqual(s["benches"]["decision@mp3"]["sen"]["median"], 0.9)
        self.assertTrue(any(x.startswith("decision@mp3 (select_task_rq_fair() over rt-app "
                                         "mp3's wakeups") for x in lines))


if __name__ == "__main__":
    unittest.main()
