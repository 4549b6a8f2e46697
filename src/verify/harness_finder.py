"""The visitor of harness_tampering.py: what a changed Python file does to the test process, on its
syntax tree (docs/design.md §3.2.3), reported for the nodes on added lines. Standard library only; Python 3.8+.
"""
import ast

from harness_bindings import FRAMEWORK_MODULES, Bindings, literal_path, looks_like_test_module
from harness_values import built_in_comparison_hits, comparison_assign, comparison_hit, comparison_set_later

EXIT_CALLS = {
    ("os", "_exit"), ("os", "abort"), ("os", "kill"), ("os", "killpg"), ("sys", "exit"),
    ("atexit", "register"), ("signal", "raise_signal"), ("posix", "_exit"),
}
MUTATING_METHODS = {"update", "setdefault", "pop", "popitem", "clear", "__setitem__", "__delitem__", "insert", "append", "extend", "remove"}
READ_CALLS = {
    ("", "open"), ("io", "open"), ("codecs", "open"), ("os", "open"), ("os", "listdir"), ("os", "scandir"),
    ("os", "walk"), ("glob", "glob"), ("glob", "iglob"), ("pathlib", "Path"), ("pathlib", "PurePath"),
    ("shutil", "copy"), ("shutil", "copyfile"), ("shutil", "copytree"), ("runpy", "run_path"),
}
IMPORT_CALLS = {("importlib", "import_module"), ("", "__import__"), ("runpy", "run_module")}


