"""Walks the text of a profile IR (profkit-opt -print-ir): the function
each row line belongs to, for the gmon check scripts."""
import re


def function_rows(path):
    """Yields (function name, line) for every line inside a function."""
    func = None
    for line in open(path):
        m = re.match(r'  function "([^"]*)"', line)
        if m:
            func = m.group(1)
        elif func is not None:
            yield func, line
