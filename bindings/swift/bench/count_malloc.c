/* Counts the process's heap allocations, for the bench's "allocations per id" column:
 * loaded with LD_PRELOAD, it forwards to the C library's allocator and counts the calls
 * that allocate. The bench reads the count through samekey_bench_allocations(). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdatomic.h>

static atomic_ulong count;
static void *(*next_malloc)(size_t);
static void *(*next_calloc)(size_t, size_t);
static void *(*next_realloc)(void *, size_t);
static int (*next_memalign)(void **, size_t, size_t);

unsigned long samekey_bench_allocations(void) { return atomic_load(&count); }

void *malloc(size_t n) {
    if (!next_malloc) next_malloc = dlsym(RTLD_NEXT, "malloc");
    atomic_fetch_add(&count, 1);
    return next_malloc(n);
}

void *realloc(void *p, size_t n) {
    if (!next_realloc) next_realloc = dlsym(RTLD_NEXT, "realloc");
    atomic_fetch_add(&count, 1);
    return next_realloc(p, n);
}

int posix_memalign(void **p, size_t align, size_t n) {
    if (!next_memalign) next_memalign = dlsym(RTLD_NEXT, "posix_memalign");
    atomic_fetch_add(&count, 1);
    return next_memalign(p, align, n);
}

/* dlsym itself may calloc before next_calloc is known: a small static arena serves it. */
static char arena[4096];
static size_t used;

void *calloc(size_t n, size_t size) {
    if (!next_calloc) {
        static int resolving;
        if (resolving) {
            void *p = arena + used;
            used += (n * size + 15) & ~(size_t)15;
            return p;
        }
        resolving = 1;
        next_calloc = dlsym(RTLD_NEXT, "calloc");
        resolving = 0;
    }
    atomic_fetch_add(&count, 1);
    return next_calloc(n, size);
}
