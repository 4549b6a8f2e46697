# The routes below `open` and beside it (docs/design.md §3.2.7), each an event when a repository file
# that is not a test takes it itself (the first frame outside the machinery it goes through: a
# dependency's or the standard library's own use is not the code's):
# - the C library through ctypes (`native_library`): libc (or the program itself) loaded, or a file or
#   process function looked up in a library, whose calls no audit event sees;
# - an import loader handed a test module's source (`loader_hook`): the source compiled by a loader
#   of the code's own (its `source_to_code`, `get_code` or `exec_module`), and an import hook that a
#   repository file defines found in `sys.meta_path` or `sys.path_hooks` at a test's end (inserting
#   one raises no audit event);
# - a child process given an environment that drops the guard (`child_unguarded`): PYTEST_ADDOPTS
#   without the guard's `-p`, or PYTHONPATH without its folder, where this process had both. A child
#   that inherits the environment, or is given a copy of it, is not;
# - a child of any program whose command line names a test file (`test_file_read`): the guard cannot
#   follow a program that is not Python (`cat tests/test_a.py`), and such a child reads the tests; so
#   does one that reads a folder holding them, or the committed files through git (_child_reads.py).
import os
import re
import subprocess
import sys

from ._child_reads import child_reads_tests

_getframe = sys._getframe
_STDLIB = os.path.dirname(os.__file__) + os.sep
_CTYPES = os.path.join(os.path.dirname(os.__file__), "ctypes") + os.sep
_SPAWNERS = {subprocess.__file__, os.__file__}
# What libc does that no audit event follows once called through ctypes.
FILE_FUNCTIONS = {
    "open", "open64", "openat", "openat64", "fopen", "fopen64", "freopen", "fdopen", "read", "pread",
    "pread64", "readv", "preadv", "fread", "fgets", "getline", "mmap", "mmap64", "syscall", "sendfile",
    "sendfile64", "copy_file_range", "splice", "execve", "execv", "execvp", "execvpe", "system",
    "posix_spawn", "posix_spawnp", "fork", "vfork", "popen", "dlopen",
}
LIBC = re.compile(r"(^|/)libc(\.so(\.[0-9]+)*)?$|^c$")
# The frames of the standard import machinery between a loader and the compile it asks for.
_IMPORT_STEPS = {"_call_with_frames_removed", "source_to_code", "get_code"}


