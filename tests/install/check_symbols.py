"""Checks that libparquetry.so exports its public API and nothing else.

usage: check_symbols.py LIBRARY INCLUDE_DIR [ARCHIVE]

The library is compiled with hidden visibility; what the installed headers
mark PARQUETRY_API is exported. Checked, so that new API can be added without
touching this file but a leak of internals fails:
  - at least MIN_API_SYMBOLS exported parquetry symbols (losing the export
    macro, or the library, drops far below);
  - every exported parquetry symbol is named by the installed headers: each
    namespace, class and function name in its qualified name occurs as an
    identifier in the headers' code (comments removed), and no anonymous
    namespace or lambda is exported (internal helpers share no name with the
    headers);
  - no more than MAX_API_SYMBOLS (a leak of all internals multiplies the count);
  - nothing outside parquetry's namespace but the C++ library's template
    instances (std::, __gnu_cxx::) and the C symbols the API declares;
  - a sample of the API, by name, is there;
  - with ARCHIVE (libparquetry.a, the same objects): nothing the headers
    declare is left hidden, i.e. no global function or object of the archive
    whose qualified name the headers spell is missing from the shared
    library. A public declaration that lacks PARQUETRY_API fails here instead
    of in a user's link.
"""

import re
import subprocess
import sys
from pathlib import Path

# Measured when the check was written: 569 parquetry symbols (see the output's
# first line); 636 after encryption, the writer catalogue and Iceberg tables. The bounds leave room for the API to grow (or shrink a little);
# without the export macro the count falls to 0, with every internal exported
# it passes 5,000.
MIN_API_SYMBOLS = 450
MAX_API_SYMBOLS = 2500

# Exported names a user of the library calls, by demangled prefix.
SAMPLE = [
    "parquetry::FileReader::open(",
    "parquetry::FileReader::batches()",
    "parquetry::FileWriter::open(",
    "parquetry::FileWriter::write(",
    "parquetry::FileWriter::close()",
    "parquetry::RowReader::open(",
    "parquetry::RowWriter::open(",
    "parquetry::export_stream(",
    "parquetry::import_stream(",
    "parquetry::read_file_metadata(",
    "parquetry::Schema::",
    "parquetry::FilteredScan::",
    "parquetry::iceberg::MergeOnReadReader::",
    "parquetry::iceberg::PuffinWriter::",
    "parquetry::variant_get(",
    "parquetry::proto::plan_for(",
    "parquetry::version()",
    "parquetry::build_commit()",
    "parquetry::created_by()",
    "parquetry::parse_created_by(",
    "parquetry::StatisticsCatalogue::",
    "parquetry::parse_column_path",
    "parquetry::parse_key",
    "parquetry::key_tools_encryption(",
    "parquetry::iceberg::TableScan::",
    "parquetry::iceberg::plan_scan(",
    "parquetry::open_source(",
    "parquetry::RemoteSource::",
    "typeinfo for parquetry::KmsClient",
    "typeinfo for parquetry::Error",
    "typeinfo for parquetry::RandomAccessSource",
    "vtable for parquetry::FileSource",
]

# Declared in the public headers only as opaque names (a forward declaration,
# a friend), defined and used inside the library: hidden on purpose.
INTERNAL_DECLARED = ("parquetry::FileDecryptor::", "parquetry::file_decryptor_of(")

SPECIAL_PREFIXES = ("typeinfo name for ", "typeinfo for ", "vtable for ", "VTT for ", "guard variable for ",
                    "non-virtual thunk to ", "virtual thunk to ", "construction vtable for ")


def header_identifiers(include_dir):
    words = set()
    for header in Path(include_dir).rglob("*.h"):
        text = header.read_text()
        text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
        text = re.sub(r"//[^\n]*", " ", text)
        text = re.sub(r'"(?:\\.|[^"\\])*"', " ", text)
        words.update(re.findall(r"[A-Za-z_]\w*", text))
    return words


def strip_special(name):
    changed = True
    while changed:
        changed = False
        for prefix in SPECIAL_PREFIXES:
            if name.startswith(prefix):
                name = name[len(prefix):]
                changed = True
    return name


def qualified_components(name):
    name = re.sub(r"\[abi:\w+\]", "", name)
    """The '::' separated components of the entity's name, template arguments
    and the parameter list dropped: 'parquetry::A<int>::f(int) const' ->
    ['parquetry', 'A', 'f']."""
    out, depth, current = [], 0, ""
    i = 0
    while i < len(name):
        c = name[i]
        if c == "<" and not current.startswith("operator"):
            depth += 1
        elif c == ">" and depth > 0 and not current.startswith("operator"):
            depth -= 1
        elif depth == 0:
            if c == "(" and current == "operator" and name.startswith("()", i):
                current += "()"  # operator()
                i += 2
                continue
            if c == "(" and not current.startswith("{"):
                if current.startswith("(anonymous"):
                    current += c
                else:
                    break
            elif name.startswith("::", i):
                out.append(current)
                current = ""
                i += 2
                continue
            elif c == " " and not current.startswith(("operator", "(anonymous", "{")):
                # "parquetry::Foo::operator bool() const": keep; a return type before the name cannot occur
                current += c
            else:
                current += c
        i += 1
    out.append(current.strip())
    return [c for c in out if c]


def hidden_declarations(archive, identifiers, exported):
    """Global definitions of the archive that are hidden (no PARQUETRY_API)
    although every component of their name is spelled in the headers."""
    table = subprocess.run(["readelf", "-sW", archive], check=True, capture_output=True, text=True).stdout
    mangled = sorted({f[7] for f in (line.split() for line in table.splitlines())
                      if len(f) >= 8 and f[4] == "GLOBAL" and f[5] == "HIDDEN" and f[6] != "UND"})
    names = subprocess.run(["c++filt"], input="\n".join(mangled), check=True, capture_output=True,
                           text=True).stdout.splitlines()
    problems = []
    for name in names:
        base = strip_special(name)
        if not base.startswith("parquetry::") or "(anonymous namespace)" in base or "{lambda" in base:
            continue
        if name in exported or base.startswith(INTERNAL_DECLARED):
            continue
        components = [c.lstrip("~") for c in qualified_components(base)]
        if all(c in identifiers or c.startswith("operator") for c in components):
            problems.append(f"declared in the headers but not exported (PARQUETRY_API missing?): {name}")
    return problems


def main():
    library, include_dir = sys.argv[1], sys.argv[2]
    lines = subprocess.run(["nm", "-D", "--defined-only", "-C", library], check=True, capture_output=True,
                           text=True).stdout.splitlines()
    identifiers = header_identifiers(include_dir)
    ours, problems = [], []
    for line in lines:
        parts = line.split(" ", 2)
        if len(parts) < 3:
            continue
        kind, name = parts[1], parts[2]
        base = strip_special(name)
        if base.startswith("parquetry::"):
            ours.append(name)
            if "(anonymous namespace)" in base or "{lambda" in base:
                problems.append(f"internal (anonymous namespace or lambda) exported: {name}")
                continue
            for component in qualified_components(base):
                if component.startswith("operator") or component.startswith("~"):
                    component = component.lstrip("~")
                    if component.startswith("operator"):
                        continue
                if component not in identifiers:
                    problems.append(f"not declared in the installed headers ({component}): {name}")
                    break
        elif re.search(r"(^|[\s<(])(std|__gnu_cxx)::", base.split("(")[0]):
            continue  # the C++ library's templates, instantiated for the API's types
        elif base != name and "parquetry::" not in base:
            # typeinfo of a type built only from the language's and the C++
            # library's types (a function pointer type std::function stores):
            # the same in every program, it carries no internals.
            continue
        elif kind in ("T", "D", "B", "R") and base.split("(")[0] in identifiers:
            continue  # C symbols the API declares
        else:
            problems.append(f"exported symbol outside parquetry's API: {kind} {name}")
    print(f"{len(ours)} exported parquetry symbols ({len(lines)} in all) in {library}")
    if not MIN_API_SYMBOLS <= len(ours) <= MAX_API_SYMBOLS:
        problems.append(f"{len(ours)} exported parquetry symbols, expected {MIN_API_SYMBOLS}..{MAX_API_SYMBOLS}")
    for wanted in SAMPLE:
        if not any(strip_special(n).startswith(wanted) or n.startswith(wanted) for n in ours):
            problems.append(f"API symbol missing: {wanted}")
    if len(sys.argv) > 3:
        problems += hidden_declarations(sys.argv[3], identifiers, {line.split(" ", 2)[2] for line in lines
                                                                     if line.count(" ") >= 2})
    for problem in problems[:50]:
        print("FAIL", problem)
    if len(problems) > 50:
        print(f"... and {len(problems) - 50} more")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
