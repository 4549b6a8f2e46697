"""The source text of mutate.py's file: positions in the units each party counts (ast's UTF-8 byte
columns, tokenize's and Python's code points, JavaScript's UTF-16 code units), and the edits of a
candidate, made minimal, applied and parsed.
"""
import ast
import bisect
import io
import tokenize


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

