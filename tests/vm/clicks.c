/* Plays a click train into an ALSA playback device and logs when each click
   is played, for the sound-sync scenario and benchmark:

       clicks DEVICE RATE SECONDS INTERVAL_MS LOG

   Plays 16-bit mono silence at RATE with a 10 ms 1 kHz burst (-6 dBFS) every
   INTERVAL_MS, for SECONDS. For each burst it appends "MONOTONIC_NS REALTIME_NS"
   to LOG: when the burst's first frame is played, from the device's own
   timestamp of its last position update (snd_pcm_htimestamp, CLOCK_MONOTONIC)
   plus the frames queued before the burst, and the same instant on
   CLOCK_REALTIME. On snd-aloop, a frame is captured on the other side of the
   cable when it is played. */
#include <alsa/asoundlib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long ns(clockid_t clock) {
    struct timespec now;
    clock_gettime(clock, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

static int fail(const char *what, int error) {
    fprintf(stderr, "clicks: %s: %s\n", what, snd_strerror(error));
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: clicks DEVICE RATE SECONDS INTERVAL_MS LOG\n");
        return 2;
    }
    const unsigned rate = (unsigned)atoi(argv[2]);
    const long total = (long)(atof(argv[3]) * rate);
    const long interval = (long)atoi(argv[4]) * rate / 1000;
    FILE *log = fopen(argv[5], "w");
    if (!log || rate == 0 || interval <= 0) return 2;

    snd_pcm_t *pcm;
    int error = snd_pcm_open(&pcm, argv[1], SND_PCM_STREAM_PLAYBACK, 0);
    if (error < 0) return fail("open", error);
    snd_pcm_hw_params_t *hw;
    snd_pcm_hw_params_alloca(&hw);
    snd_pcm_hw_params_any(pcm, hw);
    snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED);
    snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16_LE);
    snd_pcm_hw_params_set_channels(pcm, hw, 1);
    unsigned actual = rate;
    snd_pcm_hw_params_set_rate_near(pcm, hw, &actual, 0);
    snd_pcm_uframes_t period = rate / 100, buffer = 4 * (rate / 100);
    snd_pcm_hw_params_set_period_size_near(pcm, hw, &period, 0);
    snd_pcm_hw_params_set_buffer_size_near(pcm, hw, &buffer);
    if ((error = snd_pcm_hw_params(pcm, hw)) < 0) return fail("set the format", error);
    if (actual != rate) {
        fprintf(stderr, "clicks: %s plays at %u Hz, not %u\n", argv[1], actual, rate);
        return 1;
    }
    snd_pcm_sw_params_t *sw;
    snd_pcm_sw_params_alloca(&sw);
    snd_pcm_sw_params_current(pcm, sw);
    snd_pcm_sw_params_set_tstamp_mode(pcm, sw, SND_PCM_TSTAMP_ENABLE);
    snd_pcm_sw_params_set_tstamp_type(pcm, sw, SND_PCM_TSTAMP_TYPE_MONOTONIC);
    snd_pcm_sw_params_set_start_threshold(pcm, sw, period);
    if ((error = snd_pcm_sw_params(pcm, sw)) < 0) return fail("set the timestamps", error);

    const long long offset = ns(CLOCK_REALTIME) - ns(CLOCK_MONOTONIC);
    short *chunk = calloc(period, sizeof(short));
    const long burst = rate / 100;
    for (long written = 0; written < total; written += (long)period) {
        long first = -1;
        for (long frame = 0; frame < (long)period; frame++) {
            long at = (written + frame) % interval;
            long index = (written + frame) / interval;
            /* No burst in the first interval: the stream is not running yet. */
            if (index > 0 && at < burst) {
                if (at == 0) first = frame;
                chunk[frame] = (short)(16384 * sin(2 * M_PI * 1000 * at / rate));
            } else {
                chunk[frame] = 0;
            }
        }
        if (first >= 0) {
            snd_pcm_uframes_t avail;
            snd_htimestamp_t stamp;
            if ((error = snd_pcm_htimestamp(pcm, &avail, &stamp)) < 0) return fail("read the timestamp", error);
            long long queued = (long long)buffer - (long long)avail;
            long long played = (long long)stamp.tv_sec * 1000000000LL + stamp.tv_nsec
                + (queued + first) * 1000000000LL / rate;
            fprintf(log, "%lld %lld\n", played, played + offset);
        }
        snd_pcm_sframes_t done = snd_pcm_writei(pcm, chunk, period);
        if (done < 0 && (error = snd_pcm_recover(pcm, (int)done, 0)) < 0) return fail("write", error);
    }
    snd_pcm_drain(pcm);
    snd_pcm_close(pcm);
    return fclose(log) == 0 ? 0 : 1;
}