class Finder(Bindings, ast.NodeVisitor):
    def __init__(self, added):
        Bindings.__init__(self)
        self.added = added
        self.hits = []
        self.main_guard = 0
        # Classes of this file that subclass a built-in value, by name (harness_values.py).
        self.value_classes = {}

    # --- reporting ------------------------------------------------------------------------------
    def on_added(self, node):
        first = getattr(node, "lineno", None)
        last = getattr(node, "end_lineno", None) or first
        return first is not None and any(line in self.added for line in range(first, last + 1))

    def hit(self, node, rule, what, target=None):
        if not self.on_added(node):
            return
        item = {"line": node.lineno, "rule": rule, "what": what}
        if target is not None:
            item["target"] = target
        self.hits.append(item)

    # --- visitors -------------------------------------------------------------------------------
    def visit_If(self, node):
        # Code under `if __name__ == "__main__":` runs only as a script, never when a test imports it.
        if is_main_guard(node.test):
            self.main_guard += 1
            for child in node.body:
                self.visit(child)
            self.main_guard -= 1
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def visit_Import(self, node):
        for alias in node.names:
            self.check_import(node, alias.name)
        self.generic_visit(node)

    def visit_ImportFrom(self, node):
        if node.module and node.level == 0 and not self.check_import(node, node.module):
            for alias in node.names:
                if self.check_import(node, node.module + "." + alias.name, only_tests=True):
                    break
        self.generic_visit(node)

    def check_import(self, node, module, only_tests=False):
        """Reports the import when it reaches the runner or a test module; says whether it did."""
        top = module.split(".")[0]
        if not only_tests and top in FRAMEWORK_MODULES:
            self.hit(node, "test-framework", "imports the test framework `%s`" % module)
            return True
        if looks_like_test_module(module):
            self.hit(node, "reads-tests", "imports the test module `%s`" % module, module.replace(".", "/") + ".py")
            return True
        return False

    def visit_ClassDef(self, node):
        self.generic_visit(node)
        built_in_comparison_hits(self, node)

    def visit_FunctionDef(self, node):
        self.check_function(node)
        self.generic_visit(node)

    def visit_AsyncFunctionDef(self, node):
        self.check_function(node)
        self.generic_visit(node)

    def check_function(self, node):
        comparison_hit(self, node)
        if node.name.startswith("pytest_"):
            header = ast.Name(id=node.name)
            header.lineno = header.end_lineno = node.lineno
            self.hit(header, "test-framework", "defines the pytest hook `%s`" % node.name)
        for decorator in node.decorator_list:
            target = self.resolve(decorator.func if isinstance(decorator, ast.Call) else decorator)
            if target == ("atexit", "register"):
                self.hit(decorator, "exit", "registers `%s` to run at exit (`atexit.register`)" % node.name)

    def visit_Raise(self, node):
        exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        if not self.main_guard and isinstance(exc, ast.Name) and exc.id == "SystemExit" and "SystemExit" not in self.names:
            self.hit(node, "exit", "raises `SystemExit`")
        self.generic_visit(node)

    def visit_Call(self, node):
        target = self.resolve(node.func)
        if target is not None:
            self.check_call(node, target)
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in MUTATING_METHODS and self.is_sys_state(func.value):
            self.hit(node, "test-framework", "changes `sys.%s` (`.%s(…)`)" % (self.resolve(func.value)[1], func.attr))
        if isinstance(func, ast.Attribute) and func.attr in MUTATING_METHODS and self.is_builtins_dict(func.value):
            self.hit(node, "test-framework", "changes Python's builtins (`.%s(…)`)" % func.attr)
        if isinstance(func, ast.Name) and func.id == "setattr" and len(node.args) >= 2:
            comparison_set_later(self, node, node.args[0], node.args[1])
        if isinstance(func, ast.Name) and func.id in ("setattr", "delattr") and node.args:
            if self.is_builtins(node.args[0]):
                self.hit(node, "test-framework", "changes Python's builtins (`%s`)" % func.id)
            elif self.is_assertion_target(node.args[0]):
                self.hit(node, "test-framework", "changes the test framework (`%s`)" % func.id)
        self.generic_visit(node)

    def check_call(self, node, target):
        module, name = target
        if (module, name) in EXIT_CALLS or (module == "" and name in ("exit", "quit")):
            if (module, name) in (("os", "kill"), ("os", "killpg")) and not self.kills_itself(node):
                return
            if not self.main_guard or (module, name) == ("atexit", "register"):
                shown = "%s.%s" % (module, name) if module else name
                self.hit(node, "exit", "calls `%s(…)`" % shown)
        if (module, name) in IMPORT_CALLS and node.args:
            # `__import__("_py" + "test")`: the pieces of a module name are joined as written.
            joined = literal_path(node.args[0], "")
            if joined and joined.split(".")[0] in FRAMEWORK_MODULES:
                self.hit(node, "test-framework", "imports the test framework `%s`" % joined)
                return
        if (module, name) in IMPORT_CALLS and node.args:
            joined = literal_path(node.args[0], "")
            if joined and looks_like_test_module(joined):
                self.hit(node, "reads-tests", "imports the test module `%s`" % joined, joined.replace(".", "/") + ".py")
        if (module, name) in READ_CALLS:
            path = literal_path(node.args[0]) if node.args else None
            if path:
                self.hit(node, "reads-tests", "reads `%s` at run time" % path, path)

    def kills_itself(self, node):
        """`os.kill(os.getpid(), …)`: the test process (or its parent, the runner) signals itself."""
        if not node.args or not isinstance(node.args[0], ast.Call):
            return False
        target = self.resolve(node.args[0].func)
        return target in (("os", "getpid"), ("os", "getppid"), ("os", "getpgid"), ("os", "getpgrp"))

    def names_hook(self, target):
        """`f.pytest_impl = …` (pluggy's hook marker), `globals()["pytest_…"] = …`, `x.pytest_… = …`."""
        if isinstance(target, ast.Attribute):
            return target.attr.startswith("pytest_")
        if isinstance(target, ast.Subscript):
            # Python 3.8 wraps a subscript's key in ast.Index (gone in later versions).
            key = target.slice.value if isinstance(target.slice, getattr(ast, "Index", ())) else target.slice
            is_globals = isinstance(target.value, ast.Call) and isinstance(target.value.func, ast.Name) and target.value.func.id in ("globals", "vars", "locals")
            pieces = literal_path(key, "") or ""
            return is_globals and (pieces.startswith("pytest_") or not (isinstance(key, ast.Constant) and isinstance(key.value, str)))
        return False

    def check_target(self, node, target, verb):
        if self.names_hook(target):
            self.hit(node, "test-framework", "%s a pytest hook or its marker out of sight of a `def`" % verb)
            return
        if isinstance(target, ast.Subscript) and (self.is_sys_state(target.value) or self.is_builtins(target.value) or self.is_builtins_dict(target.value)):
            shown = "sys." + self.resolve(target.value)[1] if self.is_sys_state(target.value) else "builtins"
            self.hit(node, "test-framework", "%s `%s[…]`" % (verb, shown))
        elif isinstance(target, ast.Attribute) and self.is_builtins(target.value):
            self.hit(node, "test-framework", "%s the builtin `%s`" % (verb, target.attr))
        elif isinstance(target, ast.Attribute) and self.is_sys_state(target):
            self.hit(node, "test-framework", "%s `sys.%s`" % (verb, self.resolve(target)[1]))
        elif isinstance(target, (ast.Attribute, ast.Subscript)) and self.is_assertion_target(target):
            self.hit(node, "test-framework", "%s a member of the test framework" % verb)
        elif isinstance(target, ast.Attribute) and target.attr in ("excepthook", "exitfunc") and self.is_module(target.value, "sys"):
            self.hit(node, "exit", "%s `sys.%s`" % (verb, target.attr))

    def visit_Assign(self, node):
        comparison_assign(self, node)
        for target in node.targets:
            if isinstance(target, ast.Attribute):
                comparison_set_later(self, node, target.value, ast.Constant(value=target.attr))
            self.check_target(node, target, "assigns")
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        self.check_target(node, node.target, "assigns")
        self.generic_visit(node)

    def visit_AnnAssign(self, node):
        if node.value is not None:
            self.check_target(node, node.target, "assigns")
        self.generic_visit(node)

    def visit_Delete(self, node):
        for target in node.targets:
            self.check_target(node, target, "deletes")
        self.generic_visit(node)


def is_main_guard(test):
    """Exactly `__name__ == "__main__"` (either side), nothing that could also be true under a test."""
    if not isinstance(test, ast.Compare) or len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s for s in sides if isinstance(s, ast.Name) and s.id == "__name__"]
    consts = [s for s in sides if isinstance(s, ast.Constant) and s.value == "__main__"]
    return len(names) == 1 and len(consts) == 1
