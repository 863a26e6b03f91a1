package main

import (
	"math"
	"strconv"

	"github.com/aoekit/aoekit/core/decimal"
	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/wasm/wire"
)

// A colour is one of the palette's named colours, which attach's options.colours may replace.
type colour int

// The palette's colours: the demo's (web/demo/demo.js, COLOURS), by the names options.colours
// uses.
const (
	cArea        colour = iota // the affected cells' fill
	cAreaEdge                  // the area's outline
	cObstacle                  // a full obstacle (view.obstacles)
	cLowObstacle               // a partial obstacle's fill
	cHatch                     // a partial obstacle's hatching
	cWall                      // a closed thin wall
	cDoor                      // an open door (dashed)
	cFence                     // a thin wall with a bottom or a top (a fence, a window's sill)
	cHalo                      // under every wall, so that it shows on any map
	cHit                       // the ring of an affected token
	cSpared                    // the dashed ring of a token in the area but not affected
	cClear                     // a clear cover line
	cBlocked                   // a blocked cover line
	cSelected                  // the square of the selected token
	cInk                       // text on labels
	nColours
)

var colourNames = [nColours]string{
	"area", "areaEdge", "obstacle", "lowObstacle", "hatch", "wall", "door", "fence", "halo",
	"hit", "spared", "clear", "blocked", "selected", "ink",
}

var defaultColours = [nColours]string{
	cArea:        "rgba(255, 140, 0, 0.36)",
	cAreaEdge:    "#e07b00",
	cObstacle:    "#3c4850",
	cLowObstacle: "#aab6bd",
	cHatch:       "#5f6f78",
	cWall:        "#1d252a",
	cDoor:        "#8d5b3e",
	cFence:       "#5f6f78",
	cHalo:        "rgba(255, 255, 255, 0.85)",
	cHit:         "#ffd400",
	cSpared:      "#222",
	cClear:       "#2fbf4a",
	cBlocked:     "#ff3b3b",
	cSelected:    "rgba(11, 98, 214, 0.18)",
	cInk:         "#1f2328",
}

// defaultSides are the demo's token colours by side; any other side is drawn as neutral.
var defaultSides = map[string]string{"party": "#1e6fd9", "enemy": "#d32f2f", "neutral": "#8d8a80"}

// defaultBadges are the demo's cover-badge colours by grade (BADGE); any other grade is #eee.
var defaultBadges = map[string]string{"none": "#eceff1", "partial": "#fff59d", "half": "#ffb74d", "cover": "#ffb74d", "full": "#c62828"}

// A palette is the colours an overlay draws with: CSS colour strings, as the canvas reads them.
type palette struct {
	c      [nColours]string
	sides  map[string]string
	badges map[string]string
}

func defaultPalette() palette {
	p := palette{c: defaultColours, sides: map[string]string{}, badges: map[string]string{}}
	for k, v := range defaultSides {
		p.sides[k] = v
	}
	for k, v := range defaultBadges {
		p.badges[k] = v
	}
	return p
}

// side is the colour of a token of side s: its own when the palette has one, else neutral's.
func (p *palette) side(s string) string {
	if c, ok := p.sides[s]; ok {
		return c
	}
	return p.sides["neutral"]
}

// badge is the background and text colours of a cover badge of grade g: the grade's colour (or
// #eee), with white text on full cover and black on the others, as the demo has them.
func (p *palette) badge(g engine.Grade) (bg, fg string) {
	bg, ok := p.badges[string(g)]
	if !ok {
		bg = "#eee"
	}
	fg = "#111"
	if g == engine.GradeFull {
		fg = "#fff"
	}
	return bg, fg
}

// lineMode is which cover lines a draw shows.
type lineMode uint8

const (
	linesSelected lineMode = iota // the selected token's (view.selected), if any
	linesAll                      // every target's
	linesNone
)

// tokenMode is how tokens are drawn.
type tokenMode uint8

const (
	tokensRing tokenMode = iota // rings, which leave the map's token art visible
	tokensDisc                  // the demo's discs, filled with the side's colour
	tokensNone                  // nothing but badges and labels
)

// A view is what one draw shows; attach's options give its defaults and draw's view overrides
// them, field by field.
type view struct {
	selected    string
	focus       string // whose cover lines "selected" draws, and whose name small squares show; "": selected's
	lines       lineMode
	tokens      tokenMode
	outline     bool // the area's outline
	badges      bool // cover badges, rolls, "in own area"
	labels      bool // token names
	obstacles   bool
	walls       bool
	unlisted    bool    // tokens the answer does not list (false: only the caster, the targets, the selected and focused)
	level       int     // the z of the cells drawn
	otherLevels float64 // the opacity of tokens whose space does not take in level
	details     bool    // the summary carries the rest of the answer but its cells and lines
	// A draw's own geometry (draw's view only): squares of cellSize pixels (0: attach's) from
	// offset (when hasOffset; else attach's).
	cellSize  float64
	offset    [2]float64
	hasOffset bool
}

func defaultView() view {
	return view{outline: true, badges: true, walls: true, unlisted: true, otherLevels: 1}
}

// focused is the token whose cover lines "selected" draws: the focused one, else the selected.
func (v *view) focused() string {
	if v.focus != "" {
		return v.focus
	}
	return v.selected
}

// geometry is g with the view's own cell size and offset, when it has them.
func (v *view) geometry(g geometry) geometry {
	if v.cellSize > 0 {
		g.cell = v.cellSize
	}
	if v.hasOffset {
		g.ox, g.oy = v.offset[0], v.offset[1]
	}
	return g
}

// settings are one overlay's: its geometry, its palette and its default view.
type settings struct {
	geo           geometry
	dpr           float64 // 0: the window's devicePixelRatio, read at every draw
	width, height float64 // the canvas's CSS size; 0: its own
	pal           palette
	view          view
}

// An opt is an option as read from JavaScript: set when it was given (undefined and null are
// not).
type opt[T any] struct {
	v   T
	set bool
}

type (
	optNum  = opt[float64]
	optStr  = opt[string]
	optBool = opt[bool]
)

// rawView is a view's fields as given.
type rawView struct {
	selected, focus                                              optStr
	lines, tokens                                                optStr
	outline, badges, labels, obstacles, walls, unlisted, details optBool
	level, otherLevels                                           optNum
	cellSize, offsetX, offsetY                                   optNum // draw's view only
	selectedNull, focusNull                                      bool   // selected: null, which unselects; focus: null
}

// rawOptions are attach's options as given (options_js.go reads them; a wrong type is refused
// there). colours holds the palette's named colours given, sides and badges theirs.
type rawOptions struct {
	cellSize, offsetX, offsetY, dpr, width, height optNum
	colours                                        [nColours]optStr
	sides, badges                                  map[string]string
	view                                           rawView
}

// Bounds of the options (CSS pixels): past them a request for a canvas makes no sense.
const (
	maxCellSize   = 1000
	maxOffset     = 1e7
	maxDPR        = 8
	maxCSSSize    = 16384
	maxCoord      = 1000000 // CONTRACT's bound on coordinates
	maxColourText = 256
	defaultCell   = 32 // the demo's largest squares but a few
)

