# SPDX-License-Identifier: GPL-2.0
# QEMU machine options shared by build-dtb and run-qemu.  Sourced after a
# board's .conf.

# qemu_machine_args [DUMPDTB]: machine, CPU and memory options for the
# current board; with DUMPDTB, ask QEMU to write its device tree there.
qemu_machine_args() {
	# GICv2: every idle state goes through cpu_pm_enter(), and with GICv3
	# and the GIC's security disabled (QEMU without EL3 firmware) the GICv3
	# driver then turns off the CPU's group-1 interrupts and redistributor,
	# expecting firmware to power the core down; QEMU's PSCI only does a
	# WFI, which then never wakes up.  The GICv2 driver only saves state.
	# GICv2 limits a board to 8 CPUs.
	local m="virt,gic-version=2"
	[ -n "${1:-}" ] && m="$m,dumpdtb=$1"
	# Cortex-A57 vCPUs for every core: QEMU cannot mix core types in one
	# virt machine, and the kernel only sees what the device tree says.
	# No network: -machine virt adds a virtio NIC by default, and QEMU then
	# needs its option ROM (efi-virtio.rom, package ipxe-qemu), which a
	# minimal Debian does not have.  The guest talks over virtio-serial.
	echo "-machine $m -cpu cortex-a57 -smp $BOARD_CPUS -m $BOARD_MEM -display none -nic none"
}
