package cover

import (
	"math/rand/v2"
	"testing"

	"github.com/aoekit/aoekit/core/board"
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/los"
	"github.com/aoekit/aoekit/core/shadow"
	"github.com/aoekit/aoekit/core/walls"
)

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// randomFill is a fill in lattice units: mostly full blocks, some low walls, steps and
// arbitrary heights.
func randomFill(r *rand.Rand) int {
	switch r.IntN(5) {
	case 0, 1:
		return board.Full
	case 2:
		return 200
	case 3:
		return 120
	}
	return 1 + r.IntN(board.Full)
}

// randomSolids puts n solid cells on an nx × ny × nz board.
func randomSolids(r *rand.Rand, nx, ny, nz, n int) *board.Solids {
	var cells []board.Solid
	for range n {
		cells = append(cells, board.Solid{Cell: grid.C(r.IntN(nx), r.IntN(ny), r.IntN(nz)), Fill: randomFill(r)})
	}
	return board.New(cells)
}

func randomSpace(r *rand.Rand, nx, ny, nz int) grid.Space {
	return grid.Space{Anchor: grid.C(r.IntN(nx), r.IntN(ny), r.IntN(nz)), Size: 1 + r.IntN(2), Height: 1 + r.IntN(2)}
}

// Property (§5.3): line of effect is symmetric, centre to centre and corner to corner.
func TestProperty_5_3_LineOfEffectSymmetric(t *testing.T) {
	r := newRand(1)
	for i := 0; i < 400; i++ {
		s := randomSolids(r, 8, 8, 3, 4+r.IntN(20))
		for j := 0; j < 10; j++ {
			a, b := grid.C(r.IntN(8), r.IntN(8), r.IntN(3)), grid.C(r.IntN(8), r.IntN(8), r.IntN(3))
			if CentreLine(a, b, s) != CentreLine(b, a, s) {
				t.Fatalf("CentreLine(%v, %v) is not symmetric", a, b)
			}
			sa, sb := randomSpace(r, 8, 8, 3), randomSpace(r, 8, 8, 3)
			if CornerLine(sa, sb, s) != CornerLine(sb, sa, s) {
				t.Fatalf("CornerLine(%+v, %+v) is not symmetric", sa, sb)
			}
		}
	}
}

// A Source answers as CornerLine from its space, to every space, whatever it has answered
// before (its corners are kept by turned faces).
func TestSource_5_3_SeesAsCornerLine(t *testing.T) {
	r := newRand(3)
	for i := 0; i < 200; i++ {
		s := randomSolids(r, 8, 8, 3, 4+r.IntN(20))
		a := randomSpace(r, 8, 8, 3)
		src := NewSource(a)
		for j := 0; j < 40; j++ {
			b := randomSpace(r, 8, 8, 3)
			if j%3 == 0 {
				b = grid.Unit(grid.C(r.IntN(8), r.IntN(8), r.IntN(3)))
			}
			if got, want := src.Sees(b, s), CornerLine(a, b, s); got != want {
				t.Fatalf("NewSource(%+v).Sees(%+v) = %v; CornerLine says %v", a, b, got, want)
			}
		}
	}
}

// Property (§5.2, §5.5): on a one-level board of full blocks, adding a block never reduces
// the blocked segments of a cover check, segment by segment, nor the grade. The point set
// does not depend on the solids, so the segments line up. Why it holds: every source and
// target point lies strictly inside level 0 and no segment runs parallel to the x or y axis
// (centres sit at 400k+200, corners at 400k+1 or 400k+399), so the question is planar and a
// segment through a vertical grid edge crosses from one quadrant to the opposite one: if the
// new block fills either of those it is blocked outright, and otherwise the pinch (or graze)
// at the edge is unchanged. A new block in the target's own cell is included: it puts the
// target's corners inside solid matter, which blocks every segment (more cover, as expected).
func TestProperty_5_5_AddingBlockNeverReducesCover(t *testing.T) {
	r := newRand(2)
	for i := 0; i < 600; i++ {
		var cells []board.Solid
		for range 3 + r.IntN(20) {
			cells = append(cells, full(r.IntN(10), r.IntN(10), 0))
		}
		src := grid.C(r.IntN(10), r.IntN(10), 0)
		tg := Target{Space: grid.Space{Anchor: grid.C(r.IntN(10), r.IntN(10), 0), Size: 1 + r.IntN(2), Height: 1}, Prone: r.IntN(4) == 0}
		before := FromPoint(los.Centre(src), tg, board.New(cells))
		extra := full(r.IntN(10), r.IntN(10), 0)
		after := FromPoint(los.Centre(src), tg, board.New(append(cells, extra)))
		if after.Total() != before.Total() {
			t.Fatalf("the point set changed with the solids")
		}
		for k := range before.Segments {
			if before.Segments[k].Blocked && !after.Segments[k].Blocked {
				t.Fatalf("adding %v clears segment %v → %v (solids %v)", extra.Cell, before.Segments[k].From, before.Segments[k].To, cells)
			}
		}
		gb, ga := TDGS(before.Blocked, before.Total()), TDGS(after.Blocked, after.Total())
		if rank(ga) < rank(gb) {
			t.Fatalf("grade fell from %s to %s", gb.Name, ga.Name)
		}
	}
}

// Property (§5.2): in 3-D, with partial fills, adding solid matter (a new cell or a higher
// fill) never clears a segment that passes through no point on two grid planes at once.
// Away from grid edges and vertices at most two cells meet at a point and their covered
// octants always form one piece, so a point is bad exactly when it is inside the solid
// matter, which only grows. (At edges and vertices it can shrink: see
// TestFromPoint_5_2_AddingSolidCanClearAVertex.)
func TestProperty_5_2_MoreSolidNeverClearsOffEdges(t *testing.T) {
	r := newRand(3)
	tested := 0
	for i := 0; i < 3000; i++ {
		var cells []board.Solid
		for range 4 + r.IntN(30) {
			cells = append(cells, board.Solid{Cell: grid.C(r.IntN(6), r.IntN(6), r.IntN(3)), Fill: randomFill(r)})
		}
		a, b := randomPoint(r), randomPoint(r)
		if throughEdge(a, b) {
			continue
		}
		tested++
		before := los.Blocked(a, b, board.New(cells))
		extra := board.Solid{Cell: grid.C(r.IntN(6), r.IntN(6), r.IntN(3)), Fill: randomFill(r)}
		if before && !los.Blocked(a, b, board.New(append(cells, extra))) {
			t.Fatalf("adding %+v clears %v → %v (solids %v)", extra, a, b, cells)
		}
	}
	if tested < 1000 {
		t.Fatalf("only %d segments avoided grid edges", tested)
	}
}

// randomPoint is a lattice point on the 6 × 6 × 3 board, often a cover point (a centre, an
// inset corner, a boosted corner) and never on a grid plane.
func randomPoint(r *rand.Rand) los.Point {
	c := func(n int) int64 {
		base := int64(r.IntN(n)) * los.Unit
		switch r.IntN(4) {
		case 0:
			return base + 200
		case 1:
			return base + 1
		case 2:
			return base + 399
		}
		return base + 1 + r.Int64N(399)
	}
	return los.Point{X: c(6), Y: c(6), Z: c(3)}
}

// throughEdge reports whether the segment a–b has a point with two or more coordinates on
// grid planes (multiples of 400). Endpoints are never on a plane here, so an axis with no
// travel never lies in one.
func throughEdge(a, b los.Point) bool {
	p, q := [3]int64{a.X, a.Y, a.Z}, [3]int64{b.X, b.Y, b.Z}
	for i := range 3 {
		di := q[i] - p[i]
		if di == 0 {
			continue
		}
		lo, hi := min(p[i], q[i]), max(p[i], q[i])
		for k := (lo/los.Unit + 1) * los.Unit; k <= hi; k += los.Unit {
			// At t = (k − p_i)/d_i, axis j is at p_j + (k − p_i)·d_j/d_i.
			for j := range 3 {
				dj := q[j] - p[j]
				if j == i || dj == 0 {
					continue
				}
				num := p[j]*di + (k-p[i])*dj // coordinate j times d_i
				if num%(los.Unit*di) == 0 {
					return true
				}
			}
		}
	}
	return false
}

func TestThroughEdge(t *testing.T) {
	if !throughEdge(pt(200, 200, 200), pt(801, 801, 801)) {
		t.Errorf("the diagonal through (400, 400, 400) is through a vertex")
	}
	if !throughEdge(pt(200, 200, 100), pt(600, 600, 150)) {
		t.Errorf("the segment through the vertical edge x = y = 400 is through an edge")
	}
	if throughEdge(pt(200, 200, 200), pt(1201, 401, 121)) {
		t.Errorf("(200,200,200)–(1201,401,121) passes no edge")
	}
}

// rank orders the TDGS grades: none, partial, half, full.
func rank(g Grade) int {
	if g.Full {
		return 3
	}
	return g.Bonus / 2
}

// wallSolids is solids with thin walls (SPEC §5.6), counting the cells it is asked about: it
// hides the board's level arrays (los.Layers), so that every look goes through Fill.
type wallSolids struct {
	*board.Solids
	ix    *walls.Index
	looks *int
}

func (s wallSolids) Fill(c grid.Cell) int            { *s.looks++; return s.Solids.Fill(c) }
func (s wallSolids) WallBlocked(p, q los.Point) bool { return s.ix.Blocked(p, q) }
func (wallSolids) Layer(int) ([]uint8, int, grid.Cell, []uint16) {
	return nil, 0, grid.Cell{}, nil
}

// randomWalls is n closed walls on or off the grid lines of an 8 × 8 board, some with heights.
func randomWalls(r *rand.Rand, n int) []walls.Wall {
	var ws []walls.Wall
	for len(ws) < n {
		a := [2]int64{int64(r.IntN(33)) * 100, int64(r.IntN(33)) * 100}
		b := [2]int64{a[0] + int64(r.IntN(13)-6)*100, a[1] + int64(r.IntN(13)-6)*100 + int64(r.IntN(2))}
		if a == b {
			continue
		}
		w := walls.Wall{A: a, B: b, Bottom: walls.NoBottom, Top: walls.NoTop}
		if r.IntN(4) == 0 {
			w.Bottom, w.Top = int64(r.IntN(3))*200, 400+int64(r.IntN(3))*200
		}
		ws = append(ws, w)
	}
	return ws
}

// A Source given a shadow.Field still answers as CornerLine (SPEC §5.3), to every cell and
// every space, on boards of one and three levels with solids and thin walls; and on a board
// with nothing near the source's lines the field decides them all: Sees looks at no cell.
func TestSource_5_3_SeesWithShadowAsCornerLine(t *testing.T) {
	r := newRand(4)
	looks := 0
	for i := 0; i < 150; i++ {
		nz := 1 + 2*(i%2)
		s := wallSolids{randomSolids(r, 8, 8, nz, 4+r.IntN(20)), nil, &looks}
		ws := randomWalls(r, r.IntN(6))
		s.ix = walls.New(ws)
		a := randomSpace(r, 8, 8, nz)
		board := grid.Box{Max: grid.C(7, 7, nz-1)}
		src := NewSource(a)
		src.Use(shadow.New(a.Box(), board, 1, int64(nz)*los.Unit-1, s, ws))
		for j := 0; j < 60; j++ {
			b := grid.Unit(grid.C(r.IntN(8), r.IntN(8), r.IntN(nz)))
			if j%4 == 0 {
				b = randomSpace(r, 8, 8, nz)
			}
			if got, want := src.Sees(b, s), CornerLine(a, b, s); got != want {
				t.Fatalf("board %d: NewSource(%+v) with a field: Sees(%+v) = %v; CornerLine says %v", i, a, b, got, want)
			}
		}
	}
	// Nothing on the board but a wall far off: every segment is certainly clear.
	far := []walls.Wall{{A: [2]int64{0, 7000}, B: [2]int64{400, 7000}, Bottom: walls.NoBottom, Top: walls.NoTop}}
	s := wallSolids{board.New(nil), walls.New(far), &looks}
	a := grid.Space{Anchor: grid.C(3, 3, 0), Size: 1, Height: 1}
	src := NewSource(a)
	src.Use(shadow.New(a.Box(), grid.Box{Max: grid.C(7, 7, 0)}, 1, los.Unit-1, s, far))
	looks = 0
	for y := range 8 {
		for x := range 8 {
			if !src.Sees(grid.Unit(grid.C(x, y, 0)), s) {
				t.Fatalf("open board: (%d, %d) not seen", x, y)
			}
		}
	}
	if looks != 0 {
		t.Errorf("open board: Sees looked at %d cells; the field should have decided every segment", looks)
	}
}

// A Source of NewSourceCells answers as AnyCellLine (SPEC §3.2: line of effect from any cell
// of the space), with a shadow.Field and without, to every cell and every space, on boards of
// one and three levels with solids and thin walls; and AnyCellLine, from every cell, sees at
// least what CornerLine from the whole space sees (a corner on a face the space turns toward
// b is one on a face its cell turns toward b), and sometimes more.
func TestSource_3_2_CellsSeeAsAnyCellLine(t *testing.T) {
	r := newRand(6)
	more := 0
	for i := 0; i < 150; i++ {
		nz := 1 + 2*(i%2)
		looks := 0
		s := wallSolids{randomSolids(r, 8, 8, nz, 4+r.IntN(24)), nil, &looks}
		ws := randomWalls(r, r.IntN(6))
		s.ix = walls.New(ws)
		a := randomSpace(r, 8, 8, nz)
		board := grid.Box{Max: grid.C(7, 7, nz-1)}
		walked, fielded := NewSourceCells(a), NewSourceCells(a)
		fielded.Use(shadow.New(a.Box(), board, 1, int64(nz)*los.Unit-1, s, ws))
		for j := 0; j < 60; j++ {
			b := grid.Unit(grid.C(r.IntN(8), r.IntN(8), r.IntN(nz)))
			if j%4 == 0 {
				b = randomSpace(r, 8, 8, nz)
			}
			want := AnyCellLine(a, b, s)
			if got, got2 := walked.Sees(b, s), fielded.Sees(b, s); got != want || got2 != want {
				t.Fatalf("board %d: NewSourceCells(%+v).Sees(%+v) = %v, with a field %v; AnyCellLine says %v", i, a, b, got, got2, want)
			}
			switch whole := CornerLine(a, b, s); {
			case whole && !want:
				t.Fatalf("board %d: CornerLine(%+v, %+v) is clear, but from no cell of it", i, a, b)
			case want && !whole:
				more++
			}
		}
	}
	if more == 0 {
		t.Errorf("from its cells a space never saw more than as a whole: the boards test nothing")
	}
	t.Logf("%d spaces seen from a cell and not by the whole space's corners", more)
}
