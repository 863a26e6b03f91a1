package los

import (
	"math/rand/v2"
	"testing"

	"github.com/aoekit/aoekit/core/grid"
)

// transformed is a board seen through a map of space: Fill(c) is the fill of the cell that
// back maps c to.
type transformed struct {
	b    *board
	back func(grid.Cell) grid.Cell
}

func (t transformed) Fill(c grid.Cell) int { return t.b.Fill(t.back(c)) }

// propertyCases draws random boards and segments of every kind for the property tests.
func propertyCases(t *testing.T, seed uint64, n int, check func(b *board, p, q Point)) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 77))
	for i := range n {
		org := grid.C(r.IntN(7)-3, r.IntN(7)-3, r.IntN(3)-1)
		b := randomBoard(r, org, 6, 6, 3, 0.1+0.4*r.Float64(), testFills)
		g := pointGen{r, b, testFills}
		var p, q Point
		switch i % 5 {
		case 0:
			p, q = g.point(pointGen.uniform), g.point(pointGen.uniform)
		case 1:
			p, q = g.point(pointGen.mixed), g.point(pointGen.mixed)
		case 2:
			p, q = g.along()
		case 3:
			p, q = g.through(2 + r.IntN(2))
		default:
			p, q = g.point(pointGen.inset), g.point(pointGen.centre)
		}
		check(b, p, q)
	}
}

// TestBlockedSymmetric: line of effect is symmetric (SPEC §5.2: a segment, not a ray).
func TestBlockedSymmetric(t *testing.T) {
	propertyCases(t, 1, 20000, func(b *board, p, q Point) {
		if Blocked(p, q, b) != Blocked(q, p, b) {
			t.Fatalf("Blocked(%v, %v) != Blocked(%v, %v)\n%s", p, q, q, p, dump(b))
		}
	})
}

// TestBlockedTranslation: moving the scene by whole cells changes nothing (SPEC §1.1).
func TestBlockedTranslation(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	propertyCases(t, 2, 20000, func(b *board, p, q Point) {
		d := grid.C(r.IntN(2001)-1000, r.IntN(2001)-1000, r.IntN(201)-100)
		moved := *b
		moved.org = b.org.Add(d)
		v := Vertex(d)
		if Blocked(p, q, b) != Blocked(p.Add(v), q.Add(v), &moved) {
			t.Fatalf("Blocked(%v, %v) changes when moved by %v\n%s", p, q, d, dump(b))
		}
	})
}

// TestBlockedRotation: turning the scene a quarter turn about the z axis, (x, y) → (−y, x)
// as in SPEC §1.2, turns the answer with it. Cell (x, y) spans [x, x+1] × [y, y+1], which
// turns to [−y−1, −y] × [x, x+1]: cell (−y−1, x).
func TestBlockedRotation(t *testing.T) {
	rot := func(p Point) Point { return Point{-p.Y, p.X, p.Z} }
	propertyCases(t, 3, 20000, func(b *board, p, q Point) {
		want := Blocked(p, q, b)
		tb := transformed{b, func(c grid.Cell) grid.Cell { return grid.C(c.Y, -c.X-1, c.Z) }}
		p1, q1 := rot(p), rot(q)
		if Blocked(p1, q1, tb) != want {
			t.Fatalf("Blocked(%v, %v) = %v changes when turned\n%s", p, q, want, dump(b))
		}
		// Four quarter turns: the turned board turned again.
		tb2 := transformed{b, func(c grid.Cell) grid.Cell { return grid.C(-c.X-1, -c.Y-1, c.Z) }}
		if Blocked(rot(p1), rot(q1), tb2) != want {
			t.Fatalf("Blocked(%v, %v) = %v changes when turned twice\n%s", p, q, want, dump(b))
		}
	})
}

