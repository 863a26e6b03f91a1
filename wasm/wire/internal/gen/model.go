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
)

// A model is what the generator knows of core/engine: its struct types and its string constants.
type model struct {
	structs map[string]*structType
	named   map[string]bool // the engine's string types (type Rules string)
	consts  []constant      // string constants, in source order
}

// A constant is a string constant; typ is its type's name when it has one of the named string
// types.
type constant struct{ name, value, typ string }

// A structType is one struct of the engine, as its declaration says.
type structType struct {
	name   string
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
}

// A goType is a field's Go type: a pointer, a slice, one of the engine's structs or a leaf
// (a built-in type, a fixed-size array or a map, named by its source text).
type goType struct {
	kind  int
	elem  *goType // pointer, slice
	name  string  // struct: the engine's type name; leaf: the source text ("string" for a named one)
	named string  // a leaf of one of the engine's string types: its name (Rules)
}

const (
	leafKind = iota
	structKind
	pointerKind
	sliceKind
)

// source is t as Go source outside package engine.
func (t *goType) source() string {
	switch t.kind {
	case pointerKind:
		return "*" + t.elem.source()
	case sliceKind:
		return "[]" + t.elem.source()
	case structKind:
		return "engine." + t.name
	}
	if t.named != "" {
		return "engine." + t.named
	}
	return t.name
}

// plain is the expression x of type t as its leaf's type: string(x) for a named string type.
func (t *goType) plain(x string) string {
	if t.named != "" {
		return "string(" + x + ")"
	}
	return x
}

// loadModel reads the non-test Go files of dir (core/engine).
func loadModel(dir string) (*model, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
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
			return nil, err
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	m := &model{structs: map[string]*structType{}, named: map[string]bool{}}
	// Struct names first, so that fields can tell the engine's types from leaves.
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
						m.named[s.Name.Name] = true
					}
					if _, ok := s.Type.(*ast.StructType); ok && s.Name.IsExported() {
						doc := s.Doc
						if doc == nil && len(gd.Specs) == 1 {
							doc = gd.Doc
						}
						specs, docs = append(specs, s), append(docs, doc)
						m.structs[s.Name.Name] = &structType{name: s.Name.Name}
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
								typ = id.Name
							}
							m.consts = append(m.consts, constant{n.Name, v, typ})
						}
					}
				}
			}
		}
	}
	for i, s := range specs {
		st := m.structs[s.Name.Name]
		st.doc, st.want, st.list, _ = docText(docs[i])
		for _, f := range s.Type.(*ast.StructType).Fields.List {
			if len(f.Names) == 0 {
				return nil, errors.New(st.name + ": embedded fields are not supported")
			}
			for _, n := range f.Names {
				if !n.IsExported() {
					continue
				}
				fd, err := m.field(st.name, n.Name, f)
				if err != nil {
					return nil, err
				}
				st.fields = append(st.fields, fd)
			}
		}
	}
	return m, nil
}

// docText returns the text of a doc comment (without its directives and //ts:type line) and
// the values of its //wire:want, //wire:list and //ts:type lines.
func docText(g *ast.CommentGroup) (text, want, list, ts string) {
	if g == nil {
		return "", "", "", ""
	}
	keep := &ast.CommentGroup{}
	for _, c := range g.List {
		if v, ok := strings.CutPrefix(c.Text, "//wire:want "); ok {
			want = v
		}
		if v, ok := strings.CutPrefix(c.Text, "//wire:list "); ok {
			list = v
		}
		if v, ok := strings.CutPrefix(c.Text, "//ts:type "); ok {
			ts = v
			continue
		}
		keep.List = append(keep.List, c)
	}
	return strings.TrimSpace(keep.Text()), want, list, ts
}

// checked returns the struct name, which where reaches, once it has passed its checks.
func (m *model) checked(where, name string) (*structType, error) {
	s := m.structs[name]
	if s == nil {
		return nil, errors.New(where + ": no struct " + name + " in core/engine")
	}
	if err := s.check(); err != nil {
		return nil, err
	}
	return s, nil
}

func (m *model) field(owner, name string, f *ast.Field) (*field, error) {
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
	fd.doc, _, _, fd.ts = docText(f.Doc)
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
	t, err := m.goType(where, f.Type)
	if err != nil {
		return nil, err
	}
	fd.typ = t
	return fd, nil
}

func (m *model) goType(where string, e ast.Expr) (*goType, error) {
	switch e := e.(type) {
	case *ast.StarExpr:
		elem, err := m.goType(where, e.X)
		if err == nil && elem.named != "" {
			err = errors.New(where + ": a pointer to a string type is not supported")
		}
		return &goType{kind: pointerKind, elem: elem}, err
	case *ast.ArrayType:
		if e.Len == nil {
			elem, err := m.goType(where, e.Elt)
			if err == nil && elem.named != "" {
				err = errors.New(where + ": a list of a string type is not supported")
			}
			return &goType{kind: sliceKind, elem: elem}, err
		}
	case *ast.Ident:
		if m.structs[e.Name] != nil {
			return &goType{kind: structKind, name: e.Name}, nil
		}
		if m.named[e.Name] {
			return &goType{kind: leafKind, name: "string", named: e.Name}, nil
		}
	}
	return &goType{kind: leafKind, name: exprString(e)}, nil
}

// exprString is the source text of a leaf type: an identifier, an array or a map.
func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.BasicLit:
		return e.Value
	case *ast.ArrayType:
		if e.Len == nil {
			return "[]" + exprString(e.Elt)
		}
		return "[" + exprString(e.Len) + "]" + exprString(e.Elt)
	case *ast.MapType:
		return "map[" + exprString(e.Key) + "]" + exprString(e.Value)
	case *ast.StarExpr:
		return "*" + exprString(e.X)
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
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
