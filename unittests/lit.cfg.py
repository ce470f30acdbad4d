# -*- Python -*-
# Runs every googletest binary named *Tests under this build directory.
import os
import lit.formats

config.name = "profkit-unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.profkit_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
