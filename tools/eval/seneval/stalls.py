# SPDX-License-Identifier: GPL-2.0
"""Host stalls, seen from the guest's trace.

QEMU runs the board's vCPUs as threads on a host with fewer cores, so the
host sometimes does not run a vCPU for a while.  The guest's clock keeps
going, and whatever the vCPU was running appears to have run all that
time: a traced busy interval with no work done in it, which the energy
estimate would count as work.

A busy CPU (running anything but its idle task; sched_switch) takes the
scheduler tick every TICK_S (HZ=250: 4 ms; hrtimer_expire_entry of
tick_sched_timer in the trace).  A gap between two consecutive tick or
switch events of a busy CPU longer than GAP_TICKS ticks (20 ms) is a
stall: the vCPU was not run by the host (or ran with interrupts off,
which the kernel's own code does not do for that long).  Its stall time
is the gap minus the one tick the CPU would have waited anyway.  Shorter
gaps are the host's ordinary time slicing when more vCPUs are busy than
it has cores (8-16 ms gaps are common then, and rare otherwise).

A run's stall share is its stall time over its CPU time in the window
(window x CPUs); a run above the budget (STALL_BUDGET_PCT percent) is
left out of the comparison and counted.
"""

TICK_S = 0.004
GAP_TICKS = 5
STALL_BUDGET_PCT = 2.0


def host_stalls(tr, t0, t1, ncpu, tick_s=TICK_S, gap_ticks=GAP_TICKS):
    """Stall time of a trace's window [t0, t1), per the rule above.

    tr: a trace whose ev list holds (t, kind, cpu, a, b) tuples sorted by
    t, with kind "s" (switch to pid a), "k" (tick) among them.  Returns a
    dict: stall_ms (all CPUs), stalls (how many gaps), longest_ms, share
    (stall time over window x ncpu) and ticks (how many tick events: 0
    means the trace cannot show stalls).
    """
    busy = {}
    last = {}
    total = longest = 0.0
    count = ticks = 0

    def gap(c, t):
        nonlocal total, longest, count
        g = t - last[c]
        if g > gap_ticks * tick_s:
            total += g - tick_s
            longest = max(longest, g)
            count += 1

    for t, kind, cpu, a, _ in tr.ev:
        if t >= t1:
            break
        if kind not in ("s", "k"):
            continue
        if kind == "k":
            ticks += t >= t0
        if t >= t0 and busy.get(cpu) and cpu in last:
            gap(cpu, t)
        if kind == "s":
            busy[cpu] = a != 0
        last[cpu] = max(t, t0)
    for c, b in busy.items():
        if b and c in last:
            gap(c, t1)
    share = total / ((t1 - t0) * ncpu) if t1 > t0 and ncpu else 0.0
    return {"stall_ms": total * 1000, "stalls": count, "longest_ms": longest * 1000,
            "share": share, "ticks": ticks}
