package main

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// A model is what the generator knows of the contract's packages (core/engine, core/fullattack):
// their struct types and their string constants, by key — the engine's bare names (Request),
// another package's qualified ones (fullattack.Request).
type model struct {
	structs map[string]*structType
	named   map[string]bool   // the string types (type Rules string)
	consts  []constant        // string constants, in source order
	idents  map[string]string // the key of each struct's ident, so that no two share one
}

// A constant is a string constant; name is its key, and typ its type's key when it has one of
// the named string types.
type constant struct{ name, value, typ string }

// A structType is one struct of a package, as its declaration says.
type structType struct {
	name   string // its key: Request, fullattack.Request
	goName string // its name in its package: Request
	// Its name in TypeScript, whose first letter lowered names its reader, writer and field table
	// in wire: the Go name for the engine's types, prefixed for another package's (see identOf).
	ident  string
	doc    string // the doc comment's text, directives dropped
	want   string // //wire:want: what a type error expects for it
	list   string // //wire:list: what a type error expects for a list of it
	fields []*field
}

// A field is one exported field of a struct.
type field struct {
	goName string
	typ    *goType
	json   string // its name on the wire; "" for json:"-"
	omit   bool   // omitempty
	wire   string // wire:"name": a polymorphic field, read by the hand-written d.nameField
	whole  bool   // wire:"name,struct": its reader is given the struct, not the field
	ts     string // //ts:type …: its TypeScript type
	doc    string
	tagged bool // it has a json tag (json:"-" included)
	// //wire:required: the reader refuses its object without it (or with it null), which it
	// would otherwise leave zero; //ts:optional: optional in TypeScript although written
	// always (a request's field with a default, in a type answers use too).
	required, optional bool
	positive           bool // //wire:positive: an integer whose 0, given, is refused (the engine reads 0 as left out)
}

// A goType is a field's Go type: a pointer, a slice, one of the engine's structs or a leaf
// (a built-in type, a fixed-size array or a map, named by its source text).
type goType struct {
	kind  int
	elem  *goType // pointer, slice
	name  string  // struct: its key; leaf: the source text, types qualified ("string" for a named one)
	named string  // a leaf of one of the string types: its key (Rules, fullattack.Kind)
}

const (
	leafKind = iota
	structKind
	pointerKind
	sliceKind
)

// source is t as Go source in package wire.
func (t *goType) source() string {
	switch t.kind {
	case pointerKind:
		return "*" + t.elem.source()
	case sliceKind:
		return "[]" + t.elem.source()
	case structKind:
		return qualified(t.name)
	}
	if t.named != "" {
		return qualified(t.named)
	}
	return t.name
}

// qualified is the Go source of the type whose key is key: engine.Request, fullattack.Request.
func qualified(key string) string {
	if strings.Contains(key, ".") {
		return key
	}
	return "engine." + key
}

// article is a or an, for the type named by its Go source (an engine.Pos, a fullattack.Item).
func article(source string) string {
	if strings.HasPrefix(source, "engine.") {
		return "an " + source
	}
	return "a " + source
}

// plain is the expression x of type t as its leaf's type: string(x) for a named string type.
func (t *goType) plain(x string) string {
	if t.named != "" {
		return "string(" + x + ")"
	}
	return x
}

// A pkg is a package whose types the contract is made of: its directory in the module, the
// qualifier of its keys ("" for core/engine, whose names are bare) and the prefix of its
// one-word type names in TypeScript and in wire (see identOf).
type pkg struct{ dir, qual, prefix string }

// packages are the contract's packages, core/engine first.
var packages = []pkg{
	{dir: "core/engine"},
	{dir: "core/fullattack", qual: "fullattack", prefix: "FullAttack"},
}

// dirOf is the directory of the package of the key of a type.
func dirOf(key string) string {
	q, _, ok := strings.Cut(key, ".")
	for _, p := range packages {
		if ok && p.qual == q || !ok && p.qual == "" {
			return p.dir
		}
	}
	return "?"
}

// identOf is the ident of a package's type name: the name itself, but for a one-word name of a
// package with a prefix (Request → FullAttackRequest), which would be too vague beside the
// engine's; a compound name (PricedStep) says what it is already.
func identOf(name, prefix string) string {
	if prefix == "" || strings.IndexFunc(name[1:], unicode.IsUpper) >= 0 {
		return name
	}
	return prefix + name
}

// loadModel reads the non-test Go files of dir as core/engine.
func loadModel(dir string) (*model, error) {
	m := &model{structs: map[string]*structType{}, named: map[string]bool{}, idents: map[string]string{}}
	return m, m.load(dir, pkg{})
}

// load adds the types of the non-test Go files of dir, the package p, to m.
func (m *model) load(dir string, p pkg) error {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return err
	}
	sort.Strings(names)
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			return err
		}
		files = append(files, f)
	}
	key := func(name string) string {
		if p.qual == "" {
			return name
		}
		return p.qual + "." + name
	}
	// Struct names first, so that fields can tell the package's types from leaves.
	var specs []*ast.TypeSpec
	var docs []*ast.CommentGroup
	for _, f := range files {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gd.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if id, ok := s.Type.(*ast.Ident); ok && id.Name == "string" && s.Name.IsExported() && !s.Assign.IsValid() {
						m.named[key(s.Name.Name)] = true
					}
					if _, ok := s.Type.(*ast.StructType); ok && s.Name.IsExported() {
						doc := s.Doc
						if doc == nil && len(gd.Specs) == 1 {
							doc = gd.Doc
						}
						specs, docs = append(specs, s), append(docs, doc)
						st := &structType{name: key(s.Name.Name), goName: s.Name.Name, ident: identOf(s.Name.Name, p.prefix)}
						if other, dup := m.idents[st.ident]; dup {
							return errors.New(st.name + ": its name in TypeScript, " + st.ident + ", is " + other + "'s")
						}
						m.structs[st.name], m.idents[st.ident] = st, st.name
					}
				case *ast.ValueSpec:
					if gd.Tok != token.CONST {
						continue
					}
					for i, n := range s.Names {
						if i >= len(s.Values) {
							continue
						}
						if lit, ok := s.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							v, _ := strconv.Unquote(lit.Value)
							typ := ""
							if id, ok := s.Type.(*ast.Ident); ok {
								typ = key(id.Name)
							}
							m.consts = append(m.consts, constant{key(n.Name), v, typ})
						}
					}
				}
			}
		}
	}
	for i, s := range specs {
		st := m.structs[key(s.Name.Name)]
		var d directives
		st.doc, d = docText(docs[i])
		st.want, st.list = d.want, d.list
		for _, f := range s.Type.(*ast.StructType).Fields.List {
			if len(f.Names) == 0 {
				return errors.New(st.name + ": embedded fields are not supported")
			}
			for _, n := range f.Names {
				if !n.IsExported() {
					continue
				}
				fd, err := m.field(key, st.name, n.Name, f)
				if err != nil {
					return err
				}
				st.fields = append(st.fields, fd)
			}
		}
	}
	return nil
}

// directives are the generator's lines in a doc comment: //wire:want, //wire:list and
// //ts:type with their values, and //wire:required and //ts:optional.
type directives struct {
	want, list, ts               string
	required, optional, positive bool
}

// docText returns the text of a doc comment (without its directives and //ts: lines) and its
// directives.
func docText(g *ast.CommentGroup) (text string, d directives) {
	if g == nil {
		return "", d
	}
	keep := &ast.CommentGroup{}
	for _, c := range g.List {
		if v, ok := strings.CutPrefix(c.Text, "//wire:want "); ok {
			d.want = v
		}
		if v, ok := strings.CutPrefix(c.Text, "//wire:list "); ok {
			d.list = v
		}
		d.required = d.required || c.Text == "//wire:required"
		d.positive = d.positive || c.Text == "//wire:positive"
		if c.Text == "//ts:optional" {
			d.optional = true
			continue
		}
		if v, ok := strings.CutPrefix(c.Text, "//ts:type "); ok {
			d.ts = v
			continue
		}
		keep.List = append(keep.List, c)
	}
	return strings.TrimSpace(keep.Text()), d
}

// checked returns the struct name, which where reaches, once it has passed its checks.
func (m *model) checked(where, name string) (*structType, error) {
	s := m.structs[name]
	if s == nil {
		return nil, errors.New(where + ": no struct " + name + " in " + dirOf(name))
	}
	if err := s.check(); err != nil {
		return nil, err
	}
	return s, nil
}

// field reads the field name of the struct owner; key gives the key of a name of its package.
func (m *model) field(key func(string) string, owner, name string, f *ast.Field) (*field, error) {
	where := owner + "." + name
	var tag reflect.StructTag
	if f.Tag != nil {
		s, err := strconv.Unquote(f.Tag.Value)
		if err != nil {
			return nil, errors.New(where + ": bad tag")
		}
		tag = reflect.StructTag(s)
	}
	fd := &field{goName: name}
	fd.wire, fd.whole = strings.CutSuffix(tag.Get("wire"), ",struct")
	var d directives
	fd.doc, d = docText(f.Doc)
	fd.ts, fd.required, fd.optional, fd.positive = d.ts, d.required, d.optional, d.positive
	if j, ok := tag.Lookup("json"); ok {
		fd.tagged = true
		opts := strings.Split(j, ",")
		if opts[0] != "-" {
			fd.json = opts[0]
			if fd.json == "" {
				return nil, errors.New(where + ": a json tag without a name")
			}
		}
		for _, o := range opts[1:] {
			fd.omit = fd.omit || o == "omitempty"
		}
	}
	t, err := m.goType(key, where, f.Type)
	if err != nil {
		return nil, err
	}
	fd.typ = t
	return fd, nil
}

func (m *model) goType(key func(string) string, where string, e ast.Expr) (*goType, error) {
	switch e := e.(type) {
	case *ast.StarExpr:
		elem, err := m.goType(key, where, e.X)
		if err == nil && elem.named != "" {
			err = errors.New(where + ": a pointer to a string type is not supported")
		}
		return &goType{kind: pointerKind, elem: elem}, err
	case *ast.ArrayType:
		if e.Len == nil {
			elem, err := m.goType(key, where, e.Elt)
			return &goType{kind: sliceKind, elem: elem}, err
		}
	case *ast.Ident:
		if m.structs[key(e.Name)] != nil {
			return &goType{kind: structKind, name: key(e.Name)}, nil
		}
		if m.named[key(e.Name)] {
			return &goType{kind: leafKind, name: "string", named: key(e.Name)}, nil
		}
	}
	return &goType{kind: leafKind, name: exprString(e, func(name string) string {
		if k := key(name); m.structs[k] != nil || m.named[k] {
			return qualified(k) // as Go source in package wire: map[string]fullattack.Item
		}
		return name
	})}, nil
}

// exprString is the source text of a leaf type — an identifier, an array or a map — with the
// identifiers q names.
func exprString(e ast.Expr, q func(string) string) string {
	switch e := e.(type) {
	case *ast.Ident:
		return q(e.Name)
	case *ast.BasicLit:
		return e.Value
	case *ast.ArrayType:
		if e.Len == nil {
			return "[]" + exprString(e.Elt, q)
		}
		return "[" + exprString(e.Len, q) + "]" + exprString(e.Elt, q)
	case *ast.MapType:
		return "map[" + exprString(e.Key, q) + "]" + exprString(e.Value, q)
	case *ast.StarExpr:
		return "*" + exprString(e.X, q)
	case *ast.SelectorExpr:
		return exprString(e.X, func(s string) string { return s }) + "." + e.Sel.Name
	}
	return "?"
}

// wired returns the fields of s that are on the wire (those with a json name).
func (s *structType) wired() []*field {
	var out []*field
	for _, f := range s.fields {
		if f.json != "" {
			out = append(out, f)
		}
	}
	return out
}

// check requires every exported field of a wire type to say what it is on the wire: a name, or
// json:"-" for none.
func (s *structType) check() error {
	for _, f := range s.fields {
		if !f.tagged {
			return errors.New(s.name + "." + f.goName + `: no json tag (json:"-" keeps a field off the wire)`)
		}
		if f.json == "" && (f.wire != "" || f.ts != "") {
			return errors.New(s.name + "." + f.goName + ": a wire tag or a //ts:type line on a field that is not on the wire")
		}
	}
	return nil
}
