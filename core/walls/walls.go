// Package walls decides thin walls (SPEC §5.6): vertical sheets of no thickness standing on a
// segment of the plane, as virtual tabletops draw them on grid lines (walls, doors, fences).
// Everything is on the 1/400 lattice of package los and decided exactly, with integer cross
// products and 128-bit comparisons.
package walls

import (
	"math"
	"math/bits"

	"github.com/aoekit/aoekit/core/los"
)

// Unlimited ends of a wall's height.
const (
	NoBottom = math.MinInt64 // a wall that reaches down without limit
	NoTop    = math.MaxInt64 // a wall that reaches up without limit
)

// MaxCoord bounds a wall's coordinates, as los.MaxCoord bounds a segment's: inside it every
// cross product below stays under 2^62.
const MaxCoord = los.MaxCoord

// A Wall is a closed wall: the vertical sheet over the plane segment A → B (A ≠ B), from
// height Bottom to Top inclusive, in lattice units (a level is los.Unit high; NoBottom and
// NoTop, or any value past ±MaxCoord, for no limit). An open door is no Wall: it blocks nothing, so it is left out.
type Wall struct {
	A, B        [2]int64
	Bottom, Top int64
	// From makes a one-way wall (SPEC §5.6): Left or Right blocks only the segments that
	// start strictly on that side of the directed line A → B; 0 blocks both ways.
	From Side
}

// Side is a side of a wall's directed line A → B, seen from A looking toward B on the board
// (y grows south): for A = (0, 0), B = (0, 1), Left is x > 0.
type Side int8

// The sides of a one-way wall.
const (
	Both  Side = 0
	Left  Side = 1
	Right Side = -1
)

// SideOf is the side of the directed line A → B the point p lies on: Left, Right, or Both
// when p lies on the line.
func (w *Wall) SideOf(p los.Point) Side {
	ex, ey := w.B[0]-w.A[0], w.B[1]-w.A[1]
	switch c := ex*(p.Y-w.A[1]) - ey*(p.X-w.A[0]); { // e × (p − A), y south
	case c < 0:
		return Left
	case c > 0:
		return Right
	}
	return Both
}

// Blocks reports whether w blocks the segment p → q (SPEC §5.6): their projections on the
// plane meet in exactly one point X, the wall's ends included and the segment's ends p and q
// excluded, and the segment's height at X lies in [Bottom, Top]. A segment whose projection
// runs along the wall's line (or is a single point: a vertical segment) meets it in no single
// point and is not blocked. A one-way wall blocks only segments whose p lies strictly on its
// From side. Coordinates must lie within ±MaxCoord.
func (w *Wall) Blocks(p, q los.Point) bool {
	if w.From != Both && w.SideOf(p) != w.From {
		return false // a one-way wall lets through what comes from its other side or its line
	}
	dx, dy := q.X-p.X, q.Y-p.Y
	ex, ey := w.B[0]-w.A[0], w.B[1]-w.A[1]
	den := dx*ey - dy*ex // d × e: zero when parallel, collinear, or d = 0
	if den == 0 {
		return false
	}
	ax, ay := w.A[0]-p.X, w.A[1]-p.Y
	tn := ax*ey - ay*ex // X = p + (tn/den)·d
	un := ax*dy - ay*dx // X = A + (un/den)·e
	if den < 0 {
		den, tn, un = -den, -tn, -un
	}
	if tn <= 0 || tn >= den || un < 0 || un > den {
		return false
	}
	if w.Bottom <= min(p.Z, q.Z) && w.Top >= max(p.Z, q.Z) {
		return true // the height at X, between p.Z and q.Z, lies in [Bottom, Top]
	}
	// The height at X is p.Z + (tn/den)·dz: within [Bottom, Top] when
	// (Bottom − p.Z)·den ≤ tn·dz ≤ (Top − p.Z)·den. The height lies between p.Z and q.Z, within
	// ±MaxCoord, so Bottom and Top act as themselves clamped to ±(MaxCoord + 1) (NoBottom as
	// −MaxCoord − 1, NoTop as MaxCoord + 1), and the differences cannot overflow.
	const lim = MaxCoord + 1
	bottom, top := min(max(w.Bottom, -lim), lim), min(max(w.Top, -lim), lim)
	dz := q.Z - p.Z
	return cmpMul(bottom-p.Z, den, tn, dz) <= 0 && cmpMul(tn, dz, top-p.Z, den) <= 0
}

// cmpMul compares a·b with c·d exactly: -1, 0 or +1.
func cmpMul(a, b, c, d int64) int {
	return cmp128(mul128(a, b), mul128(c, d))
}

// i128 is a signed 128-bit integer: neg and the magnitude hi·2^64 + lo.
type i128 struct {
	neg    bool
	hi, lo uint64
}

func abs64(v int64) uint64 {
	if v < 0 {
		return uint64(-v)
	}
	return uint64(v)
}

func mul128(a, b int64) i128 {
	hi, lo := bits.Mul64(abs64(a), abs64(b))
	return i128{neg: (a < 0) != (b < 0) && (hi|lo) != 0, hi: hi, lo: lo}
}

func cmp128(x, y i128) int {
	if x.neg != y.neg {
		if x.neg {
			return -1
		}
		return 1
	}
	c := 0
	switch {
	case x.hi != y.hi:
		c = cmpU(x.hi, y.hi)
	default:
		c = cmpU(x.lo, y.lo)
	}
	if x.neg {
		return -c
	}
	return c
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
