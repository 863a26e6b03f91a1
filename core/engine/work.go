package engine

import (
	"github.com/aoekit/aoekit/core/cover"
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/internal/num"
	"github.com/aoekit/aoekit/core/los"
)

// A Context is what EvaluateContext and MoveContext watch: a context.Context is one. The
// engine does not import package context, which would add some 35 KB to the WebAssembly
// module.
type Context interface{ Err() error }

// A budget is the work an evaluation has reckoned so far (SPEC §8.3, see MaxWork) and the
// context that may cancel it (a move's, too).
type budget struct {
	ctx   Context   // nil: never cancelled
	spent int       // steps of work reckoned
	lines int       // cover lines in the answer so far (MaxLines)
	tick  int       // steps done since ctx was last looked at
	err   *Error    // why the evaluation stopped: past the limit, or cancelled
	_     [0]func() // not comparable: no equality function in the module
}

// charge reckons n more steps of work for what (a step of the evaluation, and what to do
// about it) and returns a too_large error, kept in b.err, when the request's work passes
// MaxWork, or the context is done.
func (b *budget) charge(n int, what string) *Error {
	if b.spent += n; b.spent > MaxWork && b.err == nil {
		b.err = newError(CodeTooLarge, "the request needs at least "+num.Itoa(b.spent)+" steps of work, past the limit of "+num.Itoa(MaxWork)+", for "+what)
	}
	b.stop(1 << 16)
	return b.err
}

// chargeLines counts n more cover lines in the answer and returns a too_large error, kept in
// b.err, when they pass MaxLines (or the work already stopped the evaluation).
func (b *budget) chargeLines(n int) *Error {
	if b.lines += n; b.lines > MaxLines && b.err == nil {
		b.err = newError(CodeTooLarge, "the answer would hold at least "+num.Itoa(b.lines)+" cover lines, past the limit of "+num.Itoa(MaxLines)+
			" (SPEC §5.4, §8.3): use fewer or smaller tokens, or cover \"none\"")
	}
	return b.err
}

// stop counts n steps done and reports whether the evaluation must stop: its context is done
// (looked at every 65 536 steps and at each charge).
func (b *budget) stop(n int) bool {
	if b.tick += n; b.tick >= 1<<16 && b.err == nil && b.ctx != nil {
		if b.tick = 0; b.ctx.Err() != nil {
			b.err = newError(CodeTooLarge, "cancelled: "+b.ctx.Err().Error())
		}
	}
	return b.err != nil
}

// lineWork is the most steps segs segments between points of the spaces a and b take: a
// step to set each up and draw it (segCost), the walls it may be tested against (the wall
// index's Cost), and one per cell it crosses into, at most the cells of their box along each
// axis; or the set-up alone when nothing blocks in or next to that box (los.Check then
// answers at once).
func (sc *scene) lineWork(a, b grid.Space, segs int) int {
	x := a.Box().Union(b.Box())
	n := segCost
	if !sc.solids.Clear(x.Grow(1)) {
		n += x.Max.X - x.Min.X + x.Max.Y - x.Min.Y + x.Max.Z - x.Min.Z + 3
		n += sc.solids.walls.Cost(int64(x.Max.X-x.Min.X+1)*los.Unit, int64(x.Max.Y-x.Min.Y+1)*los.Unit)
	}
	return 1 + segs*n
}

// corners is the number of inset corners of sp on its faces turned toward the point p (SPEC
// §5.4: a face is turned toward a point beyond its plane), or on a face along every axis when
// all is set (the most any point or space sees): of the 2n inset coordinates along an axis of
// n cells, the points with one on a turned face.
func corners(sp grid.Space, p los.Point, all bool) int {
	lo, hi := los.Vertex(sp.Min()), los.Vertex(sp.Max().Add(grid.Cell{X: 1, Y: 1, Z: 1}))
	n, inner := 1, 1
	for _, a := range [3][3]int64{{lo.X, hi.X, p.X}, {lo.Y, hi.Y, p.Y}, {lo.Z, hi.Z, p.Z}} {
		k := int(a[1]-a[0]) / los.Unit * 2
		n *= k
		if all || a[2] < a[0] || a[2] > a[1] {
			k--
		}
		inner *= k
	}
	return n - inner
}

// segments is the most segments one line-of-effect check of the profile's kind from the
// space from to a cell outside it tries (SPEC §5.3): one, centre to centre; corner to corner,
// the corners of from against the cell's 7 (none when from holds the cell: see lineWork).
func (p profile) segments(from grid.Space) int {
	if !p.cornerLines() {
		return 1
	}
	return 7 * corners(from, los.Point{}, true)
}

// areaSegments is the most segments one cell's line-of-effect check of an area from the space
// from tries: segments from each of from's cells, corner to corner (SPEC §3.2: for an area
// centred on the caster, line of effect from any of its cells counts; cover.NewSourceCells).
func (p profile) areaSegments(from grid.Space) int {
	if !p.cornerLines() {
		return 1
	}
	b := from.Box()
	return p.segments(grid.Unit(b.Min)) * (b.Max.X - b.Min.X + 1) * (b.Max.Y - b.Min.Y + 1) * (b.Max.Z - b.Min.Z + 1)
}

// areaCellWork is the most steps line of effect from the space an area is traced from to its
// cell c takes (cut, reachable), segs segments (profile.areaSegments): cellWork, but when from
// has several cells traced corner to corner (SPEC §3.2: from any of them) and nothing blocks in
// or next to the box of c and from's cell nearest it, that cell's segments alone: cover's
// Source tries it first, and its first segment is clear.
func (sc *scene) areaCellWork(from grid.Space, c grid.Cell, segs int) int {
	if from.Count() > 1 && !from.Contains(c) && sc.prof.cornerLines() {
		u := grid.Unit(c)
		near := grid.Unit(cover.NearestCell(from.Box(), u.Box()))
		// The box of c and that cell, on the levels of all from too: Empty tells levels apart only
		// by the board's, which a scene's index and Evaluate's (of the window) may not share.
		x := near.Box().Union(u.Box())
		x.Min.Z, x.Max.Z = min(x.Min.Z, from.Min().Z), max(x.Max.Z, from.Max().Z)
		if sc.solids.Clear(x.Grow(1)) {
			return sc.lineWork(near, u, sc.prof.segments(near))
		}
	}
	return sc.cellWork(from, c, segs)
}

// cellWork is the most steps line of effect from the space from to cell c takes, segs
// segments (profile.segments): none corner to corner when from holds c.
//
//go:noinline
func (sc *scene) cellWork(from grid.Space, c grid.Cell, segs int) int {
	if segs > 1 && from.Contains(c) {
		segs = 0
	}
	return sc.lineWork(from, grid.Unit(c), segs)
}
