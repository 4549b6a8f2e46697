"""Two things a guard inside the test process cannot tell from a fix, found on the added code's syntax
tree for harness_tampering.py (docs/design.md §3.2.3):

- code that reads the test runner's environment variables (PYTEST_CURRENT_TEST, …): it can be right
  only under test;
- an `__eq__`/`__ne__` that ignores the other operand or answers a constant: a value equal to anything
  passes every `assert x == expected`;
- a subclass of a built-in value type (a float, an int, a str) that defines how it compares or
  subtracts: it passes `assert x == expected` (and `pytest.approx`) by the patch's own rule, whatever
  number or text it holds.
"""
import ast

ENV_READS = {("os", "getenv"), ("os", "getenvb"), ("os", "environ"), ("os", "environb"), ("posix", "environ")}
COMPARISONS = ("__eq__", "__ne__")
# What an assertion on a value asks of it: equality, order, and the difference pytest.approx takes.
COMPARED_BY = COMPARISONS + ("__lt__", "__le__", "__gt__", "__ge__", "__sub__", "__rsub__", "__abs__", "__round__")
BUILT_IN_VALUES = {
    ("", "float"), ("", "int"), ("", "complex"), ("", "str"), ("", "bytes"), ("", "bool"),
    ("decimal", "Decimal"), ("fractions", "Fraction"),
}


def reads_environment(finder, tree):
    """Whether the file reads the environment anywhere (`os.environ`, `os.getenv`, `from os import environ`)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Name, ast.Attribute)) and finder.resolve(node) in ENV_READS:
            return True
    return False


def runner_variable_hits(finder, tree, patterns):
    """Each added string (or joined constant pieces) that names a runner's variable, in a file that reads the environment."""
    if not patterns or not reads_environment(finder, tree):
        return
    covered = set()
    for node in ast.walk(tree):
        if id(node) in covered:
            continue
        for text in strings_of(node):
            if any(p.search(text) for p in patterns):
                # The pieces of a name found joined are not found again.
                covered.update(id(inner) for inner in ast.walk(node))
                finder.hit(node, "detects-runner", "reads the test runner's environment variable `%s`" % text)


def strings_of(node):
    """A string constant's value; for `"A" + "B"`, the joined value."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        pieces = []
        for part in (node.left, node.right):
            found = strings_of(part)
            if len(found) != 1:
                return []
            pieces.append(found[0])
        return ["".join(pieces)]
    if isinstance(node, ast.JoinedStr) and all(isinstance(v, ast.Constant) for v in node.values):
        return ["".join(str(v.value) for v in node.values)]
    return []


def comparison_hit(finder, node):
    """`def __eq__(self, other)` (or `__eq__ = lambda self, other: …`) that ignores `other` or answers a constant."""
    name = getattr(node, "name", None) or getattr(node, "bound_name", None)
    if name not in COMPARISONS:
        return
    why = ignores_other(node.args, node.body)
    if why:
        finder.hit(node, "equals-anything", "defines `%s` that %s" % (name, why))


def comparison_assign(finder, node):
    """`__eq__ = lambda self, other: True` in a class body."""
    if not isinstance(node.value, ast.Lambda):
        return
    for target in node.targets:
        if isinstance(target, ast.Name) and target.id in COMPARISONS:
            why = ignores_other(node.value.args, [ast.Return(value=node.value.body)])
            if why:
                finder.hit(node, "equals-anything", "defines `%s` that %s" % (target.id, why))


def ignores_other(args, body):
    params = [a.arg for a in list(getattr(args, "posonlyargs", [])) + list(args.args)]
    others = params[1:] + ([args.vararg.arg] if args.vararg else [])
    read = {n.id for statement in body for n in ast.walk(statement) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    if not any(o in read for o in others):
        return "never reads the other operand"
    returns = [n for statement in body for n in ast.walk(statement) if isinstance(n, ast.Return)]
    values = [r.value.value if isinstance(r.value, ast.Constant) else r for r in returns]
    if returns and all(not isinstance(v, ast.Return) for v in values) and any(v is not NotImplemented for v in values):
        return "answers a constant whatever the other operand is"
    return None


def built_in_comparison_hits(finder, node):
    """`class Price(float)` (a subclass of a built-in value) whose body defines how it compares: each such method."""
    bases = [finder.resolve(base) for base in node.bases]
    built_in = next((b for b in bases if b in BUILT_IN_VALUES), None)
    if built_in is None:
        return
    shown = ".".join(part for part in built_in if part)
    finder.value_classes[node.name] = shown
    # An `__eq__` always true is said once, as rule equals-anything (the class's body is visited first).
    said = {hit["line"] for hit in finder.hits if hit["rule"] == "equals-anything"}
    for statement in node.body:
        for name, where in defined_names(statement):
            if name in COMPARED_BY and where.lineno not in said:
                finder.hit(where, "own-equality", "defines `%s` on a subclass of `%s`" % (name, shown))


def defined_names(statement):
    """The names a class body statement defines, with the node to report: `def __eq__`, `__eq__ = …`."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return [(statement.name, statement)]
    if isinstance(statement, ast.Assign):
        return [(t.id, statement) for t in statement.targets if isinstance(t, ast.Name)]
    return []


def comparison_set_later(finder, node, target, name):
    """`setattr(Price, "__eq__", f)` or `Price.__eq__ = f` after the class, on a subclass of a built-in
    value defined above: how it compares, given out of sight of its body. A name computed at run time
    (`"__%s__" % op`) counts too: it can be any of them."""
    shown = finder.value_classes.get(target.id) if isinstance(target, ast.Name) else None
    if shown is None:
        return
    if isinstance(name, ast.Constant) and isinstance(name.value, str):
        if name.value in COMPARED_BY:
            finder.hit(node, "own-equality", "sets `%s` on a subclass of `%s`" % (name.value, shown))
    elif not isinstance(name, ast.Constant):
        finder.hit(node, "own-equality", "sets an attribute named at run time on a subclass of `%s`" % shown)
