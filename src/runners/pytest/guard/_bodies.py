# What each test's body did, seen by the guard's own wrapper of the test function (docs/design.md
# §3.2.7): it returned, or it raised, and what. pytest's report of a test is made by hooks any plugin
# can join (one registered at run time by the code under test, first in line, can rewrite it), but the
# exception the test function raised reaches the guard's wrapper before any hook, plugin or report. The
# judge holds a test pytest reports passed against its body: one that raised, or whose body the
# wrapper never saw end, was not a pass (src/verify/guard-findings.ts).
#
# The wrapper is put on the item's test callable (`item.obj`) as the call phase starts, in the guard's
# first hook wrapper of `pytest_runtest_call`, and taken off after it: for a function, what
# `pytest_pyfunc_call` calls; for a unittest.TestCase's test, the method pytest hands unittest (pytest 7
# and 9 set `item.obj` on the test case before running it). It keeps the function's name, signature
# (`__wrapped__`), marks and whether it is a coroutine function, and a bound method stays bound to its
# instance. Skips, xfails, pytest.fail and unittest's skips are exceptions the body raised, as they
# are: a test pytest reports passed raised none. A subtest is no body of its own (its exception is
# caught by its context, inside the body). Items that are not Python functions (doctests, a plugin's
# own items) are not wrapped, and their cases carry no body.
import functools
import inspect
import types

import _pytest.python

RAISED_CAP = 300


class Bodies:
    def __init__(self):
        # nodeid -> [body, raised], from the wrapping to the call's report.
        self.seen = {}

    def wrap(self, item):
        """Wraps the item's test callable for its call phase; returns how to put it back (None: not wrapped)."""
        function = getattr(item, "obj", None) if _is_function_item(item) else None
        if function is None or not callable(function):
            return None
        if inspect.isgeneratorfunction(function) or inspect.isasyncgenfunction(function):
            return None  # not a test function pytest calls
        seen = self.seen[item.nodeid] = ["unseen", None]
        item.obj = _watched(function, seen)

        def restore():
            item.obj = function

        return restore

    def take(self, nodeid):
        """What the wrapper saw of the test's body ({} where it was not wrapped), once."""
        seen = self.seen.pop(nodeid, None)
        if seen is None:
            return {}
        return {"body": seen[0], "raised": seen[1]} if seen[0] == "raised" else {"body": seen[0]}


def _is_function_item(item):
    # pytest's Function (and its unittest TestCaseFunction), by their class in pytest, not by name.
    return isinstance(item, _pytest.python.Function)


def _watched(function, seen):
    if inspect.ismethod(function):
        return types.MethodType(_watched(function.__func__, seen), function.__self__)

    def ended(error):
        if seen[0] == "raised":
            return  # a body that raised stays raised
        if error is None:
            seen[0] = "returned"
        else:
            seen[0] = "raised"
            seen[1] = _named(error)

    if inspect.iscoroutinefunction(function):

        @functools.wraps(function)
        async def watched_coroutine(*args, **kwargs):
            try:
                result = await function(*args, **kwargs)
            except BaseException as error:
                ended(error)
                raise
            ended(None)
            return result

        return watched_coroutine

    @functools.wraps(function)
    def watched(*args, **kwargs):
        try:
            result = function(*args, **kwargs)
        except BaseException as error:
            ended(error)
            raise
        ended(None)
        return result

    return watched


def _named(error):
    try:
        text = ("%s: %s" % (type(error).__name__, error)).strip()
    except Exception:  # an exception that cannot be printed: its type names it
        text = type(error).__name__
    return text if len(text) <= RAISED_CAP else text[: RAISED_CAP - 3] + "..."
