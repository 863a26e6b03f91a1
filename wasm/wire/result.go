package wire

import "github.com/aoekit/aoekit/core/engine"

// The encoders below follow the engine types' declarations field by field — order, omitempty,
// nil slices as null and empty ones as [] — as encoding/json would. An engine type that gains a
// field needs it here too; the tests fill every field of every type and compare.
//
// They write through a few small helpers that are never inlined: in WebAssembly an inlined
// append costs some hundred bytes at every call site, a call a few dozen (see wasm/browser).

// An encoder appends to b; ok turns false on a number JSON cannot carry (NaN, ±Inf), where
// encoding/json fails too.
type encoder struct {
	b  []byte
	ok bool
}

// raw writes s as it is.
//
//go:noinline
func (e *encoder) raw(s string) { e.b = append(e.b, s...) }

// str writes name (the field's key with its punctuation, such as `,"id":`) and v as a JSON string.
//
//go:noinline
func (e *encoder) str(name, v string) { e.b = appendString(append(e.b, name...), v) }

// int writes name and v.
//
//go:noinline
func (e *encoder) int(name string, v int) { e.b = appendInt(append(e.b, name...), v) }

// bool writes name and v.
//
//go:noinline
func (e *encoder) bool(name string, v bool) { e.b = appendBool(append(e.b, name...), v) }

// float writes name and f.
//
//go:noinline
func (e *encoder) float(name string, f float64) {
	var good bool
	if e.b, good = appendFloat(append(e.b, name...), f); !good {
		e.ok = false
	}
}

// optString writes name and v unless v is empty (omitempty).
func (e *encoder) optString(name, v string) {
	if v != "" {
		e.str(name, v)
	}
}

// optInt writes name and v unless v is 0 (omitempty).
func (e *encoder) optInt(name string, v int) {
	if v != 0 {
		e.int(name, v)
	}
}

// cell writes name and [x,y,z]. It writes the bytes itself, not through the helpers: results
// hold thousands of cells.
func (e *encoder) cell(name string, c [3]int32) {
	b := append(e.b, name...)
	b = appendInt(append(b, '['), int(c[0]))
	b = appendInt(append(b, ','), int(c[1]))
	b = appendInt(append(b, ','), int(c[2]))
	e.b = append(b, ']')
}

// point writes name and [x,y,z].
func (e *encoder) point(name string, p [3]float64) {
	e.raw(name)
	sep := "["
	for _, v := range p {
		e.float(sep, v)
		sep = ","
	}
	e.raw("]")
}

// cells writes name and a list of cells (null when nil).
func (e *encoder) cells(name string, cells [][3]int32) {
	if cells == nil {
		e.raw(name)
		e.raw("null")
		return
	}
	e.raw(name)
	sep := "["
	for _, c := range cells {
		e.cell(sep, c)
		sep = ","
	}
	if len(cells) == 0 {
		e.raw("[")
	}
	e.raw("]")
}

func (e *encoder) pos(name string, p engine.Pos) {
	e.raw(name)
	e.int(`{"x":`, p.X)
	e.int(`,"y":`, p.Y)
	e.int(`,"z":`, p.Z)
	e.raw("}")
}

func (e *encoder) template(name string, t *engine.Template) {
	e.raw(name)
	if t.Text != "" {
		e.str(`{"text":`, t.Text)
		e.raw(",")
	} else {
		e.raw("{")
	}
	e.str(`"notation":`, t.Notation)
	e.str(`,"rules":`, t.Rules)
	e.str(`,"shape":`, t.Shape)
	e.optInt(`,"radius":`, t.Radius)
	e.optInt(`,"side":`, t.Side)
	e.optInt(`,"size":`, t.Size)
	e.optInt(`,"length":`, t.Length)
	e.optString(`,"direction":`, t.Direction)
	e.optInt(`,"width":`, t.Width)
	e.optInt(`,"height":`, t.Height)
	e.optInt(`,"squares":`, t.Squares)
	e.optInt(`,"within":`, t.Within)
	if t.Close != nil {
		e.bool(`,"close":`, *t.Close)
	}
	e.optString(`,"orientation":`, t.Orientation)
	e.raw("}")
}

func (e *encoder) result(r *engine.Result) {
	e.template(`{"template":`, &r.Template)
	e.optString(`,"direction":`, r.Direction)
	e.pos(`,"origin":`, r.Origin)
	e.bool(`,"originVisible":`, r.OriginVisible)
	e.cells(`,"cells":`, r.Cells)
	e.int(`,"count":`, r.Count)
	e.raw(`,"targets":`)
	switch {
	case r.Targets == nil:
		e.raw("null")
	case len(r.Targets) == 0:
		e.raw("[]")
	}
	sep := "["
	for i := range r.Targets {
		e.target(sep, &r.Targets[i])
		sep = ","
	}
	if len(r.Targets) > 0 {
		e.raw("]")
	}
	e.raw("}")
}

func (e *encoder) target(sep string, t *engine.Target) {
	e.raw(sep)
	e.str(`{"id":`, t.ID)
	e.bool(`,"inArea":`, t.InArea)
	e.bool(`,"affected":`, t.Affected)
	e.optString(`,"reason":`, t.Reason)
	e.str(`,"cover":`, t.Cover)
	e.int(`,"bonus":`, t.Bonus)
	e.int(`,"blocked":`, t.Blocked)
	e.raw(`,"lines":`)
	switch {
	case t.Lines == nil:
		e.raw("null")
	case len(t.Lines) == 0:
		e.raw("[]")
	}
	sep = "["
	for _, l := range t.Lines {
		e.raw(sep)
		e.point(`{"from":`, l.From)
		e.point(`,"to":`, l.To)
		e.bool(`,"blocked":`, l.Blocked)
		e.raw("}")
		sep = ","
	}
	if len(t.Lines) > 0 {
		e.raw("]")
	}
	if r := t.Roll; r != nil {
		e.raw(`,"roll":{"dice":`)
		if r.Dice == nil {
			e.raw("null")
		} else {
			sep = "["
			for _, n := range r.Dice {
				e.int(sep, n)
				sep = ","
			}
			if len(r.Dice) == 0 {
				e.raw("[")
			}
			e.raw("]")
		}
		e.int(`,"total":`, r.Total)
		e.int(`,"defence":`, r.Defence)
		e.bool(`,"hit":`, r.Hit)
		e.raw("}")
	}
	e.raw("}")
}

func (e *encoder) moveResult(m *engine.MoveResult) {
	e.cells(`{"path":`, m.Path)
	e.pos(`,"end":`, m.End)
	if c := m.Collision; c == nil {
		e.raw(`,"collision":null`)
	} else {
		e.str(`,"collision":{"with":`, c.With)
		e.cell(`,"at":`, c.At)
		e.int(`,"left":`, c.Left)
		e.raw("}")
	}
	e.raw("}")
}

func (e *encoder) version(v *engine.VersionInfo) {
	e.str(`{"engine":`, v.Engine)
	e.str(`,"version":`, v.Version)
	e.int(`,"contract":`, v.Contract)
	e.raw("}")
}

// errorBody writes {"error":{"code","message","at"?}}.
func (e *encoder) errorBody(err *engine.Error) {
	e.str(`{"error":{"code":`, err.Code)
	e.str(`,"message":`, err.Message)
	e.optInt(`,"at":`, err.At)
	e.raw(`}}`)
}
