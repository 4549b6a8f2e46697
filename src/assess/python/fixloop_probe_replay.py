"""The arguments of a suite call as exact data, for fixloop's look from outside the runner.

`replay_text(args, kwargs)` is JSON of `[args, kwargs]` that gives the same values back in a plain
interpreter (src/assess/python/fixloop_outside.py), or None when any argument would come back
otherwise: a tuple (JSON has lists), a set, bytes, an object of a class, a float that is not finite,
a key that is not a string. A method's receiver is replayed by its fields (`vars(self)`), when they
are all exact data: the plain interpreter gives an object of the method's class those fields.
Loaded by fixloop_probe.py; standard library only, Python 3.8+.
"""
import json
import math
import re

# Deeper than this, or longer than this as text, the call is not replayed: a look of a few calls needs no large input.
MAX_DEPTH, MAX_TEXT = 6, 4000

def _exact(value, depth):
    kind = type(value)
    if value is None or kind in (str, bool, int):
        return True
    if kind is float:
        return math.isfinite(value) and not (value == 0 and math.copysign(1, value) < 0)
    # A list or dict longer than this would not fit in MAX_TEXT: not walked (a receiver may hold a whole document).
    if depth >= MAX_DEPTH or (kind in (list, dict) and len(value) > MAX_TEXT // 2):
        return False
    if kind is list:
        return all(_exact(item, depth + 1) for item in value)
    if kind is dict:
        return all(type(key) is str and _exact(item, depth + 1) for key, item in value.items())
    return False

def replay_text(args, kwargs):
    """JSON of [args, kwargs], or None when the values would not come back as they are."""
    try:
        if not all(_exact(a, 0) for a in args) or not all(_exact(v, 0) for v in kwargs.values()):
            return None
        text = json.dumps([list(args), kwargs], ensure_ascii=False, allow_nan=False)
        return text if len(text) <= MAX_TEXT else None
    except Exception:
        return None

def fields_text(receiver):
    """JSON of the receiver's fields (`vars(receiver)`), or None when it has none of its own (slots)
    or one would not come back as it is."""
    fields = getattr(receiver, "__dict__", None)
    if type(fields) is not dict or not _exact(fields, 0):
        return None
    try:
        text = json.dumps(fields, ensure_ascii=False, allow_nan=False)
    except Exception:
        return None
    return text if len(text) <= MAX_TEXT else None

def shape(qualified):
    """(top_level, class_name) for a function's qualified name: a module-level function is found by
    its name; a method of a module-level class (`Parser.parse`) is called on an object of that class."""
    top_level = not re.search(r"[.<]", qualified)
    return top_level, (qualified.split(".")[0] if re.fullmatch(r"\w+\.\w+", qualified) else None)

def replay_of(top_level, class_name, args, kwargs):
    """The record's replay fields: {"replay"} for a module-level function; {"replay", "replayThis"}
    for a method called on an object of exactly its class (not a subclass, whose other methods may
    differ); {} when the call cannot be made again outside the runner."""
    if top_level:
        text = replay_text(args, kwargs)
        return {"replay": text} if text is not None else {}
    if class_name is None or not args or type(args[0]).__qualname__ != class_name:
        return {}
    fields = fields_text(args[0])
    text = replay_text(args[1:], kwargs) if fields is not None else None
    return {"replay": text, "replayThis": fields} if text is not None else {}
