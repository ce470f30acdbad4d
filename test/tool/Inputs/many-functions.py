#!/usr/bin/env python3
"""Writes a callgrind file with N functions, each with a self cost and a call.

Usage: many-functions.py N OUT
"""
import sys

n = int(sys.argv[1])
with open(sys.argv[2], "w") as f:
    f.write("events: Ir\nfl=file.c\n")
    for i in range(n):
        f.write("fn=function_with_a_long_name_%d\n%d 1\n" % (i, i + 1))
        f.write("cfn=function_with_a_long_name_%d\ncalls=1 1\n%d 1\n"
                % ((i + 1) % n, i + 1))
