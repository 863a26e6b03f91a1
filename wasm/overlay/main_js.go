//go:build js && wasm

package main

import (
	"math"
	"strconv"
	"syscall/js"
	"unsafe"

	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/wasm/internal/jsapi"
	"github.com/aoekit/aoekit/wasm/internal/limits"
	"github.com/aoekit/aoekit/wasm/wire"
)

// handshake is the global under which the loader (web/overlay.js) hands main the object to
// register on; the loader deletes it as soon as main has returned control.
const handshake = "__aoekitOverlay"

func main() {
	target := js.Global().Get(handshake)
	if target.Type() != js.TypeObject {
		target = js.Global().Get("Object").New()
		js.Global().Set("aoekitOverlay", target)
	}
	// The engine's functions, exactly as aoekit.wasm registers them (and maxBody), then the
	// overlay's own, through the same binder.
	jsapi.Register(target, exportsFollowed(jsapi.Exports))
	jsapi.RegisterRaw(target, []jsapi.RawExport{
		{Name: "attach", Fn: attachJS}, {Name: "draw", Fn: drawJS}, {Name: "clear", Fn: clearJS}, {Name: "detach", Fn: detachJS},
		{Name: "cellAt", Fn: cellAtJS}, {Name: "pixelOf", Fn: pixelOfJS}, {Name: "result", Fn: resultJS},
	})
	select {} // keep the functions alive: JavaScript calls them while main waits
}

// arg is args[i], undefined past the end.
func arg(args []js.Value, i int) js.Value {
	if i < len(args) {
		return args[i]
	}
	return js.Undefined()
}

// The attached overlays, by handle.
var (
	overlays   = map[int]*overlay{}
	nextHandle = 1
)

// overlayOf is the overlay whose handle is args[0].
func overlayOf(name string, args []js.Value) (*overlay, *engine.Error) {
	h := arg(args, 0)
	if h.Type() != js.TypeNumber {
		return nil, badRequest(name + ": the first argument must be an overlay's handle (a number), not " + typeName(h))
	}
	f := h.Float()
	if o, ok := overlays[int(f)]; ok && float64(int(f)) == f {
		return o, nil
	}
	return nil, badRequest(name + ": no overlay has handle " + num(f) + ": it was detached, or never attached")
}

// attachJS is attach(canvas, options): it attaches an overlay to canvas, sizes its backing
// store, and returns its handle. Options are read and checked before the canvas is touched.
func attachJS(args []js.Value) (any, *engine.Error) {
	raw, err := readOptions(arg(args, 1), "attach: options")
	if err != nil {
		return nil, err
	}
	s, err := newSettings(raw, "attach: options")
	if err != nil {
		return nil, err
	}
	for h, other := range overlays {
		if other.canvas.Value.Equal(arg(args, 0)) {
			return nil, badRequest("attach: this canvas already has an overlay (handle " + strconv.Itoa(h) + "): detach it first")
		}
	}
	o, err := newOverlay(arg(args, 0), s)
	if err != nil {
		return nil, err
	}
	o.fit()
	h := nextHandle
	nextHandle++
	overlays[h] = o
	return h, nil
}

// drawJS is draw(handle, request, view?, scene?): it evaluates request (JSON text) — a whole
// evaluate request, or, given the id of a scene of the module's engine, a scene's request,
// answered against that scene's board — and draws the answer, and returns the summary (JSON
// text). A request the engine refuses, a bad view or an unknown scene leaves the canvas as it
// was.
func drawJS(args []js.Value) (any, *engine.Error) {
	o, err := overlayOf("draw", args)
	if err != nil {
		return nil, err
	}
	body, err := requestBody(arg(args, 1))
	if err != nil {
		return nil, err
	}
	rv, err := readView(arg(args, 2), "draw: view")
	if err != nil {
		return nil, err
	}
	v, err := o.set.view.with(rv, "draw: view")
	if err != nil {
		return nil, err
	}
	var sc *scene
	if id := arg(args, 3); absent(id) {
		req, err := wire.DecodeRequest(body)
		if err != nil {
			return nil, err
		}
		res, eerr := engine.Evaluate(req)
		if eerr != nil {
			return nil, asError(eerr)
		}
		sc = sceneOn(req.Caster, req.Tokens, req.Walls, req.Obstacles, res, &v)
	} else {
		if id.Type() != js.TypeNumber {
			return nil, badRequest("draw: the scene must be a scene's id (a number), not " + typeName(id))
		}
		req, res, b, err := evaluateOn(id.Int(), body)
		if err != nil {
			return nil, err
		}
		var obstacles []engine.Obstacle
		if v.obstacles {
			obstacles = b.Obstacles()
		}
		sc = sceneOn(req.Caster, b.tokens, b.walls, obstacles, res, &v)
	}
	o.draw(sc, v)
	out := summary(sc.res, v.details)
	return unsafe.String(unsafe.SliceData(out), len(out)), nil
}

