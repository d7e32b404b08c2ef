# SPDX-License-Identifier: GPL-2.0
"""The energy of a window of a trace, as the real board would spend it.

QEMU runs every vCPU at one speed, whatever its capacity and OPP
(speed-equalised emulation): a busy time b on a CPU at OPP k is b * 1024
of work and would take b * 1024 / cap_k on the real board.  So, over a
window of length W, per CPU and per cluster (a model domain):

  E_cpu_active = sum_k busy_k * 1024 / cap_k * P_cpu(k)
  E_cl_active  = sum_k busy_cl_k * 1024 / cap_k * P_cluster(k)
                 (busy_cl: the union of the cluster's CPUs' busy time)
  E_cpu_idle   = sum_s (W - R) * r_s * P_cpu_idle(s)  +  n_s * wakeup(s)
  E_cl_idle    = sum_s (W - R_cl) * r_cl_s * P_cluster_idle(s)

with R the CPU's real busy time (sum_k busy_k * 1024 / cap_k; R_cl the
cluster's, from busy_cl), r_s the share of the CPU's traced idle time in
idle state s (cpu_idle events; idle in no traced state counts as WFI, so a
trace without cpu_idle events is all WFI), r_cl_s that of the cluster's
all-idle time in the shallowest state of its CPUs, and n_s the CPU's
entries into s in the window (wakeup energy in the model's unit x us).
"busy" is a CPU running anything but its idle task (sched_switch), at the
OPP of the domain's last cpu_frequency event; busy time before a
domain's first known OPP is not counted (it is idle time in W - R).

Work factors: a task's running time can be counted times a factor f
(rtapp.work_factors(): its configured work over its traced time, when the
host's contention stretched it).  Busy time b of a task then counts as
b * f at the OPP, and b * (1 - f) as WFI if f < 1; for the cluster, the
largest factor among its busy CPUs.

Work beyond the window (R > W) is reported as overrun (per CPU, summed):
the real board could not have done it in time at those OPPs; its idle
energy is then 0.  "traced_active" is the active energy with no
conversion (busy_k * P(k), what idlestat computes).  Energies are in the
model's unit x s (uJ for a uW model).

energy_floor() is the least energy any placement and any OPPs could spend
on a given amount of work over a window of length W (a lower bound, not a
schedule): every CPU and cluster idle in its cheapest idle state when not
working, no wakeup energy, no deadline, every unit of work at the
cheapest marginal price the model has.  Per domain d of n CPUs and OPP k,
that price per unit of work is

  m(d, k) = (P_cpu(k) - min P_cpu_idle + c) / cap_k,
  c = (P_cluster(k) - min P_cluster_idle) / n   (or without the / n when
      that difference is negative: then the cluster's active time, at
      most the sum of its CPUs', is priced at its most)

since a cluster is active at least 1/n of its CPUs' summed active time.
So E_floor = W x sum_d (n min P_cpu_idle + min P_cluster_idle)
           + work x 1024 x min_(d, k) m(d, k),
with work in seconds of the emulated CPU (speed-equalised).  A policy's
energy over the same window and work cannot be lower.

With deadlines it is tighter: an activation of work w (us at capacity
1024) that must end within its period T can only mix OPPs and idle over T
for a mean capacity r = 1024 w / T, so it costs at least T f(r), f the
lower convex envelope of (cap_k, m(d, k) cap_k) and idle's (0, 0) (its
cheapest mix of at most two); beyond the largest capacity it could not
have been on time anyway and keeps the price above.  With r small f(r) is
r min m, the bound without deadlines.

periodic_bound() is tighter, for a workload of periodic tasks of one
period, and asks what a policy could do that provisions for the tasks as
it sees them run: the least energy over every placement of the tasks on
CPUs (a CPU may take several) and one OPP per domain for the whole
window, where each busy CPU's OPP covers its tasks' observed utilization
(traced running time over wall time, rt-app's own work included) plus
1/2^shift (sched-energy's least headroom, 1/16), and the CPU's top
capacity fits that observed sum with 20% to spare (fits_capacity(),
mainline's rule and sched-energy's).  The work priced is the configured
work u, as above: per period, a CPU is busy its tasks' u / cap_k back to
back at the OPP's CPU power and idle the rest in the deepest state that
gap reaches, woken once; the activations of a domain's CPUs are aligned,
so its cluster is active the longest of its CPUs' busy times at the
OPP's cluster power and idle the rest in the state that gap reaches;
idle CPUs and domains stay in their deepest state.  Where the floor
above may be far below any real schedule, this one is a schedule, the
best of its kind; with one task it is the task on one CPU at one OPP.
"""
from .model import domain_of


def ideal_state(d, length_s):
    """The deepest idle state of domain d whose target residency an idle
    period of length_s seconds reaches (WFI if none)."""
    s = 0
    for i, st in enumerate(d["idle"]):
        if st["residency"] <= length_s * 1e6:
            s = i
    return s


def trace_energy(doms, tr, t0, t1, factor=None, ideal_idle=False):
    """The energy of [t0, t1) of trace tr (see the top), as

      {"wall_s": W, "active", "idle", "total", "traced_active", "overrun_ms",
       "cpus": {cpu: {"active", "idle", "busy_s", "real_busy_s", "overrun_ms"}},
       "clusters": [{"cpus", "active", "idle", "traced_active",
                     "cpu_active", "cluster_active", "overrun_ms",
                     "opp_s": [seconds at each OPP],
                     "opp_residency": {MHz as a string: share of the known-OPP time}}]}

    "active" and "idle" of a cluster include its CPUs'.  factor: {pid: work
    factor}; tasks not in it count as traced.  ideal_idle: each idle period
    of a CPU (cpu_idle entry to exit: the guest's wakeups stand), and each
    period with all of a cluster's CPUs in one, in the deepest state its
    length reaches (ideal_state(), as LISA's ideal cpuidle), woken once,
    instead of the state the guest's cpuidle chose.
    """
    factor = factor or {}
    dom = domain_of(doms)
    ncpu = len(dom)
    opp = [None] * len(doms)            # each domain's OPP index in force
    busy = [False] * ncpu               # running anything but the idle task
    pid = [0] * ncpu                    # the task running
    state = [-1] * ncpu                 # the idle state entered (-1: none)
    cpu_busy = [[0.0] * len(doms[dom[c]]["opp"]) for c in range(ncpu)]
    cpu_idle = [[0.0] * len(doms[dom[c]]["idle"]) for c in range(ncpu)]
    entries = [[0] * len(doms[dom[c]]["idle"]) for c in range(ncpu)]
    cl_busy = [[0.0] * len(d["opp"]) for d in doms]
    cl_idle = [[0.0] * len(d["idle"]) for d in doms]
    res = [[0.0] * len(d["opp"]) for d in doms]
    freq_idx = [{o["freq"]: k for k, o in enumerate(d["opp"])} for d in doms]
    last = t0
    # ideal_idle: whether each CPU is in an idle period (cpu_idle entry to
    # exit; a CPU not yet seen busy or idle counts as in one since the
    # trace began), when it began, and its time inside the window so far,
    # charged when it ends; the same for each cluster, in a period while
    # all its CPUs are.
    first = getattr(tr, "first", None)
    first = t0 if first is None else min(first, t0)
    inper = [True] * ncpu
    since = [first] * ncpu
    pend = [0.0] * ncpu
    cl_since = [first] * len(doms)
    cl_pend = [0.0] * len(doms)

    def account(t):
        """Charge [last, t) to the OPPs, tasks and idle states in force."""
        dt = t - last
        if dt <= 0:
            return
        for i, d in enumerate(doms):
            k = opp[i]
            if k is None:
                continue
            res[i][k] += dt
            fmax, shallowest = 0.0, len(d["idle"]) - 1
            for c in d["cpus"]:
                if busy[c]:
                    f = factor.get(pid[c], 1.0)
                    cpu_busy[c][k] += dt * f
                    cpu_idle[c][0] += dt * max(0.0, 1.0 - f)
                    fmax = max(fmax, f)
                elif ideal_idle and inper[c]:
                    pend[c] += dt
                else:
                    s = 0 if ideal_idle else max(state[c], 0)
                    cpu_idle[c][s] += dt
                    shallowest = min(shallowest, s)
            if fmax:
                cl_busy[i][k] += dt * fmax
                cl_idle[i][0] += dt * max(0.0, 1.0 - fmax)
            elif ideal_idle and all(inper[c] for c in d["cpus"]):
                cl_pend[i] += dt
            else:
                cl_idle[i][shallowest] += dt

    def period_ends(c, t, inside):
        """CPU c's idle period ends at t: charge it, and its cluster's if
        all the cluster was in one (ideal_idle)."""
        i = dom[c]
        if all(inper[x] for x in doms[i]["cpus"]):
            cl_idle[i][ideal_state(doms[i], t - cl_since[i])] += cl_pend[i]
            cl_pend[i] = 0.0
        s = ideal_state(doms[i], t - since[c])
        cpu_idle[c][s] += pend[c]
        entries[c][s] += inside
        pend[c] = 0.0
        inper[c] = False

    def period_starts(c, t):
        inper[c] = True
        since[c] = t
        if all(inper[x] for x in doms[dom[c]]["cpus"]):
            cl_since[dom[c]] = t

    n = 0
    for n, (t, kind, cpu, a, b) in enumerate(tr.ev):
        if t >= t1:
            break
        if t > t0:
            account(t)
            last = t
        if cpu >= ncpu:
            continue
        if kind == "f":
            i = dom[cpu]
            opp[i] = freq_idx[i].get(a, opp[i])
        elif kind == "s":
            if ideal_idle and a != 0 and inper[cpu]:
                period_ends(cpu, t, t >= t0)
            busy[cpu] = a != 0
            pid[cpu] = a
        elif kind == "i":
            state[cpu] = a
            if a >= 0 and t >= t0 and not ideal_idle:
                entries[cpu][a] += 1
            if ideal_idle and a >= 0 and not inper[cpu] and not busy[cpu]:
                period_starts(cpu, t)
            elif ideal_idle and a < 0 and inper[cpu]:
                period_ends(cpu, t, t >= t0)
    account(t1)
    if ideal_idle:
        # Periods still open at t1 end where the trace ends them.
        for t, kind, cpu, a, b in tr.ev[n:]:
            if t >= t1 and cpu < ncpu and inper[cpu] and (
                    (kind == "s" and a != 0) or (kind == "i" and a < 0)):
                period_ends(cpu, t, False)
        end = getattr(tr, "end", t1)
        for c in range(ncpu):
            if inper[c]:
                period_ends(c, max(end, t1), False)

    wall = t1 - t0

    def shares(idle):
        """Each idle state's share of the traced idle time (all WFI if none)."""
        tot = sum(idle)
        return [x / tot for x in idle] if tot else [1.0] + [0.0] * (len(idle) - 1)

    out = {"wall_s": wall, "cpus": {}, "clusters": [], "overrun_ms": 0.0}
    tot = {"active": 0.0, "idle": 0.0, "traced_active": 0.0}
    for i, d in enumerate(doms):
        cl = {"cpus": d["cpus"], "active": 0.0, "idle": 0.0, "traced_active": 0.0,
              "cpu_active": 0.0, "overrun_ms": 0.0}
        for c in d["cpus"]:
            real = sum(b * 1024 / o["cap"] for b, o in zip(cpu_busy[c], d["opp"]))
            act = sum(b * 1024 / o["cap"] * o["cpu"] for b, o in zip(cpu_busy[c], d["opp"]))
            traced = sum(b * o["cpu"] for b, o in zip(cpu_busy[c], d["opp"]))
            idle_real = max(0.0, wall - real)
            idl = sum(idle_real * r * s["cpu"] for r, s in zip(shares(cpu_idle[c]), d["idle"]))
            idl += sum(n * s["wakeup"] * 1e-6 for n, s in zip(entries[c], d["idle"]))
            over = max(0.0, real - wall) * 1000
            out["cpus"][c] = {"active": act, "idle": idl, "busy_s": sum(cpu_busy[c]),
                              "real_busy_s": real, "overrun_ms": over}
            cl["cpu_active"] += act
            cl["idle"] += idl
            cl["traced_active"] += traced
            cl["overrun_ms"] += over
        real = sum(b * 1024 / o["cap"] for b, o in zip(cl_busy[i], d["opp"]))
        cl["cluster_active"] = sum(b * 1024 / o["cap"] * o["cluster"]
                                   for b, o in zip(cl_busy[i], d["opp"]))
        cl["active"] = cl["cpu_active"] + cl["cluster_active"]
        cl["traced_active"] += sum(b * o["cluster"] for b, o in zip(cl_busy[i], d["opp"]))
        idle_real = max(0.0, wall - real)
        cl["idle"] += sum(idle_real * r * s["cluster"]
                          for r, s in zip(shares(cl_idle[i]), d["idle"]))
        cl["opp_s"] = res[i]
        known = sum(res[i]) or 1.0
        cl["opp_residency"] = {str(o["freq"] // 1000): r / known for o, r in zip(d["opp"], res[i])}
        for k in tot:
            tot[k] += cl[k]
        out["overrun_ms"] += cl["overrun_ms"]
        out["clusters"].append(cl)
    out.update(tot)
    out["total"] = tot["active"] + tot["idle"]
    return out


def _floor_prices(doms):
    """(idle power, [(cap, marginal power)]) of the board (see the top)."""
    idle, pts = 0.0, []
    for d in doms:
        n = len(d["cpus"])
        cpu_idle = min(s["cpu"] for s in d["idle"])
        cl_idle = min(s["cluster"] for s in d["idle"])
        idle += n * cpu_idle + cl_idle
        for o in d["opp"]:
            c = o["cluster"] - cl_idle
            pts.append((o["cap"], o["cpu"] - cpu_idle + (c / n if c > 0 else c)))
    return idle, pts


def _envelope(pts, r):
    """The least mean marginal power at a mean capacity r: the lower convex
    envelope of the points and idle (0, 0) at r; None beyond the largest
    capacity."""
    pts = [(0, 0.0)] + pts
    best = None
    for ca, pa in pts:
        for cb, pb in pts:
            if ca <= r <= cb:
                v = pa if cb == ca else pa + (pb - pa) * (r - ca) / (cb - ca)
                best = v if best is None else min(best, v)
    return best


def energy_floor(doms, work_s, wall_s, deadlines=()):
    """The least energy of work_s seconds of work over wall_s (see the top),
    in the model's unit x s.  deadlines: (work_us, period_us) of activations
    (part of work_s) that must end within their period."""
    idle, pts = _floor_prices(doms)
    price = min(p / c for c, p in pts)
    free = work_s * 1024
    timed = 0.0
    cache = {}
    for w, t in deadlines:
        if t <= 0:
            continue
        if (w, t) not in cache:
            f = _envelope(pts, w * 1024 / t)
            cache[(w, t)] = None if f is None else t * f * 1e-6
        if cache[(w, t)] is not None:
            free -= w * 1024 * 1e-6
            timed += cache[(w, t)]
    return wall_s * idle + max(0.0, free) * price + timed


MAX_BOUND_TASKS = 8


def _groups(n, doms, fits):
    """Every placement of tasks 0..n-1 on doms' CPUs up to the order of a
    domain's CPUs: {domain index: [[task, ...] per busy CPU]}.  fits(d, i):
    whether task i may run in domain d at all."""
    def place(i, cur):
        if i == n:
            yield {d: [list(g) for g in gs] for d, gs in cur.items() if gs}
            return
        for d, dom in enumerate(doms):
            if not fits(d, i):
                continue
            gs = cur.setdefault(d, [])
            for g in gs:
                g.append(i)
                yield from place(i + 1, cur)
                g.pop()
            if len(gs) < len(dom["cpus"]):
                gs.append([i])
                yield from place(i + 1, cur)
                gs.pop()
    yield from place(0, {})


def _domain_power(d, groups, u, seen, need, period_us, fit):
    """The least mean power of domain d running each group of tasks on a CPU
    of its own at one OPP (see the top), None if no OPP covers them: u, seen,
    need: each task's configured and observed utilization and what its OPP
    must cover; fit: below what a CPU's tasks' observed sum must stay."""
    best = None
    deep = d["idle"][-1]
    free = (len(d["cpus"]) - len(groups)) * deep["cpu"]
    if not groups:
        return free + deep["cluster"]
    if any(sum(seen[i] for i in g) >= fit for g in groups):
        return None
    for o in d["opp"]:
        bs = [sum(u[i] for i in g) / o["cap"] for g in groups]
        if max(bs) >= 1 or any(sum(need[i] for i in g) > o["cap"] for g in groups):
            continue
        p = free
        for b in bs:
            st = d["idle"][ideal_state(d, period_us * (1 - b) * 1e-6)]
            p += b * o["cpu"] + (1 - b) * st["cpu"] + st["wakeup"] / period_us
        b = max(bs)
        st = d["idle"][ideal_state(d, period_us * (1 - b) * 1e-6)]
        p += b * o["cluster"] + (1 - b) * st["cluster"]
        best = p if best is None else min(best, p)
    return best


def periodic_bound(doms, tasks, wall_s, period_us, shift=4, fit_pct=80):
    """The least energy of periodic tasks of one period (see the top) in the
    model's unit x s: tasks [(work_s, observed)], work_s seconds of
    configured work over wall_s, activations every period_us, observed the
    task's utilization as it ran (capacity units: traced running time over
    wall time x 1024, which is invariant only because the emulator runs
    every CPU and OPP at one speed).  shift: the headroom's 1/2^shift
    (sched-energy's default least headroom, whatever a trial mode set).
    None if no placement and OPPs qualify, or for more than MAX_BOUND_TASKS
    tasks (the placements grow as set partitions do: 3.5 million for ten
    tasks on two domains of four CPUs)."""
    if wall_s <= 0 or period_us <= 0 or not tasks or len(tasks) > MAX_BOUND_TASKS:
        return None
    u = [w / wall_s * 1024 for w, _ in tasks]
    seen = [o for _, o in tasks]
    need = [o * (1 + 2.0 ** -shift) for o in seen]
    fit = [d["opp"][-1]["cap"] * fit_pct / 100 for d in doms]
    idle = [_domain_power(d, [], u, seen, need, period_us, 0) for d in doms]
    cache = {}
    best = None
    for place in _groups(len(tasks), doms,
                         lambda d, i: seen[i] < fit[d]):
        p = sum(idle)
        for d, groups in place.items():
            key = (d, tuple(sorted(tuple(g) for g in groups)))
            if key not in cache:
                cache[key] = _domain_power(doms[d], groups, u, seen, need, period_us, fit[d])
            if cache[key] is None:
                break
            p += cache[key] - idle[d]
        else:
            best = p if best is None else min(best, p)
    return None if best is None else best * wall_s
