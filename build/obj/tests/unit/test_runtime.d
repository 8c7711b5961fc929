build/obj/tests/unit/test_runtime.o: tests/unit/test_runtime.c \
 include/nvdla/runtime.h umd/builder.h include/nvdla/dla_interface.h \
 umd/loadable.h tests/unit/tap.h
include/nvdla/runtime.h:
umd/builder.h:
include/nvdla/dla_interface.h:
umd/loadable.h:
tests/unit/tap.h:
