build/obj/firmware/engine.o: firmware/engine.c firmware/engine.h \
 include/nvdla/dla_interface.h include/nvdla/firmware.h \
 include/nvdla/deps.h include/nvdla/regs.h
firmware/engine.h:
include/nvdla/dla_interface.h:
include/nvdla/firmware.h:
include/nvdla/deps.h:
include/nvdla/regs.h:
