"""Writes a C program of N functions (N is argv[1]), each looping as many
times as the program's first argument says, for profiles of many functions
(merge-slices.test). An optional argv[2] gives each loop that many more
statements: more cost lines a function, the same names."""
import sys

N = int(sys.argv[1])
MORE = int(sys.argv[2]) if len(sys.argv) > 2 else 0
for I in range(N):
    body = "".join(f" s ^= k + {J};" for J in range(MORE))
    print(f"__attribute__((noinline)) int f{I}(int x) {{ int s = 0; "
          f"for (int k = 0; k < x + {I % 5}; ++k) {{ s += k * {I + 1};{body} }} "
          f"return s; }}")
print("#include <stdlib.h>")
print("int main(int argc, char **argv) {")
print("  int x = argc > 1 ? atoi(argv[1]) : 1, s = 0;")
for I in range(N):
    print(f"  s += f{I}(x);")
print("  return s & 1;")
print("}")
