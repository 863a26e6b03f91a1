package template

import (
	"slices"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/grid"
)

// This file holds the test helpers: collecting cells, comparing sets both ways, ASCII
// pictures, and the slow references written straight from the SPEC's formulas. Nothing here
// calls the shape code it is used to check.

// collect returns the cells s visits at p, in visiting order.
func collect(s Shape, p Placement) []grid.Cell {
	var out []grid.Cell
	s.Cells(p, func(c grid.Cell) { out = append(out, c) })
	return out
}

// firstDup returns a cell visited twice, if any.
func firstDup(cells []grid.Cell) (grid.Cell, bool) {
	sorted := slices.SortedFunc(slices.Values(cells), grid.Compare)
	for i := 1; i < len(sorted); i++ {
		if sorted[i] == sorted[i-1] {
			return sorted[i], true
		}
	}
	return grid.Cell{}, false
}

// diff returns the cells of want missing from got and the cells of got not in want, sorted.
func diff(got, want []grid.Cell) (missing, extra []grid.Cell) {
	g := slices.Compact(slices.SortedFunc(slices.Values(got), grid.Compare))
	w := slices.Compact(slices.SortedFunc(slices.Values(want), grid.Compare))
	i, j := 0, 0
	for i < len(g) || j < len(w) {
		switch {
		case j == len(w) || i < len(g) && grid.Compare(g[i], w[j]) < 0:
			extra = append(extra, g[i])
			i++
		case i == len(g) || grid.Compare(g[i], w[j]) > 0:
			missing = append(missing, w[j])
			j++
		default:
			i++
			j++
		}
	}
	return missing, extra
}

func head(cells []grid.Cell) []grid.Cell { return cells[:min(len(cells), 8)] }

// sameCells fails t unless got and want are the same set (both ways) and got has no repeat.
func sameCells(t *testing.T, name string, got, want []grid.Cell) bool {
	t.Helper()
	ok := true
	if c, dup := firstDup(got); dup {
		t.Errorf("%s: cell %v visited twice", name, c)
		ok = false
	}
	missing, extra := diff(got, want)
	if len(missing) > 0 {
		t.Errorf("%s: %d cells missing, e.g. %v", name, len(missing), head(missing))
		ok = false
	}
	if len(extra) > 0 {
		t.Errorf("%s: %d cells extra, e.g. %v", name, len(extra), head(extra))
		ok = false
	}
	return ok
}

// picture reads an ASCII board drawn by hand: '#' is a cell of the area, '.' is not, 'C' is
// the caster's or origin cell and not in the area, '@' is the origin cell and in the area.
// Exactly one 'C' or '@' is required. It returns the area's cells as offsets from that marker
// (z 0) and the picture's bounds as offsets.
func picture(t *testing.T, rows []string) (cells []grid.Cell, lo, hi grid.Cell) {
	t.Helper()
	var origin grid.Cell
	found := 0
	for y, row := range rows {
		for x, ch := range row {
			switch ch {
			case 'C', '@':
				origin = grid.Cell{X: x, Y: y}
				found++
			case '#', '.':
			default:
				t.Fatalf("picture row %d has %q", y, ch)
			}
		}
	}
	if found != 1 {
		t.Fatalf("picture has %d origin markers, want 1", found)
	}
	for y, row := range rows {
		for x, ch := range row {
			if ch == '#' || ch == '@' {
				cells = append(cells, grid.Cell{X: x, Y: y}.Sub(origin))
			}
		}
	}
	return cells, grid.Cell{}.Sub(origin), grid.Cell{X: len(rows[0]) - 1, Y: len(rows) - 1}.Sub(origin)
}

// draw renders cells (offsets from the origin, one level) as a picture over [lo, hi], for
// failure messages.
func draw(cells []grid.Cell, lo, hi grid.Cell, originIn bool) string {
	set := map[grid.Cell]bool{}
	for _, c := range cells {
		set[grid.Cell{X: c.X, Y: c.Y}] = true
	}
	var b strings.Builder
	for y := lo.Y; y <= hi.Y; y++ {
		b.WriteString("\n\t")
		for x := lo.X; x <= hi.X; x++ {
			c := grid.Cell{X: x, Y: y}
			switch {
			case c == grid.Cell{} && set[c]:
				b.WriteByte('@')
			case c == grid.Cell{}:
				b.WriteByte('C')
			case set[c]:
				b.WriteByte('#')
			default:
				b.WriteByte('.')
			}
		}
	}
	return b.String()
}

// checkPicture compares cells with a hand-drawn picture both ways on every level in levels
// (offsets from origin.Z), and checks no cell lies on another level.
func checkPicture(t *testing.T, name string, cells []grid.Cell, origin grid.Cell, levels []int, rows []string) {
	t.Helper()
	want, lo, hi := picture(t, rows)
	byLevel := map[int][]grid.Cell{}
	for _, c := range cells {
		byLevel[c.Z-origin.Z] = append(byLevel[c.Z-origin.Z], c.Sub(origin).Sub(grid.Cell{Z: c.Z - origin.Z}))
	}
	for _, z := range levels {
		got := byLevel[z]
		delete(byLevel, z)
		missing, extra := diff(got, want)
		if len(missing) > 0 || len(extra) > 0 {
			lo2, hi2 := lo, hi
			for _, c := range got {
				lo2 = grid.Cell{X: min(lo2.X, c.X), Y: min(lo2.Y, c.Y)}
				hi2 = grid.Cell{X: max(hi2.X, c.X), Y: max(hi2.Y, c.Y)}
			}
			t.Errorf("%s level %+d: missing %v, extra %v; got%s\nwant%s", name, z, missing, extra,
				draw(got, lo2, hi2, false), "\n\t"+strings.Join(rows, "\n\t"))
		}
		if c, dup := firstDup(got); dup {
			t.Errorf("%s level %+d: %v visited twice", name, z, c)
		}
	}
	for z, got := range byLevel {
		t.Errorf("%s: %d cells on level %+d, which should be empty", name, len(got), z)
	}
}

// --- References written from the SPEC, one inequality per rule.

func dot(a, b grid.Cell) int { return a.X*b.X + a.Y*b.Y }

// right is the unit offset to the right of travel toward u: u turned 90° clockwise, (−dy, dx)
// (SPEC §1.2).
func right(u grid.Cell) grid.Cell { return grid.Cell{X: -u.Y, Y: u.X} }

// bandS is S(W) of SPEC §2.6: −⌊(W−1)/2⌋ … ⌈(W−1)/2⌉.
func bandS(w int) (lo, hi int) {
	floor := (w - 1) / 2
	ceil := (w - 1) - floor
	return -floor, ceil
}

// zRange is the z range of a prism h tall on level z0 (SPEC §2.8):
// [z0 − ⌊(h−1)/2⌋, z0 + ⌈(h−1)/2⌉].
func zRange(z0, h int) (lo, hi int) {
	floor := (h - 1) / 2
	return z0 - floor, z0 + (h - 1 - floor)
}

// inCone reports whether planar offset v from the caster is in ConL toward the absolute
// direction d (SPEC §2.4: forward distance 1…L, sideways at most distance−1; §2.5: i, j ≥ 1,
// i + j ≤ L + 1 in the frame of the diagonal).
func inCone(l int, d grid.Dir, v grid.Cell) bool {
	u := d.Offset()
	if !d.Diagonal() {
		f, s := dot(v, u), dot(v, right(u))
		return 1 <= f && f <= l && -(f-1) <= s && s <= f-1
	}
	i, j := v.X*u.X, v.Y*u.Y
	return i >= 1 && j >= 1 && i+j <= l+1
}

// inLine reports whether planar offset v is in LinL toward d with width w (SPEC §2.6):
// cardinal, forward 1…L and sideways in S(W); diagonal, 1 ≤ max(i, j) ≤ L in the frame of the
// diagonal and the sideways offset (positive to the right) in S(W).
func inLine(l, w int, d grid.Dir, v grid.Cell) bool {
	u := d.Offset()
	lo, hi := bandS(w)
	s := dot(v, right(u)) // cardinal: the column; diagonal: i − j, positive to the right
	if s < lo || s > hi {
		return false
	}
	if !d.Diagonal() {
		f := dot(v, u)
		return 1 <= f && f <= l
	}
	m := max(v.X*u.X, v.Y*u.Y)
	return 1 <= m && m <= l
}

// inRect reports whether planar offset v from the anchor is in RecWxL turned to orientation o
// (SPEC §2.7): i = 0…W−1 to the right, j = 0…L−1 forward.
func inRect(w, l int, o grid.Dir, v grid.Cell) bool {
	u := o.Offset()
	i, j := dot(v, right(u)), dot(v, u)
	return 0 <= i && i < w && 0 <= j && j < l
}

// refCells scans the box of radius r about origin on levels [z0, z1] and returns the cells
// whose planar offset satisfies in.
func refCells(origin grid.Cell, r, z0, z1 int, in func(v grid.Cell) bool) []grid.Cell {
	var out []grid.Cell
	for z := z0; z <= z1; z++ {
		for y := -r; y <= r; y++ {
			for x := -r; x <= r; x++ {
				if in(grid.Cell{X: x, Y: y}) {
					out = append(out, origin.Add(grid.Cell{X: x, Y: y}).Add(grid.Cell{Z: z - origin.Z}))
				}
			}
		}
	}
	return out
}

// rotateAbout turns every cell by k quarter turns clockwise about centre (SPEC §1.2:
// (dx, dy) → (−dy, dx)), written out here rather than with Rot90.
func rotateAbout(cells []grid.Cell, centre grid.Cell, k int) []grid.Cell {
	out := make([]grid.Cell, len(cells))
	for n, c := range cells {
		v := c.Sub(centre)
		for range ((k % 4) + 4) % 4 {
			v = grid.Cell{X: -v.Y, Y: v.X, Z: v.Z}
		}
		out[n] = centre.Add(v)
	}
	return out
}
