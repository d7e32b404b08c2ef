# SPDX-License-Identifier: GPL-2.0
"""Synthetic models, traces and rt-app logs for the tests."""
import gzip
import os


def model_text(domains, unit="uW"):
    """A model's text as the kernel prints it.  domains: [(cpus, opps,
    idles)], cpus a CPU list ("0-1"), opps [(freq_khz, cap, P_cpu,
    P_cluster)], idles [(name, P_cpu, P_cluster, wakeup)]."""
    out = [f"unit {unit}", "source active dt cluster dt idle dt", f"domains {len(domains)}"]
    for i, (cpus, opps, idles) in enumerate(domains):
        out.append(f"domain {i} cpus {cpus}")
        out.append("  opp freq_khz capacity cpu_power cluster_power cost efficient")
        out += [f"  {k} {f} {cap} {p} {cl} {p * 1024 // cap} yes"
                for k, (f, cap, p, cl) in enumerate(opps)]
        out.append("  idle name cpu_power cluster_power wakeup_energy exit_latency_us residency_us")
        out += [f"  {k} {name} {p} {cl} {w} {10 * (k + 1)} {20 * (k + 1)}"
                for k, (name, p, cl, w) in enumerate(idles)]
    return "\n".join(out) + "\n"


def line(t, cpu, event, text, comm="x", pid=1):
    """One line of /sys/kernel/tracing/trace."""
    return f"{comm:>16}-{pid:<7} [{cpu:03d}] d.... {t:12.6f}: {event}: {text}\n"


def switch(t, cpu, pid, comm="task"):
    """sched_switch on cpu to pid (0: the idle task)."""
    nxt = f"swapper/{cpu}" if pid == 0 else comm
    return line(t, cpu, "sched_switch", f"prev_comm=p prev_pid=99 prev_prio=120 prev_state=S "
                f"==> next_comm={nxt} next_pid={pid} next_prio=120")


def idle(t, cpu, state):
    """cpu_idle: cpu enters state (-1: exits idle)."""
    return line(t, cpu, "cpu_idle", f"state={4294967295 if state < 0 else state} cpu_id={cpu}")


def freq_marker(t, cpu, khz):
    """A CPU's starting frequency, as the scripts write it to trace_marker."""
    return line(t, 0, "tracing_mark_write", f"cpu_frequency: state={khz} cpu_id={cpu}")


def marker(t, text, comm="sh", pid=50, cpu=0):
    return line(t, cpu, "tracing_mark_write", text, comm, pid)


def write(path, text):
    """Write text to path, gzipped if path ends in .gz."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with (gzip.open if path.endswith(".gz") else open)(path, "wt") as f:
        f.write(text)
    return path


def rtapp_log(path, rows):
    """An rt-app log: rows of (start_s, slack_us, c_duration_us, c_period_us)
    or (start_s, slack_us, c_duration_us, c_period_us, end_s); without
    end_s the activation ends c_duration after its start."""
    out = ["#idx perf run period start end rel_st slack c_duration c_period wu_lat\n"]
    for start, slack, dur, period, *end in rows:
        us = round(start * 1e6)
        end_us = round(end[0] * 1e6) if end else us + dur
        out.append(f"0 100 {dur} {end_us - us} {us} {end_us} 0 {slack} {dur} {period} 0\n")
    return write(path, "".join(out))
