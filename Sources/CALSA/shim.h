#include <alsa/asoundlib.h>
#include <stdarg.h>
#include <stdio.h>

// alsa-lib reports the specifics of a failure ("Cannot get card index for 99",
// "Unknown PCM nonsense") only through its error handler, which by default prints
// to standard error, and the handler is variadic, which Swift cannot implement.
// These keep the first message since the last clear, per thread, so that Slate's
// own error for a failed call can include it instead.

static inline char *slate_alsa_message_buffer(void) {
    static _Thread_local char buffer[256];
    return buffer;
}

static inline void slate_alsa_keep_message(const char *file, int line, const char *function, int err,
                                           const char *format, ...) {
    (void)file;
    (void)line;
    (void)function;
    (void)err;
    char *buffer = slate_alsa_message_buffer();
    if (buffer[0] != 0) return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(buffer, 256, format, arguments);
    va_end(arguments);
}

/// Routes alsa-lib's error messages to the per-thread buffer (process-wide).
static inline void slate_alsa_capture_messages(void) { snd_lib_error_set_handler(slate_alsa_keep_message); }

static inline void slate_alsa_clear_message(void) { slate_alsa_message_buffer()[0] = 0; }

/// The first message since the last clear, or "".
static inline const char *slate_alsa_message(void) { return slate_alsa_message_buffer(); }
