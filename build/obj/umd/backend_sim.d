build/obj/umd/backend_sim.o: umd/backend_sim.c include/nvdla/firmware.h \
 include/nvdla/deps.h include/nvdla/sim.h umd/backend.h
include/nvdla/firmware.h:
include/nvdla/deps.h:
include/nvdla/sim.h:
umd/backend.h:
