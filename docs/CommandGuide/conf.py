# Sphinx configuration of the profkit man pages (docs/CMakeLists.txt runs
# `sphinx-build -b man` on this directory; the version comes from CMake as
# -D version=... -D release=...).
project = "profkit"
copyright = "the profkit authors"
author = "the profkit authors"
version = release = "unknown"

root_doc = "index"
exclude_patterns = []
highlight_language = "none"

# One page per tool: its name and summary come from the page's title line,
# "NAME - SUMMARY", so they are written once.
import os

def _man_page(name):
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        name + ".rst")
    with open(path, encoding="utf-8") as f:
        title = f.readline().strip()
    prefix = name + " - "
    if not title.startswith(prefix):
        raise ValueError("%s.rst: the title must read '%s<summary>'"
                         % (name, prefix))
    return (name, name, title[len(prefix):], [author], 1)

man_pages = [_man_page("profkit-opt"), _man_page("profkit-diff")]
# profkit-opt.1 straight under the output directory, not in man1/.
man_make_section_directory = False
man_show_urls = False
