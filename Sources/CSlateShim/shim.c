#include <sys/syscall.h>
#include <unistd.h>
#include "CSlateShim.h"
#include <sys/ioctl.h>

_Static_assert(sizeof(struct input_id) == 8, "struct input_id layout");

unsigned long slate_eviocgrab(void) { return EVIOCGRAB; }
unsigned long slate_eviocgname(size_t len) { return EVIOCGNAME(len); }
unsigned long slate_eviocgid(void) { return EVIOCGID; }

int slate_gettid(void) { return (int)syscall(SYS_gettid); }
