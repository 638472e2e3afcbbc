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

/* The calling thread's id (gettid), for per-thread priorities. */
int slate_gettid(void);

/* rename(2) that fails with EEXIST instead of replacing `to` (renameat2 with
   RENAME_NOREPLACE, else link and unlink). */
int slate_rename_noreplace(const char *from, const char *to);

/* mkostemp(3): creates a file from a template ending in XXXXXX, mode 0600. */
int slate_mkostemp(char *template_path, int flags);

#endif
