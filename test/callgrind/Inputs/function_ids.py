#!/usr/bin/env python3
"""Checks that every compressed function id of a callgrind file names one
function (object, file, name), as KCachegrind needs: it binds an id to the
function it first names and takes every later `fn=(N)`, `cfn=(N)` or
`jfn=(N)` for that function, whatever the ob=/cob=/cfi= lines around it say.
callgrind_annotate re-reads the names and would not show the difference.

Each use of an id is resolved the way the format defines it (the callee's
object is cob= or the current object, its file cfi=/cfl= or the current
source file; a jump target's file is jfi= or the current source file), and
must give the function the id was bound to. Ids are per part (a `totals:`
line ends one). Also reports an id defined twice with different names.

usage: function_ids.py FILE...   (exit 1 and one line per problem if any)
"""
import gzip
import re
import sys

POSITION_KEYS = {
    "ob": "obj", "cob": "obj",
    "fl": "file", "fi": "file", "fe": "file", "cfi": "file", "cfl": "file",
    "jfi": "file",
    "fn": "fn", "cfn": "fn", "jfn": "fn",
}
ID = re.compile(r"^\((\d+)\)(?: (.*))?$")


def check(path):
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    problems = []
    with opener(path, "rt", encoding="utf-8", errors="surrogateescape") as f:
        lines = f.read().splitlines()
    names = {"obj": {}, "file": {}, "fn": {}}
    bound = {}  # function id -> ((object, file, name), line number)
    obj = fl = src = ""
    called_obj = called_file = jump_file = None

    def resolve(table, value, lineno):
        m = ID.match(value)
        if not m:
            return value, None
        ident, name = int(m.group(1)), m.group(2)
        known = names[table].get(ident)
        if name is not None:
            if known is not None and known != name:
                problems.append("%s:%d: id (%d) redefined as '%s', was '%s'"
                                % (path, lineno, ident, name, known))
            names[table][ident] = name
            return name, ident
        if known is None:
            problems.append("%s:%d: id (%d) used before it is defined"
                            % (path, lineno, ident))
            return "", ident
        return known, ident

    def use_function(ident, function, lineno):
        if ident is None:
            return
        first = bound.setdefault(ident, (function, lineno))
        if first[0] != function:
            problems.append(
                "%s:%d: function id (%d) stands for %s here, but for %s "
                "(line %d)" % (path, lineno, ident, function, first[0],
                               first[1]))

    for lineno, line in enumerate(lines, 1):
        if line.startswith("totals:"):
            names = {"obj": {}, "file": {}, "fn": {}}
            bound = {}
            continue
        key, eq, value = line.partition("=")
        if not eq or key not in POSITION_KEYS:
            if key in ("calls",):
                called_obj = called_file = None
            elif key in ("jump", "jcnd"):
                jump_file = None
            continue
        name, ident = resolve(POSITION_KEYS[key], value, lineno)
        if key == "ob":
            obj = name
        elif key == "fl":
            fl = src = name
        elif key in ("fi", "fe"):
            src = name
        elif key == "fn":
            src = fl
            use_function(ident, (obj, fl, name), lineno)
        elif key == "cob":
            called_obj = name
        elif key in ("cfi", "cfl"):
            called_file = name
        elif key == "cfn":
            callee = (obj if called_obj is None else called_obj,
                      src if called_file is None else called_file, name)
            use_function(ident, callee, lineno)
        elif key == "jfi":
            jump_file = name
        elif key == "jfn":
            use_function(ident, (obj, src if jump_file is None else jump_file,
                                 name), lineno)
    return problems


def main():
    problems = [p for path in sys.argv[1:] for p in check(path)]
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)


main()
