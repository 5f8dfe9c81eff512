package engine

import (
	"strings"

	"github.com/mcplint/mcplint/handlers"
)

// handlerTable is a project's handlers as a cache entry keeps them: a
// column per field, each path and each kind of handler once, and the names
// in one string. Most of a cache file is handlers (a monorepo's tens of
// thousands), and a warm run decodes these few slices much faster than a
// struct and three strings a handler, and allocates no string per handler.
type handlerTable struct {
	Paths []string      // the distinct paths, in order of first use
	Sorts []handlerSort // the distinct kinds, in order of first use
	Path  []int         // per handler: its index in Paths
	Sort  []int         // per handler: its index in Sorts
	Line  []int         // per handler
	Names string        // the handlers' names, one after the other
	Ends  []int         // per handler: where its name ends in Names
}

// handlerSort is what many handlers share besides their path.
type handlerSort struct {
	Kind      string
	Framework handlers.Framework
	Async     bool
}

// packHandlers is the table of hs.
func packHandlers(hs []HandlerSummary) handlerTable {
	var t handlerTable
	paths := map[string]int{}
	sorts := map[handlerSort]int{}
	var names strings.Builder
	for _, h := range hs {
		p, ok := paths[h.Path]
		if !ok {
			p = len(t.Paths)
			paths[h.Path] = p
			t.Paths = append(t.Paths, h.Path)
		}
		s := handlerSort{Kind: h.Kind, Framework: h.Framework, Async: h.Async}
		k, ok := sorts[s]
		if !ok {
			k = len(t.Sorts)
			sorts[s] = k
			t.Sorts = append(t.Sorts, s)
		}
		names.WriteString(h.Name)
		t.Path = append(t.Path, p)
		t.Sort = append(t.Sort, k)
		t.Line = append(t.Line, h.Line)
		t.Ends = append(t.Ends, names.Len())
	}
	t.Names = names.String()
	return t
}

// unpack returns the handlers of the table (nil when there are none, as
// the analysis gives them), or false when the table is not one that
// packHandlers made: its entry is then not used.
func (t *handlerTable) unpack() ([]HandlerSummary, bool) {
	n := len(t.Line)
	if len(t.Path) != n || len(t.Sort) != n || len(t.Ends) != n {
		return nil, false
	}
	if n == 0 {
		return nil, t.Names == ""
	}
	hs := make([]HandlerSummary, n)
	start := 0
	for i := range hs {
		p, k, end := t.Path[i], t.Sort[i], t.Ends[i]
		if p < 0 || p >= len(t.Paths) || k < 0 || k >= len(t.Sorts) || end < start || end > len(t.Names) {
			return nil, false
		}
		s := t.Sorts[k]
		hs[i] = HandlerSummary{Path: t.Paths[p], Line: t.Line[i], Name: t.Names[start:end], Kind: s.Kind, Framework: s.Framework, Async: s.Async}
		start = end
	}
	if start != len(t.Names) {
		return nil, false
	}
	return hs, true
}
