"""The Python fixloop runs (in the repository's test processes, or as its own scripts) parses on the
oldest Python it supports, and keeps to the size rules of the TypeScript (docs/architecture.md).

`python3 scripts/check-python.py [folder or file ...]` (default: src and scripts) prints each problem
as `file:line: message` and exits 1 when there is any. Standard library only.
"""
import ast
import os
import sys

OLDEST = (3, 8)
MAX_FILE_LINES = 300
# The margin src/ is held to (test/architecture/function-size.test.ts), below ESLint's cap of 100.
MAX_FUNCTION_LINES = 90


def python_files(paths):
    for path in paths:
        if os.path.isfile(path):
            yield path
            continue
        for folder, subfolders, names in os.walk(path):
            subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
            for name in sorted(names):
                if name.endswith(".py"):
                    yield os.path.join(folder, name)


def problems(path):
    with open(path, "rb") as file:
        source = file.read()
    try:
        # Bytes, so that the file's coding cookie is read as Python reads it.
        tree = ast.parse(source, path, feature_version=OLDEST)
    except (SyntaxError, ValueError) as error:  # ValueError: a null byte, before Python 3.12
        where = getattr(error, "lineno", None) or 1
        return [(where, "does not parse on Python %d.%d: %s" % (OLDEST[0], OLDEST[1], getattr(error, "msg", error)))]
    found = []
    lines = len(source.splitlines())
    if lines > MAX_FILE_LINES:
        found.append((1, "%d lines, more than %d: split it by concept" % (lines, MAX_FILE_LINES)))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            # From the `def` line to the function's last line, as ESLint counts a function.
            length = node.end_lineno - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                found.append((node.lineno, "function `%s` has %d lines, more than %d" % (node.name, length, MAX_FUNCTION_LINES)))
    return sorted(found)


def main(paths):
    count = 0
    for path in python_files(paths):
        for line, message in problems(path):
            print("%s:%d: %s" % (path, line, message))
            count += 1
    return 1 if count else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["src", "scripts"]))
