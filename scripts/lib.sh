# SPDX-License-Identifier: GPL-2.0
# Common settings for the sched-energy scripts.  Sourced, not executed.

# Debian's tools first (python3 with the modules checkpatch's spdxcheck
# needs, from scripts/deps), whatever else the user's PATH holds.
PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH
export PATH

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${SE_BUILD:-$ROOT/build}
SRC=$BUILD/linux
ARCH=arm64
CROSS_COMPILE=aarch64-linux-gnu-
export ARCH CROSS_COMPILE
# Directories of this repository that hold kernel files, copied into the
# kernel tree at the same paths (tools/eval, the host's evaluation
# tooling, is not one of them).
KERNEL_DIRS="arch drivers include kernel Documentation tools/testing"
BASE_TARBALL=/usr/src/linux-source-6.1.tar.xz

NCPU=$(nproc)

die() {
	echo "ERROR: $*" >&2
	exit 1
}

note() {
	echo ">>> $*" >&2
}

# board_conf NAME: load boards/NAME.conf, failing with the list of boards.
board_conf() {
	local f=$ROOT/boards/$1.conf
	if [ ! -f "$f" ]; then
		die "unknown board '$1' (boards: $(cd "$ROOT/boards" && ls ./*.conf | sed 's|^\./||; s|\.conf$||' | tr '\n' ' '))"
	fi
	# shellcheck disable=SC1090
	. "$f"
}

# kernel_image VARIANT: path of the built kernel image.
kernel_image() {
	echo "$BUILD/out/${1:-default}/arch/arm64/boot/Image"
}
