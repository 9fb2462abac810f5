/* A copy of the process's stdout and stderr in files (a single run keeps
 * them in its results folder), the streams still reaching where they went
 * before (the terminal).  One per process. */
#ifndef MMSIM_TEE_H
#define MMSIM_TEE_H

/* From now on, what goes to fds 1 and 2 also goes to dir/stdout and
 * dir/stderr: each fd becomes a pipe that a child process copies to both.
 * A stream that already goes to its file (a sweep's run, whose shell
 * redirects it there) is left alone.  0, or -1 and a g_malloc'ed *err
 * (nothing changed). */
int tee_start(const char *dir, char **err);
/* Where stderr went before tee_start (the terminal a progress line is
 * for), or STDERR_FILENO without a copy. */
int tee_stderr(void);
/* Flush stdio, give fds 1 and 2 back and wait until the child has
 * written everything; nothing without a copy.  Runs at exit too, and on
 * SIGABRT (an assertion's message reaches the files and the terminal
 * before the process dies). */
void tee_stop(void);

#endif
