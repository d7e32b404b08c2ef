// SPDX-License-Identifier: GPL-2.0
/*
 * The inputs of the drivers that take files (replay.c, mutate.c): every
 * file named, and every regular file of every directory named, in name
 * order.
 */
#include <dirent.h>
#include <sys/stat.h>

#include "sen_test.h"

static int sen_no_dots(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/**
 * sen_walk_inputs() - call @fn on @path, or on each file in it
 * @path:	a file, or a directory whose regular files (not those whose
 *		name starts with a dot, not subdirectories) are taken
 * @fn:		called with each file's path
 *
 * Exits with a message if @path or the directory cannot be read.
 */
void sen_walk_inputs(const char *path, sen_input_fn fn)
{
	struct dirent **list;
	struct stat st;
	int n, i;

	if (stat(path, &st)) {
		perror(path);
		exit(1);
	}
	if (!S_ISDIR(st.st_mode)) {
		fn(path);
		return;
	}
	n = scandir(path, &list, sen_no_dots, alphasort);
	if (n < 0) {
		perror(path);
		exit(1);
	}
	for (i = 0; i < n; i++) {
		char *file;

		if (asprintf(&file, "%s/%s", path, list[i]->d_name) < 0)
			abort();
		if (!stat(file, &st) && S_ISREG(st.st_mode))
			fn(file);
		free(file);
		free(list[i]);
	}
	free(list);
}
