/* Validation case mass_exit (validate/validate.sh): CHILDREN processes
 * each map and write MIB MiB, wait for each other, and exit together.
 * Checkpoint "before" when every child has touched its memory, "after"
 * when every child has been reaped: the window holds the exit alone. */
#include "native.h"

#include <sys/mman.h>

int main(int argc, char **argv)
{
	unsigned long children, size;
	long page = sysconf(_SC_PAGESIZE), minflt;
	int ready[2], go[2];
	char c;

	prog = "mass_exit";
	if (argc != 3)
		die("usage: mass_exit CHILDREN MIB");
	children = arg_count(argv[1], 4096, "CHILDREN");
	size = arg_count(argv[2], 1 << 20, "MIB") * MiB;
	if (pipe(ready) || pipe(go))
		die("pipe");
	for (unsigned long i = 0; i < children; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (pid)
			continue;
		close(ready[0]);
		close(go[1]);
		volatile char *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			die("mmap");
		for (unsigned long off = 0; off < size; off += (unsigned long)page)
			p[off] = 1;
		if (write(ready[1], "r", 1) != 1)
			die("write");
		/* Every child leaves when the parent closes go: end of file. */
		while (read(go[0], &c, 1) > 0)
			;
		_exit(0);
	}
	close(ready[1]);
	close(go[0]);
	for (unsigned long i = 0; i < children; i++)
		if (read(ready[0], &c, 1) != 1)
			die("a child did not touch its memory");
	checkpoint("before");
	close(go[1]);
	minflt = reap(children);
	checkpoint("after");
	printf("minflt %ld\n", minflt);
	return 0;
}
