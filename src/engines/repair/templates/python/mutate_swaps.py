"""What the Python repair templates (mutate.py) swap a thing for: the operators by their spelling and
the replacements each is tried with, the functions and methods mistaken for one another.
"""
import ast

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


def binop_replacements(word):
    """The closest replacements first, then the rest of the operator's family."""
    family = sorted(BITWISE) if word in BITWISE else ARITHMETIC
    out = list(BINOP_SWAPS.get(word, []))
    return out + [o for o in family if o != word and o not in out]
