"""Two things a guard inside the test process cannot tell from a fix, found on the added code's syntax
tree for harness_tampering.py (docs/design.md §3.2.3):

- code that reads the test runner's environment variables (PYTEST_CURRENT_TEST, …): it can be right
  only under test;
- an `__eq__`/`__ne__` that ignores the other operand or answers a constant: a value equal to anything
  passes every `assert x == expected`.
"""
import ast

ENV_READS = {("os", "getenv"), ("os", "getenvb"), ("os", "environ"), ("os", "environb"), ("posix", "environ")}
COMPARISONS = ("__eq__", "__ne__")


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
