package main

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// A customCase is value's case for a polymorphic field: its destination's type, and the field.
type customCase struct {
	typ   string // the type of the destination: a pointer to the field, or to its struct's whole type
	owner string
	f     *field
}

// A decoderGen writes the decoding half of codec_gen.go: the field tables of the request types
// and the code that reads them into their destinations. A type read in one place is read there
// (a call of object); a type read in more, or by wire's entry points, has a reader method.
type decoderGen struct {
	m       *model
	structs []*structType // in the order found
	seen    map[string]bool
	cases   map[string]*goType // value's cases, by the source of the type pointed to
	lists   []*goType          // the list types read
	custom  []customCase       // value's cases for the hand-written readers
	readers map[string]bool    // the types with a reader method
}

func (g *decoderGen) visitStruct(where, name string) error {
	if g.seen[name] {
		return nil
	}
	s, err := g.m.checked(where, name)
	if err != nil {
		return err
	}
	if s.want == "" {
		return errors.New(name + ": a request type needs a //wire:want line (what a type error expects for it)")
	}
	g.seen[name] = true
	g.structs = append(g.structs, s)
	for _, f := range s.wired() {
		if f.wire != "" {
			c := customCase{typ: "*" + f.typ.source(), owner: name, f: f}
			if f.whole {
				c.typ = "*" + wholeType(s)
			}
			g.custom = append(g.custom, c)
			continue
		}
		if err := g.visitType(name+"."+f.goName, f.typ); err != nil {
			return err
		}
	}
	return nil
}

func (g *decoderGen) visitType(where string, t *goType) error {
	switch t.kind {
	case pointerKind:
		if t.elem.kind != leafKind && t.elem.kind != structKind {
			return errors.New(where + ": no reader for " + t.source())
		}
	case sliceKind:
		if t.elem.kind == structKind && g.m.structs[t.elem.name] != nil && g.m.structs[t.elem.name].list == "" {
			return errors.New(t.elem.name + ": a list in a request needs a //wire:list line (what a type error expects for it)")
		}
		if l := leaves[t.elem.name]; t.elem.kind == leafKind && (l == nil || l.listWant == "" || t.elem.named == "" && l.listName == "") {
			return errors.New(where + ": no reader for " + t.source())
		}
		if !containsType(g.lists, t) {
			g.lists = append(g.lists, t)
		}
		return g.visitElem(where, t.elem)
	}
	if t.named != "" {
		t = &goType{kind: leafKind, name: t.name} // object hands value a *string (see object)
	}
	g.cases[t.source()] = t
	if t.kind == pointerKind {
		return g.visitElem(where, t.elem)
	}
	return g.visitElem(where, t)
}

func containsType(list []*goType, t *goType) bool {
	for _, l := range list {
		if l.source() == t.source() {
			return true
		}
	}
	return false
}

func (g *decoderGen) visitElem(where string, t *goType) error {
	switch t.kind {
	case structKind:
		return g.visitStruct(where, t.name)
	case leafKind:
		if l := leaves[t.name]; l == nil || l.read == "" {
			return errors.New(where + ": no reader for " + t.name + `: give the field a wire tag naming a hand-written one`)
		}
		return nil
	}
	return errors.New(where + ": no reader for " + t.source())
}

// read is the code reading a value of type t (a leaf or a struct) into the pointer p.
func (g *decoderGen) read(t *goType, p string) string {
	switch {
	case t.kind == leafKind && t.named != "": // a list's element: read as a string
		return readStmt(leaves[t.name], "(*string)("+p+")")
	case t.kind == leafKind:
		return readStmt(leaves[t.name], p)
	case g.readers[t.name]:
		return "err = d." + lowerFirst(g.m.structs[t.name].ident) + "(" + p + ")"
	case isIdent(p):
		return "err = " + g.object(g.m.structs[t.name], p)
	}
	return "q := " + p + "\nerr = " + g.object(g.m.structs[t.name], "q")
}

// wholeType names the type, defined as the struct s, that is the destination of a field tagged
// wire:"field,struct" of s: value is given the struct as that type, so that it is told from a
// field of type s read as usual (CoverRequest.Target, a Token).
func wholeType(s *structType) string { return "whole" + s.ident }

