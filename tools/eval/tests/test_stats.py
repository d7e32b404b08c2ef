# SPDX-License-Identifier: GPL-2.0
"""seneval.stats: medians, bootstrap intervals, verdicts (hand-worked)."""
import unittest

from seneval import stats


class Median(unittest.TestCase):
    def test_odd_and_even(self):
        self.assertEqual(stats.median([3, 1, 2]), 2)
        # Middle two of 1 2 3 4: (2 + 3) / 2.
        self.assertEqual(stats.median([4, 1, 3, 2]), 2.5)

    def test_empty_refused(self):
        with self.assertRaises(ValueError):
            stats.median([])

    def test_percentile_interpolates(self):
        # Position 0.5 * 3 = 1.5: halfway between 10 and 20.
        self.assertEqual(stats.percentile([0, 10, 20, 30], 0.5), 15)
        self.assertEqual(stats.percentile([0, 10, 20, 30], 0.0), 0)
        self.assertEqual(stats.percentile([0, 10, 20, 30], 1.0), 30)
        # Position 0.025 * 3 = 0.075: 0 + 10 * 0.075.
        self.assertAlmostEqual(stats.percentile([0, 10, 20, 30], 0.025), 0.75)


class Pairs(unittest.TestCase):
    def test_only_common_rounds_with_a_reference(self):
        # Round 2's reference is 0 (no ratio), round 3 has no reference,
        # round 4 no run: only round 1 pairs, 2 / 1.
        self.assertEqual(stats.paired_ratios({1: 2.0, 2: 3.0, 3: 4.0}, {1: 1.0, 2: 0.0, 4: 2.0}),
                         {1: 2.0})


class Bootstrap(unittest.TestCase):
    def test_constant_ratios_give_a_point(self):
        self.assertEqual(stats.bootstrap_ci([0.8] * 6), (0.8, 0.8))

    def test_interval_within_the_data_and_around_the_median(self):
        xs = [0.91, 0.95, 0.97, 1.0, 1.02, 1.04, 1.08, 1.12]
        lo, hi = stats.bootstrap_ci(xs)
        # A median of resampled values is always between the smallest and
        # the largest value.
        self.assertTrue(min(xs) <= lo <= stats.median(xs) <= hi <= max(xs))
        # The same data give the same interval (fixed seed).
        self.assertEqual((lo, hi), stats.bootstrap_ci(xs))

    def test_more_rounds_narrow_the_interval(self):
        xs = [0.9, 1.1, 0.95, 1.05, 1.0, 0.92, 1.08, 0.97]
        lo8, hi8 = stats.bootstrap_ci(xs)
        lo32, hi32 = stats.bootstrap_ci(xs * 4)
        self.assertLess(hi32 - lo32, hi8 - lo8)

    def test_one_value_has_no_interval(self):
        self.assertEqual(stats.bootstrap_ci([1.0]), (None, None))


class Verdict(unittest.TestCase):
    def test_reads_the_interval_against_one(self):
        self.assertEqual(stats.verdict(0.8, 0.95, 8), "better")
        self.assertEqual(stats.verdict(1.01, 1.2, 8), "worse")
        self.assertEqual(stats.verdict(0.97, 1.03, 8), "no difference")
        # An interval that touches 1.0 contains it.
        self.assertEqual(stats.verdict(0.9, 1.0, 8), "no difference")

    def test_too_few_rounds(self):
        self.assertEqual(stats.verdict(0.5, 0.6, stats.MIN_ROUNDS - 1), "too few rounds")

    def test_compare_all_above_one_is_worse(self):
        # Eight rounds, every ratio above 1: every resampled median is too.
        c = stats.compare({r: 1.2 + 0.01 * r for r in range(8)})
        self.assertEqual(c["n"], 8)
        self.assertAlmostEqual(c["median"], 1.235)
        self.assertEqual(c["verdict"], "worse")
        self.assertTrue(1.2 <= c["lo"] <= c["median"] <= c["hi"] <= 1.27)

    def test_fmt(self):
        self.assertEqual(stats.fmt({"median": 1.0234, "lo": 0.9712, "hi": 1.061}), "1.02 [0.97-1.06]")
        self.assertEqual(stats.fmt({"median": 0.5, "lo": None, "hi": None}), "0.50")

    def test_no_pairs(self):
        self.assertEqual(stats.compare({})["verdict"], "no pairs")
        self.assertEqual(stats.fmt(stats.compare({})), "-")


if __name__ == "__main__":
    unittest.main()


class CompareRuns(unittest.TestCase):
    def test_constant_shift_is_detected(self):
        # Every round of the new run at 0.8 of the reference, every round
        # of the old one at 1.0: new/old = 0.8 in every resample.
        c = stats.compare_runs([0.8] * 8, {r: 1.0 for r in range(8)})
        self.assertAlmostEqual(c["median"], 0.8)
        self.assertAlmostEqual(c["lo"], 0.8)
        self.assertAlmostEqual(c["hi"], 0.8)
        self.assertEqual(c["verdict"], "better")

    def test_same_sets_no_difference(self):
        xs = [0.9, 1.0, 1.1, 0.95, 1.05, 1.0, 0.98, 1.02]
        c = stats.compare_runs(xs, xs)
        self.assertAlmostEqual(c["median"], 1.0)
        self.assertLess(c["lo"], 1.0)
        self.assertGreater(c["hi"], 1.0)
        self.assertEqual(c["verdict"], "no difference")

    def test_too_few(self):
        self.assertEqual(stats.compare_runs([1.0, 1.1], [1.0] * 8)["verdict"], "too few rounds")
        self.assertEqual(stats.compare_runs([], [1.0])["verdict"], "no pairs")


class RoundsFor(unittest.TestCase):
    def test_scales_with_the_square_of_the_width(self):
        # 8 rounds reaching 0.10 from the median: 8 * (0.10 / 0.05)^2 = 32.
        c = {"n": 8, "median": 1.00, "lo": 0.90, "hi": 1.04}
        self.assertEqual(stats.rounds_for(c), 32)

    def test_the_wider_side_counts(self):
        c = {"n": 10, "median": 1.00, "lo": 0.99, "hi": 1.10}
        self.assertEqual(stats.rounds_for(c), 40)

    def test_narrow_enough_needs_no_more(self):
        c = {"n": 8, "median": 1.00, "lo": 0.98, "hi": 1.02}
        self.assertEqual(stats.rounds_for(c), 8)

    def test_no_interval(self):
        self.assertIsNone(stats.rounds_for({"n": 1, "median": 1.0, "lo": None, "hi": None}))
        self.assertIsNone(stats.rounds_for(None))
