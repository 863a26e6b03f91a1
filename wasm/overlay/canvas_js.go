//go:build js && wasm

package main

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"github.com/aoekit/aoekit/core/engine"
)

// An overlay is one canvas an overlay draws on, through dom/v2's CanvasRenderingContext2D.
// The canvas is a <canvas> element or an OffscreenCanvas (one a page handed a worker with
// transferControlToOffscreen): dom/v2's canvas and context types only wrap a js.Value and call
// its methods by name, which an OffscreenCanvas and its OffscreenCanvasRenderingContext2D have
// too; what an OffscreenCanvas lacks — a tag, a style, a layout — is not read for it.
type overlay struct {
	canvas *dom.HTMLCanvasElement
	ctx    *dom.CanvasRenderingContext2D
	set    *settings
	// An OffscreenCanvas: its CSS size is options.width and options.height, or its size at
	// attach; its device pixel ratio, options.devicePixelRatio (a worker has no window).
	offscreen bool
	// The canvas's CSS size as attach found it, used while the canvas is not laid out (not in
	// the document, or hidden); then, after each fit, the size drawn for.
	cssW, cssH float64
	scale      float64 // backing-store pixels a CSS pixel, as last fitted
	// The geometry of the last draw (attach's, or the draw's view's cellSize and offset), which
	// cellAt and pixelOf use, and its answer (result), nil before the first draw and after clear.
	geo  geometry
	last *engine.Result
	// Whether the context has roundRect (for pills), read once.
	roundRect bool
}

// JavaScript's values the overlay uses at every draw, read once: every js.Value of an object
// that crosses into Go costs a finalizer.
var (
	jsArray     = js.Global().Get("Array")
	jsObject    = js.Global().Get("Object")
	jsPath2D    = js.Global().Get("Path2D")
	jsBytes     = js.Global().Get("Uint8ClampedArray")
	jsImageData = js.Global().Get("ImageData")
	jsNoDash    = jsArray.New() // an empty array, for setLineDash; never changed
)

// newOverlay attaches to v, which must be a <canvas> or an OffscreenCanvas with a 2-D context.
// A canvas that its CSS does not size (its CSS size is its width and height attributes) gets
// that size as its inline style, so that the larger backing store does not make it larger on
// the page; options.width and options.height set its style.
func newOverlay(v js.Value, s *settings) (*overlay, *engine.Error) {
	const want = "attach: expected a <canvas> element (an HTMLCanvasElement) or an OffscreenCanvas, got "
	if v.Type() != js.TypeObject {
		return nil, badRequest(want + typeName(v))
	}
	// A <canvas> of this window or of another (an iframe's): its tag, not its constructor.
	// (dom.WrapElement would tell it by its constructor, and link a wrapper for every kind of
	// element into the module.) An OffscreenCanvas has no tag, and transferToImageBitmap.
	tag := v.Get("tagName")
	offscreen := tag.Type() == js.TypeUndefined && v.Get("transferToImageBitmap").Type() == js.TypeFunction
	if !offscreen && (tag.Type() != js.TypeString || tag.String() != "CANVAS") || v.Get("getContext").Type() != js.TypeFunction {
		what := typeName(v)
		if tag.Type() == js.TypeString {
			what = "a <" + lower(tag.String()) + "> element"
		}
		return nil, badRequest(want + what)
	}
	canvas := &dom.HTMLCanvasElement{BasicHTMLElement: &dom.BasicHTMLElement{BasicElement: &dom.BasicElement{BasicNode: &dom.BasicNode{Value: v}}}}
	ctx := canvas.GetContext2d()
	if ctx.Value.Type() != js.TypeObject {
		return nil, badRequest("attach: the canvas has no 2-D context (it already has another kind, such as webgl)")
	}
	o := &overlay{canvas: canvas, ctx: ctx, set: s, scale: 1, offscreen: offscreen, geo: s.geo,
		roundRect: ctx.Get("roundRect").Type() == js.TypeFunction}
	if offscreen {
		o.cssW, o.cssH = s.width, s.height
		if o.cssW == 0 {
			o.cssW = float64(canvas.Width())
		}
		if o.cssH == 0 {
			o.cssH = float64(canvas.Height())
		}
		return o, nil
	}
	style := canvas.Style()
	for _, d := range []struct {
		prop      string
		given, at float64
		client    string
		to        *float64
	}{
		{"width", s.width, float64(canvas.Width()), "clientWidth", &o.cssW},
		{"height", s.height, float64(canvas.Height()), "clientHeight", &o.cssH},
	} {
		switch client := canvas.Get(d.client).Float(); {
		case d.given > 0:
			*d.to = d.given
			style.SetProperty(d.prop, num(d.given)+"px", "")
		case style.GetPropertyValue(d.prop) == "" && (client == 0 || client == d.at):
			*d.to = d.at
			style.SetProperty(d.prop, num(d.at)+"px", "")
		default:
			*d.to = client
		}
	}
	return o, nil
}

// fit sizes the backing store to the canvas's CSS size × the device pixel ratio (options', or
// the window's now) and returns its size.
func (o *overlay) fit() (bw, bh int) {
	w, h := o.set.width, o.set.height
	if w == 0 {
		if cw := o.client("clientWidth"); cw > 0 {
			o.cssW = cw
		}
		w = o.cssW
	}
	if h == 0 {
		if ch := o.client("clientHeight"); ch > 0 {
			o.cssH = ch
		}
		h = o.cssH
	}
	dpr := o.set.dpr
	if dpr == 0 {
		if d := js.Global().Get("devicePixelRatio"); d.Type() == js.TypeNumber {
			dpr = d.Float()
		}
	}
	bw, bh, o.scale = backing(w, h, dpr)
	if o.canvas.Width() != bw {
		o.canvas.SetWidth(bw)
	}
	if o.canvas.Height() != bh {
		o.canvas.SetHeight(bh)
	}
	return bw, bh
}

// client is the canvas's laid-out size, clientWidth or clientHeight; 0 for an OffscreenCanvas,
// which has none.
func (o *overlay) client(name string) float64 {
	if o.offscreen {
		return 0
	}
	return o.canvas.Get(name).Float()
}

// clear erases the whole backing store.
func (o *overlay) clear() {
	o.ctx.SetTransform(1, 0, 0, 1, 0, 0)
	o.ctx.ClearRect(0, 0, float64(o.canvas.Width()), float64(o.canvas.Height()))
}

// draw fits the canvas, erases it and paints the scene under view v (in the view's geometry,
// which becomes the overlay's), and keeps its answer.
func (o *overlay) draw(sc *scene, v view) {
	o.fit()
	o.clear()
	g := v.geometry(o.set.geo)
	o.geo, o.last = g, sc.res
	ops := plan(sc, v, &o.set.pal, g.cell, g.frame(o.cssW, o.cssH))
	t := g.transform(o.scale)
	o.ctx.SetTransform(t[0], t[1], t[2], t[3], t[4], t[5])
	paint(o.ctx, ops, o.roundRect)
}

// A painter replays a display list on a context. Every property set and every call crosses
// from Go into JavaScript, so it sets a property only when it changes, and hands a path of many
// straight segments (an area's outline, a hatching) over in one Path2D made from its SVG text.
type painter struct {
	ctx    *dom.CanvasRenderingContext2D
	path2D js.Value // the Path2D constructor; undefined where there is none
	// The context's state as last set; "" (or -1) where unknown.
	fill, stroke, cap, font, align, baseline string
	width, alpha                             float64
	dash                                     []float64
	dashKnown, roundRect                     bool
	svg                                      []byte // a path's text, reused
}

// manySegments is the number of segments from which a path crosses as a Path2D's text.
const manySegments = 6

// paint replays a display list (roundRect: whether the context has it).
func paint(ctx *dom.CanvasRenderingContext2D, ops []op, roundRect bool) {
	p := &painter{ctx: ctx, width: -1, alpha: 1, roundRect: roundRect}
	if jsPath2D.Type() == js.TypeFunction {
		p.path2D = jsPath2D
	}
	ctx.SetLineJoin("miter")
	ctx.Set("globalAlpha", 1)
	p.setDash(nil)
	p.setCap("butt")
	for i := range ops {
		o := &ops[i]
		a := o.alpha
		if a == 0 {
			a = 1
		}
		if a != p.alpha {
			ctx.Set("globalAlpha", a)
			p.alpha = a
		}
		switch o.kind {
		case opPill:
			p.pill(o)
			continue
		case opCells:
			p.cells(o)
			continue
		}
		path := p.pathOf(o.segs)
		if o.fill != "" {
			p.setFill(o.fill)
			if path.IsUndefined() {
				ctx.Fill()
			} else {
				ctx.Call("fill", path)
			}
		}
		if o.stroke != "" {
			p.setWidth(o.width)
			p.setDash(o.dash)
			if o.round {
				p.setCap("round")
			} else {
				p.setCap("butt")
			}
			p.setStroke(o.stroke)
			if path.IsUndefined() {
				ctx.Stroke()
			} else {
				ctx.Call("stroke", path)
			}
		}
	}
	if p.alpha != 1 {
		ctx.Set("globalAlpha", 1)
	}
	p.setDash(nil)
	p.setCap("butt")
}

