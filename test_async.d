test_async.o: tests/unit/runtime/test_async.c include/nvdla/runtime.h \
 include/uapi/drm/nvdla_accel.h /usr/include/libdrm/drm.h \
 /usr/include/libdrm/drm_mode.h /usr/include/libdrm/drm.h \
 umd/loadable/builder.h \
 drivers/accel/nvdla/engine/include/nvdla/dla_interface.h \
 include/user/linux/build_bug.h include/user/linux/compiler_attributes.h \
 umd/loadable/loadable.h umd/runtime/emu.h umd/loadable/le_bytes.h \
 tests/unit/runtime/../lib/tap.h tests/unit/runtime/../lib/vgem.h
include/nvdla/runtime.h:
include/uapi/drm/nvdla_accel.h:
/usr/include/libdrm/drm.h:
/usr/include/libdrm/drm_mode.h:
/usr/include/libdrm/drm.h:
umd/loadable/builder.h:
drivers/accel/nvdla/engine/include/nvdla/dla_interface.h:
include/user/linux/build_bug.h:
include/user/linux/compiler_attributes.h:
umd/loadable/loadable.h:
umd/runtime/emu.h:
umd/loadable/le_bytes.h:
tests/unit/runtime/../lib/tap.h:
tests/unit/runtime/../lib/vgem.h:
