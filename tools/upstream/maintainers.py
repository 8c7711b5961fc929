#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Put the driver's MAINTAINERS section into a kernel tree's MAINTAINERS.

maintainers.py MAINTAINERS FRAGMENT [F-PATH...]

FRAGMENT is the section (title, then M:, L:, S:, F: ... lines). The section
written keeps the fragment's lines but only the F: entries named on the
command line (all of them when none is named), sorted as the kernel wants
them. It replaces a section of the same title, or goes in before the first
section whose title sorts after it, which is where
scripts/parse-maintainers.pl would put it.
"""
import sys


def main():
    path, frag_path, *keep = sys.argv[1:]
    frag = [l.rstrip('\n') for l in open(frag_path) if l.strip()]
    title, fields = frag[0], frag[1:]
    files = [l for l in fields if l.startswith('F:')]
    if keep:
        files = ['F:\t' + f for f in keep]
        known = [l.split('\t', 1)[1] for l in fields if l.startswith('F:')]
        # a path of the fragment, or one under a folder of it
        unknown = {k for k in keep
                   if not any(k == f or (f.endswith('/') and k.startswith(f))
                              for f in known)}
        if unknown:
            sys.exit('maintainers.py: not in the fragment: %s' % ' '.join(sorted(unknown)))
    others = [l for l in fields if not l.startswith('F:')]
    section = [title] + others + sorted(files) + ['']

    lines = open(path).read().split('\n')
    # Sections start after the introduction, at the first "3C59X" style
    # title: a line that is followed by a field line ("X:\t").
    def is_title(i):
        return (i + 1 < len(lines) and lines[i] and lines[i][0] != '\t'
                and (i == 0 or lines[i - 1] == '')
                and len(lines[i + 1]) > 2 and lines[i + 1][1] == ':'
                and lines[i + 1][2] == '\t')

    titles = [i for i in range(len(lines)) if is_title(i)]
    for i in titles:
        if lines[i] == title:
            end = i
            while end < len(lines) and lines[end] != '':
                end += 1
            del lines[i:end + 1]
            break
    titles = [i for i in range(len(lines)) if is_title(i)]
    # The file is not sorted throughout: the place is after the section
    # of the greatest title that sorts before ours.
    key = title.upper()
    before = max((i for i in titles if lines[i].upper() < key),
                 key=lambda i: lines[i].upper(), default=None)
    at = next((i for i in titles if before is not None and i > before), None)
    if at is None:
        sys.exit('maintainers.py: no place for the section')
    lines[at:at] = section
    open(path, 'w').write('\n'.join(lines))


main()
