"""The functions a patch changed in one Python file, and where a header may go, from Python's ast.

Reads {"source": str, "lines": [int]} as JSON on stdin (`lines`: 1-based changed lines of this
version) and prints {"functions": [{"qualname", "line", "start", "at"}], "anchor": {"line", "col"} | null,
"first": int | null}, or exits 2 when the source does not parse. Each changed line selects the
innermost def or async def whose span (its decorators to its last line) holds it; lambdas count as
their enclosing def. `qualname` is Python's own (`Parser.parse`, `outer.<locals>.inner`), with
`[2]`, `[3]`… for later defs of the same name (a property's setter), so that it names the same
function in two versions of the file whatever lines moved. `line` is the `def` line; `at` the line
the probe's decorator goes above (the `def`, or the first decorator when the patch changed one). `anchor` is the
end of the module docstring or of the last `from __future__` import after it (where a header joined
with `;` keeps every line number); `first` is the first line of the first statement otherwise. The
code is parsed, never run. Standard library only; Python 3.8+ (end positions).
"""
import ast
import json
import re
import sys


def split_lines(source):
    # The tokenizer's line ends, and the ones the TypeScript side splits on: not str.splitlines.
    return re.split(r"\r\n|\r|\n", source)


def defs(tree):
    """(node, qualname) for every def in source order, qualnames made unique by order."""
    found = []
    seen = {}

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + child.name
                seen[name] = seen.get(name, 0) + 1
                unique = name if seen[name] == 1 else "%s[%d]" % (name, seen[name])
                found.append((child, unique))
                visit(child, name + ".<locals>.")
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")
            else:
                visit(child, prefix)

    visit(tree, "")
    return found


def span(node):
    return min([d.lineno for d in node.decorator_list] + [node.lineno]), node.end_lineno


# Decorators that make something other than a plain callable (a descriptor, a dispatcher, a cache
# whose methods callers use) or only mark the function: a probe above them would break or hide them.
KEEP_BELOW = re.compile(r"(^|\.)(staticmethod|classmethod|property|setter|getter|deleter|cached_property|abstractmethod|abstractproperty|overload|override|singledispatch|singledispatchmethod|lru_cache|cache|total_ordering)$")


def decorator_name(decorator):
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    parts = []
    while isinstance(target, ast.Attribute):
        parts.append(target.attr)
        target = target.value
    if isinstance(target, ast.Name):
        parts.append(target.id)
    return ".".join(reversed(parts))


def probe_line(node, lines):
    """Where the probe's decorator goes: above the def, below its decorators; above the decorators when
    the patch changed one of them (`@recurse(...)` added: the change is in what wraps the body, and
    only a probe outside it sees it), unless one of them must stay outermost."""
    start = span(node)[0]
    if not any(start <= line < node.lineno for line in lines):
        return node.lineno
    if any(KEEP_BELOW.search(decorator_name(d)) for d in node.decorator_list):
        return node.lineno
    return start


def changed_functions(tree, lines):
    spans = [(span(node), node, name) for node, name in defs(tree)]
    chosen = {}
    for line in lines:
        holding = [s for s in spans if s[0][0] <= line <= s[0][1]]
        if not holding:
            continue
        # Spans nest: the innermost one starts last.
        (_, node, name) = max(holding, key=lambda s: s[0][0])
        chosen[name] = {"qualname": name, "line": node.lineno, "start": span(node)[0], "at": probe_line(node, lines)}
    return sorted(chosen.values(), key=lambda f: f["line"])


def is_docstring(stmt):
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


def header_place(tree, source):
    body = tree.body
    last = None
    index = 0
    if body and is_docstring(body[0]):
        last = body[0]
        index = 1
    while index < len(body) and isinstance(body[index], ast.ImportFrom) and body[index].module == "__future__":
        last = body[index]
        index += 1
    if last is None:
        first = span(body[0])[0] if isinstance(body[0], (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else body[0].lineno
        return None, first
    text = split_lines(source)[last.end_lineno - 1]
    # end_col_offset counts UTF-8 bytes; the caller slices code points.
    col = len(text.encode("utf-8")[: last.end_col_offset].decode("utf-8", "replace"))
    return {"line": last.end_lineno, "col": col}, None


def main():
    request = json.loads(sys.stdin.read())
    source = request["source"]
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        sys.exit(2)
    functions = changed_functions(tree, request["lines"]) if tree.body else []
    anchor, first = header_place(tree, source) if functions else (None, None)
    json.dump({"functions": functions, "anchor": anchor, "first": first}, sys.stdout)


if __name__ == "__main__":
    if sys.version_info < (3, 8):
        sys.exit(3)
    main()
