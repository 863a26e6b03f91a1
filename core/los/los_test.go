package los

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/grid"
)

// at is the lattice point at world coordinates (x, y, z), in cells.
func at(x, y, z float64) Point {
	return Point{int64(math.Round(x * Unit)), int64(math.Round(y * Unit)), int64(math.Round(z * Unit))}
}

// TestBlockedHand checks segments worked out by hand on ASCII boards (SPEC §5.2, §1.6).
// Each picture is one level, z = 0 first; '#' is a full block, '_' a low wall (fill 200),
// '.' empty. Row y = 0 is the top line.
func TestBlockedHand(t *testing.T) {
	pillar := []string{`
		...
		.#.
		...`}
	wall2 := []string{`
		.#.
		.#.
		...`}
	diag := []string{`
		#.
		.#`}
	single := []string{`
		#.
		..`}
	low := []string{`._..`}
	lowDiag := []string{`
		_.
		._`}
	// Two blocks meeting along a horizontal edge (x axis at y = 1, z = 1): (0,0,0) and (0,1,1).
	edge3 := []string{"#\n.", ".\n#"}
	edge3single := []string{"#\n.", ".\n."}
	// Two blocks meeting at one corner point (1,1,1): (0,0,0) and (1,1,1).
	corner3 := []string{"#.\n..", "..\n.#"}
	// Full blocks at (0,0) and (1,1) with a low wall at (0,1) closing the corner between
	// them below height 0.5: up to the wall's top the edge x = y = 1 is the inner corner of
	// an L, above it a diagonal pinch.
	lCorner := []string{`
		#.
		_#`}
	stack := []string{"#", "#"}
	wallOnBlock := []string{"#", "_"}
	blockOnWall := []string{"_", "#"}
	tests := []struct {
		name   string
		levels []string
		a, b   Point
		want   bool
	}{
		{"§5.2 through a full block", pillar, at(0.5, 1.5, 0.5), at(2.5, 1.5, 0.5), true},
		{"§5.2 along the outer face of one block", pillar, at(0.5, 1, 0.5), at(2.5, 1, 0.5), false},
		{"§5.2 along the outer face, ending on it", pillar, at(1.2, 1, 0.5), at(1.8, 1, 0.5), false},
		{"§5.2 along a face shared by two blocks", wall2, at(0.5, 1, 0.5), at(2.5, 1, 0.5), true},
		{"§5.2 across a face shared by two blocks, only at one point", wall2, at(1.5, 1, 0.5), at(1.5, 1, 0.5), true},
		{"§5.2 along the outer face of two blocks, across their seam", wall2, at(1, 0.2, 0.5), at(1, 1.8, 0.5), false},
		{"§5.2 through the corner where two blocks meet diagonally", diag, at(0.5, 1.5, 0.5), at(1.5, 0.5, 0.5), true},
		{"§5.2 ending at the diagonal corner", diag, at(0.5, 1.5, 0.5), at(1, 1, 0.5), true},
		{"§5.2 touching one block's corner", single, at(0.5, 1.5, 0.5), at(1.5, 0.5, 0.5), false},
		{"§5.2 along a vertical edge between diagonal blocks", diag, at(1, 1, 0.2), at(1, 1, 0.8), true},
		{"§5.2 along one block's vertical edge", single, at(1, 1, 0.2), at(1, 1, 0.8), false},
		{"§5.2 up the vertical edge beside diagonal blocks, above them", diag, at(1, 1, 1.0025), at(1, 1, 2), false},
		{"§5.2 up the vertical edge from the top end of the pinch", diag, at(1, 1, 1), at(1, 1, 2), true},
		{"§5.2 down onto the top corner of diagonal blocks", diag, at(1, 1, 2), at(1, 1, 1), true},
		{"§5.2 through a horizontal edge between diagonal blocks (3-D)", edge3, at(0.5, 0.5, 1.5), at(0.5, 1.5, 0.5), true},
		{"§5.2 along a horizontal edge between diagonal blocks (3-D)", edge3, at(0.1, 1, 1), at(0.9, 1, 1), true},
		{"§5.2 through one block's horizontal edge (3-D)", edge3single, at(0.5, 0.5, 1.5), at(0.5, 1.5, 0.5), false},
		{"§5.2 along one block's horizontal edge (3-D)", edge3single, at(0.1, 1, 1), at(0.9, 1, 1), false},
		{"§5.2 through the corner point of diagonal blocks (3-D)", corner3, at(0.5, 1.5, 1.5), at(1.5, 0.5, 0.5), true},
		{"§5.2 through the corner point of diagonal blocks, other way (3-D)", corner3, at(1.5, 0.5, 1.5), at(0.5, 1.5, 0.5), true},
		{"§5.2 through the corner point of one block (3-D)", []string{"#.\n..", "..\n.."}, at(0.5, 1.5, 1.5), at(1.5, 0.5, 0.5), false},
		{"§1.6 over a low wall", low, at(0.5, 0.5, 0.75), at(3.5, 0.5, 0.75), false},
		{"§1.6 through a low wall", low, at(0.5, 0.5, 0.25), at(3.5, 0.5, 0.25), true},
		{"§1.6 grazing the top of a low wall", low, at(0.5, 0.5, 0.5), at(3.5, 0.5, 0.5), false},
		{"§1.6 dipping onto the top of a low wall", low, at(0.5, 0.5, 0.9), at(1.5, 0.5, 0.5), false},
		{"§1.6 dipping just below the top of a low wall", low, at(0.5, 0.5, 0.9), at(1.5, 0.5, 0.4975), true},
		{"§1.6 rising over the top edge of a low wall", low, at(0.5, 0.5, 0.25), at(1.5, 0.5, 0.75), false},
		{"§1.6 falling through the top edge of a low wall", low, at(0.5, 0.5, 0.75), at(1.5, 0.5, 0.25), true},
		{"§1.6 low walls meeting diagonally, below their tops", lowDiag, at(1, 1, 0.1), at(1, 1, 0.4), true},
		{"§1.6 low walls meeting diagonally, above their tops", lowDiag, at(1, 1, 0.6), at(1, 1, 0.9), false},
		{"§1.6 low walls meeting diagonally, across the top end of their pinch", lowDiag, at(0.5, 1.5, 0.5), at(1.5, 0.5, 0.5), true},
		{"§1.6 low walls meeting diagonally, just above the top end of their pinch", lowDiag, at(0.5, 1.5, 0.5025), at(1.5, 0.5, 0.5025), false},
		{"§1.6 low walls meeting diagonally, through their tops' corner", lowDiag, at(1, 1, 0.5), at(1, 1, 0.5), true},
		{"§5.2 up an L's inner corner, ending at the wall top", lCorner, at(1, 1, 0.1), at(1, 1, 0.5), false},
		{"§5.2 up an L's inner corner, on past the wall top", lCorner, at(1, 1, 0.1), at(1, 1, 0.5025), true},
		{"§5.2 into an L's inner corner below the wall top", lCorner, at(1.5, 0.5, 0.25), at(1, 1, 0.25), false},
		{"§5.2 into an L's inner corner above the wall top", lCorner, at(1.5, 0.5, 0.75), at(1, 1, 0.75), true},
		{"§5.2 along the top face of a block", []string{"#", "."}, at(0.2, 0.5, 1), at(0.8, 0.5, 1), false},
		{"§5.2 along the top of two blocks, across their seam", []string{"##", ".."}, at(0.5, 0.5, 1), at(1.5, 0.5, 1), false},
		{"§5.2 along the face between stacked blocks", stack, at(0.2, 0.5, 1), at(0.8, 0.5, 1), true},
		{"§5.2 along the face between a block and a low wall on it", wallOnBlock, at(0.2, 0.5, 1), at(0.8, 0.5, 1), true},
		{"§5.2 along the underside of a block over a low wall", blockOnWall, at(0.2, 0.5, 1), at(0.8, 0.5, 1), false},
		{"§5.2 from a point inside a solid", pillar, at(1.5, 1.5, 0.5), at(5, 1.5, 0.5), true},
		{"§5.2 to a point inside a solid", pillar, at(5, 1.5, 0.5), at(1.25, 1.5, 0.5), true},
		{"§5.2 a single point inside a solid", pillar, at(1.5, 1.5, 0.5), at(1.5, 1.5, 0.5), true},
		{"§5.2 a single point on a face", pillar, at(1, 1.5, 0.5), at(1, 1.5, 0.5), false},
		{"§5.2 from a point on a face, outward", pillar, at(1, 1.5, 0.5), at(0.5, 1.5, 0.5), false},
		{"§5.2 from a point on a face, inward", pillar, at(1, 1.5, 0.5), at(1.0025, 1.5, 0.5), true},
		{"§5.2 a single point at a diagonal pinch", diag, at(1, 1, 0.5), at(1, 1, 0.5), true},
		{"§5.4 inset corners just outside a block's face", pillar, at(0.9975, 0.9975, 0.0025), at(2.0025, 0.9975, 0.9975), false},
		{"§5.4 inset corners just inside a block's face", pillar, at(0.9975, 1.0025, 0.0025), at(2.0025, 1.0025, 0.9975), true},
	}
	for _, tc := range tests {
		b := parseBoard(tc.levels...)
		if got := Blocked(tc.a, tc.b, b); got != tc.want {
			t.Errorf("%s: Blocked(%v, %v) = %v, want %v", tc.name, tc.a.World(), tc.b.World(), got, tc.want)
		}
		if got := Blocked(tc.b, tc.a, b); got != tc.want {
			t.Errorf("%s (reversed): Blocked = %v, want %v", tc.name, got, tc.want)
		}
		if want := refBlocked(tc.a, tc.b, refBoxes(b)); want != tc.want {
			t.Errorf("%s: the reference says %v, want %v", tc.name, want, tc.want)
		}
	}
}

