package grid

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// cellsOf lists a space's cells by the definition of §1.5 (size × size squares, height levels
// from the north-west, lowest anchor), independently of Space.Cells.
func cellsOf(s Space) []Cell {
	size, height := max(s.Size, 1), max(s.Height, 1)
	var out []Cell
	for dz := 0; dz < height; dz++ {
		for dy := 0; dy < size; dy++ {
			for dx := 0; dx < size; dx++ {
				out = append(out, s.Anchor.Add(C(dx, dy, dz)))
			}
		}
	}
	return out
}

func randSpace(rng *rand.Rand) Space {
	return Space{
		Anchor: C(rng.IntN(13)-6, rng.IntN(13)-6, rng.IntN(7)-3),
		Size:   rng.IntN(4) + 1,
		Height: rng.IntN(4) + 1,
	}
}

// §1.5: a space is size × size squares and height levels, anchored at its north-west, lowest
// cell; Cells visits each once in z, y, x order, Count agrees, Contains is exactly membership.
func TestSpaceCells_1_5(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	spaces := []Space{
		Unit(C(0, 0, 0)), Unit(C(-4, 7, 2)),
		{C(1, 2, 3), 2, 2}, {C(1, 2, 3), 3, 1}, {C(0, 0, 0), 1, 4},
		{C(5, 5, 0), 0, 0},   // size and height below 1 count as 1
		{C(5, 5, 0), -3, -1}, // likewise
	}
	for range 200 {
		spaces = append(spaces, randSpace(rng))
	}
	for _, s := range spaces {
		want := cellsOf(s)
		var got []Cell
		s.Cells(func(c Cell) { got = append(got, c) })
		if len(got) != len(want) {
			t.Fatalf("%+v: Cells visits %d cells, want %d", s, len(got), len(want))
		}
		for i := range want { // cellsOf already lists them in z, y, x order
			if got[i] != want[i] {
				t.Fatalf("%+v: cell %d = %v, want %v", s, i, got[i], want[i])
			}
		}
		if s.Count() != len(want) {
			t.Errorf("%+v: Count() = %d, want %d", s, s.Count(), len(want))
		}
		if s.Min() != s.Anchor {
			t.Errorf("%+v: Min() = %v, want the anchor", s, s.Min())
		}
		member := map[Cell]bool{}
		maxc := s.Anchor
		for _, c := range want {
			member[c] = true
			if Compare(c, maxc) > 0 {
				maxc = c
			}
		}
		if s.Max() != maxc {
			t.Errorf("%+v: Max() = %v, want %v", s, s.Max(), maxc)
		}
		for x := s.Anchor.X - 2; x <= s.Anchor.X+6; x++ {
			for y := s.Anchor.Y - 2; y <= s.Anchor.Y+6; y++ {
				for z := s.Anchor.Z - 2; z <= s.Anchor.Z+6; z++ {
					c := C(x, y, z)
					if s.Contains(c) != member[c] {
						t.Fatalf("%+v: Contains(%v) = %v, want %v", s, c, s.Contains(c), member[c])
					}
				}
			}
		}
	}
}

// bruteDist is §1.4's definition: the least distance over every pair of cells.
func bruteDist(a, b Space, dist func(Cell, Cell) int) int {
	best := -1
	for _, p := range cellsOf(a) {
		for _, q := range cellsOf(b) {
			if d := dist(p, q); best < 0 || d < best {
				best = d
			}
		}
	}
	return best
}

// §1.4: between multi-cell spaces the distance is the minimum over their cell pairs, in 3-D;
// on a flat board (every space on level 0, one level tall) it is the planar distance.
func TestSpaceDist_1_4(t *testing.T) {
	tests := []struct {
		a, b Space
		want int
	}{
		{Unit(C(0, 0, 0)), Unit(C(0, 0, 0)), 0},
		{Unit(C(0, 0, 0)), Unit(C(3, 1, 0)), 3},
		{Space{C(0, 0, 0), 2, 2}, Unit(C(3, 1, 0)), 2},   // from the east edge of a Large token
		{Space{C(0, 0, 0), 2, 2}, Unit(C(-1, -1, 0)), 1}, // diagonal to its north-west corner
		{Space{C(0, 0, 0), 2, 2}, Unit(C(1, 1, 1)), 0},   // inside, upper level
		{Space{C(0, 0, 0), 2, 2}, Unit(C(1, 1, 5)), 4},   // above it
		{Space{C(0, 0, 0), 3, 3}, Space{C(5, 0, 0), 3, 3}, 3},
		{Space{C(0, 0, 0), 3, 3}, Space{C(2, 2, 2), 3, 3}, 0}, // overlap at one cell
	}
	for _, tt := range tests {
		if got := tt.a.Dist(tt.b); got != tt.want {
			t.Errorf("%+v.Dist(%+v) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := bruteDist(tt.a, tt.b, Dist); got != tt.want {
			t.Errorf("table row %+v %+v: brute force gives %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		a, b := randSpace(rng), randSpace(rng)
		want := bruteDist(a, b, Dist)
		if got := a.Dist(b); got != want {
			t.Fatalf("%+v.Dist(%+v) = %d, brute force %d", a, b, got, want)
		}
		if got := b.Dist(a); got != want {
			t.Fatalf("%+v.Dist(%+v) = %d, brute force %d (symmetry)", b, a, got, want)
		}
		// Gaps: per axis, the least |difference| over the cell pairs.
		axis := func(f func(Cell) int) func(p, q Cell) int {
			return func(p, q Cell) int { return max(f(p)-f(q), f(q)-f(p)) }
		}
		g := a.Gaps(b)
		for i, f := range []func(Cell) int{func(c Cell) int { return c.X }, func(c Cell) int { return c.Y }, func(c Cell) int { return c.Z }} {
			if got, want := [3]int{g.X, g.Y, g.Z}[i], bruteDist(a, b, axis(f)); got != want {
				t.Fatalf("%+v.Gaps(%+v) axis %d = %d, brute force %d", a, b, i, got, want)
			}
		}
		if got := a.Overlaps(b); got != (want == 0) {
			t.Fatalf("%+v.Overlaps(%+v) = %v, brute distance %d", a, b, got, want)
		}
		// Flat: the same spaces on level 0, one level tall, against the planar brute force.
		fa, fb := a, b
		fa.Anchor.Z, fb.Anchor.Z, fa.Height, fb.Height = 0, 0, 1, 1
		if got, want := fa.Dist(fb), bruteDist(fa, fb, Dist2); got != want {
			t.Fatalf("flat %+v.Dist(%+v) = %d, planar brute force %d", fa, fb, got, want)
		}
	}
}

// §1.4: DistCell is the distance from a space to one cell, and Nearest is a cell of the space
// at that distance.
func TestSpaceNearest_1_4(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 2000 {
		s := randSpace(rng)
		c := C(rng.IntN(21)-10, rng.IntN(21)-10, rng.IntN(11)-5)
		want := bruteDist(s, Unit(c), Dist)
		if got := s.DistCell(c); got != want {
			t.Fatalf("%+v.DistCell(%v) = %d, brute force %d", s, c, got, want)
		}
		n := s.Nearest(c)
		if !s.Contains(n) {
			t.Fatalf("%+v.Nearest(%v) = %v, not in the space", s, c, n)
		}
		if Dist(n, c) != want {
			t.Fatalf("%+v.Nearest(%v) = %v at distance %d, want %d", s, c, n, Dist(n, c), want)
		}
		if s.Contains(c) && n != c {
			t.Fatalf("%+v.Nearest(%v) = %v, want the cell itself", s, c, n)
		}
	}
}

// §1.5: size names.
func TestSizeByName_1_5(t *testing.T) {
	tests := []struct {
		name string
		size int
		ok   bool
	}{
		{"Tiny", 1, true}, {"Small", 1, true}, {"Medium", 1, true},
		{"Large", 2, true}, {"Huge", 3, true}, {"Gargantuan", 4, true},
		{"1T", 1, true}, {"1S", 1, true}, {"1M", 1, true}, {"1L", 1, true},
		{"large", 2, true}, {"HUGE", 3, true}, {" medium ", 1, true}, {"1l", 1, true},
		{"", 0, false}, {"Colossal", 0, false}, {"1X", 0, false}, {"big", 0, false},
	}
	for _, tt := range tests {
		size, ok := SizeByName(tt.name)
		if size != tt.size || ok != tt.ok {
			t.Errorf("SizeByName(%q) = %d, %v; want %d, %v", tt.name, size, ok, tt.size, tt.ok)
		}
	}
}

// SizeByName lowers names as strings.ToLower does, Unicode included.
func TestSizeByNameLowersAsStrings(t *testing.T) {
	old := func(name string) (int, bool) {
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "tiny", "small", "medium", "1t", "1s", "1m", "1l":
			return 1, true
		case "large":
			return 2, true
		case "huge":
			return 3, true
		case "gargantuan":
			return 4, true
		}
		return 0, false
	}
	names := []string{"Tiny", "TİNY", "\u212Aarge", "LARGE", " huge\t", "\u00a0Huge\u2003", "ſmall", "1T", "1ſ", "gargantuan\xff", "\xffhuge", "medıum", "MEDİUM"}
	r := rand.New(rand.NewPCG(1, 2))
	pool := []rune("tinysmalmedurgh1TINYSMALEDURGH İıſK \t\u00a0\x00é\uFFFD")
	for _, w := range []string{"tiny", "small", "medium", "large", "huge", "gargantuan", "1t", "1s", "1m", "1l"} {
		for i := 0; i < 20000; i++ {
			b := []rune(w)
			for j := range b {
				if r.IntN(4) == 0 {
					b[j] = pool[r.IntN(len(pool))]
				}
			}
			names = append(names, string(b))
		}
	}
	for _, n := range names {
		s1, ok1 := SizeByName(n)
		s2, ok2 := old(n)
		if s1 != s2 || ok1 != ok2 {
			t.Fatalf("SizeByName(%q) = %d, %v; strings.ToLower gives %d, %v", n, s1, ok1, s2, ok2)
		}
	}
}
