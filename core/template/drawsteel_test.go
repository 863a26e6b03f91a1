package template

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/internal/num"
)

// spaceCells lists a caster's space by SPEC §1.5 (size × size squares, height levels from the
// north-west, lowest anchor).
func spaceCells(s grid.Space) []grid.Cell {
	var out []grid.Cell
	for dz := 0; dz < max(s.Height, 1); dz++ {
		for dy := 0; dy < max(s.Size, 1); dy++ {
			for dx := 0; dx < max(s.Size, 1); dx++ {
				out = append(out, s.Anchor.Add(grid.Cell{X: dx, Y: dy, Z: dz}))
			}
		}
	}
	return out
}

// distToSpace is §1.4 by brute force: the least 3-D Chebyshev distance to any cell of s.
func distToSpace(c grid.Cell, s grid.Space) int {
	best := -1
	for _, d := range spaceCells(s) {
		if v := grid.Dist(c, d); best < 0 || v < best {
			best = v
		}
	}
	return best
}

// §3.3: an aura or burst of X is every cell within X of the caster's space (3-D Chebyshev),
// the space included; checked by brute force for 1×1, 2×2 and 3×3 casters.
func TestAuraBurst_3_3(t *testing.T) {
	casters := []grid.Space{
		grid.Unit(grid.Cell{X: 4, Y: 4, Z: 0}),
		{Anchor: grid.Cell{X: 4, Y: 4, Z: 0}, Size: 2, Height: 2}, // Large: 2 × 2 × 2
		{Anchor: grid.Cell{X: -3, Y: 7, Z: 2}, Size: 2, Height: 1},
		{Anchor: grid.Cell{X: 0, Y: 0, Z: 0}, Size: 3, Height: 3},
		{Anchor: grid.Cell{X: 0, Y: 0, Z: 0}, Size: 1, Height: 4},
	}
	for _, c := range casters {
		for r := 1; r <= 4; r++ {
			var want []grid.Cell
			lo, hi := c.Anchor, c.Anchor.Add(grid.Cell{X: c.Size + 6, Y: c.Size + 6, Z: c.Height + 6})
			for z := lo.Z - 6; z <= hi.Z; z++ {
				for y := lo.Y - 6; y <= hi.Y; y++ {
					for x := lo.X - 6; x <= hi.X; x++ {
						if cell := (grid.Cell{X: x, Y: y, Z: z}); distToSpace(cell, c) <= r {
							want = append(want, cell)
						}
					}
				}
			}
			for _, s := range []Shape{Aura{Radius: r}, Burst{Radius: r}} {
				p := Placement{Caster: c, Origin: grid.Cell{X: 99, Y: 99}} // the origin plays no part
				name := s.String() + " around " + c.Anchor.String() + " size " + num.Itoa(c.Size) + " height " + num.Itoa(c.Height)
				cells := collect(s, p)
				sameCells(t, name, cells, want)
				if s.Count(p) != len(want) {
					t.Errorf("%s: Count() = %d, want %d", name, s.Count(p), len(want))
				}
				for _, sc := range spaceCells(c) {
					if !contains(cells, sc) {
						t.Errorf("%s: the caster's own cell %v is not in it", name, sc)
					}
				}
			}
		}
	}
	// The picture of a 1 aura around a 2 × 2, one-level caster, on the caster's level.
	c := grid.Space{Anchor: grid.Cell{X: 0, Y: 0, Z: 0}, Size: 2, Height: 1}
	checkPicture(t, "§3.3 1 aura around a 2 × 2 caster", collect(Aura{Radius: 1}, Placement{Caster: c}), c.Anchor, []int{-1, 0, 1}, []string{
		"####",
		"#@##",
		"####",
		"####",
	})
}

// §3.4: a cube of X is X × X × X cells from its north-west, lowest cell.
func TestCube_3_4(t *testing.T) {
	for x := 1; x <= 8; x++ {
		anchor := grid.Cell{X: x - 3, Y: 2 * x, Z: -x}
		var want []grid.Cell
		for dz := 0; dz < x; dz++ {
			for dy := 0; dy < x; dy++ {
				for dx := 0; dx < x; dx++ {
					want = append(want, anchor.Add(grid.Cell{X: dx, Y: dy, Z: dz}))
				}
			}
		}
		c := Cube{Side: x, Within: 10}
		p := Placement{Origin: anchor}
		if c.Count(p) != x*x*x {
			t.Errorf("%v: Count() = %d, want %d", c, c.Count(p), x*x*x)
		}
		sameCells(t, c.String(), collect(c, p), want)
	}
}

// refOriginSquare is §3.4 by brute force: the cube's cell nearest the caster's space, ties
// broken by the lowest z, then y, then x.
func refOriginSquare(side int, anchor grid.Cell, caster grid.Space) grid.Cell {
	var best grid.Cell
	bestD := -1
	for dx := 0; dx < side; dx++ {
		for dy := 0; dy < side; dy++ {
			for dz := 0; dz < side; dz++ {
				c := anchor.Add(grid.Cell{X: dx, Y: dy, Z: dz})
				d := distToSpace(c, caster)
				better := bestD < 0 || d < bestD
				if d == bestD {
					k, kb := [3]int{c.Z, c.Y, c.X}, [3]int{best.Z, best.Y, best.X}
					better = slices.Compare(k[:], kb[:]) < 0
				}
				if better {
					best, bestD = c, d
				}
			}
		}
	}
	return best
}

// §3.4: the origin square is the cube's cell nearest the caster; ties lowest z, then y, then x.
func TestCubeOriginSquare_3_4(t *testing.T) {
	tests := []struct {
		why    string
		side   int
		anchor grid.Cell
		caster grid.Space
		want   grid.Cell
	}{
		{"east of the caster: x = 2 at distance 2, lowest y", 3, grid.Cell{X: 2, Y: -1}, grid.Unit(grid.Cell{}), grid.Cell{X: 2, Y: -1}},
		{"the cube holds the caster's cell", 3, grid.Cell{X: -1, Y: -1, Z: -1}, grid.Unit(grid.Cell{}), grid.Cell{}},
		{"2 × 2 × 2 caster, z tie → lowest z", 2, grid.Cell{X: 3, Y: 3}, grid.Space{Size: 2, Height: 2}, grid.Cell{X: 3, Y: 3}},
		{"below the caster: only the top level at 2, then lowest y, lowest x", 4, grid.Cell{X: -1, Y: 2, Z: 0}, grid.Unit(grid.Cell{Z: 5}), grid.Cell{X: -1, Y: 2, Z: 3}},
		{"far east: every level ties, lowest z wins", 3, grid.Cell{X: 5, Y: 0, Z: -2}, grid.Unit(grid.Cell{}), grid.Cell{X: 5, Y: 0, Z: -2}},
		{"north-west of the caster: the south-east corner column, lowest z", 2, grid.Cell{X: -4, Y: -4, Z: 0}, grid.Unit(grid.Cell{}), grid.Cell{X: -3, Y: -3, Z: 0}},
	}
	for _, tt := range tests {
		if ref := refOriginSquare(tt.side, tt.anchor, tt.caster); ref != tt.want {
			t.Fatalf("%s: bad row, the reference gives %v", tt.why, ref)
		}
		if got := (Cube{Side: tt.side}).OriginSquare(tt.anchor, tt.caster); got != tt.want {
			t.Errorf("%s: OriginSquare = %v, want %v", tt.why, got, tt.want)
		}
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for range 3000 {
		side := rng.IntN(5) + 1
		anchor := grid.Cell{X: rng.IntN(15) - 7, Y: rng.IntN(15) - 7, Z: rng.IntN(9) - 4}
		caster := grid.Space{Anchor: grid.Cell{X: rng.IntN(7) - 3, Y: rng.IntN(7) - 3, Z: rng.IntN(5) - 2}, Size: rng.IntN(3) + 1, Height: rng.IntN(3) + 1}
		want := refOriginSquare(side, anchor, caster)
		if got := (Cube{Side: side}).OriginSquare(anchor, caster); got != want {
			t.Fatalf("cube %d at %v, caster %+v: OriginSquare = %v, brute force %v", side, anchor, caster, got, want)
		}
	}
}

// majorAxis is the axis of greatest travel, x before y before z on a tie (on a tie both axes
// move one square every step, so the choice does not change the squares).
func majorAxis(d [3]int) int {
	m := 0
	for k := 1; k < 3; k++ {
		if num.Abs(d[k]) > num.Abs(d[m]) {
			m = k
		}
	}
	return m
}

// refSquares is §3.5 by brute force with exact integers: one square per step i along the major
// axis; on each minor axis the coordinate v whose cell centre is nearest the line through the
// two centres, measured in the plane of the major axis and that minor axis — there the
// distance is |i·d_k − v·d_m| / |(d_m, d_k)|, so comparing |i·d_k − v·d_m| over every v is
// exact — ties going the way the aim lies. On a flat board this is the distance to the line
// itself (TestDSLineFlatIsNearest_3_5).
func refSquares(length int, origin, aim grid.Cell) []grid.Cell {
	dc := aim.Sub(origin)
	d := [3]int{dc.X, dc.Y, dc.Z}
	m := majorAxis(d)
	if d[m] == 0 {
		return nil
	}
	var out []grid.Cell
	for i := 0; i < length; i++ {
		var off [3]int
		off[m] = i * sign(d[m])
		for k := 0; k < 3; k++ {
			if k == m {
				continue
			}
			best, bestD := 0, -1
			for v := -i - 1; v <= i+1; v++ { // |v| ≤ i·|d_k|/|d_m| + ½ ≤ i + ½
				dist := num.Abs(off[m]*d[k] - v*d[m])
				if bestD < 0 || dist < bestD || dist == bestD && v*sign(d[k]) > best*sign(d[k]) {
					best, bestD = v, dist
				}
			}
			off[k] = best
		}
		out = append(out, origin.Add(grid.Cell{X: off[0], Y: off[1], Z: off[2]}))
	}
	return out
}

// perpDist2 is the squared distance from the centre of cell origin+w to the line through the
// centre of origin with direction d, times |d|² (an exact integer): |w|²|d|² − (w·d)².
func perpDist2(w, d grid.Cell) int {
	ww := w.X*w.X + w.Y*w.Y + w.Z*w.Z
	dd := d.X*d.X + d.Y*d.Y + d.Z*d.Z
	wd := w.X*d.X + w.Y*d.Y + w.Z*d.Z
	return ww*dd - wd*wd
}

// §3.5 on a flat board: each square is the cell of its column whose centre is nearest the
// line itself (true perpendicular distance, exact), ties toward the aim; Squares agrees for
// every aim within 15 squares and lengths up to 40.
func TestDSLineFlatIsNearest_3_5(t *testing.T) {
	origin := grid.Cell{X: 2, Y: -3, Z: 1}
	for ax := -15; ax <= 15; ax++ {
		for ay := -15; ay <= 15; ay++ {
			d := grid.Cell{X: ax, Y: ay}
			if d == (grid.Cell{}) {
				if got := (DSLine{Length: 5}).Squares(origin, origin); got != nil {
					t.Errorf("aim = origin: Squares = %v, want nil", got)
				}
				continue
			}
			const length = 40
			got := DSLine{Length: length, Width: 1}.Squares(origin, origin.Add(d))
			if len(got) != length {
				t.Fatalf("toward %v: %d squares, want %d", d, len(got), length)
			}
			xMajor := num.Abs(ax) >= num.Abs(ay)
			for i, sq := range got {
				w := sq.Sub(origin)
				// Every cell of the same column (same major coordinate) within 3 of sq.
				for delta := -3; delta <= 3; delta++ {
					if delta == 0 {
						continue
					}
					other := w
					if xMajor {
						other.Y += delta
					} else {
						other.X += delta
					}
					a, b := perpDist2(w, d), perpDist2(other, d)
					if b < a || b == a && dot(other, d) > dot(w, d) {
						t.Fatalf("toward %v: square %d is %v but %v is nearer the line (or ties and lies toward the aim)", d, i+1, sq, origin.Add(other))
					}
				}
				if xMajor && w.X != i*sign(ax) || !xMajor && w.Y != i*sign(ay) {
					t.Fatalf("toward %v: square %d is %v, not step %d along the major axis", d, i+1, sq, i)
				}
			}
			if want := refSquares(length, origin, origin.Add(d)); !slices.Equal(got, want) {
				t.Fatalf("toward %v: Squares = %v, reference %v", d, got, want)
			}
		}
	}
}

// §3.5, §3.7: for random origins, aims (flat and 3-D) and lengths, Squares equals the
// reference, starts at the origin, passes through the aim, and is straight.
func TestDSLineSquares_3_5(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for n := range 10000 {
		origin := grid.Cell{X: rng.IntN(11) - 5, Y: rng.IntN(11) - 5, Z: rng.IntN(5) - 2}
		d := grid.Cell{X: rng.IntN(25) - 12, Y: rng.IntN(25) - 12}
		if n%2 == 1 {
			d.Z = rng.IntN(25) - 12
		}
		aim := origin.Add(d)
		length := rng.IntN(40) + 1
		got := DSLine{Length: length, Width: 1}.Squares(origin, aim)
		want := refSquares(length, origin, aim)
		if !slices.Equal(got, want) {
			t.Fatalf("%d squares from %v toward %v: got %v, reference %v", length, origin, aim, got, want)
		}
		if d == (grid.Cell{}) {
			continue
		}
		if got[0] != origin {
			t.Fatalf("from %v toward %v: first square %v, want the origin", origin, aim, got[0])
		}
		if major := max(num.Abs(d.X), num.Abs(d.Y), num.Abs(d.Z)); length > major && got[major] != aim {
			t.Fatalf("from %v toward %v: square %d is %v, want the aim", origin, aim, major+1, got[major])
		}
		if err := Straight(got); err != nil {
			t.Fatalf("from %v toward %v: %v", origin, aim, err)
		}
	}
}

// §3.5 [decision]: off the plane, the rule is applied on each minor axis separately (3-D
// Bresenham). The cell nearest the 3-D line in each slab would not always give a straight
// line (§3.7 requires one): toward (7, −6, −3) it jumps two squares along y.
func TestDSLine3DNearestWouldNotBeStraight_3_5(t *testing.T) {
	d := grid.Cell{X: 7, Y: -6, Z: -3}
	var nearest []grid.Cell
	for i := 0; i < 7; i++ {
		var best grid.Cell
		bestD := -1
		for y := -9; y <= 9; y++ {
			for z := -9; z <= 9; z++ {
				w := grid.Cell{X: i, Y: y, Z: z}
				if v := perpDist2(w, d); bestD < 0 || v < bestD || v == bestD && dot(w, d)+w.Z*d.Z > dot(best, d)+best.Z*d.Z {
					best, bestD = w, v
				}
			}
		}
		nearest = append(nearest, best)
	}
	if Straight(nearest) == nil {
		t.Fatalf("the 3-D nearest squares %v are straight; the per-axis decision may be revisited", nearest)
	}
	got := DSLine{Length: 7}.Squares(grid.Cell{}, d)
	if err := Straight(got); err != nil {
		t.Errorf("Squares toward %v: %v", d, err)
	}
}

// dsCross is the cross-section of a Draw Steel line of width w travelling along d (§3.5): S(w)
// along "right" of the travel and the §2.8 levels on the other axis. Travelling mainly
// east, right is south; west, north; north, east; south, west — and height is z. Travelling
// mainly up or down [decision], width is east–west (S(w), extra column east, as travelling
// north) and the second dimension north–south (extra row south).
func dsCross(d grid.Cell) (right, up grid.Cell) {
	dd := [3]int{d.X, d.Y, d.Z}
	if d == (grid.Cell{}) {
		return grid.Cell{X: 1}, grid.Cell{Z: 1} // no travel: toward the caster's facing, N here
	}
	switch majorAxis(dd) {
	case 0:
		return grid.Cell{Y: sign(d.X)}, grid.Cell{Z: 1}
	case 1:
		return grid.Cell{X: -sign(d.Y)}, grid.Cell{Z: 1}
	}
	return grid.Cell{X: 1}, grid.Cell{Y: 1}
}

// refDSCells is the union of every square's cross-section.
func refDSCells(w int, squares []grid.Cell, d grid.Cell) []grid.Cell {
	r, up := dsCross(d)
	s0, s1 := bandS(w)
	t0, t1 := zRange(0, w)
	set := map[grid.Cell]bool{}
	var out []grid.Cell
	for _, sq := range squares {
		for t := t0; t <= t1; t++ {
			for s := s0; s <= s1; s++ {
				c := grid.Cell{X: sq.X + s*r.X + t*up.X, Y: sq.Y + s*r.Y + t*up.Y, Z: sq.Z + s*r.Z + t*up.Z}
				if !set[c] {
					set[c] = true
					out = append(out, c)
				}
			}
		}
	}
	return out
}

// §3.5: an A × B line toward an aim is A·B·B cells with no duplicates, every square widened by
// S(B) to the right of travel and stacked B high, for random aims (flat, 3-D, vertical).
func TestDSLineCells_3_5(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for n := range 6000 {
		origin := grid.Cell{X: rng.IntN(11) - 5, Y: rng.IntN(11) - 5, Z: rng.IntN(5) - 2}
		d := grid.Cell{X: rng.IntN(21) - 10, Y: rng.IntN(21) - 10}
		switch n % 3 {
		case 1:
			d.Z = rng.IntN(21) - 10
		case 2: // mainly vertical
			d = grid.Cell{X: rng.IntN(5) - 2, Y: rng.IntN(5) - 2, Z: (rng.IntN(8) + 3) * (2*rng.IntN(2) - 1)}
		}
		if d == (grid.Cell{}) {
			d.X = 1
		}
		length, width := rng.IntN(20)+1, rng.IntN(5)+1
		l := DSLine{Length: length, Width: width}
		p := Placement{Origin: origin, Aim: origin.Add(d)}
		name := l.String() + " from " + origin.String() + " toward " + p.Aim.String()
		cells := collect(l, p)
		if got, want := l.Count(p), length*width*width; got != want || len(cells) != want {
			t.Fatalf("%s: Count() = %d, visited %d, want A·B·B = %d", name, got, len(cells), want)
		}
		if !sameCells(t, name, cells, refDSCells(width, refSquares(length, origin, p.Aim), d)) {
			t.FailNow()
		}
	}
	// The aim is the origin: no line.
	p := Placement{Origin: grid.Cell{X: 1}, Aim: grid.Cell{X: 1}}
	if cells, n := collect(DSLine{Length: 3, Width: 2}, p), (DSLine{Length: 3, Width: 2}).Count(p); len(cells) != 0 || n != 0 {
		t.Errorf("aim = origin: %d cells visited, Count() = %d; want 0 and 0", len(cells), n)
	}
}

// §3.5, §3.7: an explicit path of squares is widened like a built line; a straight path may
// step sideways (it need not advance along its main axis every step), and its widened squares
// then overlap: each cell is still visited once and Count agrees.
func TestDSLinePath_3_5(t *testing.T) {
	tests := []struct {
		name  string
		w     int
		path  []grid.Cell
		rows  []string // level 0 only ('@' the first square)
		count int
	}{
		{"north, width 2: extra column east", 2, []grid.Cell{{X: 10, Y: 5}, {X: 10, Y: 4}, {X: 10, Y: 3}}, []string{
			"##",
			"##",
			"@#",
		}, 12},
		{"east with a sideways step, width 2: extra row south", 2, []grid.Cell{{X: 10, Y: 5}, {X: 11, Y: 5}, {X: 11, Y: 6}, {X: 12, Y: 6}, {X: 13, Y: 6}}, []string{
			"@#..",
			"####",
			".###",
		}, 18},
		{"south-east staircase, width 3: travel (2,3) is mainly south, width east–west", 3, []grid.Cell{{X: 10, Y: 5}, {X: 10, Y: 6}, {X: 11, Y: 6}, {X: 11, Y: 7}, {X: 12, Y: 7}, {X: 12, Y: 8}}, []string{
			"#@#..",
			"####.",
			".####",
			"..###",
		}, 42},
		{"one square, width 2: toward the caster's facing (N)", 2, []grid.Cell{{X: 10, Y: 5}}, []string{
			"@#",
		}, 4},
	}
	for _, tt := range tests {
		l := DSLine{Length: len(tt.path), Width: tt.w}
		if err := Straight(tt.path); err != nil {
			t.Fatalf("%s: bad row: %v", tt.name, err)
		}
		// The placement's Origin is left unset: the path's first square is the origin square.
		p := Placement{Path: tt.path}
		cells := collect(l, p)
		if c, dup := firstDup(cells); dup {
			t.Errorf("%s: %v visited twice", tt.name, c)
		}
		if got := l.Count(p); got != len(cells) {
			t.Errorf("%s: Count() = %d, visited %d", tt.name, got, len(cells))
		}
		if tt.count != 0 && len(cells) != tt.count {
			t.Errorf("%s: %d cells, want %d", tt.name, len(cells), tt.count)
		}
		d := tt.path[len(tt.path)-1].Sub(tt.path[0])
		sameCells(t, tt.name+" vs reference", cells, refDSCells(tt.w, tt.path, d))
		lo, hi := zRange(0, tt.w)
		var levels []int
		for z := lo; z <= hi; z++ {
			levels = append(levels, z)
		}
		checkPicture(t, "§3.5 path "+tt.name, cells, tt.path[0], levels, tt.rows)
	}
	// A one-square path facing E: right is south.
	p := Placement{Path: []grid.Cell{{X: 10, Y: 5}}, Facing: grid.E}
	checkPicture(t, "§3.5 one-square path facing E, width 2", collect(DSLine{Length: 1, Width: 2}, p), p.Path[0], []int{0, 1}, []string{
		"@",
		"#",
	})
	// Random straight paths: no duplicates, Count agrees, the reference union.
	rng := rand.New(rand.NewPCG(17, 18))
	for range 3000 {
		path := randomStraight(rng, rng.IntN(12)+1)
		w := rng.IntN(4) + 1
		l := DSLine{Length: len(path), Width: w}
		p := Placement{Path: path, Origin: grid.Cell{X: 50, Y: 50}, Aim: grid.Cell{X: -50}} // stale origin and aim are ignored
		cells := collect(l, p)
		if got := l.Count(p); got != len(cells) {
			t.Fatalf("path %v width %d: Count() = %d, visited %d", path, w, got, len(cells))
		}
		d := path[len(path)-1].Sub(path[0])
		if !sameCells(t, "path "+cellsString(path)+" width "+num.Itoa(w), cells, refDSCells(w, path, d)) {
			t.FailNow()
		}
	}
}

// randomStraight builds a random straight path (§3.7): each step moves to a neighbour and
// never reverses on an axis.
func randomStraight(rng *rand.Rand, n int) []grid.Cell {
	sx, sy, sz := 2*rng.IntN(2)-1, 2*rng.IntN(2)-1, 2*rng.IntN(2)-1
	flat := rng.IntN(2) == 0
	path := []grid.Cell{{X: rng.IntN(9) - 4, Y: rng.IntN(9) - 4, Z: rng.IntN(3) - 1}}
	for len(path) < n {
		step := grid.Cell{X: sx * rng.IntN(2), Y: sy * rng.IntN(2), Z: sz * rng.IntN(2)}
		if flat {
			step.Z = 0
		}
		if step == (grid.Cell{}) {
			continue
		}
		path = append(path, path[len(path)-1].Add(step))
	}
	return path
}

func cellsString(cells []grid.Cell) string {
	var b strings.Builder
	for _, c := range cells {
		b.WriteString(c.String())
	}
	return b.String()
}

// §3.5: pictures of built lines, drawn by hand from the rule (each square the cell of its
// column nearest the segment between centres, ties toward the aim; width to the right of
// travel; height B stacked as §2.8, extra level above).
func TestDSLinePictures_3_5(t *testing.T) {
	tests := []struct {
		name   string
		l      DSLine
		aim    grid.Cell // offset from the origin
		levels []int
		rows   []string
	}{
		// Toward (5, 2): y = 2i/5 → 0, 0.4, 0.8, 1.2, 1.6, 2 → rows 0, 0, 1, 1, 2, 2; width 2
		// adds the row south (right of eastward travel); height 2 adds the level above.
		{"6 x 2 line toward (5,2)", DSLine{Length: 6, Width: 2}, grid.Cell{X: 5, Y: 2}, []int{0, 1}, []string{
			"@#....",
			"####..",
			"..####",
			"....##",
		}},
		// Toward (4, 2): y = i/2 → 0, 0.5 (tie → toward the aim: 1), 1, 1.5 (→ 2), 2.
		{"5 x 1 line toward (4,2): ties toward the aim", DSLine{Length: 5, Width: 1}, grid.Cell{X: 4, Y: 2}, []int{0}, []string{
			"@....",
			".##..",
			"...##",
		}},
		// The same, mirrored: toward (−4, −2) the ties go north-west.
		{"5 x 1 line toward (−4,−2)", DSLine{Length: 5, Width: 1}, grid.Cell{X: -4, Y: -2}, []int{0}, []string{
			"##...",
			"..##.",
			"....@",
		}},
		// Past the aim the line goes on at the same slope: toward (2, 1), 6 squares.
		{"6 x 1 line toward (2,1) continues past the aim", DSLine{Length: 6, Width: 1}, grid.Cell{X: 2, Y: 1}, []int{0}, []string{
			"@.....",
			".##...",
			"...##.",
			".....#",
		}},
		// Mainly north toward (−1, −4): x = −i/4 → 0, −0.25, −0.5 (→ −1), −0.75, −1; width 3
		// is centred; height 3 is one level below and one above.
		{"5 x 3 line toward (−1,−4)", DSLine{Length: 5, Width: 3}, grid.Cell{X: -1, Y: -4}, []int{-1, 0, 1}, []string{
			"###.",
			"###.",
			"###.",
			".###",
			".#@#",
		}},
		// South, width 2: right of southward travel is west.
		{"3 x 2 line south", DSLine{Length: 3, Width: 2}, grid.Cell{Y: 7}, []int{0, 1}, []string{
			"#@",
			"##",
			"##",
		}},
	}
	for _, tt := range tests {
		origin := grid.Cell{X: 3, Y: -2, Z: 4}
		p := Placement{Origin: origin, Aim: origin.Add(tt.aim)}
		cells := collect(tt.l, p)
		checkPicture(t, "§3.5 "+tt.name, cells, origin, tt.levels, tt.rows)
		if err := Straight(tt.l.Squares(origin, p.Aim)); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

// §3.7: straight lines; the error names the first offending square, 1-based.
func TestStraight_3_7(t *testing.T) {
	c := func(x, y, z int) grid.Cell { return grid.Cell{X: x, Y: y, Z: z} }
	tests := []struct {
		name    string
		squares []grid.Cell
		bad     string // "" when straight, else a fragment of the message
	}{
		{"empty", nil, ""},
		{"one square", []grid.Cell{c(3, 3, 0)}, ""},
		{"east", []grid.Cell{c(0, 0, 0), c(1, 0, 0), c(2, 0, 0)}, ""},
		{"diagonal", []grid.Cell{c(0, 0, 0), c(-1, 1, 0), c(-2, 2, 0)}, ""},
		{"east then north-east then east", []grid.Cell{c(0, 0, 0), c(1, 0, 0), c(2, -1, 0), c(3, -1, 0)}, ""},
		{"sideways steps never reversing", []grid.Cell{c(0, 0, 0), c(1, 0, 0), c(1, 1, 0), c(2, 1, 0), c(2, 2, 0)}, ""},
		{"up and east", []grid.Cell{c(0, 0, 0), c(1, 0, 1), c(2, 0, 1), c(2, 0, 2)}, ""},
		{"straight up", []grid.Cell{c(0, 0, 0), c(0, 0, 1), c(0, 0, 2)}, ""},
		{"reverses on x", []grid.Cell{c(0, 0, 0), c(1, 0, 0), c(2, 0, 0), c(1, 0, 0)}, "square 4 (1,0,0)"},
		{"reverses on x after a sideways step", []grid.Cell{c(0, 0, 0), c(1, 0, 0), c(1, 1, 0), c(0, 2, 0)}, "square 4 (0,2,0)"},
		{"zigzag on y", []grid.Cell{c(0, 0, 0), c(1, 1, 0), c(2, 0, 0)}, "square 3 (2,0,0)"},
		{"reverses on z", []grid.Cell{c(0, 0, 0), c(0, 0, 1), c(1, 0, 1), c(2, 0, 0)}, "square 4 (2,0,0)"},
		{"gap of two", []grid.Cell{c(0, 0, 0), c(2, 0, 0)}, "square 2 (2,0,0)"},
		{"gap later", []grid.Cell{c(0, 0, 0), c(1, 1, 0), c(2, 2, 0), c(3, 4, 0)}, "square 4 (3,4,0)"},
		{"vertical gap", []grid.Cell{c(0, 0, 0), c(0, 0, 2)}, "square 2 (0,0,2)"},
		{"repeat", []grid.Cell{c(0, 0, 0), c(1, 0, 0), c(1, 0, 0)}, "square 3 (1,0,0)"},
		{"repeat first", []grid.Cell{c(5, 5, 5), c(5, 5, 5)}, "square 2 (5,5,5)"},
	}
	for _, tt := range tests {
		err := Straight(tt.squares)
		switch {
		case tt.bad == "" && err != nil:
			t.Errorf("%s: Straight = %v, want nil", tt.name, err)
		case tt.bad != "" && err == nil:
			t.Errorf("%s: Straight accepted %v", tt.name, tt.squares)
		case tt.bad != "":
			if !errors.Is(err, ErrNotStraight) {
				t.Errorf("%s: error %v does not wrap ErrNotStraight", tt.name, err)
			}
			if !strings.Contains(err.Error(), tt.bad) {
				t.Errorf("%s: error %q does not name %q", tt.name, err, tt.bad)
			}
		}
	}
	// Property: every random straight path is accepted, and reversing any one step of it on an
	// axis it has moved along is rejected at that step.
	rng := rand.New(rand.NewPCG(19, 20))
	for range 2000 {
		path := randomStraight(rng, rng.IntN(10)+3)
		if err := Straight(path); err != nil {
			t.Fatalf("%v: %v", path, err)
		}
		back := slices.Clone(path)
		slices.Reverse(back)
		if err := Straight(back); err != nil {
			t.Fatalf("reversed %v: %v", path, err)
		}
		// Undo one step on an axis it moved along: the path turns back there.
		i := rng.IntN(len(path)-1) + 1
		step := path[i].Sub(path[i-1])
		bad := slices.Clone(path[:i+1])
		bad = append(bad, path[i].Sub(step))
		if err := Straight(bad); err == nil || !strings.Contains(err.Error(), "square "+num.Itoa(i+2)+" ") {
			t.Fatalf("%v turns back at square %d: Straight = %v", bad, i+2, err)
		}
	}
}

// §3.6: walls are face-connected; edge or corner contact is not enough; the error names the
// first offending square.
func TestFaceConnected_3_6(t *testing.T) {
	c := func(x, y, z int) grid.Cell { return grid.Cell{X: x, Y: y, Z: z} }
	tests := []struct {
		name    string
		squares []grid.Cell
		bad     string
	}{
		{"one square", []grid.Cell{c(0, 0, 0)}, ""},
		{"a row", []grid.Cell{c(0, 0, 0), c(1, 0, 0), c(2, 0, 0)}, ""},
		{"a stack", []grid.Cell{c(0, 0, 0), c(0, 0, 1), c(0, 0, 2)}, ""},
		{"an L", []grid.Cell{c(0, 0, 0), c(1, 0, 0), c(1, 1, 0), c(1, 2, 0)}, ""},
		{"an L raised", []grid.Cell{c(0, 0, 0), c(1, 0, 0), c(1, 1, 0), c(1, 1, 1), c(0, 0, 1)}, ""},
		{"joined by a later square [decision: the whole wall is connected]", []grid.Cell{c(0, 0, 0), c(2, 0, 0), c(1, 0, 0)}, ""},
		{"edge contact on the board", []grid.Cell{c(0, 0, 0), c(1, 1, 0)}, "square 2 (1,1,0)"},
		{"edge contact in a vertical plane", []grid.Cell{c(0, 0, 0), c(1, 0, 1)}, "square 2 (1,0,1)"},
		{"corner contact", []grid.Cell{c(0, 0, 0), c(1, 1, 1)}, "square 2 (1,1,1)"},
		{"row then a diagonal square", []grid.Cell{c(0, 0, 0), c(1, 0, 0), c(2, 1, 0), c(3, 1, 0)}, "square 3 (2,1,0)"},
		{"two pieces", []grid.Cell{c(0, 0, 0), c(1, 0, 0), c(5, 5, 0), c(5, 6, 0)}, "square 3 (5,5,0)"},
		{"duplicate", []grid.Cell{c(0, 0, 0), c(1, 0, 0), c(0, 0, 0)}, "square 3 (0,0,0)"},
		{"duplicate named before disconnection", []grid.Cell{c(0, 0, 0), c(9, 9, 0), c(9, 9, 0)}, "square 3 (9,9,0)"},
		{"empty", nil, "at least one"},
	}
	for _, tt := range tests {
		err := FaceConnected(tt.squares)
		switch {
		case tt.bad == "" && err != nil:
			t.Errorf("%s: FaceConnected = %v, want nil", tt.name, err)
		case tt.bad != "" && err == nil:
			t.Errorf("%s: FaceConnected accepted %v", tt.name, tt.squares)
		case tt.bad != "":
			if !errors.Is(err, ErrInvalidWall) {
				t.Errorf("%s: error %v does not wrap ErrInvalidWall", tt.name, err)
			}
			if !strings.Contains(err.Error(), tt.bad) {
				t.Errorf("%s: error %q does not name %q", tt.name, err, tt.bad)
			}
		}
	}
	// Property: the order of a wall's squares does not matter; removing a cut square
	// disconnects it.
	wall := []grid.Cell{c(0, 0, 0), c(1, 0, 0), c(2, 0, 0), c(2, 0, 1), c(2, 1, 1), c(3, 1, 1)}
	rng := rand.New(rand.NewPCG(21, 22))
	for range 50 {
		w := slices.Clone(wall)
		rng.Shuffle(len(w), func(i, j int) { w[i], w[j] = w[j], w[i] })
		if err := FaceConnected(w); err != nil {
			t.Fatalf("%v: %v", w, err)
		}
	}
	if FaceConnected(slices.Delete(slices.Clone(wall), 3, 4)) == nil {
		t.Errorf("wall without its joint (2,0,1) accepted")
	}
	// Wall.Cells visits the path and Count agrees.
	p := Placement{Path: wall}
	if got := collect(Wall{Squares: len(wall)}, p); !slices.Equal(got, wall) || (Wall{Squares: 6}).Count(p) != len(wall) {
		t.Errorf("Wall.Cells = %v, Count = %d", got, (Wall{Squares: 6}).Count(p))
	}
}
