package spread

import (
	"math"
	"math/bits"

	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/los"
)

// U is the number of lattice points per square (los.Unit).
const U = los.Unit

// One is the length of a vector built from degrees (SPEC §10.2): 2^16.
const One = 1 << 16

// A Vec is a direction on the lattice: only its direction matters, never its length. Compass
// vectors have components -1, 0 and 1; degree vectors are about One long (SPEC §10.2); an aim
// point's is the exact offset to it, at most 2^30 on each axis.
type Vec [3]int64

// Zero reports whether v points nowhere.
func (v Vec) Zero() bool { return v == Vec{} }

// Compass is the vector of one of the eight compass directions (SPEC §1.2), flat.
func Compass(d grid.Dir) Vec {
	o := d.Offset()
	return Vec{int64(o.X), int64(o.Y), 0}
}

// Degrees is the vector of a direction given in 1/400 degrees, 0 east and growing clockwise
// (y grows south), as SPEC §10.2 rules: (round(cos θ · 2^16), round(sin θ · 2^16), 0), each
// rounded half away from zero. Multiples of 90° are exact ((2^16, 0, 0) and its turns); the
// others are computed in float64 with Go's own math.Cos and math.Sin, which are the same
// code on every platform, after the angle is reduced to [0°, 360°).
func Degrees(deg400 int64) Vec {
	const turn = 360 * 400
	d := deg400 % turn
	if d < 0 {
		d += turn
	}
	switch d {
	case 0:
		return Vec{One, 0, 0}
	case 90 * 400:
		return Vec{0, One, 0}
	case 180 * 400:
		return Vec{-One, 0, 0}
	case 270 * 400:
		return Vec{0, -One, 0}
	}
	theta := float64(float64(d) * (math.Pi / (180 * 400)))
	return Vec{roundAway(float64(math.Cos(theta) * One)), roundAway(float64(math.Sin(theta) * One)), 0}
}

// Tangent is the half-angle tangent of a cone of angle deg400 (1/400 degrees, 1° to 179°),
// times 2^16 and rounded half away from zero (SPEC §10.5). The rule book's cone, without an
// angle, has tangent exactly ½: TangentHalf.
func Tangent(deg400 int) int64 {
	half := float64(float64(deg400) * (math.Pi / (360 * 400)))
	return roundAway(float64(math.Tan(half) * One))
}

// TangentHalf is Tangent's value for the rule book's cone: ½ · 2^16.
const TangentHalf = One / 2

func roundAway(f float64) int64 {
	if f < 0 {
		return -int64(math.Floor(-f + 0.5))
	}
	return int64(math.Floor(f + 0.5))
}

// Compass reports whether v points along one of the eight compass directions, and which.
func (v Vec) Compass() (grid.Dir, bool) {
	if v[2] != 0 || v.Zero() {
		return 0, false
	}
	x, y := v[0], v[1]
	if x != 0 && y != 0 && x != y && x != -y {
		return 0, false
	}
	for d := grid.Dir(0); d < 8; d++ {
		o := d.Offset()
		if Sign(x) == int64(o.X) && Sign(y) == int64(o.Y) {
			return d, true
		}
	}
	return 0, false
}

// Sign is −1, 0 or 1 as v is negative, zero or positive.
func Sign(v int64) int64 {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// ---- exact wide arithmetic ----

// u128 is an unsigned 128-bit integer.
type u128 struct{ hi, lo uint64 }

func mul(a, b uint64) u128 {
	hi, lo := bits.Mul64(a, b)
	return u128{hi, lo}
}

func abs(v int64) uint64 {
	if v < 0 {
		return uint64(-v)
	}
	return uint64(v)
}

func sq(v int64) u128 { a := abs(v); return mul(a, a) }

func (x u128) add(y u128) u128 {
	lo, c := bits.Add64(x.lo, y.lo, 0)
	return u128{x.hi + y.hi + c, lo}
}

func (x u128) shl(n uint) u128 { return u128{x.hi<<n | x.lo>>(64-n), x.lo << n} } // 0 < n < 64

func (x u128) cmp(y u128) int {
	switch {
	case x.hi != y.hi:
		return cmpU(x.hi, y.hi)
	}
	return cmpU(x.lo, y.lo)
}

func cmpU(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// u192 is an unsigned 192-bit integer, most significant word first.
type u192 [3]uint64

// mul64 is x·m.
func (x u128) mul64(m uint64) u192 {
	h1, l1 := bits.Mul64(x.lo, m)
	h2, l2 := bits.Mul64(x.hi, m)
	mid, c := bits.Add64(h1, l2, 0)
	return u192{h2 + c, mid, l1}
}

func (x u192) cmp(y u192) int {
	for i := range 3 {
		if x[i] != y[i] {
			return cmpU(x[i], y[i])
		}
	}
	return 0
}

// ---- shapes ----

// An Area is a shape placed: its origin point O on the lattice, its direction V (cones and
// lines) and, for a cone with an angle, its half-angle tangent T times 2^16 (TangentHalf
// otherwise). An emanation's Space is the caster's. A cube's V is its diagonal.
type Area struct {
	Shape  Shape
	O      los.Point
	V      Vec
	T      int64
	Space  grid.Space
	Metric Metric // the distance of an emanation (SPEC §10.6, §11.1)
}

// Contains reports whether the centre c of a cell lies in the area (SPEC §10.5, §11.2),
// the clear path aside. Every product is exact.
func (a *Area) Contains(cell grid.Cell) bool {
	c := los.Centre(cell)
	w := Vec{c.X - a.O.X, c.Y - a.O.Y, c.Z - a.O.Z}
	s := &a.Shape
	L := int64(s.Size) * U
	switch s.Kind {
	case Sphere:
		return w[0]*w[0]+w[1]*w[1]+w[2]*w[2] <= L*L
	case Cylinder:
		h := int64(s.Height) * U
		if s.Down {
			return w[0]*w[0]+w[1]*w[1] <= L*L && -h <= w[2] && w[2] <= 0
		}
		return w[0]*w[0]+w[1]*w[1] <= L*L && 0 <= w[2] && w[2] <= h
	case Cube:
		return inSide(w[0], L, a.V[0]) && inSide(w[1], L, a.V[1]) && inSide(w[2], L, 1)
	case Emanation:
		return a.Metric.Dist(a.Space.Gaps(grid.Unit(cell))) <= s.Size
	case Burst:
		return a.Metric.Dist(pointGaps(w)) <= s.Size
	case Cone:
		if s.Rules == PF2e {
			return a.pf2eCone(w)
		}
		return a.cone(w)
	case Line:
		return a.line(w)
	}
	return false
}

// inSide reports whether 0 < w < L in the direction of d's sign (a cube's cells, whose
// centres lie strictly inside it).
func inSide(w, L, d int64) bool {
	if d < 0 {
		w = -w
	}
	return 0 < w && w < L
}

func dot(w, v Vec) int64 { return w[0]*v[0] + w[1]*v[1] + w[2]*v[2] }

// norm2 is |v|², which fits 64 bits for |v_i| ≤ 2^30.
func norm2(v Vec) uint64 { return uint64(v[0]*v[0]) + uint64(v[1]*v[1]) + uint64(v[2]*v[2]) }

// cross2 is |w × v|².
func cross2(w, v Vec) u128 {
	return sq(w[1]*v[2] - w[2]*v[1]).add(sq(w[2]*v[0] - w[0]*v[2])).add(sq(w[0]*v[1] - w[1]*v[0]))
}

// cone is SPEC §10.5's dnd5e cone: a ≥ 0, within the base (flat: a² ≤ L²|v|²; round:
// |w|² ≤ L²), and inside the half-angle (4|w×v|² ≤ a² for tangent ½, 2^32|w×v|² ≤ T²a²
// otherwise).
func (a *Area) cone(w Vec) bool {
	d := dot(w, a.V)
	if d < 0 {
		return false
	}
	L := int64(a.Shape.Size) * U
	if a.Shape.Round {
		if w[0]*w[0]+w[1]*w[1]+w[2]*w[2] > L*L {
			return false
		}
	} else if sq(d).cmp(mul(uint64(L*L), norm2(a.V))) > 0 {
		return false
	}
	x := cross2(w, a.V)
	if a.T == TangentHalf {
		return x.shl(2).cmp(sq(d)) <= 0
	}
	return u192{x.hi >> 32, x.hi<<32 | x.lo>>32, x.lo << 32}.cmp(sq(d).mul64(uint64(a.T*a.T))) <= 0
}

// pf2eCone is SPEC §11.2's cone: a > 0, within the closed 90° wedge about v in the plane
// (|w × v| ≤ a), at distance ≤ R from O.
func (a *Area) pf2eCone(w Vec) bool {
	d := w[0]*a.V[0] + w[1]*a.V[1]
	if d <= 0 {
		return false
	}
	x := w[0]*a.V[1] - w[1]*a.V[0]
	if x < 0 {
		x = -x
	}
	return x <= d && a.Metric.Dist(pointGaps(w)) <= a.Shape.Size
}

// line is SPEC §10.5's and §11.2's line: along v (flat), within its length (dnd5e: a ≥ 0 and
// a² ≤ L²|v|²; pf2e: a > 0 and distance ≤ R from O), 4(w × v)_z² ≤ W²|v|², and W high about
// the origin's height, open below: −W/2 < w_z ≤ W/2.
func (a *Area) line(w Vec) bool {
	v := a.V
	d := w[0]*v[0] + w[1]*v[1]
	W := int64(a.Shape.W()) * U
	if 2*w[2] <= -W || 2*w[2] > W {
		return false
	}
	if a.Shape.Rules == PF2e {
		if d <= 0 || a.Metric.Dist(pointGaps(w)) > a.Shape.Size {
			return false
		}
	} else {
		L := int64(a.Shape.Size) * U
		if d < 0 || sq(d).cmp(mul(uint64(L*L), norm2(v))) > 0 {
			return false
		}
	}
	return sq(w[0]*v[1]-w[1]*v[0]).shl(2).cmp(mul(uint64(W*W), norm2(v))) <= 0
}

// Box is a box of cells that holds every cell of the area (SPEC §10.5, §11.2): a bound, not
// the tightest.
func (a *Area) Box() grid.Box {
	s := &a.Shape
	L := int64(s.Size) * U
	switch s.Kind {
	case Emanation:
		return a.Space.Box().Grow(s.Size)
	case Cube:
		lo, hi := a.O, a.O.Add(los.Point{X: Sign(a.V[0]) * L, Y: Sign(a.V[1]) * L, Z: L})
		return boxOf(minP(lo, hi), maxP(lo, hi))
	case Cylinder:
		zlo, zhi := a.O.Z, a.O.Z+int64(s.Height)*U
		if s.Down {
			zlo, zhi = a.O.Z-int64(s.Height)*U, a.O.Z
		}
		return boxOf(los.Point{X: a.O.X - L, Y: a.O.Y - L, Z: zlo}, los.Point{X: a.O.X + L, Y: a.O.Y + L, Z: zhi})
	case Cone:
		if s.Rules == PF2e { // a quarter wedge along a compass direction, within R + 1 of O
			return a.wedgeBox((L + U))
		}
		// The segment from O along v to the base's centre, grown by the base's radius: L·T for
		// a flat base, at most L·min(T, 1) beyond the axis for a round one.
		r := (L*a.T + One - 1) / One
		if s.Round {
			r = min(r, L)
		}
		return a.axisBox(L, r, nil)
	case Line:
		// The segment from O along v, grown by half the width across, W high about O. A pf2e
		// line's length is its distance R: the centres it takes lie within R + 1 of O.
		W := int64(s.W()) * U / 2
		if s.Rules == PF2e {
			L += U
		}
		return a.axisBox(L, W, &[2]int64{a.O.Z - W, a.O.Z + W})
	}
	// A sphere, a burst, a cone: within L of O on every axis (pf2e's distance ≤ R keeps each
	// axis's count within R).
	return boxOf(a.O.Sub(los.Point{X: L, Y: L, Z: L}), a.O.Add(los.Point{X: L, Y: L, Z: L}))
}

// axisBox is a bound of the points within r of the segment from O along v of length L (z
// within zs when given): the box of the segment's ends, grown by r. The end is found in
// float64 (the box is a bound only; Contains decides every cell exactly), with a margin of a
// few lattice units for its rounding.
func (a *Area) axisBox(L, r int64, zs *[2]int64) grid.Box {
	v := a.V
	n := math.Sqrt(float64(v[0])*float64(v[0]) + float64(v[1])*float64(v[1]) + float64(v[2])*float64(v[2]))
	var e [3]int64
	for i := range 3 {
		e[i] = int64(math.Round(float64(L) * float64(v[i]) / n))
	}
	end := los.Point{X: a.O.X + e[0], Y: a.O.Y + e[1], Z: a.O.Z + e[2]}
	grow := r + 4
	lo, hi := minP(a.O, end), maxP(a.O, end)
	lo = los.Point{X: lo.X - grow, Y: lo.Y - grow, Z: lo.Z - grow}
	hi = los.Point{X: hi.X + grow, Y: hi.Y + grow, Z: hi.Z + grow}
	if zs != nil {
		lo.Z, hi.Z = zs[0], zs[1]
	}
	return boxOf(lo, hi)
}

// wedgeBox is a bound of a pf2e cone within d of O: the half-space of each axis v moves along.
func (a *Area) wedgeBox(d int64) grid.Box {
	lo := los.Point{X: a.O.X - d, Y: a.O.Y - d, Z: a.O.Z - d}
	hi := los.Point{X: a.O.X + d, Y: a.O.Y + d, Z: a.O.Z + d}
	if a.V[0] > 0 {
		lo.X = a.O.X
	} else if a.V[0] < 0 {
		hi.X = a.O.X
	}
	if a.V[1] > 0 {
		lo.Y = a.O.Y
	} else if a.V[1] < 0 {
		hi.Y = a.O.Y
	}
	return boxOf(lo, hi)
}

func minP(a, b los.Point) los.Point {
	return los.Point{X: min(a.X, b.X), Y: min(a.Y, b.Y), Z: min(a.Z, b.Z)}
}
func maxP(a, b los.Point) los.Point {
	return los.Point{X: max(a.X, b.X), Y: max(a.Y, b.Y), Z: max(a.Z, b.Z)}
}

// boxOf is the box of the cells that meet the closed box of lattice points lo … hi.
func boxOf(lo, hi los.Point) grid.Box {
	return grid.Box{Min: los.Point{X: lo.X - 1, Y: lo.Y - 1, Z: lo.Z - 1}.Cell(), Max: hi.Cell()}
}

// ---- distance ----

// Metric is a distance between cells from their per-axis square counts (SPEC §10.6, §11.1,
// §8.2).
type Metric uint8

// The metrics.
const (
	Chebyshev   Metric = iota // the largest count (dnd5e's default)
	Alternating               // 5-10: s3 + ⌊s2/2⌋ of the sorted counts (pf2e's; dnd5e's 5-10-5)
	Manhattan                 // their sum
	Euclidean                 // √(sum of squares), rounded up
)

// Dist is the distance for per-axis counts g (each ≥ 0).
func (m Metric) Dist(g grid.Cell) int {
	x, y, z := g.X, g.Y, g.Z
	switch m {
	case Alternating:
		s3 := max(x, y, z)
		s1 := min(x, y, z)
		return s3 + (x+y+z-s3-s1)/2
	case Manhattan:
		return x + y + z
	case Euclidean:
		n := x*x + y*y + z*z
		r := int(math.Sqrt(float64(n)))
		for r*r > n {
			r--
		}
		for (r+1)*(r+1) <= n {
			r++
		}
		if r*r < n {
			r++
		}
		return r
	}
	return max(x, y, z)
}

// pointGaps is SPEC §11.1's counts from a point to a cell whose centre is w away: each
// |w_i| rounded up to whole squares.
func pointGaps(w Vec) grid.Cell {
	return grid.Cell{X: int(ceilU(abs(w[0]))), Y: int(ceilU(abs(w[1]))), Z: int(ceilU(abs(w[2])))}
}

func ceilU(v uint64) uint64 { return (v + U - 1) / U }

// SpaceGaps is SPEC §10.6's counts from a space to a point (range): per axis, the gap from
// the space's box to the point, rounded up to whole squares.
func SpaceGaps(sp grid.Space, p los.Point) grid.Cell {
	lo, hi := los.Vertex(sp.Min()), los.Vertex(sp.Max().Add(grid.Cell{X: 1, Y: 1, Z: 1}))
	g := func(l, h, v int64) int { return int(ceilU(uint64(max(0, l-v, v-h)))) }
	return grid.Cell{X: g(lo.X, hi.X, p.X), Y: g(lo.Y, hi.Y, p.Y), Z: g(lo.Z, hi.Z, p.Z)}
}

// ---- points on a caster ----

// Centre is the centre of a space: its 3-D centre, mid-height (SPEC §10.5).
func Centre(sp grid.Space) los.Point {
	lo, hi := sp.Min(), sp.Max()
	return los.Point{X: int64(lo.X+hi.X+1) * U / 2, Y: int64(lo.Y+hi.Y+1) * U / 2, Z: int64(lo.Z+hi.Z+1) * U / 2}
}

// Exit is SPEC §10.5's default origin: where the ray from the centre of sp along v leaves
// the space's box, rounded to the lattice, a tie toward +∞ on every axis. v must not be zero.
func Exit(sp grid.Space, v Vec) los.Point {
	c := Centre(sp)
	w := sp.Max().Sub(sp.Min()).Add(grid.Cell{X: 1, Y: 1, Z: 1})
	h := [3]int64{int64(w.X) * U / 2, int64(w.Y) * U / 2, int64(w.Z) * U / 2}
	k := -1 // the axis whose face the ray leaves by: least h_i/|v_i|
	for i := range 3 {
		if v[i] != 0 && (k < 0 || h[i]*int64(abs(v[k])) < h[k]*int64(abs(v[i]))) {
			k = i
		}
	}
	den := int64(abs(v[k]))
	var off [3]int64
	for i := range 3 {
		off[i] = floorDiv(2*v[i]*h[k]+den, 2*den) // round(v_i·h_k/|v_k|), a tie up
	}
	return los.Point{X: c.X + off[0], Y: c.Y + off[1], Z: c.Z + off[2]}
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
