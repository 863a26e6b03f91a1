package main

import (
	"bytes"
	"errors"
	"fmt"
)

// An encoderGen writes the encoding half of codec_gen.go: the writers of the answer types. A
// type or a list type written in one place is written there; one written in more, or an entry
// point's, has a writer method (taking the bytes to write before it, such as `,"origin":`, unless
// only wire calls it). Constant bytes next to each other are written at once, as
// `,"roll":{"dice":`. An object whose first two fields may both be left out has each field
// written after a comma, and the comma after its brace taken out (e.unlead).
type encoderGen struct {
	m       *model
	structs []*structType // in the order found
	lists   []*goType     // the list types written, in the order found
	seen    map[string]bool
	uses    map[string]int  // the places a struct or a list type (by its source) is written
	writers map[string]bool // the structs and list types with a writer method

	b       bytes.Buffer
	pending string         // constant bytes still to write
	vars    map[string]int // the variables of the method being written, by prefix
}

func (g *encoderGen) visitStruct(where, name string) error {
	if g.seen[name] {
		return nil
	}
	s, err := g.m.checked(where, name)
	if err != nil {
		return err
	}
	g.seen[name] = true
	g.structs = append(g.structs, s)
	for _, f := range s.wired() {
		w := name + "." + f.goName
		if f.wire != "" {
			return errors.New(w + ": no writer for a polymorphic field")
		}
		t := f.typ
		switch t.kind {
		case pointerKind:
			t = t.elem
		case sliceKind:
			if !containsType(g.lists, t) {
				g.lists = append(g.lists, t)
			}
			g.uses[t.source()]++
			t = t.elem
			if t.kind == leafKind && (leaves[t.name] == nil || leaves[t.name].listName == "") {
				return errors.New(w + ": no writer for " + f.typ.source())
			}
		}
		switch {
		case t.kind == structKind:
			if err := g.visitStruct(w, t.name); err != nil {
				return err
			}
		case t.kind != leafKind || leaves[t.name] == nil || leaves[t.name].write == "":
			return errors.New(w + ": no writer for " + f.typ.source())
		}
	}
	return nil
}

// count sets uses and writers, once every type is found.
func (g *encoderGen) count(roots []string) {
	for _, l := range g.lists {
		if g.uses[l.source()] > 1 {
			g.writers[l.source()] = true
		}
	}
	for _, s := range g.structs {
		for _, f := range s.wired() {
			t := f.typ
			if t.kind == sliceKind {
				if g.writers[t.source()] {
					continue // its writer writes the elements: counted below
				}
				t = t.elem
			}
			if name, ok := structName(t); ok {
				g.uses[name]++
			}
		}
	}
	for _, l := range g.lists {
		if g.writers[l.source()] && l.elem.kind == structKind {
			g.uses[l.elem.name]++
		}
	}
	for _, r := range roots {
		g.writers[r] = true
	}
	for _, s := range g.structs {
		if g.uses[s.name] > 1 {
			g.writers[s.name] = true
		}
	}
}

func (g *encoderGen) line(format string, args ...any) {
	fmt.Fprintf(&g.b, format, args...)
	g.b.WriteByte('\n')
}

// take returns the literal of the pending bytes followed by k, and clears them.
func (g *encoderGen) take(k string) string {
	s := g.pending + k
	g.pending = ""
	return lit(s)
}

// flush writes the pending bytes: before code that may not run.
func (g *encoderGen) flush() {
	if g.pending != "" {
		g.line("e.raw(%s)", lit(g.pending))
		g.pending = ""
	}
}

// value writes key k and x, of type t, as encoding/json writes a field (omit: omitempty).
func (g *encoderGen) value(t *goType, x, k string, omit bool) {
	switch {
	case t.kind == pointerKind && omit:
		g.flush()
		g.line("if %s != nil {", x)
		g.present(t.elem, x, k)
		g.flush()
		g.line("}")
	case t.kind == pointerKind:
		g.flush()
		g.line("if %s == nil {\ne.raw(%s)\n} else {", x, lit(k+"null"))
		g.present(t.elem, x, k)
		g.flush()
		g.line("}")
	case t.kind == structKind: // encoding/json never leaves out a struct
		g.structValue(t.name, x, "&"+x, k)
	case omit && t.kind == leafKind && leaves[t.name].opt != "":
		g.flush()
		g.line("e.%s(%s, %s)", leaves[t.name].opt, lit(k), t.plain(x))
	case omit:
		g.flush()
		g.line("if %s {", nonzero(t, x))
		g.value(t, x, k, false)
		g.flush()
		g.line("}")
	case t.kind == sliceKind && g.writers[t.source()]:
		g.line("e.%sList(%s, %s)", lowerFirst(g.listName(t.elem)), g.take(k), x)
	case t.kind == sliceKind:
		g.listBody(t, x, g.take(k))
	default:
		g.line("e.%s(%s, %s)", leaves[t.name].write, g.take(k), t.plain(x))
	}
}

// newVar returns a variable name not yet used in the method being written.
func (g *encoderGen) newVar(prefix string) string {
	n := g.vars[prefix]
	g.vars[prefix]++
	if n == 0 {
		return prefix
	}
	return fmt.Sprint(prefix, n)
}

