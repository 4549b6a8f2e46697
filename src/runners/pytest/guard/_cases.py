# Each test as pytest hands it to its own reporters (GuardTestCase in src/core/guard-record.ts), read
# from the reports the guard sees at `pytest_runtest_logreport` and `pytest_collectreport`, whatever
# reporter, quiet flag or plugin the project chose. One case per report pytest counts in its summary
# ("1 failed, 2 passed, 1 error"), so the record's counts are pytest's and equal its cases: a test whose
# call passed and whose teardown raised is pytest's "1 passed, 1 error", two cases of one id (the
# error's last); a rerun (pytest-rerunfailures) is counted by pytest, and here, only at its last try.
#
# Subtests (pytest 9's `subtests` fixture and `TestCase.subTest`, the pytest-subtests plugin before
# it): each subtest pytest reports is a case of its own, titled by its test's titles and its
# description (`(i=1)`, `[msg] (i=1)`), with its own outcome, at every verbosity (pytest 9 counts a
# passed subtest only when its verbosity is not the default, and apart, as "subtests passed"). The
# test keeps the outcome pytest gives it: pytest 9 reports a TestCase's test passed beside its failed
# subtest ("1 failed, 1 passed"), and its `subtests` fixture's test failed ("contains 1 failed
# subtest"); pytest-subtests reports both passed. A failing subtest is thus one failure, as pytest
# counts it; once it passes, its case passes. pytest-subtests reports a TestCase's passing subtests
# not at all: there, a fixed subtest is seen as its test passing with no failed subtest left.

MESSAGE_CAP = 2000
STACK_CAP = 8000

# pytest's summary words (`pytest_report_teststatus`'s category) as a case's outcome; other
# categories (a passed setup or teardown, a rerun's earlier try) are not counted by pytest.
OUTCOMES = {
    "passed": "passed",
    "xpassed": "passed",
    "subtests passed": "passed",
    "failed": "failed",
    "error": "failed",
    "skipped": "skipped",
    "xfailed": "skipped",
}


def category(status, report):
    """The report's summary word: `pytest_report_teststatus`'s, else (`-p no:terminal` leaves a call's
    report to no plugin) the one pytest's terminal gives by default."""
    if status:
        return status[0]
    if report.failed and report.when != "call":
        return "error"
    return report.outcome


def subtest_description(report):
    """A subtest's own words (`(i=1)`, `[msg] (i=1)`) as its pytest prints them; None: not a subtest."""
    if getattr(report, "context", None) is None:
        return None
    describe = getattr(report, "_sub_test_description", None) or getattr(report, "sub_test_description", None)
    return describe() if callable(describe) else None


def subtest_outcome(report):
    """Its outcome whatever the verbosity (pytest 9 gives no category to a passed subtest by default)."""
    return "failed" if report.failed else "skipped" if report.skipped else "passed"


def node_parts(nodeid):
    """(file, titles) of a node id: `tests/t.py::C::test[a::b]` is `tests/t.py`, [`C`, `test[a::b]`]."""
    head, bracket, params = nodeid.partition("[")
    parts = head.split("::")
    parts[-1] += bracket + params
    if len(parts) == 1:
        # A module (or folder) pytest could not collect, or skipped whole: its node id is its path,
        # which is its one title (with no file beside it, so that `f.txt::f.txt`, a text file's
        # doctest, stays apart).
        return None, [nodeid or "<session>"]
    return parts[0], parts[1:]


def case_of(report, outcome, description, long_text):
    """The case of one counted report; `long_text`: the guard's own traceback where pytest's has no frames."""
    file, titles = node_parts(report.nodeid)
    if description is not None:
        titles.append(description)
    case = {"file": file, "titles": titles, "outcome": outcome}
    if outcome == "failed":
        message, stack = _failure(report, long_text)
        if message:
            case["message"] = message
        if stack:
            case["stack"] = stack
    return case


def _failure(report, long_text):
    try:
        text = long_text or report.longreprtext
    except Exception:  # a plugin's longrepr that cannot be printed
        text = ""
    crash = getattr(report.longrepr, "reprcrash", None)
    message = getattr(crash, "message", None)
    if not isinstance(message, str) or not message:
        message = "\n".join(line for line in text.splitlines() if line.strip())
    return _capped(message, MESSAGE_CAP, False), _capped(text.rstrip(), STACK_CAP, True)


def _capped(text, cap, keep_end):
    if len(text) <= cap:
        return text
    # A traceback's end is the error and the innermost frames; a message's start is its first lines.
    return "...\n" + text[len(text) - cap + 4:] if keep_end else text[: cap - 4] + "\n..."
