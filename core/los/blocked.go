package los

import (
	"errors"

	"github.com/aoekit/aoekit/core/grid"
)

// Solids is how the engine sees the board. Fill returns the filled height of cell c in
// lattice units: 0 is empty, 1..400 a solid whose top is that far above the cell's floor,
// 400 a full block (SPEC §1.6). The solid volume of cell (x, y, z) with fill f is the closed
// box [400x, 400x+400] × [400y, 400y+400] × [400z, 400z+f]. Fills below 0 count as 0 and
// fills above 400 as 400.
type Solids interface{ Fill(c grid.Cell) int }

// Regions is optional for a Solids: Empty reports whether no cell of the box b has a fill
// above 0. Blocked uses it to answer at once for segments far from any
// solid. A false answer is always safe.
type Regions interface{ Empty(b grid.Box) bool }

// Walls is optional for a Solids: thin walls (SPEC §5.6) beside the solid cells.
// WallBlocked reports whether one blocks the segment from a to b; Blocked asks it first.
type Walls interface{ WallBlocked(a, b Point) bool }

// Layers is optional for a Solids: Layer returns its cells of level z as an array, which
// Blocked reads instead of calling Fill for every cell the segment passes, fetching the array
// again each time the segment enters another level; a segment at one height inside a level
// (the flat boards' usual case) is decided on its codes alone. The cell org + (i, j, 0) has fill
// fills[codes[j·nx + i]] for 0 ≤ i < nx and 0 ≤ j < len(codes)/nx; every other cell of the
// level is empty. fills is ascending (a larger code is a larger fill), fills[0] is 0 and
// every code is below len(fills); fills is nil when the Solids keeps no such array. (A code
// past fills is a broken Layers: it is read as no fill or as the largest, never a panic.)
type Layers interface {
	Layer(z int) (codes []uint8, nx int, org grid.Cell, fills []uint16)
}

// ErrRange reports an endpoint with a coordinate beyond ±MaxCoord.
var ErrRange = errors.New("los: coordinate beyond MaxCoord")

// Blocked reports whether the closed segment from a to b is blocked by the solids of s
// (SPEC §5.2). It is blocked when some point of it, endpoints included, is bad: look at the
// eight open octants around the point; an octant is covered when one solid box contains
// every point a small step into it. The point is bad when all eight octants are covered
// (it is inside the union of the solids, a face shared by two solids included), or when the
// covered octants form two or more groups that do not share a face (solids meet only
// diagonally at the point: passing through or along such an edge or corner blocks). Grazing
// one solid's face, edge or corner, or running along the outer surface of solid matter,
// does not block. When s has Walls, the segment is also blocked where a wall blocks it.
// Blocked(a, b, s) == Blocked(b, a, s); a segment of one point is blocked
// when that point is bad. A nil s has no solids. Blocked allocates nothing and is safe for
// concurrent use when s is.
//
// A segment with a coordinate beyond ±MaxCoord is reported blocked, out of reach of line of
// effect; Check tells that case apart.
func Blocked(a, b Point, s Solids) bool {
	blocked, _ := Check(a, b, s) // blocked is true with ErrRange too
	return blocked
}

// Check is Blocked, with ErrRange (and blocked = true) when an endpoint has a coordinate
// beyond ±MaxCoord.
func Check(a, b Point, s Solids) (blocked bool, err error) {
	if p, ok := s.(*Prepared); ok {
		return p.Check(a, b)
	}
	r, _ := s.(Regions)
	w, _ := s.(Walls)
	return check(a, b, s, r, w, nil, true)
}

// A Prepared is a Solids with the optional interfaces it answers (Regions, Walls, Layers)
// looked up once, by Prepare, rather than for every segment. Blocked and Check given a
// *Prepared, and its own Blocked and Check, answer as they do for the Solids it holds. Where
// many segments are judged over one board it saves three type assertions a segment; in
// WebAssembly, where Go keeps no cache of them, those cost about 170 ns together, as much as
// walking a short segment.
//
// A *Prepared is itself a Solids that answers Regions and Walls, so that a Solids wrapping it
// loses no wall: for a Solids that does not answer them, Empty and WallBlocked answer false,
// which is always safe. It does not answer Layers: its own walks read the arrays of the
// Solids it holds, and a wrapper may change fills (as cover's ground-less board does).
type Prepared struct {
	s Solids
	r Regions
	w Walls
	l Layers
	_ [0]func() // not comparable: no equality function in the module
}

// Prepare is s prepared (a copy of *s when s is a *Prepared already). It is never inlined,
// for the module's size: its type assertions take ~1 KB of WebAssembly wherever they are.
//
//go:noinline
func Prepare(s Solids) Prepared {
	if p, ok := s.(*Prepared); ok {
		return *p
	}
	p := Prepared{s: s}
	p.r, _ = s.(Regions)
	p.w, _ = s.(Walls)
	p.l, _ = s.(Layers)
	return p
}

// Fill is the fill of the Solids prepared (0 for a nil one).
func (p *Prepared) Fill(c grid.Cell) int {
	if p.s == nil {
		return 0
	}
	return p.s.Fill(c)
}

// Empty is the Solids' own Empty when it answers Regions, else false.
func (p *Prepared) Empty(b grid.Box) bool { return p.r != nil && p.r.Empty(b) }

// WallBlocked is the Solids' own WallBlocked when it answers Walls, else false.
func (p *Prepared) WallBlocked(a, b Point) bool { return p.w != nil && p.w.WallBlocked(a, b) }

// Blocked is Blocked(a, b, s) for the Solids s prepared.
func (p *Prepared) Blocked(a, b Point) bool {
	blocked, _ := p.Check(a, b) // blocked is true with ErrRange too
	return blocked
}

// Check is Check(a, b, s) for the Solids s prepared.
func (p *Prepared) Check(a, b Point) (blocked bool, err error) {
	return check(a, b, p.s, p.r, p.w, p.l, false)
}

// check is Check for the Solids s, which answers the optional interfaces that are not nil;
// with ask, Layers is looked up on s only when a walk could use it.
func check(a, b Point, s Solids, r Regions, ws Walls, l Layers, ask bool) (blocked bool, err error) {
	return checkWalk(a, b, s, r, ws, l, ask, false)
}

// checkWalk is check, with open: the endpoints a and b are not judged (OpenBlocked).
func checkWalk(a, b Point, s Solids, r Regions, ws Walls, l Layers, ask, open bool) (blocked bool, err error) {
	if !a.InRange() || !b.InRange() {
		return true, ErrRange
	}
	if s == nil {
		return false, nil
	}
	if ws != nil && ws.WallBlocked(a, b) {
		return true, nil
	}
	if r != nil {
		ca, cb := a.Cell(), b.Cell()
		b := grid.Box{Min: grid.Cell{X: min(ca.X, cb.X) - 1, Y: min(ca.Y, cb.Y) - 1, Z: min(ca.Z, cb.Z) - 1},
			Max: grid.Cell{X: max(ca.X, cb.X) + 1, Y: max(ca.Y, cb.Y) + 1, Z: max(ca.Z, cb.Z) + 1}}
		if r.Empty(b) {
			return false, nil
		}
	}
	var w walker
	w.init(a, b, s)
	w.ls, w.ask, w.open = l, ask, open
	return w.run([3]int64{b.X, b.Y, b.Z}), nil
}

// A walker steps along the segment a + t·(b − a), 0 ≤ t ≤ 1, from one grid-plane crossing
// to the next (a 3-D DDA in the manner of Amanatides and Woo). Parameter values are
// fractions num/den with den > 0, compared by cross-multiplication. Between two crossings
// the point stays in one cell on every moving axis, so the octant mask can change there
// only where the segment passes the top of a partial solid.
//
// With |coordinates| ≤ MaxCoord = 2^29, every |d| ≤ 2^30, every crossing numerator is at
// most |d| + 400, and every product below stays under 2^62.
type walker struct {
	s      Solids
	ls     Layers   // s's, when it answers Layers
	ask    bool     // ls is to be looked up on s (when the walk could use it)
	o      [3]int64 // a
	d      [3]int64 // b − a
	ad     [3]int64 // |b − a|
	step   [3]int   // sign of d
	lo, hi [3]int   // the cells the − and + octants look into between crossings
	n      [3]int64 // the next crossing on a moving axis i is at t = n[i]/ad[i]
	plane  [3]bool  // axis with d = 0 whose coordinate lies on a grid plane (lo = hi − 1)
	open   bool     // the endpoints themselves are not judged (OpenBlocked)
}

func (w *walker) init(a, b Point, s Solids) {
	w.s = s
	w.o = [3]int64{a.X, a.Y, a.Z}
	e := [3]int64{b.X, b.Y, b.Z}
	for i := range 3 {
		v := w.o[i]
		d := e[i] - v
		w.d[i] = d
		switch {
		case d > 0:
			c := floorDiv(v, Unit)
			w.step[i], w.ad[i] = 1, d
			w.lo[i], w.hi[i] = int(c), int(c)
			w.n[i] = Unit*(c+1) - v
		case d < 0:
			c := ceilDiv(v, Unit) - 1
			w.step[i], w.ad[i] = -1, -d
			w.lo[i], w.hi[i] = int(c), int(c)
			w.n[i] = v - Unit*c
		default:
			c := floorDiv(v, Unit)
			w.lo[i], w.hi[i] = int(c), int(c)
			if v == Unit*c {
				w.lo[i] = int(c) - 1
				w.plane[i] = true
			}
		}
	}
}

// run reports whether the segment is blocked; b is its end.
//
// Fast mode (no axis lies in a grid plane for the whole segment) checks only the open spans
// inside single cells, the crossings of two or three planes at once (edges and corners) and
// endpoints on a plane. A crossing of one plane alone never needs its own check there: its
// two cells share their other coordinates, so its covered octants form one component unless
// all eight are covered, and then the cell on one side is solid above the crossing point,
// which makes the span in that cell bad already. The same argument covers an endpoint
// inside a cell.
func (w *walker) run(b [3]int64) bool {
	if w.ad == [3]int64{} {
		return !w.open && w.pointBad(w.o)
	}
	if !w.open && onPlane(w.o) && w.pointBad(w.o) {
		return true
	}
	fast := !w.plane[0] && !w.plane[1] && !w.plane[2]
	if fast {
		ls := w.ls
		if w.ask {
			ls, _ = w.s.(Layers)
		}
		if ls != nil && w.ad[2] == 0 && w.ad[0] != 0 && w.ad[1] != 0 {
			if codes, nx, org, fills := ls.Layer(w.lo[2]); fills != nil {
				return w.runFlat(b, codes, nx, org, fills)
			}
		}
		return w.runFast(b, ls)
	}
	var moving [3]int // the axes along which the segment moves
	nm := 0
	for i := range 3 {
		if w.ad[i] != 0 {
			moving[nm] = i
			nm++
		}
	}
	t0n, t0d := int64(0), int64(1)
	for {
		// The next crossing: the least n[i]/ad[i], and every axis that ties it.
		j := moving[0]
		tn, td, x := w.n[j], w.ad[j], uint8(1)<<j
		for _, i := range moving[1:nm] {
			l, r := w.n[i]*td, tn*w.ad[i]
			if l < r {
				tn, td, x = w.n[i], w.ad[i], 1<<i
			} else if l == r {
				x |= 1 << i
			}
		}
		end := tn >= td // no crossing before b; one at b itself is b's own check
		if end {
			tn, td = 1, 1
		}
		if fast {
			if f := w.fill(w.lo[0], w.lo[1], w.lo[2]); f != 0 && w.cellBad(f, t0n, t0d, tn, td) {
				return true
			}
		} else if w.spanBad(t0n, t0d, tn, td) {
			return true
		}
		if end {
			break
		}
		if (!fast || x&(x-1) != 0) && w.crossingBad(x, tn, td) {
			return true
		}
		for _, i := range moving[:nm] {
			if x&(1<<i) != 0 {
				c := w.lo[i] + w.step[i]
				w.lo[i], w.hi[i] = c, c
				w.n[i] += Unit
			}
		}
		t0n, t0d = tn, td
	}
	return !w.open && onPlane(b) && w.pointBad(b)
}

// runFast is run's fast mode (no axis in a grid plane for the whole segment), the usual case,
// with the walk's state in locals: the same steps, decided the same way. An axis along which
// the segment does not move never crosses a plane; of the others, the next crossing is the
// least n/ad, ties crossing together. With ls (non-nil) it reads the fills of the level it
// is in from the level's array, fetched again when it changes level.
func (w *walker) runFast(b [3]int64, ls Layers) bool {
	n0, n1, n2 := w.n[0], w.n[1], w.n[2]
	a0, a1, a2 := w.ad[0], w.ad[1], w.ad[2]
	x, y, z := w.lo[0], w.lo[1], w.lo[2]
	t0n, t0d := int64(0), int64(1)
	var lv level
	lv.load(ls, z)
	for {
		// The next crossing: the least n[i]/ad[i] over the moving axes, and every axis that ties it.
		var tn, td int64
		var bits uint8
		if a0 != 0 {
			tn, td, bits = n0, a0, 1
		}
		if a1 != 0 {
			tn, td, bits = earlier(tn, td, bits, n1, a1, 2)
		}
		if a2 != 0 {
			tn, td, bits = earlier(tn, td, bits, n2, a2, 4)
		}
		end := tn >= td // no crossing before b; one at b itself is b's own check
		if end {
			tn, td = 1, 1
		}
		f := 0
		if lv.fills != nil {
			f = lv.fill(x, y)
		} else {
			f = w.fill(x, y, z)
		}
		if f != 0 {
			w.lo[2] = z // cellBad measures heights from the floor of layer lo[2]
			if w.cellBad(f, t0n, t0d, tn, td) {
				return true
			}
		}
		if end {
			break
		}
		if bits&(bits-1) != 0 { // an edge or a corner: crossingBad reads the cells around it
			w.lo, w.hi = [3]int{x, y, z}, [3]int{x, y, z}
			if w.crossingBad(bits, tn, td) {
				return true
			}
		}
		if bits&1 != 0 {
			x += w.step[0]
			n0 += Unit
		}
		if bits&2 != 0 {
			y += w.step[1]
			n1 += Unit
		}
		if bits&4 != 0 {
			z += w.step[2]
			n2 += Unit
			lv.load(ls, z)
		}
		t0n, t0d = tn, td
	}
	return !w.open && onPlane(b) && w.pointBad(b)
}

// runFlat is runFast for a segment that stays at one height h strictly inside level z and
// moves along both x and y (no axis in a grid plane, z not moving), reading the level's
// cells from codes (see Layers). There a cell's span is bad exactly when its fill is above h
// (cellBad with d_z = 0), which the palette turns into one comparison of codes; the next
// crossing is decided by the sign of n0·a1 − n1·a0, kept up to date as n0 and n1 grow (each
// |product| < 2^61, see walker). Edges (both axes crossing at once) go to crossingBad as in
// runFast.
func (w *walker) runFlat(b [3]int64, codes []uint8, width int, org grid.Cell, fills []uint16) bool {
	z := w.lo[2]
	h := w.o[2] - Unit*int64(z) // 0 < h < Unit
	bad := len(fills)           // the least code whose fill is above h
	for k, f := range fills {
		if int64(f) > h {
			bad = k
			break
		}
	}
	n0, n1 := w.n[0], w.n[1]
	a0, a1 := w.ad[0], w.ad[1]
	ux, uy := Unit*a1, Unit*a0 // diff's change when x, or y, crosses a plane
	sx, sy := w.step[0], w.step[1]
	x, y := w.lo[0], w.lo[1]
	nx, ny := uint(width), uint(0)
	if width > 0 {
		ny = uint(len(codes) / width)
	}
	diff := n0*a1 - n1*a0 // < 0: x crosses first; > 0: y does; 0: both at once
walk:
	for {
		if i, j := uint(x-org.X), uint(y-org.Y); i < nx && j < ny && int(codes[j*nx+i]) >= bad {
			return true
		}
		switch {
		case diff < 0:
			if n0 >= a0 {
				break walk
			}
			x, n0, diff = x+sx, n0+Unit, diff+ux
		case diff > 0:
			if n1 >= a1 {
				break walk
			}
			y, n1, diff = y+sy, n1+Unit, diff-uy
		default: // n0/a0 = n1/a1: an edge
			if n0 >= a0 {
				break walk
			}
			w.lo, w.hi = [3]int{x, y, z}, [3]int{x, y, z}
			if w.crossingBad(3, n0, a0) {
				return true
			}
			x, n0, diff = x+sx, n0+Unit, diff+ux
			y, n1, diff = y+sy, n1+Unit, diff-uy
		}
	}
	// b lies on a plane of x (or y) exactly when its crossing is the one left at t = 1; z stays
	// inside the level.
	return !w.open && (n0 == a0 || n1 == a1) && w.pointBad(b)
}

// A level is one level's cells as Layers gives them (fills nil: none given).
type level struct {
	codes  []uint8
	nx, ny uint
	org    grid.Cell
	fills  []uint16
}

// load makes l level z of ls, or none when ls is nil or gives none.
func (l *level) load(ls Layers, z int) {
	*l = level{}
	if ls == nil {
		return
	}
	codes, nx, org, fills := ls.Layer(z)
	*l = level{codes: codes, nx: uint(max(nx, 0)), org: org, fills: fills}
	if nx > 0 {
		l.ny = uint(len(codes) / nx)
	}
}

// fill is the fill of cell (x, y) of the level, clamped to 0..Unit like walker.fill; a code
// past the palette reads as empty.
func (l *level) fill(x, y int) int {
	if i, j := uint(x-l.org.X), uint(y-l.org.Y); i < l.nx && j < l.ny {
		if c := int(l.codes[j*l.nx+i]); c < len(l.fills) {
			return min(int(l.fills[c]), Unit)
		}
	}
	return 0
}

// earlier folds the crossing n/a (a > 0) of the axis whose bit is k into the least crossing so
// far, tn/td, which the axes in bits tie (none yet: bits 0).
func earlier(tn, td int64, bits uint8, n, a int64, k uint8) (int64, int64, uint8) {
	switch l, r := n*td, tn*a; {
	case bits == 0 || l < r:
		return n, a, k
	case l == r:
		return tn, td, bits | k
	}
	return tn, td, bits
}

// fill is the fill of cell (x, y, z), clamped to 0..Unit.
func (w *walker) fill(x, y, z int) int {
	return min(max(w.s.Fill(grid.Cell{X: x, Y: y, Z: z}), 0), Unit)
}

// zoff is the height at t = num/den above the floor of layer lo[2], times den.
func (w *walker) zoff(num, den int64) int64 {
	return (w.o[2]-Unit*int64(w.lo[2]))*den + num*w.d[2]
}

// cellBad reports whether the open span t0 < t < t1 inside the single cell lo, whose fill f
// is above 0, is bad: the cell is solid somewhere along it, so every octant is covered. In
// a partial solid that happens when the span dips below the top; touching the top only
// covers the lower octants.
func (w *walker) cellBad(f int, t0n, t0d, t1n, t1d int64) bool {
	if f == Unit {
		return true
	}
	if w.d[2] < 0 { // the span is lowest at its end
		t0n, t0d = t1n, t1d
	}
	return int64(f)*t0d > w.zoff(t0n, t0d)
}

// spanBad reports whether some point of the open span t0 < t < t1 is bad, when the segment
// lies in a grid plane and the span touches two or four cells. If z is constant the mask
// is constant. Otherwise the span stays inside layer lo[2], at heights o in (oLo, oHi)
// above its floor, and the mask changes only at the fills f of its cells: a lower octant
// is covered when f ≥ o, an upper one when f > o. Between two such fills every octant of a
// column is covered or none is, so it is enough to look at the open piece just above oLo
// (threshold ⌊oLo⌋) and the open piece just above each fill f inside (oLo, oHi)
// (threshold f). The point o = f itself needs no look: its upper octants sit over covered
// lower ones, so its components are those of the columns with fill ≥ f, the same as in
// the piece just below it, which is bad whenever the point is.
func (w *walker) spanBad(t0n, t0d, t1n, t1d int64) bool {
	var fo [8]int
	if w.gather(&fo, w.lo, w.hi) == 0 {
		return false
	}
	if w.d[2] == 0 {
		thrM, thrP := int64(Unit-1), int64(0)
		if !w.plane[2] {
			thrM, thrP = zThresholds(w.o[2]-Unit*int64(w.lo[2]), 1)
		}
		return badMask[maskOf(&fo, thrM, thrP)]
	}
	loN, loD, hiN, hiD := w.zoff(t0n, t0d), t0d, w.zoff(t1n, t1d), t1d
	if w.d[2] < 0 {
		loN, loD, hiN, hiD = hiN, hiD, loN, loD
	}
	thr := floorDiv(loN, loD)
	if badMask[maskOf(&fo, thr, thr)] {
		return true
	}
	for i := range 4 {
		f := int64(fo[i])
		if f*loD > loN && f*hiD < hiN && badMask[maskOf(&fo, f, f)] {
			return true
		}
	}
	return false
}

