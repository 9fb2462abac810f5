/* Validation case page_fault1 (validate/validate.sh): will-it-scale's
 * page_fault1 as processes: each of TASKS children maps MIB MiB of
 * anonymous memory, writes a byte to each page and unmaps it, LOOPS times.
 * Prints minflt, the children's minor faults (wait4). */
#include "native.h"

#include <sys/mman.h>

int main(int argc, char **argv)
{
	unsigned long tasks, size, loops;
	long page = sysconf(_SC_PAGESIZE), minflt;

	prog = "page_fault1";
	if (argc != 4)
		die("usage: page_fault1 TASKS MIB LOOPS");
	tasks = arg_count(argv[1], 1024, "TASKS");
	size = arg_count(argv[2], 1 << 20, "MIB") * MiB;
	loops = arg_count(argv[3], 1 << 20, "LOOPS");
	for (unsigned long t = 0; t < tasks; t++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (pid)
			continue;
		for (unsigned long l = 0; l < loops; l++) {
			volatile char *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
						MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (p == MAP_FAILED)
				die("mmap");
			for (unsigned long off = 0; off < size; off += (unsigned long)page)
				p[off] = 1;
			munmap((void *)p, size);
		}
		_exit(0);
	}
	minflt = reap(tasks);
	printf("minflt %ld\n", minflt);
	return 0;
}
