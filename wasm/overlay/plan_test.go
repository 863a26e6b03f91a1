package main

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/wasm/wire"
)

// testRequest is the Chromium test's: a one-level TDGS circle of radius 2 at (5, 5), a full
// block at (6, 5) hiding g2 (full cover: not affected) while g1 stands in the open (affected),
// a wall east of the area and an open door west of it.
const testRequest = `{"template": "Cir2h1", "origin": {"x": 5, "y": 5},
 "tokens": [{"id": "g1", "x": 4, "y": 4, "side": "enemy"}, {"id": "g2", "x": 7, "y": 5, "side": "party"}],
 "obstacles": [{"x": 6, "y": 5}],
 "walls": [{"a": [9, 2], "b": [9, 8]}, {"a": [2, 3], "b": [2, 5], "open": true}, {"a": [10, 2], "b": [12, 2], "top": 0.5}]}`

func testScene(t *testing.T, body string) *scene {
	t.Helper()
	req, err := wire.DecodeRequest([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	res, eerr := engine.Evaluate(req)
	if eerr != nil {
		t.Fatal(eerr)
	}
	return sceneOf(req, res)
}

// testPlan plans testRequest at 20 pixels a square on a 300 × 240 canvas offset by (7, 11).
func testPlan(t *testing.T, v view) ([]op, *palette) {
	pal := defaultPalette()
	g := geometry{cell: 20, ox: 7, oy: 11}
	return plan(testScene(t, testRequest), v, &pal, g.cell, g.frame(300, 240)), &pal
}

// circles are the ops that stroke or fill one whole circle centred on (cx, cy).
func circles(ops []op, cx, cy float64) []op {
	var out []op
	for _, o := range ops {
		if o.kind == opPath && len(o.segs) == 1 && o.segs[0].k == segArc && o.segs[0].a == cx && o.segs[0].b == cy {
			out = append(out, o)
		}
	}
	return out
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestPlanArea(t *testing.T) {
	ops, pal := testPlan(t, defaultView())
	img := ops[0]
	if img.kind != opCells || img.fill != pal.c[cArea] || img.stroke != "" {
		t.Fatalf("first op %+v: the area's image", img)
	}
	// One image of the 5 × 5 squares (3…7) × (3…7), every one filled, at 20 pixels a square.
	if img.cx != 3 || img.cy != 3 || img.cw != 5 || img.ch != 5 || img.size != 20 || len(img.mask) != 25 {
		t.Fatalf("image of %d × %d squares from (%d, %d), %v pixels a square, mask of %d", img.cw, img.ch, img.cx, img.cy, img.size, len(img.mask))
	}
	for i, m := range img.mask {
		if m != 1 {
			t.Errorf("square %d of the image is not filled", i)
		}
	}
	edge := ops[1]
	if edge.stroke != pal.c[cAreaEdge] || edge.width != 2 || len(edge.segs) != 2*20 {
		t.Errorf("outline %+v: 20 edges of the 5 × 5 square, in areaEdge", edge)
	}
	v := defaultView()
	v.outline = false
	if ops, _ := testPlan(t, v); ops[1].stroke == pal.c[cAreaEdge] {
		t.Error("outline: false still draws the outline")
	}
	v.level = 1
	if ops, _ := testPlan(t, v); ops[0].kind == opCells || ops[0].fill == pal.c[cArea] {
		t.Error("level 1 has no cells, yet they are filled")
	}
}

// An area that is not a rectangle: the image is its bounding box, filled where the cells are.
func TestPlanAreaMask(t *testing.T) {
	sc := testScene(t, `{"template": "Con3N", "caster": {"id": "c", "x": 5, "y": 5, "facing": "E"}}`)
	pal := defaultPalette()
	g := geometry{cell: 10}
	ops := plan(sc, defaultView(), &pal, 10, g.frame(300, 300))
	img := ops[0]
	if img.kind != opCells {
		t.Fatalf("first op %+v", img)
	}
	filled := map[[2]int]bool{}
	for i, m := range img.mask {
		if m == 1 {
			filled[[2]int{img.cx + i%img.cw, img.cy + i/img.cw}] = true
		}
	}
	cells := levelCells(sc.res.Cells, 0)
	if len(filled) != len(cells) {
		t.Errorf("%d squares filled, %d cells", len(filled), len(cells))
	}
	for _, c := range cells {
		if !filled[[2]int{int(c[0]), int(c[1])}] {
			t.Errorf("cell %v not filled", c)
		}
		if int(c[0]) < img.cx || int(c[0]) >= img.cx+img.cw || int(c[1]) < img.cy || int(c[1]) >= img.cy+img.ch {
			t.Errorf("cell %v outside the image", c)
		}
	}
	if img.cw*img.ch == len(cells) {
		t.Errorf("a cone's bounding box (%d × %d) is larger than its %d cells", img.cw, img.ch, len(cells))
	}
}

func TestPlanAreaCulled(t *testing.T) {
	sc := testScene(t, testRequest)
	pal := defaultPalette()
	// A canvas showing squares 0…4 across (plus the margin: …5): the image is cut at x = 5.
	g := geometry{cell: 20}
	ops := plan(sc, defaultView(), &pal, 20, g.frame(90, 400))
	if img := ops[0]; img.kind != opCells || img.cx != 3 || img.cw != 3 || img.cy != 3 || img.ch != 5 {
		t.Errorf("image %+v: want squares 3…5 × 3…7", img)
	}
}

// Past maxCellImage squares in the bounding box, the cells are filled as runs of one path.
func TestPlanAreaRuns(t *testing.T) {
	cells := [][3]int32{{0, 0, 0}, {1, 0, 0}, {3000, 3000, 0}}
	sc := &scene{res: &engine.Result{Cells: cells}}
	pal := defaultPalette()
	g := geometry{cell: 1}
	ops := plan(sc, defaultView(), &pal, 1, g.frame(4000, 4000))
	fill := ops[0]
	if fill.kind != opPath || fill.fill != pal.c[cArea] || len(fill.segs) != 2 {
		t.Fatalf("first op %+v: two runs of one path", fill)
	}
	if fill.segs[0] != (seg{k: segRect, a: 0, b: 0, c: 2, d: 1}) || fill.segs[1] != (seg{k: segRect, a: 3000, b: 3000, c: 1, d: 1}) {
		t.Errorf("runs %+v", fill.segs)
	}
}

func TestPlanRings(t *testing.T) {
	ops, pal := testPlan(t, defaultView())
	k := 20.0 / 36
	// g1 (4, 4) is affected: black then yellow ring on its edge (radius 8), the side's ring
	// inside, no dashed ring; g2 (7, 5) is not: a dashed ring outside, no yellow.
	g1 := circles(ops, 90, 90)
	if len(g1) < 4 || g1[0].stroke != "#000" || g1[1].stroke != pal.c[cHit] || !near(g1[1].width, 5*k) || g1[1].segs[0].c != 8 {
		t.Fatalf("g1's rings: %+v", g1)
	}
	if g1[2].stroke != pal.side("enemy") || g1[2].dash != nil {
		t.Errorf("g1's side ring: %+v", g1[2])
	}
	g2 := circles(ops, 150, 110)
	var spared, hit bool
	for _, o := range g2 {
		hit = hit || o.stroke == pal.c[cHit]
		if o.stroke == pal.c[cSpared] && len(o.dash) == 2 && near(o.segs[0].c, 8+2*k) {
			spared = true
		}
	}
	if hit || !spared {
		t.Errorf("g2's rings (hit %v, dashed %v): %+v", hit, spared, g2)
	}
	if g2[0].stroke != pal.side("party") {
		t.Errorf("g2's side ring: %+v", g2[0])
	}
	v := defaultView()
	v.tokens = tokensDisc
	ops, _ = testPlan(t, v)
	if d := circles(ops, 150, 110); d[0].fill != pal.side("party") || d[0].stroke != "#111" {
		t.Errorf("a disc: %+v", d[0])
	}
	v.tokens = tokensNone
	ops, _ = testPlan(t, v)
	if len(circles(ops, 90, 90)) != 0 {
		t.Error("tokens: none still draws rings")
	}
}

func TestStyles(t *testing.T) {
	pal := defaultPalette()
	for side, want := range map[string]string{"party": "#1e6fd9", "enemy": "#d32f2f", "neutral": "#8d8a80", "": "#8d8a80", "ally": "#8d8a80"} {
		if got := pal.side(side); got != want {
			t.Errorf("side %q: %s, want %s", side, got, want)
		}
	}
	for g, want := range map[engine.Grade][2]string{
		"none": {"#eceff1", "#111"}, "partial": {"#fff59d", "#111"}, "half": {"#ffb74d", "#111"},
		"cover": {"#ffb74d", "#111"}, "full": {"#c62828", "#fff"}, "improved": {"#eee", "#111"},
	} {
		if bg, fg := pal.badge(g); bg != want[0] || fg != want[1] {
			t.Errorf("badge %s: %s on %s, want %s on %s", g, fg, bg, want[1], want[0])
		}
	}
	if c, d := lineStyle(&pal, true, 1); c != "#ff3b3b" || len(d) != 2 || d[0] != 9 || d[1] != 6 {
		t.Errorf("a blocked line: %s %v, want red, dashed 9 6", c, d)
	}
	if c, d := lineStyle(&pal, false, 0.5); c != "#2fbf4a" || d != nil {
		t.Errorf("a clear line: %s %v, want green, solid", c, d)
	}
	half := 0.5
	for _, c := range []struct {
		w      engine.Wall
		colour string
		dashed bool
	}{
		{engine.Wall{}, pal.c[cWall], false},
		{engine.Wall{Open: true}, pal.c[cDoor], true},
		{engine.Wall{Top: &half}, pal.c[cFence], false},
		{engine.Wall{Top: &half, Open: true}, pal.c[cDoor], true},
	} {
		if colour, dashed := wallStyle(&pal, &c.w); colour != c.colour || dashed != c.dashed {
			t.Errorf("%+v: %s dashed %v", c.w, colour, dashed)
		}
	}
	for _, c := range []struct {
		t        *engine.Target
		ring     ringKind
		badge    bool
		compactB bool
	}{
		{nil, ringNone, false, false},
		{&engine.Target{InArea: true, Affected: true, Cover: "none", Lines: make([]engine.Line, 6)}, ringHit, true, false},
		{&engine.Target{InArea: true, Affected: true, Cover: "partial", Lines: make([]engine.Line, 6)}, ringHit, true, true},
		{&engine.Target{InArea: true, Reason: "cover", Cover: "full", Lines: make([]engine.Line, 4)}, ringSpared, true, true},
		{&engine.Target{InArea: true, Reason: "targeting", Cover: "none", Lines: make([]engine.Line, 6)}, ringSpared, false, false},
		{&engine.Target{InArea: false, Reason: "barrier", Cover: "none"}, ringSpared, false, false},
		{&engine.Target{InArea: true, Affected: true, Cover: "none"}, ringHit, false, false}, // cover: "none": no lines
	} {
		if r := ringOf(c.t); r != c.ring {
			t.Errorf("%+v: ring %d, want %d", c.t, r, c.ring)
		}
		if b := showsBadge(c.t, false); b != c.badge {
			t.Errorf("%+v: badge %v, want %v", c.t, b, c.badge)
		}
		if b := showsBadge(c.t, true); b != c.compactB {
			t.Errorf("%+v: compact badge %v, want %v", c.t, b, c.compactB)
		}
	}
}

// pills are the labels drawn, by text.
func pills(ops []op) map[string]op {
	out := map[string]op{}
	for _, o := range ops {
		if o.kind == opPill {
			out[o.text] = o
		}
	}
	return out
}

func TestPlanBadgesAndLabels(t *testing.T) {
	ops, _ := testPlan(t, defaultView())
	p := pills(ops)
	// 20-pixel squares are compact: grades by their first letter, no badge for no cover.
	f, ok := p["F"]
	if !ok || f.fill != "#c62828" || f.ink != "#fff" || f.x != 158 || f.y != 103 || f.left != -7 || f.right != 293 {
		t.Errorf("g2's badge: %+v", f)
	}
	if _, ok := p["N"]; ok || len(p) != 1 {
		t.Errorf("pills %v: only g2's", p)
	}
	// Larger squares: whole words; labels: names (on compact squares only the selected one's).
	sc := testScene(t, testRequest)
	pal := defaultPalette()
	v := defaultView()
	v.labels = true
	p = pills(plan(sc, v, &pal, 32, geometry{cell: 32}.frame(600, 600)))
	for _, text := range []string{"full", "none", "g1", "g2"} {
		if _, ok := p[text]; !ok {
			t.Errorf("no %q among %v", text, p)
		}
	}
	v.selected = "g1"
	p = pills(plan(sc, v, &pal, 20, geometry{cell: 20}.frame(600, 600)))
	if _, ok := p["g1"]; !ok {
		t.Error("a compact selected token has no name")
	}
	if _, ok := p["g2"]; ok {
		t.Error("a compact token not selected has a name")
	}
	v.badges = false
	if p := pills(plan(sc, v, &pal, 20, geometry{cell: 20}.frame(600, 600))); len(p) != 1 {
		t.Errorf("badges: false: %v", p)
	}
}

// lineOps are the cover lines drawn: colour strokes of a move and a line.
func lineOps(ops []op, pal *palette) (clear, blocked int) {
	for _, o := range ops {
		if len(o.segs) == 2 && o.segs[0].k == segMove && o.stroke == pal.c[cClear] {
			clear++
		}
		if len(o.segs) == 2 && o.segs[0].k == segMove && o.stroke == pal.c[cBlocked] {
			blocked++
		}
	}
	return
}

func TestPlanCoverLines(t *testing.T) {
	v := defaultView()
	ops, pal := testPlan(t, v)
	if c, b := lineOps(ops, pal); c+b != 0 {
		t.Errorf("no token selected, yet %d lines", c+b)
	}
	v.selected = "g2"
	ops, _ = testPlan(t, v)
	if c, b := lineOps(ops, pal); c != 0 || b != 4 {
		t.Errorf("g2 selected: %d clear, %d blocked lines; want its 4 blocked ones", c, b)
	}
	for _, o := range ops {
		if o.stroke == pal.c[cBlocked] && len(o.segs) == 2 && (len(o.dash) != 2 || o.round) {
			t.Errorf("a blocked line is dashed, with butt caps: %+v", o)
		}
	}
	v.lines = linesAll
	ops, _ = testPlan(t, v)
	if c, b := lineOps(ops, pal); c != 6 || b != 4 {
		t.Errorf("all lines: %d clear, %d blocked; want g1's 6 and g2's 4", c, b)
	}
	// The demo's order: outlines under colours, clear lines before blocked ones; the higher
	// and the lower line to a corner side by side, 5k apart.
	var first []op
	for _, o := range ops {
		if len(o.segs) == 2 && o.segs[0].k == segMove && (o.stroke == pal.c[cClear] || o.stroke == pal.c[cBlocked]) {
			first = append(first, o)
		}
	}
	if first[0].stroke != pal.c[cClear] || first[len(first)-1].stroke != pal.c[cBlocked] {
		t.Error("blocked lines are not drawn over clear ones")
	}
	v.lines = linesNone
	ops, _ = testPlan(t, v)
	if c, b := lineOps(ops, pal); c+b != 0 {
		t.Error("lines: none draws lines")
	}
}

func TestPlanWalls(t *testing.T) {
	ops, pal := testPlan(t, defaultView())
	var walls []op
	for _, o := range ops {
		if len(o.segs) == 2 && (o.stroke == pal.c[cWall] || o.stroke == pal.c[cDoor] || o.stroke == pal.c[cFence]) {
			walls = append(walls, o)
		}
	}
	if len(walls) != 3 {
		t.Fatalf("walls %+v", walls)
	}
	w := walls[0]
	if w.stroke != pal.c[cWall] || w.dash != nil || w.width != 3 || w.segs[0] != (seg{k: segMove, a: 180, b: 40}) || w.segs[1] != (seg{k: segLine, a: 180, b: 160}) {
		t.Errorf("the wall from (9, 2) to (9, 8): %+v", w)
	}
	if d := walls[1]; d.stroke != pal.c[cDoor] || len(d.dash) != 2 {
		t.Errorf("the open door: %+v", d)
	}
	if f := walls[2]; f.stroke != pal.c[cFence] || f.dash != nil {
		t.Errorf("the fence: %+v", f)
	}
	v := defaultView()
	v.walls = false
	ops, _ = testPlan(t, v)
	for _, o := range ops {
		if o.stroke == pal.c[cWall] {
			t.Error("walls: false draws walls")
		}
	}
}

func TestPlanObstacles(t *testing.T) {
	sc := testScene(t, `{"template": "Cir1h1", "origin": {"x": 5, "y": 5}, "obstacles": [{"x": 1, "y": 1}, {"x": 2, "y": 1, "fill": 0.3}, {"x": 3, "y": 1, "z": 2}]}`)
	pal := defaultPalette()
	v := defaultView()
	if ops := plan(sc, v, &pal, 20, geometry{cell: 20}.frame(300, 300)); ops[0].fill == pal.c[cObstacle] {
		t.Error("obstacles are drawn by default")
	}
	v.obstacles = true
	ops := plan(sc, v, &pal, 20, geometry{cell: 20}.frame(300, 300))
	if ops[0].fill != pal.c[cObstacle] || len(ops[0].segs) != 2 || ops[1].fill != pal.c[cLowObstacle] || ops[2].stroke != pal.c[cHatch] {
		t.Fatalf("obstacles: %+v", ops[:3])
	}
	for i := 0; i < len(ops[2].segs); i += 2 {
		a, b := ops[2].segs[i], ops[2].segs[i+1]
		if a.a < 40 || b.a > 60 || a.b < 20 || a.b > 40 || b.b < 20 || b.b > 40 || !near(a.a+a.b, b.a+b.b) {
			t.Errorf("a hatch line leaves its square (2, 1): %+v %+v", a, b)
		}
	}
	p := pills(ops)
	if _, ok := p["0.3"]; !ok {
		t.Errorf("the fill is not written: %v", p)
	}
	if _, ok := p["z2"]; !ok {
		t.Errorf("the level is not written: %v", p)
	}
}

func TestPlanCaster(t *testing.T) {
	sc := testScene(t, `{"template": "Con3N", "caster": {"id": "hero", "x": 5, "y": 5, "facing": "E", "side": "party"},
		"tokens": [{"id": "a", "x": 7, "y": 5, "z": 1}, {"id": "b", "x": 2, "y": 2}]}`)
	if n := len(sc.pieces); n != 3 || sc.pieces[0].id != "b" || sc.pieces[1].id != "hero" || sc.pieces[2].id != "a" {
		t.Errorf("pieces %+v: by level, the caster last of its own", sc.pieces)
	}
	pal := defaultPalette()
	ops := plan(sc, defaultView(), &pal, 32, geometry{cell: 32}.frame(600, 600))
	var arrow *op
	for i, o := range ops {
		if len(o.segs) == 4 && o.segs[3].k == segClose {
			arrow = &ops[i]
		}
	}
	// Facing E: the arrow's tip is east of the centre (5.5 × 32 = 176), on its row.
	if arrow == nil || arrow.segs[0].a <= 176+12 || arrow.segs[0].b != 176 {
		t.Errorf("the facing arrow: %+v", arrow)
	}
}

func TestPlanSizes(t *testing.T) {
	sc := testScene(t, `{"template": "Cir1h1", "origin": {"x": 5, "y": 5}, "tokens": [{"id": "ogre", "x": 1, "y": 1, "size": "Large"}, {"id": "t", "x": 8, "y": 8, "size": 3}]}`)
	if sc.pieces[0].size != 2 || sc.pieces[1].size != 3 {
		t.Errorf("sizes %+v", sc.pieces)
	}
}

// view.focus names whose cover lines "selected" draws (the selected token's when absent) and
// whose name shows on small squares; the selected token keeps its tint.
func TestPlanFocus(t *testing.T) {
	v := defaultView()
	v.selected, v.focus, v.labels = "g1", "g2", true
	ops, pal := testPlan(t, v)
	if c, b := lineOps(ops, pal); c != 0 || b != 4 {
		t.Errorf("focus g2: %d clear, %d blocked lines; want g2's 4 blocked ones", c, b)
	}
	tinted := 0
	for _, o := range ops {
		if o.fill == pal.c[cSelected] {
			tinted++
			if r := o.segs[0]; r.k != segRect || r.a != 81 || r.b != 81 {
				t.Errorf("the tint is not g1's square (4, 4): %+v", r)
			}
		}
	}
	if tinted != 1 {
		t.Errorf("%d squares tinted; want the selected g1's", tinted)
	}
	p := pills(ops)
	if _, ok := p["g2"]; !ok {
		t.Error("the focused g2 has no name on a small square")
	}
	if _, ok := p["g1"]; ok {
		t.Error("the selected g1, not focused, has its name on a small square")
	}
}

// view.unlisted false draws only the caster, the tokens the answer lists and the selected and
// focused ones; view.otherLevels draws a token off the level shown at that opacity, all of it.
func TestPlanUnlistedAndOtherLevels(t *testing.T) {
	body := `{"template": "Cir1h1", "caster": {"id": "me", "x": 0, "y": 0}, "origin": {"x": 5, "y": 5}, "range": 20,
	 "tokens": [{"id": "in", "x": 5, "y": 6}, {"id": "out", "x": 9, "y": 9}, {"id": "sel", "x": 12, "y": 2}, {"id": "hover", "x": 12, "y": 6},
	  {"id": "up", "x": 5, "y": 4, "z": 3, "height": 2}]}`
	sc := testScene(t, body)
	pal := defaultPalette()
	g := geometry{cell: 32}
	centre := func(x, y float64) (float64, float64) { return x*32 + 16, y*32 + 16 }
	drawn := func(ops []op, x, y float64) []op {
		cx, cy := centre(x, y)
		return circles(ops, cx, cy)
	}
	v := defaultView()
	v.tokens, v.labels = tokensDisc, true
	all := plan(sc, v, &pal, 32, g.frame(640, 640))
	for _, c := range [][2]float64{{5, 6}, {9, 9}, {12, 2}, {12, 6}, {0, 0}} {
		if len(drawn(all, c[0], c[1])) == 0 {
			t.Errorf("unlisted true: nothing at %v", c)
		}
	}
	v.unlisted, v.selected, v.focus = false, "sel", "hover"
	some := plan(sc, v, &pal, 32, g.frame(640, 640))
	for _, c := range []struct {
		x, y  float64
		shown bool
	}{{5, 6, true}, {9, 9, false}, {12, 2, true}, {12, 6, true}, {0, 0, true}} {
		if got := len(drawn(some, c.x, c.y)) > 0; got != c.shown {
			t.Errorf("unlisted false: token at (%v, %v) drawn %v, want %v", c.x, c.y, got, c.shown)
		}
	}
	if _, ok := pills(some)["out"]; ok {
		t.Error("an unlisted token's name is drawn")
	}
	// Levels: "up" stands on levels 3 and 4; shown at level 0 with otherLevels 0.3, every op of
	// it (its disc, its name) at 0.3; the others opaque. At level 4 it is opaque.
	v = defaultView()
	v.tokens, v.labels, v.otherLevels = tokensDisc, true, 0.3
	ops := plan(sc, v, &pal, 32, g.frame(640, 640))
	up := drawn(ops, 5, 4)
	if len(up) == 0 || up[0].alpha != 0.3 || pills(ops)["up ↑3"].alpha != 0.3 {
		t.Errorf("up, off the level shown: %+v, its name %+v", up, pills(ops)["up ↑3"])
	}
	for _, o := range drawn(ops, 5, 6) {
		if o.alpha != 0 {
			t.Errorf("a token on the level shown is faint: %+v", o)
		}
	}
	v.level = 4
	ops = plan(sc, v, &pal, 32, g.frame(640, 640))
	if up := drawn(ops, 5, 4); len(up) == 0 || up[0].alpha != 0 {
		t.Errorf("up, on level 4 shown: %+v", up)
	}
	v.level, v.otherLevels = 0, 0
	if ops := plan(sc, v, &pal, 32, g.frame(640, 640)); len(drawn(ops, 5, 4)) != 0 {
		t.Error("otherLevels 0 still draws a token off the level shown")
	}
}

// On squares of any size down to a fraction of a pixel (CONTRACT: cellSize above 0), for every
// way of drawing tokens, with a caster, an affected token and a spared one, no circle has a
// negative radius: the canvas's arc throws on one (it did below ~8 pixels a square).
func TestPlanSmallSquares(t *testing.T) {
	sc := testScene(t, `{"template": "Cir2h1", "origin": {"x": 5, "y": 5}, "caster": {"id": "c", "x": 1, "y": 1, "size": 2},
 "tokens": [{"id": "g1", "x": 4, "y": 4}, {"id": "g2", "x": 7, "y": 5}], "obstacles": [{"x": 6, "y": 5}]}`)
	pal := defaultPalette()
	arcs := 0
	for _, mode := range []tokenMode{tokensRing, tokensDisc, tokensNone} {
		for cell := 0.25; cell <= 40; cell *= 1.25 {
			v := defaultView()
			v.tokens, v.selected = mode, "g1"
			g := geometry{cell: cell}
			for _, o := range plan(sc, v, &pal, cell, g.frame(300, 240)) {
				for _, s := range o.segs {
					if s.k == segArc {
						arcs++
						if !(s.c >= 0) || math.IsInf(s.c, 0) {
							t.Fatalf("tokens %v, %.3g px a square: an arc of radius %v", mode, cell, s.c)
						}
					}
				}
			}
		}
	}
	if arcs == 0 {
		t.Fatal("no arcs planned")
	}
}

// BenchmarkPlan plans a busy frame: a TDGS circle of radius 6 among 60 tokens, 200 walls and
// 100 obstacles, all drawn, at 32 pixels a square (the planner's ops, not the canvas's work).
func BenchmarkPlan(b *testing.B) {
	var body strings.Builder
	body.WriteString(`{"template": "Cir6h6", "origin": {"x": 20, "y": 20}, "tokens": [`)
	for i := 0; i < 60; i++ {
		if i > 0 {
			body.WriteString(",")
		}
		fmt.Fprintf(&body, `{"id": "t%d", "x": %d, "y": %d, "side": %q}`, i, 8+i%12*2, 8+i/12*5, []string{"party", "enemy", "neutral"}[i%3])
	}
	body.WriteString(`], "walls": [`)
	for i := 0; i < 200; i++ {
		if i > 0 {
			body.WriteString(",")
		}
		fmt.Fprintf(&body, `{"a": [%d, %d], "b": [%d, %d]}`, i%40, i/5, i%40+1, i/5)
	}
	body.WriteString(`], "obstacles": [`)
	for i := 0; i < 100; i++ {
		if i > 0 {
			body.WriteString(",")
		}
		fmt.Fprintf(&body, `{"x": %d, "y": %d}`, 3+i%10*4, 1+i/10*4)
	}
	body.WriteString(`]}`)
	req, err := wire.DecodeRequest([]byte(body.String()))
	if err != nil {
		b.Fatal(err)
	}
	res, eerr := engine.Evaluate(req)
	if eerr != nil {
		b.Fatal(eerr)
	}
	sc := sceneOf(req, res)
	pal := defaultPalette()
	v := defaultView()
	v.lines = linesAll
	g := geometry{cell: 32}
	fr := g.frame(1600, 1600)
	b.ReportAllocs()
	for b.Loop() {
		if len(plan(sc, v, &pal, g.cell, fr)) == 0 {
			b.Fatal("no ops")
		}
	}
}
