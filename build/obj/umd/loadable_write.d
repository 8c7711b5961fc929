build/obj/umd/loadable_write.o: umd/loadable_write.c umd/flatbuf.h \
 umd/loadable.h umd/loadable_schema.h
umd/flatbuf.h:
umd/loadable.h:
umd/loadable_schema.h:
