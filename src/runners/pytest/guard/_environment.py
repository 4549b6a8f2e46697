# The runner looked for in the environment (`runner_detected`, docs/design.md §3.2.7): code that is
# right only under test asks whether a runner's variable is set (PYTEST_CURRENT_TEST, PYTEST_VERSION;
# every runner's, src/runners/registry.ts RUNNER_VARIABLES, from the guard's context) or reads the
# environment the process started with (`/proc/self/environ`, _audit.py). The static check finds such
# a name in the added lines; this finds it however the name was made. `os.environ` and `os.environb`
# become instances of a subclass that watches them:
# - a read of a runner's variable by name (`os.environ[...]`, `.get`, `in`, `os.getenv`) that the
#   repository's code (not a test) made itself is an event; the standard library's frames between
#   them are passed over, pytest's and an installed package's own reads are not the code's;
# - a listing or a copy made by the code or a test (`for k in os.environ`, `dict(os.environ)`,
#   `.copy()`, `.items()`) leaves out the variables the runner set: an honest copy (a child's
#   environment) is the commonest listing there is, so a listing is no event, and what it would reveal
#   is not in it. A variable the project's code or tests set (`monkeypatch.setenv` in a test too)
#   stays listed, and reading it back is no event.
# Not seen: `os.environ._data` and `posix.environ` (the dictionaries underneath), `sys.argv`,
# `"pytest" in sys.modules`, and a package's read made for the code.
import os
import re
import sys

_getframe = sys._getframe
_STDLIB = os.path.dirname(os.__file__) + os.sep
KIND = "runner_detected"


# The environment and arguments a process started with, its own or another's (its parent, the runner),
# whatever the path's way there (`/proc/self/root/proc/1/environ`).
STARTED_WITH = re.compile(r"(^|/)proc/(self|thread-self|[0-9]+)(/task/[0-9]+)?/(environ|cmdline)$")


class Environment:
    """The watch: `install()` once the guard's own reads are done; `on_open` for each audited open."""

    def __init__(self, recorder, places, sources, given):
        patterns = []
        for source in sources if isinstance(sources, list) else []:
            try:
                patterns.append(re.compile(source))
            except (re.error, TypeError):
                pass
        # The variables the command was given are the operator's settings (PYTEST_ADDOPTS), not the runner's sign.
        settings = {g for g in given if isinstance(g, str)} if isinstance(given, list) else set()
        self.watch = _Watch(recorder, places, patterns, settings) if patterns else None

    def install(self):
        if self.watch is None:
            return
        for environ in (os.environ, getattr(os, "environb", None)):
            if environ is not None and type(environ) is os._Environ:
                environ._fixloop_runners = {environ.decodekey(k) for k in list(environ._data) if self.watch.is_runners(k)}
                environ._fixloop_projects = set()
                environ.__class__ = _watched_class(self.watch)

    def on_open(self, path):
        if self.watch is None or not isinstance(path, (str, bytes)):
            return
        text = os.path.normpath(path.decode("latin-1") if isinstance(path, bytes) else path)
        if STARTED_WITH.search(text):
            # A process id varies from run to run: the detail must not, to be compared with the baseline's.
            read = re.sub(r"/[0-9]+(?=/)", "/<pid>", text[text.rfind("proc/"):])
            self.watch.note("read /%s, what a process started with" % read)


class _Watch:
    def __init__(self, recorder, places, patterns, settings):
        self.recorder = recorder
        self.places = places
        self.patterns = patterns
        self.settings = settings

    def is_runners(self, key):
        if isinstance(key, bytes):
            key = key.decode("latin-1")
        return isinstance(key, str) and key not in self.settings and any(p.match(key) for p in self.patterns)

    def _maker(self):
        """The first frame that is not the guard's nor the standard library's (which `os.getenv`,
        `Mapping.get`, `in` and `pathlib` go through), or None."""
        frame = _getframe(2)
        while frame is not None:
            name = frame.f_code.co_filename
            if name.startswith(self.places.guard) or name.startswith("<frozen ") or (name.startswith(_STDLIB) and "-packages" not in name):
                frame = frame.f_back
                continue
            return frame
        return None

    def named(self, environ, key):
        if self.is_runners(key) and key not in environ._fixloop_projects:
            name = key.decode("latin-1") if isinstance(key, bytes) else key
            self.note("read the runner's variable %s from the environment" % name)

    def note(self, detail):
        """An event, where the repository's code (not a test) made the call itself."""
        frame = self._maker()
        if frame is None:
            return
        kind = self.places.kind(frame.f_code.co_filename)
        made = self.places._made(frame.f_code, kind)
        if made is not None:
            self.recorder.event(KIND, made[0], made[1], detail)
        elif kind == "source":
            self.recorder.event(KIND, self.places.relative(frame.f_code.co_filename), frame.f_lineno, detail)

    def by_machinery(self):
        """Whether the listing was made by pytest, a package, or the guard (not the code, nor a test)."""
        frame = self._maker()
        return frame is None or self.places.kind(frame.f_code.co_filename) not in ("source", "test")

    def by_project(self):
        """Whether the code or a test is anywhere on the stack (a test's `monkeypatch.setenv` too)."""
        frame = _getframe(2)
        while frame is not None:
            if self.places.kind(frame.f_code.co_filename) in ("source", "test"):
                return True
            frame = frame.f_back
        return False


def _watched_class(watch):
    class WatchedEnviron(os._Environ):
        # No slots of its own: an instance's class can be swapped in place, so every reference to
        # `os.environ` taken before the guard loaded is watched too.
        def __getitem__(self, key):
            watch.named(self, key)
            return os._Environ.__getitem__(self, key)

        def __setitem__(self, key, value):
            if watch.is_runners(key):
                project = watch.by_project()
                (self._fixloop_projects if project else self._fixloop_runners).add(key)
                (self._fixloop_runners if project else self._fixloop_projects).discard(key)
            os._Environ.__setitem__(self, key, value)

        def __iter__(self):
            hidden = self._fixloop_runners if not watch.by_machinery() else ()
            for key in os._Environ.__iter__(self):
                if key not in hidden:
                    yield key

        def __len__(self):
            return len(list(self.__iter__())) if self._fixloop_runners else os._Environ.__len__(self)

    WatchedEnviron.__name__ = "_Environ"
    WatchedEnviron.__qualname__ = "_Environ"
    return WatchedEnviron