// TestBlockedMirror: mirroring x → −x (cell x → cell −x−1) or y → −y changes nothing.
func TestBlockedMirror(t *testing.T) {
	propertyCases(t, 4, 20000, func(b *board, p, q Point) {
		want := Blocked(p, q, b)
		mx := transformed{b, func(c grid.Cell) grid.Cell { return grid.C(-c.X-1, c.Y, c.Z) }}
		if Blocked(Point{-p.X, p.Y, p.Z}, Point{-q.X, q.Y, q.Z}, mx) != want {
			t.Fatalf("Blocked(%v, %v) = %v changes when mirrored in x\n%s", p, q, want, dump(b))
		}
		my := transformed{b, func(c grid.Cell) grid.Cell { return grid.C(c.X, -c.Y-1, c.Z) }}
		if Blocked(Point{p.X, -p.Y, p.Z}, Point{q.X, -q.Y, q.Z}, my) != want {
			t.Fatalf("Blocked(%v, %v) = %v changes when mirrored in y\n%s", p, q, want, dump(b))
		}
	})
}

// TestBlockedSplit: a closed segment is blocked exactly when one of its two halves is,
// split at a lattice point on it (SPEC §5.2: endpoints count).
func TestBlockedSplit(t *testing.T) {
	propertyCases(t, 5, 20000, func(b *board, p, q Point) {
		// Round q so that the midpoint lies on the lattice.
		q = Point{q.X - (q.X-p.X)%2, q.Y - (q.Y-p.Y)%2, q.Z - (q.Z-p.Z)%2}
		m := Point{(p.X + q.X) / 2, (p.Y + q.Y) / 2, (p.Z + q.Z) / 2}
		whole, left, right := Blocked(p, q, b), Blocked(p, m, b), Blocked(m, q, b)
		if whole != (left || right) {
			t.Fatalf("Blocked(%v, %v) = %v, halves at %v: %v, %v\n%s", p, q, whole, m, left, right, dump(b))
		}
	})
}

// TestBlockedRegions: answering Regions never changes a result.
func TestBlockedRegions(t *testing.T) {
	propertyCases(t, 6, 20000, func(b *board, p, q Point) {
		if Blocked(p, q, b) != Blocked(p, q, regionBoard{b}) {
			t.Fatalf("Blocked(%v, %v) differs with Regions\n%s", p, q, dump(b))
		}
	})
}

// TestBlockedFarAway compares with the reference near the edge of the supported range
// (MaxCoord), where the products Blocked forms are largest.
func TestBlockedFarAway(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	edge := MaxCoord/Unit - 8
	for i := range 300 {
		sx, sy, sz := 2*r.IntN(2)-1, 2*r.IntN(2)-1, 2*r.IntN(2)-1
		org := grid.C(sx*edge-3, sy*edge-3, sz*edge-3)
		b := randomBoard(r, org, 6, 6, 3, 0.3, testFills)
		g := pointGen{r, b, testFills}
		p, q := g.point(pointGen.mixed), g.point(pointGen.mixed)
		if i%3 == 0 {
			p, q = g.along()
		}
		if got, want := Blocked(p, q, b), refBlocked(p, q, refBoxes(b)); got != want {
			t.Fatalf("Blocked(%v, %v) = %v, reference %v\n%s", p, q, got, want, dump(b))
		}
	}
	// Segments across the whole range, through a small board near the origin.
	for range 3 {
		b := randomBoard(r, grid.C(-3, -3, -1), 6, 6, 3, 0.3, testFills)
		g := pointGen{r, b, testFills}
		m := g.point(pointGen.mixed)
		k := int64(MaxCoord/Unit - 8)
		// p and q lie on the line through m with a direction of small integers.
		d := Point{r.Int64N(401) - 200, r.Int64N(401) - 200, r.Int64N(401) - 200}
		s := k * Unit / max(abs64(d.X), abs64(d.Y), abs64(d.Z), 1)
		p := Point{m.X + s*d.X, m.Y + s*d.Y, m.Z + s*d.Z}
		q := Point{m.X - s*d.X, m.Y - s*d.Y, m.Z - s*d.Z}
		if got, want := Blocked(p, q, b), refBlocked(p, q, refBoxes(b)); got != want {
			t.Fatalf("Blocked(%v, %v) = %v, reference %v\n%s", p, q, got, want, dump(b))
		}
	}
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
