"""fixloop's Python probe runtime (DESIGN.md 3.3), loaded by the header of each instrumented file.

`probe(id, record_file)` decorates a function a patch changed: every call the test suite makes is
appended to `record_file` as one JSON line (args, out, after, site); after each such call whose
arguments are plain data, and the function not a method, the function is also called on inputs
generated around those arguments (kind "generated", with the suite call as `base`). The records of
the original and the patched program are then compared by fixloop. A probe failure never changes
what the program does: every step is guarded, and on an internal error the function is just called.
Standard library only; Python 3.8+.
"""
import copy
import functools
import hashlib
import inspect
import io
import json
import os
import re
import signal
import sys
import threading
import time
import types
import warnings

MAX_TEXT, KEEP_TEXT, MAX_DEPTH, MAX_ITEMS = 400, 380, 4, 200
PER_CALL, BASES_PER_FUNCTION, PER_PROCESS = 40, 25, 4000
# A hot function must not slow the suite down or fill the disk: calls looked at, distinct records kept.
CALLS_PER_FUNCTION, SUITE_PER_FUNCTION = 20000, 5000
# A generated call may hang (an input the function loops on); its time is bounded where a timer is
# safe (see _timer_free), and all generated calls of one process share a budget.
CALL_LIMIT_S, PROCESS_BUDGET_S = 1.0, 120.0
SEPARATORS = ["/", "\\", ".", ",", ":", " ", '"', "'", "\n", "%"]
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
_PHASE = re.compile(r" \((setup|call|teardown)\)$")
_HERE = __file__
_local = threading.local()
_lock = threading.Lock()
_written = set()
_totals = {"generated": 0, "spent": 0.0}
_armed = [False]

class _Timeout(BaseException):
    """Raised by the alarm in a generated call that ran over CALL_LIMIT_S; never leaves this module."""

# --- canonical text ---------------------------------------------------------------------------
def _cap(text):
    if len(text) <= MAX_TEXT:
        return text
    return text[:KEEP_TEXT] + "\u2026#" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]

def canon(value):
    """Deterministic text for a value: equal values give equal text in any process."""
    try:
        return _cap(_text(value, 0, set()))
    except Exception:
        return "<%s>" % type(value).__name__

def _text(v, depth, path):
    t = type(v)
    if t in (str, bytes) and len(v) > 4 * MAX_TEXT:
        # Never a copy of a huge text: its start and a hash of all of it.
        whole = v.encode("utf-8", "surrogatepass") if t is str else v
        return repr(v[:KEEP_TEXT])[:KEEP_TEXT] + "\u2026#" + hashlib.sha256(whole).hexdigest()[:12]
    if v is None or t in (bool, int, float, str, bytes):
        return repr(v)
    if depth > MAX_DEPTH:
        return "\u2026"
    if id(v) in path:
        return "[Circular]"
    path.add(id(v))
    try:
        return _compound(v, t, depth + 1, path)
    except Exception:
        return "<%s>" % t.__name__
    finally:
        path.discard(id(v))

def _items(values, depth, path):
    values = list(values)
    texts = [_text(x, depth, path) for x in values[:MAX_ITEMS]]
    if len(values) > MAX_ITEMS:
        texts.append("\u2026(%d)" % len(values))
    return texts

def _compound(v, t, depth, path):
    if isinstance(v, list) and t.__repr__ is list.__repr__:
        return "[" + ", ".join(_items(v, depth, path)) + "]"
    if isinstance(v, tuple) and t.__repr__ is tuple.__repr__:
        return "(" + ", ".join(_items(v, depth, path)) + ("," if len(v) == 1 else "") + ")"
    if isinstance(v, dict) and t.__repr__ is dict.__repr__:
        pairs = list(v.items())
        texts = ["%s: %s" % (_text(k, depth, path), _text(x, depth, path)) for k, x in pairs[:MAX_ITEMS]]
        return "{" + ", ".join(texts + (["\u2026(%d)" % len(pairs)] if len(pairs) > MAX_ITEMS else [])) + "}"
    if t in (set, frozenset):
        inner = "{" + ", ".join(sorted(_items(v, depth, path))) + "}" if v else ""
        return "frozenset(%s)" % inner if t is frozenset else inner or "set()"
    if isinstance(v, BaseException):
        return _error(v)
    if isinstance(v, (types.FunctionType, types.BuiltinFunctionType, types.MethodType, functools.partial)):
        return "<function %s>" % getattr(v, "__qualname__", getattr(getattr(v, "func", None), "__qualname__", t.__name__))
    if isinstance(v, type):
        return "<class %s>" % v.__qualname__
    if t.__repr__ is object.__repr__:
        return "%s(%s)" % (t.__name__, ", ".join("%s=%s" % (k, x) for k, x in _fields(v, depth, path)))
    return _ADDRESS.sub("", repr(v))

