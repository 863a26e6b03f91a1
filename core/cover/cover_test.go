package cover

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/aoekit/aoekit/core/board"
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/los"
)

// Coordinates in these tests are lattice units (SPEC §5.1): cell (x, y, z) spans
// [400x, 400x+400] on X and likewise on Y and Z; its inset corners sit at 400k+1 and 400k+399.

func solids(cells ...board.Solid) *board.Solids { return board.New(cells) }

func full(x, y, z int) board.Solid { return board.Solid{Cell: grid.C(x, y, z), Fill: board.Full} }

func unit(x, y, z int) Target { return Target{Space: grid.Unit(grid.C(x, y, z))} }

func pt(x, y, z int64) los.Point { return los.Point{X: x, Y: y, Z: z} }

// §5.4, seed 004: seen from a point, a cell shows 4 corners face-on, 6 edge-on, 7 corner-on.
// A k × k × k target shows (2k)² face-on, 2(2k)² − 2k edge-on and 3(2k)² − 3·2k + 1 corner-on
// (the corners of its cells on the faces turned toward the source, each counted once).
func TestTargetPoints_5_4_Counts(t *testing.T) {
	src := los.Centre(grid.C(0, 0, 0))
	for k := 1; k <= 3; k++ {
		sp := func(x, y, z int) Target {
			return Target{Space: grid.Space{Anchor: grid.C(x, y, z), Size: k, Height: k}}
		}
		n := 2 * k
		for _, c := range []struct {
			name string
			t    Target
			want int
		}{
			{"face-on", sp(2, 0, 0), n * n},
			{"face-on from above", sp(0, 0, -5), n * n},
			{"edge-on", sp(2, 2, 0), 2*n*n - n},
			{"edge-on, vertical", sp(0, -5, 3), 2*n*n - n},
			{"corner-on", sp(2, 2, 2), 3*n*n - 3*n + 1},
			{"corner-on, below", sp(-5, 3, -5), 3*n*n - 3*n + 1},
		} {
			pts := TargetPoints(nil, src, c.t, false)
			if len(pts) != c.want {
				t.Errorf("k=%d %s: %d points, want %d", k, c.name, len(pts), c.want)
			}
			seen := map[los.Point]bool{}
			for _, p := range pts {
				if seen[p] {
					t.Errorf("k=%d %s: %v twice", k, c.name, p)
				}
				seen[p] = true
				if !c.t.Space.Contains(p.Cell()) {
					t.Errorf("k=%d %s: %v is not inside the target", k, c.name, p)
				}
			}
		}
	}
	// The source inside the target: no face is turned toward it.
	if pts := TargetPoints(nil, src, unit(0, 0, 0), true); len(pts) != 0 {
		t.Errorf("source inside the target: %v", pts)
	}
	// Appending keeps what dst held.
	dst := []los.Point{{X: 7}}
	if pts := TargetPoints(dst, src, unit(2, 0, 0), true); len(pts) != 5 || pts[0] != (los.Point{X: 7}) {
		t.Errorf("append: %v", pts)
	}
}

// §5.4: the face-on corners exactly: x = 801, y ∈ {1, 399}, z ∈ {1, 399}; with the boost the
// low ones rise by 0.3 × 400 = 120 to z = 121.
func TestTargetPoints_5_4_FaceOnCorners(t *testing.T) {
	src := los.Centre(grid.C(0, 0, 0))
	want := []los.Point{pt(801, 1, 1), pt(801, 399, 1), pt(801, 1, 399), pt(801, 399, 399)}
	if got := TargetPoints(nil, src, unit(2, 0, 0), false); !samePoints(got, want) {
		t.Errorf("no boost: %v, want %v", got, want)
	}
	want = []los.Point{pt(801, 1, 121), pt(801, 399, 121), pt(801, 1, 399), pt(801, 399, 399)}
	if got := TargetPoints(nil, src, unit(2, 0, 0), true); !samePoints(got, want) {
		t.Errorf("boost: %v, want %v", got, want)
	}
}

// §5.4 low-point boost: raised by 0.3 × height (in cells), i.e. 120 × height lattice units;
// dropped where it would reach the upper corners. SPEC-silent detail, settled as seed 004
// does ("if the low point boost is longer than the vector between low and high points, the
// low point is omitted"): the upper corners are those of the same vertical edge, the top of the
// target's lowest cell (z = 399), so from height 4 on (1 + 480 ≥ 399) the low points go.
// A prone target, or a source below the target's lowest level, gets no boost.
func TestTargetPoints_5_4_Boost(t *testing.T) {
	src := los.Centre(grid.C(0, 0, 0))
	for h := 1; h <= 5; h++ {
		tg := Target{Space: grid.Space{Anchor: grid.C(2, 0, 0), Size: 1, Height: h}}
		pts := TargetPoints(nil, src, tg, true)
		wantLow := int64(1 + 120*h)
		lows := 0
		for _, p := range pts {
			if p.Z < 399 {
				lows++
				if p.Z != wantLow {
					t.Errorf("h=%d: low corner at z=%d, want %d", h, p.Z, wantLow)
				}
			}
		}
		wantLows, wantTotal := 2, 4*h
		if wantLow >= 399 {
			wantLows, wantTotal = 0, 4*h-2
		}
		if lows != wantLows || len(pts) != wantTotal {
			t.Errorf("h=%d: %d points, %d low; want %d, %d", h, len(pts), lows, wantTotal, wantLows)
		}
	}
	prone := Target{Space: grid.Unit(grid.C(2, 0, 0)), Prone: true}
	for _, p := range TargetPoints(nil, src, prone, true) {
		if p.Z != 1 && p.Z != 399 {
			t.Errorf("prone: corner at z=%d, want no boost", p.Z)
		}
	}
	below := los.Centre(grid.C(0, 0, -1))
	for _, p := range TargetPoints(nil, below, unit(2, 0, 0), true) {
		if p.Z != 1 && p.Z != 399 {
			t.Errorf("source below: corner at z=%d, want no boost", p.Z)
		}
	}
}

// §5.4 melee, seed 004.
func TestFromCell_5_4_Melee(t *testing.T) {
	none := solids()
	from := func(r Result) []los.Point {
		var out []los.Point
		for _, s := range r.Segments {
			if !slices.Contains(out, s.From) {
				out = append(out, s.From)
			}
		}
		return out
	}
	// Same level, adjacent: the attacker's east face (x = 399), lower corners raised 30 %
	// (1 → 121), upper lowered 5 % (399 → 379). Target corners: its west face, no boost.
	r := FromCell(Melee, grid.C(0, 0, 0), unit(1, 0, 0), true, none)
	want := []los.Point{pt(399, 1, 121), pt(399, 399, 121), pt(399, 1, 379), pt(399, 399, 379)}
	if got := from(r); !samePoints(got, want) || r.Total() != 16 {
		t.Errorf("same level: sources %v (%d segments), want %v and 16", got, r.Total(), want)
	}
	for _, s := range r.Segments {
		if s.To.X != 401 || (s.To.Z != 1 && s.To.Z != 399) {
			t.Errorf("same level: target point %v, want the unboosted west face", s.To)
		}
	}
	// Same level, diagonal: 6 source points, adjusted the same way.
	r = FromCell(Melee, grid.C(0, 0, 0), unit(1, 1, 0), true, none)
	if got := from(r); len(got) != 6 || !allZ(got, 121, 379) {
		t.Errorf("same level diagonal: sources %v, want 6 at z 121 / 379", got)
	}
	// Downward while standing: the bottom face is not used: adjacent-and-down 4 points (the
	// east face), diagonal-and-down 6; no same-level adjustment (z = 401, 799).
	r = FromCell(Melee, grid.C(0, 0, 1), unit(1, 0, 0), true, none)
	want = []los.Point{pt(399, 1, 401), pt(399, 399, 401), pt(399, 1, 799), pt(399, 399, 799)}
	if got := from(r); !samePoints(got, want) {
		t.Errorf("adjacent and down: sources %v, want %v", got, want)
	}
	r = FromCell(Melee, grid.C(0, 0, 1), unit(1, 1, 0), true, none)
	if got := from(r); len(got) != 6 || !allZ(got, 401, 799) {
		t.Errorf("diagonal and down: sources %v, want 6 at z 401 / 799", got)
	}
	// Flying (not standing on ground): the bottom face stays: 6 and 7 points.
	if got := from(FromCell(Melee, grid.C(0, 0, 1), unit(1, 0, 0), false, none)); len(got) != 6 {
		t.Errorf("flying, adjacent and down: %d sources, want 6", len(got))
	}
	if got := from(FromCell(Melee, grid.C(0, 0, 1), unit(1, 1, 0), false, none)); len(got) != 7 {
		t.Errorf("flying, diagonal and down: %d sources, want 7", len(got))
	}
	// Straight down, the bottom face is the only one turned toward the target: it is kept
	// (SPEC-silent; otherwise there would be no source point at all).
	if got := from(FromCell(Melee, grid.C(0, 0, 1), unit(0, 0, 0), true, none)); len(got) != 4 {
		t.Errorf("straight down: %d sources, want 4", len(got))
	}
	// Upward: the east and top faces, 6 points, no adjustment (z = 1, 399).
	r = FromCell(Melee, grid.C(0, 0, 0), unit(1, 0, 1), true, none)
	if got := from(r); len(got) != 6 || !allZ(got, 1, 399) {
		t.Errorf("upward: sources %v, want 6 at z 1 / 399", got)
	}
}

// §5.4 ruling R1: a melee target's lowest corners stand on the fill of the cell they belong
// to. A Large target (2 × 2, height 1) at (1,0,0) seen from the centre of (0,0,0) shows its
// west face: the cells (1,0,0) and (1,1,0), corners x = 401, y ∈ {1, 399, 401, 799},
// z ∈ {1, 399}. (1,0,0) has a step of 100: its two lowest corners rise to 101; (1,1,0) has
// 398: its lowest corners would reach 399 and are dropped. A fill elsewhere (2,0,0), on the
// target's far side, changes nothing. From below the target's floor, or with no solids, the
// corners stay where they are.
func TestMeleeTargetPoints_5_4_R1(t *testing.T) {
	tg := Target{Space: grid.Space{Anchor: grid.C(1, 0, 0), Size: 2, Height: 1}}
	s := solids(board.Solid{Cell: grid.C(1, 0, 0), Fill: 100}, board.Solid{Cell: grid.C(1, 1, 0), Fill: 398},
		board.Solid{Cell: grid.C(2, 0, 0), Fill: 200})
	got := MeleeTargetPoints(nil, los.Centre(grid.C(0, 0, 0)), tg, s)
	want := []los.Point{pt(401, 1, 101), pt(401, 399, 101), pt(401, 1, 399), pt(401, 399, 399), pt(401, 401, 399), pt(401, 799, 399)}
	if !samePoints(got, want) {
		t.Errorf("on the steps: %v, want %v", got, want)
	}
	plain := TargetPoints(nil, los.Centre(grid.C(0, 0, 0)), tg, false)
	if got := MeleeTargetPoints(nil, los.Centre(grid.C(0, 0, 0)), tg, nil); !samePoints(got, plain) || len(got) != 8 {
		t.Errorf("no solids: %v, want %v", got, plain)
	}
	below := los.Centre(grid.C(0, 0, -1))
	if got := MeleeTargetPoints(nil, below, tg, s); !samePoints(got, TargetPoints(nil, below, tg, false)) {
		t.Errorf("from below: %v, want the corners at the floor", got)
	}
	// The prone flag changes nothing; the points are appended after dst.
	tg.Prone = true
	dst := []los.Point{pt(7, 7, 7)}
	if got := MeleeTargetPoints(dst, los.Centre(grid.C(0, 0, 0)), tg, s); len(got) != 7 || got[0] != pt(7, 7, 7) || !samePoints(got[1:], want) {
		t.Errorf("prone, appended: %v", got)
	}
}

// §5.4 ruling R2: a standing melee attacker's segments are judged without the ground under its
// space — the cells just below its lowest level, under its whole footprint — and a flying
// one's against every solid. A Large attacker (2 × 2, height 1) stands in (0,0,1)–(1,1,1) on
// the blocks (0..1, 0..1, 0); the target (2,0,0) is adjacent and down from the cell (1,0,1).
// Standing: 4 × 6 = 24 segments, nothing else solid, 0 blocked. Flying: the block (1,0,0)
// counts and the bottom face is used; 6 × 6 = 36 with 12 blocked (the ledge of
// TestCover_5_4_MeleeDownFromLedge one cell east). FromCell on the cell alone (a one-cell
// attacker) leaves out (1,0,0) as well. A block under the target's side, (2,1,0), is not
// ground of the attacker's: from (1,1,1) against (2,2,0), diagonal and down, 6 × 7 = 42
// segments, none blocked without it and 7 with it (TestCover_5_4_MeleeDownFromLedgeOtherSolidsBlock
// one cell east and south).
func TestFromCellOf_5_4_R2(t *testing.T) {
	var cells []board.Solid
	for y := 0; y <= 1; y++ {
		for x := 0; x <= 1; x++ {
			cells = append(cells, full(x, y, 0))
		}
	}
	s := solids(cells...)
	a := grid.Space{Anchor: grid.C(0, 0, 1), Size: 2, Height: 1}
	tg := unit(2, 0, 0)
	if r := FromCellOf(Melee, a, grid.C(1, 0, 1), tg, true, s); r.Total() != 24 || r.Blocked != 0 {
		t.Errorf("standing: %d/%d, want 0/24", r.Blocked, r.Total())
	}
	if r := FromCellOf(Melee, a, grid.C(1, 0, 1), tg, false, s); r.Total() != 36 || r.Blocked != 12 {
		t.Errorf("flying: %d/%d, want 12/36", r.Blocked, r.Total())
	}
	if r := FromCell(Melee, grid.C(1, 0, 1), tg, true, s); r.Total() != 24 || r.Blocked != 0 {
		t.Errorf("FromCell, standing: %d/%d, want 0/24", r.Blocked, r.Total())
	}
	r, from, ok := FromSpace(Melee, a, tg, true, s)
	if !ok || from != grid.C(1, 0, 1) || r.Blocked != 0 {
		t.Errorf("FromSpace, standing: %d/%d from %v (%v), want 0 from (1,0,1)", r.Blocked, r.Total(), from, ok)
	}
	diag := Target{Space: grid.Unit(grid.C(2, 2, 0))}
	without := FromCellOf(Melee, a, grid.C(1, 1, 1), diag, true, s)
	rim := FromCellOf(Melee, a, grid.C(1, 1, 1), diag, true, solids(append(cells, full(2, 1, 0))...))
	if without.Blocked != 0 || without.Total() != 42 || rim.Blocked != 7 || rim.Total() != 42 {
		t.Errorf("diagonal and down: %d/%d without the rim (want 0/42), %d/%d with it (want 7/42)",
			without.Blocked, without.Total(), rim.Blocked, rim.Total())
	}
}

// The ground left out answers Regions questions as the board does (fewer solids: an empty
// box stays empty), and says nothing for a board that does not answer them.
func TestGroundless_Regions(t *testing.T) {
	s := solids(full(5, 5, 0))
	g := &groundless{s: los.Prepare(s), x0: 0, y0: 0, x1: 0, y1: 0, z: -1}
	if !g.Empty(grid.Box{Min: grid.C(0, 0, 0), Max: grid.C(1, 1, 1)}) || g.Empty(grid.Box{Min: grid.C(4, 4, 0), Max: grid.C(6, 6, 0)}) {
		t.Errorf("Empty does not follow the board's")
	}
	if (&groundless{s: los.Prepare(fillMap{})}).Empty(grid.Box{Min: grid.C(0, 0, 0), Max: grid.C(1, 1, 1)}) {
		t.Errorf("a board without Regions: Empty must answer false")
	}
	if g.Fill(grid.C(0, 0, -1)) != 0 || g.Fill(grid.C(5, 5, 0)) != board.Full {
		t.Errorf("Fill: %d, %d", g.Fill(grid.C(0, 0, -1)), g.Fill(grid.C(5, 5, 0)))
	}
}

type fillMap map[grid.Cell]int

func (m fillMap) Fill(c grid.Cell) int { return m[c] }

// §5.4 ranged: the one corner of the attacker's cell (among those turned toward the target)
// that leaves the least cover.
//
// A low wall (fill 0.5, up to z = 200) stands in (1,0,0); the target is (4,0,0), whose west
// corners are x = 1601, z ∈ {121, 399}. From a lower corner (399, y, 1) every segment is below
// z = 134 over the wall: 4 of 4 blocked. From an upper corner (399, y, 399) the lowest segment
// is still at z ≈ 306 at x = 800: 0 of 4. The first such corner in z, y, x order is
// (399, 1, 399). From the cell's centre (an area source) the segments to the low corners are
// at z ≈ 189 at x = 400: 2 of 4.
func TestFromCell_5_4_RangedPicksLeastCover(t *testing.T) {
	s := solids(board.Solid{Cell: grid.C(1, 0, 0), Fill: 200})
	tg := unit(4, 0, 0)
	for _, k := range []Kind{Ranged, Reach} {
		r := FromCell(k, grid.C(0, 0, 0), tg, true, s)
		if r.Blocked != 0 || r.Total() != 4 || r.Segments[0].From != pt(399, 1, 399) {
			t.Errorf("kind %d: %d of %d blocked from %v, want 0 of 4 from (399, 1, 399)", k, r.Blocked, r.Total(), r.Segments[0].From)
		}
	}
	r := FromCell(Area, grid.C(0, 0, 0), tg, true, s)
	if r.Blocked != 2 || r.Total() != 4 {
		t.Errorf("area: %d of %d blocked, want 2 of 4", r.Blocked, r.Total())
	}
	// Brute force: no corner does better than the one chosen, on random small boards.
	rnd := newRand(7)
	for i := 0; i < 300; i++ {
		s := randomSolids(rnd, 6, 6, 2, 8)
		a := grid.C(rnd.IntN(6), rnd.IntN(6), rnd.IntN(2))
		tg := Target{Space: grid.Space{Anchor: grid.C(rnd.IntN(6), rnd.IntN(6), rnd.IntN(2)), Size: 1 + rnd.IntN(2), Height: 1 + rnd.IntN(2)}}
		if tg.Space.Contains(a) {
			continue
		}
		best := FromCell(Ranged, a, tg, true, s)
		for _, p := range turnedCorners(a, tg.Space) {
			r := FromPoint(p, tg, s)
			if r.Total() > 0 && best.Total() > 0 && r.Blocked*best.Total() < best.Blocked*r.Total() {
				t.Fatalf("attacker %v target %+v: corner %v leaves %d/%d, the chosen one %d/%d",
					a, tg, p, r.Blocked, r.Total(), best.Blocked, best.Total())
			}
		}
	}
}

// turnedCorners is every inset corner of c on a face of c turned toward the space t: on an
// axis where t lies wholly below c, the corners at offset 1 (the low face); wholly above, those
// at offset 399.
func turnedCorners(c grid.Cell, t grid.Space) []los.Point {
	var out []los.Point
	o := los.Vertex(c)
	cl, tlo, thi := [3]int{c.X, c.Y, c.Z}, t.Min(), t.Max()
	lo, hi := [3]int{tlo.X, tlo.Y, tlo.Z}, [3]int{thi.X, thi.Y, thi.Z}
	for _, dz := range []int64{1, 399} {
		for _, dy := range []int64{1, 399} {
			for _, dx := range []int64{1, 399} {
				d := [3]int64{dx, dy, dz}
				turned := false
				for k := range 3 {
					turned = turned || hi[k] < cl[k] && d[k] == 1 || lo[k] > cl[k] && d[k] == 399
				}
				if turned {
					out = append(out, o.Add(pt(dx, dy, dz)))
				}
			}
		}
	}
	return out
}

// §5.2 diagonal pinch: two blocks meeting only along the edge x = y = 800. The centre line
// from (0,0) to (3,3) runs along x = y through (800, 800): blocked. With one block it only
// touches that block's edge: clear.
func TestCentreLine_5_2_Pinch(t *testing.T) {
	a, b := grid.C(0, 0, 0), grid.C(3, 3, 0)
	if CentreLine(a, b, solids(full(2, 1, 0), full(1, 2, 0))) {
		t.Errorf("the centre line squeezes through a diagonal pinch")
	}
	if !CentreLine(a, b, solids(full(2, 1, 0))) {
		t.Errorf("the centre line grazing one block's edge is blocked")
	}
	// The same with the pinch one level up only: the line at z = 200 passes below it.
	if !CentreLine(a, b, solids(full(2, 1, 1), full(1, 2, 1))) {
		t.Errorf("a pinch one level up blocks a line below it")
	}
}

// §5.3 Draw Steel: one clear corner-to-corner segment is enough. A wall along x = 2 with a
// one-square gap at (2,1); a at (0,0), b at (4,2). The segment from a's corner (399, 399) to
// b's (1601, 801) crosses the wall's column at y ∈ (533, 667), inside the gap: clear. Close
// the gap and every segment crosses x ∈ [800, 1200] at 1 < y < 1199, 0 < z < 400, inside the
// wall. Overlapping spaces always see each other.
func TestCornerLine_5_3(t *testing.T) {
	a, b := grid.Unit(grid.C(0, 0, 0)), grid.Unit(grid.C(4, 2, 0))
	var wall []board.Solid
	for y := -3; y <= 5; y++ {
		if y != 1 {
			wall = append(wall, full(2, y, 0))
		}
	}
	if !CornerLine(a, b, solids(wall...)) {
		t.Errorf("no line of effect through the gap at (2,1)")
	}
	if CornerLine(a, b, solids(append(wall, full(2, 1, 0))...)) {
		t.Errorf("line of effect through a closed wall")
	}
	if !CornerLine(grid.Space{Anchor: grid.C(0, 0, 0), Size: 3, Height: 1}, grid.Unit(grid.C(1, 1, 0)), solids(full(1, 1, 0))) {
		t.Errorf("overlapping spaces must see each other")
	}
}

// §5.5 grades, one row per column of the table, at the boundaries.
func TestGrades_5_5(t *testing.T) {
	tdgs := []struct {
		blocked, total int
		want           Grade
	}{
		{0, 0, Grade{Name: "none"}},
		{0, 4, Grade{Name: "none"}},
		{1, 5, Grade{Name: "none"}}, // f = 0.2 < ¼
		{1, 4, Grade{Name: "partial", Bonus: 2}},
		{2, 6, Grade{Name: "partial", Bonus: 2}}, // ⅓
		{2, 4, Grade{Name: "half", Bonus: 4}},
		{5, 7, Grade{Name: "half", Bonus: 4}}, // 0.71 < ¾
		{3, 4, Grade{Name: "full", Full: true}},
		{4, 4, Grade{Name: "full", Full: true}},
	}
	for _, c := range tdgs {
		if g := TDGS(c.blocked, c.total); g != c.want {
			t.Errorf("TDGS(%d/%d) = %+v, want %+v", c.blocked, c.total, g, c.want)
		}
	}
	ds := []struct {
		blocked, total int
		want           Grade
	}{
		{0, 0, Grade{Name: "none"}},
		{3, 7, Grade{Name: "none"}}, // < ½
		{2, 4, Grade{Name: "cover"}},
		{48, 49, Grade{Name: "cover"}},
		{4, 4, Grade{Name: "full", Full: true}},
	}
	for _, c := range ds {
		if g := DrawSteel(c.blocked, c.total); g != c.want {
			t.Errorf("DrawSteel(%d/%d) = %+v, want %+v", c.blocked, c.total, g, c.want)
		}
	}
}

// §5.2 is not monotone in the solids at grid edges and vertices, by design: a segment through
// a vertex where two lower cells meet only diagonally squeezes through a pinch (blocked); add
// the third lower cell and the solids around the vertex form one L-shaped piece that the
// segment only touches (a graze, clear). Source: the centre of (0,0,0); target (2,2,2), whose
// nearest corner (801, 801, 801) lies on the diagonal through the vertex (400, 400, 400).
// This is why the monotonicity property below is stated for segments that avoid grid edges.
func TestFromPoint_5_2_AddingSolidCanClearAVertex(t *testing.T) {
	src := los.Centre(grid.C(0, 0, 0))
	corner := pt(801, 801, 801)
	seg := func(s *board.Solids) bool { return los.Blocked(src, corner, s) }
	pinch := solids(full(1, 0, 0), full(0, 1, 0))
	notch := solids(full(1, 0, 0), full(0, 1, 0), full(1, 1, 0))
	if !seg(pinch) || seg(notch) {
		t.Errorf("pinch blocked=%v (want true), L-notch blocked=%v (want false)", seg(pinch), seg(notch))
	}
	found := false
	for _, s := range FromPoint(src, unit(2, 2, 2), notch).Segments {
		found = found || s.To == corner
	}
	if !found {
		t.Errorf("(801, 801, 801) is not among the target's points")
	}
}

func samePoints(a, b []los.Point) bool {
	if len(a) != len(b) {
		return false
	}
	for _, p := range a {
		if !slices.Contains(b, p) {
			return false
		}
	}
	return true
}

func allZ(pts []los.Point, zs ...int64) bool {
	for _, p := range pts {
		if !slices.Contains(zs, p.Z) {
			return false
		}
	}
	return true
}

// §5.4: corners lists, once each and in z, y, x order, the four inset corners of every cell
// of the box on each turned face. The reference builds them face by face, cell by cell, as
// the SPEC words it, then removes repeats (points on two faces) and sorts.
func TestCorners_5_4_FaceByFace(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		lo := grid.C(r.IntN(9)-4, r.IntN(9)-4, r.IntN(5)-2)
		hi := lo.Add(grid.C(r.IntN(3), r.IntN(3), r.IntN(3)))
		faces := [3]int{r.IntN(3) - 1, r.IntN(3) - 1, r.IntN(3) - 1}
		l, h := [3]int{lo.X, lo.Y, lo.Z}, [3]int{hi.X, hi.Y, hi.Z}
		seen := map[los.Point]bool{}
		var want []los.Point
		for a := range 3 {
			if faces[a] == 0 {
				continue
			}
			for x := l[0]; x <= h[0]; x++ {
				for y := l[1]; y <= h[1]; y++ {
					for z := l[2]; z <= h[2]; z++ {
						c := [3]int{x, y, z}
						if faces[a] < 0 && c[a] != l[a] || faces[a] > 0 && c[a] != h[a] {
							continue // not a cell on this face
						}
						for k := range 8 { // the cell's 8 inset corners; keep the 4 on the face
							var p [3]int64
							for ax := range 3 {
								p[ax] = int64(c[ax])*400 + 1
								if k>>ax&1 == 1 {
									p[ax] = int64(c[ax]+1)*400 - 1
								}
							}
							if (k>>a&1 == 1) != (faces[a] > 0) {
								continue
							}
							if q := (los.Point{X: p[0], Y: p[1], Z: p[2]}); !seen[q] {
								seen[q] = true
								want = append(want, q)
							}
						}
					}
				}
			}
		}
		slices.SortFunc(want, func(p, q los.Point) int {
			return cmp.Or(cmp.Compare(p.Z, q.Z), cmp.Compare(p.Y, q.Y), cmp.Compare(p.X, q.X))
		})
		if got := corners(nil, grid.Box{Min: lo, Max: hi}, faces); !slices.Equal(got, want) {
			t.Fatalf("corners(%v, %v, %v) = %v\nwant %v", lo, hi, faces, got, want)
		}
	}
}
