/* Shared helpers for the unit tests: small machines and list inspection. */
#ifndef MMSIM_TEST_HELPERS_H
#define MMSIM_TEST_HELPERS_H

#include "models/buddy.h"
#include "models/invariants.h"
#include "models/machine.h"
#include "models/mm_space.h"

#include <glib.h>

#define MiB (1ULL << 20)
#define GiB (1ULL << 30)

/* One node of mem bytes and 4 CPUs, built with p. */
static inline struct machine *params_machine(uint64_t mem, const struct machine_params *p)
{
	struct topology t;
	char *err = NULL;
	struct machine *m;

	topology_uniform(&t, 1, 1, 4, mem);
	m = machine_create(&t, p, &err);
	g_assert_null(err);
	g_assert_nonnull(m);
	return m;
}

/* One node of mem bytes, THP's min_free_kbytes raise off unless asked,
 * no boot reservations: the whole node is free. */
static inline struct machine *test_machine(uint64_t mem, bool thp)
{
	struct machine_params p;

	machine_params_default(&p);
	p.thp = thp;
	p.boot_reserve = false;
	return params_machine(mem, &p);
}

/* One node of mem bytes under policy, THP off, min_free_kbytes set. */
static inline struct machine *policy_machine(uint64_t mem, enum mm_policy policy,
					     int min_free_kbytes)
{
	struct machine_params p;

	machine_params_default(&p);
	p.boot_reserve = false;
	p.thp = false;
	p.min_free_kbytes = min_free_kbytes;
	p.policy = policy;
	return params_machine(mem, &p);
}

static inline void assert_invariants(struct machine *m)
{
	char *report = check_invariants(m);

	if (report)
		g_error("invariants violated:\n%s", report);
}

/* The invariant checker and the address-space checker of every process. */
static inline void assert_all_ok(struct machine *m)
{
	char *report = mm_check_all(m);

	if (report)
		g_error("address space invariants violated:\n%s", report);
	assert_invariants(m);
}

/* The i-th entry (0 = head) of a free list, or PFN_NONE. */
static inline pfn_t list_entry_at(struct machine *m, struct zone *z, unsigned order, int mt,
				  unsigned i)
{
	const struct pfn_list *l = &z->free_area[order].free_list[mt];
	pfn_t p = l->head;

	while (p != PFN_NONE && i--)
		p = pfn_list_next(&m->mm, l, p);
	return p;
}

static inline uint32_t list_len(struct zone *z, unsigned order, int mt)
{
	return z->free_area[order].free_list[mt].nr;
}

/* Mark a block taken off the free lists as allocated, as prep_new_page does. */
static inline void mark_allocated(struct machine *m, pfn_t pfn, unsigned order, int mt)
{
	page_set(&m->mm, pfn, PG_KIND_ALLOC, order, (unsigned)mt);
}

#endif