// TestBlockedPictures draws what a cell centre sees on small boards, checked both ways:
// every cell must be marked as in the picture, nothing missing, nothing extra (SPEC §5.2,
// §5.3 tdgs: centre to centre).
func TestBlockedPictures(t *testing.T) {
	tests := []struct{ name, board, want string }{
		{"§5.2 one pillar", `
			.....
			.....
			..#..
			.....
			@....`, `
			...xx
			..xxx
			..#x.
			.....
			@....`},
		{"§5.2 two blocks meeting diagonally: the pinch blocks (2,1) and (3,0)", `
			.....
			.#...
			..#..
			@....
			.....`, `
			.xxxx
			.#xxx
			..#xx
			@....
			.....`},
		{"§5.2 one block: its corner does not block (2,1) and (3,0)", `
			.....
			.....
			..#..
			@....
			.....`, `
			....x
			...xx
			..#xx
			@....
			.....`},
		{"§1.6 a low wall with its top at centre height blocks nothing", `
			.....
			.....
			_____
			.....
			..@..`, `
			.....
			.....
			_____
			.....
			..@..`},
	}
	for _, tc := range tests {
		got := drawView(tc.board)
		if want := strings.Join(strings.Fields(tc.want), "\n"); got != want {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", tc.name, got, want)
		}
	}
}

