// A subtest's id (pytest 9's `subtests` fixture and `TestCase.subTest`, the pytest-subtests plugin):
// its test's node id, a space and the subtest's description as pytest prints it (`[msg]`, `(i=1)`,
// `[msg] (i=1)`), so `tests/t.py::TestC::test_a (i=1)` reads as pytest's `TestC.test_a (i=1)` and
// `SUBFAILED(i=1) tests/t.py::TestC::test_a`. pytest selects no subtest: its test's node id runs it.

/** The id of the subtest of `nodeId` that pytest describes as `description`. */
export function subtestId(nodeId: string, description: string): string {
  return `${nodeId} ${description}`;
}

/** A subtest's description as pytest starts it: `[` its message, or `(` its parameters. */
export function isSubtestDescription(title: string): boolean {
  return /^[[(]/.test(title);
}

// After the last `::`: the test's name, its parameters' id glued to it (`test_a[1-2]`), then the
// description after one space. A parameter id holds no space-and-bracket in practice.
const SUBTEST_OF = /^([^\s[\]()]+(?:\[.*?\])?) ([[(].*)$/s;

/** The node id pytest selects for a test or subtest id (a subtest's: its test's). */
export function nodeIdOf(id: string): string {
  const cut = id.lastIndexOf('::');
  if (cut === -1) return id;
  const last = SUBTEST_OF.exec(id.slice(cut + 2));
  return last?.[1] ? id.slice(0, cut + 2) + last[1] : id;
}
