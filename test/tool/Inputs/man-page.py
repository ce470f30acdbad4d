#!/usr/bin/env python3
"""Checks a man page's reStructuredText (docs/CommandGuide/) against its tool.

man-page.py options PAGE.rst HELP
    every option -help lists has an `.. option::` in PAGE, and PAGE has no
    option -help does not list
man-page.py passes PAGE.rst PRINT_PASSES
    every pass, with its parameters as -print-passes writes them, and every
    analysis is in PAGE's PASSES section
man-page.py formats PAGE.rst PRINT_FORMATS
    every format that is read is in INPUT FORMATS; every one that is written,
    with its parameters as -print-formats writes them, in OUTPUT FORMATS
man-page.py examples PAGE.rst BINDIR EXAMPLES WORKDIR
    runs the EXAMPLES section's commands (the `$ ` lines) in order, in
    WORKDIR with `examples` there leading to EXAMPLES and the tools of
    BINDIR first on PATH; each must exit 0 and print no error

Prints what is missing and exits 1, or prints `ok: N checked`.
"""
import os
import re
import subprocess
import sys


def sections(path):
    """Top-level section title -> its text."""
    lines = open(path, encoding="utf-8").read().splitlines()
    out, name = {}, None
    for i, line in enumerate(lines):
        if i + 1 < len(lines) and re.fullmatch(r"-{3,}", lines[i + 1]) \
                and line.strip():
            name = line.strip()
            out[name] = []
        elif name:
            out[name].append(line)
    return {k: "\n".join(v) for k, v in out.items()}


def report(missing, checked):
    for m in missing:
        print("missing: " + m)
    if missing:
        sys.exit(1)
    print("ok: %d checked" % checked)


def options(page, help_file):
    listed = set()
    for line in open(help_file, encoding="utf-8"):
        m = re.match(r"\s+--?([A-Za-z][\w-]*)[ =<]", line)
        if m:
            listed.add(m.group(1))
    text = open(page, encoding="utf-8").read()
    documented = set(re.findall(r"^\.\. option:: -([A-Za-z][\w-]*)", text,
                                re.M))
    missing = ["-%s (in -help, not in the page)" % o
               for o in sorted(listed - documented)]
    missing += ["-%s (in the page, not in -help)" % o
                for o in sorted(documented - listed)]
    report(missing, len(listed))


def signature(entry):
    """`name<params>` as the page writes it: ``name``\\ ``<params>``."""
    m = re.fullmatch(r"([\w-]+)(<.*>)?", entry)
    return "``%s``" % m.group(1) + ("\\ ``%s``" % m.group(2)
                                    if m.group(2) else "")


def entries(listing, heading):
    """The `  name<params>` lines under the heading that starts so."""
    out, inside = [], False
    for line in open(listing, encoding="utf-8"):
        if not line.startswith(" "):
            inside = line.startswith(heading)
            continue
        if inside and re.match(r"  \S", line):
            out.append(line.strip())
    return out


def defined(text, sig):
    """Is sig a definition term (a line of its own) in text?"""
    return re.search(r"^" + re.escape(sig) + r"$", text, re.M) is not None


def passes(page, listing):
    text = sections(page).get("PASSES", "")
    missing, checked = [], 0
    for heading in ("Profile passes", "Profile analyses"):
        for entry in entries(listing, heading):
            checked += 1
            if not defined(text, signature(entry)):
                missing.append("%s %s" % (heading.split()[1][:-2], entry))
    report(missing, checked)


def formats(page, listing):
    secs = sections(page)
    missing, checked = [], 0
    lines = open(listing, encoding="utf-8").read().splitlines()
    for i, line in enumerate(lines):
        if not re.match(r"  \S", line):
            continue
        entry = line.strip()
        desc = lines[i + 1] if i + 1 < len(lines) else ""
        name = re.match(r"[\w-]+", entry).group(0)
        checked += 1
        if "(write only)" not in desc and \
                not defined(secs.get("INPUT FORMATS", ""), "``%s``" % name):
            missing.append("input format " + name)
        if "(read only)" not in desc and \
                not defined(secs.get("OUTPUT FORMATS", ""), signature(entry)):
            missing.append("output format " + entry)
    report(missing, checked)


def examples(page, bindir, examples_dir, workdir):
    text = sections(page).get("EXAMPLES", "")
    commands = [m.group(1) for m in
                (re.match(r"\s+\$ (.*)", l) for l in text.splitlines()) if m]
    link = os.path.join(workdir, "examples")
    if not os.path.lexists(link):
        os.symlink(os.path.abspath(examples_dir), link)
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"])
    missing = []
    for command in commands:
        run = subprocess.run(["/bin/sh", "-c", command], cwd=workdir, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True)
        if run.returncode != 0 or "error:" in run.stderr:
            missing.append("a working example: `%s` exited %d: %s"
                           % (command, run.returncode, run.stderr.strip()))
    if not commands:
        missing.append("examples (no `$ ` lines in EXAMPLES)")
    report(missing, len(commands))


def main(argv):
    what = argv[1]
    if what == "options":
        options(argv[2], argv[3])
    elif what == "passes":
        passes(argv[2], argv[3])
    elif what == "formats":
        formats(argv[2], argv[3])
    elif what == "examples":
        examples(argv[2], argv[3], argv[4], argv[5])
    else:
        sys.exit("unknown check " + what)


if __name__ == "__main__":
    main(sys.argv)