def _fields(v, depth, path):
    found = getattr(v, "__dict__", None)
    if isinstance(found, dict):
        names = list(found)
    else:
        names = [n for c in type(v).__mro__ for n in getattr(c, "__slots__", ()) if isinstance(n, str) and hasattr(v, n)]
    return [(n, _text(getattr(v, n), depth, path)) for n in names[:MAX_ITEMS]]

def _error(error):
    try:
        return _cap("%s: %s" % (type(error).__name__, _ADDRESS.sub("", str(error))))
    except Exception:
        return type(error).__name__

def args_text(args, kwargs):
    return _cap(", ".join([canon(a) for a in args] + ["%s=%s" % (k, canon(x)) for k, x in kwargs.items()]))

# --- records ----------------------------------------------------------------------------------
class _Function(object):
    def __init__(self, fn_id, record_file, fn):
        code = getattr(fn, "__code__", None)
        self.id, self.record_file, self.fn = fn_id, record_file, fn
        self.file = code.co_filename if code else None
        # Methods get suite records only: generated inputs around `self` are not plain data.
        self.method = bool(code and code.co_argcount > 0 and code.co_varnames[0] in ("self", "cls"))
        self.bases, self.suite_keys, self.generated, self.none_at = set(), set(), set(), set()
        self.calls, self.suite_records, self.stopped = 0, 0, False
        self.params = code.co_varnames[: code.co_argcount] if code else ()

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
        if name not in (_HERE, fn.file):
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

def _plain(v, depth=0):
    t = type(v)
    if v is None or t in (bool, int, float, str, bytes):
        return True
    if depth >= 3 or t not in (list, tuple, dict) or len(v) > 1000:
        return False
    if t is dict:
        return all(_plain(k, depth + 1) and _plain(x, depth + 1) for k, x in v.items())
    return all(_plain(x, depth + 1) for x in v)

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
            slots = [(i, a) for i, a in enumerate(args)] + list(kwargs.items())
            fn.none_at.update(fn.name(k) for k, x in slots if x is None)
            wanted = nested and not fn.method and not fn.stopped and text not in fn.bases
            wanted = wanted and len(fn.bases) < BASES_PER_FUNCTION and _totals["generated"] < PER_PROCESS
            base = copy.deepcopy((tuple(args), dict(kwargs))) if wanted and all(_plain(x) for _, x in slots) else None
        finally:
            local.busy = False
        local.depth += nested
        return local, (text, base)
    except Exception:
        return None, None

def _finish(fn, local, before, args, kwargs, result, error, nested):
    try:
        local.depth -= nested
        local.busy = True
        try:
            text, base = before
            record = {"fn": fn.id, "args": text, "kind": "suite"}
            record["out"] = {"threw": _error(error)} if error is not None else {"returned": canon(result)}
            after = args_text(args, kwargs)
            if after != text:
                record["after"] = after
            site = _site(fn)
            if site:
                record["site"] = site
            fn.suite_keys.add(text)
            _write(fn, record)
            if base is not None and text not in fn.bases and len(fn.bases) < BASES_PER_FUNCTION:
                fn.bases.add(text)
                local.pending.append((fn, text, base))
        finally:
            local.busy = False
        # Generated calls wait for the outermost probed call: none runs inside a suite call.
        if local.depth == 0 and local.pending:
            _drain(local)
    except Exception:
        pass

# --- generated inputs -------------------------------------------------------------------------
def _near(v):
    t = type(v)
    if t is bool:
        return [not v]
    if t is int:
        return [0, 1, -1, v + 1, v - 1, -v, 10 ** 9]
    if t is float:
        return [0.0, 1.0, -1.0, v + 1, v - 1, -v, 1e9, 0.5, float("nan"), float("inf")]
    if t is str:
        return _near_str(v)
    if t in (list, tuple):
        out = [[], v[:1], v[:-1]] + ([v[::-1]] if len(v) > 1 else []) + ([v[:1] + v] if v else [])
        return [t(x) for x in out]
    if t is dict:
        keys = list(v)[:5]
        out = [{}] + [{k: x for k, x in v.items() if k != key} for key in keys]
        out += [_with(v, k, not v[k]) for k in keys if type(v[k]) is bool]
        return out + [_with(v, k, None) for k in keys if v[k] is not None]
    return []

