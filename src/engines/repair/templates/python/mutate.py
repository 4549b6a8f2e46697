"""Repair-template candidates for a Python file, from Python's own parser (ast + tokenize).

Reads {"source": str, "lines": [int]} as JSON on stdin and prints a JSON list of candidates:
{"template", "line", "description", "edits": [{"start", "end", "text"}]}, with offsets counted in
UTF-16 code units (JavaScript string indices). Standard library only; Python 3.8+.
"""
import json
import os
import sys

# Its siblings, wherever it is run from, compiled in memory only: fixloop's install folder is not written to.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mutate_templates import Generator  # noqa: E402


def main():
    request = json.load(sys.stdin)
    try:
        candidates = Generator(request["source"], request["lines"]).run()
    except SyntaxError:
        candidates = []
    json.dump(candidates, sys.stdout)


if __name__ == "__main__":
    main()
