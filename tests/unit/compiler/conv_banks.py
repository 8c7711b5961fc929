# SPDX-License-Identifier: MIT
"""Check the convolutions of a recorded nv_small task (its .cfg, written
by nvdla_runtime --record) against the CDMA's early enable
(docs/model.md): each convolution's data banks against the convolution
before it, and when its CDMA D_OP_ENABLE is written.

Usage: conv_banks.py FILE.cfg [--equal-allowed]

Without --equal-allowed (nvdla_compile's loadables) no two convolutions
in a row may have the same data banks. Either way, a convolution whose
data banks differ from the one before must have its CDMA enabled before
the CACC done of the one before (ahead of its own CSC, or with it where
the firmware enabled it before the one before), and one with the same
banks no earlier than its CSC. Prints one line: the convolutions, how
many CDMAs were enabled ahead of their CSC, how many convolutions had
the banks of the one before; exits 1 with the first violation."""
import re
import sys

WRITE = re.compile(r"reg_write\(NVDLA_(\w+)\.(\w+)_0, (0x[0-9a-f]+)\);")
POLL = re.compile(r"poll_reg_equal\(NVDLA_GLB\.S_INTR_STATUS_0, (0x[0-9a-f]+)\);")
CACC_DONE = (1 << 20, 1 << 21)	# GLB S_INTR_STATUS CACC_DONE_STATUS0/1
BANK_MASK = 0x1f		# D_BANK DATA_BANK, as wide as nv_small needs


def convolutions(lines):
    """Each convolution in programming order: group, data banks and the
    lines of its CDMA and CSC enables and of its CACC done."""
    pointer = {"CDMA": 0, "CSC": 0}
    convs = []

    def latest(group, key):
        for c in reversed(convs):
            if c["group"] == group and c[key] is None:
                return c
        return None

    for n, line in enumerate(lines):
        m = WRITE.search(line)
        if m:
            unit, reg, val = m.group(1), m.group(2), int(m.group(3), 16)
            if unit in pointer and reg == "S_POINTER":
                pointer[unit] = val & 1
            elif unit == "CDMA" and reg == "D_BANK":
                convs.append({"group": pointer["CDMA"],
                              "banks": (val & BANK_MASK) + 1,
                              "cdma": None, "csc": None, "done": None})
            elif unit in pointer and reg == "D_OP_ENABLE":
                c = latest(pointer[unit], unit.lower())
                if c:
                    c[unit.lower()] = n
            continue
        m = POLL.search(line)
        if m:
            status = int(m.group(1), 16)
            for g, bit in enumerate(CACC_DONE):
                c = status & bit and next((c for c in convs if c["group"] == g
                                           and c["done"] is None), None)
                if c:
                    c["done"] = n
    return convs


def check(convs, equal_allowed):
    early = equal = 0
    for k in range(1, len(convs)):
        before, c = convs[k - 1], convs[k]
        if None in (c["cdma"], c["csc"], before["done"]):
            return early, equal, "convolution %d: enable or done not recorded" % k
        if c["banks"] == before["banks"]:
            equal += 1
            if not equal_allowed:
                return early, equal, "convolutions %d and %d: %d data banks each" % (
                    k - 1, k, c["banks"])
            if c["cdma"] < c["csc"]:
                return early, equal, "convolution %d: CDMA enabled early with the banks of the one before" % k
        elif c["cdma"] < before["done"]:
            early += c["cdma"] < c["csc"]
        else:
            return early, equal, "convolution %d (%d data banks after %d): CDMA not enabled before the CACC done of the one before" % (
                k, c["banks"], before["banks"])
    return early, equal, None


def main():
    path = sys.argv[1]
    with open(path) as f:
        convs = convolutions(f.read().splitlines())
    early, equal, err = check(convs, "--equal-allowed" in sys.argv[2:])
    print("%s: %d convolutions, %d CDMAs enabled ahead of their CSC, %d with the banks of the one before%s"
          % (path, len(convs), early, equal, ": " + err if err else ""))
    return 1 if err else 0


sys.exit(main())
