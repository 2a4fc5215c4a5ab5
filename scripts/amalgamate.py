#!/usr/bin/python3
"""Writes the single-file amalgamation of blockfilter (run it through
scripts/amalgamate.sh OUTDIR).

  OUTDIR/blockfilter.c     the whole library in one C11 translation unit
  OUTDIR/<header>          every public header of include/ (*.h, *.hpp), as is

The sources are the ones lib/meson.build builds: `lib_sources` (portable)
and one `static_library('name', 'file.c', c_args: FLAGS + ['-DBF_HAVE_X'])`
per ISA file; every lib/**/*.c must be one of them. Portable files come
first, in meson's order, then the ISA files, each inside `#if
defined(BF_HAVE_X)` and, for the flags meson gives it (-mavx2 ...), a
function-level target region (`#pragma GCC target` for gcc, `#pragma clang
attribute push(__attribute__((target(...))), apply_to = function)` for
clang). BF_HAVE_X is defined at the top for the platform meson builds the
file for, so the same kernels are compiled in and dispatch chooses among
them at run time as in the meson build.

Internal headers ("room/file.h", relative to lib/; public headers from
include/) are inlined where first included and dropped afterwards (their
include guards make that exact). A header first included by an ISA file is
compiled under that file's target; another ISA file including it gets it
again under its own guard (the include guard keeps one copy), and a portable
file may not include it at all. System includes of ISA files are hoisted
above their target region.

What one translation unit changes is handled here, not in the sources:
file-scope names (static functions and variables, typedefs, tags, enum
constants) that two files define are renamed in the files that define them
(room_file__name; member names after . and -> stay); macros a .c file
defines at its top level are #undef'd after it; feature-test macros
(_GNU_SOURCE ...) move to the top. The output depends on the sources only:
run to run it is byte-identical.
"""
import glob
import os
import re
import sys

TOKEN = re.compile(r"""
 (?P<comment>/\*.*?\*/|//[^\n]*)
|(?P<str>"(?:\\.|[^"\\\n])*")
|(?P<chr>'(?:\\.|[^'\\\n])*')
|(?P<id>[A-Za-z_]\w*)
|(?P<num>\.?\d(?:[eEpP][+-]|[\w.])*)
|(?P<nl>\n)
|(?P<ws>(?:[ \t\r\f\v]|\\\n)+)
|(?P<punct>->|\+\+|--|<<=|>>=|<<|>>|&&|\|\||\#\#|\.\.\.|[-+*/%&|^!~<>=]=?|[\#.,;:?(){}\[\]])
|(?P<other>.)
""", re.S | re.X)
SKIP = ("ws", "nl", "comment")
FEATURE_MACRO = re.compile(r"^_[A-Z0-9_]*(SOURCE|_BITS)$")


class GenError(Exception):
    pass


def lex(text):
    """[kind, text] tokens; a preprocessor directive is one ["pp", text]."""
    toks = []
    at_line_start = True
    pos = 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        kind, val = m.lastgroup, m.group()
        if kind == "punct" and val == "#" and at_line_start:
            end = pos
            while True:  # to the end of the logical line, past comments
                m2 = TOKEN.match(text, end)
                if m2 is None or m2.lastgroup == "nl":
                    break
                end = m2.end()
            toks.append(["pp", text[pos:end]])
            pos = end
            continue
        toks.append([kind, val])
        if kind == "nl":
            at_line_start = True
        elif kind not in ("ws", "comment"):
            at_line_start = False
        pos = m.end()
    return toks


def directive(pp):
    """(name, rest) of a directive's text."""
    m = re.match(r"#\s*(\w*)\s*(.*)", pp, re.S)
    return m.group(1), m.group(2)


def significant(toks):
    return [t for t in toks if t[0] not in SKIP and t[0] != "pp"]


def drop_groups(sig, fn_macros):
    """Drops __attribute__((...)) and invocations of function-like macros."""
    out, i = [], 0
    while i < len(sig):
        t = sig[i]
        if t[0] == "id" and (t[1] in ("__attribute__", "__declspec") or t[1] in fn_macros) \
                and i + 1 < len(sig) and sig[i + 1][1] == "(":
            depth, i = 0, i + 1
            while i < len(sig):
                depth += {"(": 1, ")": -1}.get(sig[i][1], 0)
                i += 1
                if depth == 0:
                    break
            continue
        out.append(t)
        i += 1
    return out


def declarator_name(decl):
    """The declared name of one declarator's tokens (no braces inside)."""
    vals = [t[1] for t in decl]
    for i in range(len(vals) - 3):  # ( * name ) : function pointer
        if vals[i] == "(" and vals[i + 1] == "*" and decl[i + 2][0] == "id" and vals[i + 3] == ")":
            return vals[i + 2]
    depth = 0
    last = None
    for t in decl:
        if t[1] in "([":
            if depth == 0 and last is not None:
                return last
            depth += 1
        elif t[1] in ")]":
            depth -= 1
        elif depth == 0 and t[1] == "=":
            return last
        elif depth == 0 and t[0] == "id":
            last = t[1]
    return last


def split_commas(decl):
    parts, cur, depth = [], [], 0
    for t in decl:
        if t[1] in "([":
            depth += 1
        elif t[1] in ")]":
            depth -= 1
        if t[1] == "," and depth == 0:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    parts.append(cur)
    return parts


def definitions(text, fn_macros):
    """File-scope definitions: ({(namespace, name): kind}, macros).
    namespace 'tag' for struct/union/enum tags with a body, 'ord' for the
    rest; kind 'static' for what a .c file may rename, 'global' for external
    definitions, 'type' for typedefs, 'const' for enum constants."""
    defs = {}
    macros = []
    toks = lex(text)
    for t in toks:
        if t[0] == "pp":
            name, rest = directive(t[1])
            if name == "define":
                macros.append(re.match(r"\w+", rest).group())
    sig = significant(toks)
    i, decl = 0, []
    while i < len(sig):
        v = sig[i][1]
        if v == "{" and [t[0] for t in decl] == ["id", "str"] and decl[0][1] == "extern":
            decl, i = [], i + 1  # extern "C" { ... }: its braces hold declarations
            continue
        if v == "}":
            decl, i = [], i + 1  # the end of an extern "C" block
            continue
        if v == "{":
            prev = [t[1] for t in decl[-2:]]
            is_init = any(t[1] == "=" for t in decl)
            agg = None
            if prev and prev[-1] in ("struct", "union", "enum"):
                agg = prev[-1]
            elif len(prev) == 2 and prev[0] in ("struct", "union", "enum"):
                agg = prev[0]
                defs[("tag", prev[1])] = "tag"
            # Skip to the matching brace, noting enum constants.
            depth, j = 0, i
            while j < len(sig):
                if sig[j][1] == "{":
                    depth += 1
                elif sig[j][1] == "}":
                    depth -= 1
                    if depth == 0:
                        break
                elif agg == "enum" and depth == 1 and sig[j][0] == "id" and sig[j - 1][1] in ("{", ","):
                    defs[("ord", sig[j][1])] = "const"
                j += 1
            if agg or is_init:
                decl.append(["punct", "{}"])
                i = j + 1
                continue
            # A function body.
            d = drop_groups(decl, fn_macros)
            name = declarator_name(d)
            if name:
                defs[("ord", name)] = "static" if any(t[1] == "static" for t in d) else "global"
            decl, i = [], j + 1
            continue
        if v == ";":
            d = drop_groups(decl, fn_macros)
            words = [t[1] for t in d]
            if words and words[0] == "typedef":
                name = declarator_name([t for t in d[1:] if t[1] != "{}"])
                if name:
                    defs[("ord", name)] = "type"
            elif "static" in words:
                is_func = "(" in words and "=" not in words and "{}" not in words
                for part in split_commas(d):
                    name = declarator_name([t for t in part if t[1] != "{}"])
                    if name and not is_func:
                        defs[("ord", name)] = "static"
                    elif name and is_func:
                        defs.setdefault(("ord", name), "static")
            decl, i = [], i + 1
            continue
        decl.append(sig[i])
        i += 1
    return defs, macros


def top_defines(text):
    """Macros a file defines outside any conditional."""
    out, depth = [], 0
    for kind, val in lex(text):
        if kind != "pp":
            continue
        name, rest = directive(val)
        if name in ("if", "ifdef", "ifndef"):
            depth += 1
        elif name == "endif":
            depth -= 1
        elif name == "define" and depth == 0:
            out.append(re.match(r"\w+", rest).group())
    return out


def guarded_macros(text):
    """(X, macro) for each macro a header defines only where X is not
    defined (inside #if !defined(X) or #ifndef X, not in its #else)."""
    out, stack = [], []
    for kind, val in lex(text):
        if kind != "pp":
            continue
        name, rest = directive(val)
        if name == "ifndef":
            stack.append({rest.split()[0]})
        elif name == "if":
            stack.append(set(re.findall(r"!\s*defined\s*\(?\s*(\w+)", rest)))
        elif name in ("elif", "else") and stack:
            stack[-1] = set()
        elif name == "endif" and stack:
            stack.pop()
        elif name == "define":
            macro = re.match(r"\w+", rest).group()
            for conds in stack[1:] if stack and macro in stack[0] else stack:
                out += [(x, macro) for x in conds]
    return out


# ---- lib/meson.build ----------------------------------------------------------

def meson_sources(root):
    """(portable files, [(file, target or '', guard macro, platform)])."""
    text = open(os.path.join(root, "lib", "meson.build")).read()
    nocomment = re.sub(r"#[^\n]*", "", text)
    portable = []
    for m in re.finditer(r"\blib_sources\s*\+?=\s*files\((.*?)\)", nocomment, re.S):
        portable += re.findall(r"'([^']+)'", m.group(1))
    arrays = {m.group(1): re.findall(r"'([^']+)'", m.group(2))
              for m in re.finditer(r"^(\w+)\s*=\s*\[(.*?)\]", nocomment, re.S | re.M)}
    kernels = []
    for m in re.finditer(r"static_library\(\s*'[^']+'\s*,\s*'([^']+\.c)'\s*,\s*c_args:\s*(.*?),\s*\w+:",
                         nocomment, re.S):
        flags = []
        for term in m.group(2).split("+"):
            term = term.strip()
            if term.startswith("["):
                flags += re.findall(r"'([^']+)'", term)
            elif term in arrays:
                flags += arrays[term]
            else:
                raise GenError("lib/meson.build: cannot read the c_args of %s: %s" % (m.group(1), term))
        guards = [f[2:] for f in flags if f.startswith("-DBF_HAVE_")]
        isa = [f[2:] for f in flags if f.startswith("-m")]
        other = [f for f in flags if not f.startswith("-DBF_HAVE_") and not f.startswith("-m")]
        if len(guards) != 1 or other:
            raise GenError("lib/meson.build: %s needs one -DBF_HAVE_* and only -m flags besides" % m.group(1))
        cond = [line for line in nocomment[:m.start()].split("\n") if re.match(r"\s*(if|elif)\b", line)][-1]
        if re.search(r"\bx86\b", cond):
            platform = "x86"
        elif re.search(r"\barm64\b", cond):
            platform = "arm64"
        else:
            raise GenError("lib/meson.build: which platform builds %s? (%s)" % (m.group(1), cond.strip()))
        kernels.append((m.group(1), ",".join(isa), guards[0], platform))
    listed = set(portable) | {k[0] for k in kernels}
    on_disk = {os.path.relpath(p, os.path.join(root, "lib"))
               for p in glob.glob(os.path.join(root, "lib", "**", "*.c"), recursive=True)}
    if on_disk - listed:
        raise GenError("lib/meson.build builds none of: %s" % ", ".join(sorted(on_disk - listed)))
    if listed - on_disk:
        raise GenError("lib/meson.build lists missing files: %s" % ", ".join(sorted(listed - on_disk)))
    return portable, kernels


PLATFORM_TEST = {
    "x86": "BF_AMALGAMATION_TARGETS && (defined(__x86_64__) || defined(__i386__))",
    "arm64": "defined(__aarch64__) && defined(__ARM_NEON) && defined(__BYTE_ORDER__) && "
             "__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__",
}


def push_target(target):
    return ("#if defined(__clang__)\n"
            "#pragma clang attribute push(__attribute__((target(\"%s\"))), apply_to = function)\n"
            "#else\n#pragma GCC push_options\n#pragma GCC target(\"%s\")\n#endif\n" % (target, target))


HEADER_PUSH = ('#if defined(__clang__)\n#pragma clang diagnostic push\n'
               '#pragma clang diagnostic ignored "-Wunused-function"\n#endif\n')
HEADER_POP = "#if defined(__clang__)\n#pragma clang diagnostic pop\n#endif\n"
POP_TARGET = "#if defined(__clang__)\n#pragma clang attribute pop\n#else\n#pragma GCC pop_options\n#endif\n"


