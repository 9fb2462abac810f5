#include "memmap.h"

#include <stdlib.h>
#include <string.h>

size_t memmap_bytes(pfn_t nr_frames)
{
	size_t pbs = (nr_frames + pageblock_nr_pages - 1) / pageblock_nr_pages;

	return (size_t)nr_frames * (2 * sizeof(uint8_t) + 2 * sizeof(pfn_t)) +
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
	mm->state = calloc(nr_frames, sizeof(*mm->state));
	mm->aux = calloc(nr_frames, sizeof(*mm->aux));
	mm->word_a = calloc(nr_frames, sizeof(*mm->word_a));
	mm->word_b = calloc(nr_frames, sizeof(*mm->word_b));
	mm->pb_flags = calloc(mm->nr_pageblocks, sizeof(*mm->pb_flags));
	mm->pb_word_a = calloc(mm->nr_pageblocks, sizeof(*mm->pb_word_a));
	mm->pb_word_b = calloc(mm->nr_pageblocks, sizeof(*mm->pb_word_b));
	mm->pb_zone = calloc(mm->nr_pageblocks, sizeof(*mm->pb_zone));
	mm->pb_cpu = calloc(mm->nr_pageblocks, sizeof(*mm->pb_cpu));
	mm->pb_cpu_next = calloc(mm->nr_pageblocks, sizeof(*mm->pb_cpu_next));
	mm->pb_cpu_prev = calloc(mm->nr_pageblocks, sizeof(*mm->pb_cpu_prev));
	mm->pb_cl = calloc(mm->nr_pageblocks, sizeof(*mm->pb_cl));
	if (!mm->state || !mm->aux || !mm->pb_cpu || !mm->pb_cpu_next || !mm->pb_cpu_prev ||
	    !mm->pb_cl ||
	    !mm->word_a || !mm->word_b || !mm->pb_flags || !mm->pb_word_a ||
	    !mm->pb_word_b || !mm->pb_zone) {
		memmap_destroy(mm);
		return -1;
	}
	return 0;
}

void memmap_destroy(struct memmap *mm)
{
	free(mm->state);
	free(mm->aux);
	free(mm->pb_cpu);
	free(mm->pb_cpu_next);
	free(mm->pb_cpu_prev);
	free(mm->pb_cl);
	free(mm->word_a);
	free(mm->word_b);
	free(mm->pb_flags);
	free(mm->pb_word_a);
	free(mm->pb_word_b);
	free(mm->pb_zone);
	memset(mm, 0, sizeof(*mm));
}
