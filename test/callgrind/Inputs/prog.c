// The program the live callgrind/cachegrind tests profile (test/callgrind/
// live-*.test). Built at -O2 with rec.c at -O0 and shlib.c as a shared
// library. Each construct gives the profile a shape the reader must handle:
//   fib            direct recursion (callgrind names deeper levels fib'2)
//   is_even/is_odd mutual recursion
//   op_add/op_mul  calls through a table of function pointers
//   checksum       always-inline helper from inl.h: fi=/fe= blocks
//   shlib_square   our own shared library: a second object (ob=/cob=)
//   worker         run by two threads at once
#include "inl.h"
#include <pthread.h>
#include <stdio.h>

int fib(int N);
int is_even(int N);
int op_add(int A, int B);
int op_mul(int A, int B);
int shlib_square(int X);

static int (*volatile Ops[2])(int, int) = {op_add, op_mul};
static unsigned char Buf[64];
// Keeps both workers alive at once: valgrind reuses the id of a thread that
// has ended, and --separate-threads=yes would then see one worker thread.
static pthread_barrier_t Barrier;

// Calls op_add 3 times and op_mul twice.
__attribute__((noinline)) void *worker(void *Arg) {
  long Id = (long)Arg;
  pthread_barrier_wait(&Barrier);
  int Sum = 0;
  for (int I = 0; I < 5; ++I)
    Sum += Ops[I & 1](I, (int)Id);
  Sum += checksum(Buf, sizeof(Buf));
  return (void *)(long)(Sum + shlib_square((int)Id));
}

int main(void) {
  for (unsigned I = 0; I < sizeof(Buf); ++I)
    Buf[I] = (unsigned char)I;
  int R = fib(10) + is_even(7) + checksum(Buf, sizeof(Buf));
  // op_add twice and op_mul twice.
  for (int I = 0; I < 4; ++I)
    R += Ops[I & 1](R, I);
  pthread_t T[2];
  pthread_barrier_init(&Barrier, 0, 2);
  for (long I = 0; I < 2; ++I)
    pthread_create(&T[I], 0, worker, (void *)(I + 1));
  for (int I = 0; I < 2; ++I) {
    void *V;
    pthread_join(T[I], &V);
    R += (int)(long)V;
  }
  printf("%d\n", R + shlib_square(3));
  return 0;
}
