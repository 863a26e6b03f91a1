package los

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/aoekit/aoekit/core/grid"
)

// This file holds the slow, obviously right reference for SPEC §5.2, written without any
// traversal: every parameter value where the segment meets a face plane of a solid box is
// collected, and the octant mask is worked out by brute force over every box, in exact
// rational arithmetic, at each such value and halfway between each consecutive pair.

// refBox is one solid box [lo, hi] (closed on every axis).
type refBox struct{ lo, hi [3]*big.Rat }

func refBoxes(b *board) []refBox {
	var out []refBox
	b.each(func(c grid.Cell, f int) {
		lo := [3]int64{int64(c.X) * Unit, int64(c.Y) * Unit, int64(c.Z) * Unit}
		hi := [3]int64{lo[0] + Unit, lo[1] + Unit, lo[2] + int64(min(f, Unit))}
		var bx refBox
		for i := range 3 {
			bx.lo[i] = new(big.Rat).SetInt64(lo[i])
			bx.hi[i] = new(big.Rat).SetInt64(hi[i])
		}
		out = append(out, bx)
	})
	return out
}

// refMask is the set of octants around p that some box covers: octant s is covered by a box
// when on every axis the box's closed range holds p's coordinate and reaches strictly beyond
// it on the side s points to.
func refMask(p [3]*big.Rat, boxes []refBox) uint8 {
	var m uint8
	for _, bx := range boxes {
		var beyondUp, beyondDown [3]bool
		inside := true
		for i := range 3 {
			cl, ch := p[i].Cmp(bx.lo[i]), p[i].Cmp(bx.hi[i])
			if cl < 0 || ch > 0 {
				inside = false
				break
			}
			beyondUp[i], beyondDown[i] = ch < 0, cl > 0
		}
		if !inside {
			continue
		}
		for s := range 8 {
			ok := true
			for i := range 3 {
				if s&(1<<i) != 0 {
					ok = ok && beyondUp[i]
				} else {
					ok = ok && beyondDown[i]
				}
			}
			if ok {
				m |= 1 << s
			}
		}
	}
	return m
}

// refBad is the rule of SPEC §5.2 on one mask: all eight octants, or covered octants that
// are not all face-connected. It grows the component of the lowest octant until it stops.
func refBad(m uint8) bool {
	if m == 0xff {
		return true
	}
	if m == 0 {
		return false
	}
	reach := m & -m
	for {
		next := reach
		for s := range 8 {
			if reach&(1<<s) != 0 {
				next |= (1<<(s^1) | 1<<(s^2) | 1<<(s^4)) & m
			}
		}
		if next == reach {
			return reach != m
		}
		reach = next
	}
}

// refBlocked decides SPEC §5.2 for the segment a–b among boxes.
func refBlocked(a, b Point, boxes []refBox) bool {
	pa, pb := [3]int64{a.X, a.Y, a.Z}, [3]int64{b.X, b.Y, b.Z}
	zero, one := big.NewRat(0, 1), big.NewRat(1, 1)
	ts := []*big.Rat{zero, one}
	for _, bx := range boxes {
		for i := range 3 {
			d := pb[i] - pa[i]
			if d == 0 {
				continue
			}
			for _, pl := range [2]*big.Rat{bx.lo[i], bx.hi[i]} {
				t := new(big.Rat).Sub(pl, new(big.Rat).SetInt64(pa[i]))
				t.Quo(t, new(big.Rat).SetInt64(d))
				if t.Cmp(zero) >= 0 && t.Cmp(one) <= 0 {
					ts = append(ts, t)
				}
			}
		}
	}
	slices.SortFunc(ts, (*big.Rat).Cmp)
	ts = slices.CompactFunc(ts, func(x, y *big.Rat) bool { return x.Cmp(y) == 0 })
	at := func(t *big.Rat) bool {
		var p [3]*big.Rat
		for i := range 3 {
			p[i] = new(big.Rat).SetInt64(pb[i] - pa[i])
			p[i].Mul(p[i], t)
			p[i].Add(p[i], new(big.Rat).SetInt64(pa[i]))
		}
		return refBad(refMask(p, boxes))
	}
	half := big.NewRat(1, 2)
	for k, t := range ts {
		if at(t) {
			return true
		}
		if k+1 < len(ts) {
			mid := new(big.Rat).Add(t, ts[k+1])
			if at(mid.Mul(mid, half)) {
				return true
			}
		}
	}
	return false
}

// TestBadMaskTable checks the 256-entry table against the reference rule (SPEC §5.2).
func TestBadMaskTable(t *testing.T) {
	for m := range 256 {
		if got, want := badMask[m], refBad(uint8(m)); got != want {
			t.Errorf("badMask[%08b] = %v, want %v", m, got, want)
		}
	}
	// A few by hand: one octant, a face pair, an edge-diagonal pair, a corner-diagonal pair.
	for m, want := range map[uint8]bool{0b1: false, 0b11: false, 0b1001: true, 0b10000001: true, 0b01111111: false, 0xff: true, 0xf0: false} {
		if badMask[m] != want {
			t.Errorf("badMask[%08b] = %v, want %v", m, badMask[m], want)
		}
	}
}

// TestBlockedMatchesReference compares Blocked with the reference on random small boards (5 × 7,
// 6 × 6 and 7 × 5 squares, three levels) and segments of every kind (SPEC §5.1, §5.2), each
// board seen four ways: Fill alone, with Regions, with Regions through a Prepared (Check's
// path for a *Prepared), and as the engine's board.Solids (Regions and Layers, which flat
// segments read) judged by its Prepared's own Blocked.
func TestBlockedMatchesReference(t *testing.T) {
	n := 800
	if testing.Short() {
		n = 200
	}
	kinds := []struct {
		name string
		seg  func(g pointGen) (Point, Point)
	}{
		{"uniform", func(g pointGen) (Point, Point) { return g.point(pointGen.uniform), g.point(pointGen.uniform) }},
		{"centres", func(g pointGen) (Point, Point) { return g.point(pointGen.centre), g.point(pointGen.centre) }},
		{"planes", func(g pointGen) (Point, Point) { return g.point(pointGen.plane), g.point(pointGen.plane) }},
		{"along", pointGen.along},
		{"insets", func(g pointGen) (Point, Point) { return g.point(pointGen.inset), g.point(pointGen.inset) }},
		{"mixed", func(g pointGen) (Point, Point) { return g.point(pointGen.mixed), g.point(pointGen.mixed) }},
		{"via vertex", func(g pointGen) (Point, Point) { return g.through(3) }},
		{"via edge", func(g pointGen) (Point, Point) { return g.through(2) }},
		{"vertical edge", func(g pointGen) (Point, Point) {
			a, b := g.point(pointGen.mixed), g.point(pointGen.mixed)
			a.X, a.Y = g.plane(0), g.plane(1)
			b.X, b.Y = a.X, a.Y
			return a, b
		}},
		{"point", func(g pointGen) (Point, Point) { p := g.point(pointGen.mixed); return p, p }},
		{"flat", func(g pointGen) (Point, Point) {
			a, b := g.point(pointGen.mixed), g.point(pointGen.mixed)
			a.Z = g.flat()
			b.Z = a.Z
			return a, b
		}},
		{"flat to an edge", func(g pointGen) (Point, Point) { // b where four columns meet
			a := g.point(pointGen.mixed)
			a.Z = g.flat()
			b := Point{g.plane(0), g.plane(1), a.Z}
			if g.r.IntN(2) == 0 { // solids meeting only diagonally there, half the time
				x, y, z := int(b.X/Unit), int(b.Y/Unit), int(floorDiv(a.Z, Unit))
				g.pinch(x, y, z, g.r.IntN(2) == 0)
			}
			if g.r.IntN(2) == 0 {
				return b, a
			}
			return a, b
		}},
		{"flat via vertex", func(g pointGen) (Point, Point) {
			a := g.point(pointGen.mixed)
			a.Z = g.flat()
			v := Point{g.plane(0), g.plane(1), a.Z}
			return a, Point{2*v.X - a.X, 2*v.Y - a.Y, a.Z}
		}},
	}
	for ki, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(5, uint64(ki)))
			blocked := 0
			for i := range n {
				org := grid.C(r.IntN(5)-2, r.IntN(5)-2, r.IntN(3)-1)
				density := 0.1 + 0.3*float64(i%4)/3
				if k.name == "vertical edge" {
					density = 0.5 + 0.1*float64(i%3) // most edges have solids on several sides
				}
				b := randomBoard(r, org, 5+i%3, 7-i%3, 3, density, testFills) // 5 × 7, 6 × 6, 7 × 5
				g := pointGen{r, b, testFills}
				p, q := k.seg(g)
				want := refBlocked(p, q, refBoxes(b))
				if want {
					blocked++
				}
				if got := Blocked(p, q, b); got != want {
					t.Fatalf("case %d: Blocked(%v, %v) = %v, reference %v\n%s", i, p, q, got, want, dump(b))
				}
				if got := Blocked(p, q, regionBoard{b}); got != want {
					t.Fatalf("case %d: Blocked(%v, %v) with Regions = %v, reference %v", i, p, q, got, want)
				}
				pr := Prepare(regionBoard{b})
				if got := Blocked(p, q, &pr); got != want {
					t.Fatalf("case %d: Blocked(%v, %v) with Regions, prepared = %v, reference %v", i, p, q, got, want)
				}
				ps := Prepare(solidsOf(b)) // Regions and Layers
				if got := ps.Blocked(p, q); got != want {
					t.Fatalf("case %d: Blocked(%v, %v) on board.Solids = %v, reference %v\n%s", i, p, q, got, want, dump(b))
				}
			}
			t.Logf("%s: %d of %d blocked", k.name, blocked, n)
		})
	}
}
