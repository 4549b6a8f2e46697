"""The Python repair templates of mutate.py: for each node on a suspicious line, the edits a template
makes of it (an operator swapped, a bound moved by one, a condition negated, a call's arguments
swapped, a name replaced by another in scope, a None guard added, …).
"""
import ast

from mutate_candidates import Candidates
from mutate_regex import pattern_literal, regex_mutations
from mutate_swaps import (
    BINOP, BINOP_SWAPS, BITWISE, COMPARE, COMPARE_SWAPS, FUNCTION_SWAPS, METHOD_SWAPS, NON_COMMUTATIVE, binop_replacements,
)

FALLBACKS = ["None", "0", "''", "[]", "False"]
MAX_NAMES = 8


class Generator(Candidates):
    """The candidates of a file's chosen lines, made by the templates below."""

    def visit(self, node):
        """The templates that apply to the node, by its kind."""
        if isinstance(node, ast.Compare):
            self.compare(node)
        elif isinstance(node, ast.BinOp):
            self.binary(node)
        elif isinstance(node, ast.AugAssign):
            self.augmented(node)
        elif isinstance(node, ast.BoolOp):
            self.logical(node)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and isinstance(self.parents.get(node), (ast.FunctionDef, ast.AsyncFunctionDef, ast.For, ast.While, ast.If, ast.With)):
            self.delete_statement(node)
        elif isinstance(node, (ast.If, ast.While, ast.IfExp)):
            self.condition(node)
        elif isinstance(node, ast.Constant):
            self.constant(node)
        elif isinstance(node, ast.Subscript):
            self.subscript(node)
        elif isinstance(node, ast.Call):
            self.call(node)
        elif isinstance(node, ast.Attribute):
            self.guard(node, node.value)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            self.rename(node)
        elif isinstance(node, ast.Return) and node.value is not None:
            self.returned(node)

    def compare(self, node):
        """Comparison operators flipped, `len(…)` shifted by one, the compared value normalized."""
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

    def binary(self, node):
        """Arithmetic and bitwise operators swapped, operands swapped, a `± 1` adjustment dropped."""
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

    def augmented(self, node):
        """`x += y` and kin: the operator swapped for its nearest two."""
        word = BINOP.get(type(node.op))
        pos = self.token_between(node.target, node.value, word + "=") if word else None
        if pos:
            for repl in BINOP_SWAPS.get(word, [])[:2]:
                self.emit("arithmetic-operator", node, "`%s=` → `%s=`" % (word, repl), [self.edit(pos[0], pos[1], repl + "=")])

    def logical(self, node):
        """`and` and `or` swapped, a conjunct dropped, `a and b or c` regrouped."""
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

    def condition(self, node):
        """The test of an `if`, `while` or `… if … else …`: made a presence check, or negated."""
        test = node.test
        raw = self.src.seg(test)
        if isinstance(test, (ast.Name, ast.Attribute, ast.Subscript)):
            self.emit("presence-check", node, "`%s` → `%s is not None`" % (raw, raw), [self.replace(test, "%s is not None" % raw)])
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            negated = self.src.seg(test.operand)
        else:
            negated = "not (%s)" % raw
        self.emit("negate-condition", node, "negated the condition `%s`" % raw, [self.replace(test, negated)])

    def constant(self, node):
        """A boolean flipped, a small integer moved by one, a regular expression's piece edited."""
        if isinstance(node.value, str):
            self.regex(node)
        elif isinstance(node.value, bool):
            self.emit("change-return-value", node, "`%s` → `%s`" % (node.value, not node.value), [self.replace(node, str(not node.value))])
        elif isinstance(node.value, int) and abs(node.value) < 10 ** 9:
            for v in (node.value + 1, node.value - 1):
                if v >= 0 or node.value < 0:
                    self.emit("off-by-one-literal", node, "`%s` → `%s`" % (node.value, v), [self.replace(node, str(v))])

    def regex(self, node):
        """A pattern's quantifier, class or anchor edited (mutate_regex.py)."""
        literal = pattern_literal(self.src.seg(node), node, self.parents.get(node))
        if literal is None:
            return
        prefix, quote, pattern = literal
        for new, description in regex_mutations(pattern):
            # An edit that would end the literal early, or write an escape into a literal that is not raw.
            if quote in new.replace("\\" + quote, "") or ("r" not in prefix.lower() and "\\" in new):
                continue
            text = "%s%s%s%s" % (prefix, quote, new, quote)
            self.emit("regex-literal", node, "%s in `%s%s%s%s`" % (description, prefix, quote, pattern, quote), [self.replace(node, text)])

    def subscript(self, node):
        """An index or slice bound moved by one; the subscripted name guarded against None."""
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

    def returned(self, node):
        """The returned value negated, or a returned string normalized."""
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
