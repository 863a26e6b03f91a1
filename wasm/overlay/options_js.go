//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/aoekit/aoekit/core/engine"
)

// Reading attach's options and draw's view from JavaScript: types only (a string where a number
// belongs is an error, not a conversion); newSettings and view.with check the values. Absent,
// undefined and null fields are the defaults, and unknown fields are ignored (CONTRACT
// conventions).

// typeName names a JavaScript value's type in messages: "a string", "an array", "null"….
func typeName(v js.Value) string {
	switch v.Type() {
	case js.TypeUndefined:
		return "undefined"
	case js.TypeNull:
		return "null"
	case js.TypeBoolean:
		return "a boolean"
	case js.TypeNumber:
		return "a number"
	case js.TypeString:
		return "a string"
	case js.TypeSymbol:
		return "a symbol"
	case js.TypeFunction:
		return "a function"
	}
	if jsArray.Call("isArray", v).Bool() {
		return "an array"
	}
	return "an object"
}

func absent(v js.Value) bool { return v.IsUndefined() || v.IsNull() }

// object checks that v is an object (not an array) or absent.
func object(v js.Value, where string) *engine.Error {
	if absent(v) || v.Type() == js.TypeObject && typeName(v) == "an object" {
		return nil
	}
	return badRequest(where + ": expected an object, got " + typeName(v))
}

// readOpt reads o[name]: absent, or a value of the JavaScript type want (kind names it in the
// error), read by get.
func readOpt[T any](o js.Value, name, where string, want js.Type, kind string, get func(js.Value) T) (opt[T], *engine.Error) {
	v := o.Get(name)
	switch {
	case absent(v):
		return opt[T]{}, nil
	case v.Type() == want:
		return opt[T]{get(v), true}, nil
	}
	return opt[T]{}, badRequest(where + "." + name + ": expected " + kind + ", got " + typeName(v))
}

func readNum(o js.Value, name, where string) (optNum, *engine.Error) {
	return readOpt(o, name, where, js.TypeNumber, "a number", js.Value.Float)
}

func readStr(o js.Value, name, where string) (optStr, *engine.Error) {
	return readOpt(o, name, where, js.TypeString, "a string", js.Value.String)
}

func readBool(o js.Value, name, where string) (optBool, *engine.Error) {
	return readOpt(o, name, where, js.TypeBoolean, "a boolean", js.Value.Bool)
}

// readMap reads an object of strings (colours by side or by grade), at most 1000 of them.
func readMap(o js.Value, name, where string) (map[string]string, *engine.Error) {
	v := o.Get(name)
	if err := object(v, where+"."+name); err != nil || absent(v) {
		return nil, err
	}
	keys := jsObject.Call("keys", v)
	n := keys.Length()
	if n > 1000 {
		return nil, badRequest(where + "." + name + ": at most 1000 colours")
	}
	m := make(map[string]string, n)
	for i := 0; i < n; i++ {
		k := keys.Index(i).String()
		s, err := readStr(v, k, where+"."+name)
		if err != nil {
			return nil, err
		}
		if s.set {
			m[k] = s.v
		}
	}
	return m, nil
}

// readView reads a view: draw's third argument, or the view fields of attach's options.
func readView(v js.Value, where string) (*rawView, *engine.Error) {
	r := new(rawView)
	if err := object(v, where); err != nil || absent(v) {
		return r, err
	}
	var err *engine.Error
	if sel := v.Get("selected"); sel.IsNull() {
		r.selectedNull = true
	} else if r.selected, err = readStr(v, "selected", where); err != nil {
		return nil, err
	}
	if f := v.Get("focus"); f.IsNull() {
		r.focusNull = true
	} else if r.focus, err = readStr(v, "focus", where); err != nil {
		return nil, err
	}
	if r.lines, err = readStr(v, "lines", where); err != nil {
		return nil, err
	}
	if r.tokens, err = readStr(v, "tokens", where); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		name string
		to   *optBool
	}{{"outline", &r.outline}, {"badges", &r.badges}, {"labels", &r.labels}, {"obstacles", &r.obstacles}, {"walls", &r.walls},
		{"unlisted", &r.unlisted}, {"details", &r.details}} {
		if *f.to, err = readBool(v, f.name, where); err != nil {
			return nil, err
		}
	}
	for _, f := range []struct {
		name string
		to   *optNum
	}{{"level", &r.level}, {"otherLevels", &r.otherLevels}, {"cellSize", &r.cellSize}} {
		if *f.to, err = readNum(v, f.name, where); err != nil {
			return nil, err
		}
	}
	if r.offsetX, r.offsetY, err = readOffset(v, where); err != nil {
		return nil, err
	}
	return r, nil
}

// readOffset reads v.offset, {x, y} in pixels, absent or not.
func readOffset(v js.Value, where string) (x, y optNum, err *engine.Error) {
	off := v.Get("offset")
	if err := object(off, where+".offset"); err != nil || absent(off) {
		return x, y, err
	}
	if x, err = readNum(off, "x", where+".offset"); err != nil {
		return x, y, err
	}
	y, err = readNum(off, "y", where+".offset")
	return x, y, err
}

// readOptions reads attach's options.
func readOptions(v js.Value, where string) (*rawOptions, *engine.Error) {
	r := new(rawOptions)
	if err := object(v, where); err != nil || absent(v) {
		return r, err
	}
	var err *engine.Error
	for _, f := range []struct {
		name string
		to   *optNum
	}{{"cellSize", &r.cellSize}, {"devicePixelRatio", &r.dpr}, {"width", &r.width}, {"height", &r.height}} {
		if *f.to, err = readNum(v, f.name, where); err != nil {
			return nil, err
		}
	}
	if r.offsetX, r.offsetY, err = readOffset(v, where); err != nil {
		return nil, err
	}
	cols := v.Get("colours")
	if err := object(cols, where+".colours"); err != nil {
		return nil, err
	}
	if !absent(cols) {
		for i, name := range colourNames {
			if r.colours[i], err = readStr(cols, name, where+".colours"); err != nil {
				return nil, err
			}
		}
		if r.sides, err = readMap(cols, "sides", where+".colours"); err != nil {
			return nil, err
		}
		if r.badges, err = readMap(cols, "badges", where+".colours"); err != nil {
			return nil, err
		}
	}
	view, err := readView(v, where)
	if err != nil {
		return nil, err
	}
	// cellSize and offset are the overlay's geometry (read above), not a view's override.
	view.cellSize, view.offsetX, view.offsetY = optNum{}, optNum{}, optNum{}
	r.view = *view
	return r, nil
}
