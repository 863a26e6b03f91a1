package wire

import (
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/core/fullattack"
)

// stubEngine replaces the engine's entry points for one test.
func stubEngine(t *testing.T, parse func(string, engine.Rules) (engine.Template, error), eval func(*engine.Request) (*engine.Result, error), move func(*engine.MoveRequest) (*engine.MoveResult, error)) {
	p, e, m, c, f := engineParse, engineEvaluate, engineMove, engineCover, engineFullAttack
	t.Cleanup(func() { engineParse, engineEvaluate, engineMove, engineCover, engineFullAttack = p, e, m, c, f })
	if parse != nil {
		engineParse = parse
	}
	if eval != nil {
		engineEvaluate = func(_ engine.Context, r *engine.Request) (*engine.Result, error) { return eval(r) }
	}
	if move != nil {
		engineMove = func(_ engine.Context, r *engine.MoveRequest) (*engine.MoveResult, error) { return move(r) }
	}
}

func TestPanicsBecomeInternalErrors(t *testing.T) {
	stubEngine(t,
		func(string, engine.Rules) (engine.Template, error) { panic("boom") },
		func(*engine.Request) (*engine.Result, error) { var m map[string]int; m["x"] = 1; return nil, nil },
		func(*engine.MoveRequest) (*engine.MoveResult, error) { panic(errors.New("kaput")) },
	)
	engineCover = func(*engine.CoverRequest) (*engine.CoverResult, error) { panic("cover boom") }
	engineFullAttack = func(*fullattack.Request) (*fullattack.Result, error) { panic("full attack boom") }
	for name, call := range map[string]func() ([]byte, *engine.Error){
		"parse":       func() ([]byte, *engine.Error) { return Parse([]byte(`{"text": "Cir3"}`)) },
		"evaluate":    func() ([]byte, *engine.Error) { return Evaluate([]byte(`{}`)) },
		"move":        func() ([]byte, *engine.Error) { return Move([]byte(`{}`)) },
		"cover":       func() ([]byte, *engine.Error) { return Cover([]byte(`{"attacker": {}, "target": {}}`)) },
		"full attack": func() ([]byte, *engine.Error) { return FullAttack([]byte(`{}`)) },
	} {
		out, err := call()
		if out != nil || err == nil || !Internal(err) || err.Code != engine.CodeBadRequest || Status(err) != 500 {
			t.Errorf("%s: %s %+v, want an internal error", name, out, err)
		}
		t.Logf("%s: %s", name, Error(err))
	}
}

func TestEngineErrorsPassThrough(t *testing.T) {
	rule := &engine.Error{Code: engine.CodeOutOfRange, Message: "origin is 25 squares away; the range is 20"}
	stubEngine(t,
		func(string, engine.Rules) (engine.Template, error) {
			return engine.Template{}, &engine.Error{Code: engine.CodeBadNotation, Message: "Con4: a cone needs a direction", At: 5}
		},
		func(*engine.Request) (*engine.Result, error) { return nil, rule },
		func(*engine.MoveRequest) (*engine.MoveResult, error) { return nil, errors.New("plain error") },
	)
	if _, err := Parse([]byte(`{"text": "Con4"}`)); err == nil || err.At != 5 || Status(err) != 400 ||
		string(Error(err)) != `{"error":{"code":"bad_notation","message":"Con4: a cone needs a direction","at":5}}` {
		t.Errorf("parse: %+v %s", err, Error(err))
	}
	if _, err := Evaluate([]byte(`{}`)); err != rule || Status(err) != 422 {
		t.Errorf("evaluate: %+v", err)
	}
	if _, err := Move([]byte(`{}`)); err == nil || err.Code != engine.CodeBadRequest || err.Message != "plain error" {
		t.Errorf("move: %+v", err)
	}
}

func TestDoorsEncode(t *testing.T) {
	tru := true
	stubEngine(t,
		func(s string, _ engine.Rules) (engine.Template, error) {
			return engine.Template{Text: s, Notation: "Cir3", Rules: "tdgs", Shape: "circle", Radius: 3, Height: 3, Close: &tru}, nil
		},
		func(*engine.Request) (*engine.Result, error) {
			return &engine.Result{Template: engine.Template{Notation: "Cir1"}, Cells: [][3]int32{{1, 2, 3}}, Count: 1}, nil
		},
		func(*engine.MoveRequest) (*engine.MoveResult, error) {
			return &engine.MoveResult{Path: [][3]int32{}, End: engine.Pos{X: 1}, Collision: &engine.Collision{Kind: engine.CollisionObstacle, With: "obstacle", At: [3]int32{2, 0, 0}, Left: 2}}, nil
		},
	)
	for _, c := range []struct {
		got  func() ([]byte, *engine.Error)
		want string
	}{
		{func() ([]byte, *engine.Error) { return Parse([]byte(`{"text":"cir3"}`)) },
			`{"text":"cir3","notation":"Cir3","rules":"tdgs","shape":"circle","radius":3,"height":3,"close":true}`},
		{func() ([]byte, *engine.Error) { return Evaluate([]byte(`{"template":"Cir1"}`)) },
			`{"template":{"notation":"Cir1","rules":"","shape":""},"origin":{"x":0,"y":0,"z":0},"originVisible":false,"cells":[[1,2,3]],"count":1,"targets":null}`},
		{func() ([]byte, *engine.Error) { return Move([]byte(`{"kind":"push"}`)) },
			`{"path":[],"end":{"x":1,"y":0,"z":0},"collision":{"kind":"obstacle","with":"obstacle","at":[2,0,0],"left":2}}`},
	} {
		out, err := c.got()
		if err != nil || string(out) != c.want {
			t.Errorf("got %s %v\nwant %s", out, err, c.want)
		}
	}
	stubEngine(t, nil, func(*engine.Request) (*engine.Result, error) { return nil, nil },
		func(*engine.MoveRequest) (*engine.MoveResult, error) { return nil, nil })
	if _, err := Evaluate([]byte(`{}`)); !Internal(err) {
		t.Errorf("nil result: %v", err)
	}
	if _, err := Move([]byte(`{}`)); !Internal(err) {
		t.Errorf("nil move result: %v", err)
	}
}

func TestDecodeErrorsComeFirst(t *testing.T) {
	called := false
	stubEngine(t, nil, func(*engine.Request) (*engine.Result, error) { called = true; return nil, nil }, nil)
	_, err := Evaluate([]byte(`{"tokens": 1}`))
	if called || err == nil || err.Message != "tokens: expected an array of tokens, got a number" || Status(err) != 400 {
		t.Errorf("called=%v err=%v", called, err)
	}
}

func TestErrorBody(t *testing.T) {
	for _, c := range []struct {
		err  *engine.Error
		want string
	}{
		{&engine.Error{Code: "out_of_range", Message: "origin is 25 squares away"}, `{"error":{"code":"out_of_range","message":"origin is 25 squares away"}}`},
		{&engine.Error{Code: "bad_notation", Message: `Lin5SW2: "w" or "h" <expected>`, At: 6}, `{"error":{"code":"bad_notation","message":"Lin5SW2: \"w\" or \"h\" <expected>","at":6}}`},
		// A full attack's step index is on the wire even when it is 0 (CONTRACT fullAttack).
		{&engine.Error{Code: "hand_busy", Message: "steps[0]: x", Step: true}, `{"error":{"code":"hand_busy","message":"steps[0]: x","at":0}}`},
		{&engine.Error{Code: "hand_busy", Message: "steps[2]: x", At: 2, Step: true}, `{"error":{"code":"hand_busy","message":"steps[2]: x","at":2}}`},
		{nil, `{"error":{"code":"bad_request","message":"internal error: no error to report"}}`},
	} {
		if got := string(Error(c.err)); got != c.want {
			t.Errorf("Error(%+v) = %s, want %s", c.err, got, c.want)
		}
	}
}

func TestStatus(t *testing.T) {
	for code, want := range map[engine.Code]int{
		engine.CodeBadNotation: 400, engine.CodeBadRequest: 400, engine.CodeTooLarge: 400,
		engine.CodeOutOfRange: 422, engine.CodeNoLineOfEffect: 422, engine.CodeInvalidWall: 422, engine.CodeNotStraight: 422,
		engine.CodeNoAttackLeft: 422, engine.CodeHandBusy: 422, engine.CodeNeedsQuickDraw: 422, engine.CodeNotRanged: 422,
		engine.CodeNotDeclared: 422,
	} {
		if got := Status(&engine.Error{Code: code}); got != want {
			t.Errorf("Status(%s) = %d, want %d", code, got, want)
		}
	}
	if Status(nil) != 200 || Status(InternalError("x")) != 500 {
		t.Error("Status(nil) or Status(internal)")
	}
	// Internal is a flag, not a message: the message a client sees is no proof of one.
	if e := (&engine.Error{Code: engine.CodeBadRequest, Message: "internal error: x"}); Internal(e) || Status(e) != 400 {
		t.Error("an unflagged error is internal by its message")
	}
}

// TestInternalErrorBody: an internal error is still sent as clients have always seen one.
func TestInternalErrorBody(t *testing.T) {
	e := InternalError("boom")
	if !Internal(e) || string(Error(e)) != `{"error":{"code":"bad_request","message":"internal error: boom"}}` {
		t.Errorf("%+v: %s", e, Error(e))
	}
	if r := Recovered("kaput"); !Internal(r) || r.Message != "internal error: kaput" {
		t.Errorf("Recovered: %+v", r)
	}
}

// TestImports keeps the browser module small: wire itself must not bring in encoding/json, fmt,
// reflect, os or net/http (make size, wasm/browser/doc.go); what the engine brings is the engine's
// business, and is logged.
func TestImports(t *testing.T) {
	list := func(args ...string) []string {
		cmd := exec.Command("go", append([]string{"list"}, args...)...)
		cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
		out, err := cmd.Output()
		if err != nil {
			t.Skipf("go list: %v", err)
		}
		return strings.Fields(string(out))
	}
	banned := map[string]bool{"encoding/json": true, "fmt": true, "reflect": true, "os": true, "net/http": true}
	for _, p := range list("-f", `{{join .Imports " "}}`, ".") {
		if banned[p] {
			t.Errorf("wire imports %s", p)
		}
	}
	engineDeps := map[string]bool{}
	for _, p := range list("-deps", "github.com/aoekit/aoekit/core/engine") {
		engineDeps[p] = true
	}
	for _, p := range list("-deps", ".") {
		switch {
		case banned[p] && engineDeps[p]:
			t.Logf("note: core/engine brings in %s, which the browser module pays for", p)
		case banned[p]:
			t.Errorf("wire brings in %s through one of its own imports", p)
		}
	}
}

// cancelled is a context that is done.
type cancelled struct{}

func (cancelled) Err() error { return errors.New("context canceled") }

func TestCoverAndContexts(t *testing.T) {
	out, err := Cover([]byte(`{"rules": "dnd35", "attack": "ranged", "attacker": {"id": "a", "x": 0, "y": 0, "size": "Large"},
		"target": {"id": "t", "x": 5, "y": 0}, "obstacles": [{"x": 3, "y": 0}]}`))
	if err != nil {
		t.Fatalf("cover: %+v", err)
	}
	res, _ := engine.Cover(&engine.CoverRequest{Rules: "dnd35", Attack: "ranged", Attacker: engine.Attacker{ID: "a", SizeName: "Large"},
		Target: engine.Token{ID: "t", X: 5}, Obstacles: []engine.Obstacle{{X: 3}}})
	if want := `{"grade":"` + string(res.Grade) + `"`; !strings.HasPrefix(string(out), want) {
		t.Errorf("cover: %s, want it to start %s", out, want)
	}
	if _, err := Cover([]byte(`{"attack": "melee", "attacker": {"x": 0}, "target": {"id": "t", "x": 5}}`)); err == nil || Status(err) != 422 {
		t.Errorf("melee out of range: %+v", err)
	}
	if _, err := Cover([]byte(`{"attack": "spell", "attacker": {"x": 0}, "target": {"id": "t", "x": 5}}`)); err == nil || Status(err) != 400 {
		t.Errorf("bad attack: %+v", err)
	}
	if _, err := Cover([]byte(`{"attack": "melee", "attacker": {"x": 0, "size": true}, "target": {"id": "t", "x": 1}}`)); err == nil ||
		err.Message != "attacker.size: expected a number or a size name, got a boolean" {
		t.Errorf("attacker size: %+v", err)
	}
	if _, err := EvaluateContext(cancelled{}, []byte(`{"template": "Cir3", "origin": {"x": 0, "y": 0}}`)); err == nil ||
		!strings.HasPrefix(err.Message, "cancelled: ") {
		t.Errorf("evaluate, cancelled: %+v", err)
	}
	if _, err := MoveContext(cancelled{}, []byte(`{"kind": "push", "distance": 3, "target": "g", "tokens": [{"id": "g", "x": 1}]}`)); err == nil ||
		!strings.HasPrefix(err.Message, "cancelled: ") {
		t.Errorf("move, cancelled: %+v", err)
	}
}
