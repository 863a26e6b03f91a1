package los

import (
	"math/rand/v2"
	"testing"

	coreboard "github.com/aoekit/aoekit/core/board"
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/internal/num"
)

// fillsOnly hides Empty, to measure Blocked without the Regions shortcut.
type fillsOnly struct{ d *coreboard.Solids }

func (f fillsOnly) Fill(c grid.Cell) int { return f.d.Fill(c) }

// newBenchBoard is an nx × ny × nz board (the engine's board.Solids, whose Empty the engine
// relies on) with solids cells at random, a third of them low walls, none in the first and
// last columns.
func newBenchBoard(r *rand.Rand, nx, ny, nz, solids int) *coreboard.Solids {
	used := map[grid.Cell]bool{}
	var cells []coreboard.Solid
	for len(cells) < solids {
		c := grid.C(1+r.IntN(nx-2), r.IntN(ny), r.IntN(nz))
		if used[c] {
			continue
		}
		used[c] = true
		fill := 400
		if len(cells)%3 == 0 {
			fill = 200 // a third are low walls
		}
		cells = append(cells, coreboard.Solid{Cell: c, Fill: fill})
	}
	return coreboard.New(cells)
}

// segments draws n segments of length lo..hi cells on an nx × ny board, as cover uses them
// (SPEC §5.3, §5.4): half centre to centre at mid height, half from a cell corner to a
// target's inset corner, at the corner heights a standing target's boosted corners use.
func segments(r *rand.Rand, nx, ny, n, lo, hi int) [][2]Point {
	out := make([][2]Point, 0, n)
	for len(out) < n {
		a := grid.C(r.IntN(nx), r.IntN(ny), 0)
		l := lo + r.IntN(hi-lo+1)
		dx, dy := r.IntN(2*l+1)-l, r.IntN(2*l+1)-l
		if max(num.Abs(dx), num.Abs(dy)) != l {
			continue
		}
		b := grid.C(a.X+dx, a.Y+dy, 0)
		if b.X < 0 || b.Y < 0 || b.X >= nx || b.Y >= ny {
			continue
		}
		p, q := Centre(a), Centre(b)
		if len(out)%2 == 1 {
			p = Vertex(a).Add(Point{int64(r.IntN(2)) * Unit, int64(r.IntN(2)) * Unit, 0})
			q = Vertex(b).Add(Point{1 + int64(r.IntN(2))*398, 1 + int64(r.IntN(2))*398, []int64{121, 399}[r.IntN(2)]})
		}
		out = append(out, [2]Point{p, q})
	}
	return out
}

// benchSegments times Blocked over segs, round and round. (The index wraps by a compare, not
// i % len(segs): a division each op cost ~10 % of a segment's time, which the JavaScript peer,
// looping over its rays, does not pay.)
func benchSegments(b *testing.B, s Solids, segs [][2]Point) {
	blocked := 0
	for i := 0; b.Loop(); i++ {
		if i == len(segs) {
			i = 0
		}
		sg := segs[i]
		if Blocked(sg[0], sg[1], s) {
			blocked++
		}
	}
	b.ReportMetric(float64(blocked)/float64(b.N), "blocked/op")
}

// benchBoth times segs on d with its Regions shortcut and without it (Fill alone).
func benchBoth(b *testing.B, d *coreboard.Solids, segs [][2]Point) {
	b.Run("regions", func(b *testing.B) { benchSegments(b, d, segs) })
	b.Run("fills", func(b *testing.B) { benchSegments(b, fillsOnly{d}, segs) })
}

// BenchmarkTypical: a 60 × 60 board with 300 solids (a third low walls), 280 segments of
// 5–30 cells: one evaluation's worth of cover segments.
func BenchmarkTypical(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	d := newBenchBoard(r, 60, 60, 1, 300)
	segs := segments(r, 60, 60, 280, 5, 30)
	benchBoth(b, d, segs)
}

// BenchmarkLong: a 500 × 500 board with 20 000 solids and segments of 30–60 cells.
func BenchmarkLong(b *testing.B) {
	r := rand.New(rand.NewPCG(2, 2))
	d := newBenchBoard(r, 500, 500, 1, 20000)
	segs := segments(r, 500, 500, 1000, 30, 60)
	benchBoth(b, d, segs)
	// The clear ones only: every cell walked, the worst case.
	var clear [][2]Point
	for _, sg := range segments(r, 500, 500, 20000, 30, 60) {
		if !Blocked(sg[0], sg[1], d) {
			clear = append(clear, sg)
		}
	}
	b.Run("clear", func(b *testing.B) { benchSegments(b, fillsOnly{d}, clear) })
}

// BenchmarkEmpty: segments of 5–30 cells through empty space, without the Regions
// shortcut (the full walk) and with it.
func BenchmarkEmpty(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 3))
	d := newBenchBoard(r, 60, 60, 1, 0)
	segs := segments(r, 60, 60, 280, 5, 30)
	benchBoth(b, d, segs)
}

// BenchmarkDiagonal: exact 45° segments between centres, which pass through a cell corner
// at every step (each corner is checked for a diagonal pinch).
func BenchmarkDiagonal(b *testing.B) {
	r := rand.New(rand.NewPCG(4, 4))
	d := newBenchBoard(r, 60, 60, 1, 300)
	var segs [][2]Point
	for len(segs) < 280 {
		a := grid.C(r.IntN(30), r.IntN(30), 0)
		l := 5 + r.IntN(26)
		segs = append(segs, [2]Point{Centre(a), Centre(grid.C(a.X+l, a.Y+l, 0))})
	}
	b.Run("fills", func(b *testing.B) { benchSegments(b, fillsOnly{d}, segs) })
}
