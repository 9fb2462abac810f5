/* Building and tearing down a simulated machine: node and zone layout as
 * x86-64 lays it out, the memmap, boot-time freeing into the buddy, and
 * watermarks. */
#ifndef MMSIM_MACHINE_H
#define MMSIM_MACHINE_H

#include "mmzone.h"

struct machine_params {
	int min_free_kbytes;            /* -1: computed as the kernel does */
	int watermark_scale_factor;     /* vm.watermark_scale_factor, default 10 */
	int watermark_boost_factor;     /* vm.watermark_boost_factor, default 15000 */
	bool thp;                       /* THP enabled: khugepaged raises min_free_kbytes */
};

void machine_params_default(struct machine_params *p);
/* Physical memory of this host, for the size check. */
uint64_t host_memory_bytes(void);
/* NULL on error, with *err set to a g_malloc'ed message. */
struct machine *machine_create(const struct topology *t, const struct machine_params *p,
			       char **err);
void machine_destroy(struct machine *m);
unsigned long machine_free_pages(const struct machine *m);
unsigned long machine_managed_pages(const struct machine *m);

#endif
