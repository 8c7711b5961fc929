build/obj/umd/loadable_check.o: umd/loadable_check.c umd/loadable.h
umd/loadable.h:
