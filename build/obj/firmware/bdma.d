build/obj/firmware/bdma.o: firmware/bdma.c firmware/engine.h \
 include/nvdla/dla_interface.h include/nvdla/firmware.h \
 include/nvdla/deps.h include/nvdla/regs.h
firmware/engine.h:
include/nvdla/dla_interface.h:
include/nvdla/firmware.h:
include/nvdla/deps.h:
include/nvdla/regs.h:
