package walls

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/los"
)

// The reference below decides SPEC §5.6 by brute force with exact rationals (math/big.Rat),
// in the most literal way: it computes the common points of the two plane segments as a set
// (solving the 2 × 2 system by Cramer's rule, or, for parallel lines, projecting the wall's
// ends on the segment), requires exactly one point X that is neither P nor Q, and compares
// the segment's height at X with the wall's bottom and top. It shares no formula with
// walls.go.

// refKind classifies how the plane projections of a segment P → Q and a wall A → B meet.
type refKind int

const (
	refVertical     refKind = iota // P and Q have one projection: the segment's is a point
	refApart                       // the projections have no common point
	refAlongOverlap                // collinear, sharing a piece of positive length: runs along
	refAlongTouch                  // collinear, sharing one point (an end of both)
	refAtEnd                       // exactly one common point, and it is P or Q
	refCross                       // exactly one common point X, strictly between P and Q
	refKinds
)

var refKindNames = [refKinds]string{"vertical", "apart", "along-overlap", "along-touch", "at-P-or-Q", "cross"}

func (k refKind) String() string { return refKindNames[k] }

// refResult is the reference's verdict with what the statistics need.
type refResult struct {
	kind    refKind
	wallEnd bool     // refCross or refAtEnd: X is the wall's end A or B
	z       *big.Rat // refCross: the segment's height at X
	onBound bool     // refCross: z equals the wall's (limited) Bottom or Top
	blocked bool
}

func rat(v int64) *big.Rat               { return new(big.Rat).SetInt64(v) }
func radd(a, b *big.Rat) *big.Rat        { return new(big.Rat).Add(a, b) }
func rsub(a, b *big.Rat) *big.Rat        { return new(big.Rat).Sub(a, b) }
func rmul(a, b *big.Rat) *big.Rat        { return new(big.Rat).Mul(a, b) }
func rquo(a, b *big.Rat) *big.Rat        { return new(big.Rat).Quo(a, b) }
func rneg(a *big.Rat) *big.Rat           { return new(big.Rat).Neg(a) }
func req(a, b *big.Rat) bool             { return a.Cmp(b) == 0 }
func rinUnit(a *big.Rat) bool            { return a.Sign() >= 0 && a.Cmp(rat(1)) <= 0 }
func rpt(x, y int64) [2]*big.Rat         { return [2]*big.Rat{rat(x), rat(y)} }
func rpeq(a, b [2]*big.Rat) bool         { return req(a[0], b[0]) && req(a[1], b[1]) }
func rpsub(a, b [2]*big.Rat) [2]*big.Rat { return [2]*big.Rat{rsub(a[0], b[0]), rsub(a[1], b[1])} }

func rmin(a, b *big.Rat) *big.Rat {
	if a.Cmp(b) <= 0 {
		return a
	}
	return b
}

func rmax(a, b *big.Rat) *big.Rat {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
}

// refClassify decides SPEC §5.6 for wall w and segment p → q exactly.
func refClassify(w Wall, p, q los.Point) refResult {
	P, Q := rpt(p.X, p.Y), rpt(q.X, q.Y)
	A, B := rpt(w.A[0], w.A[1]), rpt(w.B[0], w.B[1])
	if rpeq(P, Q) {
		// A vertical segment: its projection is a point, which can only meet the wall at P
		// (= Q) itself.
		return refResult{kind: refVertical}
	}
	d, e, a := rpsub(Q, P), rpsub(B, A), rpsub(A, P)
	// Common points: P + t·d = A + u·e with t, u ∈ [0, 1], that is
	//   t·d.x − u·e.x = a.x
	//   t·d.y − u·e.y = a.y
	det := rsub(rmul(d[0], rneg(e[1])), rmul(rneg(e[0]), d[1]))
	if det.Sign() == 0 {
		// Parallel lines (d ≠ 0 and e ≠ 0). They share a point only if A is on line PQ.
		if rsub(rmul(d[0], a[1]), rmul(d[1], a[0])).Sign() != 0 {
			return refResult{kind: refApart}
		}
		// Collinear: the wall's ends sit at parameters sA, sB along P → Q.
		dd := radd(rmul(d[0], d[0]), rmul(d[1], d[1]))
		b := rpsub(B, P)
		sA := rquo(radd(rmul(a[0], d[0]), rmul(a[1], d[1])), dd)
		sB := rquo(radd(rmul(b[0], d[0]), rmul(b[1], d[1])), dd)
		lo, hi := rmax(rat(0), rmin(sA, sB)), rmin(rat(1), rmax(sA, sB))
		switch lo.Cmp(hi) {
		case 1:
			return refResult{kind: refApart}
		case 0:
			// One common point: it must be an end of both (else they would overlap).
			if lo.Sign() != 0 && !req(lo, rat(1)) {
				panic(fmt.Sprintf("reference: collinear touch inside the segment: %v %v %v", w, p, q))
			}
			return refResult{kind: refAlongTouch}
		}
		return refResult{kind: refAlongOverlap}
	}
	t := rquo(rsub(rmul(a[0], rneg(e[1])), rmul(rneg(e[0]), a[1])), det)
	u := rquo(rsub(rmul(d[0], a[1]), rmul(d[1], a[0])), det)
	X := [2]*big.Rat{radd(P[0], rmul(t, d[0])), radd(P[1], rmul(t, d[1]))}
	if !rpeq(X, [2]*big.Rat{radd(A[0], rmul(u, e[0])), radd(A[1], rmul(u, e[1]))}) {
		panic(fmt.Sprintf("reference: Cramer's rule failed for %v %v %v", w, p, q))
	}
	if !rinUnit(t) || !rinUnit(u) {
		return refResult{kind: refApart}
	}
	res := refResult{wallEnd: rpeq(X, A) || rpeq(X, B)}
	if rpeq(X, P) || rpeq(X, Q) {
		res.kind = refAtEnd
		return res
	}
	res.kind = refCross
	res.z = radd(rat(p.Z), rmul(t, rsub(rat(q.Z), rat(p.Z))))
	res.blocked = true
	if w.Bottom != NoBottom {
		c := res.z.Cmp(rat(w.Bottom))
		res.blocked = res.blocked && c >= 0
		res.onBound = res.onBound || c == 0
	}
	if w.Top != NoTop {
		c := res.z.Cmp(rat(w.Top))
		res.blocked = res.blocked && c <= 0
		res.onBound = res.onBound || c == 0
	}
	return res
}

// refBlocks is the reference answer: does w block p → q (SPEC §5.6)?
func refBlocks(w Wall, p, q los.Point) bool { return refClassify(w, p, q).blocked }

// ratFloor and ratCeil are ⌊r⌋ and ⌈r⌉, which must fit an int64.
func ratFloor(r *big.Rat) int64 {
	return new(big.Int).Div(r.Num(), r.Denom()).Int64() // Euclidean: floor, as Denom > 0
}

func ratCeil(r *big.Rat) int64 {
	f := ratFloor(r)
	if r.IsInt() {
		return f
	}
	return f + 1
}

// segsMeet reports whether the closed plane segments a → b and c → d share a point, with
// the textbook orientation test (a → b may be a single point). It is a cheap, independent
// filter: a wall that blocks a segment meets it.
func segsMeet(a, b, c, d [2]int64) bool {
	orient := func(p, q, r [2]int64) int {
		v := (q[0]-p[0])*(r[1]-p[1]) - (q[1]-p[1])*(r[0]-p[0])
		switch {
		case v > 0:
			return 1
		case v < 0:
			return -1
		}
		return 0
	}
	within := func(p, q, r [2]int64) bool { // r, collinear with p q, lies in their box
		return min(p[0], q[0]) <= r[0] && r[0] <= max(p[0], q[0]) &&
			min(p[1], q[1]) <= r[1] && r[1] <= max(p[1], q[1])
	}
	o1, o2, o3, o4 := orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
	if o1*o2 < 0 && o3*o4 < 0 {
		return true
	}
	return o1 == 0 && within(a, b, c) || o2 == 0 && within(a, b, d) ||
		o3 == 0 && within(c, d, a) || o4 == 0 && within(c, d, b)
}

func xy(p los.Point) [2]int64 { return [2]int64{p.X, p.Y} }

func pt(x, y, z int64) los.Point { return los.Point{X: x, Y: y, Z: z} }

// wall is a wall of unlimited height.
func wall(ax, ay, bx, by int64) Wall {
	return Wall{A: [2]int64{ax, ay}, B: [2]int64{bx, by}, Bottom: NoBottom, Top: NoTop}
}

func (w Wall) swapped() Wall { w.A, w.B = w.B, w.A; return w }

// blocksAll is w.Blocks with the segment and the wall each taken both ways round.
func blocksAll(w Wall, p, q los.Point) [4]bool {
	s := w.swapped()
	return [4]bool{w.Blocks(p, q), w.Blocks(q, p), s.Blocks(p, q), s.Blocks(q, p)}
}

func (w Wall) heights(bottom, top int64) Wall { w.Bottom, w.Top = bottom, top; return w }

func fmtH(v int64) string {
	switch v {
	case NoBottom:
		return "NoBottom"
	case NoTop:
		return "NoTop"
	}
	return fmt.Sprint(v)
}

func (w Wall) String() string {
	return fmt.Sprintf("Wall{A:%v B:%v Bottom:%s Top:%s}", w.A, w.B, fmtH(w.Bottom), fmtH(w.Top))
}

// checkBlocks checks want (derived from the SPEC by hand) against the reference, and
// w.Blocks against want in both directions of the segment and of the wall.
func checkBlocks(t *testing.T, name string, w Wall, p, q los.Point, want bool) {
	t.Helper()
	if got := refBlocks(w, p, q); got != want {
		t.Errorf("%s: reference says %v for %v, %v → %v; the SPEC says %v", name, got, w, p, q, want)
	}
	for _, c := range []struct {
		w    Wall
		p, q los.Point
	}{{w, p, q}, {w, q, p}, {w.swapped(), p, q}, {w.swapped(), q, p}} {
		if got := c.w.Blocks(c.p, c.q); got != want {
			t.Errorf("%s: %v.Blocks(%v, %v) = %v, want %v", name, c.w, c.p, c.q, got, want)
		}
	}
}

type blocksCase struct {
	name string
	w    Wall
	p, q los.Point
	want bool
}

func runCases(t *testing.T, cases []blocksCase) {
	t.Helper()
	for _, c := range cases {
		checkBlocks(t, c.name, c.w, c.p, c.q, c.want)
	}
}

// The wall on the grid line x = 1 between cells (0, 0) and (1, 0).
var gridWall = wall(400, 0, 400, 400)

// TestBlocks_5_6_GridLineBetweenCells: a wall on the grid line between two cells blocks the
// segment between their centres, and not segments that pass beside it.
func TestBlocks_5_6_GridLineBetweenCells(t *testing.T) {
	runCases(t, []blocksCase{
		{"centre to centre across the wall", gridWall, pt(200, 200, 200), pt(600, 200, 200), true},
		{"centre to centre, long way", gridWall, pt(-1800, 200, 0), pt(2600, 200, 800), true},
		{"corner to corner across the wall", gridWall, pt(0, 0, 0), pt(800, 400, 0), true},
		{"next row's centres: beside the wall", gridWall, pt(200, 600, 200), pt(600, 600, 200), false},
		{"north of the wall", gridWall, pt(200, -200, 200), pt(600, -200, 200), false},
		{"same side of the wall", gridWall, pt(200, 200, 200), pt(399, 200, 200), false},
		{"along the cells' row on one side", gridWall, pt(200, 200, 200), pt(200, 600, 200), false},
		{"a horizontal grid-line wall", wall(0, 400, 400, 400), pt(200, 200, 200), pt(200, 600, 200), true},
	})
}

// TestBlocks_5_6_CornerNoGap: two walls meeting at a corner leave no gap: a diagonal segment
// through the corner is blocked by each of them, its end included.
func TestBlocks_5_6_CornerNoGap(t *testing.T) {
	w1 := wall(400, 0, 400, 400)   // west side of cell (1, 0), down to the corner (400, 400)
	w2 := wall(400, 400, 800, 400) // south side of cell (1, 0), from the corner
	for _, c := range []blocksCase{
		{"diagonal through the corner, SW to NE", w1, pt(200, 600, 200), pt(600, 200, 200), true},
		{"diagonal through the corner, SW to NE", w2, pt(200, 600, 200), pt(600, 200, 200), true},
		{"diagonal through the corner, NW to SE", w1, pt(200, 200, 200), pt(600, 600, 200), true},
		{"diagonal through the corner, NW to SE", w2, pt(200, 200, 200), pt(600, 600, 200), true},
		{"off-centre through the corner", w1, pt(-5, 811, 0), pt(805, -11, 0), true},
	} {
		checkBlocks(t, c.name, c.w, c.p, c.q, c.want)
		if ix := New([]Wall{w1, w2}); !ix.Blocked(c.p, c.q) || !ix.Blocked(c.q, c.p) {
			t.Errorf("%s: Index of the two walls leaves a gap at the corner for %v → %v", c.name, c.p, c.q)
		}
	}
	// An L of walls around a cell's corner: no diagonal from inside to outside passes.
	ws := []Wall{wall(0, 400, 400, 400), wall(400, 400, 400, 0)}
	ix := New(ws)
	for dx := int64(-3); dx <= 3; dx++ {
		p, q := pt(200+dx, 200, 0), pt(600-dx, 600, 0) // through (400, 400) when dx = 0
		want := false
		for _, w := range ws {
			want = want || refBlocks(w, p, q)
		}
		if dx == 0 && !want {
			t.Errorf("reference: the L of walls leaves a gap at its corner")
		}
		if got := ix.Blocked(p, q); got != want {
			t.Errorf("L of walls: Blocked(%v, %v) = %v, reference %v", p, q, got, want)
		}
	}
}

// TestBlocks_5_6_FreeEndIncluded: a wall's ends are part of it, so a segment that grazes a
// free end is blocked, and one that passes a lattice unit beyond it is not.
func TestBlocks_5_6_FreeEndIncluded(t *testing.T) {
	runCases(t, []blocksCase{
		{"grazing the free end (400, 400)", gridWall, pt(200, 600, 0), pt(600, 200, 0), true},
		{"grazing the free end (400, 0)", gridWall, pt(200, -200, 0), pt(600, 200, 0), true},
		{"perpendicular through the end", gridWall, pt(0, 400, 0), pt(800, 400, 0), true},
		{"perpendicular just past the end", gridWall, pt(0, 401, 0), pt(800, 401, 0), false},
		{"perpendicular just before the end", gridWall, pt(0, 399, 0), pt(800, 399, 0), true},
		{"diagonal just past the free end", gridWall, pt(200, 601, 0), pt(600, 201, 0), false},
		{"diagonal just inside the free end", gridWall, pt(200, 599, 0), pt(600, 199, 0), true},
		{"steep line through the end", gridWall, pt(399, 0, 0), pt(401, 800, 0), true},
	})
}

// TestBlocks_5_6_RunsAlongNotBlocked: a segment that runs along the wall's plane (collinear),
// whether it overlaps the wall, lies within it, contains it or touches it end to end, is not
// blocked; nor is one parallel to it.
func TestBlocks_5_6_RunsAlongNotBlocked(t *testing.T) {
	runCases(t, []blocksCase{
		{"overlapping one end", gridWall, pt(400, -200, 0), pt(400, 200, 0), false},
		{"within the wall", gridWall, pt(400, 100, 0), pt(400, 300, 0), false},
		{"containing the wall", gridWall, pt(400, -400, 0), pt(400, 800, 0), false},
		{"exactly the wall", gridWall, pt(400, 0, 0), pt(400, 400, 800), false},
		{"touching end to end", gridWall, pt(400, 400, 0), pt(400, 800, 0), false},
		{"touching end to end, other end", gridWall, pt(400, -800, 0), pt(400, 0, 0), false},
		{"collinear, apart", gridWall, pt(400, 500, 0), pt(400, 900, 0), false},
		{"parallel, a unit away", gridWall, pt(401, -400, 0), pt(401, 800, 0), false},
		{"along a diagonal wall", wall(0, 0, 400, 400), pt(-100, -100, 0), pt(200, 200, 0), false},
		{"along a diagonal wall, touching", wall(0, 0, 400, 400), pt(400, 400, 0), pt(1000, 1000, 0), false},
	})
}

// TestBlocks_5_6_EndOnWallNotBlocked: a segment that meets the wall only at P or Q is not
// blocked by it, even where that point is an end of the wall.
func TestBlocks_5_6_EndOnWallNotBlocked(t *testing.T) {
	runCases(t, []blocksCase{
		{"Q on the wall's middle", gridWall, pt(200, 200, 200), pt(400, 200, 200), false},
		{"P on the wall's middle", gridWall, pt(400, 200, 200), pt(600, 200, 200), false},
		{"Q on the wall's end", gridWall, pt(200, 200, 200), pt(400, 400, 200), false},
		{"P on the wall's end", gridWall, pt(400, 0, 200), pt(600, 200, 200), false},
		{"P on the wall, Q across: still only P", gridWall, pt(400, 200, 0), pt(800, 300, 0), false},
		{"P on an off-grid diagonal wall", wall(123, 457, -301, 999), pt(123, 457, 0), pt(900, 900, 0), false},
	})
}

// TestBlocks_5_6_HeightOverUnderInclusive: the segment's height at X must lie in
// [bottom, top], both ends included; a segment passes over a fence or under a wall that
// starts higher up.
func TestBlocks_5_6_HeightOverUnderInclusive(t *testing.T) {
	fence := gridWall.heights(0, 200)         // half a level high
	upper := gridWall.heights(400, 800)       // only level 1
	floating := gridWall.heights(NoBottom, 0) // everything below the ground
	high := gridWall.heights(800, NoTop)      // from level 2 up without limit
	a, b := int64(200), int64(600)            // X = (400, 200), halfway
	runCases(t, []blocksCase{
		{"fence: at mid-height of the fence", fence, pt(a, 200, 100), pt(b, 200, 100), true},
		{"fence: at the level's mid-height = its top", fence, pt(a, 200, 200), pt(b, 200, 200), true},
		{"fence: over the top", fence, pt(a, 200, 300), pt(b, 200, 300), false},
		{"fence: a unit over the top", fence, pt(a, 200, 201), pt(b, 200, 201), false},
		{"fence: rising, exactly the top at X", fence, pt(a, 200, 0), pt(b, 200, 400), true},
		{"fence: rising, half a unit over at X", fence, pt(a, 200, 0), pt(b, 200, 401), false},
		{"fence: falling, over at X", fence, pt(a, 200, 800), pt(b, 200, -200), false},
		{"fence: falling, exactly the top at X", fence, pt(a, 200, 800), pt(b, 200, -400), true},
		{"fence: exactly the bottom", fence, pt(a, 200, 0), pt(b, 200, 0), true},
		{"fence: under the bottom", fence, pt(a, 200, -1), pt(b, 200, -1), false},
		{"upper: under the bottom", upper, pt(a, 200, 200), pt(b, 200, 200), false},
		{"upper: rising, exactly the bottom at X", upper, pt(a, 200, 0), pt(b, 200, 800), true},
		{"upper: rising, half a unit under at X", upper, pt(a, 200, 0), pt(b, 200, 799), false},
		{"upper: exactly the top", upper, pt(a, 200, 800), pt(b, 200, 800), true},
		{"upper: over the top", upper, pt(a, 200, 801), pt(b, 200, 801), false},
		{"upper: crossing steeply inside", upper, pt(a, 200, -10000), pt(b, 200, 11200), true},
		{"no bottom: far below", floating, pt(a, 200, -MaxCoord), pt(b, 200, -MaxCoord), true},
		{"no bottom: exactly the top", floating, pt(a, 200, -7), pt(b, 200, 7), true},
		{"no bottom: over the top", floating, pt(a, 200, 1), pt(b, 200, 1), false},
		{"no top: far above", high, pt(a, 200, MaxCoord), pt(b, 200, MaxCoord), true},
		{"no top: under", high, pt(a, 200, 799), pt(b, 200, 799), false},
		{"bottom above top: blocks nothing", gridWall.heights(400, 0), pt(a, 200, 200), pt(b, 200, 200), false},
		{"one-height wall, exactly it", gridWall.heights(300, 300), pt(a, 200, 300), pt(b, 200, 300), true},
	})
}

// TestBlocks_5_6_VerticalNeverBlocked: a vertical segment's projection is a point: it meets
// the wall in no single point other than P = Q, and is never blocked.
func TestBlocks_5_6_VerticalNeverBlocked(t *testing.T) {
	runCases(t, []blocksCase{
		{"vertical on the wall's middle", gridWall, pt(400, 200, -400), pt(400, 200, 800), false},
		{"vertical on the wall's end", gridWall, pt(400, 400, -400), pt(400, 400, 800), false},
		{"vertical beside the wall", gridWall, pt(200, 200, 0), pt(200, 200, 800), false},
		{"a point on the wall", gridWall, pt(400, 100, 0), pt(400, 100, 0), false},
		{"vertical on a diagonal wall's lattice point", wall(0, 0, 800, 400), pt(400, 200, 0), pt(400, 200, 400), false},
		{"vertical, whole range", gridWall, pt(400, 200, -MaxCoord), pt(400, 200, MaxCoord), false},
	})
}

// TestBlocks_5_6_OffGridDiagonal: walls need not lie on grid lines: any lattice points will
// do, and the crossing is decided exactly even a fraction of a unit from the wall's end.
func TestBlocks_5_6_OffGridDiagonal(t *testing.T) {
	w := wall(123, 457, -301, 999) // e = (−424, 542); y − x = 334 + 966·s along it
	// The wall's midpoint (−89, 728) is a lattice point.
	runCases(t, []blocksCase{
		{"through the midpoint", w, pt(-589, 718, 0), pt(411, 738, 0), true},
		{"through the end A", w, pt(73, 407, 0), pt(173, 507, 0), true},
		{"through the end B", w, pt(-301, 900, 0), pt(-301, 1100, 0), true},
		// y = x + 335 meets the wall at s = 1/966, just inside A.
		{"1/966 of the wall inside A", w, pt(73, 408, 0), pt(173, 508, 0), true},
		// y = x + 333 meets its line at s = −1/966, just outside A.
		{"1/966 of the wall outside A", w, pt(73, 406, 0), pt(173, 506, 0), false},
		{"ends on the midpoint", w, pt(-589, 718, 0), pt(-89, 728, 0), false},
		{"along the wall, overlapping", w, pt(123-424*2, 457+542*2, 0), pt(-89, 728, 0), false},
		{"parallel, just off", w, pt(124, 457, 0), pt(-300, 999, 0), false},
		{"fence height at the midpoint, exactly", w.heights(0, 200), pt(-589, 718, 0), pt(411, 738, 400), true},
		{"fence height at the midpoint, over", w.heights(0, 199), pt(-589, 718, 0), pt(411, 738, 400), false},
	})
}

// TestBlocks_5_6_LargeCoords128 crosses the whole ±MaxCoord range with steep segments, where
// the height comparison multiplies numbers whose product exceeds 2^63: exact heights derived
// by hand, then near misses checked against the reference.
func TestBlocks_5_6_LargeCoords128(t *testing.T) {
	const M = MaxCoord
	// P = (−M, −M, −M) → Q = (M, M, M) crosses the wall (−M, M) → (M, −M) at X = (0, 0), at
	// height exactly 0; there tn = 2^60 and dz = 2^30, so tn·dz = 2^90.
	p, q := pt(-M, -M, -M), pt(M, M, M)
	w := wall(-M, M, M, -M)
	runCases(t, []blocksCase{
		{"across the range, unlimited", w, p, q, true},
		{"height 0 at X, bottom 0", w.heights(0, NoTop), p, q, true},
		{"height 0 at X, bottom 1", w.heights(1, NoTop), p, q, false},
		{"height 0 at X, top 0", w.heights(NoBottom, 0), p, q, true},
		{"height 0 at X, top −1", w.heights(NoBottom, -1), p, q, false},
		{"height 0 at X, [0, 0]", w.heights(0, 0), p, q, true},
		{"height 0 at X, [−M, M]", w.heights(-M, M), p, q, true},
		{"height 0 at X, [1, M]", w.heights(1, M), p, q, false},
		// Short segments across the wall a unit from its ends, at the corners of the range.
		{"a unit from the end (M, −M)", w, pt(M-2, -M, 0), pt(M, -M+2, 0), true},
		{"a unit from the end (−M, M), steep, height 0 at X", w.heights(0, 0), pt(-M, M-2, -M), pt(-M+2, M, M), true},
		{"a unit from the end (−M, M), steep, over", w.heights(NoBottom, -1), pt(-M, M-2, -M), pt(-M+2, M, M), false},
		// The segment grazes the wall's end: (−M, M) → (M, −M) shortened by a unit is
		// crossed at its end (M−1, −M+1) by a segment along x = M − 1.
		{"grazing an end at the edge of the range", wall(-M, M, M-1, -M+1), pt(M-1, -M, -M), pt(M-1, M, M), true},
		{"grazing an end, height at X", wall(-M, M, M-1, -M+1).heights(-M+1, -M+1), pt(M-1, -M, -M), pt(M-1, M, M), true},
		{"grazing an end, just over", wall(-M, M, M-1, -M+1).heights(-M, -M), pt(M-1, -M, -M), pt(M-1, M, M), false},
	})
	// Near misses: a wall nudged by one unit puts X at a height a tiny fraction away from a
	// whole number; the bounds ⌊z⌋ and ⌈z⌉ decide it.
	var checked int
	for _, c := range []struct {
		w    Wall
		p, q los.Point
	}{
		{wall(-M, M, M, -M+1), p, q},
		{wall(-M+1, M, M, -M), p, q},
		{wall(-M, M-1, M, -M), pt(-M, -M, -M), pt(M, M-1, M)},
		{wall(-M, 3, M, -5), pt(-M, -M, M), pt(M, M-7, -M)},
		{wall(M, -M, -M+3, M), pt(-M+1, -M, -M), pt(M, M, M-1)},
		{wall(-1, M, 1, -M), pt(-M, 1, -M), pt(M, 0, M)},
	} {
		r := refClassify(c.w, c.p, c.q)
		if r.kind != refCross {
			t.Errorf("case %v %v %v: not a crossing (%v)", c.w, c.p, c.q, r.kind)
			continue
		}
		checked++
		lo, hi := ratFloor(r.z), ratCeil(r.z)
		exact := lo == hi
		for _, h := range []struct {
			bottom, top int64
			want        bool
		}{
			{lo, NoTop, true}, {hi, NoTop, exact}, {hi + 1, NoTop, false},
			{NoBottom, hi, true}, {NoBottom, lo, exact}, {NoBottom, lo - 1, false},
			{lo, hi, true}, {hi, hi, exact}, {lo, lo, exact},
		} {
			checkBlocks(t, fmt.Sprintf("near miss z = %v", r.z.RatString()), c.w.heights(h.bottom, h.top), c.p, c.q, h.want)
		}
	}
	if checked == 0 {
		t.Fatal("no near-miss case crosses")
	}
}

// TestBlocks_5_6_HeightExactAtScale sets a wall's bottom or top to ⌊z⌋ or ⌈z⌉ of the exact
// height at X for random crossings over the whole range, so that every 128-bit height
// comparison is decided by the last unit.
func TestBlocks_5_6_HeightExactAtScale(t *testing.T) {
	r := rand.New(rand.NewPCG(56, 1))
	coord := func() int64 { return r.Int64N(2*MaxCoord+1) - MaxCoord }
	var n, exact int
	for n < 5000 {
		w := wall(coord(), coord(), coord(), coord())
		p, q := pt(coord(), coord(), coord()), pt(coord(), coord(), coord())
		if r.IntN(4) == 0 { // steepest: z from one end of the range to the other
			p.Z, q.Z = -MaxCoord, MaxCoord
		}
		res := refClassify(w, p, q)
		if res.kind != refCross {
			continue
		}
		n++
		lo, hi := ratFloor(res.z), ratCeil(res.z)
		if lo == hi {
			exact++
		}
		for _, h := range []struct {
			bottom, top int64
			want        bool
		}{
			{lo, NoTop, true}, {hi, NoTop, lo == hi}, {NoBottom, hi, true}, {NoBottom, lo, lo == hi},
			{lo, hi, true}, {hi, lo, lo == hi},
		} {
			w := w.heights(h.bottom, h.top)
			if got := blocksAll(w, p, q); got != [4]bool{h.want, h.want, h.want, h.want} {
				t.Fatalf("%v.Blocks(%v, %v) = %v (p→q, q→p, wall swapped ×2), want %v (height at X = %v)", w, p, q, got, h.want, res.z.RatString())
			}
		}
	}
	t.Logf("%d crossings over the whole range, %d at a whole height", n, exact)
}

// A generator makes a random wall and segment; want names the least count of each statistic
// the generator must reach so that the random comparison covers the edge cases.
type generator struct {
	name string
	n    int
	next func(r *rand.Rand) (Wall, los.Point, los.Point)
	want map[string]int
}

// randHeights picks a wall's heights: unlimited, whole levels, half levels, or anything.
func randHeights(r *rand.Rand, span int64) (bottom, top int64) {
	pick := func(none int64) int64 {
		switch r.IntN(5) {
		case 0:
			return none
		case 1:
			return 400 * (r.Int64N(5) - 2)
		case 2:
			return 200 * (r.Int64N(9) - 4)
		}
		return r.Int64N(2*span+1) - span
	}
	bottom, top = pick(NoBottom), pick(NoTop)
	if bottom != NoBottom && top != NoTop && bottom > top && r.IntN(8) != 0 {
		bottom, top = top, bottom // mostly bottom ≤ top, sometimes not
	}
	return bottom, top
}