// crossingBad reports whether the point at t = tn/td, where the segment crosses the grid
// planes of the axes in the bit set x, is bad.
func (w *walker) crossingBad(x uint8, tn, td int64) bool {
	lo, hi := w.lo, w.hi
	for i := range 3 {
		if x&(1<<i) != 0 {
			if w.step[i] > 0 {
				hi[i] = lo[i] + 1
			} else {
				lo[i] = hi[i] - 1
			}
		}
	}
	var fo [8]int
	k := w.gather(&fo, lo, hi)
	if k == 0 {
		return false
	}
	thrM, thrP := int64(Unit-1), int64(0) // right on a z plane, and for fills 0 and Unit anywhere
	if k&partial != 0 && x&4 == 0 && !w.plane[2] {
		thrM, thrP = zThresholds(w.zoff(tn, td), td)
	}
	return badMask[maskOf(&fo, thrM, thrP)]
}

// zThresholds are the thresholds maskOf takes for a point at height num/den above the bottom
// of its layer of cells (0 < num/den < Unit): a fill f covers the octants below the point
// when f > thrM, those above it when f > thrP. Right on a z plane the callers use
// (Unit − 1, 0) instead.
func zThresholds(num, den int64) (thrM, thrP int64) {
	return ceilDiv(num, den) - 1, floorDiv(num, den)
}

// pointBad reports whether the lattice point p is bad.
func (w *walker) pointBad(p [3]int64) bool { return badMask[w.pointMask(p)] }

// pointMask is the octant mask of the lattice point p (0: nothing solid around it).
func (w *walker) pointMask(p [3]int64) uint8 {
	var lo, hi [3]int
	for i := range 3 {
		c := floorDiv(p[i], Unit)
		lo[i], hi[i] = int(c), int(c)
		if p[i] == Unit*c {
			lo[i]--
		}
	}
	var fo [8]int
	if w.gather(&fo, lo, hi) == 0 {
		return 0
	}
	thrM, thrP := int64(Unit-1), int64(0)
	if lo[2] == hi[2] {
		thrM, thrP = zThresholds(p[2]-Unit*int64(lo[2]), 1)
	}
	return maskOf(&fo, thrM, thrP)
}

// What gather found among the cells it read.
const (
	solid   = 1 << iota // some cell has a fill above 0
	partial             // some cell has a fill strictly between 0 and Unit
)

// gather fills fo with the fills of the cells the eight octants look into, given the cells
// lo (sign −) and hi (sign +) on each axis, reading each distinct cell once. It reports
// what it found: solid, partial, or 0 when every cell is empty.
//
// The thresholds that go with fo (see maskOf) place the point in its layer. On a z plane,
// the lower octants look into the layer below, covered only by a full block (fill > 399),
// and the upper octants into the layer above, covered by any solid (fill > 0). At height o
// strictly inside a layer, a lower octant is covered when f ≥ o (fill > ⌈o⌉−1) and an upper
// one when f > o (fill > ⌊o⌋). Fills 0 and Unit give the same mask for any thresholds in
// 0..399.
func (w *walker) gather(fo *[8]int, lo, hi [3]int) int {
	k := 0
	for i := range 8 {
		switch {
		case i&1 != 0 && lo[0] == hi[0]:
			fo[i] = fo[i&^1]
		case i&2 != 0 && lo[1] == hi[1]:
			fo[i] = fo[i&^2]
		case i&4 != 0 && lo[2] == hi[2]:
			fo[i] = fo[i&^4]
		default:
			c := lo
			if i&1 != 0 {
				c[0] = hi[0]
			}
			if i&2 != 0 {
				c[1] = hi[1]
			}
			if i&4 != 0 {
				c[2] = hi[2]
			}
			f := w.fill(c[0], c[1], c[2])
			fo[i] = f
			if f != 0 {
				k |= solid
				if f != Unit {
					k |= partial
				}
			}
		}
	}
	return k
}

// onPlane reports whether p lies on some grid plane.
func onPlane(p [3]int64) bool {
	return p[0]%Unit == 0 || p[1]%Unit == 0 || p[2]%Unit == 0
}
