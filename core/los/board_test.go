package los

import (
	"math/rand/v2"
	"strconv"
	"strings"

	coreboard "github.com/aoekit/aoekit/core/board"
	"github.com/aoekit/aoekit/core/grid"
)

// board is a dense test board of nx × ny × nz cells whose lowest north-west cell is org.
// Cells outside it are empty.
type board struct {
	org        grid.Cell
	nx, ny, nz int
	f          []int
}

func newBoard(org grid.Cell, nx, ny, nz int) *board {
	return &board{org: org, nx: nx, ny: ny, nz: nz, f: make([]int, nx*ny*nz)}
}

func (b *board) index(c grid.Cell) (int, bool) {
	x, y, z := c.X-b.org.X, c.Y-b.org.Y, c.Z-b.org.Z
	if x < 0 || y < 0 || z < 0 || x >= b.nx || y >= b.ny || z >= b.nz {
		return 0, false
	}
	return (z*b.ny+y)*b.nx + x, true
}

func (b *board) Fill(c grid.Cell) int {
	if i, ok := b.index(c); ok {
		return b.f[i]
	}
	return 0
}

func (b *board) set(c grid.Cell, f int) {
	i, ok := b.index(c)
	if !ok {
		panic("set outside the board")
	}
	b.f[i] = f
}

// each calls visit for every solid cell.
func (b *board) each(visit func(c grid.Cell, f int)) {
	for z := range b.nz {
		for y := range b.ny {
			for x := range b.nx {
				c := b.org.Add(grid.C(x, y, z))
				if f := b.Fill(c); f > 0 {
					visit(c, f)
				}
			}
		}
	}
}

// regionBoard is a board that also answers Regions, by looking at every cell of the box.
type regionBoard struct{ *board }

func (r regionBoard) Empty(b grid.Box) bool {
	empty := true
	r.each(func(c grid.Cell, _ int) {
		if b.Min.X <= c.X && c.X <= b.Max.X && b.Min.Y <= c.Y && c.Y <= b.Max.Y && b.Min.Z <= c.Z && c.Z <= b.Max.Z {
			empty = false
		}
	})
	return empty
}

// parseBoard reads an ASCII board, one picture per level from z = 0 up. In a picture, row y
// runs from the top (y = 0, north) down and column x from the left: '#' is a full block
// (fill 400), '_' a low wall (fill 200), '.' empty. Blank lines and leading tabs or spaces
// are ignored.
func parseBoard(levels ...string) *board {
	var rows [][]string
	nx, ny := 0, 0
	for _, lv := range levels {
		var r []string
		for line := range strings.SplitSeq(lv, "\n") {
			line = strings.TrimSpace(line)
			if line == "" {
				continue
			}
			r = append(r, line)
			nx = max(nx, len(line))
		}
		ny = max(ny, len(r))
		rows = append(rows, r)
	}
	b := newBoard(grid.C(0, 0, 0), nx, ny, len(levels))
	for z, r := range rows {
		for y, line := range r {
			for x, ch := range line {
				switch ch {
				case '#':
					b.set(grid.C(x, y, z), 400)
				case '_':
					b.set(grid.C(x, y, z), 200)
				case '.':
				default:
					panic("parseBoard: unknown character " + string(ch))
				}
			}
		}
	}
	return b
}

// randomBoard fills nx × ny × nz cells from org with probability density, each solid
// taking a fill from fills.
func randomBoard(r *rand.Rand, org grid.Cell, nx, ny, nz int, density float64, fills []int) *board {
	b := newBoard(org, nx, ny, nz)
	for i := range b.f {
		if r.Float64() < density {
			b.f[i] = fills[r.IntN(len(fills))]
		}
	}
	return b
}

// testFills are the fills random boards use: full, half, and awkward heights near the
// layer boundaries.
var testFills = []int{400, 400, 200, 120, 1, 399}

// pointGen draws lattice points around a board, in the categories of the reference test.
type pointGen struct {
	r     *rand.Rand
	b     *board
	fills []int
}

// span is the range of cells along axis i that points are drawn from: the board and one
// cell around it.
func (g pointGen) span(i int) (lo, hi int) {
	switch i {
	case 0:
		return g.b.org.X - 1, g.b.org.X + g.b.nx
	case 1:
		return g.b.org.Y - 1, g.b.org.Y + g.b.ny
	}
	return g.b.org.Z - 1, g.b.org.Z + g.b.nz
}

