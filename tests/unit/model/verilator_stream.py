#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Decode the command stream of nvdla/hw's RTL bench (verif/verilator) that
nvdla_trace --verilator writes, one command a line, so that tests can
compare it with the .cfg script it came from. Exits 1 on a malformed
stream (unknown opcode, short field, bytes after the end)."""
import struct
import sys
import zlib


def fields(data, at, n):
    if at + 4 * n > len(data):
        raise ValueError("short command at byte %d" % at)
    return struct.unpack_from("<%dI" % n, data, at), at + 4 * n


def decode(data):
    at, out = 0, []
    while True:
        if at >= len(data):
            raise ValueError("no end command")
        op, at = data[at], at + 1
        if op == 1:
            out.append("wait")
        elif op == 2:
            (a, v), at = fields(data, at, 2)
            out.append("write 0x%x 0x%x" % (a, v))
        elif op == 3:
            (a, m, v), at = fields(data, at, 3)
            out.append("read 0x%x 0x%x 0x%x" % (a, m, v))
        elif op == 5:
            (a, n), at = fields(data, at, 2)
            if at + n > len(data):
                raise ValueError("short load at byte %d" % at)
            out.append("load 0x%x %d 0x%08x" %
                       (a, n, zlib.crc32(data[at:at + n])))
            at += n
        elif op == 6:
            (i, m), at = fields(data, at, 2)
            out.append("syncpt %d 0x%x" % (i, m))
        elif op == 7:
            (s, m), at = fields(data, at, 2)
            out.append("intr 0x%x 0x%x" % (s, m))
        elif op == 8:
            (i, a, n, c), at = fields(data, at, 4)
            out.append("crc %d 0x%x 0x%x 0x%08x" % (i, a, n, c))
        elif op == 9:
            (i,), at = fields(data, at, 1)
            out.append("nothing %d" % i)
        elif op == 0xFF:
            if at != len(data):
                raise ValueError("%d bytes after the end" % (len(data) - at))
            out.append("end")
            return out
        else:
            raise ValueError("unknown opcode %d at byte %d" % (op, at - 1))


try:
    for line in decode(open(sys.argv[1], "rb").read()):
        print(line)
except ValueError as e:
    print("verilator_stream: %s" % e, file=sys.stderr)
    sys.exit(1)