// pathOf makes segs the context's current path, one call a segment; or, for many straight
// segments where there is Path2D, returns them as one Path2D (the current path left alone).
func (p *painter) pathOf(segs []seg) js.Value {
	straight := len(segs) >= manySegments && !p.path2D.IsUndefined()
	for i := 0; straight && i < len(segs); i++ {
		straight = segs[i].k != segArc
	}
	if straight {
		b := p.svg[:0]
		for _, s := range segs {
			switch s.k {
			case segMove, segLine:
				if s.k == segMove {
					b = append(b, 'M')
				} else {
					b = append(b, 'L')
				}
				b = svgNum(b, s.a)
				b = append(b, ' ')
				b = svgNum(b, s.b)
			case segRect:
				b = append(b, 'M')
				b = svgNum(b, s.a)
				b = append(b, ' ')
				b = svgNum(b, s.b)
				b = append(b, 'h')
				b = svgNum(b, s.c)
				b = append(b, 'v')
				b = svgNum(b, s.d)
				b = append(b, 'h')
				b = svgNum(b, -s.c)
				b = append(b, 'Z')
			case segClose:
				b = append(b, 'Z')
			}
		}
		p.svg = b
		return p.path2D.New(string(b))
	}
	ctx := p.ctx
	ctx.BeginPath()
	for _, s := range segs {
		switch s.k {
		case segMove:
			ctx.MoveTo(s.a, s.b)
		case segLine:
			ctx.LineTo(s.a, s.b)
		case segArc:
			ctx.Arc(s.a, s.b, s.c, 0, 2*math.Pi, false)
		case segRect:
			ctx.Rect(s.a, s.b, s.c, s.d)
		case segClose:
			ctx.ClosePath()
		}
	}
	return js.Undefined()
}

// svgNum appends v as a number of an SVG path's text.
func svgNum(b []byte, v float64) []byte {
	if !finite(v) {
		v = 0
	}
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}

func (p *painter) setFill(c string) {
	if c != p.fill {
		p.ctx.SetFillStyle(c)
		p.fill = c
	}
}

func (p *painter) setStroke(c string) {
	if c != p.stroke {
		p.ctx.SetStrokeStyle(c)
		p.stroke = c
	}
}

// setWidth sets lineWidth (dom/v2's SetLineWidth takes an int: through the context's js.Value).
func (p *painter) setWidth(w float64) {
	if w != p.width {
		p.ctx.Set("lineWidth", w)
		p.width = w
	}
}

func (p *painter) setCap(c string) {
	if c != p.cap {
		p.ctx.SetLineCap(c)
		p.cap = c
	}
}

// setDash sets the dash pattern, none for a solid line (dom/v2's SetLineDash takes a
// []float64, which syscall/js cannot pass: through the context's js.Value).
func (p *painter) setDash(d []float64) {
	if p.dashKnown && slices.Equal(d, p.dash) {
		return
	}
	if len(d) == 0 {
		p.ctx.Call("setLineDash", jsNoDash)
	} else {
		a := make([]any, len(d))
		for i, v := range d {
			a[i] = v
		}
		p.ctx.Call("setLineDash", a)
	}
	p.dash, p.dashKnown = d, true
}

func (p *painter) setText(font, align, baseline string) {
	if font != p.font {
		p.ctx.SetFont(font)
		p.font = font
	}
	if align != p.align {
		p.ctx.SetTextAlign(align)
		p.align = align
	}
	if baseline != p.baseline {
		p.ctx.SetTextBaseline(baseline)
		p.baseline = baseline
	}
}

