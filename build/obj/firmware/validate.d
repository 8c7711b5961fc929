build/obj/firmware/validate.o: firmware/validate.c firmware/engine.h \
 include/nvdla/dla_interface.h include/nvdla/firmware.h \
 include/nvdla/deps.h include/nvdla/regs.h firmware/processors.h
firmware/engine.h:
include/nvdla/dla_interface.h:
include/nvdla/firmware.h:
include/nvdla/deps.h:
include/nvdla/regs.h:
firmware/processors.h:
