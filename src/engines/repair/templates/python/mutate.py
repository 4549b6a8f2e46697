"""Repair-template candidates for a Python file, from Python's own parser (ast + tokenize).

Reads {"source": str, "lines": [int]} as JSON on stdin and prints a JSON list of candidates:
{"template", "line", "description", "edits": [{"start", "end", "text"}]}, with offsets counted in
UTF-16 code units (JavaScript string indices). Standard library only; Python 3.8+.
"""
import ast
import bisect
import io
import json
import sys
import tokenize

COMPARE = {
    ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
    ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in",
}
COMPARE_SWAPS = {
    "<": ["<=", ">", ">="], "<=": ["<", ">=", ">"], ">": [">=", "<", "<="], ">=": [">", "<=", "<"],
    "==": ["!="], "!=": ["=="], "is": ["is not"], "is not": ["is"], "in": ["not in"], "not in": ["in"],
}
BINOP = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**",
    ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>",
}
BINOP_SWAPS = {
    "+": ["-", "*"], "-": ["+", "*"], "*": ["/", "//", "+"], "/": ["//", "*"], "//": ["/", "%", "*"],
    "%": ["//", "/"], "**": ["*"], "&": ["|", "^"], "|": ["&", "^"], "^": ["&", "|"], "<<": [">>"], ">>": ["<<"],
}
BITWISE = {"&", "|", "^", "<<", ">>"}
ARITHMETIC = ["+", "-", "*", "/", "//", "%", "**"]


def binop_replacements(word):
    """The closest replacements first, then the rest of the operator's family."""
    family = sorted(BITWISE) if word in BITWISE else ARITHMETIC
    out = list(BINOP_SWAPS.get(word, []))
    return out + [o for o in family if o != word and o not in out]
NON_COMMUTATIVE = {"-", "/", "//", "%", "**", "<<", ">>"}
FUNCTION_SWAPS = {
    "min": ("min-max", ["max"]), "max": ("min-max", ["min"]),
    "any": ("any-all", ["all"]), "all": ("any-all", ["any"]),
    "floor": ("min-max", ["ceil", "round"]), "ceil": ("min-max", ["floor", "round"]),
}
METHOD_SWAPS = {
    "startswith": ["endswith"], "endswith": ["startswith"], "lower": ["upper"], "upper": ["lower"],
    "lstrip": ["rstrip", "strip"], "rstrip": ["lstrip", "strip"], "find": ["rfind"], "rfind": ["find"],
    "index": ["rindex"], "rindex": ["index"], "append": ["extend"], "extend": ["append"],
    "keys": ["values", "items"], "values": ["keys", "items"], "items": ["keys", "values"],
    "floor": ["ceil"], "ceil": ["floor"], "insert": ["append"], "remove": ["discard"], "split": ["rsplit"],
}
FALLBACKS = ["None", "0", "''", "[]", "False"]
MAX_NAMES = 8
FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


class Source:
    def __init__(self, text):
        self.text = text
        self.lines = text.splitlines(keepends=True)
        self.line_starts = []  # code-point offset of each line
        self.line_starts_utf16 = []  # the same in UTF-16 code units (JavaScript string indices)
        pos = pos16 = 0
        for line in self.lines:
            self.line_starts.append(pos)
            self.line_starts_utf16.append(pos16)
            pos += len(line)
            pos16 += len(line.encode("utf-16-le")) // 2

    def offset(self, lineno, col_bytes):
        """Code-point offset of (1-based line, UTF-8 byte column)."""
        line = self.lines[lineno - 1] if lineno - 1 < len(self.lines) else ""
        return self.line_starts[lineno - 1] + len(line.encode("utf-8")[:col_bytes].decode("utf-8", "replace"))

    def char_col(self, lineno, col_bytes):
        """Code-point column of a UTF-8 byte column (tokenize counts code points, ast bytes)."""
        return self.offset(lineno, col_bytes) - self.line_starts[lineno - 1]

    def start(self, node):
        return self.offset(node.lineno, node.col_offset)

    def end(self, node):
        return self.offset(node.end_lineno, node.end_col_offset)

    def seg(self, node):
        return self.text[self.start(node):self.end(node)]

    def line_of(self, cp_offset):
        """0-based index of the line holding a code-point offset."""
        return max(0, bisect.bisect_right(self.line_starts, cp_offset) - 1)

    def utf16(self, cp_offset):
        # Per line, not from the file's start: converting thousands of offsets of a large file from
        # its beginning each time was quadratic.
        i = self.line_of(cp_offset)
        if i >= len(self.lines):
            return len(self.text.encode("utf-16-le")) // 2
        return self.line_starts_utf16[i] + len(self.text[self.line_starts[i]:cp_offset].encode("utf-16-le")) // 2


