"""The path a call takes through a probed function, for fixloop's Python probe (fixloop_probe.py).

The lines of the function that run during one call (its own frame, not the functions it calls):
the original program's path on a generated input, set beside its paths on the failing and the
passing tests' calls, tells which of them the input is like (PATCH-SIM's idea; fixloop compares
them). Traced with sys.settrace for the call's duration only, and only when no other tracer (a
debugger, coverage) is set: the probe never takes a tracer's place. A probed call inside another
gets a path of its own, and the outer call's tracing resumes after it. Standard library only.
"""
import sys

class Path(object):
    """`with Path(code) as path: f()`; then `path.lines` is the sorted lines, or None when not traced."""

    def __init__(self, code):
        self.code, self.lines, self._seen, self._traced, self._previous = code, None, None, False, None

    def __enter__(self):
        previous = sys.gettrace()
        if self.code is None or (previous is not None and not getattr(previous, "fixloop_path", False)):
            return self
        self._previous = previous
        seen = self._seen = set()
        code, entered = self.code, [False]

        def line(frame, event, arg):
            if event == "line":
                seen.add(frame.f_lineno)
            return line

        def call(frame, event, arg):
            # The call's own frame: the first of its code (a recursive call's lines are its own).
            if frame.f_code is code and not entered[0]:
                entered[0] = True
                return line
            return None

        call.fixloop_path = True
        sys.settrace(call)
        self._traced = True
        return self

    def __exit__(self, kind, error, trace):
        if self._traced:
            sys.settrace(self._previous)
            self.lines = sorted(self._seen)
        return False
