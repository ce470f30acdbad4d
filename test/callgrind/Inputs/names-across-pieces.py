"""Writes a callgrind profile whose names are defined early and named by id
after: read in pieces, the tails' digests of the pieces before their own
name them by placeholders. Objects and files stay in force across the
splits; `fi=`/`fe=` switch files inside functions. With an argument, a flaw
near the end: `callee-before-header` names a callee, then a header line,
then the call; `undefined` names an id never defined; `redefined` defines
an id again with another name."""

import sys

flaw = sys.argv[1] if len(sys.argv) > 1 else ""
print("events: Ir\nob=(1) /lib/a.so\nfl=(1) a.c")
for i in range(400):
    k = i % 100 + 1
    if i == 150:
        print("ob=(2) /lib/b.so\nfl=(2) b.c")
    if i == 250:
        print("fl=(1)")
    if i == 330 and flaw == "undefined":
        print("fn=(777)\n1 1")
    if i == 330 and flaw == "redefined":
        print("fn=(5) not-f5\n1 1")
    print("fn=(%d)%s" % (k, " f%d" % k if i < 100 else ""))
    print("%d 1" % (5 + i))
    if i % 7 == 0:
        print("fi=(3)%s" % (" inl.h" if i == 0 else ""))
        print("9 2")
        print("fe=(1)")
    print("cob=(1)\ncfi=(1)\ncfn=(%d)" % (i % 50 + 1))
    if i == 330 and flaw == "callee-before-header":
        print("desc: a header line between a callee and its call")
    print("calls=1 5\n+1 3")
