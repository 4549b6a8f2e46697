# The guard's record and the channel it leaves by (docs/design.md §3.2.7). fixloop writes a few one-use
# keys into the records folder; the first thing the guard does, before pytest loads any code of the
# repository, is claim one (rename, read, delete) and forget the variable that named the folder. Its
# record is signed with that key (HMAC-SHA256): code under test can list the folder and read its
# environment, but a key it could still find there is not its process's, and fixloop requires a
# valid complete record for every key that is gone. Limits: docs/security.md, "The judge".
import hashlib
import hmac
import json
import os

VARIABLE = "FIXLOOP_PYTEST_GUARD"
MAX_EVENTS = 50


class Recorder:
    """One guarded process's record: its events, the tests it saw end (counted and named), whether pytest finished."""

    def __init__(self, folder, index, sign, context):
        self.folder = folder
        self.index = index
        self.pid = os.getpid()
        self.root = context["root"]
        self.test_files = context["testFiles"]
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
    """This process's key, claimed before any repository code runs; None: not a judged process."""
    folder = os.environ.pop(VARIABLE, None)
    if not folder:
        return None
    keys = os.path.join(folder, "keys")
    try:
        with open(os.path.join(folder, "context.json"), encoding="utf-8") as f:
            context = json.load(f)
        names = sorted(os.listdir(keys))
    except OSError:
        return None
    for name in names:
        if not name.isdigit():
            continue  # a key another process is claiming
        mine = os.path.join(keys, "%s.claimed-%d" % (name, os.getpid()))
        try:
            os.rename(os.path.join(keys, name), mine)
        except OSError:
            continue  # another process claimed it first
        with open(mine, encoding="ascii") as f:
            key = bytes.fromhex(f.read().strip())
        os.unlink(mine)
        return Recorder(folder, int(name), _signer(key), context)
    return None


def _signer(key):
    # The key lives only in this closure.
    return lambda payload: hmac.new(key, payload.encode("utf-8"), hashlib.sha256).hexdigest()
