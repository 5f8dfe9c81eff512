// Package values is mcplint's value-flow engine: it answers "what can this
// expression be?" for the Python of one project, over pyast's index (its
// scopes, bindings, functions and classes; no second parser or walker).
//
// # Values
//
// An abstract value (Value) is a project module, class or function (a def,
// an async def or a lambda), a method bound to an instance or a class, an
// instance of a project class, a name outside the project (External: a
// library's module, class or function, by qualified name) or what a call of
// one returns (ExtResult), a container (a list, tuple, set or dict, known by
// the place it is built; a dict's elements are its (key, value) entries, so
// constant keys are kept apart), a string or other constant,
// functools.partial of a value, super() in a method, or unknown with the
// reason the engine stopped. A Set is a union of values (at most 64, or 256
// when the rest are functions, as a registry's handlers are; past that the
// rest is one unknown).
//
// # Evaluation
//
// Engine.Eval is demand-driven and memoised: a name is looked up through
// the scopes as Python does (a class body is visible only to its own code;
// global and nonlocal declarations; comprehension and lambda variables),
// and every binding of it in that scope counts (the engine is
// flow-insensitive: x = f; x = g gives f | g). pyast's bindings (defs,
// classes, imports in every scope, assignments, tuple targets, with items
// of calls, parameters) are read from its index; the forms it does not
// bind (for targets, walrus, augmented assignments, globals, annotations
// without a value, other with items, except ... as) are found once per
// scope with pyast.WalkCode. An attribute is looked up through a module's
// bindings, submodules, star imports (their __all__ evaluated) and what
// the project assigns to it; through a class's C3 method resolution order
// (methods bound as Python binds them: staticmethod, classmethod,
// property), its class-body bindings, what its methods assign to self, what
// the project assigns to its instances (obj.attr = v, setattr(obj, name, v)
// with a name the engine can tell), annotated fields and, for a dataclass,
// the arguments of its constructor calls; an enum class's members are its
// instances (values/enums.go). A call gives what its callee
// returns: a project function's return statements (an async function's
// too: await is transparent), a class's instance, an instance's __call__,
// and for the builtins and library functions that move values
// (functools.partial, getattr, importlib.import_module of a constant,
// super, typing.cast, list/tuple/set/sorted/dict/zip/enumerate/next, and
// the dict methods get/items/values/keys/pop/setdefault/copy) what they
// return. A parameter is what its annotation describes (Optional, Union,
// X | None, "X"), its default, and what the project's calls pass to it
// (found by the last name of their callee, then confirmed by evaluating
// it); a method's first parameter is its instance (its class for a
// classmethod). Decorators apply bottom up: a project decorator gives what
// it returns with its parameter bound to the decorated definition (so
// "return fn" is that function, "return wrapper" the wrapper); a library
// decorator is taken to return the definition.
//
// A question asked again while it is being answered (a recursive
// definition) gets what is known so far; the question at the head of the
// cycle is answered again until its answer stops growing (a fixpoint), and
// answers that read an unfinished one are not kept. One top-level question
// takes at most Config.Budget steps. docs/value-flow.md is the conformance
// table: a row per language feature, each with a fixture in
// testdata/conformance that TestConformance runs, and what the engine
// leaves unknown, and why.
//
// # What it replaces
//
// Today each question is answered by a resolver that recognises a set of
// shapes. The map, by the question each answers:
//
//   - "Which qualified names does this name or attribute chain spell?"
//     pyast.Module.Resolve / ResolveIn / ResolveUnless (scope.go), over the
//     bindings pyast's index builds (index.go: defs, classes, imports,
//     assignments to names and tuples, with items of calls, parameters,
//     self.x in methods as Class.Attrs, a conditional alias). Names, not
//     values: a local x = Foo() resolves to "func.x".
//   - "What produced this value?" pyast.Module.TypesOf / BindingsOf: the
//     callee names of an assignment's call, a parameter's annotation names
//     (annotationTypes), self.x through Class.Attrs.
//   - "Which project definition is this qualified name?"
//     handlers builder.lookup / lookupDepth / memberOf (build.go): modules,
//     re-exports, submodules, star imports with __all__ (exportsOf), one
//     symbol (module, function, class or a module variable's bindings).
//   - "Which method does this class have?" builder.method (build.go): a
//     depth-first walk of the project bases (not the C3 order).
//   - "Which project function does this expression name?" builder.funcOf /
//     funcOfNames (build.go): the first symbol that is a function, a
//     class's __init__, obj.method through objClasses; also what
//     handlers.Index.Callee and Resolve answer (the checkpoint analysis's
//     Resolver: EntersCheckpoint, RaisesUnchecked, returns).
//   - "Which project classes can this object be an instance of?"
//     builder.objClasses / classOf / returnedClass / qualifyTypes
//     (build.go): constructor and factory calls, return annotations and
//     return statements, self attributes, method results, depth 4.
//   - "Which functions can this call run?" builder.calleesOfNames / callees
//     (values.go): funcOf, plus the overrides in project subclasses
//     (overrides), dict dispatch (lookedUp: TOOLS[name](), TOOLS.get(name)),
//     loop variables over modules (for mod in [a, b]: mod.register(mcp)) and
//     over functions. moduleCalls (build.go) asks it for every call: the
//     call sites and the successors the handlers' reach is built from.
//   - "What does this collection hold?" builder.elems / elemsIn /
//     collectionKey / additions / tupleItems / returnValues /
//     comprehensionElems / loopValues / itemValues / memberValues
//     (values.go): literals, what the project appends, extends, updates,
//     comprehensions, tuple items, for-loop variables, inspect.getmembers.
//   - "Is this a server object, of which framework?" is asked of the
//     engine (handlers/engineservers.go: the receiver's values, a call of
//     a server class or factory, an instance of a project class with a
//     server class in its MRO); serverOfDepth, frameworkOfTypes,
//     paramServer, factoryServer and factoryFramework are deleted.
//     handlers' serverClassOfNames (the constructions of server classes,
//     ServerSites) still reads names.
//   - "Which functions does this registration receive?" builder.targets /
//     wrapperTargets / runsParentParam / isParamOf / castArg / nameFuncs /
//     makes / paramTargets / decoratedWith / valueTargets / loopTargets
//     (registrations.go), for decorated, registrationCall,
//     constructorHandlers and registrationAssignment; where they find
//     nothing, the engine's functions (engineTargets: getattr over a
//     constant list, a wrapper taken from a parameter, a closure a
//     function returns, a decorator's wrapper unwrapped to what the
//     decorator is applied to).
//   - "Which registrations run?" live.go (liveRefs asks callees and the
//     engine's callees, and skips calls under if False:), and locals.go
//     proves which local names resolve to nothing (a shortcut of Resolve,
//     for speed).
//   - "What type is this receiver?" checkpoint's valueTypes (clients.go,
//     fileio.go) over Module.TypesOf: annotations, constructors, async with,
//     factories, for offload and client methods.
//
// The engine's consumers are the callee resolution of every call
// (handlers/enginecallees.go: the resolvers' answer united with the
// engine's), the server question and the registrations' fallback
// (handlers/engineservers.go) and liveness (handlers/live.go).
package values
