/* The system calls of the io hooks' C path, old and new, alone: read(2)/write(2) of a non-blocking
 * pipe (what it called until it read pipes and sockets whatever their mode) against
 * preadv2/pwritev2 with RWF_NOWAIT on a pipe left in blocking mode (what it calls now). Per pair:
 * a 1-byte write and the read that takes it, and a read that finds the pipe empty (EAGAIN).
 * Interleaved trials; prints CPU ns per call, median [min-max]. Linux only:
 *   cc -O2 -o /tmp/nowait_call bench/scripts/scheduler/nowait_call.c && /tmp/nowait_call [n] [trials]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

static double cpu(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* One trial of n rounds: write a byte, read it, read again (EAGAIN); 3 calls a round. */
static double trial(int nowait, long n) {
  int p[2];
  if (pipe(p) != 0) abort();
  if (!nowait) {
    fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_NONBLOCK);
    fcntl(p[1], F_SETFL, fcntl(p[1], F_GETFL) | O_NONBLOCK);
  }
  char c = 'x';
  struct iovec v = { &c, 1 };
  double start = cpu();
  for (long i = 0; i < n; i++) {
    if (nowait) {
      if (pwritev2(p[1], &v, 1, -1, RWF_NOWAIT) != 1 || preadv2(p[0], &v, 1, -1, RWF_NOWAIT) != 1 ||
          preadv2(p[0], &v, 1, -1, RWF_NOWAIT) != -1) abort();
    } else {
      if (write(p[1], &c, 1) != 1 || read(p[0], &c, 1) != 1 || read(p[0], &c, 1) != -1) abort();
    }
  }
  double ns = (cpu() - start) / (n * 3.0);
  close(p[0]);
  close(p[1]);
  return ns;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 200000;
  int trials = argc > 2 ? atoi(argv[2]) : 21;
  double *r[2] = { calloc(trials, sizeof(double)), calloc(trials, sizeof(double)) };
  const char *names[2] = { "read/write, O_NONBLOCK pipe", "preadv2/pwritev2 RWF_NOWAIT, blocking pipe" };
  trial(0, n / 10); trial(1, n / 10); /* warm-up */
  for (int t = 0; t < trials; t++) {
    int first = t % 2;
    r[first][t] = trial(first, n);
    r[!first][t] = trial(!first, n);
  }
  printf("n=%ld, trials=%d; CPU ns per call (a write, the read that takes it, a read that finds nothing)\n", n, trials);
  for (int k = 0; k < 2; k++) {
    qsort(r[k], trials, sizeof(double), cmp);
    printf("%-44s %7.1f [%7.1f-%7.1f]\n", names[k], r[k][trials / 2], r[k][0], r[k][trials - 1]);
  }
  return 0;
}
