// Package shadow decides, for many segments at once, which are certainly clear and which are
// certainly blocked (SPEC §5.2, §5.6), before any of them is walked: the shared work of an
// area's line of effect (SPEC §3.2), where every cell of a Draw Steel area tries segments from
// the same few corners of the caster's space, and every cell of a TDGS area with barriers one
// segment from the same point.
//
// A Field is built for a set of source points and a set of target points: the inset corners
// (SPEC §5.4) of the cells of two boxes on the plane (New), or one point and the centres of
// the cells of a box (NewCentres), at heights within [zlo, zhi]. For each
// source point p it sweeps the targets once, in each of four cones around p (east, west,
// south, north: |v| ≤ u in the cone's own coordinates), row by row in order of distance u,
// keeping the slopes v/u that the blockers met so far cover as a union of intervals of exact
// rational slopes, and reads each target's verdict off them:
//
//   - Clear when no box that may touch the segment is met: the boxes are the solid cells that
//     reach into the heights [zlo, zhi] and pieces of each wall's segment at most a cell long,
//     and a box is met when the target's slope lies in the closed interval of the slopes of the
//     box's points in the cone and the target is at least as far as the box's nearest point in
//     the cone can be. No point of the segment then lies in a closed solid box and no wall meets
//     it, so nothing blocks it (SPEC §5.2, §5.6).
//   - Blocked when the target lies beyond the far side of a square wholly ahead of p whose
//     column is solid at every height in [zlo, zhi] with room to spare above and below, in the
//     open interval of its slopes (the segment passes through the open inside of solid
//     matter), or beyond the farther end of a wall standing over all of [zlo, zhi], both ends
//     ahead of p and p off its line, within the closed interval of its slopes (the projections
//     meet in exactly one point, strictly between the segment's ends, at a height within the
//     wall's).
//   - Unknown otherwise: the caller walks the segment (los.Blocked), as it would without the
//     field. Both verdicts are sufficient conditions, so some segments that are clear or
//     blocked are left Unknown: a square beside p rather than ahead of it, a target within
//     the far side of the square that blocks it.
//
// A verdict depends only on where the two points stand on the plane: it holds for every pair
// of heights within [zlo, zhi]. Everything is decided with integer cross products on the 1/400
// lattice; a Field never decides a segment that could go the other way. The tests hold every
// verdict to los.Blocked over random boards and fuzzed ones.
package shadow

import (
	"math/bits"

	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/los"
	"github.com/aoekit/aoekit/core/walls"
)

// A Verdict is what a Field knows of a segment.
type Verdict uint8

// The verdicts.
const (
	Unknown Verdict = iota // walk it
	Clear                  // certainly not blocked
	Blocked                // certainly blocked
)

const unit = los.Unit

// inset is how far a corner point lies inside its cell (SPEC §5.4).
const inset = 1

// A Field holds the verdicts of the segments from the inset corners of the cells of src to
// those of dst (both taken on the plane: their Z is ignored), or from one point to the centres
// of the cells of dst, for points at heights within [zlo, zhi]. A verdict holds for every
// height in that range: it depends only on where the two points stand on the plane. There are
// at most MaxSources source points (src at most 4 × 4 cells); each is swept when first asked.
// A Field is not safe for concurrent use.
type Field struct {
	src, dst       grid.Box
	zlo, zhi       int64
	lat            lattice      // where the target points lie in their cells
	one            bool         // one source point, p0, rather than the inset corners of src
	p0             [2]int64     // that point
	clear          []box        // closed boxes (lattice) that may touch a segment: solids and walls' boxes
	opaque         []box        // squares solid through [zlo, zhi] with room to spare
	walls          []walls.Wall // walls standing over all of [zlo, zhi]
	clearM, blockM []uint64     // per target point, the source points whose segment to it is Clear, Blocked
	done           uint64       // the source points swept
	snx, sny       int          // source points across and down
	tnx, tny       int          // target points across and down
	cs, bs, tmp    []cone       // scratch: the current cone's blockers
	cnt            []int32      // scratch: byReach's counts
	cu, bu         union        // scratch: the current cone's unions
}

// MaxSources is the most source points a Field has: the inset corners of 4 × 4 cells.
const MaxSources = 64

// MaxPieces bounds the pieces New cuts the walls into (see pieces): past it, a wall is one box.
const MaxPieces = 1 << 14

// A box is a closed box of the plane, in lattice units.
type box struct{ x0, y0, x1, y1 int64 }

// A lattice is where a field's points lie in their cells, on each axis: per points a cell, at
// lo and (the second of two) hi past the cell's lower side.
type lattice struct {
	per    int
	lo, hi int64
}

var (
	corners = lattice{2, inset, unit - inset} // the inset corners (SPEC §5.4)
	centres = lattice{1, unit / 2, unit / 2}  // the centres
)

// New builds a Field for segments from the inset corners of the cells of src to those of
// dst, at heights within [zlo, zhi] (lattice units, zlo ≤ zhi), over the solids s and the
// closed walls ws. It reads the fills of the cells of the box around src and dst once, at
// the levels those heights reach, and keeps the walls that come near it. It is nil when src
// has more than MaxSources inset corners on the plane.
func New(src, dst grid.Box, zlo, zhi int64, s los.Solids, ws []walls.Wall) *Field {
	f := &Field{src: src, dst: dst, zlo: zlo, zhi: zhi, lat: corners}
	f.snx, f.sny = 2*(src.Max.X-src.Min.X+1), 2*(src.Max.Y-src.Min.Y+1)
	if f.snx*f.sny > MaxSources {
		return nil
	}
	f.build(s, ws)
	return f
}

// NewCentres builds a Field for segments from the point p (TDGS's cover source, SPEC §5.4: a
// cell's centre, or a corner of the grid for a space of an even size) to the centres of the
// cells of dst, at heights within [zlo, zhi] (p.Z among them), over the solids s and the
// closed walls ws. Its one source point has index 0.
func NewCentres(p los.Point, dst grid.Box, zlo, zhi int64, s los.Solids, ws []walls.Wall) *Field {
	// src: the cells whose closed box holds p (two on an axis where p lies on a grid line)
	src := grid.Box{Min: grid.Cell{X: int(floorDiv(p.X-1, unit)), Y: int(floorDiv(p.Y-1, unit))},
		Max: grid.Cell{X: int(floorDiv(p.X, unit)), Y: int(floorDiv(p.Y, unit))}}
	f := &Field{src: src, dst: dst, zlo: zlo, zhi: zhi, lat: centres, one: true, p0: [2]int64{p.X, p.Y}, snx: 1, sny: 1}
	f.build(s, ws)
	return f
}

// build reads the solids and walls around f.src and f.dst into f's boxes.
func (f *Field) build(s los.Solids, ws []walls.Wall) {
	src, dst, zlo, zhi := f.src, f.dst, f.zlo, f.zhi
	f.tnx, f.tny = f.lat.per*(dst.Max.X-dst.Min.X+1), f.lat.per*(dst.Max.Y-dst.Min.Y+1)
	f.clearM, f.blockM = make([]uint64, f.tnx*f.tny), make([]uint64, f.tnx*f.tny)
	hx0, hy0 := min(src.Min.X, dst.Min.X), min(src.Min.Y, dst.Min.Y)
	hx1, hy1 := max(src.Max.X, dst.Max.X), max(src.Max.Y, dst.Max.Y)
	// The levels whose closed boxes may reach a height in [zlo, zhi] (any fill reaches its
	// level's floor; a full one its ceiling), and those that must be full for the column to
	// hold every such height strictly inside.
	c0, c1 := int(ceilDiv(zlo, unit))-1, int(floorDiv(zhi, unit))
	o0, o1 := int(floorDiv(zlo-1, unit)), int(floorDiv(zhi, unit))
	for y := hy0; y <= hy1; y++ {
		for x := hx0; x <= hx1; x++ {
			b := box{int64(x) * unit, int64(y) * unit, int64(x+1) * unit, int64(y+1) * unit}
			for l := c0; l <= c1; l++ {
				if fl := fill(s, x, y, l); fl > 0 && int64(l)*unit+int64(fl) >= zlo && int64(l)*unit <= zhi {
					f.clear = append(f.clear, b)
					break
				}
			}
			full := true
			for l := o0; l <= o1 && full; l++ {
				full = fill(s, x, y, l) == unit
			}
			if full {
				f.opaque = append(f.opaque, b)
			}
		}
	}
	hull := box{int64(hx0) * unit, int64(hy0) * unit, int64(hx1+1) * unit, int64(hy1+1) * unit}
	// A wall is cut into pieces a cell long, at most MaxPieces of them in all: past that, each
	// further wall is one box, its own clipped to the hull's (a coarser shadow, never a wrong
	// one), so that the sweeps' work stays within the hull's size.
	room := MaxPieces
	for _, w := range ws {
		b := box{min(w.A[0], w.B[0]), min(w.A[1], w.B[1]), max(w.A[0], w.B[0]), max(w.A[1], w.B[1])}
		if b.x1 < hull.x0 || b.x0 > hull.x1 || b.y1 < hull.y0 || b.y0 > hull.y1 || w.Top < zlo || w.Bottom > zhi {
			continue // no segment of the field comes near it
		}
		if n := len(f.clear); room > 0 {
			f.clear = pieces(f.clear, w.A, w.B, hull)
			room -= len(f.clear) - n
		} else {
			f.clear = append(f.clear, box{max(b.x0, hull.x0), max(b.y0, hull.y0), min(b.x1, hull.x1), min(b.y1, hull.y1)})
		}
		if w.Bottom <= zlo && w.Top >= zhi {
			f.walls = append(f.walls, w)
		}
	}
}

// pieces appends the boxes of the pieces of the segment a → b that may meet the box h: the
// segment is cut into n pieces, each at most a cell long on either axis, whose boxes,
// rounded outward to the lattice, together hold it. A wall's own box would hide everything
// beside a long wall that runs away from a source point.
func pieces(dst []box, a, b [2]int64, h box) []box {
	dx, dy := b[0]-a[0], b[1]-a[1]
	n := piecesOf(a, b)
	at := func(i int64) (x0, y0, x1, y1 int64) { // the point i/n along, rounded down and up
		return a[0] + floorDiv(dx*i, n), a[1] + floorDiv(dy*i, n), a[0] + ceilDiv(dx*i, n), a[1] + ceilDiv(dy*i, n)
	}
	xlo, xhi := near(a[0], dx, h.x0, h.x1, n)
	ylo, yhi := near(a[1], dy, h.y0, h.y1, n)
	for i := max(xlo, ylo, 0); i <= min(xhi, yhi, n-1); i++ {
		lx0, ly0, lx1, ly1 := at(i)
		hx0, hy0, hx1, hy1 := at(i + 1)
		dst = append(dst, box{min(lx0, hx0), min(ly0, hy0), max(lx1, hx1), max(ly1, hy1)})
	}
	return dst
}

// piecesOf is the number of pieces pieces cuts the segment a → b into: each at most a cell
// long on either axis, one at least.
func piecesOf(a, b [2]int64) int64 {
	dx, dy := b[0]-a[0], b[1]-a[1]
	return max((max(dx, -dx)+unit-1)/unit, (max(dy, -dy)+unit-1)/unit, 1)
}

// Pieces is at most the number of pieces a field cuts the walls of ws into when its box of
// source and target points (lattice units) is x0 … x1 × y0 … y1, before building it: each wall
// whose box meets that box, cut whole. A sweep's work grows with them (see Boxes).
func Pieces(ws []walls.Wall, x0, y0, x1, y1 int64) int {
	n := 0
	for i := range ws {
		a, b := ws[i].A, ws[i].B
		if max(a[0], b[0]) >= x0 && min(a[0], b[0]) <= x1 && max(a[1], b[1]) >= y0 && min(a[1], b[1]) <= y1 {
			n += int(piecesOf(a, b))
		}
	}
	return n
}

// near is a range of the pieces i (of n) of the line a0 + t·d, t in [i/n, (i+1)/n], that
// holds every piece with a point in [lo, hi], and a few more.
func near(a0, d, lo, hi, n int64) (ilo, ihi int64) {
	switch {
	case d > 0:
		return floorDiv((lo-a0)*n, d) - 1, floorDiv((hi-a0)*n, d) + 1
	case d < 0:
		return floorDiv((a0-hi)*n, -d) - 1, floorDiv((a0-lo)*n, -d) + 1
	case a0 < lo || a0 > hi:
		return 1, 0
	}
	return 0, n - 1
}

// fill is the fill of cell (x, y, z), clamped to 0..unit.
func fill(s los.Solids, x, y, z int) int {
	if s == nil {
		return 0
	}
	return min(max(s.Fill(grid.Cell{X: x, Y: y, Z: z}), 0), unit)
}

// Verdict is what the field knows of the segment from p, a source point (an inset corner of a
// cell of src, or NewCentres's point), to q, a target point (an inset corner, or the centre, of
// a cell of dst); Unknown for any other points, or heights outside [zlo, zhi].
func (f *Field) Verdict(p, q los.Point) Verdict {
	s, t := f.Source(p), f.Target(q)
	if s < 0 || t < 0 {
		return Unknown
	}
	f.Sweep(1 << s)
	switch bit := uint64(1) << s; {
	case f.clearM[t]&bit != 0:
		return Clear
	case f.blockM[t]&bit != 0:
		return Blocked
	}
	return Unknown
}

// Source is the index of p among the source points (below MaxSources), the bit of p in the
// masks of Known; −1 when p is none of them.
func (f *Field) Source(p los.Point) int {
	if f.one {
		if !f.height(p) || p.X != f.p0[0] || p.Y != f.p0[1] {
			return -1
		}
		return 0
	}
	i, j := corners.at(p.X, f.src.Min.X), corners.at(p.Y, f.src.Min.Y)
	if !f.height(p) || i < 0 || j < 0 || i >= f.snx || j >= f.sny {
		return -1
	}
	return j*f.snx + i
}

// Target is the index of q among the target points, for Known; −1 when q is none of them.
func (f *Field) Target(q los.Point) int {
	i, j := f.lat.at(q.X, f.dst.Min.X), f.lat.at(q.Y, f.dst.Min.Y)
	if !f.height(q) || i < 0 || j < 0 || i >= f.tnx || j >= f.tny {
		return -1
	}
	return j*f.tnx + i
}

// Cell is the index, for Known, of the target point at the lowest x and y of cell c's: its
// centre in a field of NewCentres; else its inset corner on the plane, the others one and
// Across further on. ok is false when c is no cell of dst or its points lie outside the
// heights [zlo, zhi].
func (f *Field) Cell(c grid.Cell) (t int, ok bool) {
	i, j := f.lat.per*(c.X-f.dst.Min.X), f.lat.per*(c.Y-f.dst.Min.Y)
	z := int64(c.Z) * unit
	if i < 0 || j < 0 || i >= f.tnx || j >= f.tny || z+f.lat.lo < f.zlo || z+f.lat.hi > f.zhi {
		return 0, false
	}
	return j*f.tnx + i, true
}

// Across is the number of target points in a row of dst: the step in Cell's index from a
// corner to the one south of it.
func (f *Field) Across() int { return f.tnx }

// height reports whether p lies within the heights [zlo, zhi] and MaxCoord.
func (f *Field) height(p los.Point) bool {
	return p.Z >= f.zlo && p.Z <= f.zhi && p.InRange()
}

// Sweep works out the verdicts of the source points in the mask (bit s for Source's index
// s) that are not known yet.
func (f *Field) Sweep(mask uint64) {
	for todo := mask &^ f.done; todo != 0; todo &= todo - 1 {
		s := bits.TrailingZeros64(todo)
		px, py := corners.coord(s%f.snx, f.src.Min.X), corners.coord(s/f.snx, f.src.Min.Y)
		if f.one {
			px, py = f.p0[0], f.p0[1]
		}
		for k := range 4 {
			f.cone(k, px, py, uint64(1)<<s)
		}
		f.done |= 1 << s
	}
}

// Boxes is the number of boxes a sweep meets (solids and pieces of walls): a sweep's work
// grows with it, as with the target points.
func (f *Field) Boxes() int { return len(f.clear) }

// Known is, for target point t (Target's index), the source points swept so far whose
// segment to it is certainly clear, and those whose segment is certainly blocked, as masks.
func (f *Field) Known(t int) (clear, blocked uint64) { return f.clearM[t], f.blockM[t] }

// at is the index of the coordinate v among the lattice's of the cells from c0 on (per a
// cell, ascending), or −1 when v is none of them at or past c0.
func (l lattice) at(v int64, c0 int) int {
	c := floorDiv(v, unit)
	k := int64(l.per) * (c - int64(c0))
	switch v - c*unit {
	case l.lo:
	case l.hi:
		k++
	default:
		return -1
	}
	if k < 0 || k > 1<<30 {
		return -1
	}
	return int(k)
}

// coord is the k-th coordinate of the lattice's of the cells from c0 on.
func (l lattice) coord(k, c0 int) int64 {
	v := int64(c0+k/l.per) * unit
	if k%l.per == 0 {
		return v + l.lo
	}
	return v + l.hi
}

// The four cones around a source point p, each {u > 0, |v| ≤ u} in its own coordinates
// (u, v): east (x − px, y − py), west (px − x, y − py), south (y − py, x − px) and north
// (py − y, x − px). A segment from p to a point of a cone stays in that cone.
const (
	east = iota
	west
	south
	north
)

// toCone maps the offset (dx, dy) from p to cone k's coordinates.
func toCone(k int, dx, dy int64) (u, v int64) {
	switch k {
	case east:
		return dx, dy
	case west:
		return -dx, dy
	case south:
		return dy, dx
	}
	return -dy, dx
}

// A cone is one blocker seen in a cone: it covers the slopes iv of the points at distance
// past at (its u): from at on for the clear union, past at for the blocked one. row is the
// first row of the sweep that takes it (byReach).
type cone struct {
	at  int64
	row int32
	iv  ival
	_   [0]func() // not comparable: no equality function in the module
}

// cone sweeps cone k from the source point (px, py), whose bit is bit, setting it in the
// masks of the target points it finds clear or blocked.
func (f *Field) cone(k int, px, py int64, bit uint64) {
	cs, bs := f.cs[:0], f.bs[:0]
	for _, b := range f.clear {
		if c, ok := touching(k, b, px, py); ok {
			cs = append(cs, c)
		}
	}
	for _, b := range f.opaque {
		if c, ok := inside(k, b, px, py); ok {
			bs = append(bs, c)
		}
	}
	for i := range f.walls {
		if c, ok := crossing(k, &f.walls[i], px, py); ok {
			bs = append(bs, c)
		}
	}

	// The target points in the cone's coordinates: rows by u, ascending; within a row, the
	// points by v, ascending. Every point of a row is marked from the unions at once: those
	// in the gaps of the clear union are clear, those in the blocked union blocked (which
	// lies inside the clear union: every opaque square and crossing wall is also a box there,
	// taken in no later). A point on a diagonal is marked from two cones, which cannot
	// disagree: both verdicts are certain.
	rows, cols, r0, c0, rp, cp := f.tnx, f.tny, f.dst.Min.X, f.dst.Min.Y, px, py // east, west: a row is a column of targets (fixed x)
	if k == south || k == north {
		rows, cols, r0, c0, rp, cp = f.tny, f.tnx, f.dst.Min.Y, f.dst.Min.X, py, px
	}
	// A blocker joins its union at the first row its at reaches: u ≥ at for the clear
	// union, u > at (u ≥ at + 1) for the blocked one.
	f.byReach(cs, k, rows, r0, rp, 0)
	f.byReach(bs, k, rows, r0, rp, 1)
	f.cs, f.bs = cs, bs
	f.cu, f.bu = f.cu[:0], f.bu[:0]
	ci, bi := 0, 0
	for n := range rows {
		r := n
		if k == west || k == north {
			r = rows - 1 - n
		}
		u := f.lat.coord(r, r0) - rp
		if k == west || k == north {
			u = -u
		}
		if u <= 0 {
			continue
		}
		for ; ci < len(cs) && int(cs[ci].row) <= n; ci++ {
			f.cu.add(cs[ci].iv)
		}
		for ; bi < len(bs) && int(bs[bi].row) <= n; bi++ {
			f.bu.add(bs[bi].iv)
		}
		// idx(j) = base + j·stride is the index of the row's j-th point.
		base, stride := r, f.tnx
		if k == south || k == north {
			base, stride = r*f.tnx, 1
		}
		j0, j1 := max(f.lat.first(cp-u, c0), 0), min(f.lat.first(cp+u+1, c0)-1, cols-1) // the row's points with |v| ≤ u
		next := j0
		for i := range f.cu {
			a, b := f.lat.span(&f.cu[i], u, cp, c0)
			mark(f.clearM, bit, base, stride, next, min(a-1, j1))
			next = max(next, b+1)
		}
		mark(f.clearM, bit, base, stride, next, j1)
		for i := range f.bu {
			a, b := f.lat.span(&f.bu[i], u, cp, c0)
			mark(f.blockM, bit, base, stride, max(a, j0), min(b, j1))
		}
	}
}

// span is the range of the indices a … b (a > b: none) of the points of a row at distance u,
// v = l.coord(j, c0) − cp, whose slope v/u lies in iv.
func (l lattice) span(iv *ival, u, cp int64, c0 int) (a, b int) {
	var vlo, vhi int64
	if iv.loOpen {
		vlo = floorDiv(iv.lo.v*u, iv.lo.u) + 1
	} else {
		vlo = ceilDiv(iv.lo.v*u, iv.lo.u)
	}
	if iv.hiOpen {
		vhi = ceilDiv(iv.hi.v*u, iv.hi.u) - 1
	} else {
		vhi = floorDiv(iv.hi.v*u, iv.hi.u)
	}
	return l.first(cp+vlo, c0), l.first(cp+vhi+1, c0) - 1
}

// first is the index of the first of the lattice's coordinates at or past x among those of
// the cells from c0 on: l.coord(l.first(x, c0), c0) ≥ x > l.coord(l.first(x, c0) − 1, c0).
func (l lattice) first(x int64, c0 int) int {
	c := floorDiv(x, unit)
	k := int64(l.per) * (c - int64(c0))
	if d := x - c*unit; d > l.hi {
		k += int64(l.per) // past the cell's last: the next cell's first
	} else if d > l.lo {
		k++
	}
	return int(k)
}

// mark sets bit in m for the points a … b of a row (indices base + j·stride).
func mark(m []uint64, bit uint64, base, stride, a, b int) {
	for j := a; j <= b; j++ {
		m[base+j*stride] |= bit
	}
}

// touching is the closed box b seen in cone k from (px, py), for the clear union: the slopes
// of its points with u > 0, for points at u from at on. A point of the box inside the cone
// has u ≥ u0 and u ≥ |v|, which is at least v0 when v0 > 0 and −v1 when v1 < 0. ok is false
// when no point of the cone's targets' segments can touch it.
func touching(k int, b box, px, py int64) (c cone, ok bool) {
	u0, v0 := toCone(k, b.x0-px, b.y0-py)
	u1, v1 := toCone(k, b.x1-px, b.y1-py)
	u0, u1 = min(u0, u1), max(u0, u1)
	v0, v1 = min(v0, v1), max(v0, v1)
	switch {
	case u1 < 0 || u1 == 0 && (v0 > 0 || v1 < 0):
		return c, false // behind p, or beside it on the line u = 0
	case u0 > 0:
		c = cone{at: max(u0, v0, -v1), iv: ival{lo: lowest(v0, u0, u1), hi: highest(v1, u0, u1)}}
	default: // the box reaches back to the line u = 0: its slopes run out to ±∞ where it straddles v = 0
		c = cone{at: max(0, v0, -v1), iv: ival{lo: slope{-1, 1}, hi: slope{1, 1}}}
		if v0 >= 0 && u1 > 0 {
			c.iv.lo = slope{v0, u1}
		}
		if v1 <= 0 && u1 > 0 {
			c.iv.hi = slope{v1, u1}
		}
	}
	return c, c.iv.clip()
}

// inside is the opaque square b seen in cone k, for the blocked union: the open interval of
// the slopes of its inside, for points past its far side. Only a square wholly in front of p
// (u > 0) counts.
func inside(k int, b box, px, py int64) (c cone, ok bool) {
	u0, v0 := toCone(k, b.x0-px, b.y0-py)
	u1, v1 := toCone(k, b.x1-px, b.y1-py)
	u0, u1 = min(u0, u1), max(u0, u1)
	v0, v1 = min(v0, v1), max(v0, v1)
	if u0 <= 0 {
		return c, false
	}
	c = cone{at: u1, iv: ival{lo: lowest(v0, u0, u1), hi: highest(v1, u0, u1), loOpen: true, hiOpen: true}}
	return c, c.iv.clip()
}

// crossing is the wall w seen in cone k, for the blocked union: the closed interval of the
// slopes of its points, for points past its farther end, when both its ends lie in front of
// p (u > 0) and p is not on its line: a segment from p at such a slope, longer than that,
// crosses the wall's projection in exactly one point, strictly between its ends.
func crossing(k int, w *walls.Wall, px, py int64) (c cone, ok bool) {
	ua, va := toCone(k, w.A[0]-px, w.A[1]-py)
	ub, vb := toCone(k, w.B[0]-px, w.B[1]-py)
	if ua <= 0 || ub <= 0 || ua*vb == va*ub {
		return c, false
	}
	sa, sb := slope{va, ua}, slope{vb, ub}
	if sb.less(sa) {
		sa, sb = sb, sa
	}
	c = cone{at: max(ua, ub), iv: ival{lo: sa, hi: sb}}
	return c, c.iv.clip()
}

// lowest is the least slope v0/u over u in [u0, u1] (0 < u0 ≤ u1); highest the greatest v1/u.
func lowest(v0, u0, u1 int64) slope {
	if v0 >= 0 {
		return slope{v0, u1}
	}
	return slope{v0, u0}
}

func highest(v1, u0, u1 int64) slope {
	if v1 >= 0 {
		return slope{v1, u0}
	}
	return slope{v1, u1}
}

// A slope is v/u with u > 0.
type slope struct{ v, u int64 }

// less reports whether s < t, exactly. Every |v| and u is at most 2^31 here.
func (s slope) less(t slope) bool { return s.v*t.u < t.v*s.u }

// An ival is an interval of slopes, each end open or closed.
type ival struct {
	lo, hi         slope
	loOpen, hiOpen bool
	_              [0]func() // not comparable: no equality function in the module
}

// clip narrows iv to the cone's slopes [−1, 1]; ok is false when nothing is left. An end
// moved in is closed: the slope ±1 was strictly inside iv.
func (iv *ival) clip() (ok bool) {
	if iv.lo.less(slope{-1, 1}) {
		iv.lo, iv.loOpen = slope{-1, 1}, false
	}
	if (slope{1, 1}).less(iv.hi) {
		iv.hi, iv.hiOpen = slope{1, 1}, false
	}
	return iv.lo.less(iv.hi) || !iv.loOpen && !iv.hiOpen && !iv.hi.less(iv.lo)
}

// below reports whether every slope of a lies below every slope of b with a gap or a missing
// point between them: a and b neither overlap nor join.
func below(a, b *ival) bool {
	return a.hi.less(b.lo) || !b.lo.less(a.hi) && a.hiOpen && b.loOpen
}

// A union is a union of intervals of slopes: disjoint, apart, sorted.
type union []ival

// add puts iv into the union.
func (u *union) add(iv ival) {
	s := *u
	i := 0 // the first interval not below iv
	for lo, hi := 0, len(s); lo < hi; {
		if m := int(uint(lo+hi) >> 1); below(&s[m], &iv) {
			lo, i = m+1, m+1
		} else {
			hi = m
		}
	}
	j := i
	for ; j < len(s) && !below(&iv, &s[j]); j++ {
		e := &s[j]
		if e.lo.less(iv.lo) || !iv.lo.less(e.lo) && !e.loOpen {
			iv.lo, iv.loOpen = e.lo, e.loOpen
		}
		if iv.hi.less(e.hi) || !e.hi.less(iv.hi) && !e.hiOpen {
			iv.hi, iv.hiOpen = e.hi, e.hiOpen
		}
	}
	switch {
	case i == j: // iv joins none: insert it
		s = append(s, ival{})
		copy(s[i+1:], s[i:])
		s[i] = iv
	default: // iv and s[i:j] become one
		s[i] = iv
		s = append(s[:i+1], s[j:]...)
	}
	*u = s
}

// byReach orders cs by the first row n of cone k's sweep (rows rows of the lattice from r0,
// in the order of u) whose distance u is at least at + strict, setting each cone's row (rows
// when no row is that far): a counting sort, in time linear in the cones and the rows.
func (f *Field) byReach(cs []cone, k, rows, r0 int, rp, strict int64) {
	if cap(f.cnt) < rows+2 {
		f.cnt = make([]int32, rows+2)
	}
	cnt := f.cnt[:rows+2]
	clear(cnt)
	for i := range cs {
		var n int
		if at := cs[i].at + strict; k == east || k == south { // u = coord(n) − rp: the first coordinate ≥ rp + at
			n = f.lat.first(rp+at, r0)
		} else { // u = rp − coord(rows − 1 − n): n past the last coordinate ≤ rp − at
			n = rows - f.lat.first(rp-at+1, r0)
		}
		n = min(max(n, 0), rows)
		cs[i].row = int32(n)
		cnt[n+1]++
	}
	for n := 1; n < len(cnt); n++ {
		cnt[n] += cnt[n-1]
	}
	f.tmp = append(f.tmp[:0], cs...)
	for _, c := range f.tmp {
		cs[cnt[c.row]] = c
		cnt[c.row]++
	}
}

// floorDiv is ⌊a/b⌋ for b > 0.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// ceilDiv is ⌈a/b⌉ for b > 0.
func ceilDiv(a, b int64) int64 { return -floorDiv(-a, b) }