func gcd(a, b int64) int64 {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func clampC(v int64) int64 { return max(-MaxCoord, min(MaxCoord, v)) }

var generators = []generator{
	{
		// Grid lines, cell centres and corners: multiples of 200, sometimes a unit or two off.
		name: "grid", n: 50000,
		next: func(r *rand.Rand) (Wall, los.Point, los.Point) {
			c := func() int64 {
				v := 200 * (r.Int64N(9) - 4)
				if r.IntN(4) == 0 {
					v += r.Int64N(5) - 2
				}
				return v
			}
			var w Wall
			for w.A == w.B {
				if r.IntN(2) == 0 { // on a grid line
					x, y0, y1 := 400*(r.Int64N(5)-2), 400*(r.Int64N(5)-2), 400*(r.Int64N(5)-2)
					w.A, w.B = [2]int64{x, y0}, [2]int64{x, y1}
					if r.IntN(2) == 0 {
						w.A, w.B = [2]int64{y0, x}, [2]int64{y1, x}
					}
				} else {
					w.A, w.B = [2]int64{c(), c()}, [2]int64{c(), c()}
				}
			}
			w.Bottom, w.Top = randHeights(r, 800)
			z := func() int64 {
				if r.IntN(2) == 0 {
					return 200 * (r.Int64N(9) - 4)
				}
				return 100*(r.Int64N(17)-8) + r.Int64N(3) - 1
			}
			p, q := pt(c(), c(), z()), pt(c(), c(), z())
			switch r.IntN(8) {
			case 0: // vertical
				q.X, q.Y = p.X, p.Y
			case 1, 2: // level
				q.Z = p.Z
			case 3: // on the wall's line, when it is a grid line
				if w.A[0] == w.B[0] {
					p.X, q.X = w.A[0], w.A[0]
				} else if w.A[1] == w.B[1] {
					p.Y, q.Y = w.A[1], w.A[1]
				}
			}
			return w, p, q
		},
		want: map[string]int{"along-overlap": 200, "along-touch": 100, "at-P-or-Q": 500, "cross": 5000,
			"vertical": 500, "apart": 5000, "blocked": 2000, "blocked at a wall end": 60, "on a height bound": 70},
	},
	{
		// A tiny lattice: everything collinear, touching or at an end is frequent.
		name: "tiny", n: 40000,
		next: func(r *rand.Rand) (Wall, los.Point, los.Point) {
			c := func() int64 { return r.Int64N(7) - 3 }
			var w Wall
			for w.A == w.B {
				w.A, w.B = [2]int64{c(), c()}, [2]int64{c(), c()}
			}
			w.Bottom, w.Top = NoBottom, NoTop
			if r.IntN(2) == 0 {
				w.Bottom = c()
			}
			if r.IntN(2) == 0 {
				w.Top = c()
			}
			return w, pt(c(), c(), c()), pt(c(), c(), c())
		},
		want: map[string]int{"along-overlap": 80, "along-touch": 20, "at-P-or-Q": 1000, "cross": 4000,
			"vertical": 200, "apart": 5000, "blocked": 2000, "blocked at a wall end": 200, "on a height bound": 120},
	},
	{
		// Built to pass through a point X of the wall (an end or an inner lattice point), in
		// any direction (parallel to the wall too), with X at P, at Q or between, and the
		// height at X on, next to or away from the wall's bottom and top.
		name: "through", n: 40000,
		next: func(r *rand.Rand) (Wall, los.Point, los.Point) {
			span := []int64{1000, 1 << 20, MaxCoord / 2}[r.IntN(3)]
			c := func() int64 { return r.Int64N(2*span+1) - span }
			var w Wall
			for w.A == w.B {
				w.A = [2]int64{c(), c()}
				w.B = [2]int64{w.A[0] + r.Int64N(2001) - 1000, w.A[1] + r.Int64N(2001) - 1000}
				if r.IntN(3) == 0 {
					w.B = [2]int64{c(), c()}
				}
			}
			ex, ey := w.B[0]-w.A[0], w.B[1]-w.A[1]
			g := gcd(ex, ey)
			k := []int64{0, g, r.Int64N(g + 1)}[r.IntN(3)] // X = A + (k/g)·e: A, B or inside
			X := [2]int64{w.A[0] + k*(ex/g), w.A[1] + k*(ey/g)}
			v := [2]int64{r.Int64N(41) - 20, r.Int64N(41) - 20}
			if r.IntN(6) == 0 {
				v = [2]int64{ex / g, ey / g} // along the wall
			}
			m0, m1 := r.Int64N(4), r.Int64N(4) // P = X − m0·v, Q = X + m1·v
			h, s := r.Int64N(1601)-800, r.Int64N(401)-200
			p := pt(X[0]-m0*v[0], X[1]-m0*v[1], h-m0*s)
			q := pt(X[0]+m1*v[0], X[1]+m1*v[1], h+m1*s)
			near := func(none int64) int64 {
				if r.IntN(4) == 0 {
					return none
				}
				return h + r.Int64N(5) - 2
			}
			w.Bottom, w.Top = near(NoBottom), near(NoTop)
			return w, p, q
		},
		want: map[string]int{"along-overlap": 200, "along-touch": 100, "at-P-or-Q": 2000, "cross": 5000,
			"vertical": 200, "blocked": 2000, "blocked at a wall end": 1000, "on a height bound": 2000},
	},
	{
		// Anything within ±MaxCoord.
		name: "random", n: 40000,
		next: func(r *rand.Rand) (Wall, los.Point, los.Point) {
			c := func() int64 { return r.Int64N(2*MaxCoord+1) - MaxCoord }
			var w Wall
			for w.A == w.B {
				w.A, w.B = [2]int64{c(), c()}, [2]int64{c(), c()}
			}
			w.Bottom, w.Top = randHeights(r, MaxCoord)
			return w, pt(c(), c(), c()), pt(c(), c(), c())
		},
		want: map[string]int{"cross": 2000, "apart": 10000, "blocked": 1000},
	},
	{
		// The corners and edges of the range, with steep segments.
		name: "extreme", n: 30000,
		next: func(r *rand.Rand) (Wall, los.Point, los.Point) {
			c := func() int64 {
				switch r.IntN(4) {
				case 0:
					return MaxCoord - r.Int64N(3)
				case 1:
					return -MaxCoord + r.Int64N(3)
				case 2:
					return r.Int64N(5) - 2
				}
				return r.Int64N(2*MaxCoord+1) - MaxCoord
			}
			var w Wall
			for w.A == w.B {
				w.A, w.B = [2]int64{c(), c()}, [2]int64{c(), c()}
			}
			w.Bottom, w.Top = randHeights(r, MaxCoord)
			return w, pt(c(), c(), c()), pt(c(), c(), c())
		},
		want: map[string]int{"along-overlap": 5, "at-P-or-Q": 200, "cross": 2000,
			"vertical": 40, "apart": 2000, "blocked": 1000, "blocked at a wall end": 20},
	},
}

// TestBlocks_5_6_RandomVsReference compares Blocks with the reference on 200 000 random
// walls and segments from generators aimed at the edge cases, with the segment and the wall
// each taken both ways round.
func TestBlocks_5_6_RandomVsReference(t *testing.T) {
	total := 0
	for gi, g := range generators {
		n := g.n
		if testing.Short() {
			n /= 10
		}
		total += n
		r := rand.New(rand.NewPCG(uint64(gi)+1, 5_6))
		stats := map[string]int{}
		fails := 0
		for range n {
			w, p, q := g.next(r)
			res := refClassify(w, p, q)
			stats[res.kind.String()]++
			if res.blocked {
				stats["blocked"]++
				if res.wallEnd {
					stats["blocked at a wall end"]++
				}
			}
			if res.onBound {
				stats["on a height bound"]++
			}
			if res.kind != refVertical && (res.kind != refApart) != segsMeet(xy(p), xy(q), w.A, w.B) {
				t.Fatalf("segsMeet(%v, %v, %v, %v) disagrees with the reference (%v)", xy(p), xy(q), w.A, w.B, res.kind)
			}
			got := blocksAll(w, p, q)
			if got != [4]bool{res.blocked, res.blocked, res.blocked, res.blocked} {
				fails++
				if fails <= 10 {
					t.Errorf("%s: %v, %v → %v (%v): Blocks (p→q, q→p, wall swapped ×2) = %v, reference %v",
						g.name, w, p, q, res.kind, got, res.blocked)
				}
			}
		}
		var keys []string
		for k := range refKinds {
			keys = append(keys, fmt.Sprintf("%s %d", k, stats[k.String()]))
		}
		for _, k := range []string{"blocked", "blocked at a wall end", "on a height bound"} {
			keys = append(keys, fmt.Sprintf("%s %d", k, stats[k]))
		}
		t.Logf("%-8s %6d cases: %s", g.name, n, strings.Join(keys, ", "))
		if fails > 0 {
			t.Errorf("%s: %d of %d cases disagree with the reference", g.name, fails, n)
		}
		for k, least := range g.want {
			if testing.Short() {
				least /= 10
			}
			if stats[k] < least {
				t.Errorf("%s: only %d cases %s, want at least %d: the generator misses its edge cases", g.name, stats[k], k, least)
			}
		}
	}
	t.Logf("%d cases in all", total)
}

// TestBlocks_HeightsBeyondMaxCoord: Wall documents no bound on Bottom and Top other than
// the sentinels NoBottom and NoTop, so any int64 height must be compared exactly, with the
// segment's coordinates within ±MaxCoord.
func TestBlocks_HeightsBeyondMaxCoord(t *testing.T) {
	p, q := pt(200, 200, 0), pt(600, 200, 0) // level, crossing gridWall at height 0 ± k
	for _, c := range []struct {
		bottom, top, z int64
		want           bool
	}{
		{-(1 << 62), 1 << 62, 0, true},
		{-(1 << 62), 1 << 62, MaxCoord, true},
		{math.MinInt64 + 1, NoTop, 2, true},
		{math.MinInt64 + 1, NoTop, MaxCoord, true},
		{NoBottom, math.MaxInt64 - 1, -2, true},
		{NoBottom, math.MaxInt64 - 1, -MaxCoord, true},
		{math.MinInt64 + 1, math.MaxInt64 - 1, MaxCoord, true},
		{math.MinInt64 + 1, math.MinInt64 + 1, 2, false},
		{math.MaxInt64 - 1, math.MaxInt64 - 1, -2, false},
	} {
		p.Z, q.Z = c.z, c.z
		checkBlocks(t, fmt.Sprintf("heights [%s, %s] at z = %d", fmtH(c.bottom), fmtH(c.top), c.z),
			gridWall.heights(c.bottom, c.top), p, q, c.want)
	}
}

// TestCmp128 checks the 128-bit comparison on products around 2^63 and 2^64 and on signs
// and zeros against math/big.
func TestCmp128(t *testing.T) {
	vals := []int64{0, 1, -1, 2, -2, 3, math.MaxInt32, 1 << 31, -(1 << 31), 1 << 32, MaxCoord, -MaxCoord,
		1 << 31 * 3, 1 << 61, -(1 << 61), 1<<62 - 1, math.MaxInt64, math.MinInt64 + 1, math.MinInt64}
	r := rand.New(rand.NewPCG(128, 128))
	for range 200 {
		vals = append(vals, int64(r.Uint64()), int64(r.Uint64()>>r.IntN(64)))
	}
	big4 := func(a, b int64) *big.Int { return new(big.Int).Mul(big.NewInt(a), big.NewInt(b)) }
	for i := 0; i < 20000; i++ {
		a, b, c, d := vals[r.IntN(len(vals))], vals[r.IntN(len(vals))], vals[r.IntN(len(vals))], vals[r.IntN(len(vals))]
		if want := big4(a, b).Cmp(big4(c, d)); cmpMul(a, b, c, d) != want {
			t.Fatalf("cmpMul(%d, %d, %d, %d) = %d, want %d", a, b, c, d, cmpMul(a, b, c, d), want)
		}
	}
}
