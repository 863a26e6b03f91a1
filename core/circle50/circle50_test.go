package circle50

import (
	"math"
	"testing"

	"github.com/aoekit/aoekit/core/internal/num"
)

// in reports whether Rows places cell (dx, dy) in circle x, hw = Rows(x).
func in(hw []int, dx, dy int) bool {
	dx, dy = num.Abs(dx), num.Abs(dy)
	return dy < len(hw) && dx <= hw[dy]
}

// TestCountTable_4_1 checks the counts of SPEC §4.1's table (Go identifiers cannot hold '§').
func TestCountTable_4_1(t *testing.T) {
	for _, tc := range []struct{ x, cells int }{
		{1, 9}, {2, 21}, {3, 37}, {4, 69}, {5, 97},
		{6, 137}, {7, 177}, {8, 225}, {9, 293}, {10, 349},
	} {
		if got := Count(tc.x); got != tc.cells {
			t.Errorf("§4.1: Count(%d) = %d, want %d", tc.x, got, tc.cells)
		}
	}
	if got := Count(0); got != 1 {
		t.Errorf("§4.1: Count(0) = %d, want 1 (the centre cell)", got)
	}
}

// refArea is the slow reference: the area of cell (dx, dy) inside the disc of radius x + ½,
// integrating numerically the length of the disc's vertical chord at abscissa u that falls in
// the cell's strip [dy−½, dy+½], over u ∈ [dx−½, dx+½]. It shares nothing with area: no
// symmetry, no quadrants, no closed form. Cells wholly inside or outside are settled by their
// corners, exactly (every square involved is a multiple of ¼).
func refArea(x, dx, dy int) float64 {
	r := float64(x) + 0.5
	a, b := float64(dx)-0.5, float64(dx)+0.5
	c, d := float64(dy)-0.5, float64(dy)+0.5
	far := math.Max(a*a, b*b) + math.Max(c*c, d*d)
	if far <= r*r {
		return 1
	}
	nu, nv := nearest(a, b), nearest(c, d)
	if nu*nu+nv*nv >= r*r {
		return 0
	}
	chord := func(u float64) float64 {
		h := math.Sqrt(math.Max(r*r-u*u, 0))
		return math.Max(math.Min(d, h)-math.Max(c, -h), 0)
	}
	// Split [a, b] where the chord is not smooth: u = ±r, and where the arc meets y = c or d.
	cuts := []float64{a, b, r, -r}
	for _, y := range []float64{c, d} {
		if y*y < r*r {
			s := math.Sqrt(r*r - y*y)
			cuts = append(cuts, s, -s)
		}
	}
	var pts []float64
	for _, p := range cuts {
		if p >= a && p <= b {
			pts = append(pts, p)
		}
	}
	sortFloats(pts)
	sum := 0.0
	for i := 0; i+1 < len(pts); i++ {
		sum += simpson(chord, pts[i], pts[i+1], 1e-13)
	}
	return sum
}

// nearest returns the distance from 0 to the interval [lo, hi].
func nearest(lo, hi float64) float64 {
	switch {
	case lo > 0:
		return lo
	case hi < 0:
		return -hi
	}
	return 0
}

func sortFloats(p []float64) {
	for i := 1; i < len(p); i++ {
		for j := i; j > 0 && p[j] < p[j-1]; j-- {
			p[j], p[j-1] = p[j-1], p[j]
		}
	}
}

// simpson integrates f over [a, b] by adaptive Simpson's rule to about tol.
func simpson(f func(float64) float64, a, b, tol float64) float64 {
	fa, fm, fb := f(a), f((a+b)/2), f(b)
	return simpsonStep(f, a, b, fa, fm, fb, (b-a)*(fa+4*fm+fb)/6, tol, 60)
}

func simpsonStep(f func(float64) float64, a, b, fa, fm, fb, whole, tol float64, depth int) float64 {
	m := (a + b) / 2
	lm, rm := (a+m)/2, (m+b)/2
	flm, frm := f(lm), f(rm)
	left := (m - a) * (fa + 4*flm + fm) / 6
	right := (b - m) * (fm + 4*frm + fb) / 6
	if depth <= 0 || math.Abs(left+right-whole) <= 15*tol {
		return left + right + (left+right-whole)/15
	}
	return simpsonStep(f, a, m, fa, flm, fm, left, tol/2, depth-1) +
		simpsonStep(f, m, b, fm, frm, fb, right, tol/2, depth-1)
}

// TestReference_4_1 compares every cell decision of Rows with the slow reference for every
// x ≤ 100, over the whole square |dx|, |dy| ≤ x + 2, and the closed-form area with the
// reference's wherever the arc crosses the cell.
func TestReference_4_1(t *testing.T) {
	const refMax = 100
	worstDiff, worstRef := 0.0, 1.0
	for x := 0; x <= refMax; x++ {
		hw := Rows(x)
		for dy := -x - 2; dy <= x+2; dy++ {
			for dx := -x - 2; dx <= x+2; dx++ {
				ref := refArea(x, dx, dy)
				if ref == 0 || ref == 1 {
					if got := area(x, dx, dy); got != ref {
						t.Fatalf("x=%d cell (%d,%d): area %v, reference %v", x, dx, dy, got, ref)
					}
				} else {
					worstDiff = math.Max(worstDiff, math.Abs(area(x, dx, dy)-ref))
				}
				worstRef = math.Min(worstRef, math.Abs(ref-0.5))
				if in(hw, dx, dy) != (ref >= 0.5) {
					t.Fatalf("x=%d cell (%d,%d): in=%v, reference area %.15f", x, dx, dy, in(hw, dx, dy), ref)
				}
			}
		}
	}
	t.Logf("x ≤ %d: max |area − reference| = %.3g, min |reference − ½| = %.3g", refMax, worstDiff, worstRef)
	if worstDiff > 1e-11 {
		t.Errorf("closed form and reference differ by %.3g", worstDiff)
	}
	if worstRef < 1e-9 {
		t.Errorf("the reference comes within %.3g of ½: its decisions are not conclusive", worstRef)
	}
}

// TestMargin_4_1 is the exactness proof: for every x ≤ MaxSize it evaluates every cell of the
// octant 0 ≤ dy ≤ dx ≤ x + 1 (the other cells are its images, and cells beyond dx = x + 1 lie
// beyond the disc), checks its decision against Rows, and checks that its area is more than
// margin away from ½. The closed form's error is below 1e-13 (see area), so the exact area lies
// on the same side of ½ as the computed one, on every platform.
func TestMargin_4_1(t *testing.T) {
	const margin = 1e-9
	maxX := MaxSize
	if testing.Short() {
		maxX = 150
	}
	best, bx, bdx, bdy := 1.0, 0, 0, 0
	for x := 0; x <= maxX; x++ {
		hw := Rows(x)
		for dy := 0; dy <= x+1; dy++ {
			for dx := dy; dx <= x+1; dx++ {
				a := area(x, dx, dy)
				if in(hw, dx, dy) != (a >= 0.5) {
					t.Fatalf("x=%d cell (%d,%d): area %.17g but in=%v", x, dx, dy, a, in(hw, dx, dy))
				}
				if m := math.Abs(a - 0.5); m < best {
					best, bx, bdx, bdy = m, x, dx, dy
				}
			}
		}
	}
	t.Logf("x ≤ %d: smallest |area − ½| = %.6g at x=%d cell (%d,%d), area %.17g",
		maxX, best, bx, bdx, bdy, area(bx, bdx, bdy))
	if best <= margin {
		t.Errorf("x=%d cell (%d,%d) has |area − ½| = %.3g ≤ %g: float64 cannot decide it", bx, bdx, bdy, best, margin)
	}
}

// areasGolden is the FNV-1a hash of the bits of every area TestBits hashes, as computed on
// linux/amd64; the package comment promises the same bits on every platform.
const areasGolden = 0x743716cfe547f7d

// TestBits checks that the areas are bit-identical to those computed on linux/amd64, for the
// octant 0 ≤ dy ≤ dx ≤ x + 1 of every x ≤ MaxSize. It fails on a platform whose float64
// arithmetic differs (a fused multiply–add, a math.Sqrt that is not exactly rounded). Run
// it elsewhere with GOARCH=386 GO386=softfloat, or GOOS=js GOARCH=wasm and the Go wasm exec.
func TestBits(t *testing.T) {
	h := uint64(14695981039346656037) // FNV-1a, 64 bits, over the little-endian bytes
	for x := 0; x <= MaxSize; x++ {
		for dy := 0; dy <= x+1; dy++ {
			for dx := dy; dx <= x+1; dx++ {
				b := math.Float64bits(area(x, dx, dy))
				for i := 0; i < 64; i += 8 {
					h = (h ^ (b >> i & 0xff)) * 1099511628211
				}
			}
		}
	}
	if got := h; got != areasGolden {
		t.Errorf("hash of the areas = %#x, want %#x", got, uint64(areasGolden))
	}
}

// TestMonotone_4_1 checks what Rows relies on: the covered area never grows moving away from
// an axis, along a row or along a column, so the cells of a row are one run centred on dx = 0
// and the runs narrow (or stay) from the centre row outwards.
func TestMonotone_4_1(t *testing.T) {
	for x := 0; x <= 100; x++ {
		for dy := 0; dy <= x+2; dy++ {
			for dx := 0; dx <= x+2; dx++ {
				a := area(x, dx, dy)
				if b := area(x, dx+1, dy); b > a {
					t.Fatalf("x=%d: area(%d,%d) = %.17g < area(%d,%d) = %.17g", x, dx, dy, a, dx+1, dy, b)
				}
				if b := area(x, dx, dy+1); b > a {
					t.Fatalf("x=%d: area(%d,%d) = %.17g < area(%d,%d) = %.17g", x, dx, dy, a, dx, dy+1, b)
				}
			}
		}
	}
	for x := 0; x <= MaxSize; x++ {
		hw := Rows(x)
		for dy := 1; dy <= x; dy++ {
			if hw[dy] > hw[dy-1] {
				t.Fatalf("x=%d: row %d is wider than row %d: %v", x, dy, dy-1, hw)
			}
		}
	}
}

// TestSymmetry_4_1 checks the 8-fold symmetry: swapping dx and dy (the row list read as
// columns) and the signs (the row list is indexed by |dy| and holds |dx| bounds) keep the
// circle; and the area itself is symmetric.
func TestSymmetry_4_1(t *testing.T) {
	for x := 0; x <= MaxSize; x++ {
		hw := Rows(x)
		for dy := 0; dy <= x; dy++ {
			for dx := 0; dx <= x; dx++ {
				if in(hw, dx, dy) != in(hw, dy, dx) {
					t.Fatalf("x=%d: cell (%d,%d) in=%v but (%d,%d) in=%v", x, dx, dy, in(hw, dx, dy), dy, dx, in(hw, dy, dx))
				}
			}
		}
	}
	for x := 0; x <= 20; x++ {
		for dy := -x - 1; dy <= x+1; dy++ {
			for dx := -x - 1; dx <= x+1; dx++ {
				a := area(x, dx, dy)
				for _, b := range []float64{area(x, -dx, dy), area(x, dx, -dy), area(x, dy, dx), area(x, -dy, -dx)} {
					if a != b {
						t.Fatalf("x=%d: area(%d,%d) = %v differs from an image: %v", x, dx, dy, a, b)
					}
				}
			}
		}
	}
}

// TestShape_4_1 checks the bounds of every circle: x + 1 rows, every cell within Chebyshev
// distance x (a cell beyond it lies beyond dx = x + ½ = r), no empty row, the centre row
// spanning exactly 2x + 1 cells (see Rows), and counts that grow with x.
func TestShape_4_1(t *testing.T) {
	prev := 0
	for x := 0; x <= MaxSize; x++ {
		hw := Rows(x)
		if len(hw) != x+1 {
			t.Fatalf("x=%d: %d rows, want %d", x, len(hw), x+1)
		}
		if hw[0] != x {
			t.Errorf("x=%d: centre row half-width %d, want %d", x, hw[0], x)
		}
		for dy, w := range hw {
			if w < 0 || w > x {
				t.Errorf("x=%d: row %d half-width %d outside 0…%d", x, dy, w, x)
			}
		}
		// The cells at Chebyshev distance x + 1 are outside: their areas are 0.
		for d := -x - 1; d <= x+1; d++ {
			if a := area(x, x+1, d); a != 0 {
				t.Errorf("x=%d: cell (%d,%d) beyond the disc has area %v", x, x+1, d, a)
			}
		}
		n := Count(x)
		if n <= prev {
			t.Errorf("Count(%d) = %d, not more than Count(%d) = %d", x, n, x-1, prev)
		}
		prev = n
	}
}

// TestCountMatchesRows checks Count against a cell-by-cell tally of Rows.
func TestCountMatchesRows(t *testing.T) {
	for x := 0; x <= 60; x++ {
		hw, n := Rows(x), 0
		for dy := -x - 1; dy <= x+1; dy++ {
			for dx := -x - 1; dx <= x+1; dx++ {
				if in(hw, dx, dy) {
					n++
				}
			}
		}
		if got := Count(x); got != n {
			t.Errorf("Count(%d) = %d, cells of Rows = %d", x, got, n)
		}
	}
}

// TestArea checks values known in closed form: the inscribed disc of circle 0, and the
// total area of every circle's cells, which must equal the disc's area π(x + ½)².
func TestArea(t *testing.T) {
	if got := area(0, 0, 0); got != math.Pi/4 {
		t.Errorf("area(0, 0, 0) = %v, want π/4", got)
	}
	for _, x := range []int{1, 2, 3, 7, 50, 123, MaxSize} {
		sum := 0.0
		for dy := -x - 1; dy <= x+1; dy++ {
			for dx := -x - 1; dx <= x+1; dx++ {
				sum += area(x, dx, dy)
			}
		}
		r := float64(x) + 0.5
		if want := math.Pi * r * r; math.Abs(sum-want) > 1e-9*want {
			t.Errorf("x=%d: cells sum to %.12f, disc area %.12f", x, sum, want)
		}
	}
}

// TestSeg checks the segment series against the library arcsine.
func TestSeg(t *testing.T) {
	for i := 1; i <= 500; i++ {
		s := float64(i) / 1000
		want := math.Asin(s) - s*math.Sqrt(1-s*s)
		if got := seg(s); math.Abs(got-want) > 1e-15+1e-12*want {
			t.Errorf("seg(%v) = %.17g, want %.17g", s, got, want)
		}
	}
	if seg(0) != 0 {
		t.Errorf("seg(0) = %v", seg(0))
	}
}

func TestRowsPanicsOutOfRange(t *testing.T) {
	for _, x := range []int{-1, MaxSize + 1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Rows(%d) did not panic", x)
				}
			}()
			Rows(x)
		}()
	}
}

func BenchmarkRows100(b *testing.B) {
	for b.Loop() {
		Rows(100)
	}
}

func BenchmarkRows500(b *testing.B) {
	for b.Loop() {
		Rows(500)
	}
}

func BenchmarkCount10(b *testing.B) {
	for b.Loop() {
		Count(10)
	}
}
