"""Translate the Meteor 1.5 jar's generated Snowball stemmers (Java) into the Python modules of
meteor_core/snowball_langs/, routine by routine.

    python tools/snowball_java_to_python.py [--java-dir DIR] [LANGUAGE ...]

The Java comes from the Meteor repository (src/org/tartarus/snowball/ext/<language>Stemmer.java);
by default it is read with ``git show`` from the mirror named by METEOR_REPO (a git directory),
or from --java-dir. The output is committed; rerun this only to regenerate it.

The generated Java is regular: Snowball's compiler writes every construct with a few patterns
(``labN: do { ... } while (false);`` blocks left by ``break labN``, ``while(true)`` loops, guards
``if (!(test)) { break labN; }``, ``switch`` on a ``find_among`` result). Python has no labelled
break, so:

* a block whose every ``break`` is a guard of its own body becomes nested ``if``s;
* any other block becomes a one-pass ``while True:`` loop, and a ``break``/``continue`` that
  leaves more than the innermost loop sets ``jump`` to the target's number and breaks; after each
  loop it escapes from, ``if jump ...`` finishes the jump (or breaks on).
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "meteor_core" / "snowball_langs"
DEFAULT_REPO = "/work/.mirror/cmu-mtlab+meteor/repo/.git"
JAVA_PATH = "src/org/tartarus/snowball/ext/{}Stemmer.java"
LANGUAGES = ("danish", "dutch", "english", "finnish", "french", "german", "hungarian", "italian", "norwegian",
             "portuguese", "romanian", "russian", "spanish", "swedish", "turkish")

# What each module's docstring says besides the common part: the Java quirks that change stems.
NOTES = {
    "finnish": (
        "Quirk reproduced: the case endings \"den\", \"tten\", \"siin\" (condition VI) and \"seen\" (condition\n"
        "LONG) never match in the jar (see _runtime: an Among entry with a routine always fails), so\n"
        "these words fall back to the ending \"n\"."
    ),
}

# ---------------------------------------------------------------------------------------------
# Lexer

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<str>"(?:[^"\\]|\\.)*")
  | (?P<num>\d+)
  | (?P<id>[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*)
  | (?P<op>\+\+|--|==|!=|<=|>=|\|\||&&|[{}()\[\];,:=<>+\-!.])
""", re.S | re.X)


@dataclass
class Tok:
    kind: str
    text: str


def tokenize(src: str) -> list[Tok]:
    out, pos = [], 0
    while pos < len(src):
        m = _TOKEN.match(src, pos)
        if m is None:
            raise SyntaxError(f"cannot read {src[pos:pos + 40]!r}")
        pos = m.end()
        kind = m.lastgroup
        if kind == "ws":
            continue
        out.append(Tok(kind, m.group()))
    return out


def java_string(literal: str) -> str:
    """The value of a Java string literal (\\uXXXX and the usual escapes)."""
    body = literal[1:-1]
    return re.sub(r"\\(u[0-9a-fA-F]{4}|.)",
                  lambda m: chr(int(m.group(1)[1:], 16)) if m.group(1)[0] == "u" and len(m.group(1)) == 5
                  else {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}.get(m.group(1), m.group(1)), body)


def py_string(value: str) -> str:
    """A Python literal for value, double-quoted, printable characters as themselves."""
    if all(c.isprintable() and c not in "\"\\" for c in value) and not any(
            0xD800 <= ord(c) <= 0xDFFF or c.isspace() and c != " " for c in value):
        return f'"{value}"'
    return repr(value)


# ---------------------------------------------------------------------------------------------
# Parser: the class body's fields and routines, statements of routines.

@dataclass
class Stmt:
    kind: str  # comment simple block loop if switch break continue return
    text: str = ""  # comment text / python code / condition / return value
    label: str | None = None
    body: list = field(default_factory=list)
    cases: list = field(default_factory=list)  # switch: [(value, body)]


class Parser:
    def __init__(self, toks: list[Tok], translator: "Translator"):
        self.toks = toks
        self.i = 0
        self.tr = translator

    def peek(self, k: int = 0) -> Tok:
        return self.toks[self.i + k]

    def next(self) -> Tok:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def expect(self, text: str) -> None:
        tok = self.next()
        if tok.text != text:
            raise SyntaxError(f"expected {text!r}, found {tok.text!r} near {self.context()}")

    def context(self) -> str:
        return " ".join(t.text for t in self.toks[max(0, self.i - 8):self.i + 8])

    def until(self, stop: str) -> list[Tok]:
        """The tokens up to the ``stop`` at depth 0 (consumed, not returned)."""
        out, depth = [], 0
        while True:
            tok = self.next()
            if tok.kind == "comment":
                continue
            if tok.text == stop and depth == 0:
                return out
            if tok.kind == "op" and tok.text in "([{":
                depth += 1
            elif tok.kind == "op" and tok.text in ")]}":
                depth -= 1
            out.append(tok)

    def block(self) -> list[Stmt]:
        self.expect("{")
        stmts = self.statements_until("}")
        self.expect("}")
        return stmts

    def statements_until(self, *stops: str) -> list[Stmt]:
        stmts = []
        while self.peek().text not in stops:
            stmt = self.statement()
            if stmt is not None and stmt.kind == "bare":  # (Python has no block scope)
                stmts.extend(stmt.body)
            elif stmt is not None:
                stmts.append(stmt)
        return stmts

    def skip_block(self) -> None:
        self.expect("{")
        depth = 1
        while depth:
            text = self.next().text
            depth += {"{": 1, "}": -1}.get(text, 0)

    def statement(self) -> Stmt | None:
        tok = self.peek()
        if tok.kind == "comment":
            self.next()
            text = tok.text[2:].strip()
            return None if re.fullmatch(r"\(, line \d+", text) else Stmt("comment", text)
        if tok.text == "{":
            return Stmt("bare", body=self.block())
        if tok.kind == "id" and self.peek(1).text == ":":
            label = self.next().text
            self.next()
            keyword = self.next().text
            if keyword == "do":
                body = self.block()
                self.expect("while")
                cond = self.until(";")
                if [t.text for t in cond] != ["(", "false", ")"]:
                    raise SyntaxError(self.context())
                return Stmt("block", label=label, body=body)
            if keyword == "while":
                for text in ("(", "true", ")"):
                    self.expect(text)
                return Stmt("loop", label=label, body=self.block())
            raise SyntaxError(self.context())
        if tok.text == "if":
            self.next()
            self.expect("(")
            cond = self.until(")")
            if self.peek().text != "{":
                raise SyntaxError("if without braces: " + self.context())
            return Stmt("if", text=self.tr.expr(cond), body=self.block())
        if tok.text == "switch":
            self.next()
            self.expect("(")
            var = self.until(")")
            self.expect("{")
            cases = []
            while self.peek().text != "}":
                if self.peek().kind == "comment":
                    self.next()
                    continue
                self.expect("case")
                value = int(self.next().text)
                self.expect(":")
                cases.append((value, self.statements_until("case", "}")))
            self.expect("}")
            return Stmt("switch", text=self.tr.expr(var), cases=cases)
        if tok.text == "break":
            self.next()
            label = None if self.peek().text == ";" else self.next().text
            self.expect(";")
            return Stmt("break", label=label)
        if tok.text == "continue":
            self.next()
            label = self.next().text
            self.expect(";")
            return Stmt("continue", label=label)
        if tok.text == "return":
            self.next()
            return Stmt("return", text=self.tr.expr(self.until(";")))
        toks = self.until(";")
        if toks[0].text in ("int", "boolean") and len(toks) == 2:
            return None  # a declaration: Python needs none
        if toks[0].text == "int":
            toks = toks[1:]
        return Stmt("simple", text=self.tr.simple(toks))


# ---------------------------------------------------------------------------------------------
# Expressions

_RUNTIME_CALLS = {"in_grouping", "in_grouping_b", "out_grouping", "out_grouping_b", "eq_s", "eq_s_b", "eq_v",
                  "eq_v_b", "find_among", "find_among_b", "slice_from", "slice_del", "slice_to", "insert"}
_STATE = {"cursor", "limit", "limit_backward", "bra", "ket", "current"}


class Translator:
    def __init__(self, language: str, src: str):
        self.language = language
        self.toks = tokenize(src)
        self.fields: dict[str, str] = {}  # name -> Java type
        self.amongs: dict[str, list[tuple]] = {}
        self.groupings: dict[str, tuple[int, ...]] = {}
        self.grouping_ranges: dict[str, tuple[int, int]] = {}
        self.routines: dict[str, list[Stmt]] = {}

    # -- expressions --
    def split_args(self, toks: list[Tok]) -> list[list[Tok]]:
        args, depth, cur = [], 0, []
        for tok in toks:
            if tok.text in "([" and tok.kind == "op":
                depth += 1
            elif tok.text in ")]" and tok.kind == "op":
                depth -= 1
            if tok.text == "," and depth == 0:
                args.append(cur)
                cur = []
            else:
                cur.append(tok)
        if cur:
            args.append(cur)
        return args

    def call(self, name: str, args: list[list[Tok]]) -> str:
        if name.startswith("r_") and not args:
            return f"self.{name}()"
        if name not in _RUNTIME_CALLS:
            raise SyntaxError(f"unknown call {name}")
        if name.endswith("grouping") or name.endswith("grouping_b"):
            gname, lo, hi = args[0][0].text, int(args[1][0].text), int(args[2][0].text)
            known = self.grouping_ranges.setdefault(gname, (lo, hi))
            if known != (lo, hi):
                raise SyntaxError(f"{gname} used with ranges {known} and {(lo, hi)}")
            return f"self.{name}({self.grouping_name(gname)})"
        if name in ("eq_s", "eq_s_b"):
            size, literal = int(args[0][0].text), java_string(args[1][0].text)
            if size != len(literal):
                raise SyntaxError(f"{name}({size}, {literal!r})")
            return f"self.{name}({py_string(literal)})"
        if name in ("find_among", "find_among_b"):
            aname, size = args[0][0].text, int(args[1][0].text)
            if size != len(self.amongs[aname]):
                raise SyntaxError(f"{aname} has {len(self.amongs[aname])} entries, not {size}")
            return f"self.{name}({self.among_name(aname)})"
        if name == "slice_to":
            return "self.slice_to()"
        return f"self.{name}({', '.join(self.expr(a) for a in args)})"

    def expr(self, toks: list[Tok]) -> str:
        out = []
        i = 0
        while i < len(toks):
            tok = toks[i]
            if tok.kind == "id" and i + 1 < len(toks) and toks[i + 1].text == "(":
                depth, j = 0, i + 1
                while True:
                    if toks[j].text == "(":
                        depth += 1
                    elif toks[j].text == ")":
                        depth -= 1
                        if depth == 0:
                            break
                    j += 1
                out.append(self.call(tok.text, self.split_args(toks[i + 2:j])))
                i = j + 1
                continue
            if tok.kind == "id":
                name = tok.text
                if name in ("true", "false"):
                    out.append(name.capitalize())
                elif name in _STATE or name in self.fields:
                    out.append(f"self.{name}")
                elif name in self.amongs:
                    out.append(self.among_name(name))
                else:
                    out.append(name)  # a local variable
            elif tok.kind == "str":
                out.append(py_string(java_string(tok.text)))
            elif tok.text == "!":
                out.append("not ")
            elif tok.text == "||":
                out.append(" or ")
            elif tok.text == "&&":
                out.append(" and ")
            elif tok.text in ("==", "!=", "<", "<=", ">", ">=", "+", "-", "="):
                out.append(f" {tok.text} ")
            else:
                out.append(tok.text)
            i += 1
        text = "".join(out)
        # not (call()) -> not call(); (x) around a lone call or name -> x
        text = re.sub(r"not \((self\.\w+\([^()]*\)|[\w.]+)\)$", r"not \1", text)
        m = re.fullmatch(r"\((self\.\w+\([^()]*\)|[\w.]+)\)", text)
        return m.group(1) if m else text

    def simple(self, toks: list[Tok]) -> str:
        texts = [t.text for t in toks]
        if texts[-1] in ("++", "--"):
            return f"{self.expr(toks[:-1])} {'+' if texts[-1] == '++' else '-'}= 1"
        return self.expr(toks)

    @staticmethod
    def among_name(name: str) -> str:
        return "_" + name.upper()

    @staticmethod
    def grouping_name(name: str) -> str:
        return "_" + name.upper()

    # -- class body --
    def parse(self) -> None:
        p = Parser(self.toks, self)
        while p.i < len(self.toks) and not (p.peek().text == "class"):
            p.next()
        p.until("{")  # class NAME extends ... {
        while p.peek().text != "}":
            tok = p.peek()
            if tok.kind == "comment":
                p.next()
                continue
            head = []
            while p.peek().text not in ("=", ";", "{", "("):
                text = p.next().text
                if text not in ("[", "]"):
                    head.append(text)
            name = head[-1]
            nxt = p.next().text
            if nxt == "(":  # a method
                params = p.until(")")
                if name.startswith("r_") or (name == "stem" and not params):
                    self.routines[name] = p.block()
                else:  # copy_from, equals, hashCode: nothing the stems need
                    p.skip_block()
                continue
            if nxt == ";":
                self.fields[name] = head[-2]
                continue
            if nxt == "=":
                value = p.until(";")
                if "char" in head:
                    self.groupings[name] = tuple(int(t.text) for t in value if t.kind == "num")
                elif "Among" in head:
                    entries = []
                    for j, t in enumerate(value):
                        if t.text == "Among":
                            args = self.split_args(value[j + 2:])
                            s, sub, res, method = args[0][0], args[1], args[2], args[3][0]
                            entries.append((java_string(s.text), int("".join(x.text for x in sub)),
                                            int("".join(x.text for x in res)), java_string(method.text)))
                    self.amongs[name] = entries
                elif "StringBuilder" in " ".join(head):
                    self.fields[name] = "StringBuilder"
                continue
            raise SyntaxError(p.context())

    # -- output --
    def emit(self) -> str:
        lines = []
        cls = "_" + self.language.capitalize() + "Stemmer"
        java_file = JAVA_PATH.format(self.language)
        note = NOTES.get(self.language)
        lines.append(f'"""Snowball {self.language.capitalize()} as the Meteor 1.5 jar stems: a translation of {java_file}')
        lines.append("(the Java the jar's org/tartarus/snowball/ext/" + self.language + "Stemmer.class is compiled from),")
        lines.append("routine by routine, on the runtime in _runtime.py (Java's UTF-16 positions and other quirks:")
        lines.append("see there). Generated by tools/snowball_java_to_python.py: edit that, not this.")
        if note:
            lines.append("")
            lines.extend(note.splitlines())
        lines.append('"""')
        lines.append("from ._runtime import Among, AmongTable, SnowballProgram, from_java_chars, grouping, to_java_chars")
        lines.append("")
        for name, entries in self.amongs.items():
            if not entries:
                raise SyntaxError(f"empty among {name}")
            lines.append(f"{self.among_name(name)} = AmongTable(")
            for s, sub, res, method in entries:
                lines.append(f"    Among({py_string(s)}, {sub}, {res}, {py_string(method)}),")
            lines.append(")")
        for name, bits in self.groupings.items():
            lo, hi = self.grouping_ranges[name]
            if len(bits) * 8 <= hi - lo:
                raise SyntaxError(f"grouping {name} is shorter than its range")  # Java would throw
            chars = "".join(sorted(grouping_chars(lo, hi, bits)))
            lines.append(f"{self.grouping_name(name)} = grouping({lo}, {hi}, {bits})  # {chars}")
        lines.append("")
        lines.append("")
        lines.append(f"class {cls}(SnowballProgram):")
        slots = ", ".join(f'"{f}"' for f in self.fields)
        lines.append(f"    __slots__ = ({slots}{',' if len(self.fields) == 1 else ''})")
        lines.append("")
        lines.append("    def __init__(self, value: str):")
        lines.append("        super().__init__(value)")
        for name, jtype in self.fields.items():
            default = {"int": "0", "boolean": "False", "StringBuilder": '""'}[jtype]
            lines.append(f"        self.{name} = {default}")
        for name, body in self.routines.items():
            lines.append("")
            lines.append(f"    def {name}(self) -> bool:")
            lines.extend(Emitter(body).lines(2))
        lines.append("")
        lines.append("")
        lines.append("def stem(word: str) -> str:")
        lines.append(f'    """What the jar\'s SnowballStemmerWrapper(new {self.language}Stemmer()).stem(word) returns."""')
        lines.append("    chars = to_java_chars(word)")
        lines.append(f"    stemmer = {cls}(chars)")
        lines.append("    stemmer.stem()")
        lines.append("    return stemmer.current if chars is word else from_java_chars(stemmer.current)")
        return "\n".join(lines) + "\n"


