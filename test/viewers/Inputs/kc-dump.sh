#!/bin/bash
# kc-dump.sh - print what KCachegrind's "Flat Profile" (function list) shows
# for a callgrind file, headlessly (Xvfb + private D-Bus + AT-SPI).
#
# usage: kc-dump.sh [--pct|--abs|--both] [--nosort] [--screenshot FILE.png]
#                   [--timeout SEC] [--max-list N] [--calls FUNC]... FILE
#   default: --both, rows sorted (by name/location) for determinism.
# stdout:
#   KC-STATUS: <status bar text, e.g. "f.cg [1] - Total Instruction Fetch Cost: 310">
#   KC-TOTAL: <total cost of the primary event, digits only>
#   KC-FUNC: name="main" loc="prog: prog.c" called=(0) incl=310 self=10 incl%=100.00 self%=3.23
#   KC-COUNT: <number of rows>
#   KC-CALLER: fn="main" caller="(below main) (prog: prog.c)" count=1 cost=310
#   KC-CALLEE: fn="main" callee="helper (prog: prog.c)" count=2 cost=300
#     (--calls FUNC: select FUNC by name via D-Bus, read its Callers/Callees
#      tabs; cost in the current unit: absolute unless --pct)
#   KC-STDERR: <each line kcachegrind wrote to stderr, minus known noise>
# exit: 0 ok, 2 could not read the GUI, 3 usage / missing tools.
# Needs (Debian 12): kcachegrind xvfb dbus at-spi2-core python3-pyatspi
#   (--screenshot: imagemagick, and xdotool to enlarge the window)
set -u
mode=both sort=sort shot= timeout=30 maxlist= select=()
while [ $# -gt 1 ]; do
  case "$1" in
    --pct) mode=pct ;; --abs) mode=abs ;; --both) mode=both ;;
    --nosort) sort=nosort ;;
    --screenshot) shot=$(realpath -m "$2"); shift ;;
    --timeout) timeout=$2; shift ;;
    --max-list) maxlist=$2; shift ;;
    --calls) select+=("$2"); shift ;;
    *) echo "kc-dump: unknown option $1" >&2; exit 3 ;;
  esac
  shift
