#!/usr/bin/env python3
"""Size check for CI: fails on a source file over 800 lines or a function over 150 lines,
unless scripts/size_allowlist.txt has an entry for it that says why.

  scripts/check_sizes.py [--root DIR] [--allowlist FILE] [--list N] [FILE...]

With no FILE it checks every C/C++ source git tracks under the root. --list N prints the N
longest functions instead of checking (what the allow-list review needs).

Functions are found by a small C++ scanner, not by regular expressions over lines: comments,
string and character literals (raw strings too) and preprocessor lines are skipped, and each
`{` is classified by what precedes it at its nesting level. A brace that opens a namespace,
class, struct, union, enum or `extern "C"` block is a scope that may hold functions; a brace
after a parameter list (with qualifiers, a trailing return type or a constructor's
initialiser list between them) at such a scope opens a function, which ends at its matching
`}`; braces inside a function (blocks, lambdas, local classes) belong to it. A function's
length runs from the line its declaration starts on to its closing brace. A file whose
braces do not balance is an error, not a silent pass.
"""
import argparse
import os
import subprocess
import sys

MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 150
EXTENSIONS = (".c", ".cc", ".cpp", ".h", ".hpp", ".inc", ".cu")
SCOPE_KEYWORDS = {"namespace", "class", "struct", "union", "enum", "extern"}
CONTROL_KEYWORDS = {"if", "for", "while", "switch", "catch", "do", "else", "try", "return"}
QUALIFIERS = {"const", "noexcept", "override", "final", "mutable", "volatile", "try", "&", "&&"}


class ScanError(Exception):
    pass


def tokens(text):
    """Yields (token, line) with comments, literals (as a placeholder) and preprocessor
    lines removed. Identifiers and numbers are whole tokens; everything else is one
    character, except `::` and `->`."""
    i, n, line = 0, len(text), 1
    at_line_start = True
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            at_line_start = True
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if at_line_start and c == "#":
            # A preprocessor line, with its backslash continuations (and comments inside).
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    line += 1
                    i += 2
                    continue
                if text.startswith("/*", i):
                    end = text.find("*/", i + 2)
                    if end < 0:
                        raise ScanError(f"line {line}: unterminated comment")
                    line += text.count("\n", i, end)
                    i = end + 2
                    continue
                if text.startswith("//", i):
                    while i < n and text[i] != "\n":
                        i += 1
                    break
                i += 1
            continue
        at_line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise ScanError(f"line {line}: unterminated comment")
            line += text.count("\n", i, end)
            i = end + 2
            continue
        if c.isalpha() or c == "_":
            j = i + 1
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            word = text[i:j]
            # A raw string: an encoding prefix ending in R right before the quote.
            if j < n and text[j] == '"' and word in ("R", "u8R", "uR", "UR", "LR"):
                open_paren = text.find("(", j)
                if open_paren < 0:
                    raise ScanError(f"line {line}: bad raw string")
                delim = ")" + text[j + 1:open_paren] + '"'
                end = text.find(delim, open_paren)
                if end < 0:
                    raise ScanError(f"line {line}: unterminated raw string")
                start_line = line
                line += text.count("\n", i, end)
                i = end + len(delim)
                yield ('""', start_line)
                continue
            yield (word, line)
            i = j
            continue
        if c.isdigit():
            j = i + 1
            while j < n and (text[j].isalnum() or text[j] in "._'" or (text[j] in "+-" and text[j - 1] in "eEpP")):
                j += 1
            yield ("0", line)
            i = j
            continue
        if c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                if text[j] == "\\":
                    j += 1
                elif text[j] == "\n":
                    raise ScanError(f"line {line}: unterminated literal")
                j += 1
            if j >= n:
                raise ScanError(f"line {line}: unterminated literal")
            yield ('""' if c == '"' else "''", line)
            i = j + 1
            continue
        if text.startswith("::", i) or text.startswith("->", i) or text.startswith("&&", i):
            yield (text[i:i + 2], line)
            i += 2
            continue
        yield (c, line)
        i += 1


def function_name(head):
    """The name a function head declares: the qualified identifier before its parameter
    list (the first `(` at angle and paren depth 0)."""
    depth = 0
    for k, (tok, _) in enumerate(head):
        if tok == "<":
            depth += 1
        elif tok == ">" and depth > 0:
            depth -= 1
        elif tok == "(" and depth == 0:
            if k > 0 and head[k - 1][0] == "operator":
                continue  # operator()(...): the second paren opens the parameters
            name = []
            m = k - 1
            if m >= 1 and head[m - 1][0] == "operator":
                name = ["operator", head[m][0]]
                m -= 2
            elif m >= 0:
                # operator() and operator<symbols>: walk back over the symbol to `operator`.
                back = m
                while back >= 0 and head[back][0] not in ("operator",) and not (head[back][0][0].isalnum() or head[back][0][0] == "_"):
                    back -= 1
                if back >= 0 and head[back][0] == "operator" and back != m:
                    name = [t for t, _ in head[back:m + 1]]
                    m = back - 1
                else:
                    name = [head[m][0]]
                    m -= 1
            while m >= 1 and head[m][0] == "::":
                name = [head[m - 1][0], "::"] + name
                m -= 2
            return "".join(name)
    return "?"


OPERATOR_CHARS = set("=!<>+-*/|&^%")


def _strip_template_prefix(words):
    k = 0
    while k < len(words) and words[k] == "template":
        depth = 0
        k += 1
        while k < len(words):
            if words[k] == "<":
                depth += 1
            elif words[k] == ">":
                depth -= 1
                if depth == 0:
                    k += 1
                    break
            k += 1
    return words[k:]


def _has_ctor_init_list(words):
    """A `:` at paren depth 0 after the parameter list: `Foo::Foo(int a) : a_(a) ...`."""
    depth, closed = 0, False
    for t in words:
        if t == "(":
            depth += 1
        elif t == ")":
            depth -= 1
            closed = closed or depth == 0
        elif t == ":" and depth == 0 and closed:
            return True
    return False


def classify(head):
    """What a `{` at a scope level opens, from the tokens since the last `;`, `{` or `}`
    there: 'scope' (namespace, class, struct, union, enum, extern "C"), 'function', 'init'
    (a member's braced initialiser inside a constructor's initialiser list) or 'other' (an
    initialiser or any other data)."""
    words = _strip_template_prefix([t for t, _ in head])
    if not words:
        return "other"
    if words[0] in SCOPE_KEYWORDS or (len(words) > 1 and words[0] == "typedef" and words[1] in SCOPE_KEYWORDS):
        return "scope"
    depth, has_params = 0, False
    for i, t in enumerate(words):
        if t == "(":
            depth += 1
            has_params = True
        elif t == ")":
            depth -= 1
        elif t == "=" and depth == 0:
            prev = words[i - 1] if i else ""
            nxt = words[i + 1] if i + 1 < len(words) else ""
            if prev != "operator" and prev not in OPERATOR_CHARS and nxt != "=":
                return "other"  # an initialiser (a lambda at namespace scope counts as data)
    if not has_params or words[0] in CONTROL_KEYWORDS:
        return "other"
    last = words[-1]
    if last == ")" or last in QUALIFIERS or "->" in words:
        return "function"
    if _has_ctor_init_list(words):
        # `: a_(a), b_{b} {`: the body's brace follows `)` or `}`; one after a member name
        # (or a template's `>`) is that member's initialiser.
        return "function" if last == "}" else "init"
    return "other"


def scan(text):
    """The functions of a file as (name, first line, last line)."""
    stack = []  # per open brace at scope level: 'scope', 'init', 'other'
    heads = [[]]  # the head being collected at each scope level
    functions = []
    function = None  # (name, first line) of the function being read
    function_depth = 0  # braces open inside it
    for tok, line in tokens(text):
        if function:
            if tok == "{":
                function_depth += 1
            elif tok == "}":
                function_depth -= 1
                if function_depth == 0:
                    functions.append((function[0], function[1], line))
                    function = None
                    heads[-1].clear()
            continue
        head = heads[-1]
        if stack and stack[-1] in ("init", "other"):
            # Inside braced data at scope level: skip it (an initialiser's tokens stay in
            # the head, so the constructor's body is recognised after it).
            kind = stack[-1]
            if tok == "{":
                stack.append(kind)
            elif tok == "}":
                stack.pop()
            if kind == "init":
                head.append((tok, line))
            continue
        if tok == "{":
            kind = classify(head)
            if kind == "function":
                function = (function_name(head), head[0][1])
                function_depth = 1
                continue
            stack.append(kind)
            if kind == "init":
                head.append((tok, line))
            elif kind == "scope":
                heads.append([])
            continue
        if tok == "}":
            if not stack or stack[-1] != "scope":
                raise ScanError(f"line {line}: unbalanced '}}'")
            stack.pop()
            heads.pop()
            heads[-1].clear()
            continue
        if tok == ";":
            head.clear()
            continue
        if tok == ":" and head and head[-1][0] in ("public", "private", "protected"):
            head.clear()
            continue
        head.append((tok, line))
    if function or stack:
        raise ScanError("unclosed '{' at the end of the file")
    return functions


def load_allowlist(path):
    """Entries `PATH` (a file over the file limit) or `PATH FUNCTION` (a function over the
    function limit), then ` -- ` and the reason. Returns {(path, function or None): reason}."""
    allowed = {}
    if not os.path.exists(path):
        return allowed
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if " -- " not in line:
                raise SystemExit(f"{path}:{number}: an entry needs ' -- ' and a reason")
            what, reason = line.split(" -- ", 1)
            if not reason.strip():
                raise SystemExit(f"{path}:{number}: empty reason")
            parts = what.split()
            if len(parts) not in (1, 2):
                raise SystemExit(f"{path}:{number}: expected 'PATH [FUNCTION] -- reason'")
            allowed[(parts[0], parts[1] if len(parts) == 2 else None)] = reason.strip()
    return allowed


def tracked_sources(root):
    out = subprocess.run(["git", "-C", root, "ls-files"], check=True, capture_output=True, text=True).stdout
    return [p for p in out.splitlines() if p.endswith(EXTENSIONS)]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.dirname(here))
    ap.add_argument("--allowlist", default=os.path.join(here, "size_allowlist.txt"))
    ap.add_argument("--list", type=int, default=0)
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    files = args.files or tracked_sources(args.root)
    allowed = load_allowlist(args.allowlist)
    used = set()
    problems = []
    longest = []
    for rel in files:
        path = rel if os.path.isabs(rel) else os.path.join(args.root, rel)
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        if lines > MAX_FILE_LINES:
            if (rel, None) in allowed:
                used.add((rel, None))
            else:
                problems.append(f"{rel}: {lines} lines (limit {MAX_FILE_LINES})")
        try:
            functions = scan(text)
        except ScanError as e:
            problems.append(f"{rel}: cannot count functions: {e}")
            continue
        for name, first, last in functions:
            length = last - first + 1
            longest.append((length, rel, first, name))
            if length <= MAX_FUNCTION_LINES:
                continue
            if (rel, name) in allowed:
                used.add((rel, name))
            else:
                problems.append(f"{rel}:{first}: function {name} has {length} lines (limit {MAX_FUNCTION_LINES})")
    if args.list:
        for length, rel, first, name in sorted(longest, reverse=True)[: args.list]:
            print(f"{length:5d} {rel}:{first} {name}")
        return 0
    if not args.files:
        # An entry that excuses nothing is stale: the split happened, drop the entry.
        for key in sorted(set(allowed) - used, key=str):
            problems.append(f"{args.allowlist}: stale entry '{key[0]}{' ' + key[1] if key[1] else ''}' excuses nothing")
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f"check_sizes: {len(problems)} problem(s); split the code, or add an entry with the reason to {args.allowlist}",
              file=sys.stderr)
        return 1
    print(f"check_sizes: {len(files)} files, {len(longest)} functions, none over the limits "
          f"({MAX_FILE_LINES} lines a file, {MAX_FUNCTION_LINES} a function) outside the allow-list")
    return 0


if __name__ == "__main__":
    sys.exit(main())
