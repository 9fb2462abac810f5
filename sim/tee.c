/* stdout and stderr copied into files: see tee.h.
 *
 * A child process does the copying, not a thread: if mmsim dies (an
 * abort, a sanitizer's report), the child still gets what was written
 * before, drains the pipes and ends when they close. */
/* pipe2 */
#define _GNU_SOURCE
#include "sim/tee.h"

#include "sim/results.h"

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const names[2] = { "stdout", "stderr" };
static pid_t copier = -1;
/* Where fds 1 and 2 went before, -1 for a stream not copied. */
static int saved[2] = { -1, -1 };

/* The child: pipe in[i] to fd i + 1 (where the stream went) and file[i]
 * until both pipes close.  A destination that fails (a closed terminal, a
 * full disk) is dropped, the other kept.  Signals for mmsim (^C, SIGTERM)
 * are mmsim's: the child keeps copying what mmsim says about them. */
static void copy(int in[2], int file[2])
{
	int to[2] = { STDOUT_FILENO, STDERR_FILENO };
	char buf[65536];

	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	while (in[0] >= 0 || in[1] >= 0) {
		struct pollfd p[2] = { { .fd = in[0], .events = POLLIN },
				       { .fd = in[1], .events = POLLIN } };

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		/* stdout first: mmsim flushes it before it writes to stderr. */
		for (int i = 0; i < 2; i++) {
			if (in[i] < 0 || !p[i].revents)
				continue;
			ssize_t n = read(in[i], buf, sizeof(buf));

			if (n < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (n <= 0) {
				close(in[i]);
				in[i] = -1;
				continue;
			}
			if (to[i] >= 0 && results_write_all(to[i], buf, (size_t)n))
				to[i] = -1;
			if (file[i] >= 0 && results_write_all(file[i], buf, (size_t)n))
				file[i] = -1;
		}
	}
	_exit(0);
}

/* Give fds 1 and 2 back and wait for the child: async-signal-safe. */
static void stop(void)
{
	if (copier < 0)
		return;
	for (int i = 0; i < 2; i++) {
		if (saved[i] < 0)
			continue;
		dup2(saved[i], i + 1);
		close(saved[i]);
		saved[i] = -1;
	}
	while (waitpid(copier, NULL, 0) < 0 && errno == EINTR)
		;
	copier = -1;
}

static void on_abort(int sig)
{
	(void)sig;
	stop();
}

void tee_stop(void)
{
	if (copier < 0)
		return;
	fflush(stdout);
	fflush(stderr);
	stop();
}

int tee_stderr(void)
{
	return saved[1] >= 0 ? saved[1] : STDERR_FILENO;
}

/* The stream on fd already goes to path. */
static bool goes_to(int fd, const char *path)
{
	struct stat a, b;

	return !fstat(fd, &a) && !stat(path, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int tee_start(const char *dir, char **err)
{
	static bool registered;
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, file[2] = { -1, -1 };
	bool any = false;
	pid_t pid;

	if (copier >= 0)
		return 0;
	for (int i = 0; i < 2; i++) {
		char *path = g_build_filename(dir, names[i], NULL);
		int p[2];

		if (goes_to(i + 1, path)) {
			g_free(path);
			continue;
		}
		file[i] = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (file[i] < 0 || pipe2(p, O_CLOEXEC)) {
			*err = g_strdup_printf("cannot write %s: %s", path, g_strerror(errno));
			g_free(path);
			goto fail;
		}
		g_free(path);
		in[i] = p[0];
		out[i] = p[1];
		any = true;
	}
	if (!any)
		return 0;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		*err = g_strdup_printf("cannot copy stdout and stderr into %s: fork: %s", dir,
				       g_strerror(errno));
		goto fail;
	}
	if (!pid) {
		for (int i = 0; i < 2; i++)
			if (out[i] >= 0)
				close(out[i]);
		copy(in, file);
	}
	for (int i = 0; i < 2; i++) {
		if (out[i] < 0)
			continue;
		/* Without a copy of where it went, the stream stays there (the
		 * child sees its pipe close). */
		saved[i] = fcntl(i + 1, F_DUPFD_CLOEXEC, 3);
		if (saved[i] >= 0)
			dup2(out[i], i + 1);
		close(out[i]);
		close(in[i]);
		close(file[i]);
	}
	copier = pid;
	/* A terminal's stdout stays line-buffered, now that fd 1 is a pipe. */
	if (saved[0] >= 0 && isatty(saved[0]))
		setvbuf(stdout, NULL, _IOLBF, 0);
	if (!registered) {
		struct sigaction sa = { .sa_handler = on_abort };

		sigemptyset(&sa.sa_mask);
		sigaction(SIGABRT, &sa, NULL);
		atexit(tee_stop);
		registered = true;
	}
	return 0;
fail:
	for (int i = 0; i < 2; i++) {
		if (in[i] >= 0)
			close(in[i]);
		if (out[i] >= 0)
			close(out[i]);
		if (file[i] >= 0)
			close(file[i]);
	}
	return -1;
}
