"""The candidates mutate.py gathers for one file: its syntax tree and operator tokens, where a node
sits (its statement, its function, the names in its scope), and at the end the candidates kept: each
with minimal edits, none twice, each still parsing, with offsets in UTF-16 code units.
"""
import ast
import bisect

from mutate_source import Source, apply_edits, minimal_edits, operator_tokens, parses

FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


class Candidates:
    """The candidates of one file; a subclass's `visit(node)` adds those of a node on a chosen line."""

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

    def run(self):
        for node in ast.walk(self.tree):
            if getattr(node, "lineno", None) in self.lines:
                self.visit(node)  # the templates: mutate_templates.py's Generator
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

