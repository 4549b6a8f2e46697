# The tests read from memory, with no file opened (docs/design.md §3.2.7): a test's frame taken by the
# code under test (`sys._getframe`: its locals hold the values the test expects), or the code object
# of a test read (`frame.f_code`, `function.__code__`: its constants are the test's literals). Each is
# a `test_file_read` when a repository file that is not a test does it itself: the first frame outside
# the guard is the code's, so `inspect.stack()` or a traceback the standard library formats is not,
# nor is pytest's own reading of the tests. Both are audit events (`sys._getframe`,
# `object.__getattr__`), raised whatever name reached the function, C callers' too.
import types

# The attributes that hand out a code object: a frame's, a function's, a generator's or coroutine's.
CODE_ATTRIBUTES = {"f_code", "__code__", "gi_code", "cr_code", "ag_code"}
# Events of one process at most: a loop over frames would otherwise fill the record.
MAX_EVENTS = 20


class Memory:
    def __init__(self, recorder, places, direct):
        """`direct(skip)`: the repository file and line that made the audited call itself (_routes.py)."""
        self.recorder = recorder
        self.places = places
        self.direct = direct
        # Reading a code object below raises the same audit event again: those are the guard's own.
        self.busy = False
        self.seen = set()

    def on_frame(self, args):
        frame = args[0] if args else None
        if self.busy or not isinstance(frame, types.FrameType):
            return
        self._check(lambda: frame.f_code, "took the frame of the test `%s` in `%s` (`sys._getframe`): its locals are the test's")

    def on_getattr(self, args):
        if self.busy or len(args) < 2 or args[1] not in CODE_ATTRIBUTES:
            return
        owner, name = args[0], args[1]
        what = "read the code of the test `%%s` in `%%s` (`%s`): its constants are the test's literals" % name
        self._check(lambda: getattr(owner, name, None), what)

    def _check(self, code_of, what):
        self.busy = True
        try:
            code = code_of()
            if not isinstance(code, types.CodeType) or self.places.kind(code.co_filename) != "test":
                return
            where = self.direct(lambda frame: False)
            key = (where, code.co_filename, code.co_name)
            if where is None or key in self.seen or len(self.seen) >= MAX_EVENTS:
                return
            self.seen.add(key)
            self.recorder.event("test_file_read", where[0], where[1], what % (code.co_name, self.places.relative(code.co_filename)))
        finally:
            self.busy = False
