build/obj/umd/builder.o: umd/builder.c umd/builder.h \
 include/nvdla/dla_interface.h include/nvdla/runtime.h umd/loadable.h
umd/builder.h:
include/nvdla/dla_interface.h:
include/nvdla/runtime.h:
umd/loadable.h:
