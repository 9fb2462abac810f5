/* Reading a capture made by `./run capture` (sim/capture.sh) for
 * models/snapshot.c: the archive unpacked to a temporary directory, the
 * text files parsed, the flags decompressed as they are classified. */
#ifndef MMSIM_SNAPSHOT_READ_H
#define MMSIM_SNAPSHOT_READ_H

#include "models/machine.h"
#include "models/snapshot.h"

/* Fill s (classified frames, zones), t (nodes, CPUs, node sizes) and the
 * capture's settings in p (THP, the vm sysctls the model has).  0, or -1
 * and a g_malloc'ed *err naming the file and, for the flags, the offset. */
int snapshot_read(const char *path, struct snapshot *s, struct topology *t,
		  struct machine_params *p, char **err);
/* Only the capture's settings in p (any capture, or one of `./run capture
 * --settings`): 0, or -1 and a g_malloc'ed *err. */
int snapshot_read_settings(const char *path, struct machine_params *p, char **err);

#endif
