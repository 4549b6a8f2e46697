"""What a name in a changed Python file stands for, by the imports it makes, for harness_tampering.py
(docs/design.md §3.2.3): `from os import _exit as leave` makes `leave` stand for `os._exit`. Also the
module names and paths the file writes out as string pieces. Standard library only; Python 3.8+.
"""
import ast

# Modules whose import from code under test reaches into the runner (docs/design.md §3.2.3).
FRAMEWORK_MODULES = {"pytest", "_pytest", "unittest", "pluggy", "nose", "nose2", "hypothesis"}
SYS_IMPORT_STATE = {"modules", "meta_path", "path_hooks", "path_importer_cache"}


class Bindings:
    """The names a file's imports bound, and what the names and attributes it uses stand for."""

    def __init__(self):
        # Local name -> (module, attribute or "") for what imports bound.
        self.names = {}

    def bind_imports(self, tree):
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    top = alias.name.split(".")[0]
                    self.names[alias.asname or top] = (alias.name if alias.asname else top, "")
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    self.names[alias.asname or alias.name] = (node.module, alias.name)

    def resolve(self, node):
        """(module, attribute) a name or attribute stands for, or None."""
        if isinstance(node, ast.Name):
            if node.id in self.names:
                return self.names[node.id]
            return ("", node.id)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            base = self.names.get(node.value.id)
            if base and base[1] == "":
                return (base[0], node.attr)
            if base:
                return (base[0] + "." + base[1], node.attr)
        return None

    def is_module(self, node, module):
        return isinstance(node, ast.Name) and self.names.get(node.id) == (module, "")

    def is_sys_state(self, node):
        """`sys.modules` (or `from sys import modules`), `sys.meta_path`, …"""
        target = self.resolve(node)
        return target is not None and target[0] == "sys" and target[1] in SYS_IMPORT_STATE

    def is_builtins(self, node):
        return self.is_module(node, "builtins") or (isinstance(node, ast.Name) and node.id == "__builtins__")

    def is_builtins_dict(self, node):
        """`builtins.__dict__` or `vars(builtins)`."""
        if isinstance(node, ast.Attribute) and node.attr == "__dict__":
            return self.is_builtins(node.value)
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "vars" and len(node.args) == 1 and self.is_builtins(node.args[0])

    def is_assertion_target(self, node):
        root = node
        while isinstance(root, (ast.Attribute, ast.Subscript)):
            root = root.value
        if not isinstance(root, ast.Name) or root.id not in self.names:
            return False
        return self.names[root.id][0].split(".")[0] in FRAMEWORK_MODULES


def looks_like_test_module(module):
    parts = module.split(".")
    return parts[0] in ("test", "tests") or any(p.startswith("test_") or p.endswith("_test") for p in parts)


def literal_path(node, sep="/"):
    """The string pieces of a path expression, joined with `/`: 'tests', 'test_x.py' -> tests/test_x.py."""
    pieces = []
    for child in ast.walk(node):
        if isinstance(child, ast.Constant) and isinstance(child.value, str):
            pieces.append((child.lineno, child.col_offset, child.value))
    if not pieces:
        return None
    pieces.sort()
    return sep.join(p[2] for p in pieces)
