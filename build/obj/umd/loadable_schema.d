build/obj/umd/loadable_schema.o: umd/loadable_schema.c umd/loadable.h \
 umd/loadable_schema.h
umd/loadable.h:
umd/loadable_schema.h:
