# fixloop's runtime guard for pytest (docs/design.md §3.2.7), loaded as a plugin with `-p` from a folder
# of fixloop's outside the checkout, under a name chosen for each run. pytest imports `-p` plugins
# before its entry points and before any conftest.py, so this module runs before any code of the
# repository: it claims its key (_record.py), installs its audit hook (_audit.py) and takes the
# identities of pytest's, pluggy's and unittest's callables (_identity.py). Then, at each test's
# report and end, it checks them again and records each test as pytest's terminal counts it
# (_cases.py), with what the test's body did as its own wrapper of the test function saw it
# (_bodies.py: a report rewritten by a hook does not change what the body raised); at the session's
# end it marks its record complete. A process that ends otherwise leaves it incomplete.
#
# Under pytest-xdist each worker is a pytest process of its own: the controller hands the records
# folder to the workers it starts (through execnet's environment of each worker, not its own), each
# worker's guard claims a key and records the tests it runs, and marks their reports, so that the
# controller, which sees every report again, records only those of a worker that had no guard (no
# key left), and the collection errors, which every worker meets and xdist reports once.
import os

import pytest

from . import _audit, _bodies, _cases, _environment, _identity, _opened, _places, _record, _routes

# Where pytest's own traceback has no frames (`--tb=no`, `--tb=line`), the guard prints its own.
_FRAMELESS = ("no", "line")

_recorder = _record.claim()
_guard = None

if _recorder is not None:

    class _Guard:
        def __init__(self, recorder):
            self.recorder = recorder
            self.places = _places.Places(recorder.root, recorder.test_files, recorder.exempt)
            self.protected = [os.path.realpath(recorder.folder)]
            # The test files by device and inode, before any repository code could link or move them.
            self.opened = _opened.Opened(recorder.root, recorder.test_files)
            self.routes = _routes.Routes(recorder, self.places, self.opened, __name__)
            self.environment = _environment.Environment(recorder, self.places, recorder.variables, recorder.given)
            dynamic = _audit.install(recorder, self.places, lambda: self.protected, self.opened, self.routes, self.environment)
            self.identities = _identity.Identities(recorder, self.places, dynamic)
            self._exit = os._exit
            os._exit = self._early_exit
            self.worker = False
            self.frameless = False
            # A report the guard of an xdist worker recorded (a name of this run's, as the guard's).
            self.mark = "_" + __name__
            # The traceback the guard printed for the last failing report made, until it is logged.
            self.pending = None
            # Each test's body as the guard's own wrapper of the test function saw it end (_bodies.py).
            self.bodies = _bodies.Bodies()
            # Last: the guard's own reads of the environment above are not the code's.
            self.environment.install()

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
        _guard.worker = hasattr(config, "workerinput")
        _guard.frameless = config.getoption("tbstyle", "auto") in _FRAMELESS

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_setupnodes(config, specs):
        # The variable is gone from this process's environment: each worker's is given it alone.
        for spec in specs:
            spec.env[_record.VARIABLE] = _guard.recorder.folder

    @pytest.hookimpl(tryfirst=True)
    def pytest_collectreport(report):
        # As pytest's terminal counts them: a module that cannot be collected is an error. Every xdist
        # worker collects every module; the controller records what xdist reports, once.
        if _guard.worker or not (report.failed or report.skipped):
            return
        _guard.recorder.add(_cases.case_of(report, "failed" if report.failed else "skipped", None, None))

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_finish(session):
        # The modules pytest collected tests from are test files too (beside the baseline's).
        for path in {str(item.path) for item in session.items if hasattr(item, "path")}:
            _guard.places.add_test(path)
            _guard.opened.add(path)

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_runtest_call(item):
        # The test function wrapped for its call (after its setup made it), put back after.
        restore = _guard.bodies.wrap(item)
        try:
            yield
        finally:
            if restore is not None:
                restore()

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_runtest_makereport(item, call):
        # Before pytest makes the call's report: a replaced report maker is seen before it runs.
        if call.when == "call":
            _guard.identities.check(critical_only=True)
        outcome = yield
        if _guard.frameless and call.excinfo is not None:
            report = outcome.get_result()
            if report.failed:
                _guard.pending = (report.nodeid, call.when, _long_traceback(item, call.excinfo))

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(report):
        if getattr(report, "node", None) is not None and getattr(report, _guard.mark, False):
            return  # an xdist worker's report its own guard recorded
        if _guard.worker:
            setattr(report, _guard.mark, True)
        description = _cases.subtest_description(report) if report.when == "call" else None
        if description is not None:
            outcome = _cases.subtest_outcome(report)
        else:
            status = _guard.config.hook.pytest_report_teststatus(report=report, config=_guard.config)
            outcome = _cases.OUTCOMES.get(_cases.category(status, report))
            if outcome is None:
                return
        long_text = None
        if _guard.pending is not None and outcome == "failed":
            if _guard.pending[:2] == (report.nodeid, report.when):
                long_text = _guard.pending[2]
            _guard.pending = None
        case = _cases.case_of(report, outcome, description, long_text)
        if report.when == "call" and description is None:
            case.update(_guard.bodies.take(report.nodeid))
        _guard.recorder.add(case)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logfinish(nodeid, location):
        _guard.identities.check()
        _guard.routes.check_hooks()

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(session, exitstatus):
        _guard.identities.check()
        _guard.routes.check_hooks()
        _guard.recorder.complete = True

    @pytest.hookimpl(trylast=True)
    def pytest_unconfigure(config):
        _guard.identities.check()
        _guard.recorder.write()


def _long_traceback(item, excinfo):
    """The failure as pytest prints it at `--tb=long`: where the project's style prints no frame."""
    try:
        return str(item._repr_failure_py(excinfo, style="long"))
    except Exception:  # an exception pytest cannot print: its own report's text stands
        return None
