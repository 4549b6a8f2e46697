"""Regular expressions in Python string literals, as the JavaScript template (templates/js/regex.ts)
edits a pattern: a quantifier changed, a character class given or spared a member, an anchor added.
Most regular expression fixes edit one such piece (Wang et al., "Exploring regular expression
evolution", 2020), and no operator template reaches inside a string. A literal counts as a pattern
when it is raw (`r'\\d+'`, where the text is the pattern as written) or is the pattern argument of a
call of the `re` module; a literal with escapes that is not raw is left alone (its text is not the
pattern as written). Each pattern is checked with `re.compile` before it is offered.
"""
import ast
import re

RE_FUNCTIONS = {"compile", "match", "fullmatch", "search", "sub", "subn", "split", "findall", "finditer"}
# Characters a negated class most often misses: delimiters of URLs, paths and key/value syntax.
DELIMITERS = ["#", "?", "/", r"\s", ".", ":", "@", "&", "="]
LITERAL = re.compile(r"""^([rRbBuU]{0,2})('|")(.*)\2$""", re.S)


def pattern_literal(segment, node, parent):
    """The literal's prefix, quote and pattern text, or None when it is not a pattern written as-is."""
    found = LITERAL.match(segment)
    if not found or "\n" in segment or not isinstance(node.value, str):
        return None
    prefix, quote, body = found.groups()
    raw = "r" in prefix.lower()
    if not raw and ("\\" in body or not is_re_argument(node, parent)):
        return None
    return prefix, quote, body


def is_re_argument(node, parent):
    """Whether the literal is the first argument of `re.<function>(…)`."""
    if not isinstance(parent, ast.Call) or not parent.args or parent.args[0] is not node:
        return False
    func = parent.func
    return isinstance(func, ast.Attribute) and func.attr in RE_FUNCTIONS and isinstance(func.value, ast.Name) and func.value.id == "re"


def pieces(pattern):
    """The pattern's character classes and quantifiers, as (kind, start, end); escapes respected."""
    found = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            j = i + 1
            if j < len(pattern) and pattern[j] == "^":
                j += 1
            if j < len(pattern) and pattern[j] == "]":
                j += 1
            while j < len(pattern) and pattern[j] != "]":
                j += 2 if pattern[j] == "\\" else 1
            found.append(("class", i, j + 1))
            i = j
        elif c in "+*" or (c == "?" and i > 0 and pattern[i - 1] not in "(+*?}"):
            found.append(("quantifier", i, i + 1))
        i += 1
    return found


def class_members(body):
    """The members of a class body (`/?#`, `\\s`, `a-z`), each as written."""
    members = []
    i = 0
    while i < len(body):
        if body[i] == "\\":
            members.append(body[i:i + 2])
            i += 2
        elif i + 2 < len(body) and body[i + 1] == "-":
            members.append(body[i:i + 3])
            i += 3
        else:
            members.append(body[i])
            i += 1
    return members


def valid(pattern):
    try:
        re.compile(pattern)
        return True
    except (re.error, RecursionError, OverflowError):
        return False


def regex_mutations(pattern):
    """(new pattern, description) for each one-piece edit of `pattern` that still compiles."""
    out = []

    def add(new, description):
        if new != pattern and valid(new) and all(new != seen for seen, _ in out):
            out.append((new, description))

    def splice(start, end, text):
        return pattern[:start] + text + pattern[end:]

    if not pattern.startswith("^"):
        add("^" + pattern, "anchored at the start")
    if not pattern.endswith("$") or pattern.endswith("\\$"):
        add(pattern + "$", "anchored at the end")
    for kind, start, end in pieces(pattern):
        if kind == "quantifier":
            q = pattern[start]
            for r in {"+": ["*", "{2,}"], "*": ["+"]}.get(q, [""]):
                add(splice(start, end, r), "`%s` → `%s`" % (q, r) if r else "dropped `%s`" % q)
            continue
        negated = pattern[start + 1:start + 2] == "^"
        body_start = start + (2 if negated else 1)
        members = class_members(pattern[body_start:end - 1])
        whole = pattern[start:end]
        if len(members) > 1:
            for k, member in enumerate(members):
                add(splice(body_start, end - 1, "".join(m for j, m in enumerate(members) if j != k)), "dropped `%s` from `%s`" % (member, whole))
        if negated:
            for d in DELIMITERS:
                if d not in members and "\\" + d not in members:
                    add(splice(end - 1, end - 1, d), "added `%s` to `%s`" % (d, whole))
    return out
