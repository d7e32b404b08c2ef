# SPDX-License-Identifier: GPL-2.0
"""seneval.trace: the events of a text trace."""
import os
import tempfile
import unittest

from seneval.trace import Trace, TraceError, busy_by_pid, kthread_time, rtapp_segments

from .synth import freq_marker, idle, line, marker, switch, write

# Every kind of line the loader reads, some out of time order.
LINES = [
    "# tracer: nop\n",
    "#\n",
    freq_marker(0.5, 0, 500000),
    marker(1.0, "se: start mp3 sen 1"),
    marker(1.0, "[0] starts", "small", 7, 0),
    switch(1.0, 0, 7, "small"),
    idle(1.1, 1, 1),
    idle(1.2, 1, -1),                                   # an exit: state 4294967295
    line(1.3, 0, "cpu_frequency", "state=1000000 cpu_id=0"),
    line(1.25, 2, "cpu_frequency", "state=700000 cpu_id=2"),   # out of order
    line(1.4, 0, "sched_migrate_task", "comm=small pid=7 prio=120 orig_cpu=0 dest_cpu=1"),
    line(1.45, 1, "hrtimer_expire_entry", "hrtimer=00000000a1b2c3d4 "
         "function=tick_sched_timer now=1450000000"),
    line(1.46, 1, "hrtimer_expire_entry", "hrtimer=00000000a1b2c3d4 "
         "function=hrtimer_wakeup now=1460000000"),        # not a tick
    line(1.5, 1, "sen_decision", "pid=7 cpu=1"),
    line(1.5, 1, "sched_wakeup", "comm=small pid=7 prio=120 target_cpu=001"),
    line(1.5, 1, "sched_wakeup_new", "comm=small pid=8 prio=120 target_cpu=001"),
    line(1.6, 3, "sen_balance", "pid=7 src=3 dst=1"),
    line(1.65, 1, "cpu_idle_miss", "cpu_id=1 state=1 type=0"),   # not cpu_idle
    # No flags column (the irq-info option off):
    "           small-7       [001]     1.700000: sched_switch: prev_comm=swapper/1 prev_pid=0 "
    "prev_prio=120 prev_state=R ==> next_comm=small next_pid=7 next_prio=120\n",
    marker(2.0, "se: end"),
]


class Load(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = write(os.path.join(self.dir.name, "t.trace"), "".join(LINES))

    def tearDown(self):
        self.dir.cleanup()

    def test_events(self):
        tr = Trace(self.path)
        self.assertEqual(tr.ev, [
            (0.5, "f", 0, 500000, None),        # the trace_marker convention
            (1.0, "s", 0, 7, "small"),
            (1.1, "i", 1, 1, None),
            (1.2, "i", 1, -1, None),
            (1.25, "f", 2, 700000, None),       # sorted by time
            (1.3, "f", 0, 1000000, None),
            (1.4, "m", 1, 7, 0),                # dest_cpu, pid, orig_cpu
            (1.45, "k", 1, None, None),         # the tick, on the line's CPU
            (1.6, "b", 3, None, None),
            (1.7, "s", 1, 7, "small"),
        ])
        self.assertEqual((tr.start, tr.end, tr.first, tr.last), (1.0, 2.0, 0.5, 2.0))
        self.assertEqual((tr.decisions, tr.wakeups), (1, 2))
        self.assertEqual(tr.rtapp, {7: "small"})
        self.assertEqual(tr.markers, [(1.0, 50, "sh", "se: start mp3 sen 1"),
                                      (1.0, 7, "small", "[0] starts"), (2.0, 50, "sh", "se: end")])

    def test_decisions_marker(self):
        # The policy's own count, when se-eval wrote it, over the events.
        text = "".join(LINES[:-1] + [marker(1.9, "se: decisions 42"), LINES[-1]])
        tr = Trace(write(os.path.join(self.dir.name, "d.trace"), text))
        self.assertEqual(tr.decisions, 42)

    def test_gzip(self):
        gz = write(os.path.join(self.dir.name, "t.trace.gz"), "".join(LINES))
        self.assertEqual(Trace(gz).ev, Trace(self.path).ev)

    def test_markers_needed(self):
        text = "".join(x for x in LINES if "se: " not in x)
        path = write(os.path.join(self.dir.name, "n.trace"), text)
        with self.assertRaisesRegex(TraceError, "no se: start/end marker"):
            Trace(path)
        # Unless the caller says so: the first and last lines then.
        tr = Trace(path, need_markers=False)
        self.assertEqual((tr.start, tr.end), (0.5, 1.7))

    def test_unreadable(self):
        with self.assertRaisesRegex(TraceError, "cannot read"):
            Trace(os.path.join(self.dir.name, "none"))
        with self.assertRaisesRegex(TraceError, "no trace event"):
            Trace(write(os.path.join(self.dir.name, "e.trace"), "# tracer: nop\n"))


class FakeTrace:
    def __init__(self, ev, rtapp=()):
        self.ev = sorted(ev, key=lambda e: e[0])
        self.rtapp = {p: "t" for p in rtapp}


class Busy(unittest.TestCase):
    # CPU 0: pid 5 from 0.5, pid 6 from 1.2, idle from 1.5; CPU 1: pid 5
    # from 1.8 to the end.
    EV = [(0.5, "s", 0, 5, "a"), (1.2, "s", 0, 6, "b"), (1.5, "s", 0, 0, "i"),
          (1.8, "s", 1, 5, "a"), (1.9, "k", 1, None, None)]

    def test_busy_by_pid(self):
        # In [1.0, 2.0): pid 5 0.2 s on CPU 0 (1.0-1.2) + 0.2 s on CPU 1
        # (1.8-2.0); pid 6 0.3 s (1.2-1.5); the idle task (pid 0) 0.5 s
        # on CPU 0 (1.5-2.0); nothing on CPU 1 before its first switch.
        b = busy_by_pid(FakeTrace(self.EV), 1.0, 2.0)
        self.assertEqual(set(b), {0, 5, 6})
        self.assertAlmostEqual(b[5], 0.4)
        self.assertAlmostEqual(b[6], 0.3)
        self.assertAlmostEqual(b[0], 0.5)

    def test_segments(self):
        # rt-app's pid 5 only, from t0 = 1.0: CPU 0 0.0 + 0.2, CPU 1 0.8 + 0.2.
        s = rtapp_segments(FakeTrace(self.EV, [5]), 1.0, 2.0)
        self.assertEqual(set(s), {0, 1})
        (a, w, p), = s[0]
        self.assertEqual(p, 5)
        self.assertAlmostEqual(a, 0.0)
        self.assertAlmostEqual(w, 0.2)
        (a, w, p), = s[1]
        self.assertAlmostEqual(a, 0.8)
        self.assertAlmostEqual(w, 0.2)


if __name__ == "__main__":
    unittest.main()


class KthreadTime(unittest.TestCase):
    def test_by_kind_in_the_window(self):
        # CPU 0: migration/0 (pid 11) 1.0-1.1, the idle task 1.1-1.5,
        # ksoftirqd/0 (12) 1.5-1.55, rt-app (5) 1.55-2.0; CPU 1: kworker
        # (13) from 0.9 (0.1 s in the window up to 1.1), rcu_sched (14)
        # 1.1-1.3, then idle.  In [1.0, 2.0): migration 0.1, ksoftirqd
        # 0.05, kworker 0.1, other (rcu) 0.2; rt-app and idle not counted.
        ev = [(1.0, "s", 0, 11, "migration/0"), (1.1, "s", 0, 0, "swapper/0"),
              (1.5, "s", 0, 12, "ksoftirqd/0"), (1.55, "s", 0, 5, "rt-app"),
              (0.9, "s", 1, 13, "kworker/1:1"), (1.1, "s", 1, 14, "rcu_sched"),
              (1.3, "s", 1, 0, "swapper/1")]
        k = kthread_time(FakeTrace(ev), 1.0, 2.0)
        self.assertAlmostEqual(k["migration"], 0.1)
        self.assertAlmostEqual(k["ksoftirqd"], 0.05)
        self.assertAlmostEqual(k["kworker"], 0.1)
        self.assertAlmostEqual(k["other"], 0.2)
        self.assertAlmostEqual(k["total"], 0.45)
