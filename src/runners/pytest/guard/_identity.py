# Identity checks: setting an attribute of an ordinary class or module raises no audit event, so a
# replaced `Function.runtest` or `TestCase.assertEqual` is only seen by comparing, at moments the
# guard chooses, every callable of pytest, pluggy and unittest with what it was when the guard
# loaded (before any repository code). A change is named after where the new value's code comes
# from: a repository file and line, or the repository line that ran the string that defined it. A change
# whose new value a test file or a conftest.py defines is the tests' own (monkeypatch), and one whose
# code is installed (pytest's legacypath, a plugin) is not the repository's: neither is an event. A
# new value whose code cannot be placed (a builtin, a partial of one) is. The hooks `threading` gives
# every thread started later are watched the same way.
import gc
import inspect
import sys
import types
from itertools import repeat
from operator import is_not

PREFIXES = ("_pytest", "pytest", "pluggy", "unittest")
# The modules that decide a test's outcome and how it is reported (not pytest's paths, terminal
# writer, capture or logging): fewer entries make each check cheaper (docs/benchmarks.md).
WATCHED = {
    "pytest", "_pytest.python", "_pytest.runner", "_pytest.reports", "_pytest.main", "_pytest.terminal",
    "_pytest.junitxml", "_pytest.outcomes", "_pytest.python_api", "_pytest.raises", "_pytest.approx",
    "_pytest.assertion", "_pytest.assertion.rewrite", "_pytest.assertion.util", "_pytest.fixtures",
    "_pytest.skipping", "_pytest.unittest", "_pytest.nodes", "_pytest.warnings", "_pytest.recwarn",
    "pluggy", "pluggy._hooks", "pluggy._callers", "pluggy._manager", "pluggy._result",
    "unittest", "unittest.case", "unittest.result", "unittest.suite",
}
# Checked again just before each test's report is made: the path from the test's call to its report.
CRITICAL = ("_pytest.runner.", "_pytest.reports.", "_pytest.python.Function.", "_pytest.skipping.", "pluggy._callers.", "pluggy._hooks.", "pluggy._result.")
# Of the special methods, those through which a test's outcome can be changed.
SPECIAL = {"__init__", "__new__", "__call__", "__eq__", "__ne__", "__bool__", "__enter__", "__exit__", "__getattr__", "__getattribute__", "__init_subclass__"}


def _member(name):
    return not name.startswith("__") or name in SPECIAL


def _ours(value, module):
    return getattr(value, "__module__", None) == module


def _watched(value):
    return isinstance(value, (types.FunctionType, types.BuiltinFunctionType, property, classmethod, staticmethod, type))


# What `threading.settrace` and `threading.setprofile` set, for every thread started later: such a
# function sees the tests' frames as `sys.settrace` does (_audit.py), but no audit event is raised
# until a thread starts, and then from threading's own code, which names no repository file.
THREAD_HOOKS = ("_trace_hook", "_profile_hook")


def snapshot():
    """[(namespace, label, name, value)] for every callable the watched modules hold, and every member of the classes they define."""
    __import__("unittest")  # loaded now, so that what it defines is watched
    threading = __import__("threading")
    entries = [(vars(threading), "threading.%s" % name, name, vars(threading).get(name)) for name in THREAD_HOOKS if name in vars(threading)]
    for module_name, module in list(sys.modules.items()):
        if module is None or module_name not in WATCHED:
            continue
        for name, value in list(vars(module).items()):
            if _watched(value) and str(getattr(value, "__module__", "")).split(".")[0] in PREFIXES:
                entries.append((vars(module), "%s.%s" % (module_name, name), name, value))
                if isinstance(value, type) and _ours(value, module_name):
                    entries.extend(_members(value, "%s.%s" % (module_name, name)))
    return entries


def _members(cls, label):
    # The class's own dict behind its read-only proxy: dict.get is several times faster.
    members = gc.get_referents(vars(cls))[0]
    return [(members, "%s.%s" % (label, name), name, item) for name, item in list(members.items()) if _member(name) and (callable(item) or isinstance(item, (property, classmethod, staticmethod)))]


class Identities:
    def __init__(self, recorder, places, dynamic):
        # Flat lists (namespace dicts, names, values, labels), so that a check is one loop in C
        # (is_not: never an __eq__ that could be made to say yes).
        entries = snapshot()
        self.all = _columns(entries)
        self.critical = _columns([e for e in entries if e[1].startswith(CRITICAL)])
        self.recorder = recorder
        self.places = places
        self.dynamic = dynamic

    def check(self, critical_only=False):
        namespaces, names, values, labels = self.critical if critical_only else self.all
        if not any(map(is_not, map(dict.get, namespaces, names, repeat(_GONE)), values)):
            return
        for index, namespace in enumerate(namespaces):
            new = namespace.get(names[index], _GONE)
            if new is not values[index]:
                values[index] = new
                self._report(labels[index], new)

    def _report(self, label, new):
        if new is None and label.startswith("threading."):
            return  # a thread hook taken off: nothing sees the tests' frames any more
        if new is _GONE:
            self.recorder.event("framework_changed", None, None, "`%s` deleted" % label)
            return
        filename, line, code = _origin(new)
        kind = self.places.kind(filename) if filename else None
        if kind in ("test", "other"):
            return  # the tests' own monkeypatching, or pytest's and installed plugins' (legacypath)
        if kind == "source":
            self.recorder.event("framework_changed", self.places.relative(filename), line, "`%s` replaced" % label)
        elif kind == "dynamic" and code in self.dynamic:
            file, at, _through = self.dynamic[code]
            self.recorder.event("framework_changed", file, at, "`%s` replaced by code run from a string" % label)
        else:
            self.recorder.event("framework_changed", None, None, "`%s` replaced" % label)


class _Gone:
    pass


_GONE = _Gone()


def _origin(value):
    """The file and line of the code behind a callable (a partial's, a bound method's, a class's)."""
    for _ in range(4):
        value = getattr(value, "__func__", None) or getattr(value, "func", None) or getattr(value, "fget", None) or value
        code = getattr(value, "__code__", None)
        if code is not None:
            return code.co_filename, code.co_firstlineno, code
        if isinstance(value, type):
            try:
                return inspect.getsourcefile(value), None, None
            except TypeError:
                return None, None, None
    return None, None, None


def _columns(entries):
    return ([e[0] for e in entries], [e[2] for e in entries], [e[3] for e in entries], [e[1] for e in entries])
