// No include guard, as clang's own stddef.h: entered once per #include.
typedef int unguarded_int;
