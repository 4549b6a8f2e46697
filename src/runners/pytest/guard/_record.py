# The guard's record and the channel it leaves by (docs/design.md §3.2.7). fixloop keeps a named pipe
# of one-use keys in the records folder filled while the command runs
# (src/runners/guard-key-pipe.ts); the first thing the guard does, before pytest loads any code of
# the repository, is read one whole 64-byte chunk from it (what a pipe's read returns is gone from
# it: no other process gets the same key, nor sees one another will get) and forget the variable
# that named the folder. Its record is signed with that key (HMAC-SHA256), and fixloop requires a
# valid complete record for every key that was taken. Limits: docs/security.md, "The judge".
import hashlib
import hmac
import json
import os
import re
import time

VARIABLE = "FIXLOOP_PYTEST_GUARD"
MAX_EVENTS = 50
# One key in the pipe: its index (8 digits) and the key (56 hex digits).
CHUNK = 64
KEY_TEXT = re.compile(r"\d{8}[0-9a-f]{56}")
# How long a process waits for fixloop to top the pipe up.
WAIT_SECONDS = 2.0
STEP_SECONDS = 0.005


class Recorder:
    """One guarded process's record: its events, the tests it saw end (counted and named), whether pytest finished."""

    def __init__(self, folder, index, sign, context):
        self.folder = folder
        self.index = index
        self.pid = os.getpid()
        self.root = context["root"]
        self.test_files = context["testFiles"]
        # The conftest.py files the judge takes as the tests' side (None: every one, _places.py).
        exempt = context.get("exempt")
        self.exempt = exempt if isinstance(exempt, list) else None
        # The variables the runners set in their test processes, as regular expressions (_environment.py).
        self.variables = context.get("variables") or []
        # The variables the command was given: the operator's settings, not the runner's sign.
        self.given = context.get("given") or []
        self.events = []
        self.seen = set()
        self.tests = {"passed": 0, "failed": 0, "skipped": 0}
        self.cases = []
        self.complete = False
        self.active = True
        self._sign = sign

    def event(self, kind, file, line, detail):
        key = (kind, file, detail)
        if not self.active or key in self.seen or len(self.events) >= MAX_EVENTS:
            return
        self.seen.add(key)
        self.events.append({"kind": kind, "file": file, "line": line, "detail": detail})

    def add(self, case):
        """A test seen end (_cases.py): counted with its case, so the counts are always the cases'."""
        self.tests[case["outcome"]] += 1
        self.cases.append(case)

    def write(self):
        """Writes the record as it stands (again at the end): a process that ends early leaves what it saw."""
        if not self.active or os.getpid() != self.pid:
            return
        payload = json.dumps({"runner": "pytest", "pid": self.pid, "index": self.index, "complete": self.complete, "tests": self.tests, "events": self.events, "cases": self.cases})
        target = os.path.join(self.folder, "record-%d.json" % self.index)
        temporary = "%s.%d.tmp" % (target, self.pid)
        with open(temporary, "w", encoding="utf-8") as out:
            json.dump({"payload": payload, "mac": self._sign(payload)}, out)
        os.replace(temporary, target)


def claim():
    """This process's key, taken before any repository code runs; None: not a judged process, or none to take."""
    folder = os.environ.pop(VARIABLE, None)
    if not folder:
        return None
    try:
        with open(os.path.join(folder, "context.json"), encoding="utf-8") as f:
            context = json.load(f)
        fd = os.open(os.path.join(folder, "keys.fifo"), os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        text = _read_chunk(fd)
    finally:
        os.close(fd)
    if text is None:
        return None
    return Recorder(folder, int(text[:8]), _signer(bytes.fromhex(text[8:])), context)


def _read_chunk(fd):
    """One whole key chunk, waiting while the pipe is empty; None when none comes or one was cut short."""
    waited = 0.0
    while waited <= WAIT_SECONDS:
        try:
            chunk = os.read(fd, CHUNK)
        except BlockingIOError:
            time.sleep(STEP_SECONDS)
            waited += STEP_SECONDS
            continue
        text = chunk.decode("latin-1")
        return text if len(chunk) == CHUNK and KEY_TEXT.fullmatch(text) else None
    return None


def _signer(key):
    # The key lives only in this closure.
    return lambda payload: hmac.new(key, payload.encode("utf-8"), hashlib.sha256).hexdigest()
