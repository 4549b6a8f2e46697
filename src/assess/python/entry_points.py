"""Where the failing tests enter the program, from Python's ast (the code is parsed, never run).

When a patch changes nothing the probe can wrap (a table, a regular expression or a constant at a
module's top level, read by code elsewhere), the assessment probes instead the functions the failing
tests call: the patch's effect reaches them whatever path it takes.

Reads JSON on stdin, one of:
- {"mode": "tests", "tests": [{"source": str, "names": [str]}]}: for each test file, the names it
  calls (`f(…)`, `m.f(…)`, `x.method(…)`), within the named test functions (`test_x`,
  `TestClass.test_x`) when any is found, else in the whole file. Prints {"called": [names]}.
- {"mode": "defs", "source": str, "called": [str]}: the `def` lines of the module-level functions and
  of the methods of module-level classes whose name is called. Prints {"lines": [int]}.
Exits 2 when a source does not parse. Standard library only; Python 3.8+.
"""
import ast
import json
import sys


def test_functions(tree, names):
    """The defs named by the test ids (`test_x`, `TestClass.test_x`) found in the file."""
    wanted = set(names)
    found = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in wanted:
            found.append(node)
        elif isinstance(node, ast.ClassDef):
            for child in node.body:
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and (node.name + "." + child.name in wanted or child.name in wanted):
                    found.append(child)
    return found


def called_names(nodes):
    called = set()
    for root in nodes:
        for node in ast.walk(root):
            if not isinstance(node, ast.Call):
                continue
            if isinstance(node.func, ast.Name):
                called.add(node.func.id)
            elif isinstance(node.func, ast.Attribute):
                called.add(node.func.attr)
    return called


def tests_mode(request):
    called = set()
    for test in request["tests"]:
        tree = ast.parse(test["source"])
        functions = test_functions(tree, test.get("names", []))
        called |= called_names(functions or [tree])
    return {"called": sorted(called)}


def defs_mode(request):
    tree = ast.parse(request["source"])
    called = set(request["called"])
    lines = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in called:
            lines.append(node.lineno)
        elif isinstance(node, ast.ClassDef):
            for child in node.body:
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and child.name in called:
                    lines.append(child.lineno)
    return {"lines": sorted(lines)}


def main():
    request = json.loads(sys.stdin.read())
    try:
        answer = tests_mode(request) if request["mode"] == "tests" else defs_mode(request)
    except (SyntaxError, ValueError):
        sys.exit(2)
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    if sys.version_info < (3, 8):
        sys.exit(3)
    main()
