#include <stdarg.h>
#include <libavutil/log.h>
#include "CAVLog.h"

static slate_av_log_handler log_handler;

static void forward(void *object, int level, const char *format, va_list arguments) {
    if (level > av_log_get_level() && level > AV_LOG_ERROR) return;
    char line[1024];
    int prefix = 1;
    if (av_log_format_line2(object, level, format, arguments, line, sizeof line, &prefix) < 0) return;
    if (log_handler) log_handler(level, line);
}

void slate_av_log_to(slate_av_log_handler handler) {
    log_handler = handler;
    av_log_set_callback(forward);
}
