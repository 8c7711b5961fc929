build/obj/umd/runtime.o: umd/runtime.c umd/runtime_internal.h \
 include/nvdla/runtime.h umd/backend.h umd/loadable.h
umd/runtime_internal.h:
include/nvdla/runtime.h:
umd/backend.h:
umd/loadable.h:
