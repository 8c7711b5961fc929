build/obj/umd/dimg.o: umd/dimg.c umd/runtime_internal.h \
 include/nvdla/runtime.h umd/backend.h umd/loadable.h
umd/runtime_internal.h:
include/nvdla/runtime.h:
umd/backend.h:
umd/loadable.h:
