build/obj/umd/flatbuf.o: umd/flatbuf.c umd/flatbuf.h
umd/flatbuf.h:
