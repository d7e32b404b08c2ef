#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn KUnit output (from a guest console log) and kselftest TAP (from
run_kselftest.sh) into one line per test case:

    PASS|FAIL|SKIP <prefix> <kind> <suite>.<case>[: reason]

A suite or program whose plan ("1..N") promises more results than it
printed (a crash, a timeout) gets a FAIL line for the missing ones, and a
kselftest program that exits non-zero without a failing case gets one too.
With --require SUITE, a KUnit suite that never ran is a FAIL.
"""
import argparse
import re
import sys

TS = re.compile(r'^\[\s*\d+\.\d+\]\s?')
# "ok N name", "not ok N - name # SKIP why", "not ok N name # exit=1"
RESULT = re.compile(r'^(not ok|ok) (\d+)(?: -)? ([^#]*?)\s*(?:#\s*(?:(SKIP|TODO)\b ?)?(.*))?$')
PLAN = re.compile(r'^1\.\.(\d+)')


def emit(out, status, prefix, kind, name, why=''):
    out.append((status, f'{status} {prefix} {kind} {name}' + (f': {why}' if why else '')))


def emit_result(out, m, prefix, kind, name, diag):
    """Emit the line for one matched RESULT; returns its status."""
    if m.group(4) == 'SKIP':
        status, why = 'SKIP', m.group(5)
    elif m.group(1) == 'ok':
        status, why = 'PASS', ''
    else:
        status, why = 'FAIL', ' | '.join(diag[-8:])
    emit(out, status, prefix, kind, name, why)
    return status


def parse_kunit(path, prefix, require):
    out = []
    suites = {}
    suite = None
    diag = []
    with open(path, errors='replace') as f:
        for raw in f:
            line = TS.sub('', raw.rstrip('\n'))
            if not line.startswith('    ') or line.startswith('        '):
                continue  # only the test-case level of KTAP
            line = line[4:]
            m = re.match(r'^# Subtest: (\S+)', line)
            if m:
                suite = m.group(1)
                suites[suite] = {'plan': None, 'seen': 0}
                diag = []
                continue
            if suite is None:
                continue
            m = PLAN.match(line)
            if m and suites[suite]['plan'] is None:
                suites[suite]['plan'] = int(m.group(1))
                continue
            m = RESULT.match(line)
            if not m:
                diag.append(line[2:] if line.startswith('# ') else line)
                continue
            suites[suite]['seen'] += 1
            emit_result(out, m, prefix, 'kunit', f'{suite}.{m.group(3)}', diag)
            diag = []
    for s, st in suites.items():
        if st['plan'] is not None and st['seen'] < st['plan']:
            emit(out, 'FAIL', prefix, 'kunit', f'{s}',
                 f'only {st["seen"]} of {st["plan"]} results (crash?)')
    for r in require:
        if r not in suites:
            emit(out, 'FAIL', prefix, 'kunit', r, 'suite did not run')
    return out


def parse_ksft(path, prefix):
    out = []
    prog = None
    progs = {}
    diag = []
    with open(path, errors='replace') as f:
        for raw in f:
            line = raw.rstrip('\n').rstrip('\r')
            m = re.match(r'^# selftests: (\S+): (\S+)', line)
            if m:
                prog = f'{m.group(1)}:{m.group(2)}'
                progs[prog] = {'plan': None, 'seen': 0, 'failed': 0}
                diag = []
                continue
            m = RESULT.match(line)
            if m and m.group(3).startswith('selftests: '):
                name = m.group(3)[len('selftests: '):].replace(': ', ':')
                st = progs.setdefault(name, {'plan': None, 'seen': 0, 'failed': 0})
                if st['plan'] is not None and st['seen'] < st['plan']:
                    emit(out, 'FAIL', prefix, 'kselftest', name,
                         f'only {st["seen"]} of {st["plan"]} results ({m.group(5) or "crash or timeout"})')
                elif m.group(1) == 'not ok' and m.group(4) != 'SKIP' and not st['failed']:
                    emit(out, 'FAIL', prefix, 'kselftest', name,
                         f'{m.group(5) or "failed"} with no failing case {" ".join(diag[-3:])}'.strip())
                elif m.group(4) == 'SKIP' and st['seen'] == 0:
                    emit(out, 'SKIP', prefix, 'kselftest', name, m.group(5))
                prog = None
                continue
            if prog is None or not line.startswith('# '):
                continue
            inner = line[2:]
            m = PLAN.match(inner)
            if m and progs[prog]['plan'] is None:
                progs[prog]['plan'] = int(m.group(1))
                continue
            m = RESULT.match(inner)
            if m:
                progs[prog]['seen'] += 1
                if emit_result(out, m, prefix, 'kselftest', f'{prog}.{m.group(3)}', diag) == 'FAIL':
                    progs[prog]['failed'] += 1
                diag = []
            elif inner.startswith('# '):
                diag.append(inner[2:].strip())
    for p, st in progs.items():
        if st['seen'] == 0 and st['plan'] is None and not any(p in l for _, l in out):
            emit(out, 'FAIL', prefix, 'kselftest', p, 'no result (crash or timeout)')
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--prefix', default='')
    ap.add_argument('--kunit', help='console log holding KUnit output')
    ap.add_argument('--require', action='append', default=[], help='KUnit suite that must run')
    ap.add_argument('--ksft', help='run_kselftest.sh output')
    a = ap.parse_args()
    res = []
    if a.kunit:
        res += parse_kunit(a.kunit, a.prefix, a.require)
    if a.ksft:
        res += parse_ksft(a.ksft, a.prefix)
    for _, l in res:
        print(l)
    return 1 if any(s == 'FAIL' for s, _ in res) else 0


if __name__ == '__main__':
    sys.exit(main())