done
[ $# -eq 1 ] || { sed -n '2,22p' "$0" >&2; exit 3; }
file=$(realpath "$1") || exit 3
[ -r "$file" ] || { echo "kc-dump: cannot read $1" >&2; exit 3; }
for t in kcachegrind Xvfb dbus-run-session dbus-send /usr/bin/python3; do
  command -v "$t" >/dev/null || { echo "kc-dump: missing $t" >&2; exit 3; }
done
/usr/bin/python3 -c 'import pyatspi' 2>/dev/null ||
  { echo "kc-dump: missing python3-pyatspi" >&2; exit 3; }
[ -z "$shot" ] || command -v import >/dev/null ||
  { echo "kc-dump: --screenshot needs imagemagick (import)" >&2; exit 3; }

tmp=$(mktemp -d /tmp/kc-dump.XXXXXX)
xvfb=
trap '[ -z "$xvfb" ] || kill $xvfb 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/home" "$tmp/config" "$tmp/run"; chmod 700 "$tmp/run"
# Fresh, fixed configuration: no tip-of-the-day dialog, default view options.
cat > "$tmp/config/kcachegrindrc" <<'CFG'
[TipOfDay]
RunOnStart=false
CFG
# KCachegrind lists at most MaxListCount (default 100) functions, plus a
# "(N function(s) skipped)" row; --max-list raises that limit.
[ -z "$maxlist" ] || printf '[GeneralSettings]\nMaxListCount=%d\n' "$maxlist" \
  >> "$tmp/config/kcachegrindrc"

# AT-SPI reader (embedded so that this script is self-contained)
cat > "$tmp/kc_atspi_dump.py" <<'PY'
#!/usr/bin/python3
# Reads KCachegrind's "Flat Profile" function list through AT-SPI and prints
# it as text.  Run by kc-dump.sh inside xvfb-run + dbus-run-session, while
# kcachegrind (started with QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1) is running.
#
# usage: kc_atspi_dump.py MODE SORT TIMEOUT
#   MODE: pct | abs | both    SORT: sort | nosort    TIMEOUT: seconds
import re
import subprocess
import sys
import time

import pyatspi
from gi.repository import GLib


def pump():
    """Let libatspi process queued D-Bus signals (app registration, cache
    updates); without this a window that registers after we connected may
    never appear in the desktop's child list."""
    ctx = GLib.MainContext.default()
    while ctx.iteration(False):
        pass

MODE, SORT, TIMEOUT = sys.argv[1], sys.argv[2] == "sort", float(sys.argv[3])
SELECT = sys.argv[4:]  # function names whose callers/callees to print
deadline = time.monotonic() + TIMEOUT


def die(msg):
    print("KC-ERROR: " + msg)
    sys.stderr.write("kc-dump: " + msg + "\n")
    sys.exit(2)


def walk(o, depth=0):
    yield o, depth
    for i in range(o.childCount):
        c = o.getChildAtIndex(i)
        if c is not None:
            yield from walk(c, depth + 1)


def find_app():
    pump()
    desk = pyatspi.Registry.getDesktop(0)
    for a in desk:
        if a is not None and (a.name or "") == "kcachegrind":
            return a
    return None


def find_parts(app):
    """Return (main frame, flat-profile table, status label text)."""
    frame = None
    for i in range(app.childCount):
        c = app.getChildAtIndex(i)
        if c is not None and c.getRoleName() == "frame":
            frame = c
            break
    if frame is None:
        return None, None, None
    flat, status = None, None
    for o, _ in walk(frame):
        r = o.getRoleName()
        if r == "frame" and o.name == "Flat Profile":
            for t, _ in walk(o):
                if t.getRoleName() == "tree":
                    try:
                        tab = t.queryTable()
                    except NotImplementedError:
                        continue
                    hdr = [tab.getColumnDescription(c)
                           for c in range(tab.nColumns)]
                    if hdr[:1] == ["Incl."]:
                        flat = t
        elif r == "status bar":
            for s, _ in walk(o):
                if s.getRoleName() == "label" and s.name:
                    status = s.name
    return frame, flat, status


def read_table(tree):
    tab = tree.queryTable()
    hdr = [tab.getColumnDescription(c) for c in range(tab.nColumns)]
    rows = []
    for r in range(tab.nRows):
        row = []
        for c in range(tab.nColumns):
            cell = tab.getAccessibleAt(r, c)
            row.append(cell.name if cell is not None else "")
        rows.append(tuple(row))
    return hdr, rows


def stable_read(get):
    """Read until two consecutive reads (0.3 s apart) agree."""
    prev = None
    while time.monotonic() < deadline:
        try:
            cur = get()
        except Exception as e:  # widget tree still being built
            cur = ("exc", repr(e))
        if cur == prev and cur[0] != "exc":
            return cur
        prev = cur
        time.sleep(0.3)
        pump()
    die("timeout waiting for a stable function list (last: %r)" % (prev,))


# 1. wait for the application and the loaded profile
app = None
while time.monotonic() < deadline:
    app = find_app()
    if app is not None:
        frame, flat, status = find_parts(app)
        if flat is not None and status and "Total" in status:
            break
    time.sleep(0.3)
else:
    die("kcachegrind window / function list / status bar not found "
        "(file not loaded?)")

busname = "org.kde.kcachegrind-%d" % app.get_process_id()


def call_views():
    """The visible 'Callers' and 'Callees' tables (headers: <event>,
    <event> per call, ..., Count, Caller|Callee)."""
    _, flat, _ = find_parts(app)
    frame = find_parts(app)[0]
    found = {}
    for t, _ in walk(frame):
        if t.getRoleName() != "tree":
            continue
        try:
            tab = t.queryTable()
        except NotImplementedError:
            continue
        hdr = [tab.getColumnDescription(c) for c in range(tab.nColumns)]
        if hdr and hdr[-1] in ("Caller", "Callee") and "Count" in hdr:
            found[hdr[-1]] = t
    return found


def dbus_main(method, *args):
    r = subprocess.run(["dbus-send", "--session", "--print-reply",
                        "--dest=" + busname, "/kcachegrind/MainWindow_1",
                        "org.kde.kcachegrind." + method] + list(args),
                       check=True, stdout=subprocess.PIPE, text=True,
                       timeout=10)
    return r.stdout


def set_percentage(on):
    subprocess.run(["dbus-send", "--session", "--print-reply",
                    "--dest=" + busname, "/kcachegrind/MainWindow_1",
                    "org.kde.kcachegrind.setPercentage",
                    "boolean:" + ("true" if on else "false")],
                   check=True, stdout=subprocess.DEVNULL, timeout=10)


def snapshot():
    _, flat, status = find_parts(app)
    hdr, rows = read_table(flat)
    return status, hdr, rows


status, hdr, rows_pct = stable_read(snapshot)
if hdr != ["Incl.", "Self", "Called", "Function", "Location"]:
    die("unexpected function list columns: %r" % (hdr,))

rows_abs = None
if MODE in ("abs", "both"):
    set_percentage(False)
    # wait until the displayed numbers change (at most 5 s: they may be
    # identical, e.g. when every cost is "-")
    t_end = min(deadline, time.monotonic() + 5)
    while True:
        s, h, r = stable_read(snapshot)
        if r != rows_pct or not rows_pct or time.monotonic() > t_end:
            break
        time.sleep(0.3)
    rows_abs = r
    if len(rows_abs) != len(rows_pct):
        die("row count changed after switching to absolute costs")

print("KC-STATUS: " + status)
m = re.search(r"Total .* Cost: ([0-9 ]+)$", status)
if m:
    print("KC-TOTAL: " + m.group(1).replace(" ", ""))
out = []
for i, row in enumerate(rows_pct):
    incl, self_, called, name, loc = row
    if not incl and not self_ and not called and name.endswith("skipped)"):
        out.append("KC-SKIPPED: " + name)
        continue
    fields = ['name="%s"' % name, 'loc="%s"' % loc, "called=%s" % called.replace(" ", "")]
    if rows_abs is not None:
        a = rows_abs[i]
        if a[3] != name or a[4] != loc:
            die("row order changed between percent and absolute views")
        fields += ["incl=%s" % a[0].replace(" ", ""),
                   "self=%s" % a[1].replace(" ", "")]
    if MODE in ("pct", "both"):
        fields += ["incl%%=%s" % incl, "self%%=%s" % self_]
    out.append("KC-FUNC: " + " ".join(fields))
if SORT:
    out.sort()
for line in out:
    print(line)
print("KC-COUNT: %d" % len(rows_pct))

for fname in SELECT:
    # TopLevel::setFunction(QString) selects the function with this name
    # (TraceData::search: if several functions share the name, one of them).
    # It returns false if that function was already selected.
    changed = "boolean true" in dbus_main("setFunction", "string:" + fname)

    def current_function():
        # the label above the tabbed views shows the selected function
        frame = find_parts(app)[0]
        for i in range(frame.childCount):
            c = frame.getChildAtIndex(i)
            if c is not None and c.getRoleName() == "split pane":
                for o, _ in walk(c):
                    if o.getRoleName() == "label":
                        return o.name
        return None

    while time.monotonic() < deadline and current_function() != fname:
        if not changed:
            break
        time.sleep(0.2)
        pump()
    if current_function() != fname:
        print('KC-NOTFOUND: fn="%s" (selected: "%s")'
              % (fname, current_function()))
        continue

    def get_calls():
        _, _, st = find_parts(app)
        res = []
        for kind, t in sorted(call_views().items()):
            hdr, rows = read_table(t)
            ci = hdr.index("Count")
            for r in rows:
                res.append((kind, r[0].replace(" ", ""),
                            r[ci].replace(" ", ""), r[-1]))
        return ("ok", tuple(res))

    # the views update asynchronously; a stable reading is what is shown
    time.sleep(0.3)
    _, calls = stable_read(get_calls)
    out = ['KC-%s: fn="%s" %s="%s" count=%s cost=%s'
           % (k.upper(), fname, k.lower(), other, cnt, cost)
           for k, cost, cnt, other in calls]
    if SORT:
        out.sort()
    if not out:
        out = ['KC-NOCALLS: fn="%s"' % fname]
    for line in out:
        print(line)
PY

cat > "$tmp/inner.sh" <<'INNER'
#!/bin/bash
# runs inside xvfb-run + dbus-run-session
file=$1 mode=$2 sort=$3 timeout=$4 shot=$5 tmp=$6; shift 6
QT_ACCESSIBILITY=1 QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 \
  kcachegrind "$file" >"$tmp/kc.stdout" 2>"$tmp/kc.stderr" &
kc=$!
# wait (max 20 s) until kcachegrind owns its D-Bus name, i.e. its
# QApplication (and Qt's AT-SPI bridge) is up, before connecting to AT-SPI
for i in $(seq 200); do
  dbus-send --session --print-reply --dest=org.freedesktop.DBus / \
    org.freedesktop.DBus.NameHasOwner string:org.kde.kcachegrind-$kc 2>/dev/null |
    grep -q 'boolean true' && break
  kill -0 $kc 2>/dev/null || break
  sleep 0.1
done
/usr/bin/python3 "$tmp/kc_atspi_dump.py" "$mode" "$sort" "$timeout" "$@" >"$tmp/out.txt"
rc=$?
if [ -n "$shot" ]; then
  command -v xdotool >/dev/null &&
    xdotool search --pid $kc --onlyvisible --class kcachegrind 2>/dev/null |
    while read -r w; do xdotool windowmove "$w" 0 0 windowsize "$w" 1600 1000; done
  sleep 1; import -window root "$shot"
fi
kill $kc 2>/dev/null; wait $kc 2>/dev/null
exit $rc
INNER

export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/config" XDG_RUNTIME_DIR="$tmp/run" \
       XDG_DATA_HOME="$tmp/home/.local/share" XDG_CACHE_HOME="$tmp/home/.cache" \
       LANG=C.UTF-8 LC_ALL=C.UTF-8 LANGUAGE= QT_HASH_SEED=0 \
       QT_QPA_PLATFORM=xcb
unset DISPLAY WAYLAND_DISPLAY DBUS_SESSION_BUS_ADDRESS AT_SPI_BUS_ADDRESS
# Own Xvfb with -displayfd (picks a free display atomically; xvfb-run -a can
# race when several tests start at once).
Xvfb -displayfd 3 -screen 0 1600x1000x24 -nolisten tcp \
  3>"$tmp/displayfd" >"$tmp/xvfb.log" 2>&1 &
xvfb=$!
for i in $(seq 100); do
  [ -s "$tmp/displayfd" ] && break
  kill -0 $xvfb 2>/dev/null || break
  sleep 0.1
done
[ -s "$tmp/displayfd" ] || { echo "kc-dump: Xvfb did not start" >&2; cat "$tmp/xvfb.log" >&2; exit 2; }
export DISPLAY=:$(head -1 "$tmp/displayfd")
dbus-run-session -- bash "$tmp/inner.sh" "$file" "$mode" "$sort" "$timeout" \
  "$shot" "$tmp" ${select[@]+"${select[@]}"} >"$tmp/session.stdout" 2>"$tmp/session.stderr"
rc=$?
kill $xvfb 2>/dev/null; wait $xvfb 2>/dev/null
cat "$tmp/out.txt" 2>/dev/null
# kcachegrind's own stderr: load warnings/errors ("Loading ... : <line> : ...")
grep -v -e 'This plugin does not support' -e '^Selected ' \
  -e 'Failed to set fd limit' "$tmp/kc.stderr" | sed 's/^/KC-STDERR: /'
[ $rc -eq 0 ] || { echo "kc-dump: failed (rc=$rc); session stderr:" >&2; cat "$tmp/session.stderr" >&2; }
exit $rc
