build/obj/umd/network.o: umd/network.c include/nvdla/dla_interface.h \
 umd/runtime_internal.h include/nvdla/runtime.h umd/backend.h \
 umd/loadable.h
include/nvdla/dla_interface.h:
umd/runtime_internal.h:
include/nvdla/runtime.h:
umd/backend.h:
umd/loadable.h:
