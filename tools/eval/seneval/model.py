# SPDX-License-Identifier: GPL-2.0
"""The platform model, from the text of /sys/kernel/debug/sched_energy/model.

The kernel prints it as (kernel/sched/energy_model.c, sen_model_show()):

  unit uW
  source active dt cluster dt idle dt
  domains 2
  domain 0 cpus 0-3
    opp freq_khz capacity cpu_power cluster_power cost efficient
    0 450000 235 42 15 183 yes
    ...
    idle name cpu_power cluster_power wakeup_energy exit_latency_us residency_us
    0 WFI 5 20 0 1 1
    ...
  domain 1 cpus 4-5
    ...

parse_model() gives (doms, unit): unit is "uW" (or "abstract"), doms a
list with one dict per domain, its OPPs in ascending order and its idle
states shallowest first, as printed:

  {"cpus": [0, 1, 2, 3],
   "opp":  [{"freq": kHz, "cap": capacity, "cpu": P_cpu, "cluster": P_cluster,
             "cost": cost, "efficient": bool}, ...],
   "idle": [{"name": name, "cpu": P_cpu_idle, "cluster": P_cluster_idle,
             "wakeup": E_wakeup, "latency": exit latency (us),
             "residency": target residency (us)}, ...]}

Powers are in the model's unit; a wakeup's energy in the unit x us (a
uW model's 1000 is 0.001 uJ).
"""
from . import Error


class ModelError(Error):
    pass


OPP_KEYS = ("freq", "cap", "cpu", "cluster", "cost")
IDLE_KEYS = ("cpu", "cluster", "wakeup", "latency", "residency")


def cpulist(s):
    """The CPUs of a kernel CPU list: "0-2,5" is [0, 1, 2, 5]."""
    cpus = []
    for part in s.split(","):
        a, _, b = part.partition("-")
        cpus += range(int(a), int(b or a) + 1)
    return cpus


def cpulist_str(cpus):
    """The kernel's CPU list text of CPUs: [0, 1, 2, 5] is "0-2,5"."""
    runs = []
    for c in sorted(cpus):
        if runs and c == runs[-1][1] + 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def parse_model(text, name="model"):
    """(doms, unit) of a model's text (see the top); ModelError if the text
    is not a complete model: every domain with OPPs and idle states, the
    domains covering CPUs 0 to N-1 once each."""
    doms, unit, section = [], None, None
    for n, line in enumerate(text.splitlines(), 1):
        w = line.split()
        if not w:
            continue
        try:
            if w[0] == "unit" and len(w) == 2:
                unit = w[1]
            elif w[0] == "domain" and len(w) == 4 and w[2] == "cpus":
                doms.append({"cpus": cpulist(w[3]), "opp": [], "idle": []})
                section = None
            elif w[0] in ("opp", "idle") and doms:
                section = w[0]
            elif w[0].isdigit() and section:
                if len(w) != 7:
                    raise ValueError(f"{len(w)} fields, not 7")
                if section == "opp":
                    o = dict(zip(OPP_KEYS, map(int, w[1:6])))
                    o["efficient"] = w[6] == "yes"
                    doms[-1]["opp"].append(o)
                else:
                    st = {"name": w[1]}
                    st.update(zip(IDLE_KEYS, map(int, w[2:7])))
                    doms[-1]["idle"].append(st)
        except ValueError as e:
            raise ModelError(f"{name}:{n}: {line.strip()!r}: {e}") from None
    if not doms:
        why = text.strip().splitlines()[0] if text.strip() else "empty"
        raise ModelError(f"{name}: no 'domain N cpus LIST' block ({why})")
    if unit is None:
        raise ModelError(f"{name}: no 'unit' line")
    for i, d in enumerate(doms):
        if not d["opp"] or not d["idle"]:
            raise ModelError(f"{name}: domain {i} has no "
                             f"{'OPP' if not d['opp'] else 'idle state'} (incomplete model)")
    cpus = sorted(c for d in doms for c in d["cpus"])
    if cpus != list(range(len(cpus))):
        raise ModelError(f"{name}: the domains cover CPUs {cpulist_str(cpus)} "
                         f"({len(cpus)} in all), not 0-{len(cpus) - 1} once each")
    return doms, unit


def load_model(path):
    """parse_model() of the file at path."""
    try:
        with open(path, errors="replace") as f:
            text = f.read()
    except OSError as e:
        raise ModelError(f"cannot read {path}: {e.strerror}") from None
    return parse_model(text, path)


def domain_of(doms):
    """{cpu: index of its domain in doms}."""
    return {c: i for i, d in enumerate(doms) for c in d["cpus"]}
