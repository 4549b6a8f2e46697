# What a child's command line reads of the tests beyond a test file it names (_routes.py), for a
# program the guard cannot follow (it is not Python): a folder that holds a test file (`grep -r x .`,
# `cp -r tests /tmp/t`, `cat tests/*`), a recursive search run with no folder (its working folder),
# and the repository's committed files through git (`git grep`, `git show HEAD:…`, `git cat-file`,
# `git archive`), the tests among them. The same rules as the Node guard's (guard-child-reads.cjs).
import os
import re

# git's commands that print the content of committed files; `git log` only with its changes.
GIT_READS = {"grep", "show", "cat-file", "archive", "blame", "diff", "format-patch", "bundle"}
LOG_PATCH = re.compile(r"^(-p|-u|--patch|-L.*)$")
GIT_VALUED = {"-C", "-c", "--git-dir", "--work-tree", "--namespace"}
SEARCHES = re.compile(r"^(grep|egrep|fgrep|rg|ag|ack)$")
RECURSIVE = re.compile(r"^(-[a-zA-Z]*[rR][a-zA-Z]*|--recursive|--dereference-recursive)$")
# Programs the guard follows itself: pytest, with the guard's plugin handed down (a plain Python is not).
FOLLOWED = re.compile(r"^(pytest|py\.test)$")
GLOB = re.compile(r"[*?[{]")
SPLIT = re.compile(r"[\s\"'`;|&()<>]+")


def child_reads_tests(line, cwd, root, tests):
    """What the child whose command line is `line` (program first) reads of the tests, started in `cwd`:
    `root` is the repository with its separator, `tests` the test files' full paths; None: nothing."""
    words = [w for w in SPLIT.split(line) if w]
    # Popen's line is its program, then its arguments, which start with the program's name again.
    if len(words) > 1 and os.path.basename(words[1]) == os.path.basename(words[0]):
        del words[1]
    if not words or FOLLOWED.match(os.path.basename(words[0])):
        return None
    relative = [t[len(root):] for t in tests if t.startswith(root)]

    def inside(path):
        full = os.path.realpath(path)
        if full + os.sep == root:
            return ""
        return full[len(root):] if full.startswith(root) else None

    def holds_tests(rel):
        return rel == "" or any(t.startswith(rel + "/") for t in relative)

    git_at = next((i for i, w in enumerate(words) if os.path.basename(w) == "git"), None)
    if git_at is not None:
        command = _git_command(words[git_at + 1:])
        reads = command in GIT_READS or (command == "log" and any(LOG_PATCH.match(w) for w in words))
        if reads and inside(cwd) is not None:
            return "the repository's files through `git %s`" % command
    for word in words[1:]:
        if word.startswith("-"):
            continue
        parts = word.split("/")
        cut = next((i for i, p in enumerate(parts) if GLOB.search(p)), None)
        path = word if cut is None else ("/".join(parts[:cut]) or ".")
        full = os.path.join(cwd, path)
        rel = inside(full)
        if rel is not None and holds_tests(rel) and os.path.isdir(full):
            return "the folder `%s`, which holds the tests" % (rel or ".")
    searched = next((w for w in words if SEARCHES.match(os.path.basename(w))), None)
    if searched is not None and (os.path.basename(searched) != "grep" or any(RECURSIVE.match(w) for w in words)):
        rel = inside(cwd)
        if rel is not None and holds_tests(rel):
            return "its working folder `%s`, which holds the tests, searched whole" % (rel or ".")
    return None


def _git_command(words):
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word in GIT_VALUED:
            skip = True
        elif not word.startswith("-"):
            return word
    return None
