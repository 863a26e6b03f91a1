package wire

import "github.com/aoekit/aoekit/core/engine"

// The encoders below follow the engine types' declarations field by field — order, omitempty,
// nil slices as null and empty ones as [] — as encoding/json would. An engine type that gains a
// field needs it here too; the tests fill every field of every type and compare.

// An encoder appends to b; ok turns false on a number JSON cannot carry (NaN, ±Inf), where
// encoding/json fails too.
type encoder struct {
	b  []byte
	ok bool
}

func newEncoder(size int) *encoder { return &encoder{b: make([]byte, 0, size), ok: true} }

func (e *encoder) raw(s string) { e.b = append(e.b, s...) }
func (e *encoder) str(s string) { e.b = appendString(e.b, s) }
func (e *encoder) int(v int)    { e.b = appendInt(e.b, v) }
func (e *encoder) bool(v bool)  { e.b = appendBool(e.b, v) }

func (e *encoder) float(f float64) {
	var good bool
	if e.b, good = appendFloat(e.b, f); !good {
		e.ok = false
	}
}

// optString writes ,"name":"v" unless v is empty (omitempty).
func (e *encoder) optString(name, v string) {
	if v != "" {
		e.raw(name)
		e.str(v)
	}
}

// optInt writes ,"name":v unless v is 0 (omitempty).
func (e *encoder) optInt(name string, v int) {
	if v != 0 {
		e.raw(name)
		e.int(v)
	}
}

func (e *encoder) cell(c [3]int) {
	e.b = append(e.b, '[')
	e.int(c[0])
	e.b = append(e.b, ',')
	e.int(c[1])
	e.b = append(e.b, ',')
	e.int(c[2])
	e.b = append(e.b, ']')
}

func (e *encoder) point(p [3]float64) {
	e.b = append(e.b, '[')
	e.float(p[0])
	e.b = append(e.b, ',')
	e.float(p[1])
	e.b = append(e.b, ',')
	e.float(p[2])
	e.b = append(e.b, ']')
}

func (e *encoder) cells(cells [][3]int) {
	if cells == nil {
		e.raw("null")
		return
	}
	e.b = append(e.b, '[')
	for i, c := range cells {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.cell(c)
	}
	e.b = append(e.b, ']')
}

func (e *encoder) ints(v []int) {
	if v == nil {
		e.raw("null")
		return
	}
	e.b = append(e.b, '[')
	for i, n := range v {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.int(n)
	}
	e.b = append(e.b, ']')
}

func (e *encoder) pos(p engine.Pos) {
	e.raw(`{"x":`)
	e.int(p.X)
	e.raw(`,"y":`)
	e.int(p.Y)
	e.raw(`,"z":`)
	e.int(p.Z)
	e.b = append(e.b, '}')
}

func (e *encoder) template(t *engine.Template) {
	e.b = append(e.b, '{')
	if t.Text != "" {
		e.raw(`"text":`)
		e.str(t.Text)
		e.b = append(e.b, ',')
	}
	e.raw(`"notation":`)
	e.str(t.Notation)
	e.raw(`,"rules":`)
	e.str(t.Rules)
	e.raw(`,"shape":`)
	e.str(t.Shape)
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
		e.raw(`,"close":`)
		e.bool(*t.Close)
	}
	e.optString(`,"orientation":`, t.Orientation)
	e.b = append(e.b, '}')
}

func (e *encoder) result(r *engine.Result) {
	e.raw(`{"template":`)
	e.template(&r.Template)
	e.optString(`,"direction":`, r.Direction)
	e.raw(`,"origin":`)
	e.pos(r.Origin)
	e.raw(`,"originVisible":`)
	e.bool(r.OriginVisible)
	e.raw(`,"cells":`)
	e.cells(r.Cells)
	e.raw(`,"count":`)
	e.int(r.Count)
	e.raw(`,"targets":`)
	if r.Targets == nil {
		e.raw("null")
	} else {
		e.b = append(e.b, '[')
		for i := range r.Targets {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.target(&r.Targets[i])
		}
		e.b = append(e.b, ']')
	}
	e.b = append(e.b, '}')
}

func (e *encoder) target(t *engine.Target) {
	e.raw(`{"id":`)
	e.str(t.ID)
	e.raw(`,"inArea":`)
	e.bool(t.InArea)
	e.raw(`,"affected":`)
	e.bool(t.Affected)
	e.optString(`,"reason":`, t.Reason)
	e.raw(`,"cover":`)
	e.str(t.Cover)
	e.raw(`,"bonus":`)
	e.int(t.Bonus)
	e.raw(`,"blocked":`)
	e.int(t.Blocked)
	e.raw(`,"lines":`)
	if t.Lines == nil {
		e.raw("null")
	} else {
		e.b = append(e.b, '[')
		for i, l := range t.Lines {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.raw(`{"from":`)
			e.point(l.From)
			e.raw(`,"to":`)
			e.point(l.To)
			e.raw(`,"blocked":`)
			e.bool(l.Blocked)
			e.b = append(e.b, '}')
		}
		e.b = append(e.b, ']')
	}
	if t.Roll != nil {
		e.raw(`,"roll":{"dice":`)
		e.ints(t.Roll.Dice)
		e.raw(`,"total":`)
		e.int(t.Roll.Total)
		e.raw(`,"defence":`)
		e.int(t.Roll.Defence)
		e.raw(`,"hit":`)
		e.bool(t.Roll.Hit)
		e.b = append(e.b, '}')
	}
	e.b = append(e.b, '}')
}

func (e *encoder) moveResult(m *engine.MoveResult) {
	e.raw(`{"path":`)
	e.cells(m.Path)
	e.raw(`,"end":`)
	e.pos(m.End)
	e.raw(`,"collision":`)
	if c := m.Collision; c == nil {
		e.raw("null")
	} else {
		e.raw(`{"with":`)
		e.str(c.With)
		e.raw(`,"at":`)
		e.cell(c.At)
		e.raw(`,"left":`)
		e.int(c.Left)
		e.b = append(e.b, '}')
	}
	e.b = append(e.b, '}')
}

func (e *encoder) version(v engine.VersionInfo) {
	e.raw(`{"engine":`)
	e.str(v.Engine)
	e.raw(`,"version":`)
	e.str(v.Version)
	e.raw(`,"contract":`)
	e.int(v.Contract)
	e.b = append(e.b, '}')
}

// errorBody writes {"error":{"code","message","at"?}}.
func (e *encoder) errorBody(err *engine.Error) {
	e.raw(`{"error":{"code":`)
	e.str(err.Code)
	e.raw(`,"message":`)
	e.str(err.Message)
	e.optInt(`,"at":`, err.At)
	e.raw(`}}`)
}
