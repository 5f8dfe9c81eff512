package pyast

// fieldNames are the grammar's field names, in the order fieldIndex numbers
// them; fieldByIndex holds their ids. ChildByFieldName runs for most
// questions asked of a tree, and a switch on the name (compiled to a binary
// search) costs a fraction of a map lookup.
var (
	fieldNames   = []string{"alias", "alternative", "argument", "arguments", "attribute", "body", "cause", "code", "condition", "consequence", "definition", "expression", "format_specifier", "function", "guard", "key", "left", "module_name", "name", "object", "operator", "operators", "parameters", "return_type", "right", "subject", "subscript", "superclasses", "type", "type_conversion", "type_parameters", "value"}
	fieldByIndex = fieldTable()
)

func fieldTable() []uint8 {
	out := make([]uint8, len(fieldNames))
	for i, name := range fieldNames {
		out[i] = fieldIDs[name]
	}
	return out
}

// fieldID returns the id of a field name (ok false for a name the grammar
// does not have).
func fieldID(name string) (id uint8, ok bool) {
	if i := fieldIndex(name); i >= 0 {
		return fieldByIndex[i], fieldByIndex[i] != 0
	}
	id, ok = fieldIDs[name] // a field added to the grammar since fieldNames
	return id, ok
}

// fieldIndex returns the position of name in fieldNames, or -1.
func fieldIndex(name string) int {
	switch name {
	case "alias":
		return 0
	case "alternative":
		return 1
	case "argument":
		return 2
	case "arguments":
		return 3
	case "attribute":
		return 4
	case "body":
		return 5
	case "cause":
		return 6
	case "code":
		return 7
	case "condition":
		return 8
	case "consequence":
		return 9
	case "definition":
		return 10
	case "expression":
		return 11
	case "format_specifier":
		return 12
	case "function":
		return 13
	case "guard":
		return 14
	case "key":
		return 15
	case "left":
		return 16
	case "module_name":
		return 17
	case "name":
		return 18
	case "object":
		return 19
	case "operator":
		return 20
	case "operators":
		return 21
	case "parameters":
		return 22
	case "return_type":
		return 23
	case "right":
		return 24
	case "subject":
		return 25
	case "subscript":
		return 26
	case "superclasses":
		return 27
	case "type":
		return 28
	case "type_conversion":
		return 29
	case "type_parameters":
		return 30
	case "value":
		return 31
	}
	return -1
}
