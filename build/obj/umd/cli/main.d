build/obj/umd/cli/main.o: umd/cli/main.c include/nvdla/runtime.h
include/nvdla/runtime.h:
