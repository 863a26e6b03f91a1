package board

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/aoekit/aoekit/core/grid"
)

// reference is the obvious board: a map, each cell's largest fill, clamped to 1 … Full.
func reference(cells []Solid) map[grid.Cell]int {
	m := map[grid.Cell]int{}
	for _, c := range cells {
		m[c.Cell] = max(m[c.Cell], min(max(c.Fill, 1), Full))
	}
	return m
}

// emptyRef reports whether no solid cell lies in the box lo … hi, by looking at every one.
func emptyRef(m map[grid.Cell]int, lo, hi grid.Cell) bool {
	for c := range m {
		if lo.X <= c.X && c.X <= hi.X && lo.Y <= c.Y && c.Y <= hi.Y && lo.Z <= c.Z && c.Z <= hi.Z {
			return false
		}
	}
	return true
}

// columnsEmptyRef is emptyRef ignoring z inside the solids' level range: what Empty promises
// exactly when it has its column sums (it may say false for a box whose columns hold solids
// at other levels only).
func columnsEmptyRef(m map[grid.Cell]int, lo, hi grid.Cell) bool {
	for c := range m {
		if lo.X <= c.X && c.X <= hi.X && lo.Y <= c.Y && c.Y <= hi.Y {
			return false
		}
	}
	return true
}

func randomCells(r *rand.Rand, n int, org grid.Cell, nx, ny, nz int) []Solid {
	cells := make([]Solid, n)
	for i := range cells {
		fill := r.IntN(Full+60) - 30 // some below 1 and above Full, to be clamped
		if r.IntN(3) == 0 {
			fill = Full
		}
		cells[i] = Solid{Cell: org.Add(grid.C(r.IntN(nx), r.IntN(ny), r.IntN(nz))), Fill: fill}
	}
	return cells
}

// §1.6: Fill answers each cell's fill (the larger when listed twice, clamped to 1 … Full),
// 0 elsewhere; IsFull only for Full. Dense and sparse (huge, spread-out) boards alike, and
// Layer's arrays agree.
func TestSolids_1_6_FillMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200; i++ {
		org := grid.C(r.IntN(40)-20, r.IntN(40)-20, r.IntN(6)-3)
		cells := randomCells(r, r.IntN(60), org, 1+r.IntN(12), 1+r.IntN(12), 1+r.IntN(3))
		if i%10 == 0 { // spread the box past the dense limit: the sparse path
			cells = append(cells, Solid{Cell: grid.C(9000, -9000, 500), Fill: 7})
		}
		if i%10 == 5 { // every fill 1 … 400: too many for a palette, the wide path
			for f := 1; f <= Full; f++ {
				cells = append(cells, Solid{Cell: org.Add(grid.C(f%12, f/12%12, f/144)), Fill: f})
			}
		}
		s, ref := New(cells), reference(cells)
		if i%10 == 5 && s.wide == nil || i%10 == 0 && s.sparse == nil || i%10 == 1 && len(cells) > 0 && s.dense == nil {
			t.Fatalf("case %d does not take the path it tests", i)
		}
		if s.Len() != len(cells) {
			t.Fatalf("Len %d, want %d", s.Len(), len(cells))
		}
		for c, f := range ref {
			if s.Fill(c) != f || s.IsFull(c) != (f == Full) {
				t.Fatalf("Fill(%v) = %d (full %v), want %d", c, s.Fill(c), s.IsFull(c), f)
			}
		}
		for range 200 {
			c := org.Add(grid.C(r.IntN(16)-2, r.IntN(16)-2, r.IntN(6)-2))
			if s.Fill(c) != ref[c] {
				t.Fatalf("Fill(%v) = %d, want %d", c, s.Fill(c), ref[c])
			}
		}
		checkLayers(t, s, ref, org)
	}
}

// checkLayers holds Layer to ref on the levels and columns around org: each level's array
// gives every cell's fill, through a palette that is ascending from 0; only a board with no
// palette index (sparse or wide) gives none.
func checkLayers(t *testing.T, s *Solids, ref map[grid.Cell]int, org grid.Cell) {
	t.Helper()
	for z := org.Z - 2; z <= org.Z+4; z++ {
		codes, nx, o, fills := s.Layer(z)
		if fills == nil {
			if s.dense != nil || s.n == 0 {
				t.Fatalf("Layer(%d) gives no array on a board with a palette index", z)
			}
			continue
		}
		if fills[0] != 0 || len(codes) > 0 && (nx <= 0 || len(codes)%nx != 0) {
			t.Fatalf("Layer(%d): fills[0] = %d, %d codes, %d wide", z, fills[0], len(codes), nx)
		}
		for k := 1; k < len(fills); k++ {
			if fills[k] <= fills[k-1] {
				t.Fatalf("Layer(%d): palette %v is not ascending", z, fills)
			}
		}
		for y := org.Y - 2; y < org.Y+14; y++ {
			for x := org.X - 2; x < org.X+14; x++ {
				got := 0
				if i, j := x-o.X, y-o.Y; nx > 0 && i >= 0 && j >= 0 && i < nx && j < len(codes)/nx {
					got = int(fills[codes[j*nx+i]])
				}
				if c := grid.C(x, y, z); got != ref[c] {
					t.Fatalf("Layer(%d) gives %v fill %d, want %d", z, c, got, ref[c])
				}
			}
		}
	}
}

// Empty is never wrong when it says true, and exact per column on a dense board.
func TestSolids_EmptyMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 300; i++ {
		org := grid.C(r.IntN(20)-10, r.IntN(20)-10, r.IntN(4)-2)
		cells := randomCells(r, r.IntN(25), org, 1+r.IntN(14), 1+r.IntN(14), 1+r.IntN(3))
		sparse := i%7 == 0
		if sparse {
			cells = append(cells, Solid{Cell: grid.C(-20000, 20000, 0), Fill: Full})
		}
		s, ref := New(cells), reference(cells)
		for range 100 {
			lo := org.Add(grid.C(r.IntN(18)-3, r.IntN(18)-3, r.IntN(6)-3))
			hi := lo.Add(grid.C(r.IntN(5), r.IntN(5), r.IntN(3)))
			got := s.Empty(grid.Box{Min: lo, Max: hi})
			if got && !emptyRef(ref, lo, hi) {
				t.Fatalf("Empty(%v, %v) = true with a solid inside", lo, hi)
			}
			if !sparse && len(cells) > 0 {
				zIn := hi.Z >= minZ(ref) && lo.Z <= maxZ(ref)
				want := !zIn || columnsEmptyRef(ref, lo, hi)
				if got != want {
					t.Fatalf("Empty(%v, %v) = %v, want %v (per column)", lo, hi, got, want)
				}
			}
		}
	}
	if !New(nil).Empty(grid.Box{Min: grid.C(-5, -5, -5), Max: grid.C(5, 5, 5)}) {
		t.Errorf("an empty board is not empty")
	}
}

func minZ(m map[grid.Cell]int) int {
	z := 1 << 30
	for c := range m {
		z = min(z, c.Z)
	}
	return z
}

func maxZ(m map[grid.Cell]int) int {
	z := -1 << 30
	for c := range m {
		z = max(z, c.Z)
	}
	return z
}

// On a wide board Empty counts tiles of columns: never wrong when it says true, and true
// whenever the box grown to whole tiles holds no solid. 500 × 500 columns are counted in
// tiles of 4 (126 × 126 ≤ maxTiles).
func TestSolids_EmptyWideBoard(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	cells := randomCells(r, 3000, grid.C(0, 0, 0), 500, 500, 2)
	s, ref := New(cells), reference(cells)
	const tile = 4
	lo0 := grid.C(500, 500, 0)
	for c := range ref {
		lo0 = grid.C(min(lo0.X, c.X), min(lo0.Y, c.Y), 0)
	}
	for range 5000 {
		lo := grid.C(r.IntN(520)-10, r.IntN(520)-10, r.IntN(4)-1)
		hi := lo.Add(grid.C(r.IntN(12), r.IntN(12), r.IntN(2)))
		got := s.Empty(grid.Box{Min: lo, Max: hi})
		if got && !emptyRef(ref, lo, hi) {
			t.Fatalf("Empty(%v, %v) = true with a solid inside", lo, hi)
		}
		// The box grown to tile boundaries (tiles start at the solids' north-west corner).
		glo := grid.C(lo0.X+floorTo(lo.X-lo0.X, tile), lo0.Y+floorTo(lo.Y-lo0.Y, tile), -1<<30)
		ghi := grid.C(lo0.X+floorTo(hi.X-lo0.X, tile)+tile-1, lo0.Y+floorTo(hi.Y-lo0.Y, tile)+tile-1, 1<<30)
		zIn := hi.Z >= minZ(ref) && lo.Z <= maxZ(ref)
		if !got && zIn && emptyRef(ref, glo, ghi) {
			t.Fatalf("Empty(%v, %v) = false with no solid in its tiles %v … %v", lo, hi, glo, ghi)
		}
	}
}

func floorTo(v, k int) int {
	if v < 0 {
		return -((-v + k - 1) / k) * k
	}
	return v / k * k
}

// The zero value is an empty board.
func TestSolids_ZeroValue(t *testing.T) {
	var s Solids
	if s.Fill(grid.C(0, 0, 0)) != 0 || !s.Empty(grid.Box{Min: grid.C(0, 0, 0), Max: grid.C(1, 1, 1)}) || s.Len() != 0 {
		t.Errorf("zero Solids is not empty")
	}
	checkLayers(t, &s, nil, grid.C(0, 0, 0))
}

func BenchmarkNew20000(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	cells := randomCells(r, 20000, grid.C(0, 0, 0), 500, 500, 1)
	b.ReportAllocs()
	for b.Loop() {
		New(cells)
	}
}

// The index of a sparse board is bounded by its solids, not by their bounding box: past
// denseFree cells of box it keeps at most denseCells cells a solid, else a map. Two obstacles
// 255 squares apart on every axis held 16 MiB (a byte a cell of the box), 32 with more than 255
// distinct fills. Boards as dense as the engine's benchmarks keep the level arrays the walks
// read (Layer).
func TestSolids_8_3_IndexBoundedBySolids(t *testing.T) {
	measure := func(cells []Solid) (uint64, *Solids) {
		var a, b runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&a)
		s := New(cells)
		runtime.ReadMemStats(&b)
		return b.TotalAlloc - a.TotalAlloc, s
	}
	two := []Solid{{grid.C(0, 0, 0), Full}, {grid.C(255, 255, 255), Full}}
	var fills []Solid
	for i := 0; i < 257; i++ {
		fills = append(fills, Solid{grid.C(i, (i*7)%256, (i*13)%256), 1 + i})
	}
	for name, cells := range map[string][]Solid{"two far apart": two, "257 fills far apart": fills} {
		if got, _ := measure(cells); got > 2*denseFree {
			t.Errorf("%s: %d solids took %d bytes; want at most %d", name, len(cells), got, 2*denseFree)
		}
	}
	// A 500 × 500 level with 20 000 solids (the Stress board's density), and with a stack 8 or
	// 30 high on it; a 60 × 60 one with 300; a 200 × 200 one with 2 000 and a stack 30 high.
	for _, c := range []struct{ n, solids, stack int }{{500, 20000, 0}, {500, 20000, 8}, {500, 20000, 30}, {60, 300, 0}, {200, 2000, 30}} {
		r := rand.New(rand.NewPCG(uint64(c.n), 1))
		var cells []Solid
		for range c.solids {
			cells = append(cells, Solid{grid.C(r.IntN(c.n), r.IntN(c.n), 0), Full})
		}
		cells = append(cells, Solid{grid.C(0, 0, 0), Full}, Solid{grid.C(c.n-1, c.n-1, 0), Full})
		for z := range c.stack {
			cells = append(cells, Solid{grid.C(c.n/2, c.n/2, z), Full})
		}
		if _, s := measure(cells); func() bool { codes, _, _, _ := s.Layer(0); return codes == nil }() {
			t.Errorf("%d × %d with %d solids and a stack %d high: no level array", c.n, c.n, c.solids, c.stack)
		}
	}
}

// TestEdit: a board edited in place answers every Fill as a board made anew from the same
// cells, every Empty soundly (true only where no solid lies) and, where its tiles are columns,
// exactly by columns; its level arrays read the same fills. An edit the index cannot hold
// changes nothing.
func TestEdit(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 5))
	applied := 0
	defer func() {
		if applied < 100 {
			t.Errorf("only %d of 400 edits applied in place", applied)
		}
	}()
	for round := range 400 {
		want := map[grid.Cell]int{}
		var list []Solid
		fills := []int{Full, 200, 120}
		for range 1 + r.IntN(40) {
			c := grid.Cell{X: r.IntN(12), Y: r.IntN(12), Z: r.IntN(3)}
			f := fills[r.IntN(len(fills))]
			list = append(list, Solid{c, f})
			want[c] = max(want[c], f)
		}
		var s *Solids
		if round%3 == 2 { // a sparse board: its cells far apart
			list = append(list, Solid{grid.Cell{X: 2000, Y: 2000, Z: 300}, Full})
			want[grid.Cell{X: 2000, Y: 2000, Z: 300}] = Full
		}
		s = New(list)
		var edit []Solid
		for range 1 + r.IntN(8) {
			c := grid.Cell{X: r.IntN(12), Y: r.IntN(12), Z: r.IntN(3)}
			if r.IntN(10) == 0 { // perhaps outside the bounding box
				c = grid.Cell{X: r.IntN(14) - 1, Y: r.IntN(14) - 1, Z: r.IntN(4) - 1}
			}
			f := []int{0, 0, Full, 200, 120, Full, 200, 77}[r.IntN(8)]
			edit = append(edit, Solid{c, f})
		}
		before := map[grid.Cell]int{}
		for c := range want {
			before[c] = s.Fill(c)
		}
		if !s.Edit(edit) {
			for c, f := range before {
				if s.Fill(c) != f {
					t.Fatalf("round %d: a refused edit changed %v", round, c)
				}
			}
			continue
		}
		applied++
		for _, e := range edit {
			if e.Fill == 0 {
				delete(want, e.Cell)
			} else {
				want[e.Cell] = e.Fill
			}
		}
		for z := -1; z <= 3; z++ {
			for y := -1; y <= 13; y++ {
				for x := -1; x <= 13; x++ {
					c := grid.Cell{X: x, Y: y, Z: z}
					if got := s.Fill(c); got != want[c] {
						t.Fatalf("round %d: Fill(%v) = %d, want %d", round, c, got, want[c])
					}
				}
			}
		}
		for range 200 {
			lo := grid.Cell{X: r.IntN(14) - 1, Y: r.IntN(14) - 1, Z: r.IntN(4) - 1}
			b := grid.Box{Min: lo, Max: lo.Add(grid.Cell{X: r.IntN(4), Y: r.IntN(4), Z: r.IntN(2)})}
			inBox, inCols := false, false
			for c := range want {
				if b.Contains(c) {
					inBox = true
				}
				if b.Min.X <= c.X && c.X <= b.Max.X && b.Min.Y <= c.Y && c.Y <= b.Max.Y {
					inCols = true
				}
			}
			got := s.Empty(b)
			if got && inBox || s.shift == 0 && !inCols && !got {
				t.Fatalf("round %d: Empty(%v) = %v; a solid in the box %v, in its columns %v", round, b, got, inBox, inCols)
			}
		}
		for z := 0; z < 3; z++ {
			codes, nx, org, fl := s.Layer(z)
			for i, k := range codes {
				c := grid.Cell{X: org.X + i%nx, Y: org.Y + i/nx, Z: z}
				if int(fl[k]) != want[c] {
					t.Fatalf("round %d: level %d reads %d at %v, want %d", round, z, fl[k], c, want[c])
				}
			}
		}
	}
}
