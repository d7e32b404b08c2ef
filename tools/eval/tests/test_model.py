# SPDX-License-Identifier: GPL-2.0
"""seneval.model: the model's text, as sen_model_show() prints it."""
import os
import tempfile
import unittest

from seneval.model import ModelError, cpulist, cpulist_str, domain_of, load_model, parse_model

from .synth import model_text

TEXT = model_text([
    ("0-1", [(500000, 512, 100, 40), (1000000, 1024, 300, 60)],
     [("WFI", 10, 20, 0), ("off", 0, 5, 1000)]),
    ("2", [(800000, 1024, 500, 70)], [("WFI", 4, 6, 0)]),
])


class CpuList(unittest.TestCase):
    def test_ranges_and_singles(self):
        self.assertEqual(cpulist("0-2,5,7-8"), [0, 1, 2, 5, 7, 8])
        self.assertEqual(cpulist("3"), [3])

    def test_back_to_text(self):
        self.assertEqual(cpulist_str([8, 0, 1, 2, 5, 7]), "0-2,5,7-8")
        self.assertEqual(cpulist_str([7]), "7")


class ParseModel(unittest.TestCase):
    def test_fields(self):
        doms, unit = parse_model(TEXT)
        self.assertEqual(unit, "uW")
        self.assertEqual([d["cpus"] for d in doms], [[0, 1], [2]])
        # "  1 1000000 1024 300 60 300 yes": index, kHz, capacity, P_cpu,
        # P_cluster, cost (300 * 1024 / 1024), efficient.
        self.assertEqual(doms[0]["opp"][1], {"freq": 1000000, "cap": 1024, "cpu": 300,
                                             "cluster": 60, "cost": 300, "efficient": True})
        # "  1 off 0 5 1000 20 40": name, P_cpu, P_cluster, wakeup, exit
        # latency, residency (synth: 10 and 20 us per state index + 1).
        self.assertEqual(doms[0]["idle"][1], {"name": "off", "cpu": 0, "cluster": 5,
                                              "wakeup": 1000, "latency": 20, "residency": 40})
        self.assertEqual(len(doms[1]["opp"]), 1)
        self.assertEqual(domain_of(doms), {0: 0, 1: 0, 2: 1})

    def test_file(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "model.txt")
            with open(p, "w") as f:
                f.write(TEXT)
            self.assertEqual(load_model(p), parse_model(TEXT))
            with self.assertRaisesRegex(ModelError, "cannot read"):
                load_model(os.path.join(d, "none"))

    def test_unavailable(self):
        with self.assertRaisesRegex(ModelError, "unavailable: no cpufreq"):
            parse_model("unavailable: no cpufreq\n")

    def test_incomplete_domain(self):
        text = TEXT.replace("  0 WFI 4 6 0 10 20\n", "")
        with self.assertRaisesRegex(ModelError, "domain 1 has no idle state"):
            parse_model(text)

    def test_cpus_not_covered_once(self):
        with self.assertRaisesRegex(ModelError, r"CPUs 0-1,3"):
            parse_model(TEXT.replace("domain 1 cpus 2", "domain 1 cpus 3"))
        with self.assertRaisesRegex(ModelError, "once each"):
            parse_model(TEXT.replace("domain 1 cpus 2", "domain 1 cpus 1"))

    def test_bad_line(self):
        with self.assertRaisesRegex(ModelError, r"model:6: .*6 fields"):
            parse_model(TEXT.replace("  0 500000 512 100 40 200 yes", "  0 500000 512 100 40 yes"))
        with self.assertRaisesRegex(ModelError, "invalid literal"):
            parse_model(TEXT.replace("512 100 40", "512 x 40"))

    def test_no_unit(self):
        with self.assertRaisesRegex(ModelError, "no 'unit' line"):
            parse_model(TEXT.replace("unit uW\n", ""))


if __name__ == "__main__":
    unittest.main()