// object is the call of object reading the struct s into the variable p (of needed, for a
// struct with //wire:required fields: their bits, by their index among its wired fields).
func (g *decoderGen) object(s *structType, p string) string {
	var dst []string
	need, positive := uint64(0), uint64(0)
	for i, f := range s.wired() {
		if f.required {
			need |= 1 << i
		}
		if f.positive {
			positive |= 1 << i
		}
		if f.wire != "" && f.whole {
			dst = append(dst, "(*"+wholeType(s)+")("+p+")") // value tells the field by its struct's whole type
		} else if f.typ.named != "" {
			dst = append(dst, "(*string)(&"+p+"."+f.goName+")") // value reads a string type as a string
		} else {
			dst = append(dst, "&"+p+"."+f.goName)
		}
	}
	if need != 0 || positive != 0 {
		return wrapped(fmt.Sprintf("d.needed(%s, %sFields, []any{", lit(s.want), lowerFirst(s.ident)), dst, 100) + fmt.Sprintf("}, %#b, %#b)", need, positive)
	}
	return wrapped(fmt.Sprintf("d.object(%s, %sFields, []any{", lit(s.want), lowerFirst(s.ident)), dst, 100) + "})"
}

func zeroOf(t *goType) string {
	if t.kind == structKind {
		return t.source() + "{}"
	}
	return leaves[t.name].zero
}

// generate writes the readers of readRoots (methods, for wire's entry points) and of
// valueRoots (value's cases, for the hand-written readers), and of all they reach.
// The roots are visited package by package, core/engine's first, so that another package's
// types come after the engine's in what is written.
func (g *decoderGen) generate(readRoots, valueRoots []string) ([]byte, error) {
	for _, r := range append(readRoots[:len(readRoots):len(readRoots)], valueRoots...) {
		if dirOf(r) == "?" {
			return nil, errors.New(r + ": not a type of the contract's packages")
		}
	}
	for _, p := range packages {
		for _, r := range readRoots {
			if dirOf(r) != p.dir {
				continue
			}
			if err := g.visitStruct("root", r); err != nil {
				return nil, err
			}
			g.readers[r] = true
		}
		for _, r := range valueRoots {
			if dirOf(r) != p.dir {
				continue
			}
			if err := g.visitType("root", &goType{kind: structKind, name: r}); err != nil {
				return nil, err
			}
		}
	}
	// value tells a polymorphic field by the type of its destination: no other may have it.
	seen := map[string]string{}
	for _, c := range g.custom {
		where := c.owner + "." + c.f.goName
		other := seen[c.typ]
		if g.cases[strings.TrimPrefix(c.typ, "*")] != nil {
			other = "one read as usual"
		}
		if other != "" {
			return nil, fmt.Errorf(`%s: value cannot tell its destination, a %s, from another field's (%s): add or drop ",struct" in its wire tag`, where, c.typ, other)
		}
		seen[c.typ] = where
	}
	uses := map[string]int{}
	for _, t := range g.cases {
		if name, ok := structName(t); ok {
			uses[name]++
		}
	}
	for _, l := range g.lists {
		if l.elem.kind == structKind {
			uses[l.elem.name]++
		}
	}
	for name, n := range uses {
		if n > 1 {
			g.readers[name] = true
		}
	}

	var b bytes.Buffer
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("// The field names of each request type, in the order of the destinations its reader passes\n// to object.\nvar (\n")
	for _, s := range g.structs {
		var names []string
		for _, f := range s.wired() {
			names = append(names, fmt.Sprintf("%q", f.json))
		}
		p("%s}\n", wrapped(lowerFirst(s.ident)+"Fields = []string{", names, 100))
	}
	p(")\n\n")
	for _, s := range g.structs {
		if !g.readers[s.name] {
			continue
		}
		src := qualified(s.name)
		p("// %s reads %s.\nfunc (d *decoder) %[1]s(p *%[3]s) *engine.Error {\n", lowerFirst(s.ident), article(src), src)
		p("return %s\n}\n\n", g.object(s, "p"))
	}

	wholes := map[string]bool{}
	for _, c := range g.custom {
		if c.f.whole && !wholes[c.owner] {
			wholes[c.owner] = true
			p("// %s is %s as the destination of its fields read whole by hand (wire:\"name,struct\").\ntype %[1]s %[2]s\n\n", wholeType(g.m.structs[c.owner]), qualified(c.owner))
		}
	}
	// value, composite and the lists' readers: small functions rather than one switch of every
	// destination. A module compiled by V8 tiers a function up once it has run a budget of its
	// own machine code, counted whole on each return and each turn of a loop (Go's WebAssembly
	// jumps back to the top of its function): one large switch run per field spent its budget
	// during a page's first evaluate, and its optimizing compile (40 ms each for value and list,
	// of 12 KB) took the cores that evaluate ran on (issue 30).
	p(`// value reads the value at the cursor into what dst points to. A null is an absent value, as
// with encoding/json: it leaves numbers, strings, booleans, cells and struct values alone and
// makes pointers, lists and maps nil (a hand-written reader reads it as its field has it).
// value reads numbers, strings, booleans and the fields read by hand; composite, the rest.
func (d *decoder) value(dst any) (err *engine.Error) {
	null := d.null()
	switch p := dst.(type) {
`)
	order := g.caseOrder()
	for _, src := range order {
		if t := g.cases[src]; t.kind == leafKind && valueLeaves[t.name] {
			g.valueCase(p, src, t)
		}
	}
	for _, c := range g.custom {
		arg := "p"
		if c.f.whole {
			arg = "(*" + qualified(c.owner) + ")(p)"
		}
		p("case %s: // %s.%s\nerr = d.%sField(%s, null)\n", c.typ, c.owner, c.f.goName, c.f.wire, arg)
	}
	p("default:\nerr = d.composite(dst, null)\n}\nreturn err\n}\n\n")

	p("// composite is value for the other leaves, a pointer, a struct or a list (null: the value at\n// the cursor is null).\n")
	p("func (d *decoder) composite(dst any, null bool) (err *engine.Error) {\nswitch p := dst.(type) {\n")
	for _, src := range order {
		if t := g.cases[src]; t.kind != leafKind || !valueLeaves[t.name] {
			g.valueCase(p, src, t)
		}
	}
	for _, l := range g.lists {
		p("case *%s:\nerr = d.%s(p, null)\n", l.source(), g.listFunc(l))
	}
	p("default:\npanic(\"wire: no reader for this destination\")\n}\nreturn err\n}\n\n")

	for _, l := range g.lists {
		want := ""
		if l.elem.kind == structKind {
			want = g.m.structs[l.elem.name].list
		} else {
			want = leaves[l.elem.name].listWant
		}
		p("// %s reads a list of %s; null makes it nil and [] an empty, non-nil list.\n", g.listFunc(l), l.elem.source())
		p("func (d *decoder) %s(p *%s, null bool) *engine.Error {\n*p = nil\nif null {\nreturn nil\n}\n*p = %[2]s{}\n", g.listFunc(l), l.source())
		p("if !d.array() {\nreturn d.typeErr(%s)\n}\n", lit(want))
		p("for i := 0; d.more(); i++ {\nvar err *engine.Error\nd.index(i)\n*p = append(*p, %s)\n%s\n", zeroOf(l.elem), g.read(l.elem, "&(*p)[i]"))
		p("d.pop()\nif err != nil {\nreturn err\n}\n}\nreturn nil\n}\n\n")
	}
	return b.Bytes(), nil
}

// valueCase writes value's (or composite's) case for the destination *src, of type t.
func (g *decoderGen) valueCase(p func(string, ...any), src string, t *goType) {
	p("case *%s:\n", src)
	switch {
	case t.kind == pointerKind:
		p("*p = nil\nif !null {\nv := new(%s)\n*p = v\n%s\n}\n", t.elem.source(), g.read(t.elem, "v"))
	case t.kind == leafKind && leaves[t.name].nilable:
		p("*p = nil\nif !null {\n%s\n}\n", g.read(t, "p"))
	default:
		p("if !null {\n%s\n}\n", g.read(t, "p"))
	}
}

// listFunc names the reader of the list type l: tokenList, stringList, featList.
func (g *decoderGen) listFunc(l *goType) string {
	e := l.elem
	switch {
	case e.kind == structKind:
		return lowerFirst(g.m.structs[e.name].ident) + "List"
	case e.named != "":
		return lowerFirst(e.named[strings.LastIndex(e.named, ".")+1:]) + "List"
	}
	return lowerFirst(leaves[e.name].listName) + "List"
}

// caseOrder orders value's cases: the leaves, then pointers to leaves, then structs and
// pointers to them as the structs were found (so that the output never depends on map order).
func (g *decoderGen) caseOrder() []string {
	rank := func(src string) int {
		t := g.cases[src]
		switch {
		case t.kind == leafKind:
			return leafRank(t.name)
		case t.kind == pointerKind && t.elem.kind == leafKind:
			return 100 + leafRank(t.elem.name)
		}
		n := 1000
		if t.kind == pointerKind {
			t, n = t.elem, n+1
		}
		for i, s := range g.structs {
			if s.name == t.name {
				return n + 2*i
			}
		}
		return 1 << 30
	}
	var order []string
	for src := range g.cases {
		order = append(order, src)
	}
	sort.Slice(order, func(i, j int) bool { return rank(order[i]) < rank(order[j]) })
	return order
}

func leafRank(name string) int {
	for i, n := range leafOrder {
		if n == name {
			return i
		}
	}
	return len(leafOrder)
}
