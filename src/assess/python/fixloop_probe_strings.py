"""Generated inputs around a string for fixloop's Python probe runtime (fixloop_probe_inputs.py uses
them): the string cut, joined to separators, in the other case, with each of its marks varied and
each of its last digit runs varied as the number it spells, as js/probe-inputs.cjs varies them.
Standard library only; Python 3.8+.
"""
import re

SEPARATORS = ["/", "\\", ".", ",", ":", " ", '"', "'", "\n", "%"]
# What a mark of the suite's string is swapped for (see _marks), and how many of its marks are varied.
MARK_SWAPS = ["<", "&", '"', " "]
MARKS = 4
# The digit runs of one string varied: its last few.
DIGIT_RUNS = 3

def other_case(s):
    upper = s.upper()
    return s.lower() if upper == s else upper

def interleave(lists):
    """The lists' items taken in turn, the first of each, then the second of each: a caller that keeps
    only the first few keeps some of every list."""
    return [row[i] for i in range(max([len(r) for r in lists] + [0])) for row in lists if i < len(row)]

def _marks(s):
    """The string with each of its marks (neither a letter, a digit nor a space: `,` `&` `[`) varied
    where it last occurs: a space before and after it, doubled, swapped for another. A tokenizer or
    an escaper a patch taught the suite's exact text (`,,`, `&amp;`) meets it a little apart (`, ,`)
    or with another mark (`<amp;`). Each mark's variants in turn, as in js/probe-inputs.cjs."""
    marks = list(dict.fromkeys(c for c in s if not (c.isalnum() or c.isspace())))[:MARKS]
    per_mark = []
    for mark in marks:
        at = s.rindex(mark)
        before, after = s[:at], s[at + 1:]
        per_mark.append([before + " " + mark + after] + [before + swap + after for swap in MARK_SWAPS if swap != mark]
                        + [before + mark + " " + after, before + mark + mark + after])
    return interleave(per_mark)

def _digits(s):
    """The string with each of its last digit runs varied as the number it spells: one more, one less,
    a digit more, a digit fewer (`alpha.10` -> `alpha.11`, `alpha.9`, `alpha.100`, `alpha.1`), as in
    js/probe-inputs.cjs. Each run's variants in turn."""
    per_run = []
    for run in list(re.finditer(r"[0-9]{1,15}", s))[-DIGIT_RUNS:]:
        digits, at, end = run.group(), run.start(), run.end()
        n = int(digits)
        numbers = [n + 1] + ([n - 1] if n > 0 else [])
        # Leading zeros (`007`) keep the width; other numbers are written as numbers are.
        width = len(digits) if digits.startswith("0") else 0
        texts = [str(m).zfill(width) for m in numbers] + [digits + "0"] + ([digits[:-1]] if len(digits) > 1 else [])
        per_run.append([s[:at] + text + s[end:] for text in texts])
    return interleave(per_run)

def near_str(s):
    mid = len(s) // 2
    out = ["", s[1:], s[:-1]] + [s + c for c in SEPARATORS] + [c + s for c in "/\\. "]
    out += [s[:mid] + c + s[mid:] for c in "/\\."]
    hit = next((i for i, ch in enumerate(s) if ch in SEPARATORS), None)
    if hit is not None:
        out += [s[:hit] + c + s[hit + 1:] for c in ["/", "\\", ".", " ", ""]]
    return interleave([out + [s.upper(), s.lower(), s + s], _marks(s), _digits(s)])
