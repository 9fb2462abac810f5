/* Readers of real programs' traces for mmsim.replay: an strace capture of
 * the memory system calls (`strace -f -tt -T -e trace=memory`) and a CSV of
 * the kernel's kmem page-allocator tracepoints.  Plain C (GLib and zlib,
 * which reads gzip-compressed and plain files alike): no Lua here, the
 * binding is lreplay.c. */
#ifndef MMSIM_TRACE_H
#define MMSIM_TRACE_H

#include "models/mmtypes.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

/* What every reader reports beside its events.  A malformed line is an
 * error `FILE:LINE: message`, unless skip_bad: then it is counted, and the
 * first one's message kept. */
struct trace_counts {
	unsigned long lines;        /* lines read */
	unsigned long bad_lines;    /* malformed lines skipped (skip_bad) */
	unsigned long ignored;      /* well-formed lines of no effect on the replay */
	uint64_t duration_ns;       /* from the first timestamp to the last (any line) */
	char *first_bad;            /* "FILE:LINE: message" of the first skipped line */
};

enum strace_call { SC_MMAP, SC_MUNMAP, SC_MREMAP, SC_MADVISE, SC_BRK, SC_MPROTECT };

/* mmap flags and mremap flags the replay looks at. */
#define TRACE_MAP_SHARED 0x1u
#define TRACE_MAP_FIXED 0x2u
#define TRACE_MAP_ANONYMOUS 0x4u
#define TRACE_MAP_STACK 0x8u
#define TRACE_MAP_NORESERVE 0x10u
#define TRACE_MAP_POPULATE 0x80u
#define TRACE_MREMAP_MAYMOVE 0x20u
#define TRACE_MREMAP_FIXED 0x40u

/* One successful call.  Failed calls (`= -1 ENOMEM ...`) changed nothing
 * and count as ignored, as do the other calls of trace=memory. */
struct strace_event {
	uint64_t ts_ns;             /* from the first line's timestamp */
	unsigned tid;               /* the PID column */
	unsigned line;
	enum strace_call call;
	unsigned flags;             /* TRACE_MAP_*, TRACE_MREMAP_* */
	int prot;                   /* PROT_READ | PROT_WRITE of the model; PROT_EXEC dropped */
	int fd;                     /* mmap's; -1 for none */
	char advice[24];            /* madvise's, lower case without MADV_: "dontneed" */
	uint64_t addr, len;         /* brk: the address asked (0 for brk(NULL)) */
	uint64_t new_len;           /* mremap */
	uint64_t ret;               /* the address returned (mmap, mremap, brk) */
};

/* Read an strace capture: a GArray of struct strace_event in file order,
 * or NULL with *err set ("FILE:LINE: message", or the file's error). */
GArray *strace_read(const char *path, bool skip_bad, struct trace_counts *counts, char **err);

enum kmem_kind { KMEM_ALLOC, KMEM_FREE };

/* mm_page_alloc, and mm_page_free / mm_page_free_batched (the kernel's
 * other kmem events are consequences of these and count as ignored). */
struct kmem_event {
	uint64_t ts_ns;             /* from the first event's timestamp */
	uint64_t pfn;
	unsigned line;
	uint16_t cpu;
	uint8_t kind;               /* enum kmem_kind */
	uint8_t order;
	gfp_t gfp;                  /* the model's flags for the trace's (allocations) */
	/* A free's allocation: the index of the last allocation of its pfn
	 * before it in the file not freed yet; -1 if none (the page was
	 * allocated before the capture started). */
	int32_t pair;
};

/* Read a kmem CSV (columns ts,cpu,pid,comm,event,pfn,order,migratetype,gfp,
 * extra; gzip or plain): a GArray of struct kmem_event in file order, or
 * NULL with *err set. */
GArray *kmem_read(const char *path, bool skip_bad, struct trace_counts *counts, char **err);

/* The model's gfp flags for a tracepoint's `GFP_KERNEL|__GFP_ZERO|...`:
 * false for a name it does not know.  Flags the model has no use for
 * (__GFP_IO, __GFP_FS, __GFP_COMP, __GFP_ACCOUNT, __GFP_HARDWALL,
 * __GFP_THISNODE, ...) and bare numbers are accepted and dropped. */
bool gfp_parse(const char *s, gfp_t *gfp);

void trace_counts_clear(struct trace_counts *counts);

#endif
