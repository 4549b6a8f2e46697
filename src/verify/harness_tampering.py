"""Harness tampering in a patch's added Python code, found on Python's own syntax tree (ast).

Reads {"files": [{"path": str, "source": base64, "lines": [int]}], "env": [regex]} as JSON on stdin,
where `source` is the file's bytes, `lines` its added lines and `env` the test runners' environment
variables, and prints {"hits": {path: [hit]}, "unreadable": [{"path", "why"}]}. A hit is
{"line", "rule", "what"} and, for the reads-tests rule, "target": the path the code reads, which
the caller checks against the test globs. Only nodes on added lines are reported. The code is parsed,
never run. Standard library only; Python 3.8+.
"""
import base64
import json
import os
import re
import sys
import threading

# Its siblings, wherever it is run from (`python3 -I` puts no folder of the script's on sys.path),
# compiled in memory only: fixloop's install folder is not written to.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness_finder import Finder  # noqa: E402
from harness_reading import read_tree, unusual_cookie  # noqa: E402
from harness_values import runner_variable_hits  # noqa: E402


def check_file(entry, patterns):
    """(hits, [why it could not be read])."""
    raw = base64.b64decode(entry["source"])
    added = set(entry["lines"])
    reasons = []
    cookie = unusual_cookie(raw, added)
    if cookie:
        reasons.append(cookie)
    tree, why = read_tree(raw, entry["path"])
    if tree is None:
        return [], reasons + [why]
    finder = Finder(added)
    try:
        finder.bind_imports(tree)
        finder.visit(tree)
        runner_variable_hits(finder, tree, patterns)
    except RecursionError:
        return [], reasons + ["an expression nested too deep for the check to walk"]
    return finder.hits, reasons


def main():
    request = json.load(sys.stdin)
    patterns = [re.compile(p) for p in request.get("env", [])]
    hits = {}
    unreadable = []
    for entry in request["files"]:
        found, reasons = check_file(entry, patterns)
        if found:
            hits[entry["path"]] = found
        unreadable.extend({"path": entry["path"], "why": why} for why in reasons)
    json.dump({"hits": hits, "unreadable": unreadable}, sys.stdout)


if __name__ == "__main__":
    # Room for deep but honest code: a long chain of `+` is a deep tree, walked by recursion.
    sys.setrecursionlimit(20000)
    threading.stack_size(512 * 1024 * 1024)
    worker = threading.Thread(target=main)
    worker.start()
    worker.join()
