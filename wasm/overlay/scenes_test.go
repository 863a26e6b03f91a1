package main

import (
	"encoding/binary"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/wasm/internal/jsapi"
	"github.com/aoekit/aoekit/wasm/wire"
)

// packed is obstacles as an Int32Array's bytes: x, y, z, fill quads.
func packed(quads ...[4]int32) []byte {
	b := make([]byte, 0, 16*len(quads))
	for _, q := range quads {
		for _, v := range q {
			b = binary.LittleEndian.AppendUint32(b, uint32(v))
		}
	}
	return b
}

// sceneCall calls the scene function name of the overlay's exports (jsapi's, followed).
func sceneCall(t *testing.T, name string, id int, body string, bytes []byte) ([]byte, *engine.Error) {
	t.Helper()
	for _, e := range exportsFollowed(jsapi.Exports) {
		if e.Name == name {
			return e.Scene(id, []byte(body), bytes)
		}
	}
	t.Fatalf("no export %s", name)
	return nil, nil
}

// The overlay registers jsapi's exports, the engine's functions of aoekit.wasm, with the scene
// functions that change a board followed: the same list, in the same order, and every answer
// the same bytes as jsapi's own function gives.
func TestExportsFollowed(t *testing.T) {
	mine := exportsFollowed(jsapi.Exports)
	if len(mine) != len(jsapi.Exports) {
		t.Fatalf("%d exports, jsapi has %d", len(mine), len(jsapi.Exports))
	}
	for i, e := range mine {
		j := jsapi.Exports[i]
		if e.Name != j.Name || e.Packed != j.Packed || (e.Handle == nil) != (j.Handle == nil) || (e.Board == nil) != (j.Board == nil) || (e.Scene == nil) != (j.Scene == nil) {
			t.Errorf("export %d: %+v, jsapi's %+v", i, e, j)
		}
	}
	board := `{"tokens": [{"id": "orc", "x": 6, "y": 5}], "obstacles": [{"x": 6, "y": 4, "fill": 0.5}]}`
	a, _ := sceneCall(t, "sceneNew", 0, board, nil)
	id, err := strconv.Atoi(string(a))
	if err != nil || boards[id] == nil {
		t.Fatalf("sceneNew = %s: no board kept", a)
	}
	for _, name := range []string{"sceneEvaluate", "sceneEvaluateCells"} {
		for _, body := range []string{`{"template": "Cir2", "origin": {"x": 6, "y": 5}}`, `{"template": "Cir2", "tokens": []}`, `{"template": `} {
			var theirs jsapi.SceneHandler
			for _, e := range jsapi.Exports {
				if e.Name == name {
					theirs = e.Scene
				}
			}
			got, gerr := sceneCall(t, name, id, body, nil)
			want, werr := theirs(id, []byte(body), nil)
			if string(got) != string(want) || !reflect.DeepEqual(gerr, werr) {
				t.Errorf("%s %s: %s %v, jsapi's %s %v", name, body, got, gerr, want, werr)
			}
		}
	}
	if _, err := sceneCall(t, "sceneUpdate", id, `{"remove": ["nobody"]}`, nil); err == nil {
		t.Error("a refused edit was accepted")
	}
	if out, err := sceneCall(t, "sceneDispose", id, "", nil); err != nil || string(out) != "null" || boards[id] != nil {
		t.Errorf("sceneDispose = %s %v; board kept: %v", out, err, boards[id] != nil)
	}
	if _, err := sceneCall(t, "sceneNew", 0, `{"tokens": [{"id": "a"}, {"id": "a"}]}`, nil); err == nil {
		t.Error("a bad board was accepted")
	}
}

