#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavcodec/bsf.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/timecode.h>
#include <libavutil/imgutils.h>
#include <libavutil/hwcontext.h>
#include <libavutil/opt.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libavutil/samplefmt.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>

/* libav's function-like and compound macros, as functions Swift can call. */

/* AVERROR(e): a POSIX errno as a libav error code. */
static inline int slate_averror(int posix_errno) { return AVERROR(posix_errno); }

/* AVERROR_EOF: the end of a stream or of an encoder's output. */
static inline int slate_averror_eof(void) { return AVERROR_EOF; }

/* AV_NOPTS_VALUE: a timestamp that is not set. */
static inline int64_t slate_av_nopts_value(void) { return AV_NOPTS_VALUE; }

/* AV_TIME_BASE_Q: microseconds, libav's internal time base. */
static inline AVRational slate_av_time_base_q(void) { return AV_TIME_BASE_Q; }
