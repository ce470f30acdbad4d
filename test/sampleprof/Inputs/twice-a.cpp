// An inline function of a header, out of line in two units: the linker
// keeps one copy, and both units' DWARF describe it at the same address.
#include "twice.h"
int fromA(int N) { return twice(N) + 1; }
