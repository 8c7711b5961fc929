build/obj/tools/nvdla_mkloadable.o: tools/nvdla_mkloadable.c \
 umd/builder.h include/nvdla/dla_interface.h include/nvdla/runtime.h \
 umd/loadable.h
umd/builder.h:
include/nvdla/dla_interface.h:
include/nvdla/runtime.h:
umd/loadable.h:
