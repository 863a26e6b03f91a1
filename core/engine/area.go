package engine

import (
	"math"

	"github.com/aoekit/aoekit/core/cover"
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/los"
	"github.com/aoekit/aoekit/core/shadow"
	"github.com/aoekit/aoekit/core/template"
)

// States of a template cell while a request is evaluated.
const (
	stBarred   uint8 = 1 // in the shape, cut off by a barrier (SPEC §3.2, §4.3)
	stExcluded uint8 = 2 // in the shape, removed by targeting.excludeCells (SPEC §7.3)
	stIn       uint8 = 3 // in the area
)

// A footprint is how many cells a placed shape covers and the box that holds them.
type footprint struct {
	count int      // the number of cells the shape visits (0 when it visits none)
	box   grid.Box // the box of those cells, when ok and count > 0
}

// ok reports whether the count is within the limits (SPEC §8.3): the box then holds the
// shape's cells.
func (f *footprint) ok() bool { return template.CheckCount(f.count) == nil }

// measure counts the cells of shape placed at p and, when the count is within the limits,
// finds their box. (A count past the limits is reported by area, after the placement's
// errors.)
func measure(shape template.Shape, p template.Placement) footprint {
	f := footprint{count: shape.Count(p)}
	if !f.ok() {
		return f
	}
	if b, ok := template.BoxOf(shape, p); ok {
		if f.count > 0 {
			f.box = b
		}
		return f
	}
	b := grid.Box{ // empty: the first cell grown into it becomes the box
		Min: grid.Cell{X: math.MaxInt, Y: math.MaxInt, Z: math.MaxInt},
		Max: grid.Cell{X: math.MinInt, Y: math.MinInt, Z: math.MinInt},
	}
	shape.Cells(p, func(c grid.Cell) { // b.Union(the box of c), inlined: it runs for every cell
		b.Min = grid.Cell{X: min(b.Min.X, c.X), Y: min(b.Min.Y, c.Y), Z: min(b.Min.Z, c.Z)}
		b.Max = grid.Cell{X: max(b.Max.X, c.X), Y: max(b.Max.Y, c.Y), Z: max(b.Max.Z, c.Z)}
	})
	if b.Empty() { // no cells
		f.count = 0
	} else {
		f.box = b
	}
	return f
}

// area marks each cell of the shape in or barred in a new cell set (see newCellSet). Where
// obstacles shape the area (SPEC §6), the rule set says how: circle50 by §4.3's fill
// (spreadFill), the others by §3.2's line of effect (cutByBarriers).
func (sc *scene) area() (*cellSet, *Error) {
	if err := template.CheckCount(sc.foot.count); err != nil {
		return nil, templateError("template", err)
	}
	_, isWall := sc.shape.(template.Wall)
	floods := sc.prof.floods()
	state := stBarred
	if isWall || !sc.prof.barriers || !floods && sc.open() {
		state = stIn // nothing cuts the area
	}
	set := newCellSet(sc.shape, sc.at.Placement, sc.foot, state)
	switch {
	case state == stIn:
	case floods:
		sc.spreadFill(set)
	default:
		return set, sc.cutByBarriers(set)
	}
	return set, nil
}

// open reports whether no solid or wall lies in or next to the area and the space line of effect is
// traced from: every cell of the area then has line of effect.
func (sc *scene) open() bool {
	return sc.solids.Clear(sc.foot.box.Union(sc.at.from.Box()).Grow(1))
}

// cutByBarriers is SPEC §3.2: a cell of set, all barred, comes into the area when the origin
// square (the caster's space for an area centred on the caster) has line of effect to it, of
// the rule set's kind (§5.3): corner to corner for Draw Steel; centre to centre for TDGS
// (barriers asked for), from the area's cover source (the origin square's centre, or the
// centre of the caster's space). Cells in full obstacles never do.
//
// The work is reckoned first (for a small area at once, else cellWork for each cell) and
// charged to the request's budget (SPEC §8.3). When it is past the limit, the cells no segment can reach are left out
// (reachable, which reckons the rest: a boxed-in caster's burst walks to none of the cells
// beyond the box).
func (sc *scene) cutByBarriers(set *cellSet) *Error {
	hull := set.Box.Union(sc.at.from.Box())
	limit := MaxWork - sc.w.spent
	// At most the work of every needed cell's segments crossing the whole box: enough for
	// most areas.
	n := sc.neededAtMost(set) * (1 + sc.prof.areaSegments(sc.at.from)*(segCost+hull.Max.X-hull.Min.X+hull.Max.Y-hull.Min.Y+hull.Max.Z-hull.Min.Z+3))
	if n > limit {
		n = sc.cut(set, nil, hull, limit, false)
	}
	var seen []bool // the cells a segment may reach; nil: all
	if n > limit {
		if seen, n = sc.reachable(set, hull, limit); seen == nil {
			n = limit + 1
		}
	}
	if e := sc.w.charge(n, "the area's line of effect (SPEC §3.2): use a smaller area or fewer obstacles near it"); e != nil {
		return e
	}
	sc.cut(set, seen, hull, math.MaxInt, true)
	return sc.w.err
}

// cut reckons the work of line of effect to the cells of set that are not full obstacles,
// that seen holds (a cell of hull, see reachable; nil: all) and that the answer reads
// (needed), up to past limit; or, when walk is set, does that work, marking the cells with
// line of effect in.
//
//go:noinline
func (sc *scene) cut(set *cellSet, seen []bool, hull grid.Box, limit int, walk bool) (n int) {
	corners, segs := sc.prof.cornerLines(), sc.prof.areaSegments(sc.at.from)
	from := cover.NewSourceCells(sc.at.from) // SPEC §3.2: from any of its cells
	var centres *shadow.Field
	if walk && corners {
		from.Use(sc.shadows(set))
	} else if walk {
		centres = sc.centreShadows(set)
	}
	sc.needed(set, func(c grid.Cell) {
		switch {
		case n > limit || sc.solids.IsFull(c) || seen != nil && !seen[boxIndex(hull, c)]:
		case !walk:
			n += sc.areaCellWork(sc.at.from, c, segs)
		case !sc.w.stop(64*segs) && (corners && from.Sees(grid.Unit(c), &sc.solids.lines) || !corners && sc.centreSees(centres, c)):
			set.set(c, stIn)
		}
	})
	return n
}

// centreSees reports whether the segment from the area's cover source to the centre of c is
// clear (TDGS, SPEC §5.3): as the field f has it, else walked.
func (sc *scene) centreSees(f *shadow.Field, c grid.Cell) bool {
	if f != nil {
		if t, ok := f.Cell(c); ok {
			switch clear, blocked := f.Known(t); {
			case clear != 0:
				return true
			case blocked != 0:
				return false
			}
		}
	}
	return !sc.solids.lines.Blocked(sc.at.src, los.Centre(c))
}

// shadows is the shadow.Field that decides most of the segments cut walks for a Draw Steel
// area at once (centreShadows for a TDGS one): from the inset corners of the space line of
// effect is traced from to those of the area's cells, at the heights of that space and of the
// levels the answer reads (a token's cell elsewhere is walked). It is nil, and every segment is walked, for a small
// area, where building it costs more than it saves, a large or sparse one (see shadowMax),
// or a source wider than 4 squares.
func (sc *scene) shadows(set *cellSet) *shadow.Field {
	from := sc.at.from.Box()
	z0, z1, _, ok := sc.fieldOf(set)
	if !ok {
		return nil
	}
	z0, z1 = min(z0, from.Min.Z), max(z1, from.Max.Z)
	return shadow.New(from, set.Box, int64(z0)*los.Unit+1, int64(z1+1)*los.Unit-1, sc.solids, sc.solids.walls.Walls())
}

// centreShadows is the shadow.Field, swept, that decides most of the segments cut walks for
// a TDGS area with barriers at once: from the area's cover source to the centres of the
// area's cells, at the heights of the source and of the levels the answer reads. It is nil
// when shadows would be, for the area's size.
func (sc *scene) centreShadows(set *cellSet) *shadow.Field {
	z0, z1, squares, ok := sc.fieldOf(set)
	if !ok || z0 > z1 {
		return nil
	}
	src, ws := sc.at.src, sc.solids.walls.Walls()
	// The walls' pieces, counted before the field cuts them: a sweep among more blockers than
	// one for every centreBoxes squares costs more than walking one segment a cell (5,000
	// short walls on the Typical board: 2.8 ms against 0.45).
	u := int64(los.Unit)
	x0, y0 := min(int64(set.Min.X)*u, src.X), min(int64(set.Min.Y)*u, src.Y)
	x1, y1 := max(int64(set.Max.X+1)*u, src.X), max(int64(set.Max.Y+1)*u, src.Y)
	if shadow.Pieces(ws, x0, y0, x1, y1) > squares/centreBoxes {
		return nil
	}
	f := shadow.NewCentres(src, set.Box, min(int64(z0)*u+u/2, src.Z), max(int64(z1)*u+u/2, src.Z), sc.solids, ws)
	if f.Boxes() > squares/centreBoxes {
		return nil // the solids alone are too many
	}
	f.Sweep(1)
	return f
}

// fieldOf is what shadows and centreShadows build a field for: the levels of set the answer
// reads (z0 > z1: none) and the squares of its box; ok is false when the box is too small to
// pay, too large a table, or mostly empty (a long diagonal line).
func (sc *scene) fieldOf(set *cellSet) (z0, z1, squares int, ok bool) {
	z0, z1 = set.Min.Z, set.Max.Z
	if b := sc.bounds; b != nil {
		z0, z1 = max(z0, b.Min[2]), min(z1, b.Max[2])
	}
	squares = (set.Max.X - set.Min.X + 1) * (set.Max.Y - set.Min.Y + 1)
	return z0, z1, squares, squares >= shadowMin && squares <= shadowMax && squares <= 4*sc.foot.count
}

// centreBoxes: centreShadows gives up on a field with more boxes than one for every
// centreBoxes squares.
const centreBoxes = 4

// shadowMin is the fewest squares an area's box needs for cut to build a shadow.Field (a
// variable for the tests, which compare the answers with and without one).
var shadowMin = 16

// shadowMax is the most squares an area's box may have for cut to build a shadow.Field: its
// tables then take at most 4 MB.
const shadowMax = 1 << 16

// neededAtMost is at least the number of cells needed visits: the shape's, or with bounds,
// those of its box inside them and of the spaces of the tokens and the caster (a 30 burst on
// a flat board: 61 × 61 squares and the tokens' cells, not 61³).
func (sc *scene) neededAtMost(set *cellSet) int {
	b := sc.bounds
	if b == nil {
		return sc.foot.count
	}
	vol := func(x grid.Box) int {
		if x.Empty() {
			return 0
		}
		return (x.Max.X - x.Min.X + 1) * (x.Max.Y - x.Min.Y + 1) * (x.Max.Z - x.Min.Z + 1)
	}
	n := vol(set.Box.Intersect(boundsBox(b)))
	if sc.caster != nil {
		n += vol(sc.caster.space.Box())
	}
	for i := range sc.tokens {
		n += vol(sc.tokens[i].space.Box())
	}
	return min(n, sc.foot.count)
}

// needed calls f for every cell of set whose state the answer reads: every cell of the shape
// without bounds; with bounds, those inside them (they may be listed in cells) and those in
// the space of a token that may be a target (the window's tokens, the caster), once each. Line
// of effect to the others is left undone: a 30 burst on a flat board (bounds z 0 … 0) walks to
// its 61 × 61 squares, not to its 61³ cells.
func (sc *scene) needed(set *cellSet, f func(c grid.Cell)) {
	b := sc.bounds
	if b == nil {
		sc.shape.Cells(sc.at.Placement, f)
		return
	}
	need := []grid.Box{boundsBox(b)}
	if sc.caster != nil {
		need = append(need, sc.caster.space.Box())
	}
	for i := range sc.tokens {
		need = append(need, sc.tokens[i].space.Box())
	}
	for i, nb := range need {
		set.cells(nb, func(c grid.Cell) {
			for _, before := range need[:i] {
				if before.Contains(c) {
					return // visited already
				}
			}
			f(c)
		})
	}
}

// spreadFill is SPEC §4.3: a cell of set, all barred, comes into the area when it is not a
// full obstacle and is reached from the origin through such cells, moving across shared
// sides. The fill starts in the space line of effect is traced from (the origin square, or
// the caster's space for an area centred on the caster), where a full obstacle stops it; a
// cone or a line starts in the caster's cell, which is not a cell of the shape but is passed
// through all the same.
//
// The 50 % circle is flat and §4.3 names its sides: 4-connected. A shape of several levels
// (a template of another rule set under circle50 rules) is filled across the shared faces of
// its cells, up and down as well. Some shapes have cells that meet only along an edge or at a
// corner, with no path across faces through the shape between them (a diagonal cone's first
// cell and the caster's, the squares of a diagonal line one square wide): §4.3 does not speak
// of them, no disc having such cells, and without a step between them the fill would leave
// out cells that no obstacle closes off, even on an empty board. See joined for that step.
func (sc *scene) spreadFill(set *cellSet) {
	var stack []grid.Cell
	sc.at.from.Cells(func(c grid.Cell) {
		if sc.solids.IsFull(c) {
			return
		}
		if set.get(c) != 0 {
			set.set(c, stIn)
		}
		stack = append(stack, c)
	})
	steps := neighbours[:6] // the faces
	switch {
	case sc.meetsAtCorners():
		steps = neighbours[:]
	case set.Min.Z == set.Max.Z:
		steps = neighbours[:4] // the faces on the set's one level
	}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for i, d := range steps {
			if n := c.Add(d); set.get(n) == stBarred && !sc.solids.IsFull(n) && (i < 6 || sc.joined(set, c, d)) && !sc.solids.stepBlocked(c, n) {
				set.set(n, stIn)
				stack = append(stack, n)
			}
		}
	}
}

// neighbours are the steps from a cell to the 26 around it: first the 6 that share a face,
// then those that share an edge or a corner only.
var neighbours = [26]grid.Cell{
	{X: 1}, {X: -1}, {Y: 1}, {Y: -1}, {Z: 1}, {Z: -1},
	{X: 1, Y: 1}, {X: 1, Y: -1}, {X: -1, Y: 1}, {X: -1, Y: -1},
	{X: 1, Z: 1}, {X: 1, Z: -1}, {X: -1, Z: 1}, {X: -1, Z: -1},
	{Y: 1, Z: 1}, {Y: 1, Z: -1}, {Y: -1, Z: 1}, {Y: -1, Z: -1},
	{X: 1, Y: 1, Z: 1}, {X: 1, Y: 1, Z: -1}, {X: 1, Y: -1, Z: 1}, {X: 1, Y: -1, Z: -1},
	{X: -1, Y: 1, Z: 1}, {X: -1, Y: 1, Z: -1}, {X: -1, Y: -1, Z: 1}, {X: -1, Y: -1, Z: -1},
}

// meetsAtCorners reports whether the fill may need joined's steps along edges and across
// corners: only for a cone or a line that runs diagonally (after the caster's facing) and a
// Draw Steel line. Every other shape is a box of cells (circle, rectangle, cube, aura, burst),
// a flat disc (the 50 % circle, see joined), or a stack of a cardinal cone's or line's rows:
// for any two of its cells, or the caster's cell and one of them, that meet along an edge or
// at a corner, a path across faces runs through cells of the shape, so joined refuses the
// step and leaving the test out changes no answer.
func (sc *scene) meetsAtCorners() bool {
	if _, ok := sc.shape.(template.DSLine); ok {
		return true
	}
	d, ok := sc.direction()
	return ok && d.Diagonal()
}

// direction is a TDGS cone's or line's absolute direction, after the caster's facing (SPEC
// §1.3); ok is false for shapes without one.
func (sc *scene) direction() (d grid.Dir, ok bool) {
	switch s := sc.shape.(type) {
	case template.Cone:
		d, ok = s.Dir, true
	case template.Line:
		d, ok = s.Dir, true
	}
	return d.Abs(sc.at.Facing), ok
}

// axisOrders lists the orders in which a path across faces may take the axes of a step that
// changes two (the first two orders) or three coordinates.
var axisOrders = [6][3]uint8{{0, 1, 2}, {1, 0, 2}, {0, 2, 1}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}

// joined reports whether the fill steps from c to c+d, a cell of the shape that is not a full
// obstacle and meets c only along an edge or at a corner (across a face the fill always steps,
// SPEC §4.3). It does when no path across faces from one to the other, in the block of cells
// between them, runs through cells of the shape (where one does, the fill must take it, and a
// full obstacle on it closes the way, as §4.3 says), and some such path runs through cells
// that are not full obstacles (no squeezing between solids that meet only diagonally, as §5.2
// says of line of effect). That step is the engine's reading, not the SPEC's: §4.3 never
// meets such cells. No 50 % circle takes such a step: whether a cell is
// in the disc depends only on |dx| and |dy| from the centre, and never gains as either grows;
// of two cells that meet at a corner, A and B, one of the two cells beside both is no farther
// out than A, or than B, on either axis, so it is in the disc too and joins them by faces.
func (sc *scene) joined(set *cellSet, c, d grid.Cell) bool {
	var steps [3]grid.Cell // d's move along each axis it changes: 2 or 3 of them
	k := 0
	for a, v := range [3]int{d.X, d.Y, d.Z} {
		if v != 0 {
			var u [3]int
			u[a] = v
			steps[k] = grid.Cell{X: u[0], Y: u[1], Z: u[2]}
			k++
		}
	}
	orders := axisOrders[:2]
	if k == 3 {
		orders = axisOrders[:]
	}
	open := false
	for _, o := range orders {
		p, inShape, clear := c, true, true
		for _, a := range o[:k-1] {
			p = p.Add(steps[a])
			inShape = inShape && set.get(p) != 0
			clear = clear && !sc.solids.IsFull(p)
		}
		if inShape {
			return false
		}
		open = open || clear
	}
	return open
}

// cellsIn lists the cells of set in the area and inside the bounds, sorted by z, y, x, once
// each (CONTRACT's order). They are counted first, so that the list takes the memory of the
// answer: a Lin1000SE clipped to one square, or a boxed-in burst, needs no room for a million.
func (sc *scene) cellsIn(set *cellSet) [][3]int32 {
	clip := set.Box
	if b := sc.bounds; b != nil {
		clip = clip.Intersect(boundsBox(b))
	}
	if set.rows == nil {
		return [][3]int32{}
	}
	// Room for every cell of the shape, when that is little (a typical area: one pass);
	// otherwise counted first, so that bounds clipping a large shape leave no large slice.
	n := sc.foot.count
	if n > 1<<14 {
		n, _ = set.appendCells(nil, clip, stIn)
	}
	_, out := set.appendCells(make([][3]int32, 0, n), clip, stIn)
	return out
}
