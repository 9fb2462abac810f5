/* The validation programs' shared calls (validate/native.h). */
#include "native.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

const char *prog;

void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (errno)
		fprintf(stderr, ": %s", strerror(errno));
	fputc('\n', stderr);
	exit(1);
}

unsigned long arg_count(const char *s, unsigned long max, const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v == 0 || v > max || *s == '-') {
		errno = 0;
		die("%s: '%s' is not a count from 1 to %lu", what, s, max);
	}
	return v;
}

void checkpoint(const char *name)
{
	const char *hook = getenv("VALIDATE_HOOK");
	int status;
	pid_t pid;

	fflush(stdout);
	if (!hook || !*hook)
		return;
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", "$VALIDATE_HOOK \"$1\"", "sh", name, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		errno = 0;
		die("checkpoint %s: the snapshot failed", name);
	}
}

unsigned long anon_huge_kb(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	char line[256];
	unsigned long kb = 0;

	if (!f)
		die("/proc/self/smaps_rollup");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %lu kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

void write_file(const char *path, const char *value)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(value, f) < 0 || fclose(f))
		die("writing %s to %s", value, path);
}

long reap(unsigned long n)
{
	long minflt = 0;

	for (unsigned long i = 0; i < n; i++) {
		struct rusage ru;
		int status;

		if (wait4(-1, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
			errno = 0;
			die("a workload process failed");
		}
		minflt += ru.ru_minflt;
	}
	return minflt;
}
