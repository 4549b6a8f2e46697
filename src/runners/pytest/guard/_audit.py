# The audit hook (sys.addaudithook: it cannot be removed, and sees what C code does too). Events,
# when the caller is a repository file that is not a test: opening a test file (reading the tests
# at run time) or the runner's reports and the guard's records (writing them); compiling a
# repository file that is not Python (`runpy.run_path` of a .txt); ending or replacing its own
# process (`os.exec*`, a signal to itself); setting a trace or profile function (`sys.settrace`,
# `sys.setprofile`: it can rewrite a test's locals or a report as they pass). Running a string is no event (ordinary code does it),
# but the code it defines is mapped to its caller: what that code replaces or reads is named after it
# (_identity.py, _places.py); so is code a repository file makes under another file's name
# (`code.__new__`, which `code.replace` raises too). A read of a test file whose caller cannot be
# placed is an event that says so.
import os
import signal
import sys
import types

SELF_SIGNALS = {"os.kill", "os.killpg", "signal.pthread_kill"}


CTYPES = {"ctypes.dlopen", "ctypes.dlsym", "ctypes.dlsym/handle"}
# A trace or profile function sees every frame of the process, the tests' and pytest's own, and may
# change their locals or the report objects they pass before anyone counts them.
TRACERS = {"sys.settrace", "sys.setprofile"}
CHILDREN = {"subprocess.Popen", "os.posix_spawn", "os.system"}


def install(recorder, places, protected_paths, opened, routes, environment):
    """`protected_paths()`: the files only pytest and the guard write (the JUnit report, the records);
    `opened` the test files by what they are (_opened.py), `routes` the routes below `open` (_routes.py),
    `environment` the watch on the runner being looked for (_environment.py: `/proc/self/environ`)."""
    dynamic = places.dynamic  # code run from a string -> the repository file and line that ran it
    pid = os.getpid()
    forked = []
    # A forked child is not the judged process (cheaper than asking getpid at every event).
    os.register_at_fork(after_in_child=lambda: forked.append(True))

    on_open = _open_watcher(recorder, places, protected_paths, opened)

    def on_compile(args):
        filename = args[1] if len(args) > 1 else None
        if not isinstance(filename, str) or filename.endswith(".py"):
            return
        caller = places.caller(2)
        if not caller:
            return
        if not filename.startswith("<") and os.path.isfile(filename) and places.kind(filename) == "source":
            recorder.event("dynamic_code", caller[0], caller[1], "ran `%s`, a file that is not Python code, as code" % places.relative(filename))

    def on_exec(args):
        code = args[0]
        if not isinstance(code, types.CodeType) or places.kind(code.co_filename) != "dynamic":
            return
        caller = places.caller(2)
        if caller:
            # Every function the string defines, by its code object: what it replaces is named after this caller.
            stack = [code]
            while stack and len(dynamic) < 10000:
                item = stack.pop()
                dynamic[item] = caller
                stack.extend(c for c in item.co_consts if isinstance(c, types.CodeType))

    def on_code(args):
        # `code.__new__`: (bytecode, file name, ...). Made by a repository file: frames of it are that file's.
        if len(places.disguised) >= 10000 or len(args) < 2 or not isinstance(args[1], str):
            return
        caller = places.caller(2)
        if caller and caller[0] is not None:
            places.disguised[(args[1], args[0])] = caller

    def on_end(event, args):
        if event in SELF_SIGNALS and not _at_self(event, args, pid):
            return
        caller = places.caller(2)
        what = "replaced its own process (`os.exec*`)" if event == "os.exec" else "sent a signal to its own process (`%s`)" % event
        recorder.event("exit", caller[0] if caller else None, caller[1] if caller else None, what)
        recorder.write()

    def on_tracer(event):
        caller = places.caller(2)
        if caller:
            recorder.event("framework_changed", caller[0], caller[1], "set a %s function (`%s`), which sees the tests' frames" % ("trace" if event == "sys.settrace" else "profile", event))

    def hook(event, args):
        if forked:
            return
        if event == "open":
            environment.on_open(args[0] if args else None)
            on_open(args)
        elif event == "compile":
            on_compile(args)
            routes.on_compile(args)
        elif event == "exec":
            on_exec(args)
        elif event == "code.__new__":
            on_code(args)
        elif event == "os.exec" or event in SELF_SIGNALS:
            on_end(event, args)
        elif event in CTYPES:
            routes.on_ctypes(event, args)
        elif event in CHILDREN:
            routes.on_child(event, args)
        elif event in TRACERS:
            on_tracer(event)

    sys.addaudithook(hook)
    return dynamic


def _open_watcher(recorder, places, protected_paths, opened):
    """The `open` event: a test file read (by its name, or by what the name or descriptor reaches), or
    a report only pytest and the guard write written, by a repository file that is not a test."""

    def on_open(args):
        path = args[0]
        if not isinstance(path, str) or not places.is_test_path(path):
            # Named otherwise: what the name (or descriptor) reaches.
            reached = opened.reached(path)
            if reached is not None:
                caller = places.caller(2, strict=True)
                if caller:
                    unplaced = ": could not tell who read it" if caller[0] is None else ""
                    recorder.event("test_file_read", caller[0], caller[1], "read the test file `%s` (opened as `%s`)%s" % (reached, path, unplaced))
                return
        if not isinstance(path, str):
            return
        if places.is_test_path(path):
            caller = places.caller(2, strict=True)
            if caller:
                unplaced = ": could not tell who read it (code from a string no repository file is known to have run)" if caller[0] is None else ""
                recorder.event("test_file_read", caller[0], caller[1], "read the test file `%s`%s" % (places.relative(path), unplaced))
            return
        mode = args[1] if len(args) > 1 and isinstance(args[1], str) else "r"
        if ("w" in mode or "a" in mode or "x" in mode or "+" in mode) and _under(path, protected_paths()):
            caller = places.caller(2)
            if caller:
                recorder.event("report_written", caller[0], caller[1], "wrote `%s`, which only pytest and fixloop's guard write" % os.path.basename(path))

    return on_open


def _under(path, protected):
    full = os.path.realpath(path)
    return any(full == p or full.startswith(p + os.sep) for p in protected)


def _at_self(event, args, pid):
    if event == "os.kill":
        return args[0] in (pid, 0) and args[1] != 0
    if event == "os.killpg":
        return args[0] == os.getpgid(0)
    return args[1] != 0 and args[1] != getattr(signal, "SIGCHLD", -1)
