package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedFilesUpToDate runs the generator in memory and compares what it writes with the
// committed files: a change to core/engine's types (or to this generator) needs them written
// again.
func TestGeneratedFilesUpToDate(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	files, err := generate(root)
	if err != nil {
		t.Fatalf("generating: %v", err)
	}
	for _, name := range outputs {
		got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("%v: run go generate ./wasm/wire", err)
			continue
		}
		if !bytes.Equal(got, files[name]) {
			t.Errorf("%s is stale (it differs from what core/engine's types give): run go generate ./wasm/wire", name)
		}
	}
}

// TestGeneratedFilesSayTheyAre: every generated file starts with the standard line that tools
// recognise (https://go.dev/s/generatedcode).
func TestGeneratedFilesSayTheyAre(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	files, err := generate(root)
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range files {
		first, _, _ := strings.Cut(string(b), "\n")
		if !strings.HasPrefix(first, "// Code generated ") || !strings.HasSuffix(first, " DO NOT EDIT.") {
			t.Errorf("%s starts with %q", name, first)
		}
	}
}

// modelOf loads a core/engine made of src.
func modelOf(t *testing.T, src string) *model {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "types.go"), []byte("package engine\n\n"+src), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := loadModel(dir)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func decodeRequest(m *model) error {
	_, err := (&decoderGen{m: m, seen: map[string]bool{}, cases: map[string]*goType{}, readers: map[string]bool{}}).generate([]string{"Request"}, nil)
	return err
}

func encodeResult(m *model) error {
	_, err := (&encoderGen{m: m, seen: map[string]bool{}, uses: map[string]int{}, writers: map[string]bool{}}).generate([]string{"Result"})
	return err
}

func declare(tmpl string) func(m *model) error {
	return func(m *model) error {
		_, err := (&dtsGen{m: m, tmpl: tmpl, reached: map[string]bool{}, written: map[string]bool{}}).generate([]string{"Result"})
		return err
	}
}

// TestGeneratorRefuses: what the generator cannot write right, it refuses, saying what to do.
func TestGeneratorRefuses(t *testing.T) {
	for _, c := range []struct {
		src, want string
		gen       func(*model) error
	}{
		{"//wire:want an object\ntype Request struct {\n\tF uint64 `json:\"f\"`\n}",
			"Request.F: no reader for uint64: give the field a wire tag", decodeRequest},
		{"type Request struct {\n\tA int `json:\"a\"`\n}", "Request: a request type needs a //wire:want line", decodeRequest},
		{"//wire:want an object\ntype Request struct {\n\tA int\n}", "Request.A: no json tag", decodeRequest},
		{"//wire:want an object\ntype Request struct {\n\tL []T `json:\"l\"`\n}\n\n//wire:want a t\ntype T struct {\n\tA int `json:\"a\"`\n}",
			"T: a list in a request needs a //wire:list line", decodeRequest},
		{"//wire:want an object\ntype Request struct {\n\tA float64 `json:\"a\" wire:\"a\"`\n\tB float64 `json:\"b\" wire:\"b\"`\n}",
			"Request.B: value cannot tell its destination, a *float64, from another field's (Request.A)", decodeRequest},
		{"type Result struct {\n\tM map[string]int `json:\"m\"`\n}", "Result.M: no writer for map[string]int", encodeResult},
		{"type Result struct {\n\tS int `json:\"s\" wire:\"size\"`\n}", "Result.S: no writer for a polymorphic field", encodeResult},
		{"type Result struct {\n\t//ts:type Shape\n\tS string `json:\"s\"`\n}", "Result.S: the TypeScript type Shape is not declared",
			declare(`{{interface "Result"}}`)},
		{"type Result struct {\n\tT T `json:\"t\"`\n}\n\ntype T struct {\n\tA int `json:\"a\"`\n}", "no {{interface}} for T",
			declare(`{{interface "Result"}}`)},
		{"type Result struct {\n\tA uintptr `json:\"a\"`\n}", "Result.A: no TypeScript type for uintptr", declare(`{{interface "Result"}}`)},
	} {
		err := c.gen(modelOf(t, c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s\n: got %v, want %q", c.src, err, c.want)
		}
	}
}

// modelOf2 loads a core/engine made of src and a second package, fullattack, made of src2.
func modelOf2(t *testing.T, src, src2 string) *model {
	t.Helper()
	m := modelOf(t, src)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "types.go"), []byte("package fullattack\n\n"+src2), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := m.load(dir, packages[1]); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestGeneratorRefusesPackages: what the generator refuses of a second package's types.
func TestGeneratorRefusesPackages(t *testing.T) {
	// Two packages whose types would share a TypeScript name.
	m := modelOf(t, "type FullAttackItem struct {\n\tA int `json:\"a\"`\n}")
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "types.go"), []byte("package fullattack\n\ntype Item struct {\n\tA int `json:\"a\"`\n}"), 0o644)
	if err := m.load(dir, packages[1]); err == nil || !strings.Contains(err.Error(), "fullattack.Item: its name in TypeScript, FullAttackItem, is FullAttackItem's") {
		t.Errorf("a shared TypeScript name: got %v", err)
	}
	for _, c := range []struct {
		src2, want string
		gen        func(*model) error
	}{
		// A map of the package's structs is a leaf: read by hand, or refused.
		{"//wire:want an object\ntype Request struct {\n\tM map[string]T `json:\"m\"`\n}\n\n//wire:want a t\ntype T struct {\n\tA int `json:\"a\"`\n}",
			"fullattack.Request.M: no reader for map[string]fullattack.T: give the field a wire tag", decodeRoot("fullattack.Request")},
		{"type Result struct {\n\tM map[string]T `json:\"m\"`\n}\n\ntype T struct {\n\tA int `json:\"a\"`\n}",
			"fullattack.Result.M: no writer for map[string]fullattack.T", encodeRoot("fullattack.Result")},
		{"//wire:want an object\ntype Request struct {\n\tK *Kind `json:\"k\"`\n}\n\ntype Kind string",
			"fullattack.Request.K: a pointer to a string type is not supported", nil},
		{"//wire:want an object\ntype Request struct {\n\tS []Step `json:\"s\"`\n}\n\n//wire:want a step\ntype Step struct {\n\tA int `json:\"a\"`\n}",
			"fullattack.Step: a list in a request needs a //wire:list line", decodeRoot("fullattack.Request")},
		{"//wire:want an object\ntype Request struct {\n\tA int `json:\"a\"`\n}", "other.Request: not a type of the contract's packages",
			decodeRoot("other.Request")},
	} {
		m := modelOf(t, "")
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "types.go"), []byte("package fullattack\n\n"+c.src2), 0o644)
		err := m.load(dir, packages[1])
		if err == nil && c.gen != nil {
			err = c.gen(m)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s\n: got %v, want %q", c.src2, err, c.want)
		}
	}
}

func decodeRoot(name string) func(*model) error {
	return func(m *model) error {
		_, err := (&decoderGen{m: m, seen: map[string]bool{}, cases: map[string]*goType{}, readers: map[string]bool{}}).generate([]string{name}, nil)
		return err
	}
}

func encodeRoot(name string) func(*model) error {
	return func(m *model) error {
		_, err := (&encoderGen{m: m, seen: map[string]bool{}, uses: map[string]int{}, writers: map[string]bool{}}).generate([]string{name})
		return err
	}
}

// TestSecondPackage: a second package's types are read and written under their qualified Go
// names and their idents — a one-word name prefixed, a compound one kept — after the engine's;
// its list of a string type is read as strings; an answer whose first fields may all be left
// out is written with e.unlead.
func TestSecondPackage(t *testing.T) {
	m := modelOf2(t, "//wire:want an object\ntype Request struct {\n\tA int `json:\"a\"`\n}",
		"//wire:want an object\ntype Request struct {\n\tF []Feat `json:\"f\"`\n\tS []PricedStep `json:\"s\"`\n}\n\n"+
			"type Feat string\n\nconst FeatX Feat = \"x\"\n\n"+
			"//wire:want a step\n//wire:list an array of steps\ntype PricedStep struct {\n\tA string `json:\"a,omitempty\"`\n\tB int `json:\"b,omitempty\"`\n}\n\n"+
			"type Result struct {\n\tS []PricedStep `json:\"s\"`\n}")
	dec, err := (&decoderGen{m: m, seen: map[string]bool{}, cases: map[string]*goType{}, readers: map[string]bool{}}).generate(
		[]string{"fullattack.Request", "Request"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := (&encoderGen{m: m, seen: map[string]bool{}, uses: map[string]int{}, writers: map[string]bool{}}).generate([]string{"fullattack.Result"})
	if err != nil {
		t.Fatal(err)
	}
	code := string(dec) + string(enc)
	for _, want := range []string{
		"requestFields = []string{\"a\"}\nfullAttackRequestFields", // the engine's first
		"func (d *decoder) fullAttackRequest(p *fullattack.Request) *engine.Error",
		"case *[]fullattack.Feat:\nerr = d.featList(p, null)",
		"func (d *decoder) featList(p *[]fullattack.Feat, null bool) *engine.Error {",
		"*p = append(*p, \"\")\n*(*string)(&(*p)[i]), err = d.string()",
		"case *[]fullattack.PricedStep:\nerr = d.pricedStepList(p, null)",
		"func (e *encoder) fullAttackResult(p *fullattack.Result)",
		"at := len(e.b)\ne.raw(\"{\")\ne.optString(`,\"a\":`, q.A)\ne.optInt(`,\"b\":`, q.B)\ne.unlead(at)",
	} {
		if !strings.Contains(code, want) {
			t.Errorf("no %q in\n%s", want, code)
		}
	}
	dts, err := (&dtsGen{m: m, tmpl: `{{interface "fullattack.Request"}}` + "\n" + `{{interface "fullattack.PricedStep"}}` + "\n" +
		`export type Feat = {{union "fullattack.Feat"}};`, reached: map[string]bool{}, written: map[string]bool{}}).generate([]string{"fullattack.Request"})
	want := "\nexport interface FullAttackRequest {\n  f: \"x\"[];\n  s: PricedStep[];\n}\n\nexport interface PricedStep {\n  a?: string;\n  b?: number;\n}\nexport type Feat = \"x\";"
	if err != nil || string(dts) != want {
		t.Errorf("got %v\n%s\nwant\n%s", err, dts, want)
	}
}

// TestDeclarations: the TypeScript of a type, from its Go declaration.
func TestDeclarations(t *testing.T) {
	m := modelOf(t, "// Result is an answer.\n//\n// In Go, for Go only.\ntype Result struct {\n"+
		"\t// The first.\n\tA int `json:\"a\"`\n\tB *T `json:\"b\"` // for Go only\n\tC []T `json:\"c,omitempty\"`\n"+
		"\t//ts:type \"x\" | \"y\"\n\tD string `json:\"d\"`\n\tE string `json:\"-\"`\n\tf int\n}\n\n// T is a t.\ntype T struct {\n\tX [3]int32 `json:\"x\"`\n}")
	got, err := (&dtsGen{m: m, tmpl: `{{interface "Result"}}` + "\n" + `{{interface "T"}}` + "\nexport type CellTuple = number[];\n",
		reached: map[string]bool{}, written: map[string]bool{}}).generate([]string{"Result"})
	want := `/** An answer. */
export interface Result {
  /** The first. */
  a: number;
  b: T | null;
  c?: T[];
  d: "x" | "y";
}
/** A t. */
export interface T {
  x: CellTuple;
}
export type CellTuple = number[];
`
	if err != nil || string(got) != want {
		t.Errorf("got %v\n%s\nwant\n%s", err, got, want)
	}
}

// TestDeclarationsAs: {{interface "T" "TFields"}} writes T's fields under another name, for a
// template that declares T itself (a union); T must then be declared, and the name must be one.
func TestDeclarationsAs(t *testing.T) {
	m := modelOf(t, "// Result is an answer.\ntype Result struct {\n\tT T `json:\"t\"`\n}\n\n// T is a t.\ntype T struct {\n\tX int `json:\"x\"`\n}")
	gen := func(tmpl string) (string, error) {
		got, err := (&dtsGen{m: m, tmpl: tmpl, reached: map[string]bool{}, written: map[string]bool{}}).generate([]string{"Result"})
		return string(got), err
	}
	got, err := gen(`{{interface "Result"}}` + "\n" + `{{interface "T" "TFields"}}` + "\nexport type T = TFields & { x: 1 };\n")
	want := `/** An answer. */
export interface Result {
  t: T;
}
/** A t. */
export interface TFields {
  x: number;
}
export type T = TFields & { x: 1 };
`
	if err != nil || got != want {
		t.Errorf("got %v\n%s\nwant\n%s", err, got, want)
	}
	for tmpl, msg := range map[string]string{
		`{{interface "Result"}}` + "\n" + `{{interface "T" "TFields"}}`:         "Result.T: the TypeScript type T is not declared",
		`{{interface "Result"}}` + "\n" + `{{interface "T" "T Fields"}}`:        `"T Fields" is not a TypeScript name`,
		`{{interface "Result"}}` + "\n" + `{{interface "T" "TFields" "Other"}}`: "takes one name",
	} {
		if _, err := gen(tmpl); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: got %v, want %q", tmpl, err, msg)
		}
	}
}

// TestFieldDirectives: //wire:required makes the reader of a struct refuse it without those
// fields, and //wire:positive refuse those given as 0 (d.needed, their bits by their index
// among the struct's fields on the wire);
// //ts:optional makes a field written always optional in TypeScript. Neither shows in the
// field's documentation.
func TestFieldDirectives(t *testing.T) {
	m := modelOf(t, "//wire:want an object\ntype Request struct {\n\t//wire:required\n\tA int `json:\"a\"`\n\tG string `json:\"-\"`\n"+
		"\t// The b.\n\t//ts:optional\n\t//wire:positive\n\tB int `json:\"b\"`\n\t// The c.\n\t//wire:required\n\tC int `json:\"c\"`\n\tW []W `json:\"w\"`\n}\n\n"+
		"//wire:want a w\n//wire:list an array of ws\ntype W struct {\n\tX int `json:\"x\"`\n}")
	dec, err := (&decoderGen{m: m, seen: map[string]bool{}, cases: map[string]*goType{}, readers: map[string]bool{}}).generate([]string{"Request"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	code := string(dec)
	for _, want := range []string{
		"return d.needed(\"an object\", requestFields, []any{&p.A, &p.B, &p.C, &p.W}, 0b101, 0b10)",
		"err = d.object(\"a w\", wFields, []any{&q.X})",
	} {
		if !strings.Contains(code, want) {
			t.Errorf("no %q in\n%s", want, code)
		}
	}
	dts, err := (&dtsGen{m: m, tmpl: `{{interface "Request"}}` + "\n" + `{{interface "W"}}`, reached: map[string]bool{}, written: map[string]bool{}}).generate([]string{"Request"})
	want := "\nexport interface Request {\n  a: number;\n  /** The b. */\n  b?: number;\n  /** The c. */\n  c: number;\n  w: W[];\n}\n\nexport interface W {\n  x: number;\n}"
	if err != nil || string(dts) != want {
		t.Errorf("got %v\n%s\nwant\n%s", err, dts, want)
	}
}