func (g pointGen) cell(i int) int64 {
	lo, hi := g.span(i)
	return int64(lo + g.r.IntN(hi-lo+1))
}

// uniform is any lattice value along axis i.
func (g pointGen) uniform(i int) int64 {
	lo, hi := g.span(i)
	return int64(lo)*Unit + g.r.Int64N(int64(hi-lo+1)*Unit+1)
}

// centre is a cell centre along axis i.
func (g pointGen) centre(i int) int64 { return g.cell(i)*Unit + Unit/2 }

// plane is a grid plane along axis i, or on Z also the top of a partial fill.
func (g pointGen) plane(i int) int64 {
	v := g.cell(i) * Unit
	if i == 2 && g.r.IntN(2) == 0 {
		v += int64(g.fills[g.r.IntN(len(g.fills))] % Unit)
	}
	return v
}

// flat is a height strictly inside a level, for a segment that stays at it: a fill's top or
// one unit either side of it, or any height.
func (g pointGen) flat() int64 {
	h := 1 + g.r.Int64N(Unit-1)
	if g.r.IntN(2) == 0 {
		h = min(max(int64(g.fills[g.r.IntN(len(g.fills))])+g.r.Int64N(3)-1, 1), Unit-1)
	}
	return g.cell(2)*Unit + h
}

// pinch makes the four cells of level z around the vertical edge x, y (in cells) meet only
// diagonally there: full blocks north-east and south-west of it (or north-west and south-east
// when flip), the other two empty. Cells outside the board are left as they are.
func (g pointGen) pinch(x, y, z int, flip bool) {
	for i, c := range []grid.Cell{grid.C(x, y-1, z), grid.C(x-1, y, z), grid.C(x-1, y-1, z), grid.C(x, y, z)} {
		f := 0
		if (i < 2) != flip {
			f = Unit
		}
		if _, ok := g.b.index(c); ok {
			g.b.set(c, f)
		}
	}
}

// solidsOf is b as the engine's board.Solids.
func solidsOf(b *board) *coreboard.Solids {
	var cells []coreboard.Solid
	b.each(func(c grid.Cell, f int) { cells = append(cells, coreboard.Solid{Cell: c, Fill: f}) })
	return coreboard.New(cells)
}

// inset is a grid plane moved by ±1.
func (g pointGen) inset(i int) int64 {
	return g.cell(i)*Unit + int64(2*g.r.IntN(2)-1)
}

func (g pointGen) point(kind func(pointGen, int) int64) Point {
	return Point{kind(g, 0), kind(g, 1), kind(g, 2)}
}

// mixed draws each coordinate from a random category.
func (g pointGen) mixed(i int) int64 {
	switch g.r.IntN(4) {
	case 0:
		return g.uniform(i)
	case 1:
		return g.centre(i)
	case 2:
		return g.plane(i)
	}
	return g.inset(i)
}

// along returns a segment lying in one or two grid planes (or fill tops): a face or an edge.
func (g pointGen) along() (Point, Point) {
	a, b := g.point(pointGen.mixed), g.point(pointGen.mixed)
	pa, pb := []*int64{&a.X, &a.Y, &a.Z}, []*int64{&b.X, &b.Y, &b.Z}
	keep := g.r.IntN(3)
	for i := range 3 {
		if i == keep {
			continue
		}
		if g.r.IntN(3) > 0 || i == (keep+1)%3 {
			v := g.plane(i)
			*pa[i], *pb[i] = v, v
		}
	}
	return a, b
}

// dump lists the solid cells of b, for failure messages.
func dump(b *board) string {
	var sb strings.Builder
	b.each(func(c grid.Cell, f int) {
		sb.WriteString(c.String() + "=" + strconv.Itoa(f) + " ")
	})
	return sb.String()
}

// through returns a segment passing exactly through a point v that lies on grid planes (or
// fill tops) on k axes: k = 3 gives a vertex, k = 2 an edge. b is a mirrored through v.
func (g pointGen) through(k int) (Point, Point) {
	a := g.point(pointGen.mixed)
	v := g.point(pointGen.plane)
	if k < 3 {
		pv := []*int64{&v.X, &v.Y, &v.Z}
		i := g.r.IntN(3)
		*pv[i] = g.cell(i)*Unit + 1 + g.r.Int64N(Unit-1)
	}
	return a, Point{2*v.X - a.X, 2*v.Y - a.Y, 2*v.Z - a.Z}
}
