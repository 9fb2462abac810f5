/* sim/ptrmap: the open-addressing map of the jemalloc arenas and the kmem
 * replay. */
#include "sim/ptrmap.h"

#include <glib.h>

/* Keys that share a home slot: a take from the middle of their chain
 * keeps the later ones reachable. */
static void test_chain(void)
{
	struct ptrmap x = { 0 };
	uint64_t keys[8];
	unsigned n = 0;
	void *v;

	g_assert_null(ptrmap_find(&x, 7));
	g_assert_false(ptrmap_take(&x, 7, &v));
	ptrmap_put(&x, 1, GINT_TO_POINTER(100));
	for (uint64_t k = 2; n < G_N_ELEMENTS(keys); k++)
		if (ptrmap_slot(&x, k) == ptrmap_slot(&x, 1))
			keys[n++] = k;
	for (unsigned i = 0; i < n; i++)
		ptrmap_put(&x, keys[i], GSIZE_TO_POINTER(keys[i] * 10));
	g_assert_cmpuint(ptrmap_size(&x), ==, n + 1);
	g_assert_true(ptrmap_take(&x, keys[2], &v));
	g_assert_cmpuint(GPOINTER_TO_SIZE(v), ==, keys[2] * 10);
	g_assert_false(ptrmap_take(&x, keys[2], &v));
	g_assert_true(ptrmap_take(&x, 1, &v));
	g_assert_cmpint(GPOINTER_TO_INT(v), ==, 100);
	for (unsigned i = 0; i < n; i++)
		if (i != 2)
			g_assert_cmpuint(GPOINTER_TO_SIZE(ptrmap_find(&x, keys[i])), ==, keys[i] * 10);
	g_assert_cmpuint(ptrmap_size(&x), ==, n - 1);
	ptrmap_free(&x);
	g_assert_cmpuint(ptrmap_size(&x), ==, 0);
	g_assert_null(ptrmap_find(&x, keys[0]));
}

/* 200,000 random puts and takes over a small key range (long chains, many
 * growths) agree with a GHashTable at every step. */
static void test_against_ghash(void)
{
	struct ptrmap x = { 0 };
	GHashTable *ref = g_hash_table_new(g_int64_hash, g_int64_equal);
	GRand *rand = g_rand_new_with_seed(1);
	uint64_t *keys = g_new(uint64_t, 4096);

	for (unsigned i = 0; i < 4096; i++)
		keys[i] = i < 2048 ? i + 1 : ((uint64_t)i << 40) | 3;
	for (unsigned step = 0; step < 200000; step++) {
		uint64_t *k = &keys[g_rand_int_range(rand, 0, step < 100000 ? 4096 : 64)];
		gpointer want;
		bool had = g_hash_table_lookup_extended(ref, k, NULL, &want);
		void *got;

		if (had) {
			g_assert_true(ptrmap_take(&x, *k, &got));
			g_assert_true(got == want);
			g_hash_table_remove(ref, k);
		} else {
			g_assert_null(ptrmap_find(&x, *k));
			ptrmap_put(&x, *k, GSIZE_TO_POINTER(step));
			g_hash_table_insert(ref, k, GSIZE_TO_POINTER(step));
		}
		g_assert_cmpuint(ptrmap_size(&x), ==, g_hash_table_size(ref));
	}
	for (unsigned i = 0; i < 4096; i++)
		g_assert_true(ptrmap_find(&x, keys[i]) == g_hash_table_lookup(ref, &keys[i]));
	ptrmap_free(&x);
	g_free(keys);
	g_rand_free(rand);
	g_hash_table_destroy(ref);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/ptrmap/chain", test_chain);
	g_test_add_func("/ptrmap/against_ghash", test_against_ghash);
	return g_test_run();
}