// cells draws an opCells: its mask as one ImageData of a pixel a square, in the fill's colour (as
// the canvas resolves it), put on a scratch canvas and drawn from there scaled onto the grid
// without smoothing, so that each square is filled edge to edge and nothing between them. A
// colour the canvas keeps in a form canvasColour does not read is filled as a path instead.
func (p *painter) cells(o *op) {
	ctx := p.ctx
	px, ok := resolveColour(ctx, o.fill)
	p.fill = "" // resolveColour may have set it
	if !ok {
		ctx.BeginPath()
		for i, m := range o.mask {
			if m != 0 {
				x, y := o.cx+i%o.cw, o.cy+i/o.cw
				ctx.Rect(float64(x)*o.size, float64(y)*o.size, o.size, o.size)
			}
		}
		p.setFill(o.fill)
		ctx.Fill()
		return
	}
	if px[3] == 0 {
		return
	}
	pix := make([]byte, 4*len(o.mask))
	for i, m := range o.mask {
		if m != 0 {
			copy(pix[4*i:4*i+4], px[:])
		}
	}
	data := jsBytes.New(len(pix))
	js.CopyBytesToJS(data, pix)
	img := jsImageData.New(data, o.cw, o.ch)
	sc := scratchFor(o.cw, o.ch)
	sc.Call("putImageData", img, 0, 0)
	ctx.Set("imageSmoothingEnabled", false)
	ctx.Call("drawImage", sc.Get("canvas"), 0, 0, o.cw, o.ch,
		float64(o.cx)*o.size, float64(o.cy)*o.size, float64(o.cw)*o.size, float64(o.ch)*o.size)
	ctx.Set("imageSmoothingEnabled", true)
}

// colours caches resolveColour's answers by CSS text.
var colours = map[string][4]byte{}

// resolveColour is the pixel of CSS colour c as ctx reads it: set as its fillStyle (after a
// transparent one, so that a colour the canvas ignores is transparent), read back in the
// canvas's serialization. ok is false when that is not "#rrggbb" or "rgba(…)".
func resolveColour(ctx *dom.CanvasRenderingContext2D, c string) ([4]byte, bool) {
	if px, ok := colours[c]; ok {
		return px, true
	}
	ctx.Set("fillStyle", "rgba(0, 0, 0, 0)")
	ctx.Set("fillStyle", c)
	v := ctx.Get("fillStyle")
	if v.Type() != js.TypeString {
		return [4]byte{}, false
	}
	px, ok := canvasColour(v.String())
	// currentcolor is the canvas element's colour, which may change: not kept.
	if ok && len(colours) < 64 && !strings.Contains(lower(c), "currentcolor") {
		colours[c] = px
	}
	return px, ok
}

// scratch is the canvas images are put on before they are drawn scaled (an OffscreenCanvas
// where there is one, which a worker needs; else a <canvas>), and its 2-D context; it grows
// to the largest image asked for.
var scratch js.Value

// scratchFor is the scratch canvas's context, at least w × h pixels large.
func scratchFor(w, h int) js.Value {
	if scratch.IsUndefined() || scratch.IsNull() {
		var c js.Value
		if oc := js.Global().Get("OffscreenCanvas"); oc.Type() == js.TypeFunction {
			c = oc.New(w, h)
		} else {
			c = js.Global().Get("document").Call("createElement", "canvas")
			c.Set("width", w)
			c.Set("height", h)
		}
		scratch = c.Call("getContext", "2d")
	}
	c := scratch.Get("canvas")
	if c.Get("width").Int() < w || c.Get("height").Int() < h {
		c.Set("width", max(w, c.Get("width").Int()))
		c.Set("height", max(h, c.Get("height").Int()))
	}
	return scratch
}

// pill draws a label as the demo's pill does: bold text on a rounded pill with a dark rim,
// kept within the frame; without a background, the text alone.
func (p *painter) pill(o *op) {
	ctx := p.ctx
	p.setText("700 "+strconv.FormatFloat(o.size, 'f', -1, 64)+"px system-ui, sans-serif", "center", "middle")
	x := o.x
	if o.fill != "" {
		w := ctx.MeasureText(o.text).Width() + o.size*0.8
		h := o.size * 1.35
		left := math.Min(math.Max(o.x-w/2, o.left+1), o.right-w-1)
		ctx.BeginPath()
		if p.roundRect {
			ctx.Call("roundRect", left, o.y-h/2, w, h, h/2)
		} else {
			ctx.Rect(left, o.y-h/2, w, h)
		}
		p.setFill(o.fill)
		ctx.Fill()
		p.setWidth(1)
		p.setDash(nil)
		p.setStroke("rgba(0, 0, 0, 0.75)")
		ctx.Stroke()
		x = left + w/2
	}
	p.setFill(o.ink)
	ctx.FillText(o.text, x, o.y+0.5, -1)
}

// lower is s with ASCII letters in lower case (a tag name; strings.ToLower would add some
// kilobytes to the module).
func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
