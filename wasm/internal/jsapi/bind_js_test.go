//go:build js && wasm

package jsapi

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
func registered(t *testing.T, list []Export) js.Value {
	t.Helper()
	o := js.Global().Get("Object").New()
	Register(o, list)
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
	o := registered(t, Exports)
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
	o := registered(t, Exports)
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
	o := registered(t, []Export{
		{Name: "boom", Handle: func([]byte) ([]byte, *engine.Error) { nilMap[1] = 1; return nil, nil }},
		{Name: "boomPacked", Handle: func([]byte) ([]byte, *engine.Error) { panic("packed") }, Packed: true},
		{Name: "boomError", Handle: func([]byte) ([]byte, *engine.Error) { panic(errors.New("boom")) }},
		{Name: "boomIndex", Handle: func(b []byte) ([]byte, *engine.Error) { return []byte{byte(list[len(b)])}, nil }},
		{Name: "boomValue", Handle: func([]byte) ([]byte, *engine.Error) { panic(42) }},
		{Name: "boomNil", Handle: func([]byte) ([]byte, *engine.Error) { var e *engine.Error; return nil, &engine.Error{Code: e.Code} }},
		{Name: "boomScene", Scene: func(int, []byte, []byte) ([]byte, *engine.Error) { panic("scene") }},
		{Name: "version", Handle: func([]byte) ([]byte, *engine.Error) { return wire.Version(), nil }},
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
	o := registered(t, Exports)
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

// TestRegisterRawBindsAlike: a module's own functions (the overlay's) are bound by the same
// binder: their answer as it is, their error as an Error with code, message, field and at, a
// panic recovered into an internal error; and the module goes on answering.
func TestRegisterRawBindsAlike(t *testing.T) {
	o := js.Global().Get("Object").New()
	var nilMap map[int]int
	RegisterRaw(o, []RawExport{
		{Name: "sum", Fn: func(args []js.Value) (any, *engine.Error) { return args[0].Int() + args[1].Int(), nil }},
		{Name: "refuse", Fn: func([]js.Value) (any, *engine.Error) {
			return nil, &engine.Error{Code: engine.CodeBadNotation, Message: "no", Field: "template", At: 3}
		}},
		{Name: "boom", Fn: func([]js.Value) (any, *engine.Error) { nilMap[1] = 1; return nil, nil }},
		{Name: "boomDOM", Fn: func([]js.Value) (any, *engine.Error) { return js.Global().Get("nothing").Get("here"), nil }},
	})
	for i := 0; i < 20; i++ {
		if v := o.Call("sum", 2, 3); v.Type() != js.TypeNumber || v.Int() != 5 {
			t.Fatalf("sum = %v", v)
		}
		v := o.Call("refuse")
		checkError(t, "refuse", v, engine.CodeBadNotation, 3)
		if v.Get("field").String() != "template" || v.Get("message").String() != "no" {
			t.Errorf("refuse: field %v, message %v", v.Get("field"), v.Get("message"))
		}
		for _, name := range []string{"boom", "boomDOM"} {
			v := o.Call(name)
			checkError(t, name, v, engine.CodeBadRequest, 0)
			if msg := v.Get("message").String(); !strings.HasPrefix(msg, "internal error: ") {
				t.Fatalf("%s: message %q; want an internal error", name, msg)
			}
		}
	}
	if !o.Get("maxBody").IsUndefined() {
		t.Error("RegisterRaw set maxBody: Register does")
	}
}
