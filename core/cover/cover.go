// Package cover computes line of effect and cover between spaces on a board: the inset corner
// points, their culling, the low-point boost and melee adjustments, and the grades of each
// rule set (SPEC §5.3–§5.5).
package cover

import (
	"math/bits"

	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/los"
	"github.com/aoekit/aoekit/core/shadow"
)

// Lattice offsets (SPEC §5.1, §5.4), in 1/400 of a cell.
const (
	inset     = 1   // corners move 1/400 toward their cell's centre
	boostPer  = 120 // low-point boost: 0.3 × 400 per cell of the target's height
	meleeUp   = 120 // same-level melee: lower corners rise 30 % of the 400-unit edge
	meleeDown = 20  // same-level melee: upper corners drop 5 %
)

// Kind is the kind of source a cover check is made from (SPEC §5.4).
type Kind uint8

// The kinds of source.
const (
	Area   Kind = iota // one point: the centre of the area's origin cell
	Ranged             // one point: the attacker's corner that leaves the least cover
	Reach              // as Ranged
	Melee              // every corner of the attacker's cell turned toward the target
)

// A Target is what cover is judged for: a space, standing or prone.
type Target struct {
	Space grid.Space
	Prone bool
}

// A Segment is one source–target line, marked blocked or clear.
type Segment struct {
	From, To los.Point
	Blocked  bool
}

// A Result lists the segments of one cover check; Blocked counts the blocked ones.
type Result struct {
	Segments []Segment
	Blocked  int
}

// Total is the number of segments.
func (r Result) Total() int { return len(r.Segments) }

// less reports whether r leaves the target less cover than o (a smaller blocked fraction).
func (r Result) less(o Result) bool {
	if r.Total() == 0 || o.Total() == 0 {
		return r.Total() != 0 && o.Total() == 0
	}
	return r.Blocked*o.Total() < o.Blocked*r.Total()
}

func lat(v int) int64 { return int64(v) * los.Unit }

// facesFromPoint says, per axis, which face of the box of cells b is turned toward the point
// p: −1 the low face, +1 the high face, 0 none (p lies between the two planes).
func facesFromPoint(p los.Point, b grid.Box) [3]int {
	pc := [3]int64{p.X, p.Y, p.Z}
	l, h := axes(b)
	var f [3]int
	for a := 0; a < 3; a++ {
		switch {
		case pc[a] < lat(l[a]):
			f[a] = -1
		case pc[a] > lat(h[a]+1):
			f[a] = 1
		}
	}
	return f
}

// axes is b's low and high cells as arrays, for loops over the axes.
func axes(b grid.Box) (lo, hi [3]int) {
	return [3]int{b.Min.X, b.Min.Y, b.Min.Z}, [3]int{b.Max.X, b.Max.Y, b.Max.Z}
}

// facesFromBox says, per axis, which face of the box b is turned toward the box o: the low
// face when o lies wholly below on that axis, and so on.
func facesFromBox(b, o grid.Box) [3]int {
	l, h := axes(b)
	ol, oh := axes(o)
	var f [3]int
	for a := 0; a < 3; a++ {
		switch {
		case oh[a] < l[a]:
			f[a] = -1
		case ol[a] > h[a]:
			f[a] = 1
		}
	}
	return f
}

// corners appends the inset corners of the box b's cells that lie on the faces named by
// faces (SPEC §5.4): for each face turned toward the source, every cell of the box on that
// face contributes its four corners on it. Each point comes once, in z, y, x order: the inset
// coordinates of the box are walked in that order, and a point is kept when it lies on a
// turned face.
func corners(dst []los.Point, b grid.Box, faces [3]int) []los.Point {
	l, h := axes(b)
	var on [3]bool
	var face [3]int64 // per axis, the inset coordinate of the turned face
	for a := range 3 {
		switch {
		case faces[a] < 0:
			on[a], face[a] = true, lat(l[a])+inset
		case faces[a] > 0:
			on[a], face[a] = true, lat(h[a]+1)-inset
		}
	}
	for k := 0; k < 2*(h[2]-l[2]+1); k++ {
		z := insetAt(l[2], k)
		zOn := on[2] && z == face[2]
		if !zOn && !on[1] && !on[0] {
			continue
		}
		for j := 0; j < 2*(h[1]-l[1]+1); j++ {
			y := insetAt(l[1], j)
			switch {
			case zOn || on[1] && y == face[1]:
				for i := 0; i < 2*(h[0]-l[0]+1); i++ {
					dst = append(dst, los.Point{X: insetAt(l[0], i), Y: y, Z: z})
				}
			case on[0]:
				dst = append(dst, los.Point{X: face[0], Y: y, Z: z})
			}
		}
	}
	return dst
}

// insetAt is the k-th inset coordinate, ascending, along an axis whose cells start at l:
// cell u gives lat(u) + inset and lat(u+1) − inset.
func insetAt(l, k int) int64 {
	u := l + k/2
	if k%2 == 0 {
		return lat(u) + inset
	}
	return lat(u+1) - inset
}

// TargetPoints appends the points of t seen from the point src (SPEC §5.4): the inset corners
// on the faces of its space turned toward src, with the low-point boost when boost is set, the
// target is standing and src is not below its lowest level. Boosted corners that would reach
// their cell's upper corners are dropped.
func TargetPoints(dst []los.Point, src los.Point, t Target, boost bool) []los.Point {
	tb := t.Space.Box()
	lo := tb.Min
	start := len(dst)
	dst = corners(dst, tb, facesFromPoint(src, tb))
	if !boost || t.Prone || src.Z < lat(lo.Z) {
		return dst
	}
	bottom := lat(lo.Z) + inset
	top := lat(lo.Z+1) - inset
	raise := int64(boostPer) * int64(max(t.Space.Height, 1))
	out := dst[:start]
	for _, p := range dst[start:] {
		if p.Z == bottom {
			p.Z += raise
			if p.Z >= top {
				continue
			}
		}
		out = append(out, p)
	}
	return out
}

// segments judges every segment from src to dst, appending them to buf.
func segments(buf []Segment, src []los.Point, dst []los.Point, s los.Solids) Result {
	r := Result{Segments: buf}
	p := los.Prepare(s) // s's interfaces looked up once, not for each segment
	for _, a := range src {
		for _, b := range dst {
			blocked := p.Blocked(a, b)
			if blocked {
				r.Blocked++
			}
			r.Segments = append(r.Segments, Segment{From: a, To: b, Blocked: blocked})
		}
	}
	return r
}

// FromPoint judges t from one source point (an area's origin, SPEC §5.4), with the low-point
// boost.
func FromPoint(src los.Point, t Target, s los.Solids) Result {
	return AppendFromPoint(nil, src, t, s)
}

// AppendFromPoint is FromPoint with the segments appended to buf (the result's Segments share
// its storage): a caller judging many targets passes the previous result's Segments[:0] and
// allocates nothing per target.
func AppendFromPoint(buf []Segment, src los.Point, t Target, s los.Solids) Result {
	var pts [32]los.Point // scratch on the stack: a one-cell target shows at most 12 corners
	return segments(buf, []los.Point{src}, TargetPoints(pts[:0], src, t, true), s)
}

// FromCell judges t from an attacker whose space is the one cell a (SPEC §5.4): FromCellOf
// with grid.Unit(a) as the attacker's space.
func FromCell(kind Kind, a grid.Cell, t Target, standing bool, s los.Solids) Result {
	return FromCellOf(kind, grid.Unit(a), a, t, standing, s)
}

// FromCellOf judges t from cell c of the attacker's space a (SPEC §5.4, §5.7). Ranged and
// Reach use the one corner of c turned toward t that leaves the least cover (ties: the first
// in z, y, x order), with the low-point boost. Melee uses all of them with the melee
// adjustments — on the same level lower corners rise 30 % and upper ones drop 5 %; attacking
// downward while standing, the bottom face is not used (unless it is the only face turned
// toward the target) — and no boost, but the target's lowest corners stand on the fill of
// their cell (MeleeTargetPoints, ruling R1); a standing attacker's segments are judged without
// the ground under its space (the cells just below a's lowest level, under its footprint:
// ruling R2). Area uses the centre of c. The attacker's space a matters only to R2.
func FromCellOf(kind Kind, a grid.Space, c grid.Cell, t Target, standing bool, s los.Solids) Result {
	if kind == Area {
		return FromPoint(los.Centre(c), t, s)
	}
	cb, tb := grid.Box{Min: c, Max: c}, t.Space.Box()
	lo, hi := tb.Min, tb.Max
	faces := facesFromBox(cb, tb)
	if kind != Melee {
		var best Result
		for i, p := range corners(nil, cb, faces) {
			r := FromPoint(p, t, s)
			if i == 0 || r.less(best) {
				best = r
			}
		}
		return best
	}
	down := hi.Z < c.Z
	if down && standing && (faces[0] != 0 || faces[1] != 0) {
		faces[2] = 0
	}
	src := corners(nil, cb, faces)
	if lo.Z <= c.Z && c.Z <= hi.Z { // same level (SPEC §5.4, seed 004)
		for i := range src {
			switch src[i].Z {
			case lat(c.Z) + inset:
				src[i].Z += meleeUp
			case lat(c.Z+1) - inset:
				src[i].Z -= meleeDown
			}
		}
	}
	dst := MeleeTargetPoints(nil, los.Centre(c), t, s)
	judge := s
	if amin := a.Min(); standing && s != nil && lo.Z < amin.Z {
		// R2: the ground is the cells (x, y, amin.Z − 1) under the footprint; it can only
		// meet a segment that goes below the attacker's floor, which takes a target reaching
		// below it (every source point lies above that floor).
		amax := a.Max()
		judge = &groundless{s: los.Prepare(s), x0: amin.X, y0: amin.Y, x1: amax.X, y1: amax.Y, z: amin.Z - 1}
	}
	return segments(nil, src, dst, judge)
}

// MeleeTargetPoints appends the points of t seen from the point src in melee (SPEC §5.4,
// ruling R1): the inset corners on the faces of its space turned toward src, no low-point
// boost, prone or standing; a lowest corner (z = 400·lo + 1) of a lowest cell with a fill f
// (in 1/400) stands on the fill instead of the floor, at 400·lo + f + 1, and is dropped when
// that would not be below the cell's upper corners (f ≥ 398). The fills are read from s. As
// with the boost, a source below the floor of the target's lowest level changes nothing: the
// fills lie between it and the target's feet, and the bottom face it sees could otherwise
// lose every corner.
func MeleeTargetPoints(dst []los.Point, src los.Point, t Target, s los.Solids) []los.Point {
	tb := t.Space.Box()
	lo := tb.Min
	start := len(dst)
	dst = corners(dst, tb, facesFromPoint(src, tb))
	if s == nil || src.Z < lat(lo.Z) {
		return dst
	}
	bottom := lat(lo.Z) + inset
	top := lat(lo.Z+1) - inset
	out := dst[:start]
	for _, p := range dst[start:] {
		if p.Z == bottom {
			if f := min(max(s.Fill(p.Cell()), 0), los.Unit); f > 0 {
				p.Z += int64(f)
				if p.Z >= top {
					continue
				}
			}
		}
		out = append(out, p)
	}
	return out
}

// groundless is s with the ground under a standing attacker left out (SPEC §5.4, ruling R2):
// the cells of level z whose x and y lie in x0 … x1 and y0 … y1 read as empty.
type groundless struct {
	s              los.Prepared // its optional interfaces looked up once, not for each segment
	x0, y0, x1, y1 int
	z              int
}

func (g *groundless) Fill(c grid.Cell) int {
	if c.Z == g.z && g.x0 <= c.X && c.X <= g.x1 && g.y0 <= c.Y && c.Y <= g.y1 {
		return 0
	}
	return g.s.Fill(c)
}

// Empty passes the question on to s when it answers it: with fewer solids, an empty box
// stays empty.
func (g *groundless) Empty(b grid.Box) bool { return g.s.Empty(b) }

// WallBlocked passes the question on to s: the ground left out is no wall.
func (g *groundless) WallBlocked(a, b los.Point) bool { return g.s.WallBlocked(a, b) }

// CentreLine is TDGS line of effect between two cells: one segment, centre to centre
// (SPEC §5.3).
func CentreLine(a, b grid.Cell, s los.Solids) bool {
	return !los.Blocked(los.Centre(a), los.Centre(b), s)
}

// CornerLine is Draw Steel line of effect between two spaces (SPEC §5.3): true when any
// segment from an inset corner of a to an inset corner of b (corners on the faces turned
// toward each other) is clear. Overlapping spaces always see each other.
func CornerLine(a, b grid.Space, s los.Solids) bool {
	ab, bb := a.Box(), b.Box()
	fa := facesFromBox(ab, bb)
	if fa == [3]int{} {
		return true
	}
	var sa [32]los.Point // scratch on the stack: a one-cell space turns at most 12 corners
	return anyClear(corners(sa[:0], ab, fa), ab, bb, s)
}

// anyClear reports whether a segment from a point of src, the inset corners of the box ab
// turned toward bb, to an inset corner of bb turned toward ab is clear.
func anyClear(src []los.Point, ab, bb grid.Box, s los.Solids) bool {
	var sb [32]los.Point
	dst := corners(sb[:0], bb, facesFromBox(bb, ab))
	ps := los.Prepare(s)
	for _, p := range src {
		for _, q := range dst {
			if !ps.Blocked(p, q) {
				return true
			}
		}
	}
	return false
}

// A Source is a space Draw Steel line of effect is traced from to many others (an area's
// cells, SPEC §3.2): Sees is CornerLine from it, with its inset corners worked out once for
// each set of faces they turn, and, when given a shadow.Field, the segments it decides taken
// from it instead of walked.
type Source struct {
	box    grid.Box
	pts    [27][]los.Point // by turned faces (−1, 0, +1 on each axis)
	done   [27]bool
	field  *shadow.Field
	bits   [27][]int8 // per point of pts, its bit in the field's masks (−1: none)
	mask   [27]uint64 // the bits of pts
	some   [27]bool   // some point of pts has no bit: its segments are always walked
	turned [27]uint8  // a single cell's corners turned toward the Source (facingCorners)
	// NewSourceCells's: the Source of each cell of the space tried so far, by its index in the
	// space's box (made when first tried: a caster of 98 squares has 941 192 cells, and a
	// Source for each, made at once, took 3 GB before any work was reckoned).
	cells map[int]*Source
	multi bool // NewSourceCells's, of a space of several cells
}

// NewSource is a Source tracing from a.
func NewSource(a grid.Space) *Source { return &Source{box: a.Box()} }

// NewSourceCells is a Source tracing from any cell of a (SPEC §3.2: for an area centred on the
// caster, line of effect from any of its cells counts): its Sees is AnyCellLine(a, b, s). For a
// space of one cell it is NewSource(a).
func NewSourceCells(a grid.Space) *Source {
	src := NewSource(a)
	if src.box.Min != src.box.Max {
		src.multi, src.cells = true, map[int]*Source{}
	}
	return src
}

// AnyCellLine is Draw Steel line of effect from any cell of the space a to the space b (SPEC
// §3.2): CornerLine from one of a's cells, each a space of its own. The cell of a nearest b
// (NearestCell) is tried first, then the others in a.Cells' order: when nothing blocks in or
// next to the box of that cell and b, its first segment is clear, and the work ends there
// (the engine reckons the work so, SPEC §8.3).
func AnyCellLine(a, b grid.Space, s los.Solids) bool {
	near := NearestCell(a.Box(), b.Box())
	seen := CornerLine(grid.Unit(near), b, s)
	a.Cells(func(c grid.Cell) { seen = seen || c != near && CornerLine(grid.Unit(c), b, s) })
	return seen
}

// NearestCell is the cell of the box a nearest the box b, whose box with b is the smallest any
// cell of a makes: on each axis, a's end toward b where b lies beyond it, else a coordinate
// both share.
func NearestCell(a, b grid.Box) grid.Cell {
	at := func(a0, a1, b0, b1 int) int { return min(max(min(max(a0, b0), b1), a0), a1) }
	return grid.Cell{X: at(a.Min.X, a.Max.X, b.Min.X, b.Max.X), Y: at(a.Min.Y, a.Max.Y, b.Min.Y, b.Max.Y), Z: at(a.Min.Z, a.Max.Z, b.Min.Z, b.Max.Z)}
}

// Use makes Sees take the verdicts of f (built for segments from the inset corners of the
// cells of the Source's space) before walking a segment; nil walks every one.
func (src *Source) Use(f *shadow.Field) {
	src.field, src.done = f, [27]bool{}
	for _, c := range src.cells {
		c.Use(f)
	}
	// (The cells not tried yet take src.field when they are made: cellSource.)
}

// Sees is CornerLine(a, b, s), a the space of the Source; AnyCellLine(a, b, s) for one of
// NewSourceCells.
func (src *Source) Sees(b grid.Space, s los.Solids) bool {
	if src.multi { // AnyCellLine's order: the cell nearest b first
		a := src.box
		near := NearestCell(a, b.Box())
		nx, ny := a.Max.X-a.Min.X+1, a.Max.Y-a.Min.Y+1
		first := ((near.Z-a.Min.Z)*ny+near.Y-a.Min.Y)*nx + near.X - a.Min.X
		if b.Box().Contains(near) { // b meets the space: that cell sees it (Sees' k = 13)
			return true
		}
		if src.cellSource(first).Sees(b, s) {
			return true
		}
		n := nx * ny * (a.Max.Z - a.Min.Z + 1)
		for i := range n {
			if i != first && src.cellSource(i).Sees(b, s) {
				return true
			}
		}
		return false
	}
	bb, a := b.Box(), src.box
	// k names the faces of a turned toward bb, facesFromBox(a, bb), worked out without arrays:
	// this runs for every cell of an area
	k := (side(bb.Min.X, bb.Max.X, a.Min.X, a.Max.X)+1)*9 + (side(bb.Min.Y, bb.Max.Y, a.Min.Y, a.Max.Y)+1)*3 + side(bb.Min.Z, bb.Max.Z, a.Min.Z, a.Max.Z) + 1
	if k == 13 { // no face turned: the boxes overlap on every axis
		return true
	}
	if !src.done[k] {
		fa := [3]int{k/9 - 1, k/3%3 - 1, k%3 - 1}
		src.pts[k], src.done[k] = corners(nil, src.box, fa), true
		if f := src.field; f != nil {
			src.turned[k] = facingCorners(fa)
			src.bits[k] = make([]int8, len(src.pts[k]))
			for i, p := range src.pts[k] {
				s := f.Source(p)
				src.bits[k][i] = int8(s)
				if s >= 0 {
					src.mask[k] |= 1 << s
				} else {
					src.some[k] = true
				}
			}
			f.Sweep(src.mask[k])
		}
	}
	if src.field == nil || bb.Min != bb.Max {
		return anyClear(src.pts[k], src.box, bb, s)
	}
	return src.cellClear(k, bb.Min, s)
}

// maxCellSources is the most cell Sources a NewSourceCells's Source keeps (some 6 MB).
const maxCellSources = 4096

// cellSource is the Source of the cell of index i of a NewSourceCells's space (by z, then y,
// then x), made when first asked for.
func (src *Source) cellSource(i int) *Source {
	if c := src.cells[i]; c != nil {
		return c
	}
	a := src.box
	nx, ny := a.Max.X-a.Min.X+1, a.Max.Y-a.Min.Y+1
	c := NewSource(grid.Unit(grid.Cell{X: a.Min.X + i%nx, Y: a.Min.Y + i/nx%ny, Z: a.Min.Z + i/(nx*ny)}))
	c.field = src.field
	if len(src.cells) == maxCellSources { // a bound on the memory kept, not on the work
		clear(src.cells)
	}
	src.cells[i] = c
	return c
}

// side is facesFromBox on one axis: −1 when o = [olo, ohi] lies wholly below b = [lo, hi], 1
// when wholly above, else 0.
func side(olo, ohi, lo, hi int) int {
	switch {
	case ohi < lo:
		return -1
	case olo > hi:
		return 1
	}
	return 0
}

// cellClear is anyClear from the points pts[k] to the single cell c, whose inset corners on
// the faces turned toward the source are those of turned[k], with the field's verdicts: a
// segment it knows clear answers at once, those it knows blocked are not walked, and the
// others are walked in anyClear's order.
func (src *Source) cellClear(k int, c grid.Cell, s los.Solids) bool {
	f, need, turned := src.field, src.mask[k], src.turned[k]
	t0, known := f.Cell(c)
	var blocked [8]uint64 // per corner of c, the sources known blocked from it
	walk := !known || src.some[k]
	if known {
		across := f.Across()
		for m := turned; m != 0; m &= m - 1 {
			i := bits.TrailingZeros8(m)
			cl, b := f.Known(t0 + i&1 + (i>>1&1)*across)
			if cl&need != 0 {
				return true
			}
			blocked[i] = b
			walk = walk || b&need != need
		}
	}
	if !walk { // every pair known blocked
		return false
	}
	for i, p := range src.pts[k] {
		bit := src.bits[k][i]
		for m := turned; m != 0; m &= m - 1 {
			j := bits.TrailingZeros8(m)
			if (bit < 0 || blocked[j]&(1<<bit) == 0) && !los.Blocked(p, cornerOf(c, j), s) {
				return true
			}
		}
	}
	return false
}

// facingCorners is the set of a cell's inset corners (bit i: the corner high on x when i&1,
// on y when i&2, on z when i&4; corners' order) on its faces turned toward a source whose
// faces fa are turned toward it: the cell's faces −fa.
func facingCorners(fa [3]int) (m uint8) {
	for i := range 8 {
		for a := range 3 {
			if hi := i>>a&1 != 0; fa[a] > 0 && !hi || fa[a] < 0 && hi {
				m |= 1 << i
			}
		}
	}
	return m
}

// cornerOf is cell c's inset corner i (see facingCorners).
func cornerOf(c grid.Cell, i int) los.Point {
	v := [3]int{c.X, c.Y, c.Z}
	var p [3]int64
	for a := range 3 {
		if p[a] = lat(v[a]) + inset; i>>a&1 != 0 {
			p[a] = lat(v[a]+1) - inset
		}
	}
	return los.Point{X: p[0], Y: p[1], Z: p[2]}
}
