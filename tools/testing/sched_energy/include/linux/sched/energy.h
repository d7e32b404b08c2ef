/* SPDX-License-Identifier: GPL-2.0 */
/* The header under test, unchanged: include/linux/sched/energy.h. */
#include "../../../../../../include/linux/sched/energy.h"
