package shadow

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/aoekit/aoekit/core/board"
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/los"
	"github.com/aoekit/aoekit/core/walls"
)

// The tests hold the Field to its contract, on which Draw Steel line of effect and barriers
// rely (SPEC §5.3, §3.2): a Clear verdict is never given to a segment that los.Blocked (SPEC
// §5.2, with the thin walls of §5.6) calls blocked, nor a Blocked verdict to one it calls
// clear; Unknown is always allowed. Expectations come from los.Blocked, from brute force, or
// from geometry argued in the comments, never from the code under test.

// A world is the solids and the walls of a board, as the engine hands them to los.Blocked:
// walls join the solid cells wherever blocking is asked (SPEC §5.6).
type world struct {
	*board.Solids
	ix *walls.Index
}

func (w world) WallBlocked(p, q los.Point) bool { return w.ix.Blocked(p, q) }

func newWorld(cells []board.Solid, ws []walls.Wall) world {
	return world{board.New(cells), walls.New(ws)}
}

// insets are the inset coordinates (SPEC §5.4) of the cells c0 … c1 on one axis, ascending:
// each cell's two, 1/400 inside its faces.
func insets(c0, c1 int) []int64 {
	var vs []int64
	for c := c0; c <= c1; c++ {
		vs = append(vs, int64(c)*los.Unit+1, int64(c)*los.Unit+los.Unit-1)
	}
	return vs
}

// cellOf is the cell (on one axis) whose span [400c, 400c+400) holds the lattice coordinate
// v (SPEC §5.1).
func cellOf(v int64) int64 {
	c := v / los.Unit
	if v%los.Unit < 0 {
		c--
	}
	return c
}

// plane is a point of the plane, in lattice units.
type plane struct{ x, y int64 }

// points are the inset corners of the cells of b, on the plane.
func points(b grid.Box) []plane {
	var ps []plane
	for _, y := range insets(b.Min.Y, b.Max.Y) {
		for _, x := range insets(b.Min.X, b.Max.X) {
			ps = append(ps, plane{x, y})
		}
	}
	return ps
}

// A tally counts verdicts.
type tally [3]int

func (t tally) String() string {
	return fmt.Sprintf("clear %d blocked %d unknown %d", t[Clear], t[Blocked], t[Unknown])
}

// judge asks f for the segment p → q and holds a decided verdict to los.Blocked over s.
func judge(t testing.TB, f *Field, s los.Solids, p, q los.Point, n *tally, what func() string) Verdict {
	t.Helper()
	v := f.Verdict(p, q)
	if v > Blocked {
		t.Fatalf("%s\n%v → %v: verdict %d", what(), p, q, v)
	}
	n[v]++
	switch v {
	case Clear:
		if los.Blocked(p, q, s) {
			t.Fatalf("%s\n%v → %v: Clear, but los.Blocked says blocked", what(), p, q)
		}
	case Blocked:
		if !los.Blocked(p, q, s) {
			t.Fatalf("%s\n%v → %v: Blocked, but los.Blocked says clear", what(), p, q)
		}
	}
	return v
}

// A picker draws numbers: a *rand.Rand in the tests, the fuzzer's bytes in FuzzField.
type picker interface{ IntN(n int) int }

// zRanges are the height ranges [zlo, zhi] the scenes use besides random ones: inside one
// level (1…399 is every inset height of level 0), on its planes (0…400), two and three
// levels (−399…799), levels above and below 0, single heights, and ranges that end on a
// level plane or straddle one.
var zRanges = [][2]int64{
	{1, 399}, {0, 400}, {-399, 799}, {401, 799}, {-400, 800}, {399, 401}, {0, 800},
	{1, 1}, {399, 399}, {200, 200}, {0, 0}, {400, 400}, {-1, 1}, {-399, -1}, {801, 1199},
	{120, 520}, {-400, 0}, {1, 799}, {-399, 399},
}

// heights are the point heights tried in [zlo, zhi]: its ends, its middle, and every level
// plane, inset height (400l+1, 400l+399), mid height and boosted lowest corner (400l+121:
// the inset plus the low-point boost of SPEC §5.4) in it.
func heights(zlo, zhi int64) []int64 {
	zs := []int64{zlo, zhi, zlo + (zhi-zlo)/2}
	if zlo < zhi {
		zs = append(zs, zlo+1, zhi-1)
	}
	for l := int64(-3); l <= 4; l++ {
		for _, o := range []int64{0, 1, 121, 200, 399} {
			if z := l*los.Unit + o; zlo <= z && z <= zhi {
				zs = append(zs, z)
			}
		}
	}
	slices.Sort(zs)
	return slices.Compact(zs)
}

// fills are the awkward partial fills (SPEC §1.6): the thinnest, a low-point height, half,
// and the fullest short of a block.
var fills = []int{1, 2, 120, 121, 200, 398, 399}

func pickFill(r picker) int {
	switch r.IntN(4) {
	case 0, 1:
		return board.Full
	case 2:
		return fills[r.IntN(len(fills))]
	}
	return 1 + r.IntN(board.Full-1)
}

// A scene is a board of n × n squares from (ox, oy), with solids on levels −1 … 2, thin
// walls, a source box and a target box, and a height range.
type scene struct {
	name      string
	n, ox, oy int
	cells     []board.Solid
	ws        []walls.Wall
	src, dst  grid.Box
	zlo, zhi  int64
}

func (sc *scene) String() string {
	return fmt.Sprintf("%s: board %d×%d at (%d, %d), z [%d, %d], src %v, dst %v\ncells %v\nwalls %v",
		sc.name, sc.n, sc.n, sc.ox, sc.oy, sc.zlo, sc.zhi, sc.src, sc.dst, sc.cells, sc.ws)
}

// genScene draws a scene of at most maxN squares across.
func genScene(r picker, maxN int) *scene {
	sc := &scene{n: 3 + r.IntN(maxN-2), ox: r.IntN(7) - 4, oy: r.IntN(7) - 4}
	n, ox, oy := sc.n, sc.ox, sc.oy
	if k := r.IntN(len(zRanges) + 4); k < len(zRanges) {
		sc.zlo, sc.zhi = zRanges[k][0], zRanges[k][1]
	} else {
		sc.zlo = int64(r.IntN(1640)) - 420
		sc.zhi = sc.zlo + int64(r.IntN(int(1221-sc.zlo)))
	}

	// Solids: one level, or several (−1 … 2) with floors, stacked full blocks and ceilings.
	density := 2 + r.IntN(5) // one cell in density
	if r.IntN(3) == 0 {
		for y := oy; y < oy+n; y++ {
			for x := ox; x < ox+n; x++ {
				if r.IntN(density) == 0 {
					sc.cells = append(sc.cells, board.Solid{Cell: grid.C(x, y, 0), Fill: pickFill(r)})
				}
			}
		}
	} else {
		floor := r.IntN(3) // 0: none, 1: a full floor at −1, 2: a floor with holes
		for y := oy; y < oy+n; y++ {
			for x := ox; x < ox+n; x++ {
				if floor == 1 || floor == 2 && r.IntN(4) != 0 {
					sc.cells = append(sc.cells, board.Solid{Cell: grid.C(x, y, -1), Fill: board.Full})
				}
				if r.IntN(density) != 0 {
					continue
				}
				switch r.IntN(4) {
				case 0: // one solid on some level
					sc.cells = append(sc.cells, board.Solid{Cell: grid.C(x, y, r.IntN(4)-1), Fill: pickFill(r)})
				case 1: // a stack of full blocks, maybe capped by a partial one
					z0 := r.IntN(3) - 1
					z1 := z0 + r.IntN(3-z0)
					for z := z0; z <= z1; z++ {
						sc.cells = append(sc.cells, board.Solid{Cell: grid.C(x, y, z), Fill: board.Full})
					}
					if z1 < 2 && r.IntN(2) == 0 {
						sc.cells = append(sc.cells, board.Solid{Cell: grid.C(x, y, z1+1), Fill: pickFill(r)})
					}
				case 2: // a ceiling above an empty level
					sc.cells = append(sc.cells, board.Solid{Cell: grid.C(x, y, 1+r.IntN(2)), Fill: pickFill(r)})
				default: // a step on level 0 with a block over it
					sc.cells = append(sc.cells, board.Solid{Cell: grid.C(x, y, 0), Fill: pickFill(r)},
						board.Solid{Cell: grid.C(x, y, 1), Fill: board.Full})
				}
			}
		}
	}

	// Boxes: a source of 1×1, 2×2, 3×2 or 2×3 squares and a target box.
	sizes := [][2]int{{1, 1}, {2, 2}, {3, 2}, {2, 3}}
	sz := sizes[r.IntN(len(sizes))]
	w, h := sz[0], sz[1]
	whole := grid.Box{Min: grid.C(ox, oy, 0), Max: grid.C(ox+n-1, oy+n-1, 0)}
	place := func(x, y int) grid.Box { return grid.Box{Min: grid.C(x, y, 0), Max: grid.C(x+w-1, y+h-1, 0)} }
	switch r.IntN(5) {
	case 0: // inside the board, which is the target box
		sc.dst, sc.src = whole, place(ox+r.IntN(n-w+1), oy+r.IntN(n-h+1))
	case 1: // inside, at an edge or a corner of the target box
		x, y := ox+r.IntN(n-w+1), oy+r.IntN(n-h+1)
		if r.IntN(2) == 0 {
			x = ox + (n-w)*r.IntN(2)
		}
		if r.IntN(2) == 0 {
			y = oy + (n-h)*r.IntN(2)
		}
		sc.dst, sc.src = whole, place(x, y)
	case 2: // the target box is one side of the board, the source on the other
		k := 1 + r.IntN(n-1)
		if r.IntN(2) == 0 {
			sc.dst = grid.Box{Min: whole.Min, Max: grid.C(ox+k-1, oy+n-1, 0)}
			sc.src = place(ox+k+r.IntN(n-k), oy+r.IntN(n-h+1))
		} else {
			sc.dst = grid.Box{Min: grid.C(ox, oy+k, 0), Max: whole.Max}
			sc.src = place(ox+r.IntN(n-w+1), oy+k-h-r.IntN(k))
		}
	case 3: // the source straddles the board's edge
		sc.dst, sc.src = whole, place(ox-w+1+r.IntN(n+w-1), oy-h+1+r.IntN(n+h-1))
		if r.IntN(2) == 0 {
			sc.src = place(ox-w+1+r.IntN(w), oy+r.IntN(n-h+1))
		}
	default: // two boxes anywhere around the board
		x0, y0 := ox-1+r.IntN(n+1), oy-1+r.IntN(n+1)
		sc.dst = grid.Box{Min: grid.C(x0, y0, 0), Max: grid.C(x0+r.IntN(n), y0+r.IntN(n), 0)}
		sc.src = place(ox-2+r.IntN(n+2), oy-2+r.IntN(n+2))
	}

	// Walls (SPEC §5.6).
	srcPts := points(sc.src)
	for k := r.IntN(6); k > 0; k-- {
		sc.ws = append(sc.ws, genWall(r, sc, srcPts))
	}
	return sc
}

// genWall draws a wall near the board: on a grid line, diagonal, anywhere on the lattice,
// short, long, through one of the source points ps or along a line through one, or through
// a grid vertex; with a height that covers [zlo, zhi], or not.
func genWall(r picker, sc *scene, ps []plane) walls.Wall {
	n, u := int64(sc.n), int64(los.Unit)
	x0, y0 := int64(sc.ox)*u, int64(sc.oy)*u
	arb := func() [2]int64 {
		return [2]int64{x0 - 300 + int64(r.IntN(int(n*u+600))), y0 - 300 + int64(r.IntN(int(n*u+600)))}
	}
	vertex := func() [2]int64 {
		return [2]int64{x0 + u*int64(r.IntN(int(n+1))), y0 + u*int64(r.IntN(int(n+1)))}
	}
	sign := func() int64 { return int64(2*r.IntN(2) - 1) }
	dir := func() [2]int64 { // a small direction, often along an axis or a diagonal
		var d [2]int64
		for d == [2]int64{} {
			d = [2]int64{int64(r.IntN(7) - 3), int64(r.IntN(7) - 3)}
		}
		f := []int64{1, 1, 7, 100, 133}[r.IntN(5)]
		return [2]int64{d[0] * f, d[1] * f}
	}
	var w walls.Wall
	switch r.IntN(9) {
	case 0: // on a grid line
		w.A = vertex()
		l := u * int64(1+r.IntN(int(n))) * sign()
		if w.B = w.A; r.IntN(2) == 0 {
			w.B[0] += l
		} else {
			w.B[1] += l
		}
	case 1: // diagonal, from a vertex or anywhere
		if w.A = arb(); r.IntN(2) == 0 {
			w.A = vertex()
		}
		d := int64(1 + r.IntN(int(n*u)))
		w.B = [2]int64{w.A[0] + d*sign(), w.A[1] + d*sign()}
	case 2: // anywhere on the lattice
		w.A, w.B = arb(), arb()
	case 3: // short
		w.A = arb()
		w.B = [2]int64{w.A[0] + int64(r.IntN(11)-5), w.A[1] + int64(r.IntN(11)-5)}
	case 4: // long, across the board and past it, sometimes as far as walls go
		a, b := arb(), arb()
		if r.IntN(4) == 0 {
			a[0], b[0] = -walls.MaxCoord+int64(r.IntN(1000)), walls.MaxCoord-int64(r.IntN(1000))
			if r.IntN(2) == 0 {
				a[1], b[1] = -walls.MaxCoord, walls.MaxCoord
			}
			if r.IntN(2) == 0 {
				a[0], a[1], b[0], b[1] = a[1], a[0], b[1], b[0]
			}
			w.A, w.B = a, b
			break
		}
		if r.IntN(2) == 0 {
			w.A, w.B = [2]int64{x0 - u - int64(r.IntN(800)), a[1]}, [2]int64{x0 + (n+1)*u + int64(r.IntN(800)), b[1]}
		} else {
			w.A, w.B = [2]int64{a[0], y0 - u - int64(r.IntN(800))}, [2]int64{b[0], y0 + (n+1)*u + int64(r.IntN(800))}
		}
	case 5: // through a source point, or ending on it
		p, d := ps[r.IntN(len(ps))], dir()
		k, m := int64(r.IntN(4)), int64(r.IntN(4))
		if k == 0 && m == 0 {
			m = 1
		}
		w.A = [2]int64{p.x - k*d[0], p.y - k*d[1]}
		w.B = [2]int64{p.x + m*d[0], p.y + m*d[1]}
	case 6: // on a line through a source point, not through it
		p, d := ps[r.IntN(len(ps))], dir()
		k := int64(1 + r.IntN(3))
		m := k + int64(1+r.IntN(4))
		s := sign()
		w.A = [2]int64{p.x + s*k*d[0], p.y + s*k*d[1]}
		w.B = [2]int64{p.x + s*m*d[0], p.y + s*m*d[1]}
	case 7: // from a grid vertex, to another one or anywhere
		w.A, w.B = vertex(), vertex()
		if r.IntN(2) == 0 {
			w.B = arb()
		}
	default: // a short wall on a grid line, a thin door across part of a cell edge
		w.A = vertex()
		w.B = w.A
		w.B[r.IntN(2)] += int64(1+r.IntN(399)) * sign()
	}
	if w.A == w.B {
		w.B[0]++
	}
	w.Bottom, w.Top = genHeights(r, sc.zlo, sc.zhi)
	return w
}

// genHeights draws a wall's bottom and top: unlimited, covering [zlo, zhi] exactly or with
// room, reaching into it from above or below, just touching its ends, missing it, or
// standing on one level.
func genHeights(r picker, zlo, zhi int64) (bottom, top int64) {
	span := int(zhi - zlo)
	switch r.IntN(12) {
	case 0, 1:
		return walls.NoBottom, walls.NoTop
	case 2:
		return zlo, zhi
	case 3:
		return zlo - int64(r.IntN(500)), zhi + int64(r.IntN(500))
	case 4:
		if r.IntN(2) == 0 {
			return walls.NoBottom, zhi
		}
		return zlo, walls.NoTop
	case 5: // from inside the range up
		return zlo + 1 + int64(r.IntN(span+1)), walls.NoTop
	case 6: // from below up into the range
		return walls.NoBottom, zlo + int64(r.IntN(span+1)) - 1
	case 7: // touching the range's bottom
		return zlo - int64(r.IntN(400)), zlo
	case 8: // touching its top
		return zhi, zhi + int64(r.IntN(400))
	case 9: // missing it
		if r.IntN(2) == 0 {
			return walls.NoBottom, zlo - 1 - int64(r.IntN(400))
		}
		return zhi + 1 + int64(r.IntN(400)), walls.NoTop
	case 10: // one level
		l := int64(r.IntN(4) - 1)
		return l * los.Unit, (l + 1) * los.Unit
	}
	if span >= 2 { // inside the range
		return zlo + 1, zhi - 1
	}
	return zlo, zhi
}

// soundScene checks the contract for every pair of a source point and a target point of sc,
// at a pair of heights in [zlo, zhi] cycling through heights(zlo, zhi), and when thorough at
// two more (both points at one height, and a pair drawn from r); and that Verdict answers
// Unknown for points that are no inset corners of the boxes' cells or lie outside the height
// range.
func soundScene(t testing.TB, sc *scene, r picker, n *tally, thorough bool) {
	t.Helper()
	s := newWorld(sc.cells, sc.ws)
	what := sc.String
	defer func() { // a panic fails this scene, with the scene, rather than the whole run
		if e := recover(); e != nil {
			t.Fatalf("%s\npanic: %v", what(), e)
		}
	}()
	f := New(sc.src, sc.dst, sc.zlo, sc.zhi, s, sc.ws)
	zs := heights(sc.zlo, sc.zhi)
	ps, qs := points(sc.src), points(sc.dst)

	// Points that are not the field's: Unknown, whatever the segment (SPEC §5.4 insets only).
	p0, q0 := ps[r.IntN(len(ps))], qs[r.IntN(len(qs))]
	pz, qz := zs[r.IntN(len(zs))], zs[r.IntN(len(zs))]
	good := func(p plane, z int64) los.Point { return los.Point{X: p.x, Y: p.y, Z: z} }
	for _, bad := range offField(p0, pz, sc.src, sc.zlo, sc.zhi) {
		if v := f.Verdict(bad, good(q0, qz)); v != Unknown {
			t.Fatalf("%s\nsource %v is no inset corner of src in range, yet Verdict is %d", what(), bad, v)
		}
	}
	for _, bad := range offField(q0, qz, sc.dst, sc.zlo, sc.zhi) {
		if v := f.Verdict(good(p0, pz), bad); v != Unknown {
			t.Fatalf("%s\ntarget %v is no inset corner of dst in range, yet Verdict is %d", what(), bad, v)
		}
	}

	for i, p := range ps {
		for j, q := range qs {
			a, b := (i+j)%len(zs), (3*i+7*j+1)%len(zs)
			v := judge(t, f, s, good(p, zs[a]), good(q, zs[b]), n, what)
			if thorough {
				// Field documents that a verdict holds for every height in [zlo, zhi].
				v1 := judge(t, f, s, good(p, zs[a]), good(q, zs[a]), n, what) // level: p and q at one height
				v2 := judge(t, f, s, good(p, zs[r.IntN(len(zs))]), good(q, zs[r.IntN(len(zs))]), n, what)
				if v1 != v || v2 != v {
					t.Fatalf("%s\n%v → %v: verdicts %d, %d, %d at different heights", what(), p, q, v, v1, v2)
				}
			}
		}
	}
}

// offField are points near the inset corner p (at height z) of a cell of b that are not
// inset corners of b's cells at heights in [zlo, zhi]: moved 1 or 199 off an inset
// coordinate (onto a grid line, 2 or 398 into the cell, to a centre or near one), inset
// corners of the cells just outside b, and p above or below the range or past MaxCoord.
func offField(p plane, z int64, b grid.Box, zlo, zhi int64) []los.Point {
	u := int64(los.Unit)
	out := []los.Point{
		{X: p.x + 1, Y: p.y, Z: z}, {X: p.x - 1, Y: p.y, Z: z}, {X: p.x, Y: p.y + 1, Z: z},
		{X: p.x, Y: p.y - 1, Z: z}, {X: p.x + 199, Y: p.y, Z: z}, {X: p.x, Y: p.y - 199, Z: z},
		{X: int64(b.Max.X+1)*u + 1, Y: p.y, Z: z}, {X: int64(b.Min.X)*u - 1, Y: p.y, Z: z},
		{X: p.x, Y: int64(b.Max.Y+1)*u + 1, Z: z}, {X: p.x, Y: int64(b.Min.Y)*u - 1, Z: z},
		{X: p.x, Y: p.y, Z: zlo - 1}, {X: p.x, Y: p.y, Z: zhi + 1},
		{X: p.x, Y: p.y, Z: los.MaxCoord + 1}, {X: p.x, Y: p.y, Z: -los.MaxCoord - 1},
	}
	return out
}

// TestSoundRandom holds every verdict of fields over random boards to los.Blocked (SPEC
// §5.2, §5.6): boards of 3 to 14 squares across with full and partial solids on one level or
// on levels −1 … 2, thin walls of every kind, sources of 1×1, 2×2, 3×2 and 2×3 squares
// inside, at the edge of or outside the target box, and height ranges over one to three
// levels.
func TestSoundRandom(t *testing.T) {
	soundRandom(t, rand.New(rand.NewPCG(20240611, 5)), 500, func(sc *scene, r picker, n *tally) { soundScene(t, sc, r, n, true) })
}

// soundRandom checks trials random scenes (a fifth of them with -short) with check, and that
// the verdicts it tallies hold some Clear and some Blocked: the boards are mostly open, so a
// field that never decides is broken (see also the geometric tests below, which pin exact
// counts).
func soundRandom(t *testing.T, r *rand.Rand, trials int, check func(sc *scene, r picker, n *tally)) {
	if testing.Short() {
		trials /= 5
	}
	var n tally
	for trial := range trials {
		sc := genScene(r, 14)
		sc.name = fmt.Sprintf("trial %d", trial)
		check(sc, r, &n)
	}
	t.Logf("%d scenes: %v", trials, n)
	if n[Clear] == 0 || n[Blocked] == 0 {
		t.Errorf("no Clear or no Blocked verdict in %d scenes: %v", trials, n)
	}
}

// TestSoundCentres holds every verdict of NewCentres's fields (TDGS's centre-to-centre line
// of effect, SPEC §5.3) to los.Blocked over the random boards of TestSoundRandom (see
// soundCentres).
func TestSoundCentres(t *testing.T) {
	soundRandom(t, rand.New(rand.NewPCG(20261201, 9)), 4000, func(sc *scene, r picker, n *tally) { soundCentres(t, sc, r, n) })
}

// soundCentres holds a field of NewCentres over sc to los.Blocked: its source point a cell's
// centre, a grid corner (the centre of a space of even size), a point with one coordinate on a
// grid line, or anywhere on the lattice, in a cell of sc.src, with up to two more walls
// through it; every target the centre of a cell of sc.dst, at heights drawn from [zlo, zhi].
// Points that are not the field's get Unknown.
func soundCentres(t testing.TB, sc *scene, r picker, n *tally) {
	t.Helper()
	u := int64(los.Unit)
	cx, cy := int64(sc.src.Min.X+r.IntN(sc.src.Max.X-sc.src.Min.X+1)), int64(sc.src.Min.Y+r.IntN(sc.src.Max.Y-sc.src.Min.Y+1))
	var p plane
	switch r.IntN(4) {
	case 0:
		p = plane{cx*u + u/2, cy*u + u/2}
	case 1:
		p = plane{cx * u, cy * u}
	case 2:
		p = plane{cx * u, cy*u + u/2}
	default:
		p = plane{cx*u + int64(r.IntN(int(u))), cy*u + int64(r.IntN(int(u)))}
	}
	for k := r.IntN(3); k > 0; k-- {
		sc.ws = append(sc.ws, genWall(r, sc, []plane{p}))
	}
	sc.name += fmt.Sprintf(", source point %v", p)
	s := newWorld(sc.cells, sc.ws)
	defer func() { // a panic fails this scene, with the scene, rather than the whole run
		if e := recover(); e != nil {
			t.Fatalf("%s\npanic: %v", sc, e)
		}
	}()
	f := NewCentres(los.Point{X: p.x, Y: p.y, Z: sc.zlo}, sc.dst, sc.zlo, sc.zhi, s, sc.ws)
	zs := heights(sc.zlo, sc.zhi)
	i := 0
	for y := sc.dst.Min.Y; y <= sc.dst.Max.Y; y++ {
		for x := sc.dst.Min.X; x <= sc.dst.Max.X; x++ {
			i++
			pp := los.Point{X: p.x, Y: p.y, Z: zs[i%len(zs)]}
			q := los.Point{X: int64(x)*u + u/2, Y: int64(y)*u + u/2, Z: zs[(i*7/3)%len(zs)]}
			judge(t, f, s, pp, q, n, sc.String)
			if i%5 != 0 {
				continue
			}
			for _, bad := range []los.Point{{X: q.X + 1, Y: q.Y, Z: q.Z}, {X: q.X, Y: q.Y - 199, Z: q.Z}, {X: q.X, Y: q.Y, Z: sc.zhi + 1}} {
				if v := f.Verdict(pp, bad); v != Unknown {
					t.Fatalf("%s\ntarget %v is no centre of dst in range, yet Verdict is %d", sc, bad, v)
				}
			}
			if v := f.Verdict(los.Point{X: p.x + 1, Y: p.y, Z: pp.Z}, q); v != Unknown {
				t.Fatalf("%s\nsource %v is not the field's, yet Verdict is %d", sc, p, v)
			}
		}
	}
}

// TestSoundSpecial holds fields to los.Blocked on hand-made scenes that random ones hit only
// by luck: walls through a source point and along lines through it, walls on the grid
// lines of the source cell, floors and stacked blocks at the ends of the height range.
func TestSoundSpecial(t *testing.T) {
	u := int64(los.Unit)
	src := grid.Box{Min: grid.C(2, 2, 0), Max: grid.C(2, 2, 0)}
	dst := grid.Box{Min: grid.C(0, 0, 0), Max: grid.C(5, 5, 0)}
	p := plane{2*u + 1, 2*u + 399}
	all := func(bottom, top int64, ws ...walls.Wall) []walls.Wall {
		for i := range ws {
			ws[i].Bottom, ws[i].Top = bottom, top
		}
		return ws
	}
	wall := func(ax, ay, bx, by int64) walls.Wall { return walls.Wall{A: [2]int64{ax, ay}, B: [2]int64{bx, by}} }
	wallSets := [][]walls.Wall{
		all(walls.NoBottom, walls.NoTop, wall(p.x, p.y, p.x+300, p.y+300)),                                           // ending on p, diagonal
		all(walls.NoBottom, walls.NoTop, wall(p.x-300, p.y, p.x+300, p.y)),                                           // through p, along x
		all(walls.NoBottom, walls.NoTop, wall(p.x, p.y-900, p.x, p.y+900)),                                           // through p, along y
		all(walls.NoBottom, walls.NoTop, wall(p.x+10, p.y, p.x+800, p.y), wall(p.x, p.y+5, p.x, p.y+1000)),           // along lines through p
		all(walls.NoBottom, walls.NoTop, wall(p.x-1, p.y-1, p.x-801, p.y-801), wall(p.x+2, p.y-1, p.x+802, p.y-401)), // on lines through p, behind and ahead
		all(0, 400, wall(2*u, 2*u, 3*u, 2*u), wall(3*u, 2*u, 3*u, 3*u)),                                              // two sides of the source cell
		all(1, 399, wall(0, 3*u, 6*u, 3*u)),                                                                          // a long wall on a grid line
		all(walls.NoBottom, 200, wall(4*u, 0, 4*u, 6*u)),                                                             // half height
		all(400, walls.NoTop, wall(4*u, 0, 4*u, 6*u)),                                                                // above level 0
		all(walls.NoBottom, walls.NoTop, wall(3*u+1, 0, 3*u+1, 6*u), wall(0, 4*u+399, 6*u, 4*u+399)),                 // on inset lines of targets
		all(walls.NoBottom, walls.NoTop, wall(4*u+1, 1*u+1, 5*u+399, 5*u+399)),                                       // through inset corners of targets
	}
	var floor, stack []board.Solid
	for y := 0; y < 6; y++ {
		for x := 0; x < 6; x++ {
			floor = append(floor, board.Solid{Cell: grid.C(x, y, -1), Fill: board.Full})
			if (x+y)%3 == 0 && (x != 2 || y != 2) {
				for z := -1; z <= 1; z++ {
					stack = append(stack, board.Solid{Cell: grid.C(x, y, z), Fill: board.Full})
				}
			}
		}
	}
	diag := []board.Solid{{Cell: grid.C(3, 3, 0), Fill: board.Full}, {Cell: grid.C(4, 4, 0), Fill: board.Full},
		{Cell: grid.C(1, 3, 0), Fill: 200}, {Cell: grid.C(0, 4, 0), Fill: 200}}
	boards := [][]board.Solid{nil, floor, stack, diag, append(slices.Clone(floor), stack...)}
	r := rand.New(rand.NewPCG(7, 7))
	var n tally
	for _, cells := range boards {
		for _, ws := range append(wallSets, nil) {
			for _, zr := range zRanges {
				sc := &scene{name: "special", n: 6, cells: cells, ws: ws, src: src, dst: dst, zlo: zr[0], zhi: zr[1]}
				soundScene(t, sc, r, &n, true)
			}
		}
	}
	t.Logf("%v", n)
}

// has is slope membership by definition, for the brute force: lo < t < hi, or t on a closed
// end.
func (iv ival) has(t slope) bool {
	return cmpSlope(iv.lo, t) < 0 && cmpSlope(t, iv.hi) < 0 ||
		cmpSlope(iv.lo, t) == 0 && !iv.loOpen || cmpSlope(iv.hi, t) == 0 && !iv.hiOpen
}

// cmpSlope compares v/u with w/x (u, x > 0) by cross-multiplication, written out here
// rather than taken from slope.less.
func cmpSlope(a, b slope) int {
	l, r := a.v*b.u, b.v*a.u
	switch {
	case l < r:
		return -1
	case l > r:
		return 1
	}
	return 0
}

// randSlope is v/u with u in 1…4 and |v/u| ≤ 3: small ratios, so that ends often coincide.
func randSlope(r *rand.Rand) slope {
	u := int64(1 + r.IntN(4))
	return slope{int64(r.IntN(int(6*u+1))) - 3*u, u}
}

// randIval is a non-empty interval of such slopes, each end open or closed.
func randIval(r *rand.Rand) ival {
	a, b := randSlope(r), randSlope(r)
	if cmpSlope(b, a) < 0 {
		a, b = b, a
	}
	iv := ival{lo: a, hi: b}
	if cmpSlope(a, b) < 0 {
		iv.loOpen, iv.hiOpen = r.IntN(2) == 0, r.IntN(2) == 0
	}
	return iv
}

// probes are a dense set of slopes around ivs: every end (and ±1), the midpoint of each two
// neighbours, and a point past each extreme, ascending and distinct. An interval union
// differs from another somewhere only if it differs at one of these.
func probes(ivs []ival) []slope {
	ts := []slope{{-1, 1}, {1, 1}}
	for _, iv := range ivs {
		ts = append(ts, iv.lo, iv.hi)
	}
	slices.SortFunc(ts, cmpSlope)
	ts = slices.CompactFunc(ts, func(a, b slope) bool { return cmpSlope(a, b) == 0 })
	out := []slope{{ts[0].v - ts[0].u, ts[0].u}}
	for i, t := range ts {
		out = append(out, t)
		if i+1 < len(ts) {
			n := ts[i+1]
			out = append(out, slope{t.v*n.u + n.v*t.u, 2 * t.u * n.u})
		}
	}
	last := ts[len(ts)-1]
	return append(out, slope{last.v + last.u, last.u})
}

// TestUnion checks the interval union against brute-force membership: random intervals of
// small-ratio slopes, each end open or closed, added in random order; after every add,
// covers with a fresh cursor and with one cursor shared over ascending probes agrees with
// "some interval added so far holds the slope", and the union stays sorted, disjoint and
// apart.
func TestUnion(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 14))
	for trial := range 4000 {
		var u union
		var added []ival
		for range 1 + r.IntN(12) {
			iv := randIval(r)
			added = append(added, iv)
			u.add(iv)
			for i := 1; i < len(u); i++ {
				if !below(&u[i-1], &u[i]) {
					t.Fatalf("trial %d: after adding %v: intervals %d and %d overlap or join: %v", trial, added, i-1, i, u)
				}
			}
			ts := probes(added)
			shared := 0
			for _, s := range ts {
				want := false
				for _, iv := range added {
					want = want || iv.has(s)
				}
				fresh := 0
				if got := u.covers(&fresh, s); got != want {
					t.Fatalf("trial %d: added %v: covers(%d/%d) = %v, want %v (union %v)", trial, added, s.v, s.u, got, want, u)
				}
				if got := u.covers(&shared, s); got != want {
					t.Fatalf("trial %d: added %v: shared cursor: covers(%d/%d) = %v, want %v (union %v)", trial, added, s.v, s.u, got, want, u)
				}
			}
		}
	}
}

// TestClip checks clip against brute force: the interval narrowed to the cone's slopes
// [−1, 1] holds the same probes as the interval and [−1, 1] together, and ok tells whether
// any does.
func TestClip(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 92))
	cone := ival{lo: slope{-1, 1}, hi: slope{1, 1}}
	for range 20000 {
		iv := randIval(r)
		c := iv
		ok := c.clip()
		some := false
		for _, s := range probes([]ival{iv}) {
			want := iv.has(s) && cone.has(s)
			some = some || want
			if ok && c.has(s) != want {
				t.Fatalf("%v clipped to %v: holds %d/%d = %v, want %v", iv, c, s.v, s.u, c.has(s), want)
			}
		}
		if ok != some {
			t.Fatalf("%v: clip ok = %v, but the interval and [−1, 1] share a slope: %v", iv, ok, some)
		}
	}
}

// TestInsetIndex checks the mapping between inset coordinates and their indices against
// SPEC §5.4: the coordinates of cell c are 400c+1 and 400c+399, two per cell ascending from
// the box's first cell; anything else, or before the first cell, has none. The centres'
// lattice alike: 400c+200, one per cell. first, for every x, is the index of the first
// coordinate at or past x, found by counting.
func TestInsetIndex(t *testing.T) {
	for _, c0 := range []int{-5, -1, 0, 3} {
		for k, v := range insets(c0, c0+6) {
			if got := corners.at(v, c0); got != k {
				t.Errorf("at(%d, %d) = %d, want %d", v, c0, got, k)
			}
			if got := corners.coord(k, c0); got != v {
				t.Errorf("coord(%d, %d) = %d, want %d", k, c0, got, v)
			}
			for _, off := range []int64{-1, 1, 200} {
				if got := corners.at(v+off, c0); got != -1 {
					t.Errorf("at(%d, %d) = %d, want -1 (no inset coordinate)", v+off, c0, got)
				}
			}
		}
		for _, v := range insets(c0-3, c0-1) {
			if got := corners.at(v, c0); got != -1 {
				t.Errorf("at(%d, %d) = %d, want -1 (before the first cell)", v, c0, got)
			}
		}
		for k := range 7 {
			v := int64(c0+k)*unit + 200
			if got := centres.at(v, c0); got != k {
				t.Errorf("centres.at(%d, %d) = %d, want %d", v, c0, got, k)
			}
			if got := centres.coord(k, c0); got != v {
				t.Errorf("centres.coord(%d, %d) = %d, want %d", k, c0, got, v)
			}
			for _, off := range []int64{-1, 1, -199, 199, 200} {
				if got := centres.at(v+off, c0); got != -1 {
					t.Errorf("centres.at(%d, %d) = %d, want -1 (no centre)", v+off, c0, got)
				}
			}
		}
		if got := centres.at(int64(c0-1)*unit+200, c0); got != -1 {
			t.Errorf("centres.at(the centre before cell %d) = %d, want -1", c0, got)
		}
		for _, l := range []lattice{corners, centres} {
			var all []int64 // every coordinate of cells c0 … c0+5, ascending
			for c := c0; c < c0+6; c++ {
				all = append(all, int64(c)*unit+l.lo)
				if l.per == 2 {
					all = append(all, int64(c)*unit+l.hi)
				}
			}
			for x := int64(c0) * unit; x <= int64(c0+5)*unit+l.lo; x++ {
				want := 0
				for want < len(all) && all[want] < x {
					want++
				}
				if got := l.first(x, c0); got != want {
					t.Fatalf("%+v: first(%d, %d) = %d, want %d", l, x, c0, got, want)
				}
			}
		}
	}
}

// forPairs calls fn for every source point p and target point q of the boxes, at heights
// drawn from zs.
func forPairs(src, dst grid.Box, zs []int64, fn func(p, q los.Point)) {
	i := 0
	for _, p := range points(src) {
		for _, q := range points(dst) {
			i++
			fn(los.Point{X: p.x, Y: p.y, Z: zs[i%len(zs)]}, los.Point{X: q.x, Y: q.y, Z: zs[(i*7/3)%len(zs)]})
		}
	}
}

// TestClearEmpty: with nothing that reaches the heights [zlo, zhi] inside the hull of the
// source and target boxes (the smallest box holding both), no closed solid box and no wall touches any segment between
// their points, so every segment is clear (SPEC §5.2, §5.6) and a field must say so for every
// pair of distinct points of the plane. The count is geometric: every pair of the S source
// and T target points, less the pairs on one plane point, four for each cell the boxes share.
func TestClearEmpty(t *testing.T) {
	u := int64(los.Unit)
	boxes := []struct{ src, dst grid.Box }{
		{grid.Box{Min: grid.C(3, 3, 0), Max: grid.C(3, 3, 0)}, grid.Box{Min: grid.C(0, 0, 0), Max: grid.C(7, 7, 0)}},
		{grid.Box{Min: grid.C(0, 0, 0), Max: grid.C(1, 1, 0)}, grid.Box{Min: grid.C(0, 0, 0), Max: grid.C(6, 5, 0)}},
		{grid.Box{Min: grid.C(-2, 4, 0), Max: grid.C(0, 5, 0)}, grid.Box{Min: grid.C(-4, -1, 0), Max: grid.C(3, 6, 0)}},
		{grid.Box{Min: grid.C(9, 0, 0), Max: grid.C(10, 2, 0)}, grid.Box{Min: grid.C(0, 0, 0), Max: grid.C(5, 5, 0)}},
		{grid.Box{Min: grid.C(2, 2, 0), Max: grid.C(4, 3, 0)}, grid.Box{Min: grid.C(3, 1, 0), Max: grid.C(8, 2, 0)}},
	}
	for _, bx := range boxes {
		// Outside the hull of the boxes, solids and walls of every height; inside it, only
		// what stays out of the height range: under it, over it, or a wall beside it.
		hull := bx.src.Union(bx.dst)
		var outside []board.Solid
		for y := hull.Min.Y - 2; y <= hull.Max.Y+2; y++ {
			for x := hull.Min.X - 2; x <= hull.Max.X+2; x++ {
				if !hull.Contains(grid.C(x, y, 0)) {
					outside = append(outside, board.Solid{Cell: grid.C(x, y, 0), Fill: board.Full})
				}
			}
		}
		x0, y0, x1, y1 := int64(hull.Min.X)*u, int64(hull.Min.Y)*u, int64(hull.Max.X+1)*u, int64(hull.Max.Y+1)*u
		around := []walls.Wall{
			{A: [2]int64{x0 - 1, y0 - 5}, B: [2]int64{x0 - 1, y1 + 5}, Bottom: walls.NoBottom, Top: walls.NoTop},
			{A: [2]int64{x0 - 5, y1 + 1}, B: [2]int64{x1 + 5, y1 + 400}, Bottom: walls.NoBottom, Top: walls.NoTop},
		}
		type variant struct {
			name  string
			cells func(zlo, zhi int64) []board.Solid
			ws    func(zlo, zhi int64) []walls.Wall
		}
		// under: solids whose tops are below zlo, in every cell of the hull: a partial fill
		// of zlo − 1 above the floor of zlo's level l (when that is 1 or more), a full block
		// on level l − 1 (when zlo is above l's floor, so the block's top 400l is below it),
		// and one on level l − 2; over: solids whose floors are above zhi; walls that end
		// below zlo or start above zhi, across the hull.
		under := func(zlo, zhi int64) []board.Solid {
			l := cellOf(zlo)
			o := zlo - l*u
			var cs []board.Solid
			for y := hull.Min.Y; y <= hull.Max.Y; y++ {
				for x := hull.Min.X; x <= hull.Max.X; x++ {
					if o >= 2 {
						cs = append(cs, board.Solid{Cell: grid.C(x, y, int(l)), Fill: int(o - 1)})
					}
					if o >= 1 {
						cs = append(cs, board.Solid{Cell: grid.C(x, y, int(l)-1), Fill: board.Full})
					}
					cs = append(cs, board.Solid{Cell: grid.C(x, y, int(l)-2), Fill: board.Full})
				}
			}
			return cs
		}
		over := func(zlo, zhi int64) []board.Solid {
			l := cellOf(zhi) + 1
			var cs []board.Solid
			for y := hull.Min.Y; y <= hull.Max.Y; y++ {
				for x := hull.Min.X; x <= hull.Max.X; x++ {
					cs = append(cs, board.Solid{Cell: grid.C(x, y, int(l)), Fill: board.Full}, board.Solid{Cell: grid.C(x, y, int(l)+1), Fill: 7})
				}
			}
			return cs
		}
		offWalls := func(zlo, zhi int64) []walls.Wall {
			return []walls.Wall{
				{A: [2]int64{x0, y0}, B: [2]int64{x1, y1}, Bottom: walls.NoBottom, Top: zlo - 1},
				{A: [2]int64{x1, y0}, B: [2]int64{x0, y1}, Bottom: zhi + 1, Top: walls.NoTop},
				{A: [2]int64{x0 + u, y0}, B: [2]int64{x0 + u, y1}, Bottom: zhi + 1, Top: zhi + 1},
			}
		}
		outsideCells := func(int64, int64) []board.Solid { return outside }
		aroundWalls := func(int64, int64) []walls.Wall { return around }
		boards := []variant{
			{"empty", func(int64, int64) []board.Solid { return nil }, func(int64, int64) []walls.Wall { return nil }},
			{"outside the hull", outsideCells, aroundWalls},
			{"under the range", under, aroundWalls},
			{"over the range", over, aroundWalls},
			{"walls off the range", outsideCells, offWalls},
		}
		shared := bx.src.Intersect(bx.dst)
		nShared := 0
		if !shared.Empty() {
			nShared = (shared.Max.X - shared.Min.X + 1) * (shared.Max.Y - shared.Min.Y + 1)
		}
		sPts, tPts := len(points(bx.src)), len(points(bx.dst))
		want := sPts*tPts - 4*nShared
		for _, b := range boards {
			for _, zr := range zRanges {
				zlo, zhi := zr[0], zr[1]
				cells, ws := b.cells(zlo, zhi), b.ws(zlo, zhi)
				s := newWorld(cells, ws)
				f := New(bx.src, bx.dst, zlo, zhi, s, ws)
				var n tally
				nClear := 0
				what := func() string { return fmt.Sprintf("%s, src %v, dst %v, z [%d, %d]", b.name, bx.src, bx.dst, zlo, zhi) }
				forPairs(bx.src, bx.dst, heights(zlo, zhi), func(p, q los.Point) {
					v := judge(t, f, s, p, q, &n, what)
					if p.X == q.X && p.Y == q.Y {
						return
					}
					if v != Clear {
						t.Fatalf("%s: %v → %v: verdict %d, want Clear: nothing touches it", what(), p, q, v)
					}
					nClear++
				})
				if nClear != want {
					t.Fatalf("%s: %d Clear, want %d", what(), nClear, want)
				}
			}
		}
		// A nil Solids has no solids (los.Blocked's convention).
		f := New(bx.src, bx.dst, 1, 399, nil, nil)
		forPairs(bx.src, bx.dst, []int64{1, 200, 399}, func(p, q los.Point) {
			if v := f.Verdict(p, q); (p.X != q.X || p.Y != q.Y) && v != Clear {
				t.Fatalf("nil solids: %v → %v: verdict %d, want Clear", p, q, v)
			}
		})
	}
}

// ringBlocked reports whether the segment from p to q provably passes through the open
// inside of a square of the ring of full blocks at Chebyshev distance d around the box b,
// by a side the segment meets head-on: q lies in the cone of one of the four directions
// seen from p (for east: q.x − p.x ≥ |q.y − p.y|, q.x > p.x), beyond the far edge of the
// ring's side that faces that way, and the segment crosses the near edge of that side
// strictly inside the side's span.
//
// Then just past the near edge the segment is in the open band of the side and strictly
// inside its span; it crosses each grid line across the band at most once (it runs along
// none: inset coordinates lie on no grid line), so some point there is in the open inside of
// a square of the side, at a height in [zlo, zhi] — inside solid matter when that range lies
// strictly inside the full blocks' levels (SPEC §5.2). The side lies wholly in front of p
// (its near edge is at least one square past b), and q lies past its far edge.
func ringBlocked(b grid.Box, d int, p, q plane) bool {
	u := int64(los.Unit)
	// Each side in the coordinates (along, across) of its direction: the near edge, the
	// far edge, and the span across, all in lattice units; plus p and q in those coordinates.
	type side struct {
		near, far, lo, hi int64
		pa, pc, qa, qc    int64
	}
	x0, x1 := int64(b.Min.X-d)*u, int64(b.Max.X+d+1)*u // the ring's outer edges
	y0, y1 := int64(b.Min.Y-d)*u, int64(b.Max.Y+d+1)*u
	sides := []side{
		{x1 - u, x1, y0, y1, p.x, p.y, q.x, q.y},       // east
		{-(x0 + u), -x0, y0, y1, -p.x, p.y, -q.x, q.y}, // west
		{y1 - u, y1, x0, x1, p.y, p.x, q.y, q.x},       // south
		{-(y0 + u), -y0, x0, x1, -p.y, p.x, -q.y, q.x}, // north
	}
	for _, s := range sides {
		da, dc := s.qa-s.pa, s.qc-s.pc
		if da <= 0 || abs(dc) > da || s.qa <= s.far {
			continue // not in this cone, or not beyond the side
		}
		// The across coordinate at the near edge: pc + dc·(near − pa)/da, strictly inside (lo, hi).
		num := s.pc*da + dc*(s.near-s.pa)
		if s.lo*da < num && num < s.hi*da {
			return true
		}
	}
	return false
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// TestRingBlocked rings the source box with full blocks at Chebyshev distance d ≥ 1, a ring
// with a gap of no width, and asks for every target point around it. Every point outside
// the ring's outer edge is blocked (SPEC §5.2): the segment leaves the inside of the ring for
// its outside, so it crosses the open ring of width one square between them, where some
// point of it is in the open inside of a full square, at a height strictly inside the
// blocks' levels (for z in [1, 399] on level 0; in [1, 799], 400 included, on levels 0 and 1
// stacked: the face between two full blocks counts as inside). The field must certify at
// least those whose segment crosses the side it meets head-on (ringBlocked); the others it
// may leave Unknown. The counts of those come from the geometry; a closed-form count pins
// the four arms of targets straight out from the source.
func TestRingBlocked(t *testing.T) {
	type ringCase struct {
		src      grid.Box
		d, r     int   // the ring's distance, and the target box's (r > d)
		levels   []int // the ring's levels
		zlo, zhi int64
	}
	one := grid.Box{Min: grid.C(0, 0, 0), Max: grid.C(0, 0, 0)}
	cases := []ringCase{
		{one, 1, 5, []int{0}, 1, 399},
		{one, 2, 5, []int{0}, 1, 399},
		{one, 3, 6, []int{0}, 200, 200},
		{one, 1, 4, []int{0, 1}, 1, 799},
		{one, 2, 5, []int{0, 1}, 399, 401},
		{grid.Box{Min: grid.C(0, 0, 0), Max: grid.C(1, 1, 0)}, 1, 4, []int{0}, 1, 399},
		{grid.Box{Min: grid.C(-1, 2, 0), Max: grid.C(1, 3, 0)}, 1, 4, []int{0}, 1, 399},
		{grid.Box{Min: grid.C(3, -2, 0), Max: grid.C(4, 0, 0)}, 2, 4, []int{-1, 0, 1}, -399, 799},
	}
	var total tally
	var outside, certified int
	for _, c := range cases {
		ringBox := c.src.Grow(c.d)
		inner := c.src.Grow(c.d - 1)
		var cells []board.Solid
		for y := ringBox.Min.Y; y <= ringBox.Max.Y; y++ {
			for x := ringBox.Min.X; x <= ringBox.Max.X; x++ {
				if !inner.Contains(grid.C(x, y, inner.Min.Z)) {
					for _, l := range c.levels {
						cells = append(cells, board.Solid{Cell: grid.C(x, y, l), Fill: board.Full})
					}
				}
			}
		}
		dst := c.src.Grow(c.r)
		dst.Min.Z, dst.Max.Z = 0, 0
		s := newWorld(cells, nil)
		f := New(c.src, dst, c.zlo, c.zhi, s, nil)
		what := func() string { return fmt.Sprintf("ring at %d around %v, z [%d, %d]", c.d, c.src, c.zlo, c.zhi) }
		zs := heights(c.zlo, c.zhi)
		outer := ringBox
		var want, got int
		for i, p := range points(c.src) {
			for j, q := range points(dst) {
				pq := func(a, b int) (los.Point, los.Point) {
					return los.Point{X: p.x, Y: p.y, Z: zs[a%len(zs)]}, los.Point{X: q.x, Y: q.y, Z: zs[b%len(zs)]}
				}
				pp, qq := pq(i, j)
				v := judge(t, f, s, pp, qq, &total, what)
				pp2, qq2 := pq(i+j, 3*j+1)
				judge(t, f, s, pp2, qq2, &total, what)
				cell := grid.C(int(cellOf(q.x)), int(cellOf(q.y)), outer.Min.Z)
				if outer.Contains(cell) {
					continue
				}
				outside++
				if !los.Blocked(pp, qq, s) {
					t.Fatalf("%s: %v → %v leaves the ring, yet los.Blocked says clear", what(), pp, qq)
				}
				if ringBlocked(c.src, c.d, p, q) {
					want++
					if v != Blocked {
						t.Fatalf("%s: %v → %v crosses a side head-on: verdict %d, want Blocked", what(), pp, qq, v)
					}
				}
				if v == Blocked {
					got++
				}
			}
		}
		if got < want || want == 0 {
			t.Fatalf("%s: %d Blocked outside the ring, want at least %d", what(), got, want)
		}
		certified += got

		// The arms: target cells straight out from a 1×1 source, at distance d+1 … r on one
		// axis and 0 on the other. From each of the source's 4 points, each of their 4 points
		// lies in the cone of that arm (along: at least 400(d+1)+1 − 399 ≥ 402; across: at
		// most 398) and beyond the ring's side, which it crosses within the side's span (the
		// side is 2d+1 squares wide, centred on the source cell, and the segment moves less
		// than a square across it). 4 arms × (r − d) cells × 4 points × 4 source points.
		if c.src == one {
			arms := 0
			for _, p := range points(c.src) {
				for _, q := range points(dst) {
					cx, cy := int(cellOf(q.x)), int(cellOf(q.y))
					if (cx == 0 || cy == 0) && max(abs(int64(cx)), abs(int64(cy))) > int64(c.d) {
						if f.Verdict(los.Point{X: p.x, Y: p.y, Z: c.zlo}, los.Point{X: q.x, Y: q.y, Z: c.zhi}) == Blocked {
							arms++
						}
					}
				}
			}
			if want := 4 * (c.r - c.d) * 4 * 4; arms != want {
				t.Fatalf("%s: %d Blocked in the arms, want %d", what(), arms, want)
			}
		}
	}
	t.Logf("%v; %d segments leave a ring, %d certified Blocked", total, outside, certified)
}

// TestWallBlocked stands a wall on the grid line x = X across the whole box of the field and
// past it, with the source west of it. A segment to a target east of X crosses the line at
// one point strictly between its ends, inside the wall's extent (SPEC §5.6): blocked when
// the wall stands over all of [zlo, zhi]. The field must certify those in the east cone
// (q.x − p.x ≥ |q.y − p.y|: the wall's ends are in front of p and span the cone's every
// slope, and q is past it). A segment to a target west of X stays west of the line: nothing
// touches it, so it is clear; the field must say so at least for the targets of the east
// and west cones (|q.y − p.y| ≤ |q.x − p.x|), which it sweeps by x, where the whole wall
// lies farther along x than q, or behind p. (Off those cones a slope-only view of the
// wall's pieces may leave a clear segment Unknown, which the contract allows.) With the
// wall's top at zhi − 1 and its bottom at or under zlo, every segment east is blocked at
// height zlo and clear at zhi, so the field must say Unknown. The counts come from that
// geometry.
func TestWallBlocked(t *testing.T) {
	u := int64(los.Unit)
	type wallCase struct {
		src, dst    grid.Box
		x           int64 // the wall's line, in squares
		zlo, zhi    int64
		bottom, top int64
		certain     bool // the wall stands over [zlo, zhi]
	}
	one := grid.Box{Min: grid.C(1, 2, 0), Max: grid.C(1, 2, 0)}
	two := grid.Box{Min: grid.C(0, 1, 0), Max: grid.C(1, 2, 0)}
	dst := grid.Box{Min: grid.C(0, 0, 0), Max: grid.C(7, 5, 0)}
	cases := []wallCase{
		{one, dst, 3, 1, 399, walls.NoBottom, walls.NoTop, true},
		{one, dst, 2, 1, 399, 1, 399, true},
		{two, dst, 4, 0, 400, 0, 400, true},
		{two, dst, 3, -399, 799, -400, 800, true},
		{one, dst, 3, 1, 399, walls.NoBottom, 398, false},
		{two, dst, 4, 0, 800, 0, 799, false},
	}
	var total tally
	for _, c := range cases {
		X := c.x * u
		ws := []walls.Wall{{A: [2]int64{X, -10 * u}, B: [2]int64{X, 20 * u}, Bottom: c.bottom, Top: c.top}}
		s := newWorld(nil, ws)
		f := New(c.src, c.dst, c.zlo, c.zhi, s, ws)
		what := func() string {
			return fmt.Sprintf("wall on x = %d from %d to %d, src %v, z [%d, %d]", c.x, c.bottom, c.top, c.src, c.zlo, c.zhi)
		}
		var wantB, gotB, wantC, gotC, east int
		for _, p := range points(c.src) {
			for _, q := range points(c.dst) {
				lo := los.Point{X: p.x, Y: p.y, Z: c.zlo}
				v := judge(t, f, s, lo, los.Point{X: q.x, Y: q.y, Z: c.zlo}, &total, what)
				judge(t, f, s, los.Point{X: p.x, Y: p.y, Z: c.zhi}, los.Point{X: q.x, Y: q.y, Z: c.zhi}, &total, what)
				judge(t, f, s, lo, los.Point{X: q.x, Y: q.y, Z: c.zhi}, &total, what)
				dx, dy := q.x-p.x, q.y-p.y
				switch {
				case q.x > X:
					east++
					if !c.certain {
						if v != Unknown {
							t.Fatalf("%s: %v → %v: verdict %d, want Unknown (blocked low, clear high)", what(), lo, q, v)
						}
					} else if dx >= abs(dy) {
						wantB++
						if v != Blocked {
							t.Fatalf("%s: %v → %v: verdict %d, want Blocked", what(), lo, q, v)
						}
					}
					if v == Blocked {
						gotB++
					}
				case abs(dy) <= abs(dx) && dx != 0:
					wantC++
					if v != Clear {
						t.Fatalf("%s: %v → %v: verdict %d, want Clear", what(), lo, q, v)
					}
					gotC++
				}
			}
		}
		if !c.certain {
			// The premise of the Unknown claim, from the reference.
			if !los.Blocked(los.Point{X: 1*u + 1, Y: 2*u + 1, Z: c.zlo}, los.Point{X: 7*u + 1, Y: 2*u + 1, Z: c.zlo}, s) ||
				los.Blocked(los.Point{X: 1*u + 1, Y: 2*u + 1, Z: c.zhi}, los.Point{X: 7*u + 1, Y: 2*u + 1, Z: c.zhi}, s) {
				t.Fatalf("%s: the wall should block at zlo and not at zhi", what())
			}
		}
		if gotB < wantB || gotC != wantC || (c.certain && wantB == 0) || east == 0 {
			t.Fatalf("%s: %d Blocked (want ≥ %d), %d Clear (want %d)", what(), gotB, wantB, gotC, wantC)
		}
	}
	t.Logf("%v", total)
}

// TestWallBoxAtSource: walls whose box has a source point p on its edge or at its corner —
// ending on p, passing through p, or a diagonal wall whose box has its corner at p. Where
// such a wall meets a segment from p at p itself, that does not count (p is an end of the
// segment, SPEC §5.6); the field must answer, without failing, and stay sound. (A box with
// p at its corner once made the clear union's slope 0/0, and the sweep divided by zero.)
func TestWallBoxAtSource(t *testing.T) {
	src := grid.Box{Min: grid.C(1, 1, 0), Max: grid.C(1, 1, 0)}
	dst := grid.Box{Min: grid.C(0, 0, 0), Max: grid.C(3, 3, 0)}
	var n tally
	for _, p := range points(src) {
		for _, d := range [][2]int64{{-100, 100}, {100, 100}, {100, -100}, {-100, -100}, {0, 100}, {100, 0}, {0, -100}, {-100, 0}} {
			for _, ws := range [][]walls.Wall{
				{{A: [2]int64{p.x + d[0], p.y}, B: [2]int64{p.x, p.y + d[1]}}},               // a diagonal whose box has its corner at p
				{{A: [2]int64{p.x, p.y}, B: [2]int64{p.x + d[0], p.y + d[1]}}},               // ending on p
				{{A: [2]int64{p.x - d[0], p.y - d[1]}, B: [2]int64{p.x + d[0], p.y + d[1]}}}, // through p
			} {
				if ws[0].A == ws[0].B {
					continue
				}
				ws[0].Bottom, ws[0].Top = walls.NoBottom, walls.NoTop
				sc := &scene{name: fmt.Sprintf("wall %v at source point %v", ws[0], p), n: 4, ws: ws, src: src, dst: dst, zlo: 1, zhi: 399}
				soundScene(t, sc, rand.New(rand.NewPCG(1, 1)), &n, true)
			}
		}
	}
	t.Logf("%v", n)
}

// TestSweepKnown checks the exported pieces of a field against Verdict: Source and Target
// index exactly the inset corners of the boxes' cells at heights in [zlo, zhi] (SPEC §5.4),
// Cell and Across agree with Target, Known reports after Sweep the verdicts Verdict gives,
// whatever the order the source points are swept in, and New refuses a source of more than
// MaxSources points.
func TestSweepKnown(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for trial := range 60 {
		sc := genScene(r, 8)
		sc.name = fmt.Sprintf("trial %d", trial)
		s := newWorld(sc.cells, sc.ws)
		ps, qs := points(sc.src), points(sc.dst)
		a := New(sc.src, sc.dst, sc.zlo, sc.zhi, s, sc.ws)
		b := New(sc.src, sc.dst, sc.zlo, sc.zhi, s, sc.ws)
		func() {
			defer func() {
				if e := recover(); e != nil {
					t.Fatalf("%s\npanic: %v", sc, e)
				}
			}()
			b.Sweep(1<<len(ps) - 1)
		}()
		z := sc.zlo
		seen := map[int]bool{}
		for i, p := range ps {
			pp := los.Point{X: p.x, Y: p.y, Z: z}
			si := a.Source(pp)
			if si < 0 || si >= MaxSources || seen[si] || b.Source(pp) != si {
				t.Fatalf("%s: Source(%v) = %d: not a fresh index below MaxSources (#%d)", sc, pp, si, i)
			}
			seen[si] = true
			for _, q := range qs {
				qq := los.Point{X: q.x, Y: q.y, Z: sc.zhi}
				ti := a.Target(qq)
				if ti < 0 {
					t.Fatalf("%s: Target(%v) = %d", sc, qq, ti)
				}
				v := a.Verdict(pp, qq) // sweeps a's source points one at a time, in this order
				c, bl := b.Known(ti)
				bit := uint64(1) << si
				want := Unknown
				switch {
				case c&bit != 0:
					want = Clear
				case bl&bit != 0:
					want = Blocked
				}
				if v != want {
					t.Fatalf("%s: %v → %v: Verdict %d, Known after sweeping all %d", sc, pp, qq, v, want)
				}
			}
		}
		for _, bad := range offField(ps[0], z, sc.src, sc.zlo, sc.zhi) {
			if a.Source(bad) >= 0 {
				t.Fatalf("%s: Source(%v) = %d, want -1", sc, bad, a.Source(bad))
			}
		}
		for _, bad := range offField(qs[0], z, sc.dst, sc.zlo, sc.zhi) {
			if a.Target(bad) >= 0 {
				t.Fatalf("%s: Target(%v) = %d, want -1", sc, bad, a.Target(bad))
			}
		}
		// Cell: the index of a cell's inset corner at its lowest x and y, the others 1 and
		// Across on, when the cell is one of dst's and its inset heights 400z+1 and 400z+399
		// (SPEC §5.4) both lie in [zlo, zhi].
		u := int64(los.Unit)
		for y := sc.dst.Min.Y - 1; y <= sc.dst.Max.Y+1; y++ {
			for x := sc.dst.Min.X - 1; x <= sc.dst.Max.X+1; x++ {
				for l := -2; l <= 3; l++ {
					c := grid.C(x, y, l)
					lo, hi := int64(l)*u+1, int64(l)*u+u-1
					wantOK := sc.dst.Contains(grid.C(x, y, sc.dst.Min.Z)) && sc.zlo <= lo && hi <= sc.zhi
					ti, ok := a.Cell(c)
					if ok != wantOK {
						t.Fatalf("%s: Cell(%v) ok = %v, want %v", sc, c, ok, wantOK)
					}
					if !ok {
						continue
					}
					for k, o := range [][2]int64{{1, 1}, {u - 1, 1}, {1, u - 1}, {u - 1, u - 1}} {
						want := ti + k%2 + k/2*a.Across()
						for _, z := range []int64{lo, hi} {
							q := los.Point{X: int64(x)*u + o[0], Y: int64(y)*u + o[1], Z: z}
							if got := a.Target(q); got != want {
								t.Fatalf("%s: Cell(%v) = %d, Across %d: Target(%v) = %d, want %d", sc, c, ti, a.Across(), q, got, want)
							}
						}
					}
				}
			}
		}
	}
	four := grid.Box{Min: grid.C(0, 0, 0), Max: grid.C(3, 3, 0)} // 8 × 8 = 64 points
	if New(four, four, 1, 399, nil, nil) == nil {
		t.Errorf("New refuses a source of 4 × 4 cells (%d points)", len(points(four)))
	}
	five := grid.Box{Min: grid.C(0, 0, 0), Max: grid.C(4, 3, 0)} // 10 × 8 = 80 points
	if New(five, four, 1, 399, nil, nil) != nil {
		t.Errorf("New accepts a source of 5 × 4 cells (%d points > MaxSources)", len(points(five)))
	}
}

// covers reports whether the union holds the slope t, for the tests. Calls for ascending slopes may share
// the cursor k (start it at 0), which skips the intervals wholly below the slopes read.
func (u union) covers(k *int, t slope) bool {
	for *k < len(u) && (u[*k].hi.less(t) || u[*k].hiOpen && !t.less(u[*k].hi)) {
		*k++
	}
	if *k == len(u) {
		return false
	}
	e := &u[*k]
	return e.lo.less(t) || !e.loOpen && !t.less(e.lo)
}

// TestSpan checks span, which turns an interval of the unions into the row's points it holds,
// against brute force: for random intervals, rows at random distances u and source
// coordinates, the points j of the row (coordinate coord(j, c0), v = it − cp) whose slope v/u
// the interval holds are exactly span's a … b, on both lattices.
func TestSpan(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 7))
	for trial := range 20000 {
		l := []lattice{corners, centres}[trial%2]
		iv := randIval(r)
		u := int64(1 + r.IntN(5000))
		c0 := r.IntN(9) - 4
		cp := int64(r.IntN(8000) - 4000)
		a, b := l.span(&iv, u, cp, c0)
		for j := 0; j < 60; j++ {
			v := l.coord(j, c0) - cp
			want := iv.has(slope{v, u})
			if got := j >= a && j <= b; got != want {
				t.Fatalf("trial %d (%+v): %v at u %d, cp %d, c0 %d: point %d (v %d) in span [%d, %d] = %v, want %v", trial, l, iv, u, cp, c0, j, v, a, b, got, want)
			}
		}
	}
}

// TestManyLongWalls: 2,000 walls each crossing a 200 × 200 hull diagonally would be cut into
// some 400 pieces apiece; New cuts at most MaxPieces (and a wall or so more) and keeps every
// further wall as one box clipped to the hull, so the field's blockers stay bounded. Its
// verdicts stay sound: sampled segments are held to los.Blocked.
func TestManyLongWalls(t *testing.T) {
	var ws []walls.Wall
	for i := range 2000 {
		o := int64(i%400) * 7
		ws = append(ws, walls.Wall{A: [2]int64{-4000 + o, -4000}, B: [2]int64{84000 + o, 84000 + 3}, Bottom: walls.NoBottom, Top: walls.NoTop})
	}
	src := grid.Box{Min: grid.C(100, 10, 0), Max: grid.C(100, 10, 0)}
	dst := grid.Box{Max: grid.C(199, 199, 0)}
	f := New(src, dst, 1, 399, nil, ws)
	if len(f.clear) > MaxPieces+1000+len(ws) {
		t.Fatalf("%d boxes for %d walls: the pieces are not bounded", len(f.clear), len(ws))
	}
	if len(f.clear) < MaxPieces {
		t.Fatalf("only %d boxes: the walls were not cut into pieces at all", len(f.clear))
	}
	s := newWorld(nil, ws)
	r := rand.New(rand.NewPCG(5, 5))
	for range 3000 {
		p := los.Point{X: corners.coord(r.IntN(2), 100), Y: corners.coord(r.IntN(2), 10), Z: 1 + 398*int64(r.IntN(2))}
		q := los.Point{X: corners.coord(r.IntN(400), 0), Y: corners.coord(r.IntN(400), 0), Z: 1 + 398*int64(r.IntN(2))}
		switch v, blocked := f.Verdict(p, q), los.Blocked(p, q, s); {
		case v == Clear && blocked, v == Blocked && !blocked:
			t.Fatalf("%v → %v: verdict %d, los.Blocked %v", p, q, v, blocked)
		}
	}
}

// Pieces, counted before a field is built, bounds the boxes the field's walls are cut into:
// on a board with no solids, a field's Boxes never exceeds Pieces over the field's box, and
// every wall meeting that box counts once at least.
func TestPieces(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 2026))
	u := int64(los.Unit)
	for i := range 500 {
		var ws []walls.Wall
		for range r.IntN(12) {
			a := [2]int64{r.Int64N(24*u) - 2*u, r.Int64N(24*u) - 2*u}
			b := [2]int64{a[0] + r.Int64N(12*u) - 6*u, a[1] + r.Int64N(12*u) - 6*u}
			if a != b {
				ws = append(ws, walls.Wall{A: a, B: b, Bottom: walls.NoBottom, Top: walls.NoTop})
			}
		}
		dst := grid.Box{Min: grid.C(r.IntN(10), r.IntN(10), 0)}
		dst.Max = dst.Min.Add(grid.C(r.IntN(10), r.IntN(10), 0))
		c := grid.C(r.IntN(20), r.IntN(20), 0)
		f := NewCentres(los.Centre(c), dst, u/2, u/2, board.New(nil), ws)
		// the field's box: the cells of dst and the source's cell
		x0, y0 := int64(min(dst.Min.X, c.X))*u, int64(min(dst.Min.Y, c.Y))*u
		x1, y1 := int64(max(dst.Max.X, c.X)+1)*u, int64(max(dst.Max.Y, c.Y)+1)*u
		n, meet := Pieces(ws, x0, y0, x1, y1), 0
		for _, w := range ws {
			if max(w.A[0], w.B[0]) >= x0 && min(w.A[0], w.B[0]) <= x1 && max(w.A[1], w.B[1]) >= y0 && min(w.A[1], w.B[1]) <= y1 {
				meet++
			}
		}
		if f.Boxes() > n || n < meet {
			t.Fatalf("case %d: the field cut its walls into %d boxes, Pieces says %d; %d walls meet its box %v", i, f.Boxes(), n, meet, ws)
		}
	}
}
