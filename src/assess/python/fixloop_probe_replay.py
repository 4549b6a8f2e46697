"""The arguments of a suite call as exact data, for fixloop's look from outside the runner.

`replay_text(args, kwargs)` is JSON of `[args, kwargs]` that gives the same values back in a plain
interpreter (`revive`, in src/assess/python/fixloop_outside.py), or None when any argument would come
back otherwise: an object of a class, a dict with a key that is not a string, a subclass of a builtin.
What JSON has no literal for is written as a tagged object: a tuple, a set or frozenset, bytes, a
float that is not finite or is -0.0. A method's receiver is replayed by its fields (`vars(self)`),
when they are all exact data: the plain interpreter gives an object of the method's class those
fields. What JSON cannot write (a receiver that holds a dict keyed by tuples, an argument that is an
object of the program's classes) is pickled instead, when it pickles quickly and small: the plain
interpreter unpickles it, importing the classes by name from the program as it ships. Loaded by
fixloop_probe.py and fixloop_outside.py; standard library only, Python 3.8+.
"""
import base64
import json
import math
import pickle
import re
import time

# Deeper than this, or longer than this as text, the call is not replayed: a look of a few calls needs no large input.
MAX_DEPTH, MAX_TEXT = 6, 4000
# A pickle longer than this, as base64, is not kept (a receiver that holds a whole document).
MAX_PICKLED = 12000
# A function whose call took longer than this to pickle is not pickled again: a hot method would pay it on every call.
PICKLE_SLOW_S = 0.005
# Pickles kept per function: the look makes few calls again (40 at most), and the records must stay small.
PICKLES_PER_FUNCTION = 200
# The key of a tagged value. A dict of the program's own with this key is not replayed, so none is misread as one.
TAG = "$fixloop"

class _Refused(Exception):
    pass

def _float(value):
    if math.isfinite(value) and not (value == 0 and math.copysign(1, value) < 0):
        return value
    return {TAG: "float", "value": repr(value)}

def _encoded(value, depth):
    """The value as JSON-able data that `revive` turns back into it; _Refused when it would not come back."""
    kind = type(value)
    if value is None or kind in (str, bool, int):
        return value
    if kind is float:
        return _float(value)
    if kind is bytes:
        if len(value) > MAX_TEXT:
            raise _Refused()
        return {TAG: "bytes", "value": base64.b64encode(value).decode("ascii")}
    # A container longer than this would not fit in MAX_TEXT: not walked (a receiver may hold a whole document).
    if depth >= MAX_DEPTH or kind not in (list, tuple, set, frozenset, dict) or len(value) > MAX_TEXT // 2:
        raise _Refused()
    if kind is dict:
        if TAG in value or not all(type(key) is str for key in value):
            raise _Refused()
        return {key: _encoded(item, depth + 1) for key, item in value.items()}
    items = [_encoded(item, depth + 1) for item in value]
    if kind is list:
        return items
    if kind is tuple:
        return {TAG: "tuple", "items": items}
    # A set's order is its hashes', which differ between processes: sorted by text, so both versions write one text.
    return {TAG: kind.__name__, "items": sorted(items, key=lambda item: json.dumps(item, sort_keys=True))}

def _text(encode):
    try:
        text = json.dumps(encode(), ensure_ascii=False, allow_nan=False)
    except (_Refused, ValueError, TypeError, RecursionError):
        return None
    return text if len(text) <= MAX_TEXT else None

def replay_text(args, kwargs):
    """JSON of [args, kwargs], or None when the values would not come back as they are."""
    return _text(lambda: [[_encoded(a, 0) for a in args], {key: _encoded(v, 0) for key, v in kwargs.items()}])

def fields_text(receiver):
    """JSON of the receiver's fields (`vars(receiver)`), or None when it has none of its own (slots)
    or one would not come back as it is."""
    fields = getattr(receiver, "__dict__", None)
    if type(fields) is not dict:
        return None
    return _text(lambda: _encoded(fields, -1))

def _untagged(value):
    tag = value[TAG]
    if tag == "float":
        return float(value["value"])
    if tag == "bytes":
        return base64.b64decode(value["value"])
    if tag == "pickle":
        return pickle.loads(base64.b64decode(value["value"]))
    items = [revived(item) for item in value["items"]]
    return {"tuple": tuple, "set": set, "frozenset": frozenset}[tag](items)

def revived(value):
    """What `_encoded` wrote, given back as the value it was written from."""
    if type(value) is list:
        return [revived(item) for item in value]
    if type(value) is dict:
        return _untagged(value) if TAG in value else {key: revived(item) for key, item in value.items()}
    return value

def revive(text):
    return revived(json.loads(text))

def shape(qualified):
    """(top_level, class_name) for a function's qualified name: a module-level function is found by
    its name; a method of a module-level class (`Parser.parse`) is called on an object of that class."""
    top_level = not re.search(r"[.<]", qualified)
    return top_level, (qualified.split(".")[0] if re.fullmatch(r"\w+\.\w+", qualified) else None)

class Budget(object):
    """One function's leave to pickle: withdrawn once a call of it was slow to pickle, or after
    PICKLES_PER_FUNCTION pickles."""

    def __init__(self):
        self.slow, self.left = False, PICKLES_PER_FUNCTION

def _pickled(value, budget):
    """JSON of a tagged object holding the value pickled, or None: it does not pickle (a lock, a lambda,
    a generator), pickles to more than MAX_PICKLED, or the function's budget is spent (a slow pickle
    before, or PICKLES_PER_FUNCTION of them)."""
    if budget is None or budget.slow or budget.left <= 0:
        return None
    start = time.monotonic()
    try:
        data = pickle.dumps(value, protocol=4)
    except Exception:
        return None
    finally:
        budget.slow = time.monotonic() - start > PICKLE_SLOW_S
    text = base64.b64encode(data).decode("ascii")
    if len(text) > MAX_PICKLED:
        return None
    budget.left -= 1
    return json.dumps({TAG: "pickle", "value": text})

def pickled(text):
    """Whether a replay text holds a pickle (the plain interpreter gives back the object itself)."""
    return text.startswith('{"%s": "pickle"' % TAG)

def replay_of(top_level, class_name, args, kwargs, budget=None):
    """The record's replay fields: {"replay"} for a module-level function; {"replay", "replayThis"}
    for a method called on an object of exactly its class (not a subclass, whose other methods may
    differ); {} when the call cannot be made again outside the runner. Exact JSON first; a pickle
    when JSON cannot write a value and `budget` allows it."""
    if top_level:
        text = replay_text(args, kwargs) or _pickled([list(args), kwargs], budget)
        return {"replay": text} if text is not None else {}
    if class_name is None or not args or type(args[0]).__qualname__ != class_name:
        return {}
    fields = fields_text(args[0]) or _pickled(args[0], budget)
    text = (replay_text(args[1:], kwargs) or _pickled([list(args[1:]), kwargs], budget)) if fields is not None else None
    return {"replay": text, "replayThis": fields} if text is not None else {}
