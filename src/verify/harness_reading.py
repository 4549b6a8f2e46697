"""Reading a changed Python file as Python reads it, for harness_tampering.py (docs/design.md §3.2.3).

The file's bytes are decoded by its coding cookie as Python decodes them (PEP 263: a cookie on line 1
or 2, else UTF-8, a BOM meaning UTF-8), and parsed by Python's own parser from those bytes, so the
check sees the text the interpreter runs: a `# coding: utf-7` cookie that spells `import _pytest` as
`import +AF8-pytest` is read as the import it is. What cannot be read is said with why: the check
fails closed. Standard library only; Python 3.8+.
"""
import ast
import codecs
import io
import re
import tokenize

# Encodings in which every ASCII byte means its ASCII character: what honest sources are written in.
USUAL_ENCODING = re.compile(r"^(utf-8(-sig)?|ascii|latin-1|iso8859-\d+|cp125\d)$")
COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")


def read_tree(raw, path):
    """(tree, None) when Python can read the file, else (None, why)."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError as error:
        return None, "Python cannot decode it (%s)" % error
    try:
        raw.decode(encoding)
    except (UnicodeDecodeError, LookupError) as error:
        return None, "it is not %s text, the encoding Python reads it in (%s)" % (encoding, error)
    try:
        return ast.parse(raw, filename=path), None
    except (RecursionError, MemoryError):
        return None, "an expression nested too deep for Python's parser"
    except SyntaxError as error:
        if "too many nested" in str(error.msg) or "too complex" in str(error.msg):
            return None, "an expression nested too deep for Python's parser (%s)" % error.msg
        return None, "Python cannot parse it (%s, line %s)" % (error.msg, error.lineno)
    except ValueError as error:
        return None, "Python cannot parse it (%s)" % error


def unusual_cookie(raw, added):
    """Why the coding cookie on an added line is not an encoding honest sources use, or None."""
    for number, line in enumerate(raw.splitlines()[:2], start=1):
        match = COOKIE.match(line)
        if not match:
            continue
        if number not in added:
            return None
        declared = match.group(1).decode("ascii", "replace")
        try:
            name = codecs.lookup(declared).name
        except LookupError:
            return None  # Python cannot decode it at all: read_tree says so
        if USUAL_ENCODING.match(name):
            return None
        return "its coding cookie `%s` makes Python read the file's bytes as other text than they show" % declared
    return None
