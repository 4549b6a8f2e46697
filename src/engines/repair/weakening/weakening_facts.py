"""The weakening rules' facts of Python files, from Python's own parser (ast), never running them.

Reads {"files": [{"source": str, "start": int, "end": int}]} as JSON on stdin, where start and end
are the changed range in code points, and prints a list with, for each file, null when it does not
parse, else {"throws": [str], "calls": [str], "condition": null | {"start", "statement", "test",
"guards"?}}: the same shape as site-facts.ts, with offsets in code points. A condition is
{"kind": "and"|"or", "items"} | {"kind": "not", "item"} | {"kind": "const", "value"} |
{"kind": "atom", "key"}, each with its "text". Standard library only; Python 3.8+.
"""
import ast
import json
import re
import sys

TESTED = {ast.If: "if", ast.While: "while", ast.IfExp: "if … else"}
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
ERROR_NAME = re.compile(r"(Error|Exception)$")


def squeeze(text):
    text = re.sub(r"\s+", " ", text or "").strip()
    return text if len(text) <= 60 else text[:57] + "…"


class Offsets:
    """Code-point offsets of ast positions (lines from 1, columns in UTF-8 bytes)."""

    def __init__(self, source):
        self.lines = source.splitlines(True)
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))

    def at(self, lineno, col):
        line = self.lines[lineno - 1] if lineno - 1 < len(self.lines) else ""
        return self.starts[lineno - 1] + len(line.encode("utf-8")[:col].decode("utf-8", "replace"))

    def span(self, node):
        return self.at(node.lineno, node.col_offset), self.at(node.end_lineno, node.end_col_offset)


def cond(node, source):
    text = ast.get_source_segment(source, node) or ""
    if isinstance(node, ast.BoolOp):
        kind = "and" if isinstance(node.op, ast.And) else "or"
        items = [cond(v, source) for v in node.values]
        # `a and b and c` is one node in Python: nest it as JavaScript's tree does, left first.
        while len(items) > 2:
            items = [{"kind": kind, "items": items[:2], "text": items[0]["text"] + " " + kind + " " + items[1]["text"]}] + items[2:]
        return {"kind": kind, "items": items, "text": text}
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return {"kind": "not", "item": cond(node.operand, source), "text": text}
    if isinstance(node, ast.Constant) and isinstance(node.value, bool):
        return {"kind": "const", "value": node.value, "text": text}
    return {"kind": "atom", "key": ast.dump(node), "text": squeeze(text)}


def error_words(node, source):
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        return '"%s"' % node.args[0].value
    return "`%s`" % squeeze(ast.get_source_segment(source, node))


def is_error_made(node):
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    return bool(ERROR_NAME.search(name))


def check_in(statements, source):
    """What a branch does that makes it a check: raises, or returns an error; None otherwise."""
    todo = list(statements)
    while todo:
        node = todo.pop(0)
        if isinstance(node, FUNCTIONS):
            continue
        if isinstance(node, ast.Raise):
            return "raises " + (error_words(node.exc, source) if node.exc is not None else "again")
        if isinstance(node, ast.Return) and is_error_made(node.value):
            return "returns the error " + error_words(node.value, source)
        todo.extend(ast.iter_child_nodes(node))
    return None


def facts(source, start, end):
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    offsets = Offsets(source)
    out = {"throws": [], "calls": [], "condition": None}
    best = None
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise):
            out["throws"].append(squeeze(ast.get_source_segment(source, node)))
        elif isinstance(node, ast.Expr) and isinstance(node.value, (ast.Call, ast.Await)):
            out["calls"].append(squeeze(ast.get_source_segment(source, node.value)))
        if type(node) in TESTED:
            t_start, t_end = offsets.span(node.test)
            if t_start <= start and end <= t_end and (best is None or t_start >= best[1]):
                best = (node, t_start)
    if best is not None:
        node, t_start = best
        condition = {"start": t_start, "statement": TESTED[type(node)], "test": cond(node.test, source)}
        if isinstance(node, ast.If):
            when_true, when_false = check_in(node.body, source), check_in(node.orelse, source)
            if when_true:
                condition["guards"] = {"check": when_true, "firesWhen": True}
            elif when_false:
                condition["guards"] = {"check": when_false, "firesWhen": False}
        out["condition"] = condition
    return out


def main():
    request = json.loads(sys.stdin.read())
    json.dump([facts(f["source"], f["start"], f["end"]) for f in request["files"]], sys.stdout)


if __name__ == "__main__":
    main()
