# -*- Python -*-
import os
import shutil
import subprocess
import sys

import lit.formats
from lit.llvm import llvm_config

config.name = "profkit"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.profkit_obj_root, "test")

llvm_config.with_system_environment(["HOME", "TMP", "TEMP"])
# FileCheck, not, count, split-file from Debian's llvm-19 bin directory.
llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(
    ["profkit-opt", "profkit-diff"], [config.profkit_tools_dir, config.llvm_tools_dir])

config.substitutions.append(("%cc", config.host_cc))
config.substitutions.append(("%profkit_src_root", config.profkit_src_root))
config.substitutions.append(
    ("%example_plugin",
     os.path.join(config.profkit_lib_dir, "ProfkitExamplePlugin.so")))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%profkit_bin_dir", config.profkit_tools_dir))
config.substitutions.append(("%profkit_obj_root", config.profkit_obj_root))
# The install test: CMake itself, and the compiler and link flags of this
# build for the program it builds against the installed package.
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%profkit_cxx", config.profkit_cxx))
config.substitutions.append(
    ("%profkit_test_link_flags", config.profkit_test_link_flags))
if config.profkit_have_man:
    config.available_features.add("man-pages")
config.substitutions.append(
    ("%S_examples", os.path.join(config.profkit_src_root, "examples")))
# A bound on a command's CPU time, which other work on the machine does not
# change as it does wall time: tests that a read takes linear time run it
# under %cpu-limit-10s. Sanitizers slow a program by a varying factor, so
# their build runs the command without a bound.
config.substitutions.append(
    ("%cpu-limit-10s",
     "" if config.profkit_sanitize else "prlimit --cpu=10 --"))
# ASan keeps freed memory in quarantine and adds shadow memory, so peak
# RSS under it says nothing of the reader's.
if config.profkit_sanitize:
    config.available_features.add("sanitizers")

# Real tools the tests run when the machine has them.
for tool in ["valgrind", "callgrind_annotate", "gprof", "php", "gzip",
             "cg_merge", "script", "clang-19", "clang++-19", "ninja",
             "llvm-profgen-19", "llvm-profdata-19", "dot", "man"]:
    if shutil.which(tool):
        config.available_features.add(tool)

# KCachegrind, read headlessly through its accessibility tree
# (test/viewers/Inputs/kc-dump.sh), where the optional viewer packages are.
if all(shutil.which(t) for t in ["kcachegrind", "Xvfb", "dbus-run-session"]):
    try:
        if subprocess.run(["/usr/bin/python3", "-c", "import pyatspi"],
                          capture_output=True, timeout=60).returncode == 0:
            config.available_features.add("kcachegrind")
    except (OSError, subprocess.SubprocessError):
        pass

# Real Xdebug profiles need PHP with the Xdebug extension loaded.
if "php" in config.available_features:
    try:
        modules = subprocess.run(["php", "-m"], capture_output=True, text=True,
                                 timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        modules = ""
    if "Xdebug" in modules.splitlines():
        config.available_features.add("xdebug")
