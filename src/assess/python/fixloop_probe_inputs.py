"""Generated inputs for fixloop's Python probe runtime (fixloop_probe.py loads this file).

After a suite call with an argument of plain data, the probed function is also called on inputs
generated around its arguments, one plain argument changed at a time, the others held as deep copies
(`drain`), and each call is written with `write` as a "generated" record with the suite call as
`base`. A generated call may hang (an input the function loops on); its time is bounded where a
timer is safe (see _timer_free), and all generated calls of one process share a budget (`totals`). What they print, log or warn is dropped.
The values the patches' changed lines name (`fn.values`, from change-values.ts) make inputs of their
own, taken in turn with the others: a change that compares with 'https:' or 10 is seen at 'HTTPS:'
and at 9 and 11, the other side of the comparison, where the suite's own inputs rarely go.
Standard library only; Python 3.8+.
"""
import copy
import datetime
import io
import signal
import sys
import threading
import time
import warnings

# Loaded by fixloop_probe.py just before this module: the runtime's folder is not on sys.path.
_canon = sys.modules["_fixloop_probe_canon"]
_paths = sys.modules["_fixloop_probe_path"]
_strings = sys.modules["_fixloop_probe_strings"]

# Room for the inputs made from the change's values beside the others.
PER_CALL, PER_PROCESS = 56, 4000
ELEMENT_VARIANTS = 8
# And its last item, when it has more than one, this many ways.
LAST_ELEMENT_VARIANTS = 4
FROM_CHANGE = 16
CALL_LIMIT_S, PROCESS_BUDGET_S = 1.0, 120.0
HELD_S = 0.1
MODEST = 10 ** 6
# Huge: past any allocation, so `[0] * n` raises MemoryError at once (10**9 took 18 s and 8 GB, unstoppable).
HUGE = 10 ** 15
# A date's neighbours, in days, as in js/probe-inputs.cjs: either side of a day, of two, of a week
# (ISO weeks, business days and month ends turn on the next day or the next week).
DATE_SHIFTS = (1, -1, 2, -2, 7, -7)
DATES = (datetime.date, datetime.datetime)
totals = {"generated": 0, "spent": 0.0}
_armed = [False]

class _Timeout(BaseException):
    """Raised by the alarm in a generated call that ran over CALL_LIMIT_S; never leaves this module."""

def plain(v, depth=0):
    """Data that generated inputs may start from: scalars, dates, and small lists, tuples and dicts of them."""
    t = type(v)
    if v is None or t in (bool, int, float, str, bytes) or t in DATES:
        return True
    if depth >= 3 or t not in (list, tuple, dict) or len(v) > 1000:
        return False
    if t is dict:
        return all(plain(k, depth + 1) and plain(x, depth + 1) for k, x in v.items())
    return all(plain(x, depth + 1) for x in v)

def _from_change(v, values):
    """Inputs of one value made from the change's values: strings, numbers, keys of a dict."""
    t = type(v)
    if not values:
        return []
    if t is str:
        # Kind by kind over every literal, so the cap keeps each literal's most telling inputs first.
        literals = values["strings"]
        within = [s for s in literals if s in v]
        rows = ([v.replace(s, _strings.other_case(s), 1) for s in within] + [v.replace(s, "", 1) for s in within]
                + [v + s for s in literals] + [s + v for s in literals] + literals + [_strings.other_case(s) for s in literals])
        return list(dict.fromkeys(rows))
    if t in (int, float):
        return [t(n) + d for n in values["numbers"] if n == n for d in (-1, 0, 1)]
    if t is dict:
        # Python reads a dict's keys by string (`d.get('strict')`): a literal that is a name is a key too.
        names = values["keys"] + [s for s in values["strings"] if s.isidentifier()]
        out = [_with(v, k, flag) for k in names if k not in v for flag in (True, False)]
        texts = [k for k in list(v)[:5] if type(v[k]) is str]
        return out + [_with(v, k, x) for k in texts for s in values["strings"] for x in (s, _strings.other_case(s))]
    return []

def _near(v, values=None):
    """The values near one value; those made from the change's values taken in turn with the others."""
    return _strings.interleave([_from_change(v, values)[:FROM_CHANGE], _near_plain(v, values)])

def _near_plain(v, values):
    t = type(v)
    if t is bool:
        return [not v]
    if t is int:
        return [0, 1, -1, v + 1, v - 1, -v, HUGE]
    if t is float:
        return [0.0, 1.0, -1.0, v + 1, v - 1, -v, float(HUGE), 0.5, float("nan"), float("inf")]
    if t is str:
        return _strings.near_str(v)
    if t in DATES:
        return _near_date(v)
    if t in (list, tuple):
        out = [[], v[:1], v[:-1]] + ([v[::-1]] if len(v) > 1 else []) + ([v[:1] + v] if v else [])
        # The first item varied as a value of its own: code that reads a field of each item sees
        # other values than the suite's, not only other lengths.
        out += [[x] + list(v[1:]) for x in _near(v[0], values)[:ELEMENT_VARIANTS]] if v else []
        # The last one too: a lookup keyed on a later item, or a bound on the last, is not met by the first alone.
        out += [list(v[:-1]) + [x] for x in _near(v[-1], values)[:LAST_ELEMENT_VARIANTS]] if len(v) > 1 else []
        return [t(x) for x in out]
    if t is dict:
        keys = list(v)[:5]
        out = [{}] + [{k: x for k, x in v.items() if k != key} for key in keys]
        out += [_with(v, k, not v[k]) for k in keys if type(v[k]) is bool]
        out += [_with(v, k, None) for k in keys if v[k] is not None]
        # A number one either way and zero: a field compared with a bound (`stock <= 0` against `stock < 1`).
        numbers = [k for k in keys if type(v[k]) in (int, float) and v[k] == v[k] and abs(v[k]) != float("inf")]
        return out + [_with(v, k, n) for k in numbers for n in (v[k] + 1, v[k] - 1, 0) if n != v[k]]
    return []

def _near_date(v):
    """The days around a date or a date and time, as far as the calendar goes (year 1 to 9999)."""
    out = []
    for days in DATE_SHIFTS:
        try:
            out.append(v + datetime.timedelta(days=days))
        except OverflowError:
            pass
    return out

def _with(d, key, value):
    out = dict(d)
    out[key] = value
    return out

def _holds(args, kwargs):
    """Whether a call holds copies (an argument that is not plain data: a method's receiver, an object of a class)."""
    return not all(plain(x) for x in list(args) + list(kwargs.values()))

def _modest(v, depth=0):
    """No number beyond MODEST, nor an infinite one, in plain data (see _variants)."""
    t = type(v)
    if t in (int, float):
        return v != v or abs(v) <= MODEST
    if depth > 3 or t not in (list, tuple, dict):
        return True
    return all(_modest(x, depth + 1) for x in (v.values() if t is dict else v))

def _variants(fn, args, kwargs):
    """(args, kwargs) around a call, one argument changed at a time, taking from each in turn. A call
    that holds copies (a method, an internal function beside a parser's state) gets no huge number:
    a huge level there only asks for memory (`" " * indent * level`). Nor does a call no alarm can
    stop (_timer_free): a loop up to a huge number would hold the test process."""
    bounded = _holds(args, kwargs) or not _timer_free()
    for made in _all_variants(fn, args, kwargs):
        if not bounded or all(_modest(x) for x in list(made[0]) + list(made[1].values()) if plain(x)):
            yield made

def _all_variants(fn, args, kwargs):
    if args:
        yield copy.deepcopy(args[:-1]), copy.deepcopy(kwargs)
    slots = [(i, a) for i, a in enumerate(args)] + list(kwargs.items())
    # A held argument (not plain data: a receiver, an object of a class) is never varied, only copied.
    lists = [[(k, x) for x in ([None] if fn.name(k) in fn.none_at and v is not None else [])
              + (_near(v, fn.values) if plain(v) else [])]
             for k, v in slots]
    for key, value in _strings.interleave(lists):
        new_args, new_kwargs = copy.deepcopy((list(args), kwargs))
        if isinstance(key, int):
            new_args[key] = value
        else:
            new_kwargs[key] = value
        yield tuple(new_args), new_kwargs

def drain(local, write):
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
                _generate(fn, text, base, write)
    except (Exception, _Timeout):
        del local.pending[:]
    finally:
        sys.stdout, sys.stderr = streams
        if logging:
            logging.disable(disabled)
        local.busy = False

def _generate(fn, text, base, write):
    count = 0
    variants = _variants(fn, *base)
    # Inputs around a call with held copies stop after HELD_S, and the function gets no more: a test
    # under a time limit of its own is never pushed past it by the probe.
    deadline = time.monotonic() + HELD_S if _holds(*base) else None
    while True:
        if deadline is not None and time.monotonic() > deadline:
            fn.heavy = True
            return
        # Copying a held receiver for each input is part of what generation costs.
        start = time.monotonic()
        made = next(variants, None)
        totals["spent"] += time.monotonic() - start
        if made is None:
            return
        args, kwargs = made
        if count >= PER_CALL or fn.stopped or totals["generated"] >= PER_PROCESS or totals["spent"] > PROCESS_BUDGET_S:
            return
        key = _canon.args_text(args, kwargs)
        if key == text or key in fn.suite_keys or key in fn.generated:
            continue
        fn.generated.add(key)
        count += 1
        totals["generated"] += 1
        state = _canon.state_text(args, kwargs)
        out, path = _timed_call(fn, args, kwargs)
        record = {"fn": fn.id, "args": key, "kind": "generated", "base": text, "out": out}
        if path is not None:
            record["path"] = path
        after = _canon.state_text(args, kwargs)
        if after != state:
            record["after"] = after
        write(fn, record)

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
    path = _paths.Path(fn.code)
    try:
        with path:
            result = fn.fn(*args, **kwargs)
        return {"returned": _canon.canon(result, returned=True)}, path.lines
    except _Timeout:
        fn.stopped = True
        return {"threw": "ProbeTimeout: over %g s" % CALL_LIMIT_S}, None
    except KeyboardInterrupt:
        raise
    except BaseException as error:
        return {"threw": _canon.error_text(error)}, path.lines
    finally:
        _armed[0] = False
        if timer:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, signal.SIG_DFL)
        totals["spent"] += time.monotonic() - start
