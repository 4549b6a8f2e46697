"""A pytest plugin that records, for each test, the source lines it executed (for Ochiai).

Loaded with `-p fixloop_line_tracer` (this folder on PYTHONPATH). Writes JSON to the path in
FIXLOOP_COVERAGE_OUT: {"tests": {nodeid: {"outcome": "passed"|"failed"|"skipped", "lines": {file: [n, ...]}}}}.
Only files under FIXLOOP_COVERAGE_ROOT are recorded. Standard library only.
"""
import json
import os
import sys

import pytest

ROOT = os.path.realpath(os.environ.get("FIXLOOP_COVERAGE_ROOT", os.getcwd()))
OUT = os.environ.get("FIXLOOP_COVERAGE_OUT")
_results = {}
_current = None
_inside = {}


def _relative(filename):
    """The file's path under the root, or None. Cached: asked on every call of every function."""
    if filename in _inside:
        return _inside[filename]
    rel = None
    # Frozen and generated code ("<frozen os>", "<string>") has no file: resolved against the
    # working directory it would look like a file of the repository.
    if os.path.isabs(filename):
        path = os.path.realpath(filename)
        if path.startswith(ROOT + os.sep) and "site-packages" not in path and "/." not in path[len(ROOT):]:
            rel = os.path.relpath(path, ROOT)
    _inside[filename] = rel
    return rel


def _tracer(frame, event, arg):
    # Called for each new frame: frames outside the repository get no line events at all.
    rel = _relative(frame.f_code.co_filename)
    if rel is None or _current is None:
        return None
    lines = _current.get(rel)
    if lines is None:
        lines = _current[rel] = set()
    add = lines.add

    def local(frame, event, arg):
        if event == "line":
            add(frame.f_lineno)
        return local

    return local


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    global _current
    _current = {}
    sys.settrace(_tracer)
    try:
        yield
    finally:
        sys.settrace(None)
        entry = _results.setdefault(item.nodeid, {"outcome": "passed", "lines": {}})
        for path, lines in _current.items():
            entry["lines"].setdefault(path, set()).update(lines)
        _current = None


def pytest_runtest_logreport(report):
    entry = _results.setdefault(report.nodeid, {"outcome": "passed", "lines": {}})
    if report.failed:
        entry["outcome"] = "failed"
    elif report.skipped and entry["outcome"] != "failed":
        entry["outcome"] = "skipped"


def pytest_sessionfinish(session, exitstatus):
    if not OUT:
        return
    data = {nodeid: {"outcome": e["outcome"], "lines": {p: sorted(ls) for p, ls in e["lines"].items()}} for nodeid, e in _results.items()}
    with open(OUT, "w", encoding="utf-8") as fh:
        json.dump({"tests": data}, fh)
