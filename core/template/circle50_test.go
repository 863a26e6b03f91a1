package template

import (
	"testing"

	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/internal/num"
)

// §4.1 table: the 50 % circle's counts for x = 1…10, through the template; the circle is flat
// (the origin's level only), contains its centre, is symmetric under the eight symmetries of
// the square, and a close circle (§4.2) covers the same cells around the caster's cell.
func TestCircle50Counts_4_1(t *testing.T) {
	table := []int{9, 21, 37, 69, 97, 137, 177, 225, 293, 349}
	origin := grid.Cell{X: 5, Y: -6, Z: 2}
	for i, want := range table {
		x := i + 1
		for _, close := range []bool{false, true} {
			c := Circle50{Size: x, Close: close}
			p := Placement{Origin: origin}
			if got := c.Count(p); got != want {
				t.Errorf("%v: Count() = %d, want %d", c, got, want)
			}
			cells := collect(c, p)
			if len(cells) != want {
				t.Errorf("%v: %d cells visited, want %d", c, len(cells), want)
			}
			if d, dup := firstDup(cells); dup {
				t.Errorf("%v: %v visited twice", c, d)
			}
			set := map[grid.Cell]bool{}
			for _, cell := range cells {
				if cell.Z != origin.Z {
					t.Errorf("%v: %v is off the origin's level [ruling §4.1]", c, cell)
					break
				}
				v := cell.Sub(origin)
				if grid.Dist2(grid.Cell{}, v) > x {
					t.Errorf("%v: %v is past Chebyshev %d", c, cell, x)
				}
				set[v] = true
			}
			if !set[grid.Cell{}] {
				t.Errorf("%v: the centre is not in it", c)
			}
			for v := range set {
				for _, w := range []grid.Cell{{X: -v.X, Y: v.Y}, {X: v.X, Y: -v.Y}, {X: v.Y, Y: v.X}} {
					if !set[w] {
						t.Errorf("%v: has %v but not its mirror %v", c, v, w)
					}
				}
			}
			// The disc of radius x + ½ holds every cell wholly inside it and none wholly
			// outside: corners farther than x + ½, or all corners within it.
			for dy := -x - 1; dy <= x+1; dy++ {
				for dx := -x - 1; dx <= x+1; dx++ {
					near, far := cornerRange(dx, dy) // squared distances ×4 of the nearest and farthest corners
					r2 := (2*x + 1) * (2*x + 1)      // (2(x + ½))²
					v := grid.Cell{X: dx, Y: dy}
					if far <= r2 && !set[v] {
						t.Errorf("%v: %v lies wholly inside the disc but is not in the circle", c, v)
					}
					if near >= r2 && set[v] {
						t.Errorf("%v: %v lies wholly outside the disc but is in the circle", c, v)
					}
				}
			}
		}
	}
}

// cornerRange returns 4× the squared distances from the centre of cell (0, 0) to the nearest
// point and to the farthest corner of cell (dx, dy).
func cornerRange(dx, dy int) (near, far int) {
	nearest := func(d int) int { // 2 × the nearest |coordinate| of the cell's span
		if d == 0 {
			return 0
		}
		return 2*num.Abs(d) - 1
	}
	fx, fy := 2*num.Abs(dx)+1, 2*num.Abs(dy)+1
	nx, ny := nearest(dx), nearest(dy)
	return nx*nx + ny*ny, fx*fx + fy*fy
}
