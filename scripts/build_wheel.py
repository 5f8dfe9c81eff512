#!/usr/bin/env python3
"""Build a Python wheel that carries a built mcplint binary.

    scripts/build_wheel.py --binary PATH --version VERSION [--out DIR] [--plat-tag TAG]

The wheel has no Python code: the binary is the wheel's script
(mcplint-VERSION.data/scripts/mcplint, or mcplint.exe), so `pip install`,
`pipx install`, `uv tool install` and `uvx` put it on PATH as it is, like
ruff's and maturin's "bin" wheels. Its tag is py3-none-PLATFORM, where
PLATFORM is read from the binary itself, not from the machine that runs this
script:

- Linux, glibc: manylinux_2_N_ARCH, where 2.N is the newest GLIBC_ symbol
  version the binary needs (its ELF version requirements, what
  `objdump -T` shows), the honest baseline of a cgo binary;
- Linux, musl (interpreter ld-musl-*): musllinux_1_2_ARCH (musl has no
  symbol versions; build on musl 1.2 or newer, such as Alpine 3.13+);
- macOS: macosx_MAJOR_MINOR_ARCH from the Mach-O minimum OS version
  (LC_BUILD_VERSION), as 11_0 for macOS 11 and later;
- Windows: win_amd64, win_arm64 or win32 from the PE machine type.

A static Linux binary has no glibc baseline to read: give --plat-tag.
The wheel's VERSION is the PEP 440 form of --version (v0.2.0 -> 0.2.0,
0.2.0-rc.1 -> 0.2.0rc1, 0.1.0-dev -> 0.1.0.dev0). Python 3 standard library
only. Prints the wheel's path.
"""

import argparse
import base64
import hashlib
import io
import os
import re
import struct
import sys
import time
import zipfile

NAME = "mcplint"
SUMMARY = ("Find the code and dependency pins that make a Python MCP server "
           "crash when a client cancels a request, and fix them.")
HOMEPAGE = "https://github.com/mcplint/mcplint"


class WheelError(Exception):
    pass


# --- versions -------------------------------------------------------------

def pep440(version):
    """The PEP 440 form of a release tag or Go-style version."""
    v = version.strip()
    if v[:1] in "vV":
        v = v[1:]
    m = re.fullmatch(
        r"(\d+(?:\.\d+)*)"                                  # release
        r"(?:[-.]?(a|alpha|b|beta|rc|c)[-.]?(\d*))?"        # pre-release
        r"(?:[-.]?(post)[-.]?(\d*))?"                       # post-release
        r"(?:[-.]?(dev)[-.]?(\d*))?",                       # dev release
        v, re.IGNORECASE)
    if not m:
        raise WheelError("version %r is not a release version (PEP 440)" % version)
    release, pre, pre_n, post, post_n, dev, dev_n = m.groups()
    out = release
    if pre:
        pre = {"alpha": "a", "beta": "b", "c": "rc"}.get(pre.lower(), pre.lower())
        out += "%s%d" % (pre, int(pre_n or 0))
    if post:
        out += ".post%d" % int(post_n or 0)
    if dev:
        out += ".dev%d" % int(dev_n or 0)
    return out


# --- platform tags, read from the binary -----------------------------------

ELF_MACHINES = {0x03: "i686", 0x28: "armv7l", 0x3E: "x86_64", 0xB7: "aarch64",
                0x15: "ppc64le", 0x16: "s390x", 0xF3: "riscv64"}
SHT_GNU_VERNEED = 0x6FFFFFFE
PT_INTERP = 3


def elf_info(data):
    """(machine, interpreter, set of GLIBC_x.y versions needed) of an ELF file."""
    if data[:4] != b"\x7fELF":
        raise WheelError("not an ELF file")
    is64 = data[4] == 2
    end = "<" if data[5] == 1 else ">"
    if is64:
        (_, machine, _, _, phoff, shoff, _, _, phentsize, phnum, shentsize, shnum,
         _) = struct.unpack_from(end + "HHIQQQIHHHHHH", data, 16)
    else:
        (_, machine, _, _, phoff, shoff, _, _, phentsize, phnum, shentsize, shnum,
         _) = struct.unpack_from(end + "HHIIIIIHHHHHH", data, 16)
    arch = ELF_MACHINES.get(machine)
    if machine == 0x15 and end == ">":
        arch = "ppc64"
    if arch is None:
        raise WheelError("unknown ELF machine %#x" % machine)

    interp = ""
    for i in range(phnum):
        off = phoff + i * phentsize
        if is64:
            p_type, _, p_offset, _, _, p_filesz = struct.unpack_from(end + "IIQQQQ", data, off)
        else:
            p_type, p_offset, _, _, p_filesz = struct.unpack_from(end + "IIIII", data, off)
        if p_type == PT_INTERP:
            interp = data[p_offset:p_offset + p_filesz].rstrip(b"\0").decode()

    sections = []
    for i in range(shnum):
        off = shoff + i * shentsize
        if is64:
            _, sh_type, _, _, sh_offset, sh_size, sh_link, sh_info = struct.unpack_from(end + "IIQQQQII", data, off)
        else:
            _, sh_type, _, _, sh_offset, sh_size, sh_link, sh_info = struct.unpack_from(end + "IIIIIIII", data, off)
        sections.append((sh_type, sh_offset, sh_size, sh_link, sh_info))

    def cstr(table, index):
        start = sections[table][1] + index
        return data[start:data.index(b"\0", start)].decode()

    needed = set()
    for sh_type, sh_offset, _, sh_link, sh_info in sections:
        if sh_type != SHT_GNU_VERNEED:
            continue
        off = sh_offset
        for _ in range(sh_info):  # Elf_Verneed entries
            _, vn_cnt, _, vn_aux, vn_next = struct.unpack_from(end + "HHIII", data, off)
            aux = off + vn_aux
            for _ in range(vn_cnt):  # Elf_Vernaux entries
                _, _, _, vna_name, vna_next = struct.unpack_from(end + "IHHII", data, aux)
                name = cstr(sh_link, vna_name)
                if re.fullmatch(r"GLIBC_\d+(\.\d+)*", name):
                    needed.add(name)
                aux += vna_next
            off += vn_next
    return arch, interp, needed


def glibc_baseline(needed):
    """The newest (major, minor) in a set of GLIBC_x.y[.z] version names."""
    versions = [tuple(int(n) for n in v[len("GLIBC_"):].split(".")[:2]) for v in needed]
    return max((v + (0,))[:2] for v in versions)


MACHO_CPUS = {0x01000007: "x86_64", 0x0100000C: "arm64"}
LC_VERSION_MIN_MACOSX = 0x24
LC_BUILD_VERSION = 0x32


def macho_tag(data):
    magic = struct.unpack_from("<I", data)[0]
    if magic != 0xFEEDFACF:
        raise WheelError("only thin 64-bit little-endian Mach-O binaries are supported")
    cputype, _, _, ncmds, _, _ = struct.unpack_from("<iIIIII", data, 4)
    arch = MACHO_CPUS.get(cputype & 0xFFFFFFFF)
    if arch is None:
        raise WheelError("unknown Mach-O CPU type %#x" % cputype)
    off, minos = 32, None
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", data, off)
        if cmd == LC_BUILD_VERSION:
            minos = struct.unpack_from("<I", data, off + 12)[0]
        elif cmd == LC_VERSION_MIN_MACOSX and minos is None:
            minos = struct.unpack_from("<I", data, off + 8)[0]
        off += size
    if minos is None:
        raise WheelError("the Mach-O binary names no minimum macOS version")
    major, minor = minos >> 16, (minos >> 8) & 0xFF
    if major >= 11:
        minor = 0  # pip matches macOS 11+ by major version only
    return "macosx_%d_%d_%s" % (major, minor, arch)


PE_MACHINES = {0x8664: "win_amd64", 0xAA64: "win_arm64", 0x14C: "win32"}


def pe_tag(data):
    lfanew = struct.unpack_from("<I", data, 0x3C)[0]
    if data[lfanew:lfanew + 4] != b"PE\0\0":
        raise WheelError("not a PE file")
    machine = struct.unpack_from("<H", data, lfanew + 4)[0]
    if machine not in PE_MACHINES:
        raise WheelError("unknown PE machine %#x" % machine)
    return PE_MACHINES[machine]


def platform_tag(data):
    """The wheel platform tag for a binary, and whether it is a Windows .exe."""
    if data[:4] == b"\x7fELF":
        arch, interp, needed = elf_info(data)
        if "ld-musl" in interp:
            return "musllinux_1_2_" + arch, False
        if not needed:
            raise WheelError(
                "the ELF binary needs no glibc symbol versions (static, interpreter %r): "
                "choose its tag with --plat-tag" % (interp or "none"))
        major, minor = glibc_baseline(needed)
        return "manylinux_%d_%d_%s" % (major, minor, arch), False
    if data[:4] in (b"\xcf\xfa\xed\xfe", b"\xca\xfe\xba\xbe"):
        return macho_tag(data), False
    if data[:2] == b"MZ":
        return pe_tag(data), True
    raise WheelError("not an ELF, Mach-O or PE binary")


# --- the wheel --------------------------------------------------------------

def record_hash(payload):
    digest = base64.urlsafe_b64encode(hashlib.sha256(payload).digest()).rstrip(b"=")
    return "sha256=" + digest.decode()


# --- the long description ---------------------------------------------------

# Markdown link targets, as scripts/docs_test.go reads them: inline links and
# images, reference definitions, and HTML href/src attributes.
_INLINE_LINK = re.compile(r'(!?\[[^\]]*\]\(\s*<?)([^)\s>]+)')
_REF_LINK = re.compile(r'^(\s{0,3}\[[^\]]+\]:\s*<?)(\S+?)(?=>?(?:\s|$))')
_HTML_LINK = re.compile(r'(\b(?:href|src)=")([^"]*)')
_FENCE = re.compile(r'^\s*(```|~~~)')
_CODE_SPAN = re.compile(r'`+[^`]*`+')
_SCHEME = re.compile(r'^[a-zA-Z][a-zA-Z0-9+.-]*:')


def readme_ref(version):
    """The git ref whose files a release's README links to: the release tag
    (vX.Y.Z, as the release workflow names it), or main for a dev build."""
    v = version.strip()
    if ".dev" in pep440(v) or "+" in v:
        return "main"
    return "v" + (v[1:] if v[:1] in "vV" else v)


def absolute_links(readme, ref):
    """The README with every relative link made absolute to the repository at
    ref: PyPI renders the long description with no repository around it, so a
    link to docs/ci.md or #in-ci would lead nowhere there. Images point at the
    raw file, other links at GitHub's page for it (a heading anchor at the
    README's). Code blocks and code spans are left as they are."""
    def target(t, image):
        if _SCHEME.match(t) or t.startswith("//"):
            return t
        if t.startswith("#"):
            return "%s/blob/%s/README.md%s" % (HOMEPAGE, ref, t)
        path = t[2:] if t.startswith("./") else t.lstrip("/")
        return "%s/%s/%s/%s" % (HOMEPAGE, "raw" if image else "blob", ref, path)

    def inline(m):
        return m.group(1) + target(m.group(2), m.group(1).startswith("!"))

    def html(m):
        return m.group(1) + target(m.group(2), m.group(1).startswith("src"))

    def prose(line):
        out, last = [], 0
        for span in _CODE_SPAN.finditer(line):
            out.append(_HTML_LINK.sub(html, _INLINE_LINK.sub(inline, line[last:span.start()])))
            out.append(span.group(0))
            last = span.end()
        out.append(_HTML_LINK.sub(html, _INLINE_LINK.sub(inline, line[last:])))
        return _REF_LINK.sub(lambda m: m.group(1) + target(m.group(2), False), "".join(out))

    lines, fence = [], None
    for line in readme.split("\n"):
        m = _FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
        elif fence is not None and m and m.group(1) == fence:
            fence = None
        elif fence is None:
            line = prose(line)
        lines.append(line)
    return "\n".join(lines)


def metadata(version, readme):
    lines = [
        "Metadata-Version: 2.1",
        "Name: " + NAME,
        "Version: " + version,
        "Summary: " + SUMMARY,
        "Home-page: " + HOMEPAGE,
        "Project-URL: Source, " + HOMEPAGE,
        "Project-URL: Documentation, " + HOMEPAGE + "#readme",
        "Keywords: mcp,linter,static-analysis,cancellation,anyio",
        "Classifier: Development Status :: 4 - Beta",
        "Classifier: Environment :: Console",
        "Classifier: Intended Audience :: Developers",
        "Classifier: Programming Language :: Go",
        "Classifier: Programming Language :: Python :: 3",
        "Classifier: Topic :: Software Development :: Quality Assurance",
    ]
    if readme:
        lines.append("Description-Content-Type: text/markdown")
        return "\n".join(lines) + "\n\n" + readme
    return "\n".join(lines) + "\n"


def write_wheel(out, dist, tag, files):
    """Write OUT/DIST-TAG.whl from (name, bytes, mode) entries, RECORD last."""
    record_name = "%s.dist-info/RECORD" % dist
    record = io.StringIO()
    for name, payload, _ in files:
        record.write("%s,%s,%d\n" % (name, record_hash(payload), len(payload)))
    record.write("%s,,\n" % record_name)
    files = list(files) + [(record_name, record.getvalue().encode(), 0o644)]
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "%s-%s.whl" % (dist, tag))
    # Reproducible: fixed order and timestamps (SOURCE_DATE_EPOCH when set).
    stamp = max(int(os.environ.get("SOURCE_DATE_EPOCH", "0")), 315532800)  # zip starts in 1980
    date_time = time.gmtime(stamp)[:6]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, payload, mode in files:
            info = zipfile.ZipInfo(name, date_time=date_time)
            info.external_attr = (0o100000 | mode) << 16  # a regular file and its mode
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, payload)
    return path


def wheel_file(generator, tag, purelib):
    return ("Wheel-Version: 1.0\nGenerator: %s\nRoot-Is-Purelib: %s\nTag: %s\n"
            % (generator, "true" if purelib else "false", tag)).encode()


def build(binary, version, out, plat=None, readme=None, generator="mcplint scripts/build_wheel.py"):
    with open(binary, "rb") as f:
        data = f.read()
    detected, exe = platform_tag(data) if plat is None else (plat, plat.startswith("win"))
    tag = "py3-none-" + detected
    if readme:
        readme = absolute_links(readme, readme_ref(version))
    version = pep440(version)
    dist = "%s-%s" % (NAME, version)
    files = [
        ("%s.data/scripts/%s%s" % (dist, NAME, ".exe" if exe else ""), data, 0o755),
        ("%s.dist-info/METADATA" % dist, metadata(version, readme).encode(), 0o644),
        ("%s.dist-info/WHEEL" % dist, wheel_file(generator, tag, purelib=False), 0o644),
    ]
    return write_wheel(out, dist, tag, files)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--binary", required=True, help="the built mcplint (or mcplint.exe)")
    p.add_argument("--version", required=True, help="the release version, e.g. v0.2.0 or 0.2.0")
    p.add_argument("--out", default="dist", help="folder for the wheel (default: dist)")
    p.add_argument("--plat-tag", help="the wheel platform tag, instead of reading it from the binary")
    p.add_argument("--readme", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "README.md"),
                   help="the long description (default: the repository's README.md; empty for none)")
    args = p.parse_args(argv)
    readme = None
    if args.readme:
        with open(args.readme, encoding="utf-8") as f:
            readme = f.read()
    try:
        print(build(args.binary, args.version, args.out, args.plat_tag, readme))
    except WheelError as e:
        print("build_wheel: %s: %s" % (args.binary, e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