def operator_tokens(text):
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type in (tokenize.OP, tokenize.NAME):
                out.append(tok)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return out


class Generator:
    def __init__(self, text, lines):
        self.src = Source(text)
        self.lines = set(lines)
        self.tree = ast.parse(text)
        self.tokens = operator_tokens(text)
        self.token_starts = [tok.start for tok in self.tokens]
        self.owned_names = {}
        self.out = []
        self.parents = {}
        for parent in ast.walk(self.tree):
            for child in ast.iter_child_nodes(parent):
                self.parents[child] = parent

    # -- helpers -------------------------------------------------------------------------------
    def emit(self, template, node, description, edits):
        stmt = node if isinstance(node, ast.stmt) else self.enclosing(node, ast.stmt)
        self.out.append({"template": template, "line": node.lineno, "description": description, "edits": edits, "stmt": stmt})

    def edit(self, start, end, text):
        return {"start": start, "end": end, "text": text}

    def replace(self, node, text):
        return self.edit(self.src.start(node), self.src.end(node), text)

    def token_between(self, left, right, words):
        """Offsets of the operator token (possibly two words, like `not in`) between two nodes."""
        lo = (left.end_lineno, self.src.char_col(left.end_lineno, left.end_col_offset))
        hi = (right.lineno, self.src.char_col(right.lineno, right.col_offset))
        # Tokens are in source order: start at the first one at or after `lo`, stop past `hi`.
        for i in range(bisect.bisect_left(self.token_starts, lo), len(self.tokens)):
            tok = self.tokens[i]
            if tok.start > hi:
                break
            if tok.end > hi:
                continue
            parts = words.split(" ")
            if tok.string != parts[0]:
                continue
            last = tok
            if len(parts) == 2:
                nxt = self.tokens[i + 1] if i + 1 < len(self.tokens) else None
                if nxt is None or nxt.string != parts[1]:
                    continue
                last = nxt
            # tokenize columns are code points within the line
            start = self.src.line_starts[tok.start[0] - 1] + tok.start[1]
            end = self.src.line_starts[last.end[0] - 1] + last.end[1]
            return start, end
        return None

    def enclosing(self, node, types):
        cur = self.parents.get(node)
        while cur is not None and not isinstance(cur, types):
            cur = self.parents.get(cur)
        return cur

    def scope_names(self, node):
        values, functions = set(), set()
        owners = [self.tree]
        fn = self.enclosing(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        while fn is not None:
            owners.append(fn)
            fn = self.enclosing(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        for owner in owners:
            owned_values, owned_functions = self.names_owned_by(owner)
            values |= owned_values
            functions |= owned_functions
        return sorted(values), sorted(functions)

    def names_owned_by(self, owner):
        """Names an owner (the module or a function) binds itself; one walk per owner, then reused
        (walking the whole module again for each identifier made a large file take minutes)."""
        cached = self.owned_names.get(id(owner))
        if cached is not None:
            return cached
        values, functions = set(), set()
        if isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            a = owner.args
            for arg in list(getattr(a, "posonlyargs", [])) + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x]:
                if arg.arg not in ("self", "cls"):
                    values.add(arg.arg)
        body = owner.body if isinstance(owner.body, list) else [owner.body]
        for stmt in body:
            for sub in ast.walk(stmt):
                if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and sub is not owner:
                    functions.add(sub.name)
                elif isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                    nearest = self.enclosing(sub, FUNCS)
                    if (owner is self.tree and nearest is None) or nearest is owner:
                        values.add(sub.id)
        self.owned_names[id(owner)] = (values, functions)
        return values, functions

    def atom(self, node):
        """The node's text, parenthesized unless it already binds tighter than any operator."""
        raw = self.src.seg(node)
        simple = (ast.Name, ast.Constant, ast.Call, ast.Attribute, ast.Subscript, ast.List, ast.Tuple, ast.Dict, ast.Set)
        return raw if isinstance(node, simple) else "(%s)" % raw

    def shifted(self, template, node, what):
        raw = self.src.seg(node)
        # `n - 1` → `n - 1 + 1` undoes an adjustment written on purpose; dropping it (the
        # arithmetic template's `dropped - 1`) is the same program and the patch a person writes.
        adjusted = isinstance(node, ast.BinOp) and isinstance(node.right, ast.Constant) and type(node.right.value) is int and node.right.value == 1
        for delta in (" - 1", " + 1"):
            if adjusted and isinstance(node.op, ast.Sub if delta == " + 1" else ast.Add):
                continue
            self.emit(template, node, "`%s` → `%s%s`%s" % (raw, raw, delta, what), [self.replace(node, raw + delta)])

    # -- templates -----------------------------------------------------------------------------
    def visit(self, node):
        if isinstance(node, ast.Compare):
            left = node.left
            for op, right in zip(node.ops, node.comparators):
                word = COMPARE.get(type(op))
                pos = self.token_between(left, right, word) if word else None
                if pos:
                    template = "relational-operator" if word in ("<", "<=", ">", ">=") else "equality-operator"
                    for repl in COMPARE_SWAPS.get(word, []):
                        self.emit(template, node, "`%s` → `%s`" % (word, repl), [self.edit(pos[0], pos[1], repl)])
                left = right
            for side in [node.left] + node.comparators:
                if isinstance(side, ast.Call) and isinstance(side.func, ast.Name) and side.func.id == "len":
                    self.shifted("off-by-one-bound", side, "")
            self.normalize_compared(node)
        elif isinstance(node, ast.BinOp):
            word = BINOP.get(type(node.op))
            pos = self.token_between(node.left, node.right, word) if word else None
            if pos:
                template = "bitwise-operator" if word in BITWISE else "arithmetic-operator"
                identity = isinstance(node.right, ast.Constant) and node.right.value == 1 and not isinstance(node.right.value, bool)
                for repl in binop_replacements(word):
                    if identity and repl in ("*", "/", "//", "**"):
                        continue  # `x - 1` → `x * 1` is the identity, not a fix
                    self.emit(template, node, "`%s` → `%s`" % (word, repl), [self.edit(pos[0], pos[1], repl)])
                if word in NON_COMMUTATIVE:
                    self.emit("swap-operands", node, "swapped the operands of `%s`" % word,
                              [self.replace(node.left, self.atom(node.right)), self.replace(node.right, self.atom(node.left))])
                # `n + 1` → `n`: an off-by-one written as an explicit adjustment.
                if word in ("+", "-") and identity:
                    self.emit("off-by-one-bound", node, "dropped `%s 1`" % word, [self.edit(self.src.end(node.left), self.src.end(node), "")])
                if word == "+" and isinstance(node.left, ast.Constant) and node.left.value == 1 and not isinstance(node.left.value, bool):
                    self.emit("off-by-one-bound", node, "dropped `1 +`", [self.edit(self.src.start(node), self.src.start(node.right), "")])
        elif isinstance(node, ast.AugAssign):
            word = BINOP.get(type(node.op))
            pos = self.token_between(node.target, node.value, word + "=") if word else None
            if pos:
                for repl in BINOP_SWAPS.get(word, [])[:2]:
                    self.emit("arithmetic-operator", node, "`%s=` → `%s=`" % (word, repl), [self.edit(pos[0], pos[1], repl + "=")])
        elif isinstance(node, ast.BoolOp):
            word = "and" if isinstance(node.op, ast.And) else "or"
            other = "or" if word == "and" else "and"
            for a, b in zip(node.values, node.values[1:]):
                pos = self.token_between(a, b, word)
                if pos:
                    self.emit("logical-operator", node, "`%s` → `%s`" % (word, other), [self.edit(pos[0], pos[1], other)])
            for i, value in enumerate(node.values):
                rest = [self.src.seg(v) for j, v in enumerate(node.values) if j != i]
                self.emit("drop-conjunct", node, "dropped `%s`" % self.src.seg(value), [self.replace(node, (" %s " % word).join(rest))])
            if word == "or":
                self.regroup(node)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and isinstance(self.parents.get(node), (ast.FunctionDef, ast.AsyncFunctionDef, ast.For, ast.While, ast.If, ast.With)):
            self.delete_statement(node)
        elif isinstance(node, (ast.If, ast.While, ast.IfExp)):
            test = node.test
            raw = self.src.seg(test)
            if isinstance(test, (ast.Name, ast.Attribute, ast.Subscript)):
                self.emit("presence-check", node, "`%s` → `%s is not None`" % (raw, raw), [self.replace(test, "%s is not None" % raw)])
            if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
                negated = self.src.seg(test.operand)
            else:
                negated = "not (%s)" % raw
            self.emit("negate-condition", node, "negated the condition `%s`" % raw, [self.replace(test, negated)])
        elif isinstance(node, ast.Constant):
            if isinstance(node.value, bool):
                self.emit("change-return-value", node, "`%s` → `%s`" % (node.value, not node.value), [self.replace(node, str(not node.value))])
            elif isinstance(node.value, int) and abs(node.value) < 10 ** 9:
                for v in (node.value + 1, node.value - 1):
                    if v >= 0 or node.value < 0:
                        self.emit("off-by-one-literal", node, "`%s` → `%s`" % (node.value, v), [self.replace(node, str(v))])
        elif isinstance(node, ast.Subscript):
            index = node.slice
            if isinstance(index, ast.Index):  # Python 3.8
                index = index.value
            if isinstance(index, ast.Slice):
                for bound in (index.lower, index.upper):
                    if bound is not None and not isinstance(bound, ast.Constant):
                        self.shifted("off-by-one-bound", bound, " (slice bound)")
            elif not isinstance(index, (ast.Constant, ast.Tuple)):
                self.shifted("off-by-one-bound", index, " (index)")
            self.guard(node, node.value)
        elif isinstance(node, ast.Call):
            self.call(node)
        elif isinstance(node, ast.Attribute):
            self.guard(node, node.value)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            self.rename(node)
        elif isinstance(node, ast.Return) and node.value is not None:
            raw = self.src.seg(node.value)
            if isinstance(node.value, ast.UnaryOp) and isinstance(node.value.op, ast.Not):
                self.emit("change-return-value", node, "return the negation", [self.replace(node.value, self.src.seg(node.value.operand))])
            elif isinstance(node.value, (ast.Compare, ast.BoolOp, ast.Call, ast.Name)):
                self.emit("change-return-value", node, "return `not (%s)`" % raw, [self.replace(node.value, "not (%s)" % raw)])
            if isinstance(node.value, (ast.Name, ast.Attribute)):
                for method in ("lower", "strip", "upper"):
                    self.emit("normalize-string", node, "return `%s.%s()`" % (raw, method), [self.replace(node.value, "%s.%s()" % (raw, method))])

    def normalize_compared(self, node):
        """`token.value == 'AS'` → `token.value.upper() == 'AS'`: the case the literal is written in."""
        sides = [node.left] + node.comparators
        if not all(isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)) for op in node.ops):
            return
        literals = [s.value for s in sides if isinstance(s, ast.Constant) and isinstance(s.value, str)]
        if not literals:
            return
        word = literals[0]
        methods = ["upper", "strip"] if word.isupper() else ["lower", "strip"] if word.islower() else ["strip"]
        for side in sides:
            if isinstance(side, (ast.Name, ast.Attribute)) or (isinstance(side, ast.Subscript) and not isinstance(side.value, ast.Constant)):
                raw = self.src.seg(side)
                for method in methods:
                    self.emit("normalize-string", node, "`%s` → `%s.%s()`" % (raw, raw, method), [self.replace(side, "%s.%s()" % (raw, method))])

    def parenthesized(self, node):
        """Whether the source wraps the node in parentheses of its own (ast keeps no trace of them)."""
        text, i, j = self.src.text, self.src.start(node) - 1, self.src.end(node)
        while i >= 0 and text[i].isspace():
            i -= 1
        while j < len(text) and text[j].isspace():
            j += 1
        return i >= 0 and text[i] == "(" and j < len(text) and text[j] == ")"

    def regroup(self, node):
        """`a and b or c` -> `a and (b or c)`, `a or b and c` -> `(a or b) and c`: precedence's grouping
        is not always the one meant. Only parentheses are inserted."""
        values = node.values
        for i, value in enumerate(values):
            if not (isinstance(value, ast.BoolOp) and isinstance(value.op, ast.And)) or self.parenthesized(value):
                continue
            if i + 1 < len(values):
                # (a and b) or c -> a and (b or c)
                opening, closing = value.values[-1], values[i + 1]
            elif i > 0:
                # a or (b and c) -> (a or b) and c
                opening, closing = values[i - 1], value.values[0]
            else:
                continue
            if self.parenthesized(opening) or self.parenthesized(closing):
                continue
            start, end = self.src.start(opening), self.src.end(closing)
            self.emit("regroup-logic", node, "regrouped `%s` as `(%s)`" % (self.src.seg(node)[:40], self.src.text[start:end][:40]),
                      [self.edit(start, start, "("), self.edit(end, end, ")")])

    def delete_statement(self, node):
        """A call statement removed; a body left empty gets `pass`."""
        parent = self.parents.get(node)
        body = parent.body if node in getattr(parent, "body", []) else getattr(parent, "orelse", [])
        raw = self.src.seg(node)
        # Checked within the enclosing block: the deleted statement alone is no code at all.
        self.out.append({"template": "delete-statement", "line": node.lineno, "description": "deleted `%s`" % raw[:50],
                         "edits": [self.replace(node, "pass" if len(body) == 1 else "")], "stmt": parent})

    def call(self, node):
        func = node.func
        args = [a for a in node.args if not isinstance(a, ast.Starred)]
        for i in range(len(args)):
            for j in range(i + 1, len(args)):
                a, b = self.src.seg(args[i]), self.src.seg(args[j])
                if a != b:
                    self.emit("swap-arguments", node, "swapped arguments %d and %d" % (i + 1, j + 1), [self.replace(args[i], b), self.replace(args[j], a)])
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if isinstance(func, ast.Name) and name in FUNCTION_SWAPS:
            template, targets = FUNCTION_SWAPS[name]
            for t in targets:
                self.emit(template, node, "`%s(…)` → `%s(…)`" % (name, t), [self.replace(func, t)])
        if isinstance(func, ast.Name) and name == "range":
            in_loop = isinstance(self.parents.get(node), (ast.For, ast.comprehension))
            for arg in args:
                self.shifted("loop-bound" if in_loop else "off-by-one-bound", arg, " in range()")
        if isinstance(func, ast.Attribute):
            start = self.src.end(func.value)
            attr_start = self.src.text.index(func.attr, start)
            targets = list(METHOD_SWAPS.get(func.attr, []))
            if func.attr in FUNCTION_SWAPS:
                targets += FUNCTION_SWAPS[func.attr][1]
            template = FUNCTION_SWAPS[func.attr][0] if func.attr in FUNCTION_SWAPS else "change-method"
            for t in targets:
                self.emit(template, node, "`.%s(…)` → `.%s(…)`" % (func.attr, t), [self.edit(attr_start, attr_start + len(func.attr), t)])
            if isinstance(func.value, ast.Name):
                values, _ = self.scope_names(node)
                for other in [v for v in values if v != func.value.id][:MAX_NAMES]:
                    self.emit("change-receiver", node, "receiver `%s` → `%s`" % (func.value.id, other), [self.replace(func.value, other)])

    def rename(self, node):
        parent = self.parents.get(node)
        if isinstance(parent, ast.keyword):
            return
        values, functions = self.scope_names(node)
        is_callee = isinstance(parent, ast.Call) and parent.func is node
        pool = functions if is_callee else values
        if node.id not in pool:
            return
        count = 0
        for other in pool:
            if other != node.id and count < MAX_NAMES:
                count += 1
                self.emit("replace-identifier", node, "`%s` → `%s`" % (node.id, other), [self.replace(node, other)])

    def guard(self, node, value):
        if not isinstance(value, ast.Name):
            return
        fn = self.enclosing(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        stmt = node
        while stmt is not None and not isinstance(stmt, ast.stmt):
            stmt = self.parents.get(stmt)
        if fn is None or stmt is None or isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return
        at = self.src.start(stmt)
        line_text = self.src.lines[stmt.lineno - 1]
        indent = line_text[: len(line_text) - len(line_text.lstrip())]
        for fallback in FALLBACKS:
            self.emit("add-null-guard", node, "guard: `if %s is None: return %s`" % (value.id, fallback),
                      [self.edit(at, at, "if %s is None:\n%s    return %s\n%s" % (value.id, indent, fallback, indent))])

    def run(self):
        for node in ast.walk(self.tree):
            if getattr(node, "lineno", None) in self.lines:
                self.visit(node)
        return self.finish()

    def finish(self):
        seen, out = set(), []
        for cand in self.out:
            stmt = cand.pop("stmt")
            edits = minimal_edits(self.src.text, cand["edits"])
            overlapping = any(a["end"] > b["start"] for a, b in zip(edits, edits[1:]))
            if overlapping or not edits:
                continue
            # Duplicates are told apart by their edits, not by the file they would write.
            key = tuple((e["start"], e["end"], e["text"]) for e in edits)
            if key in seen:
                continue
            seen.add(key)
            if not self.parses(edits, stmt):
                continue
            for e in edits:
                e["start"], e["end"] = self.src.utf16(e["start"]), self.src.utf16(e["end"])
            cand["edits"] = edits
            out.append(cand)
        out.sort(key=lambda c: (c["line"], c["edits"][0]["start"], c["template"]))
        return out

    def parses(self, edits, stmt):
        """Whether the code still parses with the edits: the statement they fall in, parsed on its
        own (under `if 1:` when indented), rather than the whole file once per candidate."""
        text = self.src.text
        if stmt is not None:
            first, last = stmt.lineno - 1, stmt.end_lineno - 1
            lo = self.src.line_starts[first]
            hi = self.src.line_starts[last] + len(self.src.lines[last]) if last < len(self.src.lines) else len(text)
            if lo <= edits[0]["start"] and edits[-1]["end"] <= hi:
                region = apply_edits(text[lo:hi], edits, -lo)
                if self.src.lines[first][:1] in (" ", "\t"):
                    region = "if 1:\n" + region
                return parses(region)
        return parses(apply_edits(text, edits, 0))


def minimal_edits(text, edits):
    """The smallest replacements with the same effect, sorted; edits that change nothing dropped."""
    out = []
    for e in sorted(edits, key=lambda e: e["start"]):
        old, new = text[e["start"]:e["end"]], e["text"]
        head = 0
        while head < len(old) and head < len(new) and old[head] == new[head]:
            head += 1
        tail = 0
        while tail < len(old) - head and tail < len(new) - head and old[-1 - tail] == new[-1 - tail]:
            tail += 1
        if head == len(old) and head == len(new):
            continue
        out.append({"start": e["start"] + head, "end": e["end"] - tail, "text": new[head:len(new) - tail]})
    return out


def apply_edits(text, edits, shift):
    out, cursor = "", 0
    for e in edits:
        out += text[cursor:e["start"] + shift] + e["text"]
        cursor = e["end"] + shift
    return out + text[cursor:]


def parses(text):
    try:
        ast.parse(text)
        return True
    except (SyntaxError, ValueError):
        return False


def main():
    request = json.load(sys.stdin)
    try:
        candidates = Generator(request["source"], request["lines"]).run()
    except SyntaxError:
        candidates = []
    json.dump(candidates, sys.stdout)


if __name__ == "__main__":
    main()