// badRequest is never inlined: the overlay's checks call it at some 30 places, each a cold path
// (issue 30).
//
//go:noinline
func badRequest(msg string) *engine.Error {
	return &engine.Error{Code: engine.CodeBadRequest, Message: msg}
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// within is a number in (0, max] (lo false) or [-max, max] (lo true).
func within(v, max float64, signed bool) bool {
	if !finite(v) || v > max {
		return false
	}
	if signed {
		return v >= -max
	}
	return v > 0
}

// newSettings validates raw (where is how messages name it: "attach: options").
func newSettings(raw *rawOptions, where string) (*settings, *engine.Error) {
	s := &settings{geo: geometry{cell: defaultCell}, pal: defaultPalette(), view: defaultView()}
	if n := raw.cellSize; n.set {
		if !within(n.v, maxCellSize, false) {
			return nil, badRequest(where + ".cellSize: expected a number of CSS pixels above 0 and at most 1000, got " + num(n.v))
		}
		s.geo.cell = n.v
	}
	for _, f := range []struct {
		n    optNum
		name string
		to   *float64
	}{{raw.offsetX, "offset.x", &s.geo.ox}, {raw.offsetY, "offset.y", &s.geo.oy}} {
		if f.n.set {
			if !within(f.n.v, maxOffset, true) {
				return nil, badRequest(where + "." + f.name + ": expected a number of CSS pixels from -10000000 to 10000000, got " + num(f.n.v))
			}
			*f.to = f.n.v
		}
	}
	if n := raw.dpr; n.set {
		if !within(n.v, maxDPR, false) {
			return nil, badRequest(where + ".devicePixelRatio: expected a number above 0 and at most 8, got " + num(n.v))
		}
		s.dpr = n.v
	}
	for _, f := range []struct {
		n    optNum
		name string
		to   *float64
	}{{raw.width, "width", &s.width}, {raw.height, "height", &s.height}} {
		if f.n.set {
			if !within(f.n.v, maxCSSSize, false) {
				return nil, badRequest(where + "." + f.name + ": expected a number of CSS pixels above 0 and at most 16384, got " + num(f.n.v))
			}
			*f.to = f.n.v
		}
	}
	for i, c := range raw.colours {
		if c.set {
			if err := checkColour(where+".colours."+colourNames[i], c.v); err != nil {
				return nil, err
			}
			s.pal.c[i] = c.v
		}
	}
	for _, m := range []struct {
		given map[string]string
		name  string
		to    map[string]string
	}{{raw.sides, "sides", s.pal.sides}, {raw.badges, "badges", s.pal.badges}} {
		for k, v := range m.given {
			if err := checkColour(where+".colours."+m.name+"["+wire.Quote(k)+"]", v); err != nil {
				return nil, err
			}
			m.to[k] = v
		}
	}
	v, err := s.view.with(&raw.view, where)
	if err != nil {
		return nil, err
	}
	s.view = v
	return s, nil
}

// checkColour accepts any non-empty string of at most 256 bytes: the canvas, not aoekit, reads
// CSS colours (and ignores one it cannot).
func checkColour(where, c string) *engine.Error {
	if c == "" || len(c) > maxColourText {
		return badRequest(where + ": expected a CSS colour, a string of 1 to 256 characters")
	}
	return nil
}

// with returns v with the fields given in raw replaced.
func (v view) with(raw *rawView, where string) (view, *engine.Error) {
	if raw.selectedNull {
		v.selected = ""
	}
	if raw.selected.set {
		v.selected = raw.selected.v
	}
	if raw.focusNull {
		v.focus = ""
	}
	if raw.focus.set {
		v.focus = raw.focus.v
	}
	if s := raw.lines; s.set {
		switch s.v {
		case "selected":
			v.lines = linesSelected
		case "all":
			v.lines = linesAll
		case "none":
			v.lines = linesNone
		default:
			return v, badRequest(where + ".lines: expected selected, all or none, got " + wire.Quote(s.v))
		}
	}
	if s := raw.tokens; s.set {
		switch s.v {
		case "ring":
			v.tokens = tokensRing
		case "disc":
			v.tokens = tokensDisc
		case "none":
			v.tokens = tokensNone
		default:
			return v, badRequest(where + ".tokens: expected ring, disc or none, got " + wire.Quote(s.v))
		}
	}
	for _, f := range []struct {
		b  optBool
		to *bool
	}{{raw.outline, &v.outline}, {raw.badges, &v.badges}, {raw.labels, &v.labels}, {raw.obstacles, &v.obstacles}, {raw.walls, &v.walls},
		{raw.unlisted, &v.unlisted}, {raw.details, &v.details}} {
		if f.b.set {
			*f.to = f.b.v
		}
	}
	if n := raw.level; n.set {
		if !finite(n.v) || n.v != math.Trunc(n.v) || math.Abs(n.v) > maxCoord {
			return v, badRequest(where + ".level: expected an integer from -1000000 to 1000000, got " + num(n.v))
		}
		v.level = int(n.v)
	}
	if n := raw.otherLevels; n.set {
		if !finite(n.v) || n.v < 0 || n.v > 1 {
			return v, badRequest(where + ".otherLevels: expected an opacity from 0 to 1, got " + num(n.v))
		}
		v.otherLevels = n.v
	}
	if n := raw.cellSize; n.set {
		if !within(n.v, maxCellSize, false) {
			return v, badRequest(where + ".cellSize: expected a number of CSS pixels above 0 and at most 1000, got " + num(n.v))
		}
		v.cellSize = n.v
	}
	for i, f := range [2]struct {
		n    optNum
		name string
	}{{raw.offsetX, "offset.x"}, {raw.offsetY, "offset.y"}} {
		if f.n.set {
			if !within(f.n.v, maxOffset, true) {
				return v, badRequest(where + "." + f.name + ": expected a number of CSS pixels from -10000000 to 10000000, got " + num(f.n.v))
			}
			if !v.hasOffset {
				v.offset, v.hasOffset = [2]float64{}, true
			}
			v.offset[i] = f.n.v
		}
	}
	return v, nil
}

// canvasColour reads a colour as a 2-D context serializes its fillStyle — "#rrggbb" when opaque,
// else "rgba(r, g, b, a)" (the CSS colour given, resolved by the canvas) — as the bytes of one
// pixel of an ImageData: red, green, blue and alpha, not premultiplied. Any other text (a colour
// the canvas keeps in another form) is not read: ok is false.
func canvasColour(s string) (px [4]byte, ok bool) {
	if len(s) == 7 && s[0] == '#' {
		for i := 0; i < 3; i++ {
			hi, ok1 := hexDigit(s[1+2*i])
			lo, ok2 := hexDigit(s[2+2*i])
			if !ok1 || !ok2 {
				return px, false
			}
			px[i] = hi<<4 | lo
		}
		px[3] = 255
		return px, true
	}
	var open string
	switch {
	case len(s) > 5 && s[:5] == "rgba(":
		open = s[5:]
	case len(s) > 4 && s[:4] == "rgb(":
		open = s[4:]
	default:
		return px, false
	}
	if open[len(open)-1] != ')' {
		return px, false
	}
	parts := splitComma(open[:len(open)-1])
	if len(parts) != 3 && len(parts) != 4 {
		return px, false
	}
	px[3] = 255
	for i, f := range parts {
		x, ok := decimal.Parse([]byte(f))
		if !ok {
			return px, false
		}
		px[i] = channel(x, i == 3)
	}
	return px, true
}

// channel is the byte of one of rgb()'s or rgba()'s numbers, read exactly from its decimal
// digits (core/decimal, not strconv.ParseFloat, whose tables the module does without: issue 30):
// a colour's channel clamped to [0, 255] and an alpha clamped to [0, 1] and scaled by 255, each
// rounded to the nearest integer, halves up. An alpha's digits past the ninth decimal are not
// read (a canvas writes at most a few): they could only round down a value within 2.6e-7 above
// a half.
func channel(x decimal.Number, alpha bool) byte {
	if x.Neg {
		return 0
	}
	if !alpha {
		v, _, ok := x.Scaled(1) // ⌊10x⌋
		if !ok || v >= 2550 {
			return 255
		}
		return byte((v + 5) / 10)
	}
	v, _, ok := x.Scaled(9) // ⌊10⁹x⌋
	if !ok || v >= 1e9 {
		return 255
	}
	return byte((v*255 + 5e8) / 1e9)
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// splitComma splits s at its commas, each part without the spaces around it.
func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			a, b := start, i
			for a < b && s[a] == ' ' {
				a++
			}
			for b > a && s[b-1] == ' ' {
				b--
			}
			out = append(out, s[a:b])
			start = i + 1
		}
	}
	return out
}
