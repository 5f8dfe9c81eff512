package pyast

/*
#include <stddef.h>
// Declared here rather than included: the symbol is compiled into the
// go-tree-sitter package, which this package links against.
extern void ts_set_allocator(void *(*new_malloc)(size_t), void *(*new_calloc)(size_t, size_t),
	void *(*new_realloc)(void *, size_t), void (*new_free)(void *));
static void mcplint_use_libc_allocator(void) { ts_set_allocator(NULL, NULL, NULL, NULL); }
*/
import "C"

// go-tree-sitter v0.25.0 routes every C allocation of the parser through Go
// callbacks (about 40 % slower parses). NULL allocators make the core library
// fall back to libc malloc/free. This runs after the binding's own init, which
// installs the Go callbacks, because this package imports the binding.
func init() { C.mcplint_use_libc_allocator() }
