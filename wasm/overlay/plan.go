package main

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/core/grid"
)

// The display list: what a draw paints, in order, in CSS pixels from the corner of square
// (0, 0). plan builds it from a request and its result, in plain Go; paint (canvas_js.go)
// replays it on a CanvasRenderingContext2D. Every shape and style below is the demo's
// (web/demo/demo.js, draw and its helpers), so an overlay looks as the demo does.

// segKind is one step of a path.
type segKind uint8

const (
	segMove  segKind = iota // moveTo(a, b)
	segLine                 // lineTo(a, b)
	segArc                  // arc(a, b, radius c, 0, 2π): a whole circle
	segRect                 // rect(a, b, c, d)
	segClose                // closePath()
)

type seg struct {
	k          segKind
	a, b, c, d float64
}

// opKind is what an op does.
type opKind uint8

const (
	opPath  opKind = iota // the path segs, filled with fill when set, then stroked with stroke when set
	opPill                // a label on a rounded pill (the demo's pill)
	opCells               // squares filled with fill: one image of a pixel a square, scaled onto the grid
)

// An op is one step of the display list.
type op struct {
	kind opKind
	segs []seg
	fill string // opPath: the fill; opPill: the pill's background
	// The stroke: its colour, width, dash pattern (none: solid) and round caps (else butt).
	stroke string
	width  float64
	dash   []float64
	round  bool
	// opPill: text centred on (x, y), size pixels high, in colour ink, its pill kept within
	// board pixels left…right.
	text        string
	x, y, size  float64
	ink         string
	left, right float64
	// opCells: the cw × ch squares from square (cx, cy), row by row, mask[i] 1 where filled; the
	// image is drawn at board pixels (cx·sq, cy·sq), cw·sq × ch·sq large (sq: the op's size).
	cx, cy, cw, ch int
	mask           []byte
	// The op's opacity (the canvas's globalAlpha): 0 is opaque, as 1 is (a token off the level
	// shown is drawn fainter: view.otherLevels).
	alpha float64
}

// A piece is a token or the caster, as drawn.
type piece struct {
	id      string
	x, y, z int
	size    int
	height  int
	side    string
	facing  grid.Dir
	prone   bool
	caster  bool
	target  *engine.Target // its entry in the result's targets; nil when it is not listed
}

// A scene is what a draw shows: the result, and from its request the tokens, walls and
// obstacles (a result names its targets but does not place them).
type scene struct {
	res       *engine.Result
	pieces    []piece // by z, the caster last of its level (the demo's order)
	walls     []engine.Wall
	obstacles []engine.Obstacle
}

// sceneOf builds the scene of a request the engine has answered with res (so the request is
// valid: sizes and facings are known).
func sceneOf(req *engine.Request, res *engine.Result) *scene {
	return sceneOn(req.Caster, req.Tokens, req.Walls, req.Obstacles, res, nil)
}

// sceneOn builds the scene of an answer res to a request with caster, on a board of tokens,
// walls and obstacles: the request's own, or a scene's (CONTRACT scene), whose request carries
// only the caster. Given the view v, it leaves out the tokens v does not draw (view.unlisted):
// a board of hundreds of tokens, of which a frame draws a few.
func sceneOn(caster *engine.Token, tokens []engine.Token, walls []engine.Wall, obstacles []engine.Obstacle, res *engine.Result, v *view) *scene {
	s := &scene{res: res, walls: walls, obstacles: obstacles}
	byID := make(map[string]*engine.Target, len(res.Targets))
	for i := range res.Targets {
		byID[res.Targets[i].ID] = &res.Targets[i]
	}
	add := func(t *engine.Token, caster bool) {
		if v != nil && !v.unlisted && !caster && byID[t.ID] == nil && (t.ID == "" || t.ID != v.selected && t.ID != v.focused()) {
			return
		}
		size := t.Size
		if t.SizeName != "" {
			size, _ = grid.SizeByName(t.SizeName)
		}
		if size < 1 {
			size = 1
		}
		height := t.Height
		if height < 1 {
			height = size
		}
		facing, _ := grid.ParseDir(t.Facing)
		s.pieces = append(s.pieces, piece{id: t.ID, x: t.X, y: t.Y, z: t.Z, size: size, height: height, side: t.Side,
			facing: facing, prone: t.Prone, caster: caster, target: byID[t.ID]})
	}
	for i := range tokens {
		add(&tokens[i], false)
	}
	if caster != nil {
		add(caster, true)
	}
	slices.SortStableFunc(s.pieces, func(a, b piece) int {
		switch {
		case a.z != b.z:
			return cmp.Compare(a.z, b.z)
		case a.caster == b.caster:
			return 0
		case b.caster:
			return -1
		}
		return 1
	})
	return s
}

