"""fixloop's look from outside the runner, in Python (docs/design.md §3.3, src/assess/outside-look.ts).

A plain interpreter, with no pytest imported, no runner variable and no test on its command line,
imports the repository's modules as they are (not instrumented) and calls their module-level
functions with the arguments the suite's calls had, read back from exact JSON
(fixloop_probe_replay.py's `revive`). What each call returned or raised is written as the probe writes it
(fixloop_probe_canon.py), one JSON line per call as soon as it is over.

    python fixloop_outside.py <calls.json> <results.jsonl>

calls.json: [{"path": "pkg/mod.py", "name": "parse", "args": "[[\"a\"], {}]"}, ...], paths relative
to the working directory. A method called on an instance has "this", the instance's fields as JSON:
the call is made on an object of the class named before the method's name ("Parser" for
"Parser.parse") given those fields, made without calling __init__, as the suite's object was when
the call began; or, when "this" holds a pickle, on the object unpickled, if it is of that class and
its class is defined in that file. A value whose unpickling imports pytest is not used: the process
would no longer be plain. A line is {"i": 0, "out": {"returned": "True"}}, or {"i": 0, "missing":
"..."} when the function could not be found or imported. Standard library only; Python 3.8+.
"""
import importlib
import importlib.util
import json
import os
import signal
import sys

# A call that has not returned by then is written as not finished, and the next one runs.
CALL_S = 5
_HERE = os.path.dirname(os.path.abspath(__file__))

def _part(part):
    """fixloop_probe_<part>.py from this folder, under a private name (the folder is not on sys.path)."""
    name = "_fixloop_probe_" + part
    spec = importlib.util.spec_from_file_location(name, os.path.join(_HERE, "fixloop_probe_%s.py" % part))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module

def _module_name(path):
    """The folder the module is imported from and its dotted name, as pytest's default import mode finds
    them: up through the folders that are packages (they hold __init__.py), the first that is not is
    put on sys.path."""
    folder, name = os.path.split(os.path.abspath(path)[: -len(".py")])
    parts = [name]
    while os.path.isfile(os.path.join(folder, "__init__.py")):
        folder, package = os.path.split(folder)
        parts.insert(0, package)
    if parts[-1] == "__init__":
        parts.pop()
    return folder, ".".join(parts)

def _function(module, call, replay):
    """The module-level function, or the method bound to an object of its class given the fields."""
    if "this" not in call:
        return getattr(module, call["name"], None)
    class_name, _, method = call["name"].partition(".")
    cls = getattr(module, class_name, None)
    if not isinstance(cls, type):
        return None
    try:
        if replay.pickled(call["this"]):
            receiver = replay.revive(call["this"])
            # The object of exactly that class, of that file (pickle imports a class by its module's name).
            if type(receiver).__qualname__ != class_name or not _same_file(type(receiver), module):
                return None
        else:
            receiver = cls.__new__(cls)
            receiver.__dict__.update(replay.revive(call["this"]))
        return getattr(receiver, method, None)
    except Exception:
        return None

def _same_file(cls, module):
    source = sys.modules.get(cls.__module__)
    here = getattr(source, "__file__", None)
    return here is not None and os.path.realpath(here) == os.path.realpath(module.__file__)

def _runner_loaded():
    return any(name == "pytest" or name.startswith(("_pytest", "pytest.")) for name in sys.modules)

class _Late(Exception):
    pass

def _late(*_):
    raise _Late()

def _outcome(call, canon, replay):
    folder, name = _module_name(call["path"])
    if folder not in sys.path:
        sys.path.insert(0, folder)
    try:
        module = importlib.import_module(name)
    except BaseException as error:
        return {"missing": "%s does not import in a plain interpreter: %s" % (call["path"], canon.error_text(error))}
    fn = _function(module, call, replay)
    if not callable(fn):
        kind = "function" if "this" not in call else "class with a method"
        return {"missing": "%s has no %s named %s" % (call["path"], kind, call["name"])}
    try:
        args, kwargs = replay.revive(call["args"])
    except BaseException as error:
        return {"missing": "the arguments of %s could not be given back: %s" % (call["name"], canon.error_text(error))}
    if _runner_loaded():
        return {"missing": "the arguments of %s import pytest" % call["name"]}
    signal.alarm(CALL_S)
    try:
        return {"out": {"returned": canon.canon(fn(*args, **kwargs), returned=True)}}
    except _Late:
        return {"missing": "not finished within %d s" % CALL_S}
    except BaseException as error:
        return {"out": {"threw": canon.error_text(error)}}
    finally:
        signal.alarm(0)

def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: python fixloop_outside.py <calls.json> <results.jsonl>\n")
        return 2
    # The script's own folder is not the program's: it leaves the front of sys.path to the repository.
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]
    sys.path.insert(0, os.getcwd())
    canon, replay = _part("canon"), _part("replay")
    signal.signal(signal.SIGALRM, _late)
    with open(argv[1], encoding="utf-8") as source:
        calls = json.load(source)
    for i, call in enumerate(calls):
        line = dict({"i": i}, **_outcome(call, canon, replay))
        with open(argv[2], "a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv))
