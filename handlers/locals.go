package handlers

import (
	"strings"

	"github.com/mcplint/mcplint/pyast"
)

// Most names a project's calls resolve to are a function's local values and
// their attributes (out = {}; out.update(...) resolves to
// pkg.mod.helper.out.update), and none of them names a project definition.
// Resolving them builds a string per call and looking them up probes the
// lookup memo several times per call, the largest part of indexCalls. Which
// of them can name nothing is known per function, once (localFuncs), so
// resolveNames answers them without building or looking up the names.
//
// Why it is exact. Let F be a function's qualified name and x a name bound in
// F's scope whose every binding targets F.x (a local value: x = call(),
// x = {}, with call() as x). The expression x.a.b resolves to the one name
// F.x.a.b (or to none when the chain is deeper than resolve goes), and
// lookup(q) for q = F.x or F.x.<more> finds nothing when:
//   - no function or class has a qualified name F.x or F.x.<more>: x is not
//     among F's children (localFuncs.kids: the next components after F of
//     every definition's qualified name);
//   - no module name is F or starts with F. (moduleFree), so the longest
//     prefix of q naming a module is P, a proper prefix of F (or none: then
//     lookupDepth finds nothing), and memberOf(P's module, c1 ... ck x ...)
//     looks at c1's module-level bindings only:
//   - c1 is not imported or aliased there (those look another name up),
//     and, when F = P.c1 (then memberOf's rest can be c1 x), c1 names no
//     class (class.x would be a method);
//   - c1 is not a submodule of P's module (memberOf descends into it).
//
// A value binding's own name never names a definition in memberOf (only a
// rest of one component finds a value), a def only with one component, a
// class only with one or two (and the rest here has at least two).
// serverClassOfNames and registrationCall find nothing in such names too,
// when no server class, server function or component constructor
// (fromFunction: componentPrefix) of the libraries is F or under F
// (libPrefix).

// localFuncs are the functions whose local values resolve to nothing, with
// the names of the definitions nested in them (F.kid...), which their
// locals must not shadow.
type localFuncs map[*pyast.Function][]string

// findLocalFuncs computes b.locals; it leaves it nil when the project's
// module names are not all known (Config.ModuleNames).
func (b *builder) findLocalFuncs() {
	if b.cfg.ModuleFiles != nil && b.cfg.ModuleNames == nil {
		return
	}
	modPrefix := map[string]bool{}
	addPrefixes := func(set map[string]bool, name string) {
		for {
			if set[name] {
				return // its prefixes are in too
			}
			set[name] = true
			i := strings.LastIndexByte(name, '.')
			if i < 0 {
				return
			}
			name = name[:i]
		}
	}
	for name := range b.byName {
		addPrefixes(modPrefix, name)
	}
	for _, name := range b.cfg.ModuleNames {
		addPrefixes(modPrefix, name)
	}
	libPrefix := map[string]bool{}
	for name := range serverClasses {
		addPrefixes(libPrefix, name)
	}
	for name := range serverFunctions {
		addPrefixes(libPrefix, name)
	}
	kids := map[string][]string{}
	addKids := func(q string) {
		for i := 0; i < len(q); i++ {
			if q[i] != '.' {
				continue
			}
			if _, ok := b.funcs[q[:i]]; !ok {
				continue
			}
			kid := q[i+1:]
			if j := strings.IndexByte(kid, '.'); j >= 0 {
				kid = kid[:j]
			}
			kids[q[:i]] = append(kids[q[:i]], kid)
		}
	}
	for _, m := range b.mods {
		for _, f := range m.Funcs {
			addKids(f.Qual)
		}
		for _, c := range m.Classes {
			addKids(c.Qual)
		}
	}
	b.locals, b.skipLocal = localFuncs{}, b.localRoot
	for _, m := range b.mods {
		for _, f := range m.Funcs {
			if !modPrefix[f.Qual] && !libPrefix[f.Qual] && !componentPrefix(f.Qual) && b.membersFree(f.Qual) {
				b.locals[f] = kids[f.Qual]
			}
		}
	}
}

// membersFree reports whether memberOf finds nothing for F.x... (see above)
// in the module named by the longest proper prefix of F that names one.
func (b *builder) membersFree(fq string) bool {
	for i := len(fq) - 1; i > 0; i-- {
		if fq[i] != '.' {
			continue
		}
		pm := b.module(fq[:i])
		if pm == nil {
			continue
		}
		c1 := fq[i+1:]
		last := true // F = P.c1
		if j := strings.IndexByte(c1, '.'); j >= 0 {
			c1, last = c1[:j], false
		}
		for _, bd := range pm.Scope.Local(c1) {
			switch bd.Kind {
			case pyast.BindImport, pyast.BindAlias:
				return false
			case pyast.BindDef:
				if last {
					for _, t := range bd.Targets() {
						if _, ok := b.classes[t]; ok {
							return false
						}
					}
				}
			}
		}
		return !pm.IsPackage() || b.module(pm.Name+"."+c1) == nil
	}
	return true // no module: lookupDepth finds nothing
}

// localOnly reports whether expr is a chain of attributes on a local value
// of a function in b.locals (see above): its names look up nothing. s is
// the scope at expr.
func (b *builder) localOnly(m *pyast.Module, s *pyast.Scope, expr *pyast.Node) bool {
	root := pyast.Unparen(expr)
	for root != nil && root.Kind() == "attribute" {
		root = pyast.Unparen(root.ChildByFieldName("object"))
	}
	if root == nil || root.Kind() != "identifier" {
		return false
	}
	name := m.TextView(root)
	sc, bs := s.LookupScope(name)
	return b.localRoot(sc, name, bs)
}

// localRoot reports whether name, bound by bs in scope sc, is a local value
// of a function in b.locals (see above): a pyast.Module.ResolveUnless skip.
func (b *builder) localRoot(sc *pyast.Scope, name string, bs []*pyast.Binding) bool {
	if sc == nil || sc.Func == nil {
		return false
	}
	kids, ok := b.locals[sc.Func]
	if !ok {
		return false
	}
	for _, bd := range bs {
		t := bd.Targets()
		if len(t) != 1 || len(t[0]) != len(sc.Qual)+1+len(name) ||
			!strings.HasPrefix(t[0], sc.Qual) || t[0][len(sc.Qual)] != '.' || !strings.HasSuffix(t[0], name) {
			return false
		}
	}
	for _, k := range kids {
		if k == name {
			return false
		}
	}
	return true
}
