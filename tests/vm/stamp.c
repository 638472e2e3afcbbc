/* Appends "LABEL NANOSECONDS" (CLOCK_MONOTONIC) to FILE the moment it starts:
   the process-start end of the press-to-exec latency benchmark. */
#include <stdio.h>
#include <time.h>

int main(int argc, char **argv) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (argc < 3) return 2;
    FILE *file = fopen(argv[2], "a");
    if (!file) return 1;
    fprintf(file, "%s %lld\n", argv[1], (long long)now.tv_sec * 1000000000LL + now.tv_nsec);
    return fclose(file) == 0 ? 0 : 1;
}
