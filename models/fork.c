#include "fork.h"
#include "mm_space.h"
#include "mm_space_internal.h"
#include "page_alloc.h"
#include "slub.h"

#include <glib.h>

#define STACK_SOURCE 0x0fe00000u  /* in the model's range, OWNER_KERNEL_MODEL_ID up */

/* The objects a process shares among its threads: one of each, then the
 * VMAs and their anon_vma_chains. */
static const char *const process_caches[] = {
	"mm_struct", "signal_cache", "sighand_cache", "files_cache", "fs_cache", "anon_vma",
};
#define NR_PROCESS_OBJS (G_N_ELEMENTS(process_caches) + NR_EXEC_VMAS + NR_EXEC_ANON_VMAS)

/* A thread's own: its task_struct and pid, its stack, and with VMAP_STACK
 * the vmap_area of the stack's vmalloc range. */
enum { THREAD_TASK, THREAD_PID, THREAD_VMAP_AREA, NR_THREAD_OBJS };
static const char *const thread_caches[NR_THREAD_OBJS] = { "task_struct", "pid", "vmap_area" };

struct thread_kobjs {
	unsigned tid;           /* 0: the process's first thread */
	slab_obj_t objs[NR_THREAD_OBJS];
	/* VMAP_STACK: order-0 pages; else stack[0] is the order-2 block. */
	pfn_t stack[THREAD_SIZE_PAGES];
	bool stack_whole;       /* every page in: counted in m->kstacks */
};

struct task_kobjs {
	slab_obj_t objs[NR_PROCESS_OBJS];
	GArray *threads;        /* struct thread_kobjs, the first thread first */
	unsigned next_tid;
	bool slab;              /* made while the slab model was on */
};

uint32_t task_stack_owner(void)
{
	return make_owner(OWNER_KIND_KERNEL, STACK_SOURCE);
}

static const char *process_cache(unsigned i)
{
	if (i < G_N_ELEMENTS(process_caches))
		return process_caches[i];
	return i < G_N_ELEMENTS(process_caches) + NR_EXEC_VMAS ? "vm_area_struct" : "anon_vma_chain";
}

static void free_objs(struct mm_ctx *ctx, struct machine *m, slab_obj_t *objs, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (objs[i] != SLAB_OBJ_NONE)
			kmem_cache_free(ctx, m, objs[i]);
}

static void free_thread_stack(struct mm_ctx *ctx, struct machine *m, struct thread_kobjs *t)
{
	for (unsigned i = 0; i < THREAD_SIZE_PAGES; i++)
		if (t->stack[i] != PFN_NONE)
			__free_pages(ctx, m, t->stack[i]);
	if (t->stack_whole)
		m->kstacks.freed++;
}

static bool thread_obj(struct mm_ctx *ctx, struct machine *m, struct thread_kobjs *t, unsigned i)
{
	t->objs[i] = kmem_cache_alloc(ctx, m, kmem_cache_find(m, thread_caches[i]), GFP_KERNEL);
	return t->objs[i] != SLAB_OBJ_NONE;
}

/* alloc_thread_stack_node(): zeroed memory on the CPU's node; with
 * VMAP_STACK, vmalloc's order-0 pages and its vmap_area. */
static int alloc_thread_stack_node(struct mm_ctx *ctx, struct machine *m, struct thread_kobjs *t)
{
	int nid = (int)topology_cpu_to_node(&m->topo, ctx->cpu);
	gfp_t gfp = GFP_KERNEL | __GFP_ZERO;

	if (!m->vmap_stack)
		t->stack[0] = __alloc_pages(ctx, m, gfp, THREAD_SIZE_ORDER, nid, task_stack_owner(), 0);
	else if (!thread_obj(ctx, m, t, THREAD_VMAP_AREA))
		return -1;
	else
		for (unsigned i = 0; i < THREAD_SIZE_PAGES; i++)
			if ((t->stack[i] = __alloc_pages(ctx, m, gfp, 0, nid, task_stack_owner(),
							 i)) == PFN_NONE)
				return -1;
	if (t->stack[0] == PFN_NONE)
		return -1;
	t->stack_whole = true;
	m->kstacks.allocated++;
	return 0;
}

static void free_thread(struct mm_ctx *ctx, struct machine *m, struct thread_kobjs *t)
{
	free_thread_stack(ctx, m, t);
	free_objs(ctx, m, t->objs, NR_THREAD_OBJS);
}

/* dup_task_struct() and alloc_pid(): a thread is added to k, or nothing. */
static int copy_thread(struct mm_ctx *ctx, struct machine *m, struct task_kobjs *k)
{
	struct thread_kobjs t = { .tid = k->next_tid };

	for (unsigned i = 0; i < NR_THREAD_OBJS; i++)
		t.objs[i] = SLAB_OBJ_NONE;
	for (unsigned i = 0; i < THREAD_SIZE_PAGES; i++)
		t.stack[i] = PFN_NONE;
	t.stack_whole = false;
	if (k->slab && (!thread_obj(ctx, m, &t, THREAD_TASK) || alloc_thread_stack_node(ctx, m, &t) ||
	    !thread_obj(ctx, m, &t, THREAD_PID))) {
		free_thread(ctx, m, &t);
		return -1;
	}
	g_array_append_val(k->threads, t);
	k->next_tid++;
	return 0;
}

void free_task_objects(struct mm_ctx *ctx, struct machine *m, struct task_kobjs *k)
{
	if (!k)
		return;
	for (unsigned i = k->threads->len; i-- > 0;)
		free_thread(ctx, m, &g_array_index(k->threads, struct thread_kobjs, i));
	free_objs(ctx, m, k->objs, NR_PROCESS_OBJS);
	task_objects_forget(k);
}

int copy_thread_objects(struct mm_ctx *ctx, struct machine *m, struct task_kobjs *k,
			unsigned *tid)
{
	*tid = k->next_tid;
	return copy_thread(ctx, m, k);
}

int exit_thread_objects(struct mm_ctx *ctx, struct machine *m, struct task_kobjs *k, unsigned tid)
{
	for (unsigned i = 1; i < k->threads->len; i++) {
		struct thread_kobjs *t = &g_array_index(k->threads, struct thread_kobjs, i);

		if (t->tid == tid) {
			free_thread(ctx, m, t);
			g_array_remove_index_fast(k->threads, i);
			return 0;
		}
	}
	return -1;
}

void task_objects_forget(struct task_kobjs *k)
{
	if (!k)
		return;
	g_array_free(k->threads, TRUE);
	g_free(k);
}

unsigned task_threads(const struct task_kobjs *k)
{
	return k->threads->len;
}

int copy_process_objects(struct mm_ctx *ctx, struct machine *m, struct task_kobjs **out)
{
	struct task_kobjs *k;

	*out = NULL;
	k = g_new(struct task_kobjs, 1);
	k->threads = g_array_new(FALSE, FALSE, sizeof(struct thread_kobjs));
	k->next_tid = 0;
	k->slab = kmem_cache_find(m, "task_struct") != NULL;
	for (unsigned i = 0; i < NR_PROCESS_OBJS; i++)
		k->objs[i] = SLAB_OBJ_NONE;
	if (copy_thread(ctx, m, k))
		goto fail;
	for (unsigned i = 0; k->slab && i < NR_PROCESS_OBJS; i++) {
		k->objs[i] = kmem_cache_alloc(ctx, m, kmem_cache_find(m, process_cache(i)), GFP_KERNEL);
		if (k->objs[i] == SLAB_OBJ_NONE)
			goto fail;
	}
	*out = k;
	return 0;
fail:
	free_task_objects(ctx, m, k);
	return -1;
}

struct kstack_check {
	struct machine *m;
	unsigned long stacks;
	GString *out;
};

static void check_stack(struct kstack_check *c, unsigned pid, const struct thread_kobjs *t)
{
	unsigned order = c->m->vmap_stack ? 0 : THREAD_SIZE_ORDER;

	c->stacks += t->stack_whole;
	for (unsigned i = 0; i < THREAD_SIZE_PAGES && t->stack[i] != PFN_NONE; i++)
		if (page_kind(&c->m->mm, t->stack[i]) != PG_KIND_ALLOC ||
		    page_order(&c->m->mm, t->stack[i]) != order ||
		    page_owner(c->m, t->stack[i]) != task_stack_owner())
			g_string_append_printf(c->out, "pid %u: stack page %lu is not a stack's\n", pid,
					       (unsigned long)t->stack[i]);
}

static gboolean check_task(gpointer key, gpointer value, gpointer data)
{
	const struct mm_struct *mm = value;
	struct kstack_check *c = data;

	(void)key;
	for (unsigned i = 0; i < mm->kobjs->threads->len; i++)
		check_stack(c, mm->pid, &g_array_index(mm->kobjs->threads, struct thread_kobjs, i));
	return FALSE;
}

char *kstack_check(struct machine *m)
{
	struct kstack_check c = { .m = m, .out = g_string_new(NULL) };

	if (m->procs)
		g_tree_foreach(m->procs->by_pid, check_task, &c);
	if (c.stacks != m->kstacks.allocated - m->kstacks.freed)
		g_string_append_printf(c.out, "%lu stacks held by threads, %lu made and %lu freed\n",
				       c.stacks, m->kstacks.allocated, m->kstacks.freed);
	return g_string_free(c.out, c.out->len == 0);
}
