# SPDX-License-Identifier: GPL-2.0
"""sched-energy's evaluation analysis, one package for every script.

  model    the platform model, from /sys/kernel/debug/sched_energy/model
  trace    the events of an ftrace text trace that the analysis uses
  energy   the energy of a window of a trace, as the real board would spend it
  lisa     LISA's placement check: the optimal and the estimated energy
  rtapp    rt-app: its logs and markers (work done, work factors, slack,
           the measured window) and the evaluation's workloads
  perf     performance from the model: each rt-app activation's run time on
           the real board at the capacities and OPPs it got, against its period
  run      the figures of one evaluation run (analyse_run), the --active
           cross-check, the decision-cost benchmark's lines
  plots    the PNGs (matplotlib, imported only when plotting)
  stats, stalls, report
           the comparison between modes: paired ratios and their
           intervals, host stalls, the table

The scripts (scripts/eval-analyse, trace-energy, idlestat-check,
bench-balance-analyse) put ROOT/tools/eval on sys.path and import what they
use.  Input the analysis cannot use raises seneval.Error; the scripts exit
with its message.  The tests are in tools/eval/tests (python3 -m unittest
discover -s tools/eval/tests -t tools/eval, part of make test).
"""


class Error(Exception):
    """A model, trace or log the analysis cannot use."""
