/* `make bench`: will-it-scale's page_fault1 on the host itself, one task:
 * map 128 MiB of anonymous memory, write one byte to each page, unmap it,
 * for the seconds given (default 2) of CPU time.  Transparent huge pages
 * are refused for the region (MADV_NOHUGEPAGE): every fault is a 4 KiB
 * page's, as in the simulator.  Prints faults per CPU second, which
 * tests/bench/bench_page_fault1.sh sets against the simulator's. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define SIZE (128UL << 20)

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 2, t0 = cpu_seconds(), t;
	long page = sysconf(_SC_PAGESIZE);
	unsigned long faults = 0;

	do {
		volatile char *p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		madvise((void *)p, SIZE, MADV_NOHUGEPAGE);
		for (unsigned long off = 0; off < SIZE; off += (unsigned long)page)
			p[off] = 1;
		munmap((void *)p, SIZE);
		faults += SIZE / (unsigned long)page;
		t = cpu_seconds() - t0;
	} while (t < seconds);
	printf("native page_fault1: %lu faults in %.2f s of CPU: %.3f M faults/s\n", faults, t,
	       (double)faults / t / 1e6);
	return 0;
}