// The board a draw places follows the engine's: after each edit, accepted or refused —
// moves, removals, additions, the same id removed and added, cells cleared and made solid
// (packed too), walls replaced or left — its tokens, walls and obstacles are those of an
// engine.Scene given the same board and edits (Board).
func TestBoardFollowsEdits(t *testing.T) {
	body := `{"tokens": [{"id": "orc", "x": 6, "y": 5}, {"id": "elf", "x": 2, "y": 2, "size": "Large"}],
	  "walls": [{"a": [8, 0], "b": [8, 9]}], "obstacles": [{"x": 1, "y": 9, "fill": 0.5}, {"x": 1, "y": 2, "z": 1}]}`
	pk := packed([4]int32{5, 5, 0, 400}, [4]int32{0, 7, 0, 100})
	out, err := sceneCall(t, "sceneNew", 0, body, pk)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := strconv.Atoi(string(out))
	b := boards[id]
	in, _ := wire.DecodeBoard([]byte(body))
	more, _ := wire.UnpackObstacles(pk)
	in.Obstacles = append(in.Obstacles, more...)
	es, eerr := engine.NewScene(in)
	if eerr != nil {
		t.Fatal(eerr)
	}
	empty := func(a, b any) bool { return reflect.ValueOf(a).Len() == 0 && reflect.ValueOf(b).Len() == 0 }
	check := func(what string) {
		t.Helper()
		want := es.Board()
		if !reflect.DeepEqual(b.tokens, want.Tokens) && !empty(b.tokens, want.Tokens) {
			t.Errorf("%s: tokens %+v, the engine's %+v", what, b.tokens, want.Tokens)
		}
		if !reflect.DeepEqual(b.walls, want.Walls) && !empty(b.walls, want.Walls) {
			t.Errorf("%s: walls %+v, the engine's %+v", what, b.walls, want.Walls)
		}
		if o := b.Obstacles(); !reflect.DeepEqual(o, want.Obstacles) && !empty(o, want.Obstacles) {
			t.Errorf("%s: obstacles %+v, the engine's %+v", what, o, want.Obstacles)
		}
	}
	check("made")
	accepted := 0
	for _, e := range []struct {
		body   string
		packed []byte
	}{
		{`{"tokens": [{"id": "orc", "x": 9, "y": 9}, {"id": "troll", "x": 1, "y": 1}], "walls": []}`, packed([4]int32{3, 3, 0, 200})},
		{`{"remove": ["nobody"]}`, nil},
		{`{"remove": ["orc"], "tokens": [{"id": "orc", "x": 0, "y": 0, "side": "enemy"}]}`, nil},
		{`{"tokens": [{"id": "elf", "x": 4, "y": 4, "height": 3, "facing": "SW", "prone": true}], "clear": [[3, 3, 0], [1, 2, 1], [40, 40, 0]]}`, nil},
		{`{"tokens": [{"id": "orc", "x": 4, "y": 4}]}`, nil},
		{`{"walls": [{"a": [1, 1], "b": [1, 5], "open": true}], "obstacles": [{"x": 7, "y": 7}, {"x": 0, "y": 7, "fill": 0.75}]}`, nil},
		{`{"remove": ["troll", "elf"], "noBounds": true}`, nil},
		{`{"tokens": [{"id": "x", "x": "1"}]}`, nil},
		{`{"clear": [[0, 7, 0]], "obstacles": [{"x": 0, "y": 7, "fill": 0.25}]}`, packed([4]int32{9, 0, 0, 0})},
	} {
		_, err := sceneCall(t, "sceneUpdate", id, e.body, e.packed)
		if err == nil {
			accepted++
			ed, _ := wire.DecodeSceneEdit([]byte(e.body))
			more, _ := wire.UnpackObstacles(e.packed)
			ed.Obstacles = append(ed.Obstacles, more...)
			if uerr := es.Update(ed); uerr != nil {
				t.Fatalf("%s: the overlay's scene took it, the engine refuses: %v", e.body, uerr)
			}
		}
		check(e.body)
	}
	if accepted < 5 || accepted > 7 {
		t.Errorf("%d edits accepted: the cases test both", accepted)
	}
	if len(b.tokens) != 1 || b.tokens[0].ID != "orc" || len(b.walls) != 1 {
		t.Errorf("after the edits: %+v, %+v", b.tokens, b.walls)
	}
}

// Drawing a scene's request draws what drawing the whole request (the board in it) draws: the
// same display list, under every view; and leaving out the tokens a view does not draw changes
// nothing drawn.
func TestSceneDrawsAsTheRequest(t *testing.T) {
	board := `"tokens": [{"id": "g1", "x": 4, "y": 4, "side": "enemy"}, {"id": "g2", "x": 7, "y": 5, "side": "party"}, {"id": "far", "x": 15, "y": 2, "z": 1}],
	 "obstacles": [{"x": 6, "y": 5, "z": 0, "fill": 1}, {"x": 3, "y": 7, "z": 0, "fill": 0.5}],
	 "walls": [{"a": [9, 2], "b": [9, 8]}, {"a": [2, 3], "b": [2, 5], "open": true}]`
	frame := `"template": "Cir2h1", "caster": {"id": "me", "x": 5, "y": 9, "facing": "E"}, "origin": {"x": 5, "y": 5}, "range": 10, "resolve": {"stat": 5, "seed": 3}`
	req, err := wire.DecodeRequest([]byte(`{` + frame + `, ` + board + `}`))
	if err != nil {
		t.Fatal(err)
	}
	res, eerr := engine.Evaluate(req)
	if eerr != nil {
		t.Fatal(eerr)
	}
	whole := sceneOf(req, res)
	out, err := sceneCall(t, "sceneNew", 0, `{`+board+`}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := strconv.Atoi(string(out))
	sreq, sres, b, err := evaluateOn(id, []byte(`{`+frame+`}`))
	if err != nil {
		t.Fatal(err)
	}
	if string(wire.EncodeResult(sres)) != string(wire.EncodeResult(res)) {
		t.Fatal("the scene's answer is not the request's")
	}
	fromScene := sceneOn(sreq.Caster, b.tokens, b.walls, b.Obstacles(), sres, nil)
	pal := defaultPalette()
	for _, v := range []view{
		defaultView(),
		{selected: "g2", lines: linesAll, tokens: tokensDisc, labels: true, obstacles: true, walls: true, badges: true, outline: true, unlisted: true, otherLevels: 1},
		{focus: "g1", tokens: tokensDisc, labels: true, badges: true, unlisted: false, otherLevels: 0.3},
	} {
		a := plan(whole, v, &pal, 32, geometry{cell: 32}.frame(800, 600))
		c := plan(fromScene, v, &pal, 32, geometry{cell: 32}.frame(800, 600))
		if !reflect.DeepEqual(a, c) || len(a) < 10 {
			t.Errorf("view %+v: %d ops drawn from the scene, %d from the request", v, len(c), len(a))
		}
		d := plan(sceneOn(sreq.Caster, b.tokens, b.walls, b.Obstacles(), sres, &v), v, &pal, 32, geometry{cell: 32}.frame(800, 600))
		if !reflect.DeepEqual(a, d) {
			t.Errorf("view %+v: %d ops drawn from the scene's shown tokens, %d from all", v, len(d), len(a))
		}
	}
	if _, _, _, err := evaluateOn(id+1000, []byte(`{`+frame+`}`)); err == nil || err.Message != "scene "+strconv.Itoa(id+1000)+": no such scene (disposed, or never made)" {
		t.Errorf("an unknown scene: %v", err)
	}
}

// BenchmarkFollowRemove: issue 29's worst case for the overlay's bookkeeping, 140 000 ids
// removed from a board of 10 000 tokens, then every token put back (23 s and 2.1 s when each
// id scanned the list).
func BenchmarkFollowRemove(b *testing.B) {
	var tokens, remove, back strings.Builder
	for i := range 10000 {
		if i > 0 {
			tokens.WriteByte(',')
		}
		tokens.WriteString(`{"id": "t` + strconv.Itoa(i) + `", "x": ` + strconv.Itoa(i%100) + `, "y": ` + strconv.Itoa(i/100) + `}`)
	}
	for i := range 140000 {
		if i > 0 {
			remove.WriteByte(',')
		}
		remove.WriteString(`"t` + strconv.Itoa(i) + `"`)
	}
	board := []byte(`{"tokens": [` + tokens.String() + `]}`)
	back.WriteString(`{"tokens": [` + tokens.String() + `]}`)
	edit := []byte(`{"remove": [` + remove.String() + `]}`)
	for b.Loop() {
		bd := newBoard(board, nil)
		bd.follow(edit, nil)
		bd.follow([]byte(back.String()), nil)
		if len(bd.tokens) != 10000 {
			b.Fatalf("%d tokens", len(bd.tokens))
		}
	}
}

// sceneID reads what strconv.Atoi reads of digits alone, and nothing else.
func TestSceneID(t *testing.T) {
	for _, s := range []string{"1", "7", "42", "1000000", "999999999999999", "0", "", "-1", "+1", "1.0", "1e3", " 1", "1 ", "x", "1000000000000000", "\"1\""} {
		got, ok := sceneID([]byte(s))
		want, err := strconv.Atoi(s)
		wantOK := err == nil && want >= 0 && len(s) <= 15 && s[0] != '+' && s[0] != '-'
		if ok != wantOK || ok && got != want {
			t.Errorf("sceneID(%q) = %d, %v; want %d, %v", s, got, ok, want, wantOK)
		}
	}
}
