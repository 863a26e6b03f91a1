//go:build js && wasm

package main

import (
	"encoding/json"
	"errors"
	"strings"
	"syscall/js"
	"testing"

	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/wasm/wire"
)

// registered returns a fresh object with list registered on it, as the loader receives it.
func registered(t *testing.T, list []export) js.Value {
	t.Helper()
	o := js.Global().Get("Object").New()
	register(o, list)
	return o
}

// checkError checks that v is a JavaScript Error with code, a message and, when at > 0, at;
// at 0 wants no at property at all.
func checkError(t *testing.T, what string, v js.Value, code engine.Code, at int) {
	t.Helper()
	if !v.InstanceOf(js.Global().Get("Error")) {
		t.Errorf("%s = %v; want an Error", what, v)
		return
	}
	if got := v.Get("code"); got.Type() != js.TypeString || got.String() != string(code) {
		t.Errorf("%s: code = %v; want %q", what, got, code)
	}
	if msg := v.Get("message").String(); msg == "" {
		t.Errorf("%s: empty message", what)
	}
	switch got := v.Get("at"); {
	case at == 0 && !got.IsUndefined():
		t.Errorf("%s: at = %v; want none", what, got)
	case at > 0 && (got.Type() != js.TypeNumber || got.Int() != at):
		t.Errorf("%s: at = %v; want %d", what, got, at)
	}
}

func TestRegisterAnswersJSON(t *testing.T) {
	o := registered(t, exports)
	v := o.Call("parse", `{"text": "cir3"}`)
	if v.Type() != js.TypeString {
		t.Fatalf("parse = %v; want a string", v)
	}
	want, _ := wire.Parse([]byte(`{"text": "cir3"}`))
	if v.String() != string(want) {
		t.Errorf("parse = %s; want %s", v.String(), want)
	}
	if v := o.Call("version"); v.String() != string(wire.Version()) {
		t.Errorf("version = %v; want %s", v, wire.Version())
	}
}

func TestRegisterConvertsErrors(t *testing.T) {
	o := registered(t, exports)
	checkError(t, "parse Con4", o.Call("parse", `{"text": "Con4"}`), engine.CodeBadNotation, 5)
	checkError(t, "evaluate {}", o.Call("evaluate", `{}`), engine.CodeBadRequest, 0)
	checkError(t, "evaluate malformed", o.Call("evaluate", `{"template": `), engine.CodeBadRequest, 0)
	checkError(t, "move without arguments", o.Call("move"), engine.CodeBadRequest, 0)
	for _, arg := range []any{42, true, nil, map[string]any{"template": "Cir3"}, []any{"{}"}, js.Global()} {
		checkError(t, "evaluate of a non-string", o.Call("evaluate", arg), engine.CodeBadRequest, 0)
	}
	// A full attack's error about a step has at, its index, even 0; one about the request has none.
	checkError(t, "fullAttack step 1", o.Call("fullAttack", `{"bab": 1, "steps": [{"attack": "main"}, {"attack": "main"}]}`),
		engine.CodeNoAttackLeft, 1)
	checkError(t, "fullAttack bab", o.Call("fullAttack", `{"bab": 99}`), engine.CodeBadRequest, 0)
	if v := o.Call("fullAttack", `{"steps": [{"attack": "main", "extra": true}]}`); v.Get("code").String() != string(engine.CodeNotDeclared) ||
		v.Get("at").Type() != js.TypeNumber || v.Get("at").Int() != 0 {
		t.Errorf("fullAttack step 0: code %v, at %v; want not_declared at 0", v.Get("code"), v.Get("at"))
	}
	// The message is the engine's, as every door gives it.
	_, err := wire.Parse([]byte(`{"text": "Con4"}`))
	if got := o.Call("parse", `{"text": "Con4"}`).Get("message").String(); got != err.Message {
		t.Errorf("message = %q; want %q", got, err.Message)
	}
}

// TestRegisterRecoversPanics: a panic of any kind in a handler, plain, packed or a scene's, is
// recovered by the export's one recover (binder.bind) into an internal error, and the module
// goes on answering.
func TestRegisterRecoversPanics(t *testing.T) {
	var nilMap map[int]int
	var list []int
	o := registered(t, []export{
		{name: "boom", handle: func([]byte) ([]byte, *engine.Error) { nilMap[1] = 1; return nil, nil }},
		{name: "boomPacked", handle: func([]byte) ([]byte, *engine.Error) { panic("packed") }, packed: true},
		{name: "boomError", handle: func([]byte) ([]byte, *engine.Error) { panic(errors.New("boom")) }},
		{name: "boomIndex", handle: func(b []byte) ([]byte, *engine.Error) { return []byte{byte(list[len(b)])}, nil }},
		{name: "boomValue", handle: func([]byte) ([]byte, *engine.Error) { panic(42) }},
		{name: "boomNil", handle: func([]byte) ([]byte, *engine.Error) { var e *engine.Error; return nil, &engine.Error{Code: e.Code} }},
		{name: "boomScene", scene: func(int, []byte, []byte) ([]byte, *engine.Error) { panic("scene") }},
		{name: "version", handle: func([]byte) ([]byte, *engine.Error) { return wire.Version(), nil }},
	})
	for i := 0; i < 100; i++ {
		for _, name := range []string{"boom", "boomPacked", "boomError", "boomIndex", "boomValue", "boomNil", "boomScene"} {
			var v js.Value
			if name == "boomScene" {
				v = o.Call(name, 1, "{}")
			} else {
				v = o.Call(name, "{}")
			}
			checkError(t, name, v, engine.CodeBadRequest, 0)
			if msg := v.Get("message").String(); !strings.HasPrefix(msg, "internal error: ") {
				t.Fatalf("%s: message %q; want an internal error", name, msg)
			}
		}
		if v := o.Call("version"); v.Type() != js.TypeString {
			t.Fatalf("version after a panic = %v", v)
		}
	}
}

func TestRegisterPacksCells(t *testing.T) {
	o := registered(t, exports)
	v := o.Call("evaluateCells", contractRequest)
	if !v.InstanceOf(js.Global().Get("Uint8Array")) {
		t.Fatalf("evaluateCells = %v; want a Uint8Array", v)
	}
	out, err := wire.Evaluate([]byte(contractRequest))
	if err != nil {
		t.Fatal(err)
	}
	var res struct{ Cells [][3]int32 }
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	want := packCells(res.Cells)
	got := make([]byte, v.Length())
	js.CopyBytesToGo(got, v)
	if len(res.Cells) == 0 || string(got) != string(want) {
		t.Errorf("evaluateCells gives %d bytes; want %d cells packed", len(got), len(res.Cells))
	}
	checkError(t, "evaluateCells {}", o.Call("evaluateCells", `{}`), engine.CodeBadRequest, 0)
}

func TestTargetIsTheHandshakeObject(t *testing.T) {
	g := js.Global()
	defer g.Delete(handshake)
	defer g.Delete("aoekit")
	o := g.Get("Object").New()
	g.Set(handshake, o)
	if !target().Equal(o) || !g.Get("aoekit").IsUndefined() {
		t.Error("target() did not return the handshake object")
	}
	g.Delete(handshake)
	if t2 := target(); t2.Type() != js.TypeObject || !g.Get("aoekit").Equal(t2) {
		t.Error("without a handshake, target() is not a new globalThis.aoekit")
	}
}
