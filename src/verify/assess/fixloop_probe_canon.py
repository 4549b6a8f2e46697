"""Canonical text of values for fixloop's Python probe runtime (fixloop_probe.py loads this file).

`canon(value)` is deterministic text for a value: equal values give equal text in any process, so the
records of the original and the patched program compare as strings. Long texts are cut and end in a
hash of the whole; deep or cyclic values are cut short; memory addresses are dropped. Never raises.
Standard library only; Python 3.8+.
"""
import functools
import hashlib
import re
import types

MAX_TEXT, KEEP_TEXT, MAX_DEPTH, MAX_ITEMS = 400, 380, 4, 200
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")

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
        return error_text(v)
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

def error_text(error):
    try:
        return _cap("%s: %s" % (type(error).__name__, _ADDRESS.sub("", str(error))))
    except Exception:
        return type(error).__name__

def args_text(args, kwargs):
    return _cap(", ".join([canon(a) for a in args] + ["%s=%s" % (k, canon(x)) for k, x in kwargs.items()]))
