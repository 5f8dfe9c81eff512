package pyast

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

typedef struct TSLanguage TSLanguage;
extern uint16_t ts_language_symbol_for_name(const TSLanguage *self, const char *string, uint32_t length, bool is_named);
*/
import "C"

import "unsafe"

// symbolFor returns the public symbol id tree-sitter gives a node of the
// kind name, named or anonymous (what ts_node_symbol returns for it, aliases
// included). It panics on a kind the grammar does not have: the fast parser
// must never write an id it made up.
func symbolFor(name string, named bool) uint16 {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	id := uint16(C.ts_language_symbol_for_name(lang, cs, C.uint32_t(len(name)), C.bool(named)))
	if id == 0 {
		panic("pyast: the grammar has no symbol " + name)
	}
	return id
}

// fieldFor returns the id of a field name; it panics on a field the grammar
// does not have.
func fieldFor(name string) uint8 {
	id, ok := fieldIDs[name]
	if !ok {
		panic("pyast: the grammar has no field " + name)
	}
	return id
}
