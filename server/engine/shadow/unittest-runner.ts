// Shadowbox's unittest runner: `python -m unittest ARGS` becomes `python -c CODE ARGS`, where CODE
// runs unittest exactly as `-m unittest` does (the same argument parsing, discovery, console
// output and exit code) with a result class that also notes each test's id and result, written
// to `report` when the run ends. unittest prints test names only under `-v`; this names them
// whatever the user asked for, without changing what the user sees.
const code = (report: string): string => `
import atexit, json, sys, unittest
_report = ${JSON.stringify(report)}
_tests = []
class _Result(unittest.TextTestResult):
    def _note(self, test, status):
        _tests.append({"id": test.id(), "status": status})
    def addSuccess(self, test):
        super().addSuccess(test); self._note(test, "passed")
    def addFailure(self, test, err):
        super().addFailure(test, err); self._note(test, "failed")
    def addError(self, test, err):
        super().addError(test, err); self._note(test, "failed")
    def addSkip(self, test, reason):
        super().addSkip(test, reason); self._note(test, "skipped")
    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err); self._note(test, "skipped")
    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test); self._note(test, "failed")
    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None: self._note(test, "failed")
class _Runner(unittest.TextTestRunner):
    resultclass = _Result
def _write():
    if _tests:
        with open(_report, "w") as f: json.dump({"tests": _tests}, f)
atexit.register(_write)
sys.argv[0] = "python -m unittest"
unittest.main(module=None, testRunner=_Runner)
`;

/** The `-c` program that stands for `-m unittest`, writing its report to `report`. */
export function unittestRunnerCode(report: string): string {
  return code(report).trimStart();
}
