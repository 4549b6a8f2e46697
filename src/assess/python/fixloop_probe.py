"""fixloop's Python probe runtime (docs/design.md §3.3), loaded by the header of each instrumented file.

`probe(id, record_file)` decorates a function a patch changed: every call the test suite makes is
appended to `record_file` as one JSON line (args, out, after, site); after each such call with an
argument of plain data, the function is also called on inputs generated around those arguments (kind
"generated", with the suite call as `base`): the plain ones varied, the others (a method's receiver,
an object of a class) held, each call given its own deep copy of them (see _base). The records of
the original and the patched program are then compared by fixloop. A probe failure never changes
what the program does: every step is guarded, and on an internal error the function is just called.
Its parts live beside it, each loaded once per process by path under a private module name (the
folder is not on sys.path), each fixloop_probe_<part>.py: canon (the canonical text of values),
inputs (the generated inputs; a string's in strings), generation (whether this run generates them),
path (the lines a call runs) and replay (arguments as exact data, for the look from outside the
runner). Stdlib only.
"""
import copy
import functools
import hashlib
import importlib.util
import inspect
import json
import os
import re
import sys
import threading
import time

def _load(part):
    """fixloop_probe_<part>.py from this file's folder, registered before it runs (as the header does)."""
    name = "_fixloop_probe_" + part
    module = sys.modules.get(name)
    if module is None:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixloop_probe_%s.py" % part)
        module = importlib.util.module_from_spec(importlib.util.spec_from_file_location(name, path))
        sys.modules[name] = module
        try:
            module.__spec__.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
    return module

# Canonical text, paths and strings first: the inputs module takes them from sys.modules.
_canon, _paths, _strings = _load("canon"), _load("path"), _load("strings")
_inputs, _replay, _generation = _load("inputs"), _load("replay"), _load("generation")
canon, args_text = _canon.canon, _canon.args_text

BASES_PER_FUNCTION = 25
# A held argument copied slower than this (a receiver that holds a whole document) is not copied again
# for that function: its suite calls would pay it once per generated input.
HELD_COPY_S = 0.05
# A hot function must not slow the suite down or fill the disk: calls looked at, distinct records kept.
CALLS_PER_FUNCTION, SUITE_PER_FUNCTION = 20000, 5000
_PHASE = re.compile(r" \((setup|call|teardown)\)$")
_local = threading.local()
_lock = threading.Lock()
_written = set()

# --- records ----------------------------------------------------------------------------------
class _Function(object):
    def __init__(self, fn_id, record_file, fn):
        code = getattr(fn, "__code__", None)
        self.id, self.record_file, self.fn, self.code = fn_id, record_file, fn, code
        self.file = code.co_filename if code else None
        # Set when a held argument was slow to copy, or the inputs around one ran over HELD_S
        # (fixloop_probe_inputs.py): generation then needs every argument plain.
        self.heavy = False
        self.bases, self.suite_keys, self.generated, self.none_at = set(), set(), set(), set()
        self.calls, self.suite_records, self.stopped = 0, 0, False
        self.params = code.co_varnames[: code.co_argcount] if code else ()
        self.values, self.pickle = None, _replay.Budget()
        # How the look from outside the runner makes a call again, and its leave to pickle (fixloop_probe_replay.py).
        self.top_level, self.class_name = _replay.shape(fn_id.rsplit("#", 1)[-1])
        self.generates = _generation.generates(os.path.dirname(record_file), fn_id.rsplit("#", 1)[-1])

    def name(self, slot):
        """A positional slot by its parameter's name, so that f(1, None) and f(1, b=None) agree."""
        return self.params[slot] if isinstance(slot, int) and slot < len(self.params) else slot

def _write(fn, record):
    line = (json.dumps(record) + "\n").encode("utf-8")
    digest = hashlib.sha1(line).digest()
    with _lock:
        if digest in _written or (record["kind"] == "suite" and fn.suite_records >= SUITE_PER_FUNCTION):
            return
        _written.add(digest)
        fn.suite_records += record["kind"] == "suite"
    # One write of one line with O_APPEND: several processes (xdist) may share the file.
    fd = os.open(fn.record_file, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line)
    finally:
        os.close(fd)

def _site(fn):
    test = os.environ.get("PYTEST_CURRENT_TEST")
    if test:
        return _PHASE.sub("", test)
    frame = sys._getframe(1)
    while frame is not None:
        name = frame.f_code.co_filename
        if name not in (__file__, fn.file):
            try:
                name = os.path.relpath(name)
            except ValueError:
                pass
            return "%s:%d" % (name.replace(os.sep, "/"), frame.f_lineno)
        frame = frame.f_back
    return None

def _thread():
    local = _local
    if not hasattr(local, "busy"):
        local.busy, local.depth, local.pending = False, 0, []
    return local

def _begin(fn, args, kwargs, nested):
    """(thread state, (args text, copy for generation or None)); (None, None): just call."""
    try:
        local = _thread()
        if local.busy or fn.calls >= CALLS_PER_FUNCTION:
            return None, None
        fn.calls += 1
        local.busy = True
        try:
            text = args_text(args, kwargs)
            # What the arguments hold, to tell what the call did to them (args_text shows an object by its repr).
            state = _canon.state_text(args, kwargs)
            slots = [(i, a) for i, a in enumerate(args)] + list(kwargs.items())
            fn.none_at.update(fn.name(k) for k, x in slots if x is None)
            wanted = nested and not fn.stopped and text not in fn.bases
            wanted = wanted and len(fn.bases) < BASES_PER_FUNCTION and _inputs.totals["generated"] < _inputs.PER_PROCESS
            base = _base(fn, slots, args, kwargs) if wanted else None
            # Synchronous calls only (what a generator gave depends on who drew it); busy, as a pickle runs __reduce__.
            replay = _replay.replay_of(fn.top_level, fn.class_name, args, kwargs, fn.pickle) if nested else {}
        finally:
            local.busy = False
        local.depth += nested
        return local, (text, base, state, replay)
    except Exception:
        return None, None

def _base(fn, slots, args, kwargs):
    """A deep copy of the call to generate around, or None. The plain arguments are varied; the others
    (a method's `self`, a parser's state, a node) are held as they were before the call, copied with
    their class, since what a method does depends on its receiver: `render(self, text)` is compared at
    other texts on the same renderer. Nothing plain to vary, or a held argument that cannot be copied
    (a lock, a socket, a generator) or is slow to copy: None."""
    plain = [_inputs.plain(x) for _, x in slots]
    if not any(plain) or (fn.heavy and not all(plain)):
        return None
    start = time.monotonic()
    try:
        base = copy.deepcopy((tuple(args), dict(kwargs)))
    except Exception:
        return None
    if not all(plain) and time.monotonic() - start > HELD_COPY_S:
        fn.heavy = True
    return base

def _finish(fn, local, before, args, kwargs, result, error, nested, path=None):
    try:
        local.depth -= nested
        local.busy = True
        try:
            text, base, state, replay = before
            record = {"fn": fn.id, "args": text, "kind": "suite"}
            record.update(replay)
            record["out"] = {"threw": _canon.error_text(error)} if error is not None else {"returned": canon(result, returned=True)}
            if path is not None:
                record["path"] = path
            after = _canon.state_text(args, kwargs)
            if after != state:
                record["after"] = after
            site = _site(fn)
            if site:
                record["site"] = site
            fn.suite_keys.add(text)
            _write(fn, record)
            if fn.generates and base is not None and text not in fn.bases and len(fn.bases) < BASES_PER_FUNCTION:
                fn.bases.add(text)
                local.pending.append((fn, text, base))
        finally:
            local.busy = False
        # Generated calls wait for the outermost probed call: none runs inside a suite call.
        if local.depth == 0 and local.pending:
            _inputs.drain(local, _write)
    except Exception:
        pass

# --- the decorator ----------------------------------------------------------------------------
def probe(fn_id, record_file, values=None):
    """`values`: what the patches' changed lines name, as JSON (change-values.ts), for generated inputs."""
    def decorate(fn):
        try:
            if inspect.isasyncgenfunction(fn):
                return fn
            state = _Function(fn_id, record_file, fn)
            state.values = json.loads(values) if values else None
            if inspect.isgeneratorfunction(fn):
                return _wrap_generator(fn, state)
            return _wrap_async(fn, state) if inspect.iscoroutinefunction(fn) else _wrap(fn, state)
        except Exception:
            return fn
    return decorate

def _wrap(fn, state):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        local, before = _begin(state, args, kwargs, True)
        if before is None:
            return fn(*args, **kwargs)
        path = _paths.Path(state.code)
        try:
            with path:
                result = fn(*args, **kwargs)
        except BaseException as error:
            _finish(state, local, before, args, kwargs, None, error, True, path.lines)
            raise
        _finish(state, local, before, args, kwargs, result, None, True, path.lines)
        return result
    return wrapper

def _wrap_async(fn, state):
    # Suite records only: a coroutine's calls interleave on one thread, so no depth, no generation.
    @functools.wraps(fn)
    async def wrapper(*args, **kwargs):
        local, before = _begin(state, args, kwargs, False)
        if before is None:
            return await fn(*args, **kwargs)
        try:
            result = await fn(*args, **kwargs)
        except BaseException as error:
            _finish(state, local, before, args, kwargs, None, error, False)
            raise
        _finish(state, local, before, args, kwargs, result, None, False)
        return result
    return wrapper

# --- generators -------------------------------------------------------------------------------
# A generator's call returns at once, before its body ran: what it does is what it yields. Its record
# is written when it is over (its end, an error, or its consumer closing it), with the values its
# consumer drew, as drawn: nothing is drawn that the program would not have drawn, so a lazy or an
# endless generator behaves as it did. Suite records only (generated calls would have to drain it).
YIELDED_KEPT = 200

class Yielded(object):
    """What a generator gave: the values drawn from it, what it returned, whether it was closed before its end."""

    def __init__(self, values, returned, stopped):
        self.values = values
        if returned is not None:
            self.returned = returned
        if stopped:
            self.stopped = True

class _Drawn(object):
    """The generator behind `yield from`, keeping what is drawn; send, throw and close pass through."""

    def __init__(self, gen):
        self.gen, self.values = gen, []

    def __iter__(self):
        return self

    def _keep(self, value):
        if len(self.values) < YIELDED_KEPT:
            self.values.append(value)
        return value

    def __next__(self):
        return self._keep(next(self.gen))

    def send(self, value):
        return self._keep(self.gen.send(value))

    def throw(self, *error):
        return self._keep(self.gen.throw(*error))

    def close(self):
        return self.gen.close()

def _wrap_generator(fn, state):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        local, before = _begin(state, args, kwargs, False)
        if before is None:
            return (yield from fn(*args, **kwargs))
        drawn = _Drawn(fn(*args, **kwargs))
        try:
            result = yield from drawn
        except GeneratorExit:
            _finish(state, local, before, args, kwargs, Yielded(drawn.values, None, True), None, False)
            raise
        except BaseException as error:
            _finish(state, local, before, args, kwargs, None, error, False)
            raise
        _finish(state, local, before, args, kwargs, Yielded(drawn.values, result, False), None, False)
        return result
    return wrapper
