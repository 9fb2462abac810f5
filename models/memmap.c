#include "memmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The frames' state and flags, read at random frames and touched whole by
 * the init, on 2 MiB pages where the host allows it (transparent_hugepage
 * "madvise" or "always"): fewer TLB misses, a 1 TiB machine's run aged 1
 * s in 0.79 times the time.  Not their words: a machine whose blocks
 * lie sparse over its frames would have them whole (the quickstart's 1
 * TiB machine peaked at 2.6 GiB instead of 0.66).  Arrays under 2 MiB get
 * no advice: they may lie in the malloc heap. */
static void *frames_calloc(size_t n, size_t size)
{
	void *p = calloc(n, size);
	uintptr_t start, end;

	if (!p || n * size < MEMMAP_HUGE_BYTES)
		return p;
	start = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
	end = ((uintptr_t)p + n * size) & ~(uintptr_t)4095;
	madvise((void *)start, end - start, MADV_HUGEPAGE);
	return p;
}

size_t memmap_bytes(pfn_t nr_frames)
{
	size_t pbs = (nr_frames + pageblock_nr_pages - 1) / pageblock_nr_pages;

	return (size_t)nr_frames * (sizeof(struct frame_flags) + sizeof(struct frame_words)) +
	       pbs * (2 * sizeof(uint16_t) + 4 * sizeof(uint32_t) + sizeof(uint8_t) +
		      sizeof(struct cacheline));
}

int memmap_init(struct memmap *mm, pfn_t nr_frames)
{
	memset(mm, 0, sizeof(*mm));
	mm->nr_frames = nr_frames;
	mm->nr_pageblocks = (nr_frames + pageblock_nr_pages - 1) / pageblock_nr_pages;
	/* calloc of large arrays maps zero pages lazily: untouched frames cost
	 * no resident memory until the simulation reaches them. */
	mm->flags = frames_calloc(nr_frames, sizeof(*mm->flags));
	mm->words = calloc(nr_frames, sizeof(*mm->words));
	mm->pb_flags = calloc(mm->nr_pageblocks, sizeof(*mm->pb_flags));
	mm->pb_word_a = calloc(mm->nr_pageblocks, sizeof(*mm->pb_word_a));
	mm->pb_word_b = calloc(mm->nr_pageblocks, sizeof(*mm->pb_word_b));
	mm->pb_zone = calloc(mm->nr_pageblocks, sizeof(*mm->pb_zone));
	mm->pb_cpu = calloc(mm->nr_pageblocks, sizeof(*mm->pb_cpu));
	mm->pb_cpu_next = calloc(mm->nr_pageblocks, sizeof(*mm->pb_cpu_next));
	mm->pb_cpu_prev = calloc(mm->nr_pageblocks, sizeof(*mm->pb_cpu_prev));
	mm->pb_cl = calloc(mm->nr_pageblocks, sizeof(*mm->pb_cl));
	if (!mm->flags || !mm->pb_cpu || !mm->pb_cpu_next || !mm->pb_cpu_prev ||
	    !mm->pb_cl ||
	    !mm->words || !mm->pb_flags || !mm->pb_word_a ||
	    !mm->pb_word_b || !mm->pb_zone) {
		memmap_destroy(mm);
		return -1;
	}
	return 0;
}

void memmap_destroy(struct memmap *mm)
{
	free(mm->flags);
	free(mm->pb_cpu);
	free(mm->pb_cpu_next);
	free(mm->pb_cpu_prev);
	free(mm->pb_cl);
	free(mm->words);
	free(mm->pb_flags);
	free(mm->pb_word_a);
	free(mm->pb_word_b);
	free(mm->pb_zone);
	memset(mm, 0, sizeof(*mm));
}
