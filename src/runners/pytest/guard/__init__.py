# fixloop's runtime guard for pytest (docs/design.md §3.2.7), loaded as a plugin with `-p` from a folder
# of fixloop's outside the checkout, under a name chosen for each run. pytest imports `-p` plugins
# before its entry points and before any conftest.py, so this module runs before any code of the
# repository: it claims its key (_record.py), installs its audit hook (_audit.py) and takes the
# identities of pytest's, pluggy's and unittest's callables (_identity.py). Then, at each test's
# report and end, it checks them again and counts the tests as pytest's terminal does; at the
# session's end it marks its record complete. A process that ends otherwise leaves it incomplete.
import os

import pytest

from . import _audit, _identity, _places, _record

_recorder = _record.claim()
_guard = None

if _recorder is not None:

    class _Guard:
        def __init__(self, recorder):
            self.recorder = recorder
            self.places = _places.Places(recorder.root, recorder.test_files)
            self.protected = [os.path.realpath(recorder.folder)]
            dynamic = _audit.install(recorder, self.places, lambda: self.protected)
            self.identities = _identity.Identities(recorder, self.places, dynamic)
            self._exit = os._exit
            os._exit = self._early_exit

        def _early_exit(self, status):
            # os._exit raises no audit event: the guard's own stands in for it (the original is
            # still reachable as posix._exit, and then the record is simply incomplete).
            caller = self.places.caller(1)
            self.recorder.event("exit", caller[0] if caller else None, caller[1] if caller else None, "ended its own process (`os._exit(%r)`)" % (status,))
            self.recorder.write()
            self._exit(status)

    _guard = _Guard(_recorder)

    @pytest.hookimpl(trylast=True)
    def pytest_configure(config):
        xml = getattr(config.option, "xmlpath", None)
        if xml:
            _guard.protected.append(os.path.realpath(xml))
        _guard.config = config

    @pytest.hookimpl(tryfirst=True)
    def pytest_collectreport(report):
        # As pytest's terminal counts them: a module that cannot be collected is an error.
        if report.failed:
            _guard.recorder.tests["failed"] += 1
        elif report.skipped:
            _guard.recorder.tests["skipped"] += 1

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_finish(session):
        # The modules pytest collected tests from are test files too (beside the baseline's).
        for path in {str(item.path) for item in session.items if hasattr(item, "path")}:
            _guard.places.add_test(path)

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_runtest_makereport(item, call):
        # Before pytest makes the call's report: a replaced report maker is seen before it runs.
        if call.when == "call":
            _guard.identities.check(critical_only=True)
        yield

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(report):
        status = _guard.config.hook.pytest_report_teststatus(report=report, config=_guard.config)
        category = status[0] if status else None
        counted = {"passed": "passed", "xpassed": "passed", "failed": "failed", "error": "failed", "skipped": "skipped", "xfailed": "skipped"}.get(category)
        if counted:
            _guard.recorder.tests[counted] += 1

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logfinish(nodeid, location):
        _guard.identities.check()

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(session, exitstatus):
        _guard.identities.check()
        _guard.recorder.complete = True

    @pytest.hookimpl(trylast=True)
    def pytest_unconfigure(config):
        _guard.identities.check()
        _guard.recorder.write()
