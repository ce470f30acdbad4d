// The shared library of the live tests: a second object in the profile.
__attribute__((noinline)) int shlib_square(int X) { return X * X; }
