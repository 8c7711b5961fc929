build/obj/tests/unit/test_sim.o: tests/unit/test_sim.c \
 include/nvdla/regs.h include/nvdla/sim.h include/nvdla/deps.h \
 tests/unit/tap.h
include/nvdla/regs.h:
include/nvdla/sim.h:
include/nvdla/deps.h:
tests/unit/tap.h:
