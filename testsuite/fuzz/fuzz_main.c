/*
 * fuzz_main.c - replay inputs through a fuzz target without libFuzzer.
 *
 * Copyright (C) 2026 The slurm-buckets authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Linked with a target by the ordinary compiler for 'make check': each
 * argument is a file or a directory of files (not recursive), each file
 * one input, replayed in name order. A failing check aborts naming the
 * input. Prints "N inputs" at the end, and exits 0.
 */
#define _GNU_SOURCE

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static size_t _replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		perror(path);
		exit(1);
	}
	for (;;) {
		if (cap - len < 4096) {
			cap = cap ? 2 * cap : 65536;
			if (!(data = realloc(data, cap)))
				abort();
		}
		if (!(n = fread(data + len, 1, cap - len, f)))
			break;
		len += n;
	}
	if (ferror(f)) {
		perror(path);
		exit(1);
	}
	fclose(f);
	fuzz_input_name = path;
	LLVMFuzzerTestOneInput(data, len);
	fuzz_input_name = NULL;
	free(data);
	return 1;
}

static int _no_dot(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

int main(int argc, char **argv)
{
	size_t count = 0;
	struct stat st;
	struct dirent **list;
	char path[4096];
	int i, j, n;

	for (i = 1; i < argc; i++) {
		if (stat(argv[i], &st)) {
			perror(argv[i]);
			return 1;
		}
		if (!S_ISDIR(st.st_mode)) {
			count += _replay_file(argv[i]);
			continue;
		}
		if ((n = scandir(argv[i], &list, _no_dot, alphasort)) < 0) {
			perror(argv[i]);
			return 1;
		}
		for (j = 0; j < n; j++) {
			snprintf(path, sizeof(path), "%s/%s", argv[i],
				 list[j]->d_name);
			if (!stat(path, &st) && S_ISREG(st.st_mode))
				count += _replay_file(path);
			free(list[j]);
		}
		free(list);
	}
	printf("%zu inputs\n", count);
	return 0;
}