# ---- the amalgamation -----------------------------------------------------------

class Amalgamation:
    def __init__(self, root):
        self.root = root
        self.lib = os.path.join(root, "lib")
        self.include = os.path.join(root, "include")
        self.portable, self.kernels = meson_sources(root)
        self.headers = sorted(glob.glob(os.path.join(self.lib, "**", "*.h"), recursive=True) +
                              glob.glob(os.path.join(self.include, "*.h")))
        self.texts = {}
        fn_macros = set()
        for path in self.headers + [self.src(f) for f in self.portable + [k[0] for k in self.kernels]]:
            self.texts[path] = open(path).read()
            fn_macros |= set(re.findall(r"^\s*#\s*define\s+(\w+)\(", self.texts[path], re.M))
        self.defs, self.macros = {}, {}
        for path, text in self.texts.items():
            self.defs[path], self.macros[path] = definitions(text, fn_macros)
        self.header_macros = {m for h in self.headers for m in self.macros[h]}
        self.cond_macros = {}
        for h in self.headers:
            for cond_macro, macro in guarded_macros(self.texts[h]):
                self.cond_macros.setdefault(cond_macro, set()).add(macro)
        # BF_INL_<ISA>_FORMS blocks of the headers compile under the target of
        # the ISA file whose guard is BF_HAVE_<ISA>.
        self.forms_target = {g[len("BF_HAVE_"):]: tg for _, tg, g, _ in self.kernels if tg}
        self.check_headers()
        self.emitted = {}  # header path -> set of contexts (None: unconditional)
        self.features = []

    def src(self, rel):
        return os.path.join(self.lib, rel)

    def rel(self, path):
        return os.path.relpath(path, self.root)

    def check_headers(self):
        seen = {}
        for h in self.headers:
            for key, kind in self.defs[h].items():
                if key in seen and kind != "type":
                    raise GenError("%s and %s both define %s: rename one" % (self.rel(seen[key]), self.rel(h), key[1]))
                seen[key] = h
        self.header_names = seen

    def renames(self, path):
        """{(namespace, name): new name} for a .c file's colliding names."""
        mine = self.defs[path]
        sources = [self.src(f) for f in self.portable + [k[0] for k in self.kernels]]
        out = {}
        stem = re.sub(r"\W", "_", os.path.splitext(os.path.relpath(path, self.lib))[0])
        for key, kind in mine.items():
            if kind == "global":
                continue
            clash = key in self.header_names or any(key in self.defs[o] for o in sources if o != path)
            if clash:
                out[key] = "%s__%s" % (stem, key[1])
                if kind == "type":
                    out[("type", key[1])] = out[key]
        return out

    def resolve(self, name, current):
        for base in (os.path.dirname(current), self.lib, self.include):
            p = os.path.normpath(os.path.join(base, name))
            if os.path.isfile(p):
                return p
        raise GenError("%s: cannot find \"%s\"" % (self.rel(current), name))

    def process(self, path, ctx, renames, hoist, is_header):
        """The text of one file with its includes resolved. ctx: None for
        portable code, else the ISA file's guard macro. hoist: a list that
        collects system includes of ISA code (None elsewhere)."""
        toks = lex(self.texts[path])
        out = []
        depth = 0
        guard = None
        top_macros = []
        brace = []  # True for struct/union bodies
        forms = []  # depths of open BF_INL_*_FORMS blocks
        sig_prev = []  # the last two significant tokens
        for idx, (kind, val) in enumerate(toks):
            if kind == "pp":
                name, rest = directive(val)
                if name in ("if", "ifdef", "ifndef"):
                    if is_header and guard is None and name == "ifndef" and depth == 0:
                        guard = rest.split()[0]
                    depth += 1
                    m = re.match(r"defined\s*\(\s*BF_INL_(\w+)_FORMS\s*\)\s*$", rest)
                    if name == "if" and is_header and m and m.group(1) in self.forms_target:
                        out.append(val + "\n" + push_target(self.forms_target[m.group(1)]).rstrip("\n"))
                        forms.append(depth)
                        continue
                elif name in ("else", "elif") and forms and forms[-1] == depth:
                    raise GenError("%s: #%s in a BF_INL_*_FORMS block" % (self.rel(path), name))
                elif name == "endif":
                    if forms and forms[-1] == depth:
                        forms.pop()
                        out.append(POP_TARGET)
                    depth -= 1
                rel_depth = depth - (1 if guard else 0) if is_header else depth
                if name == "define":
                    macro = re.match(r"\w+", rest).group()
                    if not is_header and FEATURE_MACRO.match(macro):
                        if val not in self.features:
                            self.features.append(val)
                        out.append("/* #define %s: at the top of this file */" % macro)
                        continue
                    if not is_header and depth == 0:
                        top_macros.append(macro)
                if name == "include":
                    m = re.match(r'"([^"]+)"', rest)
                    if m:
                        if rel_depth != 0:
                            raise GenError("%s: a conditional #include \"%s\" is not supported" % (self.rel(path), m.group(1)))
                        out.append(self.include_header(self.resolve(m.group(1), path), ctx, hoist))
                        continue
                    if hoist is not None and rel_depth == 0:
                        if val.strip() not in hoist:
                            hoist.append(val.strip())
                        out.append("/* #include %s: above */" % rest.split("/*")[0].strip())
                        continue
                if name == "define" and renames:
                    # Rename inside macro bodies too.
                    val = self.rename_tokens(lex(val[1:]), renames, [], [])[0]
                    val = "#" + val
                out.append(val)
                continue
            if kind == "id" and renames:
                out.append(self.rename_one(val, renames, brace, sig_prev))
            else:
                out.append(val)
            if kind not in SKIP:
                if val == "{":
                    brace.append(bool(sig_prev) and (sig_prev[-1] in ("struct", "union") or
                                                     (len(sig_prev) == 2 and sig_prev[0] in ("struct", "union"))))
                elif val == "}" and brace:
                    brace.pop()
                sig_prev = (sig_prev + [val])[-2:]
        text = "".join(out)
        if not text.endswith("\n"):
            text += "\n"
        undef = sorted(set(top_macros) - self.header_macros)
        if undef:
            text += "".join("#undef %s\n" % m for m in undef)
        return text

    def rename_one(self, val, renames, brace, sig_prev):
        prev = sig_prev[-1] if sig_prev else None
        if prev in (".", "->"):
            return val
        if prev in ("struct", "union", "enum"):
            return renames.get(("tag", val), val)
        new = renames.get(("ord", val))
        if new is None:
            return val
        if brace and brace[-1] and ("type", val) not in renames:
            return val  # a member name: only type names are renamed in a struct body
        return new

    def rename_tokens(self, toks, renames, brace, sig_prev):
        out = []
        for kind, val in toks:
            if kind == "id":
                out.append(self.rename_one(val, renames, brace, sig_prev))
            else:
                out.append(val)
            if kind not in SKIP:
                sig_prev = (sig_prev + [val])[-2:]
        return "".join(out), sig_prev

    def include_header(self, path, ctx, hoist):
        contexts = self.emitted.get(path)
        name = self.rel(path)
        if contexts is not None:
            if None in contexts or ctx in contexts:
                return "/* %s: above */" % name
            if ctx is None:
                raise GenError("%s is included by portable code but was first included by ISA code (%s)"
                               % (name, ", ".join(sorted(c for c in contexts if c))))
        self.emitted.setdefault(path, set()).add(ctx)
        if not re.search(r"^\s*#\s*ifndef\s+(\w+)\s*\n\s*#\s*define\s+\1\b", self.texts[path], re.M):
            raise GenError("%s has no include guard" % name)
        body = self.process(path, ctx, None, hoist, True)
        # A header's static inline functions need not all be used, as in any
        # includer (clang warns of unused ones in the main file only).
        return ("/* ---- begin %s ---- */\n%s%s%s/* ---- end %s ---- */"
                % (name, HEADER_PUSH, body, HEADER_POP, name))

    def source(self, rel, ctx, hoist):
        """A .c file. Where it defines a macro that headers test with
        !defined() (BF_NO_INLINE: the file defines the functions the inline
        paths stand in for), the header macros under that test are hidden
        from it, as they are in its own meson translation unit."""
        path = self.src(rel)
        hidden = sorted({m for d in top_defines(self.texts[path]) for m in self.cond_macros.get(d, ())})
        body = self.process(path, ctx, self.renames(path), hoist, False)
        head = "".join('#pragma push_macro("%s")\n#undef %s\n' % (m, m) for m in hidden)
        tail = "".join('#pragma pop_macro("%s")\n' % m for m in hidden)
        return "/* ==== lib/%s ==== */\n%s%s%s" % (rel, head, body, tail)

    def build(self):
        version = re.search(r"version:\s*'([^']+)'", open(os.path.join(self.root, "meson.build")).read()).group(1)
        # The public headers first, as any includer sees them (inline paths
        # on; the library files that define what they stand in for hide them).
        core = os.path.join(self.include, "blockfilter.h")
        public = [core] + sorted(h for h in self.headers if os.path.dirname(h) == self.include and h != core)
        parts = ["/* ==== the public headers ==== */\n" + "\n".join(self.include_header(h, None, None) for h in public)]
        parts += [self.source(rel, None, None) for rel in self.portable]
        for rel, target, guard, platform in self.kernels:
            hoist = []
            body = self.source(rel, guard, hoist)
            chunk = "#if defined(%s)\n" % guard
            chunk += "".join(h + "\n" for h in hoist)
            if target:
                chunk += push_target(target) + body + POP_TARGET
            else:
                chunk += body
            chunk += "#endif /* %s */\n" % guard
            parts.append(chunk)
        defines = {}
        public_text = "".join(self.texts[h] for h in self.headers if os.path.dirname(h) == self.include)
        for rel, target, guard, platform in self.kernels:
            defines.setdefault(platform, []).append(guard)
            forms = "BF_SBBF_%s_FORMS" % guard[len("BF_HAVE_"):]
            if target and re.search(r"\b%s\b" % forms, public_text):
                defines[platform].append(forms)  # the header's SIMD primitives, under the target
        have = "".join("#if %s\n%s#endif\n" % (PLATFORM_TEST[p], "".join("#define %s 1\n" % g for g in gs))
                       for p, gs in sorted(defines.items()))
        features = "".join("#ifndef %s\n%s\n#endif\n" % (re.match(r"#\s*define\s+(\w+)", f).group(1), f.strip())
                           for f in self.features)
        head = HEAD.format(version=version, files=len(self.portable) + len(self.kernels))
        head += features + PRELUDE + "#if !defined(BF_AMALGAMATION_SCALAR)\n" + have + "#endif\n\n"
        return head + "\n".join(parts)


