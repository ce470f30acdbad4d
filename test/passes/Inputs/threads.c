/* Threads that each do fixed work, for --separate-threads tests. */
#include <pthread.h>

static volatile long Sink[4];

__attribute__((noinline)) static long spin(long N) {
  long S = 0;
  for (long I = 0; I < N; ++I)
    S += I ^ (S >> 3);
  return S;
}

static void *worker(void *Arg) {
  long K = (long)Arg;
  Sink[K] = spin(10000 * (K + 1));
  return 0;
}

int main(void) {
  pthread_t T[3];
  for (long K = 0; K < 3; ++K)
    pthread_create(&T[K], 0, worker, (void *)K);
  for (long K = 0; K < 3; ++K)
    pthread_join(T[K], 0);
  Sink[3] = spin(5000);
  return 0;
}
