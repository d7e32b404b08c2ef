# SPDX-License-Identifier: GPL-2.0
# sched-energy: build the patched kernel, boot emulated big.LITTLE boards,
# run the tests.  See README.md.

BOARD ?= juno-r0
BOARDS ?= juno-r0 hikey960
# make test also boots the three-cluster board (phone3).
TEST_BOARDS ?= $(BOARDS) phone3
S := scripts

.PHONY: all demo deps tree kernel kernel-debug selftests initramfs dtbs test test-debug \
	series series-check apply bench-util bench-gov bench-balance bench-overhead bench-decision bench-footprint stress soak \
	boot clean distclean help kernel-kcsan eval fresh-check

all: demo

help:
	@echo "make              build, boot the $(BOARD) board, show its topology, then a short evaluation:"
	@echo "                  CFS vs mainline EAS vs sched-energy (energy, slack, LISA criteria)"
	@echo "make eval         the full evaluation on both boards (build/eval/BOARD: table, JSON, plots)"
	@echo "make test         run every test (ends with 'N passed, N failed')"
	@echo "make fresh-check  make and make test in a fresh minimal Debian 12 root (as root; what CI runs)"
	@echo "make kernel       build the patched kernel (build/out/default)"
	@echo "make kernel-debug build the lockdep/KASAN/UBSAN kernel (build/out/debug)"
	@echo "make test-debug   run every test on that kernel"
	@echo "make kernel-kcsan the KCSAN kernel (build/out/kcsan; make stress STRESS_VARIANT=kcsan)"
	@echo "make stress       long stress scenarios on the debug kernel, then libFuzzer"
	@echo "make soak         hours of counted switches and hotplug under load, 10M fuzz runs"
	@echo "make initramfs    build the guest userland (build/initramfs.cpio.gz)"
	@echo "make boot BOARD=hikey960   the same on another board, with the kernel log"
	@echo "make series       the patch set as a mailing-list series in build/series"
	@echo "make bench-util   utilization-tracker figures next to PELT's (both boards)"
	@echo "make bench-gov    sched_energy vs schedutil: OPP residency and modelled energy"
	@echo "make bench-overhead  hackbench, pipes, ping-pong, wakeup latency vs mainline EAS"
	@echo "make bench-decision  one wakeup placement's time vs mainline EAS (profiling kernel)"
	@echo "make bench-footprint one wakeup placement's instructions and memory vs mainline EAS"
	@echo "make bench-balance stacked never-sleeping tasks: sched-energy vs mainline EAS balancing"
	@echo "make series-check the same, building the kernel after every patch"
	@echo "make apply KERNEL=DIR   apply the series to your own 6.1 tree"
	@echo "make clean        remove build output (keeps the unpacked tree and downloads)"
	@echo "make distclean    remove build/ entirely"

deps:
	@$(S)/deps

tree: deps
	@$(S)/prepare-tree

kernel: deps
	@$(S)/build-kernel default

kernel-debug: deps
	@$(S)/build-kernel debug

kernel-kcsan: deps
	@$(S)/build-kernel kcsan

selftests: deps
	@$(S)/build-selftests

initramfs: deps
	@$(S)/build-initramfs

dtbs: deps
	@for b in $(BOARDS); do $(S)/build-dtb $$b >/dev/null || exit 1; done

# The default target: the board as the scheduler sees it, then the
# evaluation on a short set of workloads (scripts/eval --short).
demo: kernel initramfs
	@$(S)/run-qemu --board $(BOARD) -- se-topology
	@$(S)/eval --short $(BOARD)

# CFS, mainline EAS and sched-energy on every workload, both boards.
eval: kernel initramfs
	@$(S)/eval $(BOARDS)

boot: kernel initramfs
	@$(S)/run-qemu --board $(BOARD) --verbose -- se-topology

test: deps
	@$(S)/build-kernel default
	@$(S)/build-initramfs
	@$(S)/run-tests $(TEST_BOARDS)

# The README's two commands in a freshly bootstrapped Debian 12 root
# (scripts/fresh-check): proves no install step is missing.
fresh-check:
	@$(S)/fresh-check

# The same tests on the lockdep/KASAN/UBSAN kernel (slower).
test-debug: deps
	@$(S)/build-kernel debug
	@$(S)/build-initramfs
	@SE_VARIANT=debug $(S)/run-tests $(BOARDS)

# The reliability scenarios for minutes each on the debug kernel, then
# the fuzzer (STRESS_SECONDS, FUZZ_SECONDS).
stress: deps
	@$(S)/build-kernel $${STRESS_VARIANT:-debug}
	@$(S)/build-initramfs
	@$(S)/stress $(BOARDS)

# The soak: counted switches, hotplug cycles and bad writes under load on
# the debug kernel, then 10 million fuzzer runs (SOAK_PERCENT, FUZZ_RUNS).
soak: deps
	@$(S)/build-kernel debug
	@$(S)/build-initramfs
	@$(S)/soak $(BOARDS)

# The patch set as a mailing-list series in build/series (checkpatch-clean).
series: deps
	@$(S)/make-series

# Stacked never-sleeping tasks released: modelled power, time to settle (BOARD).
bench-balance: kernel initramfs
	@$(S)/bench-balance $(BOARD)

# Utilization tracker figures next to PELT's, per board.
bench-util: kernel initramfs
	@$(S)/bench-util $(BOARDS)

# The sched_energy governor against schedutil on LISA's RampUp (BOARD).
bench-gov: kernel initramfs
	@$(S)/bench-gov $(BOARD)

# The overhead benchmarks alone, 12 rounds over two boots per board
# (the rounds of a boot: HACKBENCH_ROUNDS = ROUNDS / BOOTS).
bench-overhead: kernel initramfs
	@EVAL_WORKLOADS=none EVAL_MODES="eas eas2 sen" ROUNDS=12 HACKBENCH_ROUNDS=6 \
		EVAL_BENCHES="hackbench hackbench-pipe pingpong latency" $(S)/eval $(BOARDS)

# One wakeup placement's time, sched-energy's against mainline EAS's, on
# the profiling kernel (function profiler), 12 rounds over two boots.
bench-decision: initramfs
	@EVAL_VARIANT=prof EVAL_WORKLOADS=none EVAL_MODES="eas eas2 sen" ROUNDS=12 \
		HACKBENCH_ROUNDS=6 EVAL_BENCHES=decision $(S)/eval $(BOARDS)

# One wakeup placement's instructions, memory accesses, lines and pages,
# sched-energy's against mainline EAS's, counted by a QEMU plugin.
bench-footprint: kernel initramfs
	@$(S)/bench-footprint --functions $(BOARDS)

# The same, building the kernel after every patch (bisectability; slow).
series-check: deps
	@$(S)/make-series --build

# Apply the series to your own 6.1 tree: make apply KERNEL=/path/to/linux-6.1
apply: deps
	@test -n "$(KERNEL)" || { echo "usage: make apply KERNEL=/path/to/linux-6.1"; exit 2; }
	@$(S)/make-series
	@$(S)/apply-series "$(KERNEL)"

clean:
	rm -rf build/out build/rootfs build/selftests build/ksft-build build/boards build/series \
		build/logs build/initramfs.cpio.gz

distclean:
	rm -rf build
