build/obj/sim/sim.o: sim/sim.c sim/sim_internal.h include/nvdla/regs.h \
 include/nvdla/sim.h include/nvdla/deps.h
sim/sim_internal.h:
include/nvdla/regs.h:
include/nvdla/sim.h:
include/nvdla/deps.h:
