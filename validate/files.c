/* Validation case files (validate/validate.sh): N empty files created in
 * a new folder of DIR (ext4 on this machine), each lookup of a new name
 * making a dentry and each creation an inode.  Checkpoint "before" with
 * the folder made, "after" with every file there; then the files and the
 * folder go.  Prints files, the count made. */
#include "native.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>

int main(int argc, char **argv)
{
	char dir[PATH_MAX], path[PATH_MAX + 32];
	unsigned long n;

	prog = "files";
	if (argc != 3)
		die("usage: files DIR N");
	n = arg_count(argv[2], 10000000, "N");
	if (snprintf(dir, sizeof(dir), "%s/mmsim-validate-XXXXXX", argv[1]) >= (int)sizeof(dir))
		die("DIR too long");
	if (!mkdtemp(dir))
		die("mkdtemp in %s", argv[1]);
	checkpoint("before");
	for (unsigned long i = 0; i < n; i++) {
		int fd;

		snprintf(path, sizeof(path), "%s/f%lu", dir, i);
		fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0600);
		if (fd < 0)
			die("creating %s", path);
		close(fd);
	}
	checkpoint("after");
	for (unsigned long i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/f%lu", dir, i);
		unlink(path);
	}
	rmdir(dir);
	printf("files %lu\n", n);
	return 0;
}
