#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the seed corpus: every board of boards/ alone, and with every
# malformed-data and model-source fragment of tests/ and of seeds/, each
# on the skeleton of QEMU's virt tree (seeds/virt.dts) as scripts/build-dtb
# puts them on QEMU's own.  A fragment's "// board: NAME" line picks the
# board; juno-r0 otherwise.  Needs cpp and dtc, not QEMU.
#
# Usage: gen-seeds.sh TOP OUTDIR
set -euo pipefail

top=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out" "$out/src"
rm -f "$out"/*.dtb

seed() {
	local board=$1 frag=${2:-} name=$1 cpus
	cpus=$(sed -n 's/^BOARD_CPUS=//p' "$top/boards/$board.conf")
	[ -n "$frag" ] && name=$board+$(basename "$frag" .dtsi)
	{
		echo "#define NR_VCPUS $cpus"
		echo "#include \"$here/seeds/virt.dts\""
		echo "#include \"$top/boards/$board.dtsi\""
		[ -z "$frag" ] || echo "#include \"$frag\""
	} >"$out/src/$name.in.dts"
	cpp -nostdinc -undef -x assembler-with-cpp -P "$out/src/$name.in.dts" \
		>"$out/src/$name.dts"
	if ! dtc -q -I dts -O dtb -o "$out/$name.dtb.tmp" "$out/src/$name.dts"; then
		echo "gen-seeds: dtc rejected $out/src/$name.dts" >&2
		exit 1
	fi
	mv "$out/$name.dtb.tmp" "$out/$name.dtb"
}

n=0
for conf in "$top"/boards/*.conf; do
	seed "$(basename "$conf" .conf)"
	n=$((n + 1))
done
for frag in "$top"/tests/bad-model/*.dtsi "$top"/tests/bad-opp/*.dtsi \
	    "$top"/tests/model-source/*.dtsi "$top"/tests/dt-schema/*.dtsi \
	    "$here"/seeds/*.dtsi; do
	board=$(sed -n 's|^// board: *||p' "$frag" | head -n1)
	seed "${board:-juno-r0}" "$frag"
	n=$((n + 1))
done
echo "gen-seeds: $n seeds in $out"