def grouping_chars(lo: int, hi: int, bits: tuple[int, ...]) -> set[str]:
    return {chr(lo + k) for k in range(hi - lo + 1) if bits[k >> 3] & (1 << (k & 7))}


# ---------------------------------------------------------------------------------------------
# Control flow: Java's labelled blocks and loops as Python's ifs and loops.

def _negate(cond: str) -> str:
    if cond.startswith("not ") and " or " not in cond and " and " not in cond:
        inner = cond[4:]
        if inner.startswith("(") and inner.endswith(")") and _balanced(inner[1:-1]):
            inner = inner[1:-1]
        return inner
    if " == " in cond and " or " not in cond and " and " not in cond:
        return cond.replace(" == ", " != ")
    return f"not ({cond})"


def _balanced(text: str) -> bool:
    depth = 0
    for c in text:
        depth += {"(": 1, ")": -1}.get(c, 0)
        if depth < 0:
            return False
    return depth == 0


def _jumps(stmts: list[Stmt]):
    """Every break/continue statement in stmts, however deep."""
    for s in stmts:
        if s.kind in ("break", "continue"):
            yield s
        yield from _jumps(s.body)
        for _, body in s.cases:
            yield from _jumps(body)


def _is_guard(s: Stmt, label: str) -> bool:
    """``if (cond) { ...; break label; }`` with no other jump to label inside."""
    if s.kind != "if" or not s.body:
        return False
    last = s.body[-1]
    if not (last.kind == "break" and last.label == label):
        return False
    return all(j.label != label for j in _jumps(s.body[:-1]))


def _can_be_ifs(block: Stmt) -> bool:
    guards = sum(1 for s in block.body if _is_guard(s, block.label))
    return guards == sum(1 for j in _jumps(block.body) if j.label == block.label)


def _ends_in_jump(stmts: list[Stmt]) -> bool:
    real = [s for s in stmts if s.kind != "comment"]
    return bool(real) and real[-1].kind in ("break", "continue", "return")


@dataclass
class _Loop:
    label: str
    escapes: dict = field(default_factory=dict)  # jump number -> (label, kind)


class Emitter:
    def __init__(self, body: list[Stmt]):
        self.body = body
        self.loops: list[_Loop] = []
        self.jump_numbers: dict[tuple[str, str], int] = {}
        self.out: list[str] = []

    def lines(self, indent: int) -> list[str]:
        self.stmts(self.body, indent)
        if self.jump_numbers:
            self.out.insert(0, "    " * indent + "jump = 0  # where a break/continue out of several loops goes")
        return self.out

    def put(self, indent: int, text: str) -> None:
        self.out.append("    " * indent + text)

    def stmts(self, stmts: list[Stmt], indent: int) -> None:
        """The statements of a Python block (``pass`` if that leaves it empty)."""
        start = len(self.out)
        for s in stmts:
            self.one(s, indent)
        if all(line.lstrip().startswith("#") for line in self.out[start:]):
            self.put(indent, "pass")

    def one(self, s: Stmt, indent: int) -> None:
        if s.kind == "block" and _can_be_ifs(s):
            self.block_as_ifs(s.body, s.label, indent)
        elif s.kind == "block":
            self.loop(s, indent, one_pass=True)
        elif s.kind == "loop":
            self.loop(s, indent, one_pass=False)
        else:
            self.stmt(s, indent)

    def block_as_ifs(self, body: list[Stmt], label: str, indent: int) -> None:
        """A block left only by its guards: each guard opens an ``if`` holding the rest."""
        for k, s in enumerate(body):
            if _is_guard(s, label):
                before_break = s.body[:-1]
                rest = body[k + 1:]
                if before_break:
                    self.put(indent, f"if {s.text}:")
                    self.stmts(before_break, indent + 1)
                    if any(r.kind != "comment" for r in rest):
                        self.put(indent, "else:")
                        self.as_ifs_body(rest, label, indent + 1)
                elif any(r.kind != "comment" for r in rest):
                    self.put(indent, f"if {_negate(s.text)}:")
                    self.as_ifs_body(rest, label, indent + 1)
                elif "(" in s.text:  # nothing follows: only what the test moves matters
                    self.put(indent, _negate(s.text))
                return
            self.one(s, indent)

    def as_ifs_body(self, rest: list[Stmt], label: str, indent: int) -> None:
        start = len(self.out)
        self.block_as_ifs(rest, label, indent)
        if all(line.lstrip().startswith("#") for line in self.out[start:]):
            self.put(indent, "pass")

    def loop(self, s: Stmt, indent: int, one_pass: bool) -> None:
        self.put(indent, f"while True:  # {s.label}")
        here = _Loop(s.label)
        self.loops.append(here)
        self.stmts(s.body, indent + 1)
        if one_pass and not _ends_in_jump(s.body):
            self.put(indent + 1, "break")
        self.loops.pop()
        if here.escapes:
            parent = self.loops[-1]
            mine = {n: lk for n, lk in here.escapes.items() if lk[0] == parent.label}
            others = len(mine) < len(here.escapes)
            if len(mine) == 1 and not others:
                (n, (_, kind)), = mine.items()
                self.put(indent, f"if jump:  # {kind} {parent.label}")
                self.put(indent + 1, "jump = 0")
                self.put(indent + 1, kind)
            else:
                for n, (_, kind) in mine.items():
                    self.put(indent, f"if jump == {n}:  # {kind} {parent.label}")
                    self.put(indent + 1, "jump = 0")
                    self.put(indent + 1, kind)
                if others:
                    self.put(indent, "if jump:")
                    self.put(indent + 1, "break")

    def stmt(self, s: Stmt, indent: int) -> None:
        if s.kind == "comment":
            self.put(indent, "# " + s.text)
        elif s.kind == "simple":
            self.put(indent, s.text)
        elif s.kind == "return":
            self.put(indent, f"return {s.text}")
        elif s.kind == "if":
            self.put(indent, f"if {s.text}:")
            self.stmts(s.body, indent + 1)
        elif s.kind == "switch":
            first = True
            for value, body in s.cases:
                real = [b for b in body if b.kind != "comment"]
                if value == 0:
                    continue  # (find_among's 0 is tested before every switch: see check_switches)
                if not real or real[-1].kind not in ("break", "continue", "return"):
                    raise SyntaxError(f"case {value} falls through")
                if real[-1].kind == "break" and real[-1].label is None:
                    body = body[:len(body) - 1 - body[::-1].index(real[-1])] + body[len(body) - body[::-1].index(real[-1]):]
                self.put(indent, f"{'if' if first else 'elif'} {s.text} == {value}:")
                self.stmts(body, indent + 1)
                first = False
        elif s.kind in ("break", "continue"):
            if s.label is None:
                raise SyntaxError("break outside a switch")
            labels = [loop.label for loop in self.loops]
            if s.label not in labels:
                raise SyntaxError(f"{s.kind} {s.label}: not an enclosing loop")
            if labels[-1] == s.label:
                self.put(indent, s.kind)
                return
            key = (s.label, s.kind)
            n = self.jump_numbers.setdefault(key, len(self.jump_numbers) + 1)
            for loop in reversed(self.loops):
                if loop.label == s.label:
                    break
                loop.escapes[n] = key
            self.put(indent, f"jump = {n}  # {s.kind} {s.label}")
            self.put(indent, "break")
        else:
            raise SyntaxError(s.kind)


def check_switches(routines: dict[str, list[Stmt]]) -> None:
    """Every ``switch (among_var)`` follows ``if (among_var == 0) {...}`` that leaves: its case 0
    can never run, so the translation drops it."""
    def walk(stmts):
        for k, s in enumerate(stmts):
            if s.kind == "switch":
                before = [t for t in stmts[:k] if t.kind == "if" and t.text == f"{s.text} == 0"]
                if not before or not _ends_in_jump(before[-1].body):
                    raise SyntaxError(f"switch without a test of 0: {s.text}")
            walk(s.body)
            for _, body in s.cases:
                walk(body)
    for body in routines.values():
        walk(body)


def read_java(language: str, java_dir: str | None) -> str:
    if java_dir:
        return (Path(java_dir) / f"{language}Stemmer.java").read_text(encoding="utf-8")
    repo = os.environ.get("METEOR_REPO", DEFAULT_REPO)
    return subprocess.run(["git", "-C", repo, "show", "HEAD:" + JAVA_PATH.format(language)], capture_output=True,
                          check=True, text=True, encoding="utf-8").stdout


def translate(language: str, src: str) -> str:
    tr = Translator(language, src)
    tr.parse()
    check_switches(tr.routines)
    return tr.emit()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("languages", nargs="*", default=list(LANGUAGES))
    parser.add_argument("--java-dir", help="a folder of <language>Stemmer.java files (default: the Meteor mirror)")
    args = parser.parse_args(argv)
    for language in args.languages:
        code = translate(language, read_java(language, args.java_dir))
        (OUT_DIR / f"{language}.py").write_text(code, encoding="utf-8")
        print(f"{language}: {len(code.splitlines())} lines", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