// drawView parses a one-level picture with an '@' source cell and redraws it with every
// empty cell marked 'x' when the segment between the centres is blocked.
func drawView(picture string) string {
	rows := strings.Fields(picture)
	var src grid.Cell
	for y, line := range rows {
		if x := strings.IndexByte(line, '@'); x >= 0 {
			src = grid.C(x, y, 0)
		}
	}
	b := parseBoard(strings.ReplaceAll(picture, "@", "."))
	out := make([]string, len(rows))
	for y, line := range rows {
		row := []byte(line)
		for x, ch := range row {
			if ch != '.' {
				continue
			}
			if Blocked(Centre(src), Centre(grid.C(x, y, 0)), b) {
				row[x] = 'x'
			}
		}
		out[y] = string(row)
	}
	return strings.Join(out, "\n")
}

// TestRange checks the coordinate bound (MaxCoord): inside it Blocked decides, beyond it
// Blocked reports blocked and Check reports ErrRange, never overflowing or panicking.
func TestRange(t *testing.T) {
	b := parseBoard("#")
	far, near := Point{MaxCoord, MaxCoord, MaxCoord}, Point{-MaxCoord + 400, -MaxCoord + 400, -MaxCoord + 400}
	if blocked, err := Check(far, near, parseBoard(".")); blocked || err != nil {
		t.Errorf("Check across the whole range on an empty board = %v, %v", blocked, err)
	}
	// Through (200, 200, 200), the centre of the block.
	if !Blocked(far, near, b) || !Blocked(near, far, b) {
		t.Errorf("a segment across the whole range through the block is clear")
	}
	// Through (0, 0, 0), a corner of the block, never inside it.
	if Blocked(Point{MaxCoord, -MaxCoord, MaxCoord}, Point{-MaxCoord, MaxCoord, -MaxCoord}, b) {
		t.Errorf("a segment across the whole range past the block's corner is blocked")
	}
	for _, p := range []Point{{MaxCoord + 1, 0, 0}, {0, -MaxCoord - 1, 0}, {0, 0, math.MinInt64}, {math.MaxInt64, math.MaxInt64, math.MaxInt64}} {
		if !Blocked(p, Point{}, b) || !Blocked(Point{}, p, nil) {
			t.Errorf("Blocked with %v beyond MaxCoord is clear", p)
		}
		if _, err := Check(Point{}, p, b); !errors.Is(err, ErrRange) {
			t.Errorf("Check with %v: err = %v, want ErrRange", p, err)
		}
	}
	if Blocked(Point{}, Point{400, 400, 400}, nil) {
		t.Errorf("nil Solids blocks")
	}
}

// TestPoint checks the lattice helpers (SPEC §5.1).
func TestPoint(t *testing.T) {
	if got := Centre(grid.C(1, -2, 3)); got != (Point{600, -600, 1400}) {
		t.Errorf("Centre = %v", got)
	}
	if got := Vertex(grid.C(1, -2, 3)); got != (Point{400, -800, 1200}) {
		t.Errorf("Vertex = %v", got)
	}
	if got := (Point{600, -1, 1200}).World(); got != [3]float64{1.5, -0.0025, 3} {
		t.Errorf("World = %v", got)
	}
	for _, tc := range []struct {
		p    Point
		want grid.Cell
	}{{Point{0, 0, 0}, grid.C(0, 0, 0)}, {Point{399, -1, -400}, grid.C(0, -1, -1)}, {Point{400, -401, 401}, grid.C(1, -2, 1)}} {
		if got := tc.p.Cell(); got != tc.want {
			t.Errorf("%v.Cell() = %v, want %v", tc.p, got, tc.want)
		}
	}
	if p := (Point{1, 2, 3}).Add(Point{10, 20, 30}).Sub(Point{1, 1, 1}); p != (Point{10, 21, 32}) {
		t.Errorf("Add/Sub = %v", p)
	}
}

// wallOnly is a Solids with no solid cells and one thin wall: the plane x = 1 (lattice 400)
// blocks every segment that crosses it or touches it.
type wallOnly struct{}

func (wallOnly) Fill(grid.Cell) int { return 0 }
func (wallOnly) WallBlocked(a, b Point) bool {
	return min(a.X, b.X) <= Unit && max(a.X, b.X) >= Unit
}

// hiding wraps a Solids as a wrapper of the board does (cover's ground-less board, SPEC §5.4
// R2): it passes Fill on, and WallBlocked only when the Solids it wraps answers Walls.
type hiding struct{ s Solids }

func (h hiding) Fill(c grid.Cell) int { return h.s.Fill(c) }
func (h hiding) WallBlocked(a, b Point) bool {
	w, ok := h.s.(Walls)
	return ok && w.WallBlocked(a, b)
}

// A Prepared judges as the Solids it holds, walls included (SPEC §5.6), and a wrapper of a
// *Prepared still sees the walls: a *Prepared answers Walls and Regions for what it holds.
func TestPrepared(t *testing.T) {
	across, beside := [2]Point{at(0.5, 0.5, 0.5), at(1.5, 0.5, 0.5)}, [2]Point{at(1.5, 0.5, 0.5), at(2.5, 1.5, 0.5)}
	p := Prepare(wallOnly{})
	for _, s := range []struct {
		name string
		s    Solids
	}{{"the Solids", wallOnly{}}, {"its Prepared", &p}, {"a Prepared of its Prepared", func() Solids { q := Prepare(&p); return &q }()}, {"a wrapper of its Prepared", hiding{&p}}} {
		if !Blocked(across[0], across[1], s.s) || Blocked(beside[0], beside[1], s.s) {
			t.Errorf("%s: across the wall %v, beside it %v; want true, false", s.name, Blocked(across[0], across[1], s.s), Blocked(beside[0], beside[1], s.s))
		}
	}
	if !p.Blocked(across[0], across[1]) || p.Blocked(beside[0], beside[1]) {
		t.Errorf("Prepared.Blocked: across the wall %v, beside it %v", p.Blocked(across[0], across[1]), p.Blocked(beside[0], beside[1]))
	}
	if p.Empty(grid.Box{}) {
		t.Errorf("Empty: a Solids without Regions must answer false")
	}
	var none Prepared // of a nil Solids: nothing blocks
	if none.Fill(grid.C(0, 0, 0)) != 0 || none.Blocked(across[0], across[1]) || none.WallBlocked(across[0], across[1]) {
		t.Errorf("a Prepared of nil Solids blocks")
	}
	if _, err := p.Check(Point{X: MaxCoord + 1}, across[1]); !errors.Is(err, ErrRange) {
		t.Errorf("Check past MaxCoord: %v, want ErrRange", err)
	}
}

// Blocked allocates nothing, as its documentation says, prepared or not.
func TestBlockedAllocatesNothing(t *testing.T) {
	b := solidsOf(parseBoard("#..\n...\n..#", "...\n._.\n..."))
	p := Prepare(b)
	a, c, d := at(0.5, 2.5, 0.5), at(2.5, 0.25, 1.5), at(2.5, 0.5, 0.5) // a to c climbs; a to d is flat
	if n := testing.AllocsPerRun(100, func() {
		Blocked(a, c, b)
		Blocked(a, d, b)
		p.Blocked(a, c)
		Blocked(a, d, &p)
	}); n != 0 {
		t.Errorf("Blocked allocates %v times a run", n)
	}
}
