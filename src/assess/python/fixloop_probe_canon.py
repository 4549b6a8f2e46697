"""Canonical text of values for fixloop's Python probe runtime (fixloop_probe.py loads this file).

`canon(value)` is deterministic text for a value: equal values give equal text in any process, so the
records of the original and the patched program compare as strings. Long texts are cut and end in a
hash of the whole; deep or cyclic values are cut short; memory addresses are dropped. Never raises.
`canon(value, returned=True)`, for what a probed function returned, also spells out the fields of an
object whose class writes its own repr: `<Statement 'CREATE...'>` alone hides every token a parser
changed, so the comparison would call two different results equal. Arguments keep the plain form:
they are how a call is matched between versions. Standard library only; Python 3.8+.
"""
import functools
import hashlib
import re
import types

MAX_TEXT, MAX_DEPTH, MAX_ITEMS = 400, 4, 200
# What a long text keeps of its start and of its end: a value that differs near its end shows where.
KEEP_HEAD, KEEP_TAIL = 300, 80
# A returned value is spelled out deeper (a parse tree's tokens sit six levels down), within a budget
# of values for the whole of it, so that a wide and deep structure costs a bounded time; each field,
# item or entry gets its share of it (_shared), as in the JavaScript probe (js/probe-canon.cjs).
RETURNED_DEPTH, RETURNED_VALUES = 8, 5000
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")

def _kept(head, tail, whole):
    """A long text as the probes keep it: its start, its end and a hash of all of it (bytes)."""
    return head[:KEEP_HEAD] + "\u2026" + tail[-KEEP_TAIL:] + "\u2026#" + hashlib.sha256(whole).hexdigest()[:12]

def _cap(text):
    if len(text) <= MAX_TEXT:
        return text
    return _kept(text, text, text.encode("utf-8", "surrogatepass"))

_VALUE_TYPES = (tuple, list, dict, set, frozenset, str, bytes, int, float, complex)

class _Walk:
    """One value's walk: the values on the way down (cycles), the depth allowed, values left to spell out."""

    def __init__(self, returned):
        self.path = set()
        self.returned = returned
        self.max_depth = RETURNED_DEPTH if returned else MAX_DEPTH
        self.left = RETURNED_VALUES

def canon(value, returned=False):
    """Deterministic text for a value: equal values give equal text in any process."""
    try:
        return _cap(_text(value, 0, _Walk(returned)))
    except Exception:
        return "<%s>" % type(value).__name__

def _text(v, depth, walk):
    t = type(v)
    if t in (str, bytes) and len(v) > 4 * MAX_TEXT:
        # Never a copy of a huge text: its start, its end and a hash of all of it.
        whole = v.encode("utf-8", "surrogatepass") if t is str else v
        return _kept(repr(v[:KEEP_HEAD]), repr(v[-KEEP_TAIL:]), whole)
    if v is None or t in (bool, int, float, str, bytes):
        return repr(v)
    walk.left -= 1
    if depth > walk.max_depth or walk.left < 0:
        return "\u2026"
    if id(v) in walk.path:
        return "[Circular]"
    walk.path.add(id(v))
    try:
        return _compound(v, t, depth + 1, walk)
    except Exception:
        return "<%s>" % t.__name__
    finally:
        walk.path.discard(id(v))

