#!/usr/bin/python3
"""The README's examples, run: every fenced block opened by a bare ``` whose
first line starts with "$ " is a transcript. Each "$ CMD" line is run with
`sh -c CMD` (stdin /dev/null, stderr into stdout) and what it prints must be
the lines below it, up to the next "$ " line or the end of the block. A block
opened by ```text is shown, not run: for an example that takes minutes, or
needs what a checkout does not have (a downloaded module, an installed ftv).

  readme_examples.py --build DIR --top DIR --check [FILE...]   (make check)
  readme_examples.py --build DIR --top DIR --update [FILE...]  (make readme-examples)

Without FILE: README.md and every docs/*.md page holding a transcript (the
README must hold one). A FILE named that holds none is bad input.

Where the commands run: a fresh scratch directory holding a symlink to every
entry of the source tree (`corpus`, `tests`, `docs`, ...) and `build` to the
build directory, so `build/ftv`, `corpus/...` and `build/corpus/...` mean what
they mean in a checkout, and what a command writes (`./NAME.cx.scn`, an object
it compiles) lands in the scratch directory, which is removed afterwards. The
commands of one file run in order in one scratch directory: a later command
may use what an earlier one wrote.

The masking rule, applied to both the shown and the actual output, line by
line, before they are compared (and only then):
  - a duration, a number followed by s, ms, us or µs ("0.4 s", "6.7s"), is <T>;
  - a rate, a number followed by "/s" or by one word and "/s" ("464.2/s",
    "1421 executions/s"), is <R>;
  - "peak RSS N MiB" is "peak RSS <M>", and herd7's "Time TEST N" line "Time TEST <T>";
  - the scratch directory's absolute path is $PWD;
  - runs of spaces are one space (columns padded to a duration's width).
Trailing blank lines are dropped. Everything else must match byte for byte: a count, a seed, a step, a
violation's message. A shown line that is exactly "..." stands for any number
of lines (zero included; it may be indented), so a block may show the head and the tail of a long
output.

--update rewrites the shown output of every command whose output no longer
matches (a matching one is left as it is, old timings included): with the
actual output, or, for one shown with "...", with as many lines before the
first "..." and after the last one as it showed, around one "...".
--match TEXT checks only the blocks containing TEXT.
Exit status: 0 every output matched (or was updated), 1 a mismatch (a diff on
stdout naming the file and line), 2 bad usage or a file with no example.
"""
import argparse
import difflib
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

PROMPT = '$ '
ELIDE = '...'


def blocks(lines):
    """(first line index, last line index exclusive) of each transcript."""
    out, i = [], 0
    while i < len(lines):
        if lines[i].startswith('```'):
            j = i + 1
            while j < len(lines) and not lines[j].startswith('```'):
                j += 1
            if lines[i].strip() == '```' and i + 1 < j and lines[i + 1].startswith(PROMPT):
                out.append((i + 1, j))
            i = j + 1
        else:
            i += 1
    return out


def commands(lines, a, b):
    """[(index of the "$ " line, command, shown output lines)] of a block."""
    cmds = []
    for k in range(a, b):
        if lines[k].startswith(PROMPT):
            cmds.append([k, lines[k][len(PROMPT):], []])
        else:
            cmds[-1][2].append(lines[k])
    return cmds


MASKS = [
    (re.compile(r'\b\d+(?:\.\d+)?\s?(?:[A-Za-z-]+)?/s\b'), '<R>'),
    (re.compile(r'\b\d+(?:\.\d+)?\s?(?:s|ms|us|µs)\b'), '<T>'),
    (re.compile(r'peak RSS \d+ MiB'), 'peak RSS <M>'),
    (re.compile(r'^(Time \S+) [0-9.]+$'), r'\1 <T>'),
    (re.compile(r' +'), ' '),
]


def mask(line, scratch):
    line = line.replace(scratch, '$PWD')
    for rx, rep in MASKS:
        line = rx.sub(rep, line)
    return line.rstrip()


def matches(shown, actual):
    """shown (masked, "..." eliding) against actual (masked)."""
    memo = {}

    def m(i, j):
        if (i, j) in memo:
            return memo[(i, j)]
        if i == len(shown):
            r = j == len(actual)
        elif shown[i] == ELIDE:
            r = any(m(i + 1, k) for k in range(j, len(actual) + 1))
        else:
            r = j < len(actual) and shown[i] == actual[j] and m(i + 1, j + 1)
        memo[(i, j)] = r
        return r
    return m(0, 0)


def refreshed(shown, actual):
    shown = [ELIDE if s.strip() == ELIDE else s for s in shown]
    if ELIDE not in shown:
        return actual
    head = shown.index(ELIDE)
    tail = len(shown) - 1 - max(i for i, s in enumerate(shown) if s == ELIDE)
    if head + tail >= len(actual):
        return actual
    return actual[:head] + [ELIDE] + (actual[len(actual) - tail:] if tail else [])


def scratch_dir(top, build):
    d = tempfile.mkdtemp(prefix='ftv-readme-')
    for name in os.listdir(top):
        if name not in ('build', '.git'):
            os.symlink(os.path.join(top, name), os.path.join(d, name))
    os.symlink(build, os.path.join(d, 'build'))
    return d


def run(cmd, cwd, timeout):
    try:
        p = subprocess.run(['sh', '-c', cmd], cwd=cwd, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout)
        out = p.stdout.decode('utf-8', 'replace')
    except subprocess.TimeoutExpired:
        out = 'readme_examples: timed out after %d s\n' % timeout
    lines = out.split('\n')
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def do_file(path, args):
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    found = [(a, b) for a, b in blocks(lines)
             if args.match is None or any(args.match in l for l in lines[a:b])]
    if not found:
        print('%s: no example (a bare ``` block starting with "$ ")%s' %
              (path, '' if args.match is None else ' containing ' + repr(args.match)),
              file=sys.stderr)
        return 2, 0, 0
    scratch = scratch_dir(os.path.abspath(args.top), os.path.abspath(args.build))
    bad, ran, edits = 0, 0, []
    try:
        for a, b in found:
            for k, cmd, shown in commands(lines, a, b):
                actual = run(cmd, scratch, args.timeout)
                ran += 1
                ms = [ELIDE if s.strip() == ELIDE else mask(s, scratch) for s in shown]
                ma = [mask(s, scratch) for s in actual]
                if matches(ms, ma):
                    continue
                if args.update:
                    edits.append((k + 1, k + 1 + len(shown), refreshed(shown, actual)))
                    continue
                bad += 1
                print('%s:%d: the output of `%s` differs (masked; - shown, + actual):'
                      % (path, k + 1, cmd))
                for d in difflib.unified_diff(ms, ma, lineterm='', n=2):
                    if not d.startswith(('---', '+++')):
                        print('  ' + d)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if edits:
        for s, e, new in reversed(edits):
            lines[s:e] = [l.replace(scratch, '$PWD') for l in new]
        with open(path, 'w', encoding='utf-8') as f:
            f.write('\n'.join(lines))
        print('%s: %d outputs updated' % (path, len(edits)))
    return (1 if bad else 0), ran, len(edits)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--build', required=True, help='the build directory (build/ftv in it)')
    ap.add_argument('--top', required=True, help='the source tree')
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument('--check', action='store_true')
    mode.add_argument('--update', action='store_true')
    ap.add_argument('--match', help='only the blocks containing this text')
    ap.add_argument('--timeout', type=int, default=300, help='seconds per command')
    ap.add_argument('files', nargs='*')
    args = ap.parse_args()
    if not args.files:
        pages = sorted(glob.glob(os.path.join(args.top, 'docs', '*.md')))
        args.files = [os.path.join(args.top, 'README.md')] + [
            p for p in pages if blocks(open(p, encoding='utf-8').read().split('\n'))]
    worst, total, updated = 0, 0, 0
    for path in args.files:
        rc, ran, edited = do_file(path, args)
        worst, total, updated = max(worst, rc), total + ran, updated + edited
    print('readme_examples: %d commands run, %s' %
          (total, 'bad input' if worst == 2 else 'outputs differ' if worst else
           '%d outputs updated' % updated if updated else 'all outputs match'))
    return worst


if __name__ == '__main__':
    sys.exit(main())
