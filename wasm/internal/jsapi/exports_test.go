package jsapi

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/wasm/wire"
)

// contractRequest is CONTRACT evaluate's example request, without origin and aim so that the
// cone projects from the caster as in the example's result.
const contractRequest = `{"rules": "tdgs", "template": "Con4NE",
 "caster": {"id": "hero", "x": 5, "y": 5, "z": 0, "size": 1, "height": 1, "facing": "N", "side": "party"},
 "range": 20,
 "tokens": [{"id": "g1", "x": 7, "y": 3, "z": 0, "size": 1, "height": 1, "side": "enemy", "prone": false}],
 "obstacles": [{"x": 6, "y": 3, "z": 0, "fill": 1}],
 "bounds": {"min": [0, 0, 0], "max": [59, 59, 0]},
 "targeting": {"trait": "none", "ids": [], "excludeCaster": false, "excludeCells": []},
 "resolve": {"stat": 7, "modifiers": 0, "luck": 0, "seed": 42, "defence": {"g1": 5}}}`

// TestCallWantsAnAnswer: a handler that answers neither bytes nor an error gets an internal
// error. (Panics go up to the export's recover: TestRegisterRecoversPanics, under js/wasm.)
func TestCallWantsAnAnswer(t *testing.T) {
	out, err := call(func([]byte) ([]byte, *engine.Error) { return nil, nil }, []byte("{}"))
	if out != nil || err == nil || err.Code != engine.CodeBadRequest || !wire.Internal(err) {
		t.Errorf("call = %q, %+v; want no answer and an internal error", out, err)
	}
}

func TestCallKeepsErrorsAndAnswers(t *testing.T) {
	want := &engine.Error{Code: engine.CodeBadNotation, Message: "x", At: 3}
	out, err := call(func([]byte) ([]byte, *engine.Error) { return []byte("junk"), want }, nil)
	if out != nil || err != want {
		t.Errorf("call = %q, %v; want nil, %v", out, err, want)
	}
	out, err = call(func(b []byte) ([]byte, *engine.Error) { return b, nil }, []byte("{}"))
	if string(out) != "{}" || err != nil {
		t.Errorf("call = %q, %v; want {}, nil", out, err)
	}
}

func TestPackCells(t *testing.T) {
	cells := [][3]int32{{0, 0, 0}, {1, -2, 3}, {math.MaxInt32, math.MinInt32, -1}, {engine.MaxCoord, -engine.MaxCoord, 7}}
	b := packCells(cells)
	if len(b) != 12*len(cells) {
		t.Fatalf("packCells = %d bytes", len(b))
	}
	for i, c := range cells {
		for j, v := range c {
			if got := int32(binary.LittleEndian.Uint32(b[12*i+4*j:])); got != v {
				t.Errorf("cell %d coordinate %d = %d, want %d", i, j, got, v)
			}
		}
	}
	if b := packCells(nil); b == nil || len(b) != 0 {
		t.Errorf("packCells(nil) = %v; want an empty answer", b)
	}
}

// evaluateCells must answer as wire.Evaluate does: the same cells, the same errors.
func TestEvaluateCellsMatchesEvaluate(t *testing.T) {
	for _, body := range []string{
		contractRequest,
		`{"template": "Cir2", "caster": {"id": "c", "x": 0, "y": 0, "z": 0}, "origin": {"x": 3, "y": 3, "z": 0}, "range": 6}`,
		`{"template": "Cir2", "caster": {"id": "c", "x": 0, "y": 0, "z": 0}, "origin": {"x": 30, "y": 3, "z": 0}, "range": 6}`,
		`{"template": "Con4", "caster": {"id": "c", "x": 0, "y": 0, "z": 0}}`,
		`{"template": 3}`, `{"template": `, `[]`, ``, `null`,
	} {
		packed, perr := evaluateCells([]byte(body), nil)
		js, jerr := wire.Evaluate([]byte(body))
		if !reflect.DeepEqual(perr, jerr) {
			t.Errorf("%.40s: evaluateCells error %+v, Evaluate error %+v", body, perr, jerr)
			continue
		}
		if jerr != nil {
			continue
		}
		var res struct{ Cells [][3]int32 }
		if err := json.Unmarshal(js, &res); err != nil {
			t.Fatal(err)
		}
		want := packCells(res.Cells)
		if string(packed) != string(want) {
			t.Errorf("%.40s: evaluateCells gives %d bytes, Evaluate %d cells", body, len(packed), len(res.Cells))
		}
	}
}

// unsplit reads an answer of split back into JSON, by the layout split's comment gives: the
// JSON's "cells":[] replaced by the packed cells written as JSON.
func unsplit(t *testing.T, b []byte) []byte {
	t.Helper()
	if len(b) < 4 {
		t.Fatalf("a split answer of %d bytes", len(b))
	}
	n := int(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
	if 4+n > len(b) {
		t.Fatalf("a split answer of %d bytes says its JSON is %d", len(b), n)
	}
	js, rest := string(b[4:4+n]), b[4+(n+3)/4*4:]
	for _, pad := range b[4+n : 4+(n+3)/4*4] {
		if pad != 0 {
			t.Fatalf("padding %v", b[4+n:4+(n+3)/4*4])
		}
	}
	if len(rest)%12 != 0 {
		t.Fatalf("%d bytes of cells", len(rest))
	}
	var cells strings.Builder
	cells.WriteString(`"cells":[`)
	for i := 0; i < len(rest); i += 12 {
		if i > 0 {
			cells.WriteString(",")
		}
		var c [3]int32
		for k := range c {
			p := rest[i+4*k:]
			c[k] = int32(uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24)
		}
		fmt.Fprintf(&cells, "[%d,%d,%d]", c[0], c[1], c[2])
	}
	cells.WriteString("]")
	if strings.Count(js, `"cells":[]`) != 1 {
		t.Fatalf("the JSON has %d empty cell lists: %s", strings.Count(js, `"cells":[]`), js)
	}
	return []byte(strings.Replace(js, `"cells":[]`, cells.String(), 1))
}

// evaluate answers wire.Evaluate's JSON, split: the same bytes once put back together, and the
// same errors.
func TestEvaluateSplitsEvaluate(t *testing.T) {
	for _, body := range []string{
		contractRequest,
		`{"template": "Cir2", "caster": {"id": "c", "x": 0, "y": 0, "z": 0}, "origin": {"x": 3, "y": 3, "z": 0}, "range": 6}`,
		`{"template": "Cir2", "caster": {"id": "c", "x": -7, "y": 0, "z": 0}, "origin": {"x": -3, "y": -3, "z": -2}, "range": 6}`,
		`{"template": "Cir2", "origin": {"x": 3, "y": 3, "z": 0}, "bounds": {"min": [90, 90, 0], "max": [91, 91, 0]}}`,
		`{"template": "Cir2", "caster": {"id": "c", "x": 0, "y": 0, "z": 0}, "origin": {"x": 30, "y": 3, "z": 0}, "range": 6}`,
		`{"template": "Con4", "caster": {"id": "c", "x": 0, "y": 0, "z": 0}}`,
		`{"template": 3}`, `{"template": `, `[]`, ``, `null`,
	} {
		got, gerr := evaluate([]byte(body), nil)
		js, jerr := wire.Evaluate([]byte(body))
		if !reflect.DeepEqual(gerr, jerr) {
			t.Errorf("%.40s: evaluate error %+v, wire.Evaluate error %+v", body, gerr, jerr)
			continue
		}
		if jerr == nil && string(unsplit(t, got)) != string(js) {
			t.Errorf("%.40s: split and put together\n%s\nwant\n%s", body, unsplit(t, got), js)
		}
	}
}

// The scene exports: ids from 1, an unknown or disposed id refused by name, evaluate's bytes
// those of wire.Evaluate with the board in the request, a panic in a scene's handler recovered.
func TestSceneExports(t *testing.T) {
	tbl := &SceneTable{m: map[int]*wire.Scene{}}
	id, err := callScene(tbl.create, 0, []byte(`{"tokens": [{"id": "a", "x": 2, "y": 0}]}`), nil)
	if err != nil || string(id) != "1" {
		t.Fatalf("create = %s, %v", id, err)
	}
	req := `{"template": "Cir1h1", "origin": {"x": 1, "y": 0, "z": 0}}`
	got, err := callScene(tbl.evaluate, 1, []byte(req), nil)
	want, _ := wire.Evaluate([]byte(`{"template": "Cir1h1", "origin": {"x": 1, "y": 0, "z": 0}, "tokens": [{"id": "a", "x": 2, "y": 0}]}`))
	if err != nil || string(unsplit(t, got)) != string(want) {
		t.Errorf("evaluate = %s, %v; want %s", unsplit(t, got), err, want)
	}
	if out, err := callScene(tbl.update, 1, []byte(`{"remove": ["a"]}`), nil); err != nil || string(out) != "null" {
		t.Errorf("update = %s, %v", out, err)
	}
	if out, err := callScene(tbl.dispose, 1, nil, nil); err != nil || string(out) != "null" {
		t.Errorf("dispose = %s, %v", out, err)
	}
	for _, h := range []SceneHandler{tbl.evaluate, tbl.evaluateCells, tbl.update, tbl.dispose} {
		if _, err := callScene(h, 1, []byte(req), nil); err == nil || err.Message != "scene 1: no such scene (disposed, or never made)" {
			t.Errorf("a disposed scene: %v", err)
		}
	}
	if id, _ := callScene(tbl.create, 0, []byte(`{}`), nil); string(id) != "2" {
		t.Errorf("the next id = %s; want 2", id)
	}
}