def _shared(walk, count, render):
    """A child's text within its share of the values left: each of the `count` siblings still to come
    gets as many, and what one leaves unused goes to the next. A large first field (a statement's
    tokens) cannot use up the budget before a small last one (a flag the patch set)."""
    share = max(1, walk.left // max(1, count))
    rest = max(0, walk.left - share)
    walk.left = min(share, walk.left)
    try:
        return render()
    finally:
        walk.left += rest

def _each_shared(values, walk, render):
    kept = values[:MAX_ITEMS]
    return [_shared(walk, len(kept) - i, lambda x=x: render(x)) for i, x in enumerate(kept)]

def _items(values, depth, walk):
    values = list(values)
    texts = _each_shared(values, walk, lambda x: _text(x, depth, walk))
    if len(values) > MAX_ITEMS:
        texts.append("\u2026(%d)" % len(values))
    return texts

def _compound(v, t, depth, walk):
    if isinstance(v, list) and t.__repr__ is list.__repr__:
        return "[" + ", ".join(_items(v, depth, walk)) + "]"
    if isinstance(v, tuple) and t.__repr__ is tuple.__repr__:
        return "(" + ", ".join(_items(v, depth, walk)) + ("," if len(v) == 1 else "") + ")"
    if isinstance(v, dict) and t.__repr__ is dict.__repr__:
        pairs = list(v.items())
        texts = _each_shared(pairs, walk, lambda pair: "%s: %s" % (_text(pair[0], depth, walk), _text(pair[1], depth, walk)))
        return "{" + ", ".join(texts + (["\u2026(%d)" % len(pairs)] if len(pairs) > MAX_ITEMS else [])) + "}"
    if t in (set, frozenset):
        inner = "{" + ", ".join(sorted(_items(v, depth, walk))) + "}" if v else ""
        return "frozenset(%s)" % inner if t is frozenset else inner or "set()"
    if isinstance(v, BaseException):
        return error_text(v)
    if isinstance(v, functools.partial):
        # What it binds is part of it: `partial(key, obj)` is called otherwise than `key` (an instance bound in).
        bound = _items(v.args, depth, walk) + ["%s=%s" % (k, _text(x, depth, walk)) for k, x in v.keywords.items()]
        return "partial(%s)" % ", ".join([_text(v.func, depth, walk)] + bound)
    if isinstance(v, (types.FunctionType, types.BuiltinFunctionType, types.MethodType)):
        return "<function %s>" % getattr(v, "__qualname__", t.__name__)
    if isinstance(v, type):
        return "<class %s>" % v.__qualname__
    if t.__repr__ is object.__repr__:
        return "%s(%s)" % (t.__name__, ", ".join("%s=%s" % (k, x) for k, x in _fields(v, depth, walk)))
    shown = _ADDRESS.sub("", repr(v))
    if walk.returned and not isinstance(v, _VALUE_TYPES):
        # Its own repr, then what it holds (a returned value only: see the module's docstring). A
        # subclass of a builtin value (a token type that is a tuple) is shown by its repr alone.
        fields = _fields(v, depth, walk)
        if fields:
            return "%s{%s}" % (shown, ", ".join("%s=%s" % (k, x) for k, x in fields))
    return shown

def _fields(v, depth, walk):
    # Its __dict__'s names, then its slots' (a class may have both: a subclass without __slots__).
    found = getattr(v, "__dict__", None)
    names = list(found) if isinstance(found, dict) else []
    for c in type(v).__mro__:
        slots = getattr(c, "__slots__", ())
        # `__slots__ = 'tokens'` names one slot, not six.
        for n in (slots,) if isinstance(slots, str) else slots:
            if isinstance(n, str) and n not in names and n not in ("__dict__", "__weakref__") and hasattr(v, n):
                names.append(n)
    return list(zip(names, _each_shared(names, walk, lambda n: _text(getattr(v, n), depth, walk))))

def error_text(error):
    try:
        return _cap("%s: %s" % (type(error).__name__, _ADDRESS.sub("", str(error))))
    except Exception:
        return type(error).__name__

def state_text(args, kwargs):
    """The arguments spelled out as a returned value is: what a call did to them (a tree grouped in place) shows here."""
    return _cap(", ".join([canon(a, returned=True) for a in args] + ["%s=%s" % (k, canon(x, returned=True)) for k, x in kwargs.items()]))

def args_text(args, kwargs):
    return _cap(", ".join([canon(a) for a in args] + ["%s=%s" % (k, canon(x)) for k, x in kwargs.items()]))
