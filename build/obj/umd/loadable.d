build/obj/umd/loadable.o: umd/loadable.c umd/flatbuf.h umd/loadable.h \
 umd/loadable_schema.h
umd/flatbuf.h:
umd/loadable.h:
umd/loadable_schema.h:
