package template

import (
	"testing"

	"github.com/aoekit/aoekit/core/grid"
)

var caster = grid.Cell{X: 10, Y: 20, Z: 3}

// §2.5 table: cone counts by length, cardinal L², diagonal L(L+1)/2, toward every direction
// of each kind, Count() and Cells agreeing.
func TestConeCountTable_2_5(t *testing.T) {
	table := []struct{ l, cardinal, diagonal int }{
		{1, 1, 1}, {2, 4, 3}, {3, 9, 6}, {4, 16, 10}, {5, 25, 15}, {6, 36, 21},
	}
	for _, row := range table {
		for _, d := range grid.Dirs() {
			want := row.cardinal
			if d.Diagonal() {
				want = row.diagonal
			}
			c := Cone{Length: row.l, Dir: d, Height: 1}
			p := Placement{Origin: caster}
			if got := c.Count(p); got != want {
				t.Errorf("Con%d%v Count() = %d, want %d", row.l, d, got, want)
			}
			cells := collect(c, p)
			if len(cells) != want {
				t.Errorf("Con%d%v visits %d cells, want %d", row.l, d, len(cells), want)
			}
			if dup, ok := firstDup(cells); ok {
				t.Errorf("Con%d%v visits %v twice", row.l, d, dup)
			}
		}
	}
}

// §2.4: a cardinal cone is 2d−1 wide at distance d; §2.5: a diagonal cone's anti-diagonal n
// (i + j = n + 1) holds n cells. Checked for L = 1…30 in every direction.
func TestConeWidths_2_4_2_5(t *testing.T) {
	for l := 1; l <= 30; l++ {
		for _, d := range grid.Dirs() {
			u := d.Offset()
			width := map[int]int{}
			for _, c := range collect(Cone{Length: l, Dir: d, Height: 1}, Placement{Origin: caster}) {
				v := c.Sub(caster)
				if d.Diagonal() {
					width[v.X*u.X+v.Y*u.Y-1]++ // i + j − 1 = n
				} else {
					width[dot(v, u)]++ // forward distance
				}
			}
			for n := 1; n <= l; n++ {
				want := 2*n - 1
				if d.Diagonal() {
					want = n
				}
				if width[n] != want {
					t.Errorf("Con%d%v: width %d at distance %d, want %d", l, d, width[n], n, want)
				}
				delete(width, n)
			}
			for n, w := range width {
				t.Errorf("Con%d%v: %d cells at distance %d, outside 1…%d", l, d, w, n, l)
			}
		}
	}
}

// §2.3: CirR covers (2R+1)² cells on each level, every cell within Chebyshev R of the centre,
// the centre included.
func TestCircleCounts_2_3(t *testing.T) {
	for _, row := range []struct{ r, want int }{{1, 9}, {2, 25}, {3, 49}, {4, 81}, {5, 121}} {
		c := Circle{Radius: row.r, Height: 1}
		p := Placement{Origin: caster}
		if got := c.Count(p); got != row.want {
			t.Errorf("Cir%dh1 Count() = %d, want %d", row.r, got, row.want)
		}
		cells := collect(c, p)
		want := refCells(caster, row.r+2, caster.Z, caster.Z, func(v grid.Cell) bool { return grid.Dist2(grid.Cell{}, v) <= row.r })
		if len(want) != row.want {
			t.Fatalf("reference Cir%d has %d cells, want %d", row.r, len(want), row.want)
		}
		sameCells(t, c.String(), cells, want)
	}
}

// §2.6: a line covers L × W cells in every direction, for widths 1…6.
func TestLineCounts_2_6(t *testing.T) {
	for l := 1; l <= 8; l++ {
		for w := 1; w <= 6; w++ {
			for _, d := range grid.Dirs() {
				s := Line{Length: l, Dir: d, Width: w, Height: 1}
				p := Placement{Origin: caster}
				if got := s.Count(p); got != l*w {
					t.Errorf("%v Count() = %d, want %d", s, got, l*w)
				}
				cells := collect(s, p)
				if len(cells) != l*w {
					t.Errorf("%v visits %d cells, want %d", s, len(cells), l*w)
				}
				if dup, ok := firstDup(cells); ok {
					t.Errorf("%v visits %v twice", s, dup)
				}
			}
		}
	}
	// Width 0 means 1 (the field's zero value).
	if got := (Line{Length: 5, Dir: grid.E, Height: 1}).Count(Placement{}); got != 5 {
		t.Errorf("Lin5E (width unset) Count() = %d, want 5", got)
	}
}

// §2.7: a rectangle covers W × L cells in every orientation.
func TestRectCounts_2_7(t *testing.T) {
	for w := 1; w <= 7; w++ {
		for l := 1; l <= 7; l++ {
			for _, o := range []grid.Dir{grid.N, grid.E, grid.S, grid.W} {
				r := Rect{Width: w, Length: l, Height: 1}
				p := Placement{Origin: caster, Orientation: o}
				if got := r.Count(p); got != w*l {
					t.Errorf("%v Count() = %d, want %d", r, got, w*l)
				}
				cells := collect(r, p)
				if len(cells) != w*l {
					t.Errorf("%v %v visits %d cells, want %d", r, o, len(cells), w*l)
				}
				if dup, ok := firstDup(cells); ok {
					t.Errorf("%v %v visits %v twice", r, o, dup)
				}
			}
		}
	}
}

// §2.8: each area is a prism h levels tall centred on the origin's level, an even height
// putting its extra level above; default h is R (circle), L (cone, line), max(W, L)
// (rectangle); Cir3h1 is the origin's level only.
func TestHeights_2_8(t *testing.T) {
	const z0 = 3
	tests := []struct {
		name   string
		s      Shape
		lo, hi int // expected levels, as offsets from z0
		h      int
	}{
		{"Cir3 default h=R=3", Circle{Radius: 3}, -1, 1, 3},
		{"Cir3h1 origin level only", Circle{Radius: 3, Height: 1}, 0, 0, 1},
		{"Cir3h2 extra level above", Circle{Radius: 3, Height: 2}, 0, 1, 2},
		{"Cir2h4", Circle{Radius: 2, Height: 4}, -1, 2, 4},
		{"Cir1h5", Circle{Radius: 1, Height: 5}, -2, 2, 5},
		{"Cir4 default h=4", Circle{Radius: 4}, -1, 2, 4},
		{"Con4N default h=L=4", Cone{Length: 4, Dir: grid.N}, -1, 2, 4},
		{"Con6Nh10", Cone{Length: 6, Dir: grid.N, Height: 10}, -4, 5, 10},
		{"Con3NE default h=3", Cone{Length: 3, Dir: grid.NE}, -1, 1, 3},
		{"Con1S default h=1", Cone{Length: 1, Dir: grid.S}, 0, 0, 1},
		{"Lin5E default h=L=5", Line{Length: 5, Dir: grid.E}, -2, 2, 5},
		{"Lin5Sw2 default h=5", Line{Length: 5, Dir: grid.S, Width: 2}, -2, 2, 5},
		{"Lin6NWw3h1", Line{Length: 6, Dir: grid.NW, Width: 3, Height: 1}, 0, 0, 1},
		{"Lin2Eh7", Line{Length: 2, Dir: grid.E, Height: 7}, -3, 3, 7},
		{"Rec3x4 default h=max(W,L)=4", Rect{Width: 3, Length: 4}, -1, 2, 4},
		{"Rec5x2 default h=5", Rect{Width: 5, Length: 2}, -2, 2, 5},
		{"Rec2x2h6", Rect{Width: 2, Length: 2, Height: 6}, -2, 3, 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.hi-tt.lo+1 != tt.h {
				t.Fatalf("bad row: %d…%d is not %d levels", tt.lo, tt.hi, tt.h)
			}
			p := Placement{Origin: grid.Cell{X: 0, Y: 0, Z: z0}}
			cells := collect(tt.s, p)
			footprint := map[int]map[grid.Cell]bool{}
			for _, c := range cells {
				if footprint[c.Z-z0] == nil {
					footprint[c.Z-z0] = map[grid.Cell]bool{}
				}
				footprint[c.Z-z0][grid.Cell{X: c.X, Y: c.Y}] = true
			}
			if len(footprint) != tt.h {
				t.Errorf("%d levels, want %d", len(footprint), tt.h)
			}
			base := footprint[0]
			for z := tt.lo; z <= tt.hi; z++ {
				f, ok := footprint[z]
				if !ok {
					t.Errorf("level %+d empty", z)
					continue
				}
				if len(f) != len(base) {
					t.Errorf("level %+d has %d cells, level 0 has %d", z, len(f), len(base))
				}
				for c := range f {
					if !base[c] {
						t.Errorf("level %+d has %v, level 0 does not", z, c)
						break
					}
				}
			}
			if got, want := tt.s.Count(p), len(base)*tt.h; got != want || len(cells) != want {
				t.Errorf("Count() = %d, visited %d, want %d", got, len(cells), want)
			}
		})
	}
}

