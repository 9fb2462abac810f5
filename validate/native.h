/* What the validation cases' native programs share (the programs of
 * validate/, one object native.o): the checkpoint at which the harness snapshots the
 * kernel's files, the process's own figures, errors.  Each program prints
 * "name value" lines of its own figures on stdout (the harness's proc file). */
#ifndef MMSIM_VALIDATE_NATIVE_H
#define MMSIM_VALIDATE_NATIVE_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MiB (1UL << 20)

extern const char *prog;

/* The message (and errno's, if set) on stderr; exit status 1. */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* A count from the command line, 1 to max; else die naming what. */
unsigned long arg_count(const char *s, unsigned long max, const char *what);
/* The harness's snapshot at this point: $VALIDATE_HOOK with name as its
 * argument (nothing without it, for running a case by hand). */
void checkpoint(const char *name);
/* This process's AnonHugePages (kB), as /proc/self/smaps_rollup has it. */
unsigned long anon_huge_kb(void);
/* Write value to a /proc/sys or /sys file (root's). */
void write_file(const char *path, const char *value);
/* Reap n workload children, each to exit 0; their minor faults summed
 * (wait4's rusage): the workload's own faults, whatever else the machine
 * does (the checkpoints' shells are reaped apart). */
long reap(unsigned long n);

#endif
