// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_sim.ko: virtual NVDLA devices backed by the hardware model, for
 * machines without the accelerator. "insmod nvdla_sim.ko devices=nv_full"
 * registers one platform device per configuration listed, which nvdla.ko
 * binds like a board's (kmd/vdev/include/nvdla/vdev.h): its interrupt is a Linux
 * interrupt of its own, its registers and bus come through the platform
 * data. The model computes in a work item, preemptibly: it yields between
 * slices of a layer's work, where the item reschedules, and stops there
 * when the device is reset; the item then raises the interrupt.
 */
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include <nvdla/sim.h>
#include <nvdla/vdev.h>

#define NVDLA_VDEV_MAX 4
#define NVDLA_VDEV_NAME_LEN 32

static char *devices = "";
module_param(devices, charp, 0444);
MODULE_PARM_DESC(devices,
		 "Virtual devices to create, comma separated: nv_full, nv_small, nv_large");

/* Faults the virtual devices inject, to test the driver's recovery (bits). */
enum nvdla_vdev_fault {
	NVDLA_VDEV_FAULT_DROP_IRQ = 1,	/* completions never interrupt */
	NVDLA_VDEV_FAULT_BUS_ERROR = 2,	/* every memory access fails */
	NVDLA_VDEV_FAULT_NO_RESET = 4,	/* no reset line, no power domain */
};

static int fault;
module_param(fault, int, 0644);
MODULE_PARM_DESC(fault,
		 "Faults the virtual devices inject, a sum of: 1 drop interrupts, 2 bus errors, 4 no engine reset");

static bool nvdla_vdev_faulty(enum nvdla_vdev_fault f)
{
	return READ_ONCE(fault) & f;
}

/**
 * struct nvdla_vsim - one virtual device
 * @sim: the hardware model
 * @config: its configuration
 * @name: its configuration's name, the platform data's
 * @lock: protects @sim and @bus; taken by register accesses, also from
 *	the driver's interrupt handler, and by @work, which holds it for
 *	one slice of a layer's work at most
 * @bus: the driver's view of the memory the device reaches, or NULL
 * @stop: set while the device is being reset: the model stops at its
 *	next slice
 * @hazards: layers the model refused so far (nvdla_sim_hazards()),
 *	each reported once in the kernel log
 * @work: runs the model when it has work, then raises @irq
 * @irq: the device's interrupt
 * @pdev: its platform device
 */
struct nvdla_vsim {
	struct nvdla_sim *sim;
	enum nvdla_sim_config_id config;
	char name[NVDLA_VDEV_NAME_LEN];
	spinlock_t lock;		/* see @lock above */
	const struct nvdla_vdev_bus *bus;
	bool stop;
	u32 hazards;
	struct work_struct work;
	int irq;
	struct platform_device *pdev;
};

static struct nvdla_vsim *nvdla_vsims[NVDLA_VDEV_MAX];

static void *nvdla_vsim_map(void *ctx, u64 addr, u64 len)
{
	struct nvdla_vsim *v = ctx;

	if (nvdla_vdev_faulty(NVDLA_VDEV_FAULT_BUS_ERROR) || !v->bus)
		return NULL;
	return v->bus->map(v->bus->ctx, addr, len);
}

static int nvdla_vsim_read(void *ctx, u64 addr, void *dst, u32 len)
{
	void *src = nvdla_vsim_map(ctx, addr, len);

	if (!src)
		return -EFAULT;
	memcpy(dst, src, len);
	return 0;
}

static int nvdla_vsim_write(void *ctx, u64 addr, const void *src, u32 len)
{
	void *dst = nvdla_vsim_map(ctx, addr, len);

	if (!dst)
		return -EFAULT;
	memcpy(dst, src, len);
	return 0;
}

static void nvdla_vsim_kick(void *ctx)
{
	struct nvdla_vsim *v = ctx;

	queue_work(system_unbound_wq, &v->work);
}

/* The work item samples the line after every run; edges need no action. */
static void nvdla_vsim_line(void *ctx, bool level)
{
}

/* Between slices of work (@lock held): let others run; stop if reset. */
static bool nvdla_vsim_yield(void *ctx)
{
	struct nvdla_vsim *v = ctx;

	spin_unlock_irq(&v->lock);
	cond_resched();
	spin_lock_irq(&v->lock);
	return READ_ONCE(v->stop);
}

/* The model at power-on; @lock held. */
static void nvdla_vsim_init(struct nvdla_vsim *v)
{
	const struct nvdla_sim_host host = {
		.ctx = v,
		.bus_read = nvdla_vsim_read,
		.bus_write = nvdla_vsim_write,
		.bus_map = nvdla_vsim_map,
		.kick = nvdla_vsim_kick,
		.irq = nvdla_vsim_line,
		.yield = nvdla_vsim_yield,
	};

	nvdla_sim_init(v->sim, v->config, &host);
	v->hazards = 0;
}

static void nvdla_vsim_work(struct work_struct *work)
{
	struct nvdla_vsim *v = container_of(work, struct nvdla_vsim, work);
	struct nvdla_cbuf_verdict last;
	char text[NVDLA_CBUF_VERDICT_MAX];
	bool level, refused;
	u32 hazards;

	/* The model kicks this item again when work remains. */
	spin_lock_irq(&v->lock);
	nvdla_sim_run(v->sim);
	level = nvdla_sim_irq_level(v->sim);
	hazards = nvdla_sim_hazards(v->sim, &last);
	refused = hazards != v->hazards;
	v->hazards = hazards;
	spin_unlock_irq(&v->lock);
	/* The layer faulted, so the job fails: say why, as the chip cannot. */
	if (refused)
		pr_warn_ratelimited("%s: a layer the hardware cannot run: %s\n",
				    v->name,
				    nvdla_cbuf_verdict_text(text, sizeof(text),
							    &last));
	if (level && !nvdla_vdev_faulty(NVDLA_VDEV_FAULT_DROP_IRQ))
		generic_handle_irq_safe(v->irq);
}

static u32 nvdla_vsim_reg_read(void *ctx, u32 addr)
{
	struct nvdla_vsim *v = ctx;
	unsigned long flags;
	u32 val;

	spin_lock_irqsave(&v->lock, flags);
	val = nvdla_sim_reg_read(v->sim, addr);
	spin_unlock_irqrestore(&v->lock, flags);
	return val;
}

static void nvdla_vsim_reg_write(void *ctx, u32 addr, u32 val)
{
	struct nvdla_vsim *v = ctx;
	unsigned long flags;

	spin_lock_irqsave(&v->lock, flags);
	nvdla_sim_reg_write(v->sim, addr, val);
	spin_unlock_irqrestore(&v->lock, flags);
}

/* Stop the model at its next slice, wait for the work item, restart it. */
static void nvdla_vsim_reset(void *ctx)
{
	struct nvdla_vsim *v = ctx;

	WRITE_ONCE(v->stop, true);
	cancel_work_sync(&v->work);
	spin_lock_irq(&v->lock);
	nvdla_vsim_init(v);
	WRITE_ONCE(v->stop, false);
	spin_unlock_irq(&v->lock);
}

/* Mappings of the old bus may be in use: the device restarts first. */
static void nvdla_vsim_attach(void *ctx, const struct nvdla_vdev_bus *bus)
{
	struct nvdla_vsim *v = ctx;

	nvdla_vsim_reset(v);
	spin_lock_irq(&v->lock);
	v->bus = bus;
	spin_unlock_irq(&v->lock);
}

/* The driver's engine reset: none while fault injection takes it away. */
static bool nvdla_vsim_resettable(void *ctx)
{
	return !nvdla_vdev_faulty(NVDLA_VDEV_FAULT_NO_RESET);
}

static u32 nvdla_vsim_faults(void *ctx)
{
	struct nvdla_vsim *v = ctx;
	unsigned long flags;
	u32 faults;

	spin_lock_irqsave(&v->lock, flags);
	faults = nvdla_sim_fault_count(v->sim);
	spin_unlock_irqrestore(&v->lock, flags);
	return faults;
}

/*
 * An interrupt nobody else raises: a descriptor of its own, on the core's
 * dummy chip. Owned by no module, so that the driver's request does not
 * pin this one: unloading it unbinds the driver first, which frees the
 * interrupt before the descriptor goes.
 */
static int nvdla_vsim_irq_alloc(struct nvdla_vsim *v)
{
	int irq = __irq_alloc_descs(-1, 0, 1, NUMA_NO_NODE, NULL, NULL);

	if (irq < 0)
		return irq;
	irq_set_chip_and_handler(irq, &dummy_irq_chip, handle_simple_irq);
	irq_clear_status_flags(irq, IRQ_NOREQUEST | IRQ_NOPROBE);
	v->irq = irq;
	return 0;
}

static void nvdla_vsim_free(struct nvdla_vsim *v)
{
	if (v->pdev)
		platform_device_unregister(v->pdev);
	/* Unbound: no register access or bus any more; no work either. */
	WRITE_ONCE(v->stop, true);
	cancel_work_sync(&v->work);
	if (v->irq > 0)
		irq_free_desc(v->irq);
	kfree(v->sim);
	kfree(v);
}

static int nvdla_vsim_register(struct nvdla_vsim *v)
{
	struct resource res = DEFINE_RES_IRQ(v->irq);
	const struct nvdla_vdev pdata = {
		.config = v->name,
		.ctx = v,
		.reg_read = nvdla_vsim_reg_read,
		.reg_write = nvdla_vsim_reg_write,
		.attach = nvdla_vsim_attach,
		.reset = nvdla_vsim_reset,
		.faults = nvdla_vsim_faults,
		.resettable = nvdla_vsim_resettable,
	};
	const struct platform_device_info info = {
		.name = "nvdla",
		.id = PLATFORM_DEVID_AUTO,
		.res = &res,
		.num_res = 1,
		.data = &pdata,
		.size_data = sizeof(pdata),
		.dma_mask = DMA_BIT_MASK(64),
	};
	struct platform_device *pdev = platform_device_register_full(&info);

	if (IS_ERR(pdev))
		return PTR_ERR(pdev);
	v->pdev = pdev;
	return 0;
}

static int nvdla_vsim_create(int i, const char *config)
{
	struct nvdla_vsim *v;
	int ret;

	v = kzalloc(sizeof(*v), GFP_KERNEL);
	if (!v)
		return -ENOMEM;
	spin_lock_init(&v->lock);
	INIT_WORK(&v->work, nvdla_vsim_work);
	if (strscpy(v->name, config, sizeof(v->name)) < 0 ||
	    nvdla_sim_config_by_name(config, &v->config)) {
		pr_err("nvdla_sim: unknown model configuration '%s'\n", config);
		kfree(v);
		return -EINVAL;
	}
	v->sim = kzalloc(nvdla_sim_size(), GFP_KERNEL);
	ret = v->sim ? nvdla_vsim_irq_alloc(v) : -ENOMEM;
	if (!ret) {
		nvdla_vsim_init(v);
		ret = nvdla_vsim_register(v);
	}
	if (ret) {
		nvdla_vsim_free(v);
		return ret;
	}
	nvdla_vsims[i] = v;
	return 0;
}

static void nvdla_vsim_destroy_all(void)
{
	int i;

	for (i = 0; i < NVDLA_VDEV_MAX; i++) {
		if (nvdla_vsims[i])
			nvdla_vsim_free(nvdla_vsims[i]);
		nvdla_vsims[i] = NULL;
	}
}

static int __init nvdla_vsim_init_module(void)
{
	char *list, *rest, *config;
	int i = 0, ret = 0;

	list = kstrdup(devices, GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	rest = list;
	while (!ret && (config = strsep(&rest, ",")) && *config) {
		if (i == NVDLA_VDEV_MAX) {
			pr_err("nvdla_sim: at most %d virtual devices\n", i);
			ret = -EINVAL;
		} else {
			ret = nvdla_vsim_create(i++, config);
		}
	}
	kfree(list);
	if (ret)
		nvdla_vsim_destroy_all();
	return ret;
}

static void __exit nvdla_vsim_exit_module(void)
{
	nvdla_vsim_destroy_all();
}

module_init(nvdla_vsim_init_module);
module_exit(nvdla_vsim_exit_module);

MODULE_DESCRIPTION("Virtual NVIDIA Deep Learning Accelerators (hardware model)");
MODULE_LICENSE("GPL");
