build/obj/tests/unit/test_firmware.o: tests/unit/test_firmware.c \
 include/nvdla/dla_interface.h include/nvdla/firmware.h \
 include/nvdla/deps.h include/nvdla/regs.h tests/unit/tap.h
include/nvdla/dla_interface.h:
include/nvdla/firmware.h:
include/nvdla/deps.h:
include/nvdla/regs.h:
tests/unit/tap.h:
