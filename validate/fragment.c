/* Validation cases compact and gigantic (validate/validate.sh): MIB MiB
 * (a multiple of 4) filled 2 MiB at a time, page cache (a file written in
 * DIR, unlinked from the start) and anonymous memory in turn, the
 * anonymous 4 KiB pages only (MADV_NOHUGEPAGE); every other anonymous
 * 2 MiB freed (MADV_DONTNEED).  Checkpoint "before"; then either 1 to
 * /proc/sys/vm/compact_memory, or with -g N, N more 1 GiB hugetlb pages
 * asked of nr_hugepages and the count given back as it was; checkpoint
 * "after".  Prints the pages of each kind and, with -g, gigantic_obtained. */
#define _GNU_SOURCE /* O_TMPFILE */
#include "native.h"

#include <fcntl.h>
#include <sys/mman.h>

#define CHUNK (2 * MiB)
#define GIGANTIC "/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages"

static unsigned long read_count(const char *path)
{
	FILE *f = fopen(path, "r");
	unsigned long v;

	if (!f || fscanf(f, "%lu", &v) != 1)
		die("reading %s", path);
	fclose(f);
	return v;
}

int main(int argc, char **argv)
{
	unsigned long size, chunks, gigantic = 0, anon_freed = 0;
	long page = sysconf(_SC_PAGESIZE);
	static char buf[CHUNK];
	char *anon;
	int fd, a = 1;

	prog = "fragment";
	if (argc > 2 && !strcmp(argv[1], "-g")) {
		gigantic = arg_count(argv[2], 1024, "N");
		a = 3;
	}
	if (argc != a + 2)
		die("usage: fragment [-g N] DIR MIB");
	size = arg_count(argv[a + 1], 1 << 30, "MIB") * MiB;
	if (size % (2 * CHUNK)) {
		errno = 0;
		die("MIB: %lu is not a multiple of 4", size / MiB);
	}
	chunks = size / CHUNK / 2;
	fd = open(argv[a], O_TMPFILE | O_RDWR, 0600);
	if (fd < 0)
		die("a file in %s", argv[a]);
	anon = mmap(NULL, size / 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (anon == MAP_FAILED)
		die("mmap");
	if (madvise(anon, size / 2, MADV_NOHUGEPAGE))
		die("madvise(MADV_NOHUGEPAGE)");
	memset(buf, 1, sizeof(buf));
	for (unsigned long i = 0; i < chunks; i++) {
		if (pwrite(fd, buf, CHUNK, (off_t)(i * CHUNK)) != (ssize_t)CHUNK)
			die("write");
		for (unsigned long off = 0; off < CHUNK; off += (unsigned long)page)
			anon[i * CHUNK + off] = 1;
	}
	/* Clean pages, as the model's page cache is: writeback done. */
	if (fdatasync(fd))
		die("fdatasync");
	for (unsigned long i = 0; i < chunks; i += 2)
		if (madvise(anon + i * CHUNK, CHUNK, MADV_DONTNEED))
			die("madvise(MADV_DONTNEED)");
		else
			anon_freed += CHUNK / (unsigned long)page;
	checkpoint("before");
	if (gigantic) {
		unsigned long was = read_count(GIGANTIC);
		char v[32];

		snprintf(v, sizeof(v), "%lu", was + gigantic);
		write_file(GIGANTIC, v);
		printf("gigantic_obtained %lu\n", read_count(GIGANTIC) - was);
		snprintf(v, sizeof(v), "%lu", was);
		write_file(GIGANTIC, v);
	} else {
		write_file("/proc/sys/vm/compact_memory", "1");
	}
	checkpoint("after");
	printf("file_pages %lu\nanon_pages %lu\n", size / 2 / (unsigned long)page,
	       size / 2 / (unsigned long)page - anon_freed);
	close(fd);
	return 0;
}
