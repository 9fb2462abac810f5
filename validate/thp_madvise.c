/* Validation case thp_madvise (validate/validate.sh): MIB MiB (a multiple
 * of 24) mapped 2 MiB-aligned, MADV_HUGEPAGE, every page written; then in
 * the middle of each THP of the first half in turn one of six cuts:
 * MADV_DONTNEED, munmap and mprotect(PROT_READ) of 4 KiB, and of 1 MiB
 * (the second half stays whole); then, with -d, the
 * deferred split shrinker through drop_slab (2 to drop_caches).  Prints
 * this process's AnonHugePages (kB) after the touch, the cuts and the
 * shrinker, and the THP count cut each way. */
#include "native.h"

#include <stdint.h>
#include <sys/mman.h>

#define HPAGE (2 * MiB)

int main(int argc, char **argv)
{
	unsigned long size, nr, cut_4k = 0, cut_1m = 0;
	long page = sysconf(_SC_PAGESIZE);
	int shrink = argc == 3 && !strcmp(argv[1], "-d");
	char *map, *p;

	prog = "thp_madvise";
	if (argc != 2 + shrink)
		die("usage: thp_madvise [-d] MIB");
	size = arg_count(argv[1 + shrink], 1 << 20, "MIB") * MiB;
	if (size % (12 * HPAGE)) {
		errno = 0;
		die("MIB: %lu is not a multiple of 24", size / MiB);
	}
	nr = size / HPAGE;
	map = mmap(NULL, size + HPAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		die("mmap");
	p = (char *)(((uintptr_t)map + HPAGE - 1) & ~(uintptr_t)(HPAGE - 1));
	if (madvise(p, size, MADV_HUGEPAGE))
		die("madvise(MADV_HUGEPAGE)");
	for (unsigned long off = 0; off < size; off += (unsigned long)page)
		p[off] = 1;
	printf("anon_huge_kb_touched %lu\n", anon_huge_kb());
	for (unsigned long i = 0; i < nr / 2; i++) {
		char *mid = p + i * HPAGE + HPAGE / 2;
		size_t len = i % 2 ? MiB : (size_t)page;
		int r;

		switch (i % 6 / 2) {
		case 0:
			r = madvise(mid, len, MADV_DONTNEED);
			break;
		case 1:
			r = munmap(mid, len);
			break;
		default:
			r = mprotect(mid, len, PROT_READ);
		}
		if (r)
			die("cut %lu", i);
		if (len == MiB)
			cut_1m++;
		else
			cut_4k++;
	}
	printf("anon_huge_kb_cut %lu\n", anon_huge_kb());
	if (shrink)
		write_file("/proc/sys/vm/drop_caches", "2");
	printf("anon_huge_kb_shrunk %lu\ncut_4k %lu\ncut_1m %lu\n", anon_huge_kb(), cut_4k, cut_1m);
	return 0;
}
