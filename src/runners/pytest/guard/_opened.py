# The test files by what they are, not by the name code gives them (docs/design.md §3.2.7): each
# test file's device and inode, taken when the guard loads (before any repository code runs) and for
# the modules pytest collects. A file opened under any other name that reaches the same file (a path
# through /proc/self/root or /proc/self/cwd, `..`, a symlink or a hard link the code made, a
# descriptor) has the same device and inode. The `open` audit event carries no `dir_fd`, so a name
# relative to a directory the code opened (`os.open(name, flags, dir_fd=fd)`) is also tried against
# each directory the code opened with `os.open` (a builtin `open` cannot open one). One `stat` and a
# set lookup an open: the import system opens every module it loads.
import os
import stat

MAX_DIRECTORIES = 32


class Opened:
    def __init__(self, root, test_files):
        self.root = os.path.realpath(root) + os.sep
        self.tests = {}  # (device, inode) -> the test file, relative to the root
        self.directories = []  # real paths of the directories opened with os.open, in order
        for name in test_files:
            self.add(os.path.join(self.root, name))

    def add(self, path):
        try:
            found = os.stat(path)
        except (OSError, ValueError):
            return
        if stat.S_ISREG(found.st_mode):
            full = os.path.realpath(path)
            self.tests[(found.st_dev, found.st_ino)] = full[len(self.root):] if full.startswith(self.root) else full

    def reached(self, target):
        """The test file (relative) an `open` of `target` reaches (a path or a descriptor), or None."""
        if not self.tests:
            return None
        # As open resolves it (against the working folder of the moment): one system call, no Python path work.
        try:
            found = os.fstat(target) if isinstance(target, int) else os.stat(target)
        except (OSError, TypeError, ValueError):
            found = None
        if found is not None:
            test = self.tests.get((found.st_dev, found.st_ino))
            if test is not None:
                return test
            if stat.S_ISDIR(found.st_mode):
                self._directory(target)
                return None
        # A file of that name here too does not say which folder the open was relative to.
        if self.directories and not isinstance(target, int):
            return self._relative(target)
        return None

    def _of(self, found):
        return self.tests.get((found.st_dev, found.st_ino))

    def _directory(self, path):
        full = os.path.realpath(os.fsdecode(os.fspath(path)))
        if full not in self.directories and len(self.directories) < MAX_DIRECTORIES:
            self.directories.append(full)

    def _relative(self, target):
        """A name that reaches no file from the working folder, tried in each folder the code opened."""
        try:
            path = os.fsdecode(os.fspath(target))
        except (TypeError, ValueError):
            return None
        if os.path.isabs(path):
            return None
        for folder in self.directories:
            try:
                test = self._of(os.stat(os.path.join(folder, path)))
            except (OSError, ValueError):
                continue
            if test is not None:
                return test
        return None