def _with(d, key, value):
    out = dict(d)
    out[key] = value
    return out

def _near_str(s):
    mid = len(s) // 2
    out = ["", s[1:], s[:-1]] + [s + c for c in SEPARATORS] + [c + s for c in "/\\. "]
    out += [s[:mid] + c + s[mid:] for c in "/\\."]
    hit = next((i for i, ch in enumerate(s) if ch in SEPARATORS), None)
    if hit is not None:
        out += [s[:hit] + c + s[hit + 1:] for c in ["/", "\\", ".", " ", ""]]
    return out + [s.upper(), s.lower(), s + s]

def _variants(fn, args, kwargs):
    """(args, kwargs) around a call, one argument changed at a time, taking from each in turn."""
    if args:
        yield copy.deepcopy(args[:-1]), copy.deepcopy(kwargs)
    slots = [(i, a) for i, a in enumerate(args)] + list(kwargs.items())
    lists = [[(k, x) for x in ([None] if fn.name(k) in fn.none_at and v is not None else []) + _near(v)] for k, v in slots]
    for row in range(max([len(x) for x in lists] + [0])):
        for column in lists:
            if row < len(column):
                key, value = column[row]
                new_args, new_kwargs = copy.deepcopy((list(args), kwargs))
                if isinstance(key, int):
                    new_args[key] = value
                else:
                    new_kwargs[key] = value
                yield tuple(new_args), new_kwargs

def _drain(local):
    # What generated calls print, log or warn is not the test's: a test may assert on its output.
    streams = sys.stdout, sys.stderr
    logging = sys.modules.get("logging")
    disabled = logging.root.manager.disable if logging else 0
    local.busy = True
    try:
        sys.stdout = sys.stderr = io.StringIO()
        if logging:
            logging.disable(logging.CRITICAL)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            while local.pending:
                fn, text, base = local.pending.pop(0)
                _generate(fn, text, base)
    except (Exception, _Timeout):
        del local.pending[:]
    finally:
        sys.stdout, sys.stderr = streams
        if logging:
            logging.disable(disabled)
        local.busy = False

def _generate(fn, text, base):
    count = 0
    for args, kwargs in _variants(fn, *base):
        if count >= PER_CALL or fn.stopped or _totals["generated"] >= PER_PROCESS or _totals["spent"] > PROCESS_BUDGET_S:
            return
        key = args_text(args, kwargs)
        if key == text or key in fn.suite_keys or key in fn.generated:
            continue
        fn.generated.add(key)
        count += 1
        _totals["generated"] += 1
        out = _timed_call(fn, args, kwargs)
        record = {"fn": fn.id, "args": key, "kind": "generated", "base": text, "out": out}
        after = args_text(args, kwargs)
        if after != key:
            record["after"] = after
        _write(fn, record)

def _timer_free():
    """A per-call alarm only where nobody else uses one: the main thread, no SIGALRM handler, no timer."""
    try:
        return (hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
                and signal.getsignal(signal.SIGALRM) == signal.SIG_DFL and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0))
    except Exception:
        return False

def _alarm(signum, frame):
    if _armed[0]:
        raise _Timeout()

def _timed_call(fn, args, kwargs):
    timer = _timer_free()
    start = time.monotonic()
    if timer:
        signal.signal(signal.SIGALRM, _alarm)
        _armed[0] = True
        signal.setitimer(signal.ITIMER_REAL, CALL_LIMIT_S)
    try:
        return {"returned": canon(fn.fn(*args, **kwargs))}
    except _Timeout:
        fn.stopped = True
        return {"threw": "ProbeTimeout: over %g s" % CALL_LIMIT_S}
    except KeyboardInterrupt:
        raise
    except BaseException as error:
        return {"threw": _error(error)}
    finally:
        _armed[0] = False
        if timer:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, signal.SIG_DFL)
        _totals["spent"] += time.monotonic() - start

# --- the decorator ----------------------------------------------------------------------------
def probe(fn_id, record_file):
    def decorate(fn):
        try:
            if inspect.isgeneratorfunction(fn) or inspect.isasyncgenfunction(fn):
                return fn
            state = _Function(fn_id, record_file, fn)
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
        try:
            result = fn(*args, **kwargs)
        except BaseException as error:
            _finish(state, local, before, args, kwargs, None, error, True)
            raise
        _finish(state, local, before, args, kwargs, result, None, True)
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