// present writes key k and what the pointer p, to a t, points to.
func (g *encoderGen) present(t *goType, p, k string) {
	if t.kind == structKind {
		if !g.writers[t.name] && !isIdent(p) {
			q := g.newVar("q")
			g.line("%s := %s", q, p)
			p = q
		}
		g.structValue(t.name, p, p, k)
		return
	}
	g.line("e.%s(%s, *%s)", leaves[t.name].write, g.take(k), p)
}

// structValue writes key k and the struct name whose fields are sel.F and whose address is ref.
func (g *encoderGen) structValue(name, sel, ref, k string) {
	if g.writers[name] {
		g.line("e.%s(%s, %s)", lowerFirst(g.m.structs[name].ident), g.take(k), ref)
		return
	}
	g.pending += k
	g.fields(g.m.structs[name], sel)
}

// leadingOmit reports whether the first field of fields may be left out. Whether a comma
// follows it then depends on it, and the next field, which must always be written, goes without
// one.
func leadingOmit(fields []*field) bool {
	return len(fields) > 0 && fields[0].omit && fields[0].typ.kind != structKind
}

// fields writes the object of s, whose fields are sel.F, after the pending bytes.
func (g *encoderGen) fields(s *structType, sel string) {
	fields := s.wired()
	if len(fields) == 0 {
		g.pending += "{}"
		return
	}
	if leadingOmit(fields) && leadingOmit(fields[1:]) {
		g.flush()
		at := g.newVar("at")
		g.line("%s := len(e.b)", at)
		g.pending = "{"
		for _, f := range fields {
			g.value(f.typ, sel+"."+f.goName, `,"`+f.json+`":`, f.omit)
		}
		g.flush()
		g.line("e.unlead(%s)", at)
		g.pending = "}"
		return
	}
	punct := "{"
	if f := fields[0]; leadingOmit(fields) {
		v := sel + "." + f.goName
		open := g.pending
		g.line("if %s {", nonzero(f.typ, v))
		if f.typ.kind == pointerKind {
			g.present(f.typ.elem, v, `{"`+f.json+`":`)
		} else {
			g.value(f.typ, v, `{"`+f.json+`":`, false)
		}
		g.pending += ","
		g.flush()
		g.line("} else {\ne.raw(%s)\n}", lit(open+"{"))
		fields, punct = fields[1:], ""
	}
	for _, f := range fields {
		g.value(f.typ, sel+"."+f.goName, punct+`"`+f.json+`":`, f.omit)
		punct = ","
	}
	g.pending += "}"
}

// listBody writes the list x, of type t, after the name the expression name holds.
func (g *encoderGen) listBody(t *goType, x, name string) {
	sep, i := g.newVar("sep"), g.newVar("i")
	g.line("if e.list(%s, %s == nil, len(%s)) {\n%s := \"[\"\nfor %s := range %s {", name, x, x, sep, i, x)
	switch e := t.elem; {
	case e.kind == structKind && g.writers[e.name]:
		g.line("e.%s(%s, &%s[%s])", lowerFirst(g.m.structs[e.name].ident), sep, x, i)
	case e.kind == structKind:
		q := g.newVar("q")
		g.line("%s := &%s[%s]\ne.raw(%s)", q, x, i, sep)
		g.fields(g.m.structs[e.name], q)
		g.flush()
	default:
		g.line("e.%s(%s, %s)", leaves[e.name].write, sep, e.plain(x+"["+i+"]"))
	}
	g.line("%s = \",\"\n}\ne.raw(\"]\")\n}", sep)
}

func (g *encoderGen) listName(t *goType) string {
	if t.kind == structKind {
		return g.m.structs[t.name].ident
	}
	return leaves[t.name].listName
}

// nonzero is the condition under which omitempty writes v, of type t, as encoding/json has it.
func nonzero(t *goType, v string) string {
	switch t.kind {
	case pointerKind:
		return v + " != nil"
	case sliceKind:
		return "len(" + v + ") > 0"
	}
	return fmt.Sprintf(leaves[t.name].nonzero, v)
}

// generate writes the writers of roots, wire's entry points, and of all they reach.
func (g *encoderGen) generate(roots []string) ([]byte, error) {
	for _, r := range roots {
		if err := g.visitStruct("root", r); err != nil {
			return nil, err
		}
	}
	g.count(roots)
	for _, s := range g.structs {
		if !g.writers[s.name] {
			continue
		}
		g.vars = map[string]int{}
		src := qualified(s.name)
		if g.uses[s.name] == 0 { // an entry point only: what comes before it is wire's business
			g.line("// %s writes %s.\nfunc (e *encoder) %[1]s(p *%[3]s) {", lowerFirst(s.ident), article(src), src)
		} else {
			g.line("// %s writes name and %s.\nfunc (e *encoder) %[1]s(name string, p *%[3]s) {\ne.raw(name)", lowerFirst(s.ident), article(src), src)
		}
		g.fields(s, "p")
		g.flush()
		g.line("}\n")
	}
	for _, l := range g.lists {
		if !g.writers[l.source()] {
			continue
		}
		g.vars = map[string]int{}
		g.line("// %sList writes name and a list (null when nil).\nfunc (e *encoder) %[1]sList(name string, l %s) {", lowerFirst(g.listName(l.elem)), l.source())
		g.listBody(l, "l", "name")
		g.line("}\n")
	}
	return g.b.Bytes(), nil
}
