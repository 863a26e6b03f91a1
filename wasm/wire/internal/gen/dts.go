package main

import (
	"bytes"
	_ "embed"
	"errors"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/template"
	"unicode"
	"unicode/utf8"
)

//go:embed index.d.ts.tmpl
var dtsTemplate string

// A dtsGen writes web/index.d.ts from the template and the contract's types.
type dtsGen struct {
	m       *model
	tmpl    string          // the template: index.d.ts.tmpl
	reached map[string]bool // the structs the roots reach
	written map[string]bool
}

func (g *dtsGen) reach(name string) {
	if g.reached[name] {
		return
	}
	g.reached[name] = true
	for _, f := range g.m.structs[name].wired() {
		if f.wire != "" {
			continue // its //ts:type line says what it is
		}
		t := f.typ
		for t.kind == pointerKind || t.kind == sliceKind {
			t = t.elem
		}
		if t.kind == structKind {
			g.reach(t.name)
		}
	}
}

// tsType is the TypeScript type of a Go type.
func (m *model) tsType(t *goType) (string, error) {
	switch t.kind {
	case structKind:
		return m.structs[t.name].ident, nil
	case pointerKind:
		return m.tsType(t.elem)
	case sliceKind:
		e, err := m.tsType(t.elem)
		if strings.ContainsAny(e, "| ") {
			e = "(" + e + ")"
		}
		return e + "[]", err
	}
	if t.named != "" {
		return m.union(t.named)
	}
	if l := leaves[t.name]; l != nil {
		return l.ts, nil
	}
	return "", errors.New("no TypeScript type for " + t.name + ": give the field a //ts:type line")
}

// fieldType is the TypeScript type of a field: its //ts:type line's, or its Go type's, null
// included for a pointer that is never left out.
func (m *model) fieldType(f *field) (string, error) {
	if f.ts != "" {
		return f.ts, nil
	}
	if f.typ.named != "" {
		return m.union(f.typ.named)
	}
	s, err := m.tsType(f.typ)
	if f.typ.kind == pointerKind && !f.omit {
		s += " | null"
	}
	return s, err
}

// width is the widest line of web/index.d.ts's JSDoc, as of the Go source.
const width = 100

// jsdoc is a doc comment's text as JSDoc, indented by indent: its paragraphs for Go only (those
// that start "In Go") left out, the others wrapped at width columns.
func jsdoc(text, indent string) string {
	var keep []string
	for _, para := range strings.Split(text, "\n\n") {
		if para != "" && !strings.HasPrefix(para, "In Go") {
			keep = append(keep, para)
		}
	}
	if len(keep) == 0 {
		return ""
	}
	if len(keep) == 1 && !strings.Contains(keep[0], "\n  ") {
		if one := indent + "/** " + strings.ReplaceAll(keep[0], "\n", " ") + " */"; utf8.RuneCountInString(one) <= width {
			return one + "\n"
		}
	}
	var b strings.Builder
	b.WriteString(indent + "/**\n")
	for i, para := range keep {
		if i > 0 {
			b.WriteString(indent + " *\n")
		}
		for _, l := range wrap(para, width-len(indent)-3) {
			b.WriteString(indent + " * " + l + "\n")
		}
	}
	b.WriteString(indent + " */\n")
	return b.String()
}

// wrap fills the words of a paragraph into lines of at most n runes; a paragraph with indented
// lines (a code block or a list, in a Go doc comment) keeps its lines.
func wrap(para string, n int) []string {
	lines := strings.Split(para, "\n")
	for _, l := range lines {
		if strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t") {
			return lines
		}
	}
	var out []string
	line := ""
	for _, w := range strings.Fields(para) {
		switch {
		case line == "":
			line = w
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) <= n:
			line += " " + w
		default:
			out = append(out, line)
			line = w
		}
	}
	return append(out, line)
}

// typeDoc is a type's doc comment for JSDoc: "Pos is a cell" becomes "A cell".
func typeDoc(s *structType) string {
	rest, ok := strings.CutPrefix(s.doc, s.goName+" is ")
	if !ok {
		return s.doc
	}
	r, n := utf8.DecodeRuneInString(rest)
	return string(unicode.ToUpper(r)) + rest[n:]
}

// iface writes the interface of the type whose key is name, named by its ident or, given, as:
// {{interface "Template" "TemplateFields"}} for a type whose ident the template declares
// itself (a union of shapes), with the fields of them all.
func (g *dtsGen) iface(name string, as ...string) (string, error) {
	s := g.m.structs[name]
	if s == nil {
		return "", errors.New("index.d.ts.tmpl: no struct " + name + " in " + dirOf(name))
	}
	ident := s.ident
	switch {
	case len(as) > 1:
		return "", errors.New("index.d.ts.tmpl: {{interface \"" + name + "\"}} takes one name to write it as")
	case len(as) == 1:
		if !identifier.MatchString(as[0]) || identifier.FindString(as[0]) != as[0] {
			return "", errors.New("index.d.ts.tmpl: " + strconv.Quote(as[0]) + " is not a TypeScript name")
		}
		ident = as[0]
	}
	if g.written[name] {
		return "", errors.New("index.d.ts.tmpl: " + name + " written twice")
	}
	g.written[name] = true
	if err := s.check(); err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(strings.TrimSuffix(jsdoc(typeDoc(s), ""), "\n"))
	b.WriteString("\nexport interface " + ident + " {\n")
	for _, f := range s.wired() {
		t, err := g.m.fieldType(f)
		if err != nil {
			return "", errors.New(name + "." + f.goName + ": " + err.Error())
		}
		opt := ""
		if f.omit || f.optional {
			opt = "?"
		}
		b.WriteString(jsdoc(f.doc, "  "))
		b.WriteString("  " + f.json + opt + ": " + t + ";\n")
	}
	b.WriteString("}")
	return b.String(), nil
}

// union is the TypeScript type of the string type named: the union of its constants' values,
// in source order.
func (m *model) union(named string) (string, error) {
	var vs []string
	for _, c := range m.consts {
		if c.typ == named && c.value != "" {
			vs = append(vs, strconv.Quote(c.value))
		}
	}
	if len(vs) == 0 {
		return "", errors.New("no constants of type " + named + ": give the field a //ts:type line")
	}
	return strings.Join(vs, " | "), nil
}

// errorCodes are the values of the engine's Code constants, in their order (another package's
// constants have qualified names).
func (g *dtsGen) errorCodes() []string {
	var codes []string
	for _, c := range g.m.consts {
		if strings.HasPrefix(c.name, "Code") {
			codes = append(codes, c.value)
		}
	}
	return codes
}

var (
	declared   = regexp.MustCompile(`(?m)^export (?:type|interface|function) ([A-Za-z0-9_]+)`)
	identifier = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
	stringLit  = regexp.MustCompile(`"[^"]*"`)
)

// tsBuiltins are the names of TypeScript's own types a field's type may use.
var tsBuiltins = map[string]bool{"number": true, "string": true, "boolean": true, "null": true, "Record": true, "Required": true}

func (g *dtsGen) generate(roots []string) ([]byte, error) {
	for _, r := range roots {
		if g.m.structs[r] == nil {
			return nil, errors.New("no struct " + r + " in " + dirOf(r))
		}
		g.reach(r)
	}
	tmpl, err := template.New("index.d.ts.tmpl").Funcs(template.FuncMap{
		"interface":  g.iface,
		"errorCodes": g.errorCodes,
		"union":      g.m.union,
	}).Parse(g.tmpl)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := tmpl.Execute(&b, nil); err != nil {
		return nil, err
	}
	var missing []string
	for name := range g.reached {
		if !g.written[name] {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		return nil, errors.New("index.d.ts.tmpl: no {{interface}} for " + strings.Join(missing, ", "))
	}
	// Every name a field's type uses is declared.
	names := map[string]bool{}
	for _, m := range declared.FindAllStringSubmatch(b.String(), -1) {
		names[m[1]] = true
	}
	for name := range g.written {
		for _, f := range g.m.structs[name].wired() {
			t, _ := g.m.fieldType(f)
			for _, id := range identifier.FindAllString(stringLit.ReplaceAllString(t, ""), -1) {
				if !names[id] && !tsBuiltins[id] {
					return nil, errors.New(name + "." + f.goName + ": the TypeScript type " + id + " is not declared in index.d.ts.tmpl")
				}
			}
		}
	}
	return b.Bytes(), nil
}
