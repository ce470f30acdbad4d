#!/usr/bin/env python3
"""Kills profkit-opt while it writes its output.

Usage: interrupt.py SIGNAL OUTPUT PROFKIT-OPT ARGS...

Starts the command, waits until its temporary output file (OUTPUT-*.tmp)
appears and has some bytes, sends SIGNAL (TERM or KILL), and waits for the
process. Prints "killed by SIG<SIGNAL>" if the signal ended it, else what did
(so a run that finished first fails the test instead of passing it).
"""
import glob
import signal
import subprocess
import sys
import time

sig = getattr(signal, "SIG" + sys.argv[1])
out = sys.argv[2]
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
rc = proc.wait()
if rc == -sig:
    print("killed by SIG" + sys.argv[1])
else:
    print("not killed: exit status %d" % rc)
