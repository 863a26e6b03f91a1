package grid

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/aoekit/aoekit/core/internal/num"
)

// §1.4: Chebyshev distance on the plane and in 3-D [ruling].
func TestDist_1_4(t *testing.T) {
	tests := []struct {
		a, b        Cell
		dist, dist2 int
	}{
		{C(0, 0, 0), C(0, 0, 0), 0, 0},
		{C(0, 0, 0), C(1, 0, 0), 1, 1},
		{C(0, 0, 0), C(1, 1, 0), 1, 1}, // a diagonal step is 1
		{C(0, 0, 0), C(3, -2, 0), 3, 3},
		{C(0, 0, 0), C(-2, 5, 0), 5, 5},
		{C(0, 0, 0), C(1, 1, 1), 1, 1}, // 3-D diagonal is 1
		{C(0, 0, 0), C(1, 2, 7), 7, 2}, // z dominates in 3-D only
		{C(5, 5, 5), C(5, 5, -5), 10, 0},
		{C(-3, 4, 2), C(3, -4, 2), 8, 8},
		{C(10, 10, 0), C(7, 14, 3), 4, 4},
	}
	for _, tt := range tests {
		if got := Dist(tt.a, tt.b); got != tt.dist {
			t.Errorf("Dist(%v, %v) = %d, want %d", tt.a, tt.b, got, tt.dist)
		}
		if got := Dist(tt.b, tt.a); got != tt.dist {
			t.Errorf("Dist(%v, %v) = %d, want %d (symmetry)", tt.b, tt.a, got, tt.dist)
		}
		if got := Dist2(tt.a, tt.b); got != tt.dist2 {
			t.Errorf("Dist2(%v, %v) = %d, want %d", tt.a, tt.b, got, tt.dist2)
		}
	}
}

// §1.4: the distance is the number of king moves, found by breadth-first search on a small
// box (the obviously right reference), in 2-D and 3-D.
func TestDistIsKingMoves_1_4(t *testing.T) {
	const r = 3
	in := func(c Cell) bool { return num.Abs(c.X) <= r && num.Abs(c.Y) <= r && num.Abs(c.Z) <= r }
	bfs := func(planar bool) map[Cell]int {
		dist := map[Cell]int{{}: 0}
		queue := []Cell{{}}
		for len(queue) > 0 {
			c := queue[0]
			queue = queue[1:]
			for dx := -1; dx <= 1; dx++ {
				for dy := -1; dy <= 1; dy++ {
					for dz := -1; dz <= 1; dz++ {
						if planar && dz != 0 {
							continue
						}
						n := c.Add(C(dx, dy, dz))
						if _, seen := dist[n]; !seen && in(n) {
							dist[n] = dist[c] + 1
							queue = append(queue, n)
						}
					}
				}
			}
		}
		return dist
	}
	for c, want := range bfs(false) {
		if got := Dist(C(0, 0, 0), c); got != want {
			t.Errorf("Dist(0, %v) = %d, want %d king moves", c, got, want)
		}
	}
	for c, want := range bfs(true) {
		if got := Dist2(C(0, 0, 0), c.Add(C(0, 0, 2))); got != want {
			t.Errorf("Dist2 ignores z: Dist2(0, %v) = %d, want %d", c.Add(C(0, 0, 2)), got, want)
		}
	}
}

// Add and Sub are inverse; String is "(x,y,z)".
func TestCellArithmetic(t *testing.T) {
	a, b := C(3, -4, 5), C(-1, 2, 7)
	if got := a.Add(b); got != C(2, -2, 12) {
		t.Errorf("Add = %v", got)
	}
	if got := a.Sub(b); got != C(4, -6, -2) {
		t.Errorf("Sub = %v", got)
	}
	if got := a.Add(b).Sub(b); got != a {
		t.Errorf("Add then Sub = %v, want %v", got, a)
	}
	if got := a.String(); got != "(3,-4,5)" {
		t.Errorf("String = %q", got)
	}
	if got := (Cell{}).String(); got != "(0,0,0)" {
		t.Errorf("zero String = %q", got)
	}
}

// Less orders by z, then y, then x; Compare agrees with it and sorts.
func TestLessCompare(t *testing.T) {
	tests := []struct {
		a, b Cell
		want int
	}{
		{C(0, 0, 0), C(0, 0, 0), 0},
		{C(0, 0, 0), C(1, 0, 0), -1},
		{C(5, 0, 0), C(0, 1, 0), -1}, // y before x
		{C(5, 5, 0), C(0, 0, 1), -1}, // z before y
		{C(0, 0, 1), C(9, 9, 0), 1},
		{C(2, 3, 4), C(1, 3, 4), 1},
	}
	for _, tt := range tests {
		if got := Compare(tt.a, tt.b); got != tt.want {
			t.Errorf("Compare(%v, %v) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := tt.a.Less(tt.b); got != (tt.want < 0) {
			t.Errorf("%v.Less(%v) = %v", tt.a, tt.b, got)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	cells := make([]Cell, 200)
	for i := range cells {
		cells[i] = C(rng.IntN(5)-2, rng.IntN(5)-2, rng.IntN(5)-2)
	}
	slices.SortFunc(cells, Compare)
	for i := 1; i < len(cells); i++ {
		a, b := cells[i-1], cells[i]
		ka := [3]int{a.Z, a.Y, a.X}
		kb := [3]int{b.Z, b.Y, b.X}
		if slices.Compare(ka[:], kb[:]) > 0 {
			t.Fatalf("sorted order has %v before %v", a, b)
		}
	}
}
