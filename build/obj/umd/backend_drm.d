build/obj/umd/backend_drm.o: umd/backend_drm.c \
 include/uapi/drm/nvdla_accel.h umd/backend.h
include/uapi/drm/nvdla_accel.h:
umd/backend.h:
