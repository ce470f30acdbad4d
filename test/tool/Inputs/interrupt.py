#!/usr/bin/env python3
"""Kills profkit-opt while it writes its output.

Usage: interrupt.py SIGNAL OUTPUT PROFKIT-OPT ARGS...

Starts the command, waits until its temporary output file (OUTPUT-*.tmp)
appears and has some bytes, sends SIGNAL (TERM or KILL), and waits for the
process. Prints "killed by SIG<SIGNAL>" if the signal ended it. A run that
finished before the signal came (a busy machine can let the whole write pass
between two looks) does not count: OUTPUT is put back as it was and the run
is tried again, up to 50 times; only then is what ended it printed, so that
the test fails instead of passing.
"""
import glob
import os
import signal
import subprocess
import sys
import time

sig = getattr(signal, "SIG" + sys.argv[1])
out = sys.argv[2]
old = open(out, "rb").read() if os.path.exists(out) else None


def attempt():
    proc = subprocess.Popen(sys.argv[3:], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while proc.poll() is None and time.time() < deadline:
        tmps = glob.glob(glob.escape(out) + "-*.tmp")
        try:
            if tmps and any(open(t, "rb").read(1) for t in tmps):
                break
        except OSError:
            pass
        time.sleep(0.0005)
    proc.send_signal(sig)
    return proc.wait()


for _ in range(50):
    rc = attempt()
    if rc == -sig:
        print("killed by SIG" + sys.argv[1])
        sys.exit(0)
    if rc != 0:
        break
    # Finished first: undo the run and try again.
    if old is None:
        os.remove(out)
    else:
        with open(out, "wb") as f:
            f.write(old)
print("not killed: exit status %d" % rc)
