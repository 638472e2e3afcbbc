#define _GNU_SOURCE
#include <malloc.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/timex.h>
#include <unistd.h>
#include "CSlateShim.h"
#include <sys/ioctl.h>
#include <linux/hidraw.h>

_Static_assert(sizeof(struct input_id) == 8, "struct input_id layout");

unsigned long slate_eviocgrab(void) { return EVIOCGRAB; }
unsigned long slate_eviocgname(size_t len) { return EVIOCGNAME(len); }
unsigned long slate_eviocgid(void) { return EVIOCGID; }
unsigned long slate_hidiocsfeature(size_t len) { return HIDIOCSFEATURE(len); }

int slate_gettid(void) { return (int)syscall(SYS_gettid); }

void slate_name_thread(const char *name) { prctl(PR_SET_NAME, name, 0, 0, 0); }

int slate_renameat_noreplace(int from_folder, const char *from, int to_folder, const char *to) {
    if (renameat2(from_folder, from, to_folder, to, RENAME_NOREPLACE) == 0) return 0;
    if (errno != EINVAL && errno != ENOSYS) return -1;
    /* A file system without RENAME_NOREPLACE: linkat fails when `to` exists. */
    if (linkat(from_folder, from, to_folder, to, 0) != 0) return -1;
    return unlinkat(from_folder, from, 0);
}

long slate_getrandom(void *buffer, size_t length) { return (long)getrandom(buffer, length, 0); }

const char *slate_errno_name(int error) { return strerrorname_np(error); }

int slate_clock_status(long *estimated_error, long *maximum_error) {
    struct timex status = {0};
    int state = adjtimex(&status);
    if (state == -1) return -1;
    *estimated_error = status.esterror;
    *maximum_error = status.maxerror;
    return state == TIME_ERROR || (status.status & STA_UNSYNC) ? 0 : 1;
}

void slate_return_freed_memory(void) {
    malloc_trim(0);
}
