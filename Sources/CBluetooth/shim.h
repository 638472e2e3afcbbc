#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>
#include <bluetooth/l2cap.h>
// What the emulated headset uses besides libbluetooth: sockets, poll, clocks, files.
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <errno.h>

/// errno, which Swift cannot read as a C macro.
static inline int slate_headset_errno(void) { return errno; }
