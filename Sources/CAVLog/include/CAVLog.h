#ifndef CAVLOG_H
#define CAVLOG_H

/* libav's log lines, formatted as libav prints them ("[context @ 0x...] text\n"),
   handed to `handler` with their level: those at or above libav's log level,
   and every error. */
typedef void (*slate_av_log_handler)(int level, const char *line);

/* Sends libav's log to `handler` from now on (av_log_set_callback). */
void slate_av_log_to(slate_av_log_handler handler);

#endif
