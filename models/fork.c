#include "fork.h"
#include "mm_space.h"
#include "page_alloc.h"
#include "slub.h"

#include <glib.h>

#define STACK_SOURCE 0x0fe00000u  /* in the model's range, OWNER_KERNEL_MODEL_ID up */

/* One object of each, then the VMAs and their anon_vma_chains. */
static const char *const task_caches[] = {
	"task_struct", "mm_struct", "signal_cache", "sighand_cache", "files_cache",
	"fs_cache", "pid", "anon_vma", "vmap_area",
};
#define NR_TASK_OBJS (G_N_ELEMENTS(task_caches) + NR_EXEC_VMAS + NR_EXEC_ANON_VMAS)

struct task_kobjs {
	slab_obj_t objs[NR_TASK_OBJS];
	pfn_t stack[THREAD_SIZE_PAGES];
};

uint32_t task_stack_owner(void)
{
	return make_owner(OWNER_KIND_KERNEL, STACK_SOURCE);
}

static const char *task_cache(unsigned i)
{
	if (i < G_N_ELEMENTS(task_caches))
		return task_caches[i];
	return i < G_N_ELEMENTS(task_caches) + NR_EXEC_VMAS ? "vm_area_struct" : "anon_vma_chain";
}

void free_task_objects(struct mm_ctx *ctx, struct machine *m, struct task_kobjs *k)
{
	if (!k)
		return;
	for (unsigned i = 0; i < NR_TASK_OBJS; i++)
		if (k->objs[i] != SLAB_OBJ_NONE)
			kmem_cache_free(ctx, m, k->objs[i]);
	for (unsigned i = 0; i < THREAD_SIZE_PAGES; i++)
		if (k->stack[i] != PFN_NONE)
			__free_pages(ctx, m, k->stack[i]);
	g_free(k);
}

int copy_process_objects(struct mm_ctx *ctx, struct machine *m, struct task_kobjs **out)
{
	int nid = (int)topology_cpu_to_node(&m->topo, ctx->cpu);
	struct task_kobjs *k;

	*out = NULL;
	if (!kmem_cache_find(m, "task_struct"))
		return 0;
	k = g_new(struct task_kobjs, 1);
	for (unsigned i = 0; i < NR_TASK_OBJS; i++)
		k->objs[i] = SLAB_OBJ_NONE;
	for (unsigned i = 0; i < THREAD_SIZE_PAGES; i++)
		k->stack[i] = PFN_NONE;
	for (unsigned i = 0; i < NR_TASK_OBJS; i++) {
		k->objs[i] = kmem_cache_alloc(ctx, m, kmem_cache_find(m, task_cache(i)), GFP_KERNEL);
		if (k->objs[i] == SLAB_OBJ_NONE)
			goto fail;
	}
	/* alloc_thread_stack_node(): vmalloc'ed, zeroed order-0 pages. */
	for (unsigned i = 0; i < THREAD_SIZE_PAGES; i++) {
		k->stack[i] = __alloc_pages(ctx, m, GFP_KERNEL | __GFP_ZERO, 0, nid,
					    task_stack_owner(), i);
		if (k->stack[i] == PFN_NONE)
			goto fail;
	}
	*out = k;
	return 0;
fail:
	free_task_objects(ctx, m, k);
	return -1;
}
