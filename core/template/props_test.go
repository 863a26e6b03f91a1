package template

import (
	"slices"
	"testing"

	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/internal/num"
)

const maxPropSize = 50

var lineWidths = []int{1, 2, 3, 4, 5, 8}

func coneFormula(l int, d grid.Dir) int {
	if d.Diagonal() {
		return l * (l + 1) / 2 // §2.5
	}
	return l * l // §2.4
}

// checkCommon checks what §2 says of every cone and line, for one shape at one facing:
// Count() equals the formula and the cells visited; no cell twice; the caster's column is not
// affected; every cell on the shape's levels.
func checkCommon(t *testing.T, name string, s Shape, p Placement, formula int, cells []grid.Cell) {
	t.Helper()
	if got := s.Count(p); got != formula {
		t.Errorf("%s: Count() = %d, want %d", name, got, formula)
	}
	if len(cells) != formula {
		t.Errorf("%s: %d cells visited, want %d", name, len(cells), formula)
	}
	if c, dup := firstDup(cells); dup {
		t.Errorf("%s: %v visited twice", name, c)
	}
	for _, c := range cells {
		if c.X == p.Origin.X && c.Y == p.Origin.Y {
			t.Errorf("%s: the caster's cell %v is affected (§2.4–§2.6 say it is not)", name, c)
			break
		}
		if c.Z != p.Origin.Z {
			t.Errorf("%s: %v is off the h1 level %d", name, c, p.Origin.Z)
			break
		}
	}
}

// checkFacings checks §1.3 for shape build(d) relative to every facing: the cells for facing
// f and relative direction d are the cells for facing N and direction d.Abs(f); turning the
// facing by an even number k of 45° steps turns the cell set by k/2 quarter turns about the
// caster; the diagonality of the absolute direction flips with each odd step.
func checkFacings(t *testing.T, name string, build func(grid.Dir) Shape, count func(grid.Dir) int) {
	t.Helper()
	origin := grid.Cell{X: 3, Y: -4, Z: 1}
	abs := map[grid.Dir][]grid.Cell{}
	sorted := map[grid.Dir][]grid.Cell{}
	for _, d := range grid.Dirs() {
		abs[d] = collect(build(d), Placement{Origin: origin})
		sorted[d] = slices.SortedFunc(slices.Values(abs[d]), grid.Compare)
	}
	for _, f := range grid.Dirs() {
		for _, d := range grid.Dirs() {
			p := Placement{Origin: origin, Facing: f}
			got := collect(build(d), p)
			a := grid.Dir((int(f) + int(d)) % 8) // §1.3, written out
			if d.Abs(f) != a {
				t.Fatalf("%v.Abs(%v) = %v, want %v", d, f, d.Abs(f), a)
			}
			// Fast path: the sorted lists are equal (then no duplicates either, as abs[a] has
			// none, which checkCommon checks); otherwise report the difference.
			if !slices.Equal(slices.SortedFunc(slices.Values(got), grid.Compare), sorted[a]) {
				sameCells(t, name+" facing "+f.String()+" dir "+d.String()+" vs facing N dir "+a.String(), got, abs[a])
				return
			}
			if got := build(d).Count(p); got != count(a) {
				t.Errorf("%s facing %v dir %v: Count() = %d, want %d (absolute %v)", name, f, d, got, count(a), a)
			}
			if f%2 == 0 {
				want := rotateAbout(abs[d], origin, int(f)/2)
				if !slices.Equal(slices.SortedFunc(slices.Values(got), grid.Compare), slices.SortedFunc(slices.Values(want), grid.Compare)) {
					sameCells(t, name+" facing "+f.String()+" dir "+d.String()+" vs dir "+d.String()+" turned", got, want)
					return
				}
			}
		}
	}
}

// §2.4, §2.5, §1.3: cones of length 1…50 in every direction against the inequality reference,
// with the counts, no duplicates, the caster not affected, every cell within Chebyshev L and
// inside the 90° wedge about the direction, and the facing rotation.
func TestConeProperties_2_4_2_5(t *testing.T) {
	for l := 1; l <= maxPropSize; l++ {
		for _, d := range grid.Dirs() {
			c := Cone{Length: l, Dir: d, Height: 1}
			p := Placement{Origin: caster}
			cells := collect(c, p)
			checkCommon(t, c.String(), c, p, coneFormula(l, d), cells)
			want := refCells(caster, l+1, caster.Z, caster.Z, func(v grid.Cell) bool { return inCone(l, d, v) })
			if len(want) != coneFormula(l, d) {
				t.Fatalf("reference %v has %d cells, formula %d", c, len(want), coneFormula(l, d))
			}
			sameCells(t, c.String()+" vs reference", cells, want)
			u := d.Offset()
			for _, cell := range cells {
				v := cell.Sub(caster)
				if grid.Dist(cell, caster) > l {
					t.Errorf("%v: %v is %d from the caster, past L", c, cell, grid.Dist(cell, caster))
					break
				}
				// Within 45° of the direction: v·u > 0 and 2(v·u)² ≥ |v|²|u|².
				vu, vv, uu := dot(v, u), dot(v, v), dot(u, u)
				if vu <= 0 || 2*vu*vu < vv*uu {
					t.Errorf("%v: %v is outside the 90° wedge toward %v", c, cell, d)
					break
				}
			}
		}
		checkFacings(t, "Con"+num.Itoa(l), func(d grid.Dir) Shape { return Cone{Length: l, Dir: d, Height: 1} },
			func(d grid.Dir) int { return coneFormula(l, d) })
	}
}

// §2.6, §1.3: lines of length 1…50 and several widths in every direction against the
// inequality reference, with the count L × W, no duplicates, the caster not affected, width 1
// within Chebyshev L, an even width's extra column on the right, diagonal bands without gaps,
// and the facing rotation.
func TestLineProperties_2_6(t *testing.T) {
	for l := 1; l <= maxPropSize; l++ {
		for _, w := range lineWidths {
			for _, d := range grid.Dirs() {
				s := Line{Length: l, Dir: d, Width: w, Height: 1}
				p := Placement{Origin: caster}
				cells := collect(s, p)
				checkCommon(t, s.String(), s, p, l*w, cells)
				want := refCells(caster, l+w, caster.Z, caster.Z, func(v grid.Cell) bool { return inLine(l, w, d, v) })
				if len(want) != l*w {
					t.Fatalf("reference %v has %d cells, want %d", s, len(want), l*w)
				}
				sameCells(t, s.String()+" vs reference", cells, want)
				checkLineSides(t, s, cells)
			}
			checkFacings(t, "Lin"+num.Itoa(l)+"w"+num.Itoa(w), func(d grid.Dir) Shape { return Line{Length: l, Dir: d, Width: w, Height: 1} },
				func(grid.Dir) int { return l * w })
		}
	}
}

// checkLineSides checks the sideways structure of a line (§2.6) from its cells alone.
func checkLineSides(t *testing.T, s Line, cells []grid.Cell) {
	t.Helper()
	l, w, d := s.Length, s.W(), s.Dir
	u := d.Offset()
	r := right(u)
	lo, hi := bandS(w)
	perOffset := map[int][]grid.Cell{}
	balance := 0
	for _, c := range cells {
		v := c.Sub(caster)
		if w == 1 && grid.Dist(c, caster) > l {
			t.Errorf("%v: %v is %d from the caster, past L", s, c, grid.Dist(c, caster))
		}
		off := dot(v, r) // sideways offset, positive to the right of travel
		perOffset[off] = append(perOffset[off], v)
		switch {
		case off > 0:
			balance++
		case off < 0:
			balance--
		}
	}
	// An even width puts its extra column on the caster's right [ruling §2.6]: L more cells
	// right of the centre line than left; an odd width is symmetric.
	wantBalance := 0
	if w%2 == 0 {
		wantBalance = l
	}
	if balance != wantBalance {
		t.Errorf("%v: %d more cells right of the centre line than left, want %d", s, balance, wantBalance)
	}
	// Each offset of S(W) holds exactly L cells (the diagonal band has no gaps), one per step
	// forward, consecutive cells one step u apart.
	for off := lo; off <= hi; off++ {
		run := perOffset[off]
		if len(run) != l {
			t.Errorf("%v: %d cells at sideways offset %d, want %d", s, len(run), off, l)
			continue
		}
		step := map[int]grid.Cell{}
		for _, v := range run {
			step[dot(v, u)] = v
		}
		if len(step) != l {
			t.Errorf("%v: offset %d has two cells at the same forward step", s, off)
			continue
		}
		for k, v := range step {
			if next, ok := step[k+dot(u, u)]; ok && next.Sub(v) != u {
				t.Errorf("%v: offset %d jumps from %v to %v", s, off, v, next)
			}
		}
		delete(perOffset, off)
	}
	for off := range perOffset {
		t.Errorf("%v: cells at sideways offset %d, outside S(%d) = %d…%d", s, off, w, lo, hi)
	}
	// A band two or more wide is solid: its cells are connected across shared sides.
	if w >= 2 && !fourConnected(cells) {
		t.Errorf("%v: the band is not connected across sides (a gap between offsets)", s)
	}
}

func fourConnected(cells []grid.Cell) bool {
	set := map[grid.Cell]bool{}
	for _, c := range cells {
		set[c] = true
	}
	seen := map[grid.Cell]bool{cells[0]: true}
	stack := []grid.Cell{cells[0]}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, n := range []grid.Cell{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}} {
			m := c.Add(n)
			if set[m] && !seen[m] {
				seen[m] = true
				stack = append(stack, m)
			}
		}
	}
	return len(seen) == len(set)
}

// §2.3: circles of radius 1…50 are every cell within Chebyshev R, the centre included, and
// the caster's facing does not turn them.
func TestCircleProperties_2_3(t *testing.T) {
	for r := 1; r <= maxPropSize; r++ {
		c := Circle{Radius: r, Height: 1}
		p := Placement{Origin: caster}
		cells := collect(c, p)
		n := (2*r + 1) * (2*r + 1)
		if c.Count(p) != n || len(cells) != n {
			t.Errorf("%v: Count() = %d, visited %d, want %d", c, c.Count(p), len(cells), n)
		}
		want := refCells(caster, r+1, caster.Z, caster.Z, func(v grid.Cell) bool { return grid.Dist2(grid.Cell{}, v) <= r })
		sameCells(t, c.String(), cells, want)
		if !contains(cells, caster) {
			t.Errorf("%v: the centre is not affected", c)
		}
		dirs := grid.Dirs()
		for _, f := range dirs[1:] {
			sameCells(t, c.String()+" facing "+f.String(), collect(c, Placement{Origin: caster, Facing: f}), cells)
		}
	}
}

// §2.7: rectangles W, L = 1…12 (and a few large) in the four orientations against the
// reference: the anchor is affected and is the south-west corner of an unturned rectangle;
// orientation E, S, W turns the cells about the anchor; the caster's facing does not.
func TestRectProperties_2_7(t *testing.T) {
	sizes := [][2]int{{50, 1}, {1, 50}, {50, 50}, {37, 13}}
	for w := 1; w <= 12; w++ {
		for l := 1; l <= 12; l++ {
			sizes = append(sizes, [2]int{w, l})
		}
	}
	orients := []grid.Dir{grid.N, grid.E, grid.S, grid.W}
	for _, wl := range sizes {
		w, l := wl[0], wl[1]
		r := Rect{Width: w, Length: l, Height: 1}
		north := collect(r, Placement{Origin: caster})
		for _, c := range north {
			if c.X < caster.X || c.Y > caster.Y {
				t.Errorf("%v N: %v lies west or south of the anchor, which should be the south-west corner", r, c)
				break
			}
		}
		for q, o := range orients {
			p := Placement{Origin: caster, Orientation: o}
			cells := collect(r, p)
			if r.Count(p) != w*l || len(cells) != w*l {
				t.Errorf("%v %v: Count() = %d, visited %d, want %d", r, o, r.Count(p), len(cells), w*l)
			}
			want := refCells(caster, w+l, caster.Z, caster.Z, func(v grid.Cell) bool { return inRect(w, l, o, v) })
			sameCells(t, r.String()+" "+o.String()+" vs reference", cells, want)
			sameCells(t, r.String()+" "+o.String()+" vs N turned", cells, rotateAbout(north, caster, q))
			if !contains(cells, caster) {
				t.Errorf("%v %v: the anchor is not affected", r, o)
			}
			dirs := grid.Dirs()
			for _, f := range dirs[1:] {
				p.Facing = f
				sameCells(t, r.String()+" "+o.String()+" facing "+f.String(), collect(r, p), cells)
			}
		}
	}
}

// §2.8 over many sizes: default heights (circle R, cone L, line L, rectangle max(W, L)) and
// explicit heights 1…8 give the formula's count and the centred level range, each level the
// same footprint as the h1 shape.
func TestHeightProperties_2_8(t *testing.T) {
	type row struct {
		s        Shape
		flat     Shape // the same shape one level tall
		defaultH int
	}
	var rows []row
	for n := 1; n <= 12; n++ {
		for h := 0; h <= 8; h++ {
			rows = append(rows,
				row{Circle{Radius: n, Height: h}, Circle{Radius: n, Height: 1}, n},
				row{Cone{Length: n, Dir: grid.Dir(n % 8), Height: h}, Cone{Length: n, Dir: grid.Dir(n % 8), Height: 1}, n},
				row{Line{Length: n, Dir: grid.Dir((n + 3) % 8), Width: n%3 + 1, Height: h}, Line{Length: n, Dir: grid.Dir((n + 3) % 8), Width: n%3 + 1, Height: 1}, n},
				row{Rect{Width: n, Length: 13 - n, Height: h}, Rect{Width: n, Length: 13 - n, Height: 1}, max(n, 13-n)},
			)
		}
	}
	for _, r := range rows {
		h := r.defaultH
		if hh := heightOf(r.s); hh != 0 {
			h = hh
		}
		p := Placement{Origin: caster, Facing: grid.SW}
		flat := collect(r.flat, p)
		lo, hi := zRange(caster.Z, h)
		var want []grid.Cell
		for z := lo; z <= hi; z++ {
			for _, c := range flat {
				want = append(want, grid.Cell{X: c.X, Y: c.Y, Z: z})
			}
		}
		cells := collect(r.s, p)
		sameCells(t, r.s.String(), cells, want)
		if got := r.s.Count(p); got != len(flat)*h {
			t.Errorf("%v: Count() = %d, want %d × %d", r.s, got, len(flat), h)
		}
	}
}

func heightOf(s Shape) int {
	switch s := s.(type) {
	case Circle:
		return s.Height
	case Cone:
		return s.Height
	case Line:
		return s.Height
	case Rect:
		return s.Height
	}
	return 0
}

func contains(cells []grid.Cell, c grid.Cell) bool {
	for _, d := range cells {
		if d == c {
			return true
		}
	}
	return false
}

// TestBoxOf holds BoxOf to its promise (the engine relies on it to size a cell
// set without visiting the cells): Cells visits exactly the cells of Box, each once, and Count
// is its volume. The TDGS circle is the square block of §2.3 on its levels (§2.8), the Draw
// Steel aura and burst the box of §3.3 around casters of several sizes and heights, the cube
// the X × X × X block of §3.4.
func TestBoxOf(t *testing.T) {
	n := 0
	for _, s := range All() {
		if _, ok := BoxOf(s, Placement{}); !ok {
			continue
		}
		n++
		for _, caster := range []grid.Space{{Size: 1, Height: 1}, {Anchor: grid.Cell{X: -3, Y: 4, Z: 2}, Size: 2, Height: 3}, {Anchor: grid.Cell{X: 7, Y: -2, Z: -1}, Size: 3, Height: 1}} {
			p := Placement{Origin: grid.Cell{X: 5, Y: -6, Z: 1}, Caster: caster}
			b, _ := BoxOf(s, p)
			seen := map[grid.Cell]bool{}
			s.Cells(p, func(c grid.Cell) {
				if !b.Contains(c) || seen[c] {
					t.Fatalf("%s, caster %+v: cell %v outside Box %v or visited twice", s, caster, c, b)
				}
				seen[c] = true
			})
			vol := (b.Max.X - b.Min.X + 1) * (b.Max.Y - b.Min.Y + 1) * (b.Max.Z - b.Min.Z + 1)
			if len(seen) != vol || s.Count(p) != vol {
				t.Errorf("%s, caster %+v: %d cells visited, Count %d, Box %v holds %d", s, caster, len(seen), s.Count(p), b, vol)
			}
		}
	}
	if n != 4 { // circle, aura, burst, cube
		t.Errorf("BoxOf knows %d shapes of All(), want 4 (circle, aura, burst, cube)", n)
	}
}
