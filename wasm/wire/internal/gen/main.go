// Command gen writes what the contract's Go types determine: wasm/wire's decoders and encoders
// (codec_gen.go) and the package's TypeScript declarations (web/index.d.ts, from
// index.d.ts.tmpl). `go generate ./wasm/wire` runs it. What it reads of core/engine and
// core/fullattack (packages) — json and wire tags, doc comments, //wire: and //ts:type lines —
// is listed in core/engine/types.go. The engine's types keep their names; another package's are
// qualified in the generator (fullattack.Request) and prefixed in TypeScript and in wire's
// identifiers when their name is one word (FullAttackRequest, d.fullAttackRequest; identOf).
//
// It runs natively at generate time only: what it writes imports neither reflect nor fmt nor
// encoding/json, and is shaped by the size of the browser module (make size):
//
//   - The decoders read an object through a table of its field names and a list of
//     destinations, pointers to its fields, which one type switch (wire's value) reads by their
//     type, as wire's hand-written decoder did. A struct read in one place is read there; one
//     read in more has a reader method. A polymorphic field (wire:"name") is read by the
//     hand-written d.nameField, value's case for its destination's type.
//   - The encoders are one method per answer type that is written in more than one place or by
//     wire itself, the others written inline where they are, with neighbouring constant bytes
//     merged (`,"roll":{"dice":`) and through the encoder's few out-of-line helpers.
//   - web/index.d.ts is the template with {{interface "Name"}} filled in from the types and
//     their doc comments; every type the requests and answers reach must be in it.
package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"strings"
)

// The roots: the types wire decodes (with reader methods for its entry points, and a case of
// value for its hand-written readers: a request's template object), encodes, and that
// web/index.d.ts declares; with all they reach.
// (A full attack's held item is a case of value for the hand-written reader of its holding.)
var (
	decodeRoots = []string{"Request", "MoveRequest", "CoverRequest", "fullattack.Request", "Board", "SceneEdit"}
	valueRoots  = []string{"Template", "fullattack.Item"}
	encodeRoots = []string{"Result", "Template", "MoveResult", "CoverResult", "VersionInfo", "Error", "fullattack.Result"}
	tsRoots     = []string{"Request", "MoveRequest", "CoverRequest", "Result", "Template", "MoveResult", "CoverResult", "VersionInfo",
		"fullattack.Request", "fullattack.Result", "Board", "SceneEdit"}
)

// outputs are the generated files, by their path in the module.
var outputs = []string{"wasm/wire/codec_gen.go", "web/index.d.ts"}

// generate returns the generated files, by their path in the module whose root is root.
func generate(root string) (map[string][]byte, error) {
	m, err := loadModel(filepath.Join(root, filepath.FromSlash(packages[0].dir)))
	if err != nil {
		return nil, err
	}
	var imports []string
	for _, p := range packages {
		if p.qual != "" {
			if err := m.load(filepath.Join(root, filepath.FromSlash(p.dir)), p); err != nil {
				return nil, err
			}
		}
		imports = append(imports, `"github.com/aoekit/aoekit/`+p.dir+`"`)
	}
	dec, err := (&decoderGen{m: m, seen: map[string]bool{}, cases: map[string]*goType{}, readers: map[string]bool{}}).generate(decodeRoots, valueRoots)
	if err != nil {
		return nil, fmt.Errorf("decoders: %w", err)
	}
	enc, err := (&encoderGen{m: m, seen: map[string]bool{}, uses: map[string]int{}, writers: map[string]bool{}}).generate(encodeRoots)
	if err != nil {
		return nil, fmt.Errorf("encoders: %w", err)
	}
	src := append([]byte(header+"package wire\n\nimport (\n"+strings.Join(imports, "\n")+"\n)\n\n"), dec...)
	code, err := format.Source(append(src, enc...))
	if err != nil {
		return nil, err
	}
	dts, err := (&dtsGen{m: m, tmpl: dtsTemplate, reached: map[string]bool{}, written: map[string]bool{}}).generate(tsRoots)
	if err != nil {
		return nil, fmt.Errorf("index.d.ts: %w", err)
	}
	return map[string][]byte{outputs[0]: code, outputs[1]: dts}, nil
}

// moduleRoot is the directory of the go.mod above the working directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run() error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	files, err := generate(root)
	if err != nil {
		return err
	}
	for _, name := range outputs {
		path := filepath.Join(root, filepath.FromSlash(name))
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, files[name]) {
			continue // unchanged: keep its time, for make
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}
