// Package circle50 decides the 50 % circle of SPEC §4.1 exactly: the cells at least half of
// whose area lies inside a disc of radius x + ½ centred on a cell's centre.
//
// Cell (dx, dy) is the closed square [dx−½, dx+½] × [dy−½, dy+½] around the centre cell (0, 0);
// it is in circle x when the area of its intersection with the disc of radius x + ½ centred on
// (0, 0) is at least ½. Each row of the circle is a run of cells centred on dx = 0 (the covered
// area never grows moving away from an axis), so a circle is its list of row half-widths.
//
// # Exactness
//
// The area is computed in float64 by a closed form (see area) whose error is below 1e-13 for
// every x ≤ MaxSize. TestMargin_4_1 evaluates every cell of every circle x ≤ MaxSize and checks
// that its area differs from ½ by more than 1e-9; the smallest distance is 1.47e-4 (x = 457,
// cell (341, 305)). So each decision is the one the exact area gives, and no higher-precision
// fallback is needed; raising MaxSize reruns that proof.
//
// The distance stays large for a reason (a heuristic; the proof is the test): a cell the arc
// crosses near its centre is covered about ½ + ℓ·(r − ρ) plus a curvature term, ρ the distance
// to the cell's centre and ℓ ≥ 1 the chord; r² − ρ² = x² + x + ¼ − dx² − dy² is an integer plus
// ¼, so |r − ρ| ≳ 1/(8r), and the distance from ½ stays of order 1/r instead of shrinking with
// the number of cells tried. No area is exactly ½: the arc never passes through a cell corner
// ((2x+1)² is odd, a sum of two odd squares is even), and an area bounded by an arc is
// transcendental (Lindemann–Weierstrass).
//
// # Determinism
//
// The computation uses only +, −, ×, ÷ and math.Sqrt, which IEEE 754 rounds exactly on every
// platform; no math.Asin (assembly on s390x) or other library approximation. Each product that
// feeds a sum is wrapped in an explicit float64 conversion, which the Go spec says prevents
// fusing it into a fused multiply–add (arm64, ppc64le, s390x, riscv64 fuse otherwise; their
// compiled code holds no FMA instruction). So the areas are bit-identical on every GOARCH,
// js/wasm included; and even if they were not, no decision could differ, since every area is at
// least 10⁹ error bounds away from ½. TestBits pins the bits of every area; it passes under
// GOOS=js GOARCH=wasm and with -gcflags=all=-d=softfloat.
package circle50

import (
	"math"

	"github.com/aoekit/aoekit/core/internal/num"
)

// MaxSize is the largest circle size x supported.
const MaxSize = 500

// Rows returns, for dy = 0 … x, the half-width of row dy of circle x: the cells (dx, dy) with
// |dx| ≤ Rows(x)[dy] are in the circle; −1 means the row is empty. x must be in 0 … MaxSize.
// Row −dy equals row dy, and the circle is symmetric under swapping dx and dy. The result is a
// new slice, which the caller may keep or change.
func Rows(x int) []int {
	if x < 0 || x > MaxSize {
		panic("circle50: size " + num.Itoa(x) + " out of range 0…" + num.Itoa(MaxSize))
	}
	hw := make([]int, x+1)
	// The centre row spans exactly −x … x. For x = 0 the disc is inscribed in the cell (area π/4).
	// For x ≥ 1 cell (x, 0) holds the triangle with vertices (x−½, ±½) and (x+½, 0), which lie in
	// the disc, so more than half of the cell is covered; cell (x+1, 0) lies beyond dx = x + ½ = r.
	hw[0] = x
	// Areas never grow moving away from an axis, so each row ends at or before the end of the
	// row next nearer the centre: walk inwards from there, about 2x + 1 cells in all.
	for dy := 1; dy <= x; dy++ {
		dx := hw[dy-1]
		for dx >= 0 && area(x, dx, dy) < 0.5 {
			dx--
		}
		hw[dy] = dx
	}
	return hw
}

// Count is the number of cells of circle x.
func Count(x int) int {
	n := 0
	for dy, hw := range Rows(x) {
		w := 2*hw + 1
		if dy > 0 {
			w *= 2
		}
		n += max(w, 0)
	}
	return n
}

// area returns the area of the part of cell (dx, dy) inside the disc of circle x, for
// 0 ≤ x ≤ MaxSize and any dx, dy.
//
// Error bound. Every corner coordinate is 0 or a half-integer below 502 and r² = (x + ½)², so
// every square, and every sum or difference of at most three of them, is a multiple of ¼ below
// 2⁵¹ and exact in float64. Each length quad derives from them (runs, heights, widths) is one
// exactly rounded square root, one sum of positive terms and one division, so has a relative
// error of at most 4u (u = 2⁻⁵³) and, being at most 1, an absolute error of at most 4u. The chord
// then has an absolute error below 12u, which moves the segment area r²·seg(s) by less than
// 0.4 × 12u since its derivative in the chord length is r·s²/√(1−s²) < 0.4 (s ≤ √2/3 for x ≥ 1);
// seg itself is summed to full precision (relative error below 30u on an area below 0.2). The
// final sum of three terms of size at most 1 adds 3u. The total is below 40u < 5e-15, and the
// doubling or quadrupling of an axis cell's part makes it below 2e-14: far below 1e-13.
func area(x, dx, dy int) float64 {
	dx, dy = num.Abs(dx), num.Abs(dy)
	if dx < dy {
		dx, dy = dy, dx // symmetric in the diagonal: now dx ≥ dy ≥ 0
	}
	r := float64(x) + 0.5
	r2 := float64(r * r)
	fx := float64(dx)
	switch {
	case dx == 0: // the centre cell
		if x == 0 {
			return math.Pi / 4 // the disc inscribed in the cell
		}
		return 1 // its corners lie at distance √½ < 3/2 ≤ r
	case dy == 0: // an axis cell: twice its half on one side of the axis
		return 2 * quad(r, r2, 0, 0.5, fx-0.5, fx+0.5)
	default: // wholly inside the open quadrant
		fy := float64(dy)
		return quad(r, r2, fx-0.5, fx+0.5, fy-0.5, fy+0.5)
	}
}

// quad returns the area of the rectangle [a, b] × [c, d] inside the disc of radius r (r2 = r²)
// centred on the origin, for 0 ≤ a < b, 0 < c < d, b − a and d − c at most 1, r ≥ 3/2, and no
// corner on the circle (always so for cells, see the package comment).
//
// Over u ∈ [a, b] the disc covers the rectangle's column at u to height clamp(h(u) − c, 0, d − c),
// h(u) = √(r² − u²), which decreases in u. So the covered part is a full-height run
// [a, u₁], then a run [u₁, u₂] under the arc, then nothing. The run under the arc is the
// trapezoid below the chord from (u₁, h(u₁)) to (u₂, h(u₂)) plus the circular segment between
// the chord and the arc. Every length is computed from exact squares in a form without
// cancellation (p − q = (p² − q²)/(p + q)), relative to the rectangle, never as a difference of
// coordinates near r.
func quad(r, r2, a, b, c, d float64) float64 {
	a2, b2, c2, d2 := float64(a*a), float64(b*b), float64(c*c), float64(d*d)
	if a2+c2 >= r2 {
		return 0 // the nearest corner is outside
	}
	if b2+d2 <= r2 {
		return float64((b - a) * (d - c)) // the farthest corner is inside
	}
	var (
		run    float64 // u₁ − a: the full-height run
		e1, e2 float64 // h(u₁) − c and h(u₂) − c: the heights at the ends of the arc run
		w      float64 // u₂ − u₁: the width of the arc run
		ud     float64 // √(r² − d²), where the arc leaves the top edge
		atA    = a2+d2 >= r2
	)
	if atA { // the top-left corner is outside: the arc run starts at u₁ = a
		e1 = (r2 - a2 - c2) / (math.Sqrt(r2-a2) + c)
	} else { // the arc crosses the top edge at u₁ = ud
		ud = math.Sqrt(r2 - d2)
		run = (r2 - d2 - a2) / (ud + a)
		e1 = d - c
	}
	if b2+c2 <= r2 { // the bottom-right corner is inside: the arc run ends at u₂ = b
		e2 = (r2 - b2 - c2) / (math.Sqrt(r2-b2) + c)
		if atA {
			w = b - a
		} else {
			w = (b2 + d2 - r2) / (b + ud)
		}
	} else { // the arc crosses the bottom edge at u₂ = √(r² − c²), e2 = 0
		uc := math.Sqrt(r2 - c2)
		if atA {
			w = (r2 - c2 - a2) / (uc + a)
		} else {
			w = (d2 - c2) / (uc + ud)
		}
	}
	dh := e1 - e2
	chord := math.Sqrt(float64(w*w) + float64(dh*dh))
	full := float64((d - c) * run)
	// The compiler turns / 2 into × 0.5, a product: keep it out of the sum too.
	trapezoid := float64(float64(w*(e1+e2)) / 2)
	segment := float64(r2 * seg(chord/(2*r)))
	return full + trapezoid + segment
}

// seg returns asin(s) − s·√(1 − s²), the area of a circular segment of a unit disc whose chord is
// 2s long, for 0 ≤ s ≤ ½. It sums the series Σₖ 2·C(2k, k)/4ᵏ · s^(2k+3)/(2k + 3), whose terms
// shrink at least 4-fold each (s² ≤ ¼), with + − × ÷ only: no library arcsine is needed, and
// the difference of two nearly equal terms is never formed.
func seg(s float64) float64 {
	t := float64(s * s)
	p := float64(s * t) // s^(2k+3)
	c := 2.0            // 2·C(2k, k)/4ᵏ
	sum := 0.0
	for k := 0; k < 64; k++ {
		next := sum + float64(c*p)/float64(2*k+3)
		if next == sum {
			break
		}
		sum = next
		p = float64(p * t)
		c = float64(c*float64(2*k+1)) / float64(2*k+2)
	}
	return sum
}
