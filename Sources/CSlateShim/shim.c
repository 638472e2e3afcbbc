#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "CSlateShim.h"
#include <sys/ioctl.h>

_Static_assert(sizeof(struct input_id) == 8, "struct input_id layout");

unsigned long slate_eviocgrab(void) { return EVIOCGRAB; }
unsigned long slate_eviocgname(size_t len) { return EVIOCGNAME(len); }
unsigned long slate_eviocgid(void) { return EVIOCGID; }

int slate_gettid(void) { return (int)syscall(SYS_gettid); }

int slate_rename_noreplace(const char *from, const char *to) {
    if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0) return 0;
    if (errno != EINVAL && errno != ENOSYS) return -1;
    /* A file system without RENAME_NOREPLACE: link fails when `to` exists. */
    if (link(from, to) != 0) return -1;
    return unlink(from);
}

int slate_mkostemp(char *template, int flags) { return mkostemp(template, flags); }
