"""A Python test file with the expected values of its fixed tests changed (src/verify/py-expectations.ts).

In each named test function's own body, each assertion of equality whose one side is written as a
literal (`assert f(2) == 4`, `self.assertEqual(f(2), [1, 2])`) gets one leaf of that literal changed:
a number plus one, a string or bytes with a character added, a boolean flipped (that catches code
that reads the expected value from the test). Any other `assert` is negated (`assert x` becomes
`assert not (x)`) and a unittest assertion becomes its opposite (`assertTrue` → `assertFalse`,
`assertEqual` → `assertNotEqual`): an honest test then fails whatever it computes, one whose outcome
is rewritten still passes. Only statements that are surely reached count: those at the top of the body, before any statement holding a `return`; an
assertion in a branch, a loop or a `with` block may never run, and an honest test would then pass
with its expectation changed. The code is parsed, never run.

Reads JSON on stdin: {"source": str, "names": [str]} where a name is `test_x` or `TestClass.test_x`.
Prints {"text": str, "changes": [{"test", "line", "before", "after"}]}. Exits 2 when the source does
not parse. Standard library only; Python 3.8+.
"""
import ast
import json
import sys

ASSERT_EQUAL = {
    "assertEqual",
    "assertEquals",
    "failUnlessEqual",
    "assertListEqual",
    "assertTupleEqual",
    "assertDictEqual",
    "assertSetEqual",
    "assertSequenceEqual",
    "assertMultiLineEqual",
}

# unittest's assertions and the one that asserts the opposite of each.
OPPOSITE = {
    "assertTrue": "assertFalse",
    "assertFalse": "assertTrue",
    "assertIsNone": "assertIsNotNone",
    "assertIsNotNone": "assertIsNone",
    "assertIn": "assertNotIn",
    "assertNotIn": "assertIn",
    "assertIs": "assertIsNot",
    "assertIsNot": "assertIs",
    "assertIsInstance": "assertNotIsInstance",
    "assertNotIsInstance": "assertIsInstance",
    "assertAlmostEqual": "assertNotAlmostEqual",
    "assertNotAlmostEqual": "assertAlmostEqual",
    "assertRegex": "assertNotRegex",
    "assertNotRegex": "assertRegex",
}
OPPOSITE.update({name: "assertNotEqual" for name in ASSERT_EQUAL})


class Span:
    """A stretch of the source in ast's terms (lines from 1, columns in UTF-8 bytes)."""

    def __init__(self, lineno, col_offset, end_lineno, end_col_offset):
        self.lineno, self.col_offset = lineno, col_offset
        self.end_lineno, self.end_col_offset = end_lineno, end_col_offset


def named_tests(tree, names):
    """(name, def) for each named test: a module-level function or a method of a module-level class."""
    found = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in names:
            found.append((node.name, node))
        elif isinstance(node, ast.ClassDef):
            for child in node.body:
                qualified = node.name + "." + child.name
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and qualified in names:
                    found.append((qualified, child))
    return found


def leaves_early(statement):
    """A `return` in the statement, outside the functions and classes it defines."""
    pending = [statement]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Return):
            return True
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                pending.append(child)
    return False


def pure_literal(node):
    if isinstance(node, ast.Constant):
        return not isinstance(node.value, complex)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return isinstance(node.operand, ast.Constant) and isinstance(node.operand.value, (int, float))
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return all(pure_literal(element) for element in node.elts)
    if isinstance(node, ast.Dict):
        return all(key is not None and pure_literal(key) for key in node.keys) and all(pure_literal(v) for v in node.values)
    return False


def changed_value(node):
    """The source of a leaf's changed value, or None when the node is no changeable leaf."""
    if not isinstance(node, ast.Constant):
        return None
    value = node.value
    if isinstance(value, bool):
        return repr(not value)
    if isinstance(value, (int, float)) and abs(value) < 1e15:
        return repr(value + 1)
    if isinstance(value, str):
        return repr(value + "!")
    if isinstance(value, bytes):
        return repr(value + b"!")
    return None


def first_leaf(node):
    """(leaf, changed source) of the first changeable leaf of a value written wholly as literals."""
    if node is None or not pure_literal(node):
        return None
    if isinstance(node, ast.Dict):
        order = list(node.values)
    elif isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        order = list(node.elts)
    elif isinstance(node, ast.UnaryOp):
        order = [node.operand]
    else:
        after = changed_value(node)
        return (node, after) if after is not None else None
    for child in order:
        found = first_leaf(child)
        if found:
            return found
    return None


def literal_side(a, b):
    """Equality is symmetric: the side written as a literal is the expectation, when only one is."""
    first, second = first_leaf(a), first_leaf(b)
    if first and second:
        return None
    return first or second


def self_assertion(statement):
    """The call of a `self.assert…` statement, or None."""
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        func = statement.value.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
            return statement.value
    return None


def expected_leaf(statement):
    if isinstance(statement, ast.Assert) and isinstance(statement.test, ast.Compare):
        compare = statement.test
        if len(compare.ops) == 1 and isinstance(compare.ops[0], ast.Eq):
            return literal_side(compare.left, compare.comparators[0])
        return None
    call = self_assertion(statement)
    if call is not None and call.func.attr in ASSERT_EQUAL and len(call.args) >= 2:
        return literal_side(call.args[0], call.args[1])
    return None


def negated(statement, source_of):
    """(span, replacement) turning the assertion into its opposite, or None."""
    if isinstance(statement, ast.Assert):
        return statement.test, "not (" + source_of(statement.test) + ")"
    call = self_assertion(statement)
    if call is not None and call.func.attr in OPPOSITE:
        func = call.func
        start = func.end_col_offset - len(func.attr.encode("utf-8"))
        return Span(func.end_lineno, start, func.end_lineno, func.end_col_offset), OPPOSITE[func.attr]
    return None


def expectations_in(function, source_of):
    edits = []
    for statement in function.body:
        if leaves_early(statement):
            break
        found = expected_leaf(statement) or negated(statement, source_of)
        if found:
            edits.append(found)
    return edits


def char_offset(lines, line, byte_column):
    """ast columns count UTF-8 bytes; the text is edited by characters."""
    return len(lines[line - 1].encode("utf-8")[:byte_column].decode("utf-8", "replace"))


def main():
    request = json.load(sys.stdin)
    source = request["source"]
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        sys.exit(2)
    lines = source.splitlines(True)

    def bounds(node):
        return (
            (node.lineno, char_offset(lines, node.lineno, node.col_offset)),
            (node.end_lineno, char_offset(lines, node.end_lineno, node.end_col_offset)),
        )

    def source_of(node):
        start, end = bounds(node)
        text = "".join(lines[start[0] - 1 : end[0]])
        return text[start[1] : len(text) - len(lines[end[0] - 1]) + end[1]]

    edits = {}
    changes = []
    for name, function in named_tests(tree, set(request["names"])):
        for node, after in expectations_in(function, source_of):
            start, end = bounds(node)
            edits[start] = (end, after)
            changes.append({"test": name, "line": node.lineno, "before": source_of(node), "after": after})
    for (line, column), ((end_line, end_column), after) in sorted(edits.items(), reverse=True):
        head = lines[line - 1][:column]
        tail = lines[end_line - 1][end_column:]
        lines[line - 1 : end_line] = [head + after + tail]
    json.dump({"text": "".join(lines), "changes": changes}, sys.stdout)


if __name__ == "__main__":
    main()
