"""The arguments of a suite call as exact data, for fixloop's look from outside the runner.

`replay_text(args, kwargs)` is JSON of `[args, kwargs]` that gives the same values back in a plain
interpreter (src/assess/python/fixloop_outside.py), or None when any argument would come back
otherwise: a tuple (JSON has lists), a set, bytes, an object of a class, a float that is not finite,
a key that is not a string. Loaded by fixloop_probe.py; standard library only, Python 3.8+.
"""
import json
import math

# Deeper than this, or longer than this as text, the call is not replayed: a look of a few calls needs no large input.
MAX_DEPTH, MAX_TEXT = 6, 4000

def _exact(value, depth):
    kind = type(value)
    if value is None or kind in (str, bool, int):
        return True
    if kind is float:
        return math.isfinite(value) and not (value == 0 and math.copysign(1, value) < 0)
    if depth >= MAX_DEPTH:
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