HEAD = """/*
 * blockfilter {version}: the whole library in one C11 file (the
 * amalgamation), with its public headers beside it. Generated from {files}
 * sources by scripts/amalgamate.sh; do not edit, regenerate.
 *
 *   cc -O2 -c blockfilter.c          gcc or clang; link with -lm
 *
 * Nothing beyond libc is needed: no configure step, no per-file flags, no
 * xxhash.h (the library's XXH64 is its own). On x86-64 the AVX2 and
 * AVX-512 kernels, and on aarch64 the NEON ones, are compiled in with
 * function-level target attributes and chosen at run time from the CPU, as
 * in the meson build; BLOCKFILTER_KERNEL=scalar|avx2|avx512|neon forces
 * one. -DBF_AMALGAMATION_SCALAR builds the portable kernels only.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
"""

PRELUDE = """#define BF_AMALGAMATION 1
/* Function-level target attributes for the ISA kernels. */
#if defined(__clang__)
#define BF_AMALGAMATION_TARGETS (__clang_major__ >= 9)
#elif defined(__GNUC__)
#define BF_AMALGAMATION_TARGETS (__GNUC__ >= 8)
#else
#define BF_AMALGAMATION_TARGETS 0
#endif
"""


def main():
    if len(sys.argv) != 2:
        print("usage: amalgamate.py OUTDIR", file=sys.stderr)
        return 2
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = sys.argv[1]
    try:
        text = Amalgamation(root).build()
    except GenError as e:
        print("amalgamate: %s" % e, file=sys.stderr)
        return 1
    os.makedirs(out, exist_ok=True)
    files = {"blockfilter.c": text}
    for h in sorted(glob.glob(os.path.join(root, "include", "*.h")) + glob.glob(os.path.join(root, "include", "*.hpp"))):
        files[os.path.basename(h)] = open(h).read()
    for name, content in files.items():
        with open(os.path.join(out, name), "w", newline="\n") as f:
            f.write(content)
    print("amalgamate: %s (%d lines) and %s" % (os.path.join(out, "blockfilter.c"), text.count("\n"),
                                                 ", ".join(n for n in files if n != "blockfilter.c")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