// resultJS is result(handle): the whole answer of the overlay's last draw, as evaluate gives
// it (JSON text), or null when it has drawn nothing since it was attached or cleared.
func resultJS(args []js.Value) (any, *engine.Error) {
	o, err := overlayOf("result", args)
	if err != nil {
		return nil, err
	}
	if o.last == nil {
		return nil, nil
	}
	out := wire.EncodeResult(o.last)
	if out == nil {
		return nil, wire.InternalError("the result holds a number JSON cannot carry (NaN or infinity)")
	}
	return unsafe.String(unsafe.SliceData(out), len(out)), nil
}

// requestBody is the bytes of a request given as a string of JSON, refused past MaxBody as
// aoekit.wasm refuses it: a string longer than MaxBody UTF-16 units before it is copied.
func requestBody(v js.Value) ([]byte, *engine.Error) {
	if v.Type() != js.TypeString {
		return nil, badRequest("draw: the request must be a string of JSON, not " + typeName(v))
	}
	if n := jsObject.Invoke(v).Length(); n > limits.MaxBody {
		return nil, tooLarge(n, "at least ")
	}
	s := v.String()
	if len(s) > limits.MaxBody {
		return nil, tooLarge(len(s), "")
	}
	// The string's bytes, not a copy: wire only reads a body and keeps no part of it.
	return unsafe.Slice(unsafe.StringData(s), len(s)), nil
}

func tooLarge(n int, atLeast string) *engine.Error {
	return &engine.Error{Code: engine.CodeTooLarge, Message: "draw: the request is " + atLeast +
		strconv.Itoa(n) + " bytes of JSON; the limit is " + limits.MaxBodyText}
}

// clearJS is clear(handle): it erases what the overlay drew.
func clearJS(args []js.Value) (any, *engine.Error) {
	o, err := overlayOf("clear", args)
	if err != nil {
		return nil, err
	}
	o.clear()
	o.last = nil
	return nil, nil
}

// detachJS is detach(handle): it erases what the overlay drew and forgets it; its handle is
// refused from then on. (The loader gives the canvas back its size.)
func detachJS(args []js.Value) (any, *engine.Error) {
	o, err := overlayOf("detach", args)
	if err != nil {
		return nil, err
	}
	for h, other := range overlays {
		if other == o {
			delete(overlays, h)
		}
	}
	o.clear()
	return nil, nil
}

// cellAtJS is cellAt(handle, px, py): the square under CSS pixel (px, py) of the canvas, as
// {x, y}.
func cellAtJS(args []js.Value) (any, *engine.Error) {
	o, err := overlayOf("cellAt", args)
	if err != nil {
		return nil, err
	}
	px, py, err := twoNumbers("cellAt", args, "px", "py", math.MaxFloat64, false)
	if err != nil {
		return nil, err
	}
	x, y := o.geo.cellAt(px, py)
	return point(x, y), nil
}

// pixelOfJS is pixelOf(handle, x, y): the centre of square (x, y) in CSS pixels of the
// canvas, as {x, y}.
func pixelOfJS(args []js.Value) (any, *engine.Error) {
	o, err := overlayOf("pixelOf", args)
	if err != nil {
		return nil, err
	}
	x, y, err := twoNumbers("pixelOf", args, "x", "y", maxCoord, true)
	if err != nil {
		return nil, err
	}
	px, py := o.geo.pixelOf(x, y)
	return point(px, py), nil
}

// twoNumbers reads args[1] and args[2]: finite numbers, integers of at most max when integer.
func twoNumbers(name string, args []js.Value, a, b string, max float64, integer bool) (float64, float64, *engine.Error) {
	var out [2]float64
	for i, n := range [2]string{a, b} {
		v := arg(args, i+1)
		if v.Type() != js.TypeNumber {
			return 0, 0, badRequest(name + ": " + n + " must be a number, not " + typeName(v))
		}
		f := v.Float()
		if !finite(f) || integer && (f != math.Trunc(f) || math.Abs(f) > max) {
			what := "a finite number"
			if integer {
				what = "an integer from -1000000 to 1000000"
			}
			return 0, 0, badRequest(name + ": " + n + ": expected " + what + ", got " + num(f))
		}
		out[i] = f
	}
	return out[0], out[1], nil
}

func point(x, y float64) js.Value {
	p := jsObject.New()
	p.Set("x", x)
	p.Set("y", y)
	return p
}
