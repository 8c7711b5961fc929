// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Removal inside the QEMU guest (run last: it unbinds a device and reloads
 * the module): a device unbound with files, mappings and queued jobs open
 * signals the fences of its jobs and refuses new work with -ENODEV; the
 * module cannot be unloaded while a file, a mapping or an
 * exported buffer holds it; once they are gone it unloads and loads again,
 * with render nodes instead of accel nodes if asked.
 */
#include <dirent.h>
#include <linux/sync_file.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>

#include "nvdla_test.h"

#include "kselftest_harness.h"

#define DRIVER_DIR "/sys/bus/platform/drivers/nvdla"
/* The module's job time limit, kept across the reloads. */
static int job_timeout_ms = -1;

static int unload(void)
{
	if (job_timeout_ms < 0)
		job_timeout_ms = param_value("job_timeout_ms");
	return syscall(__NR_delete_module, "nvdla", O_NONBLOCK) ? -errno : 0;
}

/*
 * Load the driver again with @args: the virtual devices of nvdla_sim.ko
 * stay, and it binds them again.
 */
static int reload(const char *args)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "insmod /nvdla.ko job_timeout_ms=%d %s",
		 job_timeout_ms, args);
	return system(cmd);
}

/* The platform device name behind the open nvdla file @fd. */
static int device_of(int fd, char *name, size_t len)
{
	char link[128], target[256];
	struct stat st;
	ssize_t n;
	char *base;

	if (fstat(fd, &st))
		return -errno;
	snprintf(link, sizeof(link), "/sys/dev/char/%u:%u/device",
		 major(st.st_rdev), minor(st.st_rdev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strlen(base) >= len)
		return -ENAMETOOLONG;
	strcpy(name, base);
	return 0;
}

/* A fresh copy on device file @fd is right; closes @fd. */
static int computes(int fd)
{
	struct bdma_task t;
	int ret;

	if (fd < 0)
		return -ENODEV;
	ret = bdma_task_init(&t, fd);
	if (!ret)
		ret = job_run(&t);
	if (!ret && !bdma_task_copied(&t))
		ret = -EIO;
	bdma_task_fini(&t);
	close(fd);
	return ret;
}

/* The out-fence of the last of @n jobs, as a sync file. */
static int queue_jobs(struct bdma_task *t, int n)
{
	struct drm_syncobj_create c = { 0 };
	struct drm_syncobj_handle h = {
		.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE,
	};
	uint64_t id;
	int i;

	if (xioctl(t->fd, DRM_IOCTL_SYNCOBJ_CREATE, &c))
		return -1;
	for (i = 0; i < n; i++)
		if (job_submit(t, NULL, 0, i == n - 1 ? c.handle : 0, &id))
			return -1;
	h.handle = c.handle;
	return xioctl(t->fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h) ? -1 : h.fd;
}

TEST(unbind_with_jobs_and_mappings)
{
	struct sync_file_info info = { 0 };
	struct bdma_task t;
	struct pollfd pfd = { .events = POLLIN };
	char name[64];
	int fd = open_nvdla();

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, bdma_task_init(&t, fd));
	ASSERT_EQ(0, device_of(fd, name, sizeof(name)));
	pfd.fd = queue_jobs(&t, 20);
	ASSERT_GE(pfd.fd, 0);
	ASSERT_EQ(0, write_file(DRIVER_DIR "/unbind", name));

	/* The last job's fence signalled: run, or cancelled with an error. */
	ASSERT_EQ(1, poll(&pfd, 1, 10000));
	ASSERT_EQ(0, xioctl(pfd.fd, SYNC_IOC_FILE_INFO, &info));
	EXPECT_TRUE(info.status == 1 || info.status == -ECANCELED)
		TH_LOG("fence status %d", info.status);
	close(pfd.fd);
	/* The device takes no more work (the core revoked the mappings). */
	EXPECT_EQ(-ENODEV, job_run(&t));
	bdma_task_fini(&t);
	close(fd);

	ASSERT_EQ(0, write_file(DRIVER_DIR "/bind", name));
	EXPECT_EQ(0, computes(open_nvdla()));
}

TEST(unload_blocked_while_in_use)
{
	struct drm_prime_handle prime = { .flags = DRM_CLOEXEC | DRM_RDWR };
	struct bdma_task t;
	int fd = open_nvdla();

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, bdma_task_init(&t, fd));
	prime.handle = t.handle[0];
	ASSERT_EQ(0, xioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &prime));

	EXPECT_EQ(-EAGAIN, unload()) TH_LOG("unloaded with a file open");
	close(fd);
	EXPECT_EQ(-EAGAIN, unload()) TH_LOG("unloaded with mappings");
	bdma_task_fini(&t);
	EXPECT_EQ(-EAGAIN, unload()) TH_LOG("unloaded with a dma-buf");
	close(prime.fd);
	ASSERT_EQ(0, unload());

	ASSERT_EQ(0, reload(""));
	EXPECT_EQ(0, computes(open_nvdla()));
}

/* The first render node of the nvdla driver, opened; -1 if none. */
static int open_nvdla_render(void)
{
	char path[32];
	int i, fd;

	for (i = 128; i < 136; i++) {
		snprintf(path, sizeof(path), "/dev/dri/renderD%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd >= 0 && is_nvdla(fd))
			return fd;
		if (fd >= 0)
			close(fd);
	}
	return -1;
}

/* On kernels with accel nodes, accel=0 gives render nodes instead. */
TEST(render_nodes_on_request)
{
	if (access("/sys/class/accel", F_OK))
		SKIP(return, "this kernel has no accel nodes");
	ASSERT_EQ(0, unload());
	ASSERT_EQ(0, reload("accel=0"));
	EXPECT_NE(0, access("/dev/accel/accel0", F_OK));
	EXPECT_EQ(0, computes(open_nvdla_render()));
	ASSERT_EQ(0, unload());
	ASSERT_EQ(0, reload(""));
}

TEST_HARNESS_MAIN
