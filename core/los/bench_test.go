package los

import (
	"math/rand/v2"
	"testing"

	"github.com/aoekit/aoekit/core/grid"
)

// denseBoard is a benchmark board: fills in a flat slice, with 3-D prefix counts of solid
// cells so that Empty is exact and takes constant time.
type denseBoard struct {
	nx, ny, nz int
	f          []uint16
	sum        []int32 // (nx+1)(ny+1)(nz+1) prefix counts
}

func (d *denseBoard) Fill(c grid.Cell) int {
	if uint(c.X) >= uint(d.nx) || uint(c.Y) >= uint(d.ny) || uint(c.Z) >= uint(d.nz) {
		return 0
	}
	return int(d.f[(c.Z*d.ny+c.Y)*d.nx+c.X])
}

func (d *denseBoard) s(x, y, z int) int32 { return d.sum[(z*(d.ny+1)+y)*(d.nx+1)+x] }

func (d *denseBoard) Empty(lo, hi grid.Cell) bool {
	x0, y0, z0 := max(lo.X, 0), max(lo.Y, 0), max(lo.Z, 0)
	x1, y1, z1 := min(hi.X+1, d.nx), min(hi.Y+1, d.ny), min(hi.Z+1, d.nz)
	if x0 >= x1 || y0 >= y1 || z0 >= z1 {
		return true
	}
	n := d.s(x1, y1, z1) - d.s(x0, y1, z1) - d.s(x1, y0, z1) - d.s(x1, y1, z0) +
		d.s(x0, y0, z1) + d.s(x0, y1, z0) + d.s(x1, y0, z0) - d.s(x0, y0, z0)
	return n == 0
}

// fillsOnly hides Empty, to measure Blocked without the Regions shortcut.
type fillsOnly struct{ d *denseBoard }

func (f fillsOnly) Fill(c grid.Cell) int { return f.d.Fill(c) }

func newDenseBoard(r *rand.Rand, nx, ny, nz, solids int) *denseBoard {
	d := &denseBoard{nx: nx, ny: ny, nz: nz, f: make([]uint16, nx*ny*nz)}
	for placed := 0; placed < solids; {
		i := r.IntN(len(d.f))
		if d.f[i] != 0 || i%d.nx == 0 || i%d.nx == d.nx-1 {
			continue
		}
		d.f[i] = 400
		if placed%3 == 0 {
			d.f[i] = 200 // a third are low walls
		}
		placed++
	}
	d.sum = make([]int32, (nx+1)*(ny+1)*(nz+1))
	for z := 1; z <= nz; z++ {
		for y := 1; y <= ny; y++ {
			for x := 1; x <= nx; x++ {
				v := int32(0)
				if d.f[((z-1)*ny+y-1)*nx+x-1] != 0 {
					v = 1
				}
				d.sum[(z*(ny+1)+y)*(nx+1)+x] = v + d.s(x-1, y, z) + d.s(x, y-1, z) + d.s(x, y, z-1) -
					d.s(x-1, y-1, z) - d.s(x-1, y, z-1) - d.s(x, y-1, z-1) + d.s(x-1, y-1, z-1)
			}
		}
	}
	return d
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
		if max(abs(dx), abs(dy)) != l {
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

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func benchSegments(b *testing.B, s Solids, segs [][2]Point) {
	blocked := 0
	for i := 0; b.Loop(); i++ {
		sg := segs[i%len(segs)]
		if Blocked(sg[0], sg[1], s) {
			blocked++
		}
	}
	b.ReportMetric(float64(blocked)/float64(b.N), "blocked/op")
}

// benchBoth times segs on d with its Regions shortcut and without it (Fill alone).
func benchBoth(b *testing.B, d *denseBoard, segs [][2]Point) {
	b.Run("regions", func(b *testing.B) { benchSegments(b, d, segs) })
	b.Run("fills", func(b *testing.B) { benchSegments(b, fillsOnly{d}, segs) })
}

// BenchmarkTypical: a 60 × 60 board with 300 solids (a third low walls), 280 segments of
// 5–30 cells: one evaluation's worth of cover segments.
func BenchmarkTypical(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	d := newDenseBoard(r, 60, 60, 1, 300)
	segs := segments(r, 60, 60, 280, 5, 30)
	benchBoth(b, d, segs)
}

// BenchmarkLong: a 500 × 500 board with 20 000 solids and segments of 30–60 cells.
func BenchmarkLong(b *testing.B) {
	r := rand.New(rand.NewPCG(2, 2))
	d := newDenseBoard(r, 500, 500, 1, 20000)
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
	d := newDenseBoard(r, 60, 60, 1, 0)
	segs := segments(r, 60, 60, 280, 5, 30)
	benchBoth(b, d, segs)
}

// BenchmarkDiagonal: exact 45° segments between centres, which pass through a cell corner
// at every step (each corner is checked for a diagonal pinch).
func BenchmarkDiagonal(b *testing.B) {
	r := rand.New(rand.NewPCG(4, 4))
	d := newDenseBoard(r, 60, 60, 1, 300)
	var segs [][2]Point
	for len(segs) < 280 {
		a := grid.C(r.IntN(30), r.IntN(30), 0)
		l := 5 + r.IntN(26)
		segs = append(segs, [2]Point{Centre(a), Centre(grid.C(a.X+l, a.Y+l, 0))})
	}
	b.Run("fills", func(b *testing.B) { benchSegments(b, fillsOnly{d}, segs) })
}

// TestDenseBoard checks the benchmark board's Empty against its fills.
func TestDenseBoard(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	d := newDenseBoard(r, 9, 8, 3, 12)
	for range 2000 {
		lo := grid.C(r.IntN(12)-2, r.IntN(12)-2, r.IntN(5)-1)
		hi := grid.C(lo.X+r.IntN(5), lo.Y+r.IntN(5), lo.Z+r.IntN(3))
		want := true
		for z := lo.Z; z <= hi.Z; z++ {
			for y := lo.Y; y <= hi.Y; y++ {
				for x := lo.X; x <= hi.X; x++ {
					if d.Fill(grid.C(x, y, z)) > 0 {
						want = false
					}
				}
			}
		}
		if d.Empty(lo, hi) != want {
			t.Fatalf("Empty(%v, %v) = %v, want %v", lo, hi, !want, want)
		}
	}
}
