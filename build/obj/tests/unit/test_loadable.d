build/obj/tests/unit/test_loadable.o: tests/unit/test_loadable.c \
 umd/builder.h include/nvdla/dla_interface.h include/nvdla/runtime.h \
 umd/loadable.h umd/loadable.h tests/unit/tap.h
umd/builder.h:
include/nvdla/dla_interface.h:
include/nvdla/runtime.h:
umd/loadable.h:
umd/loadable.h:
tests/unit/tap.h:
