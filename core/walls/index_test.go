package walls

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/aoekit/aoekit/core/los"
)

// scanBlocked is the Index's answer by definition: some wall blocks p → q, by the
// reference. Walls whose plane segments do not meet p → q's cannot block it (segsMeet is
// exact), so only the others are asked of the reference.
func scanBlocked(ws []Wall, p, q los.Point) bool {
	for _, w := range ws {
		if segsMeet(xy(p), xy(q), w.A, w.B) && refBlocks(w, p, q) {
			return true
		}
	}
	return false
}

// scanBlocks is scanBlocked with Wall.Blocks (checked against the reference elsewhere) for
// the walls met, which is much faster on thousands of walls.
func scanBlocks(ws []Wall, p, q los.Point) bool {
	for i := range ws {
		if segsMeet(xy(p), xy(q), ws[i].A, ws[i].B) && ws[i].Blocks(p, q) {
			return true
		}
	}
	return false
}

// segBoxMeet reports exactly whether the closed plane segment a → b has a point in the
// closed box lo … hi: the parameters t ∈ [0, 1] within each slab, intersected.
func segBoxMeet(a, b, lo, hi [2]int64) bool {
	tlo, thi := rat(0), rat(1)
	for i := range 2 {
		e := b[i] - a[i]
		if e == 0 {
			if a[i] < lo[i] || a[i] > hi[i] {
				return false
			}
			continue
		}
		t1 := new(big.Rat).SetFrac64(lo[i]-a[i], e)
		t2 := new(big.Rat).SetFrac64(hi[i]-a[i], e)
		if t1.Cmp(t2) > 0 {
			t1, t2 = t2, t1
		}
		tlo, thi = rmax(tlo, t1), rmin(thi, t2)
	}
	return tlo.Cmp(thi) <= 0
}

// refNear reports whether some wall has a point in the closed box lo … hi.
func refNear(ws []Wall, lo, hi [2]int64) bool {
	for _, w := range ws {
		if max(w.A[0], w.B[0]) < lo[0] || min(w.A[0], w.B[0]) > hi[0] ||
			max(w.A[1], w.B[1]) < lo[1] || min(w.A[1], w.B[1]) > hi[1] {
			continue // the wall's box misses the box
		}
		if segBoxMeet(w.A, w.B, lo, hi) {
			return true
		}
	}
	return false
}

// visited walks the tiles Blocked walks for p → q, without stopping: the ids it would test
// (with repeats, as Blocked tests them) and the distinct ones.
func visited(ix *Index, p, q los.Point) (tests int, ids map[int32]bool, tiles int) {
	ids = map[int32]bool{}
	seen := map[int]bool{}
	ix.tiles(xy(p), xy(q), func(k int) bool {
		if seen[k] {
			panic(fmt.Sprintf("tiles visits tile %d twice for %v → %v", k, p, q))
		}
		seen[k] = true
		tiles++
		for _, id := range ix.ids[ix.start[k]:ix.start[k+1]] {
			tests++
			ids[id] = true
		}
		return false
	})
	return tests, ids, tiles
}

type wallSet struct {
	name string
	ws   []Wall
}

// randWall makes a wall within the box lo … hi of the given length scale, mostly on grid
// lines.
func randWall(r *rand.Rand, lo, hi, length int64) Wall {
	for {
		var w Wall
		c := func() int64 { return lo + r.Int64N(hi-lo+1) }
		switch r.IntN(3) {
		case 0: // on a grid line
			x := c() / 400 * 400
			y := c() / 400 * 400
			l := 400 * (r.Int64N(max(1, length/400)) + 1)
			if r.IntN(2) == 0 {
				w.A, w.B = [2]int64{x, y}, [2]int64{x, y + l}
			} else {
				w.A, w.B = [2]int64{x, y}, [2]int64{x + l, y}
			}
		case 1: // off grid, short
			w.A = [2]int64{c(), c()}
			w.B = [2]int64{w.A[0] + r.Int64N(2*length+1) - length, w.A[1] + r.Int64N(2*length+1) - length}
		default: // anywhere in the box
			w.A, w.B = [2]int64{c(), c()}, [2]int64{c(), c()}
		}
		w.A = [2]int64{clampC(w.A[0]), clampC(w.A[1])}
		w.B = [2]int64{clampC(w.B[0]), clampC(w.B[1])}
		if w.A != w.B {
			w.Bottom, w.Top = randHeights(r, 1200)
			if w.Bottom != NoBottom && w.Top != NoTop && w.Bottom > w.Top {
				w.Bottom, w.Top = w.Top, w.Bottom // New asks Bottom ≤ Top
			}
			return w
		}
	}
}

func wallSets(r *rand.Rand) []wallSet {
	const M = MaxCoord
	many := func(n int, lo, hi, length int64) []Wall {
		ws := make([]Wall, n)
		for i := range ws {
			ws[i] = randWall(r, lo, hi, length)
		}
		return ws
	}
	sets := []wallSet{
		{"none", nil},
		{"empty", []Wall{}},
		{"one", many(1, -4000, 4000, 2000)},
		{"one on a grid line", []Wall{wall(400, 0, 400, 4000)}},
		{"one horizontal", []Wall{wall(-2000, 800, 6000, 800)}},
		{"one point-sized box", []Wall{wall(0, 0, 1, 1)}},
		{"ten", many(10, -4000, 4000, 1200)},
		{"1000 on a 60-cell board", many(1000, -12000, 12000, 1600)},
		{"5000 over 600 cells", many(5000, -120000, 120000, 2400)},
	}
	// Long walls crossing the whole set.
	long := many(300, -20000, 20000, 800)
	long = append(long, wall(-20000, -20000, 20000, 20000), wall(-20000, 20000, 20000, -20000),
		wall(-20000, 0, 20000, 0), wall(0, -20000, 0, 20000), wall(-20000, -19999, 20000, 19999))
	sets = append(sets, wallSet{"300 and long ones across", long})
	// Many walls in one tile (0 … 511 is one tile when x0 = 0), and a few far away.
	one := many(400, 0, 511, 200)
	for i := range one {
		one[i].A = [2]int64{min(max(one[i].A[0], 0), 511), min(max(one[i].A[1], 0), 511)}
		one[i].B = [2]int64{min(max(one[i].B[0], 0), 511), min(max(one[i].B[1], 0), 511)}
		if one[i].A == one[i].B {
			one[i].B[0] = one[i].A[0] ^ 1
		}
	}
	one = append(one, wall(0, 0, 1, 0), wall(30000, 30000, 30400, 30000), wall(60000, 0, 60000, 400))
	sets = append(sets, wallSet{"400 in one tile", one})
	// Walls spanning more than 128 tiles, and the whole range.
	span := many(200, -M, M, 1<<20)
	span = append(span, wall(-M, -M, M, M), wall(-M, M, M, -M), wall(-M, 0, M, 1),
		wall(M, M, M-1, M), wall(-M, -M, -M, -M+1), wall(0, -M, 0, M))
	sets = append(sets, wallSet{"across the whole range", span})
	sets = append(sets, wallSet{"one across 2^30 units", []Wall{wall(-M, -M+400, M, M-400)}})
	// Tile boundaries at multiples of 512 (x0 = y0 = 0) and walls on them and on grid lines.
	aligned := []Wall{wall(0, 0, 512, 0)}
	for i := range 600 {
		k := int64(r.IntN(200))
		l := int64(r.IntN(200))
		switch i % 4 {
		case 0:
			aligned = append(aligned, wall(512*k, 512*l, 512*k, 512*l+512*int64(1+r.IntN(4))))
		case 1:
			aligned = append(aligned, wall(512*k, 512*l, 512*k+512*int64(1+r.IntN(4)), 512*l))
		case 2:
			aligned = append(aligned, wall(400*k, 400*l, 400*k+400, 400*l+400))
		default:
			aligned = append(aligned, wall(512*k-1, 512*l+1, 512*k+1, 512*l-1))
		}
	}
	sets = append(sets, wallSet{"on tile boundaries", aligned})
	// One short wall in each tile of 40 × 40: Blocked tests as many walls as it walks tiles.
	var grid []Wall
	for i := range int64(40) {
		for j := range int64(40) {
			grid = append(grid, wall(512*i+100, 512*j+100, 512*i+101+r.Int64N(300), 512*j+100+r.Int64N(300)))
		}
	}
	sets = append(sets, wallSet{"one in each tile", grid})
	return sets
}

// segGen makes a segment of a kind for the walls of ix, whose box is lo … hi.
func segGen(r *rand.Rand, kind string, ix *Index, ws []Wall, lo, hi [2]int64) (los.Point, los.Point) {
	w, h := hi[0]-lo[0], hi[1]-lo[1]
	in := func(m int64) [2]int64 { // a point of the box widened by m
		return [2]int64{clampC(lo[0] - m + r.Int64N(w+2*m+1)), clampC(lo[1] - m + r.Int64N(h+2*m+1))}
	}
	z := func() int64 { return 200*r.Int64N(9) - 400 + r.Int64N(3) - 1 }
	mk := func(a, b [2]int64) (los.Point, los.Point) {
		p, q := pt(clampC(a[0]), clampC(a[1]), z()), pt(clampC(b[0]), clampC(b[1]), z())
		if r.IntN(3) == 0 {
			q.Z = p.Z
		}
		return p, q
	}
	size := int64(512)
	if ix.Len() > 0 {
		size = 1 << ix.shift
	}
	switch kind {
	case "short":
		a := in(size)
		return mk(a, [2]int64{a[0] + r.Int64N(2*size+1) - size, a[1] + r.Int64N(2*size+1) - size})
	case "long":
		return mk(in(w/4+400), in(w/4+400))
	case "outside": // entirely beyond one side of the box
		m := 1 + r.Int64N(size*4)
		a, b := in(size*4), in(size*4)
		switch r.IntN(4) {
		case 0:
			a[0], b[0] = lo[0]-m, lo[0]-m-r.Int64N(size*4)
		case 1:
			a[0], b[0] = hi[0]+m, hi[0]+m+r.Int64N(size*4)
		case 2:
			a[1], b[1] = lo[1]-m, lo[1]-m-r.Int64N(size*4)
		default:
			a[1], b[1] = hi[1]+m, hi[1]+m+r.Int64N(size*4)
		}
		return mk(a, b)
	case "across the box's edge":
		a, b := in(0), in(0)
		switch r.IntN(4) {
		case 0:
			b[0] = lo[0] - 1 - r.Int64N(size*2)
		case 1:
			b[0] = hi[0] + 1 + r.Int64N(size*2)
		case 2:
			b[1] = lo[1] - 1 - r.Int64N(size*2)
		default:
			b[1] = hi[1] + 1 + r.Int64N(size*2)
		}
		return mk(a, b)
	case "vertical":
		a := in(size)
		if len(ws) > 0 && r.IntN(2) == 0 {
			a = ws[r.IntN(len(ws))].A
		}
		p, q := mk(a, a)
		q.Z = p.Z + 1 + r.Int64N(1600)
		return p, q
	case "along tile boundaries": // on x = x0 + k·size or y = y0 + k·size, or across them
		x0, y0 := lo[0], lo[1]
		if ix.Len() > 0 {
			x0, y0 = ix.x0, ix.y0
		}
		bx := x0 + size*(r.Int64N(w/size+3)-1)
		by := y0 + size*(r.Int64N(h/size+3)-1)
		a, b := in(size), in(size)
		switch r.IntN(5) {
		case 0:
			a[0], b[0] = bx, bx
		case 1:
			a[1], b[1] = by, by
		case 4: // diagonal, a unit under the tile corners: y ≡ −1 at every column's edge
			j := 1 + r.Int64N(w/size+2)
			a = [2]int64{bx, by - 1}
			b = [2]int64{bx + j*size, by - 1 + (2*r.Int64N(2)-1)*j*size}
		case 2: // from one tile corner to another
			a = [2]int64{bx, by}
			b = [2]int64{x0 + size*(r.Int64N(w/size+3)-1), y0 + size*(r.Int64N(h/size+3)-1)}
		default: // a unit off a boundary
			a[0], b[0] = bx-1+2*r.Int64N(2), bx-1+2*r.Int64N(2)
		}
		return mk(a, b)
	case "on multiples of 512 and 400":
		u := []int64{400, 512}[r.IntN(2)]
		g := func(v int64) int64 { return v / u * u }
		a, b := in(size), in(size)
		a, b = [2]int64{g(a[0]), g(a[1])}, [2]int64{g(b[0]), g(b[1])}
		switch r.IntN(3) {
		case 0:
			b[0] = a[0]
		case 1:
			b[1] = a[1]
		}
		return mk(a, b)
	case "through a wall's end or corner":
		if len(ws) == 0 {
			return mk(in(size), in(size))
		}
		x := ws[r.IntN(len(ws))].B
		v := [2]int64{r.Int64N(801) - 400, r.Int64N(801) - 400}
		return mk([2]int64{x[0] - v[0], x[1] - v[1]}, [2]int64{x[0] + v[0]*r.Int64N(3), x[1] + v[1]*r.Int64N(3)})
	case "anywhere":
		c := func() int64 { return r.Int64N(2*MaxCoord+1) - MaxCoord }
		return mk([2]int64{c(), c()}, [2]int64{c(), c()})
	}
	panic(kind)
}

var segKinds = []string{"short", "long", "outside", "across the box's edge", "vertical", "along tile boundaries",
	"on multiples of 512 and 400", "through a wall's end or corner", "anywhere"}

func wallsBox(ws []Wall) (lo, hi [2]int64) {
	if len(ws) == 0 {
		return [2]int64{-4000, -4000}, [2]int64{4000, 4000}
	}
	lo, hi = ws[0].A, ws[0].A
	for _, w := range ws {
		for _, p := range [][2]int64{w.A, w.B} {
			lo = [2]int64{min(lo[0], p[0]), min(lo[1], p[1])}
			hi = [2]int64{max(hi[0], p[0]), max(hi[1], p[1])}
		}
	}
	return lo, hi
}

// TestIndex_5_6_BlockedVsScan compares Index.Blocked with scanning every wall through the
// reference, on wall sets from none to 5 000 walls and segments of every kind. It also
// checks that the tiles walked for a segment hold every wall its projection meets (not only
// the first that blocks), and that Cost bounds the walls Blocked tests.
func TestIndex_5_6_BlockedVsScan(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, set := range wallSets(r) {
		ix := New(set.ws)
		if ix.Len() != len(set.ws) {
			t.Errorf("%s: Len = %d, want %d", set.name, ix.Len(), len(set.ws))
		}
		lo, hi := wallsBox(set.ws)
		perKind := 400
		if testing.Short() {
			perKind = 40
		}
		blocked, met, maxTests, maxCostRatio := 0, 0, 0, 0.0
		for _, kind := range segKinds {
			for i := range perKind {
				p, q := segGen(r, kind, ix, set.ws, lo, hi)
				var want bool
				if len(set.ws) <= 10 || i%10 == 0 {
					want = scanBlocked(set.ws, p, q) // by the reference
				} else {
					want = scanBlocks(set.ws, p, q)
				}
				if got := ix.Blocked(p, q); got != want {
					t.Errorf("%s, %s: Blocked(%v, %v) = %v, scanning the walls %v", set.name, kind, p, q, got, want)
				}
				if got := ix.Blocked(q, p); got != want {
					t.Errorf("%s, %s: Blocked(%v, %v) = %v, scanning the walls %v", set.name, kind, q, p, got, want)
				}
				if want {
					blocked++
				}
				if ix.Len() == 0 {
					if c := ix.Cost(q.X-p.X, q.Y-p.Y); c != 0 {
						t.Errorf("%s: Cost = %d with no walls", set.name, c)
					}
					continue
				}
				tests, ids, _ := visited(ix, p, q)
				for i, w := range set.ws {
					if segsMeet(xy(p), xy(q), w.A, w.B) {
						met++
						if !ids[int32(i)] {
							t.Errorf("%s, %s: the tiles walked for %v → %v miss wall %d %v, which it meets",
								set.name, kind, p, q, i, w)
						}
					}
				}
				for _, d := range [][2]int64{{q.X - p.X, q.Y - p.Y}, {p.X - q.X, p.Y - q.Y}} {
					if c := ix.Cost(d[0], d[1]); c < tests {
						t.Errorf("%s, %s: Cost(%d, %d) = %d, but Blocked(%v, %v) may test %d walls",
							set.name, kind, d[0], d[1], c, p, q, tests)
					} else if tests > 0 {
						maxCostRatio = max(maxCostRatio, float64(tests)/float64(c))
					}
				}
				maxTests = max(maxTests, tests)
			}
		}
		t.Logf("%-28s %5d walls, %3d×%-3d tiles of %7d, most %3d: %4d of %d segments blocked, %5d wall meetings, up to %d tests (≤ %.2f of Cost)",
			set.name, ix.Len(), ix.nx, ix.ny, 1<<ix.shift, ix.most, blocked, perKind*len(segKinds), met, maxTests, maxCostRatio)
		if len(set.ws) > 0 && blocked == 0 {
			t.Errorf("%s: no segment blocked: the segments miss the walls", set.name)
		}
		if ix.nx > maxTilesAcross || ix.ny > maxTilesAcross {
			t.Errorf("%s: %d×%d tiles, more than %d across", set.name, ix.nx, ix.ny, maxTilesAcross)
		}
	}
}

// TestIndex_5_6_CornerAndEnds checks the Index on the SPEC's cases: a corner of two walls
// leaves no gap, a free end blocks, and segments ending on a wall or running along it pass,
// with the tile boundaries falling exactly on the walls.
func TestIndex_5_6_CornerAndEnds(t *testing.T) {
	ws := []Wall{wall(0, 0, 512, 0), wall(512, 0, 512, 512), wall(1024, 0, 1024, 512*3), wall(0, 1024, 512*3, 1024)}
	ix := New(ws)
	for _, c := range []struct {
		name string
		p, q los.Point
		want bool
	}{
		{"through the corner (512, 0)", pt(256, 256, 0), pt(768, -256, 0), true},
		{"through the corner (512, 0), other diagonal", pt(256, -256, 0), pt(768, 256, 0), true},
		{"grazing the free end (512, 512)", pt(256, 768, 0), pt(768, 256, 0), true},
		{"a unit past the free end", pt(256, 769, 0), pt(768, 257, 0), false},
		{"through the crossing (1024, 1024)", pt(900, 900, 0), pt(1100, 1100, 0), true},
		{"along the wall x = 1024", pt(1024, -512, 0), pt(1024, 2048, 0), true}, // crosses y = 1024's wall
		{"along the wall x = 512, beyond it", pt(512, 512, 0), pt(512, 1000, 0), false},
		{"ending on the wall x = 1024", pt(700, 700, 0), pt(1024, 700, 0), false},
		{"along a tile boundary, inside the walls", pt(768, 512, 0), pt(1000, 512, 0), false},
		{"vertical on a corner", pt(512, 0, 0), pt(512, 0, 800), false},
	} {
		want := scanBlocked(ws, c.p, c.q)
		if want != c.want {
			t.Errorf("%s: scanning the reference says %v, the SPEC %v", c.name, want, c.want)
		}
		if got := ix.Blocked(c.p, c.q); got != c.want {
			t.Errorf("%s: Blocked(%v, %v) = %v, want %v", c.name, c.p, c.q, got, c.want)
		}
		if got := ix.Blocked(c.q, c.p); got != c.want {
			t.Errorf("%s: Blocked(%v, %v) = %v, want %v", c.name, c.q, c.p, got, c.want)
		}
	}
}

// TestIndex_Empty: nil, the zero Index and an Index of no walls hold nothing.
func TestIndex_Empty(t *testing.T) {
	var nilIx *Index
	for name, ix := range map[string]*Index{"nil": nilIx, "zero": {}, "New(nil)": New(nil), "New([])": New([]Wall{})} {
		if ix.Len() != 0 {
			t.Errorf("%s: Len = %d", name, ix.Len())
		}
		if ix.Blocked(pt(0, 0, 0), pt(400, 400, 0)) || ix.Blocked(pt(-MaxCoord, 0, 0), pt(MaxCoord, 0, 0)) {
			t.Errorf("%s: Blocked is true", name)
		}
		if ix.Near([2]int64{-MaxCoord, -MaxCoord}, [2]int64{MaxCoord, MaxCoord}) {
			t.Errorf("%s: Near is true", name)
		}
		if c := ix.Cost(1<<30, 1<<30); c != 0 {
			t.Errorf("%s: Cost = %d", name, c)
		}
	}
	// Len counts walls, however many tiles they fill.
	ws := []Wall{wall(-MaxCoord, 0, MaxCoord, 0), wall(0, 0, 1, 1), wall(0, 0, 1, 1)}
	if n := New(ws).Len(); n != 3 {
		t.Errorf("Len = %d, want 3", n)
	}
}

// boxGen makes a closed box lo ≤ hi for Near around the walls ws of ix.
func boxGen(r *rand.Rand, ix *Index, ws []Wall, wlo, whi [2]int64) (lo, hi [2]int64) {
	size := int64(1) << ix.shift
	pick := func() [2]int64 {
		w, h := whi[0]-wlo[0], whi[1]-wlo[1]
		return [2]int64{clampC(wlo[0] - 2*size + r.Int64N(w+4*size+1)), clampC(wlo[1] - 2*size + r.Int64N(h+4*size+1))}
	}
	ext := func() [2]int64 {
		m := []int64{0, 1, 2, 400, size - 1, size, 3 * size}[r.IntN(7)]
		return [2]int64{r.Int64N(m + 1), r.Int64N(m + 1)}
	}
	var a [2]int64
	switch r.IntN(5) {
	case 0, 1:
		a = pick()
	case 2: // a wall's end as a corner, or just off it
		w := ws[r.IntN(len(ws))]
		a = w.A
		if r.IntN(2) == 0 {
			a = w.B
		}
		a[r.IntN(2)] += r.Int64N(3) - 1
	case 3: // a tile's corner, or just off it
		a = [2]int64{ix.x0 + size*(r.Int64N(int64(ix.nx)+2)-1), ix.y0 + size*(r.Int64N(int64(ix.ny)+2)-1)}
		a[r.IntN(2)] -= r.Int64N(2)
	default: // a lattice point inside a wall, or next to it
		w := ws[r.IntN(len(ws))]
		e := [2]int64{w.B[0] - w.A[0], w.B[1] - w.A[1]}
		g := gcd(e[0], e[1])
		k := r.Int64N(g + 1)
		a = [2]int64{w.A[0] + k*(e[0]/g), w.A[1] + k*(e[1]/g)}
		a[r.IntN(2)] += r.Int64N(3) - 1
	}
	d := ext()
	switch r.IntN(4) { // a is the box's lo, hi, or another corner
	case 0:
		return a, [2]int64{a[0] + d[0], a[1] + d[1]}
	case 1:
		return [2]int64{a[0] - d[0], a[1] - d[1]}, a
	case 2:
		return [2]int64{a[0] - d[0], a[1]}, [2]int64{a[0], a[1] + d[1]}
	}
	return [2]int64{a[0], a[1] - d[1]}, [2]int64{a[0] + d[0], a[1]}
}

// TestIndex_Near checks Near against the exact segment–box test: true whenever some wall has
// a point in the closed box; and, as it answers from tiles, false when every wall is more
// than two tiles away.
func TestIndex_Near(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for _, set := range wallSets(r) {
		if len(set.ws) == 0 {
			continue
		}
		ix := New(set.ws)
		size := int64(1) << ix.shift
		wlo, whi := wallsBox(set.ws)
		n := 3000
		if testing.Short() {
			n = 300
		}
		in, near, far := 0, 0, 0
		for range n {
			lo, hi := boxGen(r, ix, set.ws, wlo, whi)
			want := refNear(set.ws, lo, hi)
			got := ix.Near(lo, hi)
			if want {
				in++
				if !got {
					t.Errorf("%s: Near(%v, %v) = false, but a wall passes through the box", set.name, lo, hi)
				}
				continue
			}
			if got {
				near++
				m := 2 * size
				if !refNear(set.ws, [2]int64{lo[0] - m, lo[1] - m}, [2]int64{hi[0] + m, hi[1] + m}) {
					t.Errorf("%s: Near(%v, %v) = true, but every wall is more than two tiles (%d) away", set.name, lo, hi, m)
				}
			} else {
				far++
			}
		}
		// The whole range holds every wall.
		if !ix.Near([2]int64{-MaxCoord, -MaxCoord}, [2]int64{MaxCoord, MaxCoord}) {
			t.Errorf("%s: Near over the whole range is false", set.name)
		}
		t.Logf("%-28s %5d boxes: %4d hold a wall, %4d near one, %4d far", set.name, n, in, near, far)
		if in < n/20 || far < n/50 {
			t.Errorf("%s: the boxes are too rarely on a wall (%d) or away from them (%d)", set.name, in, far)
		}
	}
}

// TestIndex_NearHugeBox asks Near about boxes reaching beyond ±MaxCoord, up to the whole
// int64 plane (Near's documentation puts no bound on the box): walls are within ±MaxCoord,
// so a box that holds one of them must answer true. The walls are placed so that the
// table's tile (0, 0) and its last tile are empty.
func TestIndex_NearHugeBox(t *testing.T) {
	for _, ws := range [][]Wall{
		{wall(-1000, -1000, -600, -600)},
		{wall(-MaxCoord, -MaxCoord, MaxCoord, MaxCoord)},
		{wall(-1000, 5000, -999, 5000), wall(5000, -1000, 5000, -999)}, // x0 = y0 = −1000
		{wall(1000, 5000, 1001, 5000), wall(5000, 1000, 5000, 1001)},   // x0 = y0 = 1000
	} {
		ix := New(ws)
		for _, b := range []int64{MaxCoord, 1 << 40, 1 << 62, math.MaxInt64 - MaxCoord, math.MaxInt64} {
			for _, box := range [][2][2]int64{
				{{-b, -b}, {b, b}},
				{{-b, -b}, {10000, 10000}},
				{{-10000, -10000}, {b, b}},
				{{max(-b-1, math.MinInt64), max(-b-1, math.MinInt64)}, {b, b}},
			} {
				if !ix.Near(box[0], box[1]) {
					t.Errorf("walls %v: Near(%v, %v) = false, though the box holds them", ws, box[0], box[1])
				}
			}
		}
	}
}

// TestIndex_TilesOrder checks tiles' own promise on random segments: it visits tiles of the
// table only, each once, and stops as soon as visit returns true.
func TestIndex_TilesOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	ix := New(wallSets(r)[7].ws)
	lo, hi := wallsBox(ix.walls)
	for range 2000 {
		p, q := segGen(r, segKinds[r.IntN(len(segKinds))], ix, ix.walls, lo, hi)
		var ks []int
		ix.tiles(xy(p), xy(q), func(k int) bool { ks = append(ks, k); return false })
		if len(ks) == 0 {
			continue
		}
		for _, k := range ks {
			if k < 0 || k >= ix.nx*ix.ny {
				t.Fatalf("tiles(%v, %v) visits tile %d of %d", p, q, k, ix.nx*ix.ny)
			}
		}
		sorted := slices.Clone(ks)
		slices.Sort(sorted)
		if len(slices.Compact(sorted)) != len(ks) {
			t.Fatalf("tiles(%v, %v) visits a tile twice: %v", p, q, ks)
		}
		stop := r.IntN(len(ks))
		var again []int
		if !ix.tiles(xy(p), xy(q), func(k int) bool { again = append(again, k); return len(again) == stop+1 }) {
			t.Fatalf("tiles(%v, %v) returned false after visit returned true", p, q)
		}
		if !slices.Equal(again, ks[:stop+1]) {
			t.Fatalf("tiles(%v, %v) went on after visit returned true: %v, then %v", p, q, ks, again)
		}
	}
}
