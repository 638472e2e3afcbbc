#ifndef SLATE_SHIM_H
#define SLATE_SHIM_H

#include <linux/input.h>
#include <stddef.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <spawn.h>

/* ioctl request numbers built by macros that Swift cannot import. */
unsigned long slate_eviocgrab(void);
unsigned long slate_eviocgname(size_t len);
unsigned long slate_eviocgid(void);
unsigned long slate_hidiocsfeature(size_t len);

/* The calling thread's id (gettid), for per-thread priorities. */
int slate_gettid(void);
/* Names the calling thread (prctl PR_SET_NAME: 15 bytes at most), as top -H shows it. */
void slate_name_thread(const char *name);

/* renameat(2) that fails with EEXIST instead of replacing `to` (renameat2 with
   RENAME_NOREPLACE, else linkat and unlinkat). */
int slate_renameat_noreplace(int from_folder, const char *from, int to_folder, const char *to);
/* getrandom(2) with no flags: bytes from the kernel's random pool. */
long slate_getrandom(void *buffer, size_t length);

/* Returns memory freed in every malloc arena to the system (malloc_trim(0), <malloc.h>). */
void slate_return_freed_memory(void);

/* errno's symbolic name, "ENODEV" (strerrorname_np), or NULL for an unknown number. */
const char *slate_errno_name(int error);

/* The kernel's clock discipline as NTP or PTP daemons keep it (adjtimex with no
   change): 1 synchronized, 0 not, -1 unreadable; the estimated and maximum
   errors in microseconds. */
int slate_clock_status(long *estimated_error, long *maximum_error);

#endif
