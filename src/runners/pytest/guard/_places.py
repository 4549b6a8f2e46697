# Where code comes from: a repository file that is a test (or a conftest.py, which fixloop's static
# check protects), another repository file (the code under test), code run from a string, or
# anything else (Python, pytest, installed packages, the guard itself). Code a repository file ran
# from a string, or made under another file's name (`code.replace(co_filename=...)`), is that file's
# (_audit.py maps it). In a judged run a conftest.py
# is the tests' only when the judge lists it (those at the baseline the patch did not change): one
# the patch added is the code's. The caller of an audited
# action is the innermost repository frame on the stack; code run from a string stands for the
# repository file that ran it.
import os
import sys

TEST, SOURCE, DYNAMIC, OTHER = "test", "source", "dynamic", "other"
# A caller that could not be placed: code from a string that no repository file is known to have run
# stands between the action and a test (what a patch's code made unplaceable, or a test's own exec).
UNKNOWN = (None, None, True)
# Bound at load, before any code of the repository runs: a `sys._getframe` replaced later hides nothing.
_getframe = sys._getframe


class Places:
    def __init__(self, root, test_files, exempt=None):
        self.root = os.path.realpath(root) + os.sep
        self.conftests = None if exempt is None else {os.path.join(self.root, f) for f in exempt}
        self.cwd = os.getcwd()
        self.tests = {os.path.join(self.root, f) for f in test_files}
        self.names = {os.path.basename(f) for f in test_files}
        self.guard = os.path.dirname(os.path.abspath(__file__)) + os.sep
        self.cache = {}
        # Code run from a string -> the repository file and line that ran it (_audit.py).
        self.dynamic = {}
        # (file name, bytecode) of code a repository file made under another name -> that file and line.
        self.disguised = {}

    def add_test(self, path):
        """A module pytest collected as a test module is a test file too."""
        full = os.path.realpath(path)
        self.tests.add(full)
        self.names.add(os.path.basename(full))
        self.cache.clear()

    def kind(self, filename):
        known = self.cache.get(filename)
        if known is not None:
            return known
        if filename.startswith("<"):
            found = DYNAMIC
        else:
            full = os.path.realpath(os.path.join(self.cwd, filename))
            if not full.startswith(self.root) or full.startswith(self.guard) or "/site-packages/" in full:
                found = OTHER
            elif not os.path.isfile(full):
                found = DYNAMIC  # a name given to compile(), not a file
            elif full in self.tests or self._conftest(full):
                found = TEST
            else:
                found = SOURCE
        self.cache[filename] = found
        return found

    def _conftest(self, full):
        if os.path.basename(full) != "conftest.py":
            return False
        return self.conftests is None or full in self.conftests

    def _made(self, code, kind):
        """The repository file and line that made this code under a name not its own, or None."""
        if kind == DYNAMIC:
            return self.dynamic.get(code)
        if self.disguised and kind != SOURCE:
            return self.disguised.get((code.co_filename, code.co_code))
        return None

    def relative(self, filename):
        full = os.path.realpath(os.path.join(self.cwd, filename))
        return full[len(self.root):] if full.startswith(self.root) else filename

    def is_test_path(self, path):
        """`path` (as given to open) names a test file: checked by name first, it is on every open."""
        if not isinstance(path, str) or os.path.basename(path) not in self.names:
            return False
        return os.path.realpath(os.path.join(self.cwd, path)) in self.tests

    def caller(self, depth, strict=False):
        """(file, line, through) of the innermost repository frame, or None when a test (or nothing of the repository) is the caller.

        With `strict`, UNKNOWN where code from a string that no repository file is known to have run
        (importlib's frozen modules aside) stands between the action and a test."""
        frame = _getframe(depth + 1)
        through = False
        unplaced = False
        while frame is not None:
            code = frame.f_code
            kind = self.kind(code.co_filename)
            made = self._made(code, kind)
            if made is not None:
                return (made[0], made[1], True)
            if kind == DYNAMIC:
                through = True
                unplaced = unplaced or not code.co_filename.startswith("<frozen ")
            elif kind == TEST:
                return UNKNOWN if strict and unplaced else None
            elif kind == SOURCE:
                return (self.relative(frame.f_code.co_filename), frame.f_lineno, through)
            frame = frame.f_back
        return None