class Routes:
    def __init__(self, recorder, places, opened, package):
        self.recorder = recorder
        self.places = places
        self.opened = opened
        self.seen_hooks = set()
        here = os.path.dirname(os.path.abspath(__file__))
        self.plugin = "-p " + package
        self.folder = os.path.dirname(here)
        # The guard reaches a child only where this process itself was reached by both.
        self.expected = self.plugin in os.environ.get("PYTEST_ADDOPTS", "") and self._on_path(os.environ)

    def _on_path(self, env):
        return self.folder in _text(env.get("PYTHONPATH", "")).split(os.pathsep)

    def _event(self, kind, where, detail):
        self.recorder.event(kind, where[0], where[1], detail)

    def _direct(self, skip):
        """(file, line) of the repository file that made the audited call itself, skipping the guard's
        frames and those `skip(frame)` names; None when the first other frame is not the code's."""
        frame = _getframe(1)
        while frame is not None:
            name = frame.f_code.co_filename
            if name.startswith(self.places.guard) or skip(frame):
                frame = frame.f_back
                continue
            kind = self.places.kind(name)
            if kind == "source":
                return (self.places.relative(name), frame.f_lineno)
            if kind != "dynamic" or name.startswith("<frozen"):
                return None
            frame = frame.f_back  # code from a string stands for what ran it
        return None

    def on_ctypes(self, event, args):
        if event == "ctypes.dlopen":
            name = args[0] if args else None
            if name is not None and not LIBC.search(_text(name)):
                return
            what = "loaded the C library through ctypes (`%s`)" % (_text(name) if name is not None else "the program itself")
        else:
            symbol = _text(args[1]) if len(args) > 1 else ""
            if symbol not in FILE_FUNCTIONS:
                return
            what = "looked up `%s` in a C library through ctypes" % symbol
        where = self._direct(lambda frame: frame.f_code.co_filename.startswith(_CTYPES))
        if where:
            self._event("native_library", where, what)

    def on_compile(self, args):
        filename = args[1] if len(args) > 1 else None
        if not isinstance(filename, (str, bytes)) or _text(filename).startswith("<"):
            return
        test = self.opened.reached(filename)
        if test is None:
            return

        def step(frame):
            return frame.f_code.co_filename.startswith("<frozen importlib") and frame.f_code.co_name in _IMPORT_STEPS

        where = self._direct(step)
        if where:
            self._event("loader_hook", where, "compiled the test file `%s` in an import loader of its own" % test)

    def on_child(self, event, args):
        self._names_test(event, args)
        if not self.expected:
            return
        env = args[3] if event == "subprocess.Popen" and len(args) > 3 else args[2] if event == "os.posix_spawn" and len(args) > 2 else None
        env = os.environ if env is None else env
        kept = self.plugin in _variable(env, "PYTEST_ADDOPTS") and self._on_path({"PYTHONPATH": _variable(env, "PYTHONPATH")})
        if kept:
            return
        where = self._direct(lambda frame: frame.f_code.co_filename in _SPAWNERS)
        what = "started `%s` with an environment without the guard's PYTEST_ADDOPTS and PYTHONPATH" % _program(event, args)[:120]
        if where:
            self._event("child_unguarded", where, what)
        elif self._unplaced():
            # Counted, never nobody's: a thread whose every frame is the standard library's (a Thread
            # or Timer whose target is subprocess.run itself) cannot say who started it.
            self._event("child_unguarded", (None, None), what + ": could not tell who started it")

    def _names_test(self, event, args):
        line = _command_line(event, args)
        named = next((t for t in sorted(self.places.tests) if t in line or self.places.relative(t) in line), None)
        if named is not None:
            what = "the test file %s on its command line" % self.places.relative(named)
        else:
            cwd = args[2] if event == "subprocess.Popen" and len(args) > 2 and args[2] is not None else os.getcwd()
            what = child_reads_tests(line, _text(cwd), self.places.root, self.places.tests)
        if what is None:
            return
        where = self._direct(lambda frame: frame.f_code.co_filename in _SPAWNERS)
        if where:
            self._event("test_file_read", where, "started `%s` with %s" % (_program(event, args)[:120], what))

    def _unplaced(self):
        """Whether no frame on the stack is the repository's or an installed package's (pytest, a plugin)."""
        frame = _getframe(1)
        while frame is not None:
            name = frame.f_code.co_filename
            kind = self.places.kind(name)
            if kind in ("source", "test"):
                return False
            installed = "/site-packages/" in name or "/dist-packages/" in name or not name.startswith(_STDLIB)
            if kind == "other" and installed and not name.startswith(self.places.guard):
                return False
            frame = frame.f_back
        return True

    def check_hooks(self):
        """Import hooks a repository file defines, in sys.meta_path or sys.path_hooks (at a test's end)."""
        for place, hooks in (("sys.meta_path", sys.meta_path), ("sys.path_hooks", sys.path_hooks)):
            for hook in list(hooks):
                if id(hook) in self.seen_hooks:
                    continue
                self.seen_hooks.add(id(hook))
                for code in _codes_of(hook):
                    if self.places.kind(code.co_filename) == "source":
                        where = (self.places.relative(code.co_filename), code.co_firstlineno)
                        self._event("loader_hook", where, "installed the import hook `%s` (%s)" % (_name(hook), place))
                        break


def _codes_of(hook):
    """The code objects that make up an import hook: its class's methods, or the function and the loader
    classes its closure holds (a FileFinder.path_hook of the code's loaders)."""
    found = []
    items = [hook]
    cells = getattr(hook, "__closure__", None) or ()
    for cell in cells:
        try:
            content = cell.cell_contents
        except ValueError:
            continue
        items.extend(c for details in (content if isinstance(content, (tuple, list)) else (content,)) for c in (details if isinstance(details, tuple) else (details,)) if isinstance(c, type))
    for item in items:
        code = getattr(item, "__code__", None)
        if code is not None:
            found.append(code)
            continue
        cls = item if isinstance(item, type) else type(item)
        for klass in cls.__mro__[:-1]:
            found.extend(v.__code__ for v in vars(klass).values() if hasattr(v, "__code__"))
    return found


def _program(event, args):
    """What the child runs, as the audit event gives it (Popen's executable is often None: its args then)."""
    if event != "subprocess.Popen" or args[0] is not None:
        return _text(args[0])
    command = args[1] if len(args) > 1 else None
    if isinstance(command, (list, tuple)) and command:
        return _text(command[0])
    return _text(command)


def _command_line(event, args):
    """The child's program and arguments as one text (Popen: (executable, args, ...); posix_spawn: (path, argv, env))."""
    given = args[1] if len(args) > 1 else None
    words = list(given) if isinstance(given, (list, tuple)) else [given]
    return " ".join(_text(w) for w in [args[0] if args else None] + words if w is not None)


def _name(hook):
    return getattr(hook, "__qualname__", None) or type(hook).__qualname__


def _variable(env, name):
    """A variable of an environment given to a child, whose keys may be text or bytes; '' when absent."""
    for key in (name, os.fsencode(name)):
        try:
            value = env.get(key)
        except (AttributeError, TypeError, ValueError):
            continue  # os.environ takes text keys only; a mapping of another kind
        if value is not None:
            return _text(value)
    return ""


def _text(value):
    return os.fsdecode(value) if isinstance(value, (str, bytes)) else str(value)
