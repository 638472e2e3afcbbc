#include <stdarg.h>
#include <libavutil/log.h>
#include "CAVLog.h"

static slate_av_log_handler log_handler;
/* Whether the next line starts a line (libav's own callback keeps it so too:
   a line logged in parts gets its "[context @ 0x...]" prefix once). */
static int print_prefix = 1;

static void forward(void *object, int level, const char *format, va_list arguments) {
    int severity = level & 0xff;
    if (severity > av_log_get_level() && severity > AV_LOG_ERROR) return;
    char line[1024];
    if (av_log_format_line2(object, level, format, arguments, line, sizeof line, &print_prefix) < 0) return;
    if (log_handler) log_handler(severity, line);
}

void slate_av_log_to(slate_av_log_handler handler) {
    log_handler = handler;
    av_log_set_callback(forward);
}