// §2.3, §2.4–§2.6: ASCII pictures, drawn by hand from the SPEC's rules and checked both ways
// ('C' the caster, not affected; '@' the origin, affected; '#' a cell).
func TestPictures_2(t *testing.T) {
	tests := []struct {
		name string
		s    Shape
		p    Placement
		rows []string
	}{
		{"§2.5 Con3NE", Cone{Length: 3, Dir: grid.NE, Height: 1}, Placement{}, []string{
			".#..",
			".##.",
			".###",
			"C...",
		}},
		{"§2.4 Con3N", Cone{Length: 3, Dir: grid.N, Height: 1}, Placement{}, []string{
			"#####",
			".###.",
			"..#..",
			"..C..",
		}},
		{"§2.4 Con2E", Cone{Length: 2, Dir: grid.E, Height: 1}, Placement{}, []string{
			"..#",
			"C##",
			"..#",
		}},
		{"§2.5 Con3SW", Cone{Length: 3, Dir: grid.SW, Height: 1}, Placement{}, []string{
			"...C",
			"###.",
			".##.",
			"..#.",
		}},
		{"§1.3 facing E, Con4NE points SE", Cone{Length: 4, Dir: grid.NE, Height: 1}, Placement{Facing: grid.E}, []string{
			"C....",
			".####",
			".###.",
			".##..",
			".#...",
		}},
		{"§2.6 Lin4NWw2: extra column on the right (NE side)", Line{Length: 4, Dir: grid.NW, Width: 2, Height: 1}, Placement{}, []string{
			"##...",
			".##..",
			"..##.",
			"...##",
			"....C",
		}},
		{"§2.6 Lin4Nw2: extra column on the right (east)", Line{Length: 4, Dir: grid.N, Width: 2, Height: 1}, Placement{}, []string{
			"##",
			"##",
			"##",
			"##",
			"C.",
		}},
		{"§2.6 Lin3SEw3", Line{Length: 3, Dir: grid.SE, Width: 3, Height: 1}, Placement{}, []string{
			"C#..",
			"###.",
			".###",
			"..##",
		}},
		{"§2.6 Lin5Sw2: extra column on the right (west)", Line{Length: 5, Dir: grid.S, Width: 2, Height: 1}, Placement{}, []string{
			".C",
			"##",
			"##",
			"##",
			"##",
			"##",
		}},
		{"§2.6 Lin3Ew2: extra row on the right (south)", Line{Length: 3, Dir: grid.E, Width: 2, Height: 1}, Placement{}, []string{
			"C###",
			".###",
		}},
		{"§2.6 Lin4NE plain diagonal", Line{Length: 4, Dir: grid.NE, Height: 1}, Placement{}, []string{
			"....#",
			"...#.",
			"..#..",
			".#...",
			"C....",
		}},
		{"§2.6 Lin3NEw4: band offsets −1…2", Line{Length: 3, Dir: grid.NE, Width: 4, Height: 1}, Placement{}, []string{
			"..##", // j = 3: (2,-3) offset −1, (3,-3) offset 0
			".###",
			"####", // (0,-1) offset −1 … (3,-1) offset 2
			"C##.", // (1,0) offset 1, (2,0) offset 2
			".#..", // (1,1) offset 2: i = 1, j = −1, max(i, j) = 1
		}},
		{"§2.6 Lin3Ww3", Line{Length: 3, Dir: grid.W, Width: 3, Height: 1}, Placement{}, []string{
			"###.",
			"###C",
			"###.",
		}},
		{"§2.3 Cir1h1", Circle{Radius: 1, Height: 1}, Placement{}, []string{
			"###",
			"#@#",
			"###",
		}},
		{"§2.7 Rec3x2 N: anchor south-west", Rect{Width: 3, Length: 2, Height: 1}, Placement{}, []string{
			"###",
			"@##",
		}},
		{"§2.7 Rec3x2 E", Rect{Width: 3, Length: 2, Height: 1}, Placement{Orientation: grid.E}, []string{
			"@#",
			"##",
			"##",
		}},
		{"§2.7 Rec3x2 S", Rect{Width: 3, Length: 2, Height: 1}, Placement{Orientation: grid.S}, []string{
			"##@",
			"###",
		}},
		{"§2.7 Rec3x2 W", Rect{Width: 3, Length: 2, Height: 1}, Placement{Orientation: grid.W}, []string{
			"##",
			"##",
			"#@",
		}},
	}
	for _, tt := range tests {
		// The origin is put at an arbitrary cell: the picture is relative to it.
		tt.p.Origin = grid.Cell{X: -7, Y: 4, Z: 2}
		checkPicture(t, tt.name, collect(tt.s, tt.p), tt.p.Origin, []int{0}, tt.rows)
	}
}

// §2.2: canonical text of shapes built directly (a width of 1 and a default height are left
// out).
func TestString_2_2_3_8(t *testing.T) {
	tests := []struct {
		s    Shape
		want string
	}{
		{Circle{Radius: 3}, "Cir3"},
		{Circle{Radius: 3, Height: 3}, "Cir3"},
		{Circle{Radius: 3, Height: 1}, "Cir3h1"},
		{Cone{Length: 4, Dir: grid.N}, "Con4N"},
		{Cone{Length: 4, Dir: grid.NE, Height: 4}, "Con4NE"},
		{Cone{Length: 6, Dir: grid.N, Height: 10}, "Con6Nh10"},
		{Line{Length: 5, Dir: grid.E}, "Lin5E"},
		{Line{Length: 5, Dir: grid.E, Width: 1}, "Lin5E"},
		{Line{Length: 5, Dir: grid.S, Width: 2}, "Lin5Sw2"},
		{Line{Length: 5, Dir: grid.SW, Width: 2}, "Lin5SWw2"},
		{Line{Length: 5, Dir: grid.E, Width: 2, Height: 3}, "Lin5Ew2h3"},
		{Rect{Width: 3, Length: 4}, "Rec3x4"},
		{Rect{Width: 3, Length: 4, Height: 4}, "Rec3x4"},
		{Rect{Width: 3, Length: 4, Height: 1}, "Rec3x4h1"},
		{Aura{Radius: 3}, "3 aura"},
		{Burst{Radius: 2}, "2 burst"},
		{Cube{Side: 3, Within: 10}, "3 cube within 10"},
		{Cube{Side: 3}, "3 cube"},
		{DSLine{Length: 5, Width: 1, Within: 1}, "5 x 1 line within 1"},
		{Wall{Squares: 10, Within: 10}, "10 wall within 10"},
	}
	for _, tt := range tests {
		if got := tt.s.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.s, got, tt.want)
		}
	}
}

// The closed set: every shape in All names its rule set and kind, and validates.
func TestAll(t *testing.T) {
	kinds := map[string]bool{"circle": true, "cone": true, "line": true, "rectangle": true,
		"aura": true, "burst": true, "cube": true, "wall": true}
	for _, s := range All() {
		if !kinds[s.Kind()] {
			t.Errorf("%v: Kind() = %q", s, s.Kind())
		}
		if s.Rules().String() == "" {
			t.Errorf("%v: Rules() = %d has no name", s, s.Rules())
		}
		if err := s.Validate(); err != nil {
			t.Errorf("%v: Validate() = %v", s, err)
		}
	}
	for _, r := range []Rules{TDGS, DrawSteel, Circle50Rules} {
		if got, ok := ParseRules(r.String()); !ok || got != r {
			t.Errorf("ParseRules(%q) = %v, %v", r.String(), got, ok)
		}
	}
	if _, ok := ParseRules("dnd35"); ok {
		t.Errorf("ParseRules(dnd35) accepted")
	}
	if Rules(9).String() != "" {
		t.Errorf("Rules(9).String() = %q", Rules(9).String())
	}
}