// A planner builds one display list.
type planner struct {
	ops   []op
	pal   *palette
	v     view
	sq    float64
	frame frame
}

// plan is the display list of scene under view v, with palette pal, squares of sq CSS pixels,
// for the part of the board fr shows.
func plan(sc *scene, v view, pal *palette, sq float64, fr frame) []op {
	p := &planner{pal: pal, v: v, sq: sq, frame: fr}
	if v.obstacles {
		p.obstacles(sc.obstacles)
	}
	level := levelCells(sc.res.Cells, v.level)
	p.area(level)
	if v.walls {
		p.walls(sc.walls)
	}
	p.coverLines(sc)
	p.tokens(sc)
	return p.ops
}

// add appends o, its arcs' radii at least 0. It is never inlined (issue 30): the planner calls
// it at some 30 places, and each inlined copy of the op's copy and the loop took 0.8 KB of the
// module (with badRequest out of line too: 24 KB raw, 4.8 KB brotli); a call an op is nothing
// beside the canvas's own.
//
//go:noinline
func (p *planner) add(o op) {
	// A circle's radius, worked out from a square's size less rims and bands, goes below 0 on
	// squares of a few pixels; the canvas refuses a negative one (arc throws), so it is 0.
	for i := range o.segs {
		if o.segs[i].k == segArc && !(o.segs[i].c >= 0) {
			o.segs[i].c = 0
		}
	}
	p.ops = append(p.ops, o)
}

// pill adds a label, as the demo's pill draws one.
func (p *planner) pill(text string, x, y float64, bg, ink string, size float64) {
	p.add(op{kind: opPill, text: text, x: x, y: y, fill: bg, ink: ink, size: size, left: p.frame.left, right: p.frame.right})
}

// ring is a whole circle stroked: colour, width, dash.
func ring(cx, cy, r float64, colour string, width float64, dash []float64) op {
	return op{kind: opPath, segs: []seg{{k: segArc, a: cx, b: cy, c: r}}, stroke: colour, width: width, dash: dash}
}

// levelCells is the sub-slice of cells (sorted by z, y, x) on level z.
func levelCells(cells [][3]int32, z int) [][3]int32 {
	lo, _ := slices.BinarySearchFunc(cells, z, func(c [3]int32, z int) int { return cmp.Compare(int(c[2]), z) })
	hi, _ := slices.BinarySearchFunc(cells, z+1, func(c [3]int32, z int) int { return cmp.Compare(int(c[2]), z) })
	return cells[lo:hi]
}

// has reports whether square (x, y) is among cells, one level's cells sorted by y, then x.
func has(cells [][3]int32, x, y int) bool {
	_, found := slices.BinarySearchFunc(cells, [2]int{x, y}, func(c [3]int32, t [2]int) int {
		if n := cmp.Compare(int(c[1]), t[1]); n != 0 {
			return n
		}
		return cmp.Compare(int(c[0]), t[0])
	})
	return found
}

// obstacles: full ones filled, partial ones hatched (the demo's lowHatch: lines 7 pixels apart,
// rising to the right), their fill written on them when it is not ½ and their level when it is
// not 0.
func (p *planner) obstacles(obs []engine.Obstacle) {
	sq := p.sq
	full := op{kind: opPath, fill: p.pal.c[cObstacle]}
	low := op{kind: opPath, fill: p.pal.c[cLowObstacle]}
	hatch := op{kind: opPath, stroke: p.pal.c[cHatch], width: 1.5}
	for _, o := range obs {
		if !p.frame.in(o.X, o.Y) {
			continue
		}
		x0, y0 := float64(o.X)*sq, float64(o.Y)*sq
		r := seg{k: segRect, a: x0, b: y0, c: sq, d: sq}
		if o.Fill == 0 || o.Fill >= 1 {
			full.segs = append(full.segs, r)
			continue
		}
		low.segs = append(low.segs, r)
		const gap = 7 // lines x + y = c, c a multiple of gap (the pattern repeats from the canvas's corner)
		for c := math.Ceil((x0+y0)/gap) * gap; c < x0+y0+2*sq; c += gap {
			ax, bx := math.Max(x0, c-(y0+sq)), math.Min(x0+sq, c-y0)
			if bx > ax {
				hatch.segs = append(hatch.segs, seg{k: segMove, a: ax, b: c - ax}, seg{k: segLine, a: bx, b: c - bx})
			}
		}
	}
	for _, o := range []op{full, low, hatch} {
		if len(o.segs) > 0 {
			p.add(o)
		}
	}
	if sq < 20 {
		return
	}
	for _, o := range obs {
		if !p.frame.in(o.X, o.Y) {
			continue
		}
		cx, y0 := float64(o.X)*sq+sq/2, float64(o.Y)*sq
		if o.Fill != 0 && o.Fill < 1 && o.Fill != 0.5 {
			p.pill(num(o.Fill), cx, y0+sq/2, "#fff", p.pal.c[cInk], math.Max(8, sq*0.26))
		}
		if o.Z != 0 {
			p.pill("z"+strconv.Itoa(o.Z), cx, y0+sq*0.8, "#fff", p.pal.c[cInk], math.Max(8, sq*0.24))
		}
	}
}

// maxCellImage is the most squares an area's image holds (its bounding box in the frame): past
// it (a long, thin area across a huge canvas of tiny squares) the cells are filled as a path.
const maxCellImage = 1 << 22

// area fills the level's cells in the frame and strokes their outline, 1 pixel inside their
// edge. The fill is one image of a pixel a square over the cells' bounding box, scaled onto the
// grid (opCells: no seams, no doubled alpha, one drawImage however many cells); past
// maxCellImage squares, runs along a row as rectangles of one path.
func (p *planner) area(cells [][3]int32) {
	sq, fr := p.sq, p.frame
	x0, y0, x1, y1 := math.MaxInt, math.MaxInt, math.MinInt, math.MinInt
	for _, c := range cells {
		if x, y := int(c[0]), int(c[1]); fr.in(x, y) {
			x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
		}
	}
	if x1 < x0 {
		return
	}
	if w, h := x1-x0+1, y1-y0+1; w*h <= maxCellImage {
		img := op{kind: opCells, fill: p.pal.c[cArea], cx: x0, cy: y0, cw: w, ch: h, size: sq, mask: make([]byte, w*h)}
		for _, c := range cells {
			if x, y := int(c[0]), int(c[1]); fr.in(x, y) {
				img.mask[(y-y0)*w+x-x0] = 1
			}
		}
		p.add(img)
	} else {
		p.runs(cells)
	}
	p.outline(cells)
}

// runs fills the cells in the frame as rectangles, a run along a row each, all in one path.
func (p *planner) runs(cells [][3]int32) {
	sq, fr := p.sq, p.frame
	fill := op{kind: opPath, fill: p.pal.c[cArea]}
	for i := 0; i < len(cells); {
		x, y := int(cells[i][0]), int(cells[i][1])
		j := i + 1
		for j < len(cells) && int(cells[j][1]) == y && int(cells[j][0]) == x+(j-i) {
			j++
		}
		// The run x … x+(j-i)-1 of row y, cut to the frame.
		a, b := max(x, fr.x0), min(x+(j-i)-1, fr.x1)
		if y >= fr.y0 && y <= fr.y1 && a <= b {
			fill.segs = append(fill.segs, seg{k: segRect, a: float64(a) * sq, b: float64(y) * sq, c: float64(b-a+1) * sq, d: sq})
		}
		i = j
	}
	p.add(fill)
}

// outline strokes the outline of the cells in the frame, 1 pixel inside their edge, when the
// view asks for it.
func (p *planner) outline(cells [][3]int32) {
	if !p.v.outline {
		return
	}
	sq, fr := p.sq, p.frame
	edge := op{kind: opPath, stroke: p.pal.c[cAreaEdge], width: 2}
	line := func(x0, y0, x1, y1 float64) {
		edge.segs = append(edge.segs, seg{k: segMove, a: x0, b: y0}, seg{k: segLine, a: x1, b: y1})
	}
	// Whether a square is a cell: from a mask of the cells' bounding box (the cells are sorted by
	// y, then x: its rows are the first's and the last's), or, past maxCellImage squares, by a
	// binary search.
	in := func(x, y int) bool { return has(cells, x, y) }
	if n := len(cells); n > 0 {
		x0, x1 := math.MaxInt, math.MinInt
		for _, c := range cells {
			x0, x1 = min(x0, int(c[0])), max(x1, int(c[0]))
		}
		y0, y1 := int(cells[0][1]), int(cells[n-1][1])
		if w, h := x1-x0+1, y1-y0+1; w*h <= maxCellImage {
			mask := make([]bool, w*h)
			for _, c := range cells {
				mask[(int(c[1])-y0)*w+int(c[0])-x0] = true
			}
			in = func(x, y int) bool { return x >= x0 && x <= x1 && y >= y0 && y <= y1 && mask[(y-y0)*w+x-x0] }
		}
	}
	for i, c := range cells {
		x, y := int(c[0]), int(c[1])
		if !fr.in(x, y) {
			continue
		}
		fx, fy := float64(x)*sq, float64(y)*sq
		if !in(x, y-1) {
			line(fx, fy+1, fx+sq, fy+1)
		}
		if !in(x, y+1) {
			line(fx, fy+sq-1, fx+sq, fy+sq-1)
		}
		if i == 0 || cells[i-1][1] != c[1] || int(cells[i-1][0]) != x-1 {
			line(fx+1, fy, fx+1, fy+sq)
		}
		if i == len(cells)-1 || cells[i+1][1] != c[1] || int(cells[i+1][0]) != x+1 {
			line(fx+sq-1, fy, fx+sq-1, fy+sq)
		}
	}
	p.add(edge)
}

// wallStyle is how a thin wall is drawn: its colour, and whether dashed (an open door).
func wallStyle(pal *palette, w *engine.Wall) (colour string, dashed bool) {
	switch {
	case w.Open:
		return pal.c[cDoor], true
	case w.Bottom != nil || w.Top != nil:
		return pal.c[cFence], false
	}
	return pal.c[cWall], false
}

// walls draws each thin wall as a thick line over a light halo: closed walls solid, open doors
// dashed, walls of limited height in the fence colour.
func (p *planner) walls(walls []engine.Wall) {
	w := math.Max(3, p.sq*0.15)
	for i := range walls {
		wl := &walls[i]
		colour, dashed := wallStyle(p.pal, wl)
		segs := []seg{{k: segMove, a: wl.A[0] * p.sq, b: wl.A[1] * p.sq}, {k: segLine, a: wl.B[0] * p.sq, b: wl.B[1] * p.sq}}
		p.add(op{kind: opPath, segs: segs, stroke: p.pal.c[cHalo], width: w + 3, round: true})
		o := op{kind: opPath, segs: segs, stroke: colour, width: w, round: !dashed}
		if dashed {
			o.dash = []float64{2 * w, 1.5 * w}
		}
		p.add(o)
	}
}

// lineStyle is how a cover line is drawn: its colour and dash pattern (k scales it).
func lineStyle(pal *palette, blocked bool, k float64) (colour string, dash []float64) {
	if blocked {
		return pal.c[cBlocked], []float64{9 * k, 6 * k}
	}
	return pal.c[cClear], nil
}

// coverLines draws the cover lines the view asks for: the focused token's (the selected one's
// unless the view names another), or every target's.
func (p *planner) coverLines(sc *scene) {
	if p.v.lines == linesNone {
		return
	}
	focus := p.v.focused()
	for i := range sc.res.Targets {
		t := &sc.res.Targets[i]
		if len(t.Lines) > 0 && (p.v.lines == linesAll || t.ID == focus && focus != "") {
			p.lines(t.Lines)
		}
	}
}

// lines is the demo's paintLines: seen from above, the lines to a corner's upper and lower
// points coincide, so each group is drawn side by side, the higher line on the left of the way
// it runs; clear lines first, then blocked ones (dashed), each over a dark outline; a dot at
// the source and at each end.
func (p *planner) lines(lines []engine.Line) {
	sq := p.sq
	k := math.Max(0.6, math.Min(1, sq/36))
	type end struct{ x, y int64 }
	var order []end
	groups := map[end][]engine.Line{}
	for _, l := range lines {
		g := end{int64(math.Round(l.To[0] * 100)), int64(math.Round(l.To[1] * 100))}
		if _, ok := groups[g]; !ok {
			order = append(order, g)
		}
		groups[g] = append(groups[g], l)
	}
	type drawn struct {
		fx, fy, tx, ty float64
		blocked        bool
	}
	var all []drawn
	for _, g := range order {
		group := groups[g]
		slices.SortStableFunc(group, func(a, b engine.Line) int { return cmp.Compare(b.To[2], a.To[2]) })
		for i, l := range group {
			fx, fy, tx, ty := l.From[0]*sq, l.From[1]*sq, l.To[0]*sq, l.To[1]*sq
			n := math.Hypot(tx-fx, ty-fy)
			if n == 0 {
				n = 1
			}
			off := (float64(i) - float64(len(group)-1)/2) * 5 * k
			nx, ny := (ty-fy)/n*off, -(tx-fx)/n*off
			all = append(all, drawn{fx + nx, fy + ny, tx + nx, ty + ny, l.Blocked})
		}
	}
	for _, blocked := range []bool{false, true} {
		for _, d := range all {
			if d.blocked != blocked {
				continue
			}
			colour, dash := lineStyle(p.pal, blocked, k)
			segs := []seg{{k: segMove, a: d.fx, b: d.fy}, {k: segLine, a: d.tx, b: d.ty}}
			p.add(op{kind: opPath, segs: segs, stroke: "rgba(17, 17, 17, 0.85)", width: 5.5 * k, dash: dash, round: !blocked})
			p.add(op{kind: opPath, segs: segs, stroke: colour, width: 2.5 * k, dash: dash, round: !blocked})
		}
	}
	type src struct{ x, y float64 }
	seen := map[src]bool{}
	dots := op{kind: opPath, fill: "#111"}
	for _, l := range lines {
		s := src{l.From[0], l.From[1]}
		if !seen[s] {
			seen[s] = true
			dots.segs = append(dots.segs, seg{k: segMove, a: s.x*sq + 4.5, b: s.y * sq}, seg{k: segArc, a: s.x * sq, b: s.y * sq, c: 4.5})
		}
	}
	p.add(dots)
	for _, d := range all {
		colour, _ := lineStyle(p.pal, d.blocked, k)
		p.add(op{kind: opPath, segs: []seg{{k: segArc, a: d.tx, b: d.ty, c: 3 * k}}, fill: colour, stroke: "#111", width: 1})
	}
}

// ringKind is how a token's state shows on it.
type ringKind uint8

const (
	ringNone   ringKind = iota // not listed: outside the area
	ringHit                    // affected: a thick yellow ring over black
	ringSpared                 // listed but not affected (cover, targeting, a barrier): a dashed ring
)

func ringOf(t *engine.Target) ringKind {
	switch {
	case t == nil:
		return ringNone
	case t.Affected:
		return ringHit
	}
	return ringSpared
}

// showsBadge reports whether a target carries a cover badge: in the area, not left out by the
// targeting, with lines judged; on small squares (compact) not for no cover.
func showsBadge(t *engine.Target, compact bool) bool {
	return t != nil && t.InArea && t.Reason != engine.ReasonTargeting && len(t.Lines) > 0 && !(compact && t.Cover == engine.GradeNone)
}

// shown reports whether a piece is drawn: every one, or with view.unlisted false only the
// caster, the targets the answer lists and the selected and focused tokens.
func (p *planner) shown(e *piece) bool {
	return p.v.unlisted || e.caster || e.target != nil || e.id != "" && (e.id == p.v.selected || e.id == p.v.focused())
}

// faint sets the opacity of the ops from start on: view.otherLevels for a piece whose space
// does not take in the level shown.
func (p *planner) faint(e *piece, start int) {
	if p.v.otherLevels >= 1 || e.z <= p.v.level && p.v.level < e.z+e.height {
		return
	}
	a := p.v.otherLevels
	if a <= 0 {
		p.ops = p.ops[:start] // transparent: nothing to draw
		return
	}
	for i := start; i < len(p.ops); i++ {
		p.ops[i].alpha = a
	}
}

// tokens is the demo's drawEntities: each token's selection, state ring, side colour and (for
// the caster) mark and facing; then, above them all, the names, cover badges and rolls.
func (p *planner) tokens(sc *scene) {
	sq := p.sq
	compact := sq < 24
	font := math.Max(9, math.Min(13, math.Round(sq*0.32)))
	k := math.Min(1, sq/36) // line widths shrink with small squares
	focus := p.v.focused()
	for i := range sc.pieces {
		e := &sc.pieces[i]
		if !p.shown(e) {
			continue
		}
		start := len(p.ops)
		size := float64(e.size) * sq
		x0, y0 := float64(e.x)*sq, float64(e.y)*sq
		cx, cy := x0+size/2, y0+size/2
		rad := size/2 - math.Max(1.5, sq*0.1)
		kind := ringOf(e.target)
		if p.v.selected != "" && e.id == p.v.selected {
			p.add(op{kind: opPath, segs: []seg{{k: segRect, a: x0 + 1, b: y0 + 1, c: size - 2, d: size - 2}}, fill: p.pal.c[cSelected]})
		}
		if p.v.tokens == tokensNone {
			p.faint(e, start)
			continue
		}
		if kind == ringHit {
			p.add(ring(cx, cy, rad, "#000", 8*k, nil))
			p.add(ring(cx, cy, rad, p.pal.c[cHit], 5*k, nil))
		}
		r := rad
		if kind == ringHit {
			r -= 2.5 * k
		}
		side := p.pal.side(e.side)
		if p.v.tokens == tokensDisc {
			p.add(op{kind: opPath, segs: []seg{{k: segArc, a: cx, b: cy, c: r}}, fill: side, stroke: "#111", width: 1.5})
		} else {
			// The disc's rim, and the side's colour as a band just inside it.
			w := math.Max(2.5, 4*k)
			p.add(ring(cx, cy, r-0.75-w/2, side, w, nil))
			p.add(ring(cx, cy, r, "#111", 1.5, nil))
		}
		if kind == ringSpared {
			p.add(ring(cx, cy, rad+2*k, "#fff", 4*k, nil))
			p.add(ring(cx, cy, rad+2*k, p.pal.c[cSpared], 2.5*k, []float64{4 * k, 3 * k}))
		}
		if e.caster {
			// A white inner ring marks the caster; a dark arrow shows its facing.
			p.add(ring(cx, cy, math.Max(3, rad*0.62), "#fff", 2, nil))
			o := e.facing.Offset()
			dx, dy := float64(o.X), float64(o.Y)
			n := math.Hypot(dx, dy)
			ux, uy := dx/n, dy/n
			tipX, tipY := cx+ux*(rad+sq*0.28), cy+uy*(rad+sq*0.28)
			baseX, baseY, w := cx+ux*(rad-1), cy+uy*(rad-1), sq*0.16
			p.add(op{kind: opPath, segs: []seg{
				{k: segMove, a: tipX, b: tipY}, {k: segLine, a: baseX - uy*w, b: baseY + ux*w},
				{k: segLine, a: baseX + uy*w, b: baseY - ux*w}, {k: segClose},
			}, fill: "#111", stroke: "#fff", width: 1.5})
		}
		if kind == ringHit && !compact {
			// The affected mark at the centre: a yellow dot with a black rim.
			p.add(op{kind: opPath, segs: []seg{{k: segArc, a: cx, b: cy, c: math.Max(2.5, sq*0.13)}}, fill: p.pal.c[cHit], stroke: "#000", width: 1.5 * k})
		} else if compact && !e.caster && p.v.tokens == tokensDisc && e.id != "" {
			// Small squares: the name's first letter in the disc.
			p.add(op{kind: opPill, text: firstLetter(e.id), x: cx, y: cy, size: math.Max(8, math.Round(rad*1.2)), ink: "#fff"})
		}
		p.faint(e, start)
	}
	// Labels last, above every token. On small squares names show for the selected token only,
	// and grades by their first letter.
	for i := range sc.pieces {
		e := &sc.pieces[i]
		if !p.shown(e) {
			continue
		}
		start := len(p.ops)
		t := e.target
		size := float64(e.size) * sq
		x0, y0 := float64(e.x)*sq, float64(e.y)*sq
		if p.v.labels && e.id != "" && (!compact || e.id == focus) {
			extra := ""
			if e.z != 0 {
				extra = " ↑" + strconv.Itoa(e.z)
			}
			if e.prone {
				extra += " prone"
			}
			y, fs := y0+size-1, font
			if compact {
				y, fs = y0+size+7, 10
			}
			p.pill(e.id+extra, x0+size/2, y, "rgba(255, 255, 255, 0.92)", p.pal.c[cInk], fs)
		}
		if !p.v.badges {
			p.faint(e, start)
			continue
		}
		if showsBadge(t, compact) {
			text := string(t.Cover)
			if compact {
				text = firstLetter(text)
			}
			bg, fg := p.pal.badge(t.Cover)
			fs := math.Max(8, font-2)
			if compact {
				fs = 8
			}
			p.pill(text, x0+size-2, y0+3, bg, fg, fs)
		}
		if e.caster && t != nil {
			p.pill("in own area", x0+size/2, y0+size+font*1.3, "#6a1b9a", "#fff", math.Max(8, font-2))
		}
		if t != nil && t.Roll != nil {
			var dice []string
			for _, d := range t.Roll.Dice {
				dice = append(dice, strconv.Itoa(d))
			}
			text, bg := strings.Join(dice, "→")+" miss", "#ffcdd2"
			if t.Roll.Hit {
				text, bg = strings.Join(dice, "→")+" hit", "#c8e6c9"
			}
			p.pill(text, x0+4, y0+size/2, bg, "#111", math.Max(8, font-2))
		}
		p.faint(e, start)
	}
}

// firstLetter is s's first character in upper case (unicode.ToUpper: strings.ToUpper would
// add some kilobytes to the module).
func firstLetter(s string) string {
	for _, r := range s {
		return string(unicode.ToUpper(r))
	}
	return ""
}
