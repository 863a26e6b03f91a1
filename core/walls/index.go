package walls

import "github.com/aoekit/aoekit/core/los"

// maxTilesAcross bounds the tiles of an Index on each axis: a wall is filed under at most
// some 2 × maxTilesAcross tiles, however long, and the table stays small.
const maxTilesAcross = 128

// minShift makes a tile at least 512 lattice units (about a square and a quarter) across.
const minShift = 9

// An Index files walls under the square tiles of the plane their segments pass through, so
// that a segment is tested only against the walls of the tiles it passes through. The zero
// value and nil hold no walls. An Index is read-only once built and safe for concurrent use.
type Index struct {
	walls  []Wall
	x0, y0 int64 // the lattice point at the north-west corner of tile (0, 0)
	shift  uint  // tiles are 1<<shift lattice units square
	nx, ny int
	start  []int32 // tile k holds ids[start[k]:start[k+1]]
	ids    []int32
	most   int // the most walls filed under one tile
}

// New indexes ws, which must satisfy Wall's conditions (A ≠ B, coordinates within
// ±MaxCoord, Bottom ≤ Top).
func New(ws []Wall) *Index {
	ix := &Index{walls: ws}
	if len(ws) == 0 {
		return ix
	}
	lx, ly, hx, hy := ws[0].A[0], ws[0].A[1], ws[0].A[0], ws[0].A[1]
	for i := range ws {
		for _, p := range [2][2]int64{ws[i].A, ws[i].B} {
			lx, ly, hx, hy = min(lx, p[0]), min(ly, p[1]), max(hx, p[0]), max(hy, p[1])
		}
	}
	ix.shift = minShift
	for (hx-lx)>>ix.shift >= maxTilesAcross || (hy-ly)>>ix.shift >= maxTilesAcross {
		ix.shift++
	}
	ix.x0, ix.y0 = lx, ly
	ix.nx, ix.ny = int((hx-lx)>>ix.shift)+1, int((hy-ly)>>ix.shift)+1
	count := make([]int32, ix.nx*ix.ny+1)
	for i := range ws {
		if tx0, tx1, ty0, ty1, ok := ix.box(&ws[i]); ok {
			for ty := ty0; ty <= ty1; ty++ {
				for k := ty*ix.nx + tx0; k <= ty*ix.nx+tx1; k++ {
					count[k+1]++
				}
			}
		} else {
			ix.tiles(ws[i].A, ws[i].B, func(k int) bool { count[k+1]++; return false })
		}
	}
	for k := 1; k < len(count); k++ {
		ix.most = max(ix.most, int(count[k]))
		count[k] += count[k-1]
	}
	ix.start = count
	ix.ids = make([]int32, count[len(count)-1])
	next := append([]int32(nil), count[:len(count)-1]...)
	for i := range ws {
		if tx0, tx1, ty0, ty1, ok := ix.box(&ws[i]); ok {
			for ty := ty0; ty <= ty1; ty++ {
				for k := ty*ix.nx + tx0; k <= ty*ix.nx+tx1; k++ {
					ix.ids[next[k]] = int32(i)
					next[k]++
				}
			}
		} else {
			ix.tiles(ws[i].A, ws[i].B, func(k int) bool {
				ix.ids[next[k]] = int32(i)
				next[k]++
				return false
			})
		}
	}
	return ix
}

// box is the tiles of w's box when w is filed under them: when they are few or its box is a row
// or column of tiles (a short wall or one along a grid line, the usual cases: a tile or two
// more than the segment passes through costs only a look). Otherwise ok is false, and w is
// filed under the tiles its segment may pass through.
func (ix *Index) box(w *Wall) (tx0, tx1, ty0, ty1 int, ok bool) {
	tx0, tx1 = ix.clampX(min(w.A[0], w.B[0])), ix.clampX(max(w.A[0], w.B[0]))
	ty0, ty1 = ix.clampY(min(w.A[1], w.B[1])), ix.clampY(max(w.A[1], w.B[1]))
	across, down := tx1-tx0+1, ty1-ty0+1
	return tx0, tx1, ty0, ty1, across == 1 || down == 1 || across*down <= 9
}

// Walls is the walls indexed (not a copy).
func (ix *Index) Walls() []Wall {
	if ix == nil {
		return nil
	}
	return ix.walls
}

// Len is the number of walls.
func (ix *Index) Len() int {
	if ix == nil {
		return 0
	}
	return len(ix.walls)
}

// Blocked reports whether some wall blocks the segment p → q (Wall.Blocks).
func (ix *Index) Blocked(p, q los.Point) bool { return ix.BlockedBy(p, q) >= 0 }

// BlockedBy is a wall that blocks the segment p → q (Wall.Blocks), the one nearest p where
// the tiles tell, as its index in Walls; or −1 when none does.
func (ix *Index) BlockedBy(p, q los.Point) int {
	if ix.Len() == 0 {
		return -1
	}
	by := -1
	ix.tiles([2]int64{p.X, p.Y}, [2]int64{q.X, q.Y}, func(k int) bool {
		for _, id := range ix.ids[ix.start[k]:ix.start[k+1]] {
			if ix.walls[id].Blocks(p, q) {
				by = int(id)
				return true
			}
		}
		return false
	})
	return by
}

// Cost bounds the walls Blocked tests for a segment whose projection spans dx by dy lattice
// units: the tiles it may pass through times the most walls under one tile. The engine
// reckons it before the work is done (SPEC §8.3).
func (ix *Index) Cost(dx, dy int64) int {
	if ix.Len() == 0 {
		return 0
	}
	tx, ty := int64(min(ix.nx, int(abs64(dx)>>ix.shift)+2)), int64(min(ix.ny, int(abs64(dy)>>ix.shift)+2))
	return int(min(tx*ty, 2*(tx+ty))) * ix.most
}

// Near reports whether a wall may pass through the closed box lo … hi of the plane (lattice
// units): false means certainly none does. It answers from the tiles: a tile of walls near
// the box, not in it, still answers true.
func (ix *Index) Near(lo, hi [2]int64) bool {
	if ix.Len() == 0 {
		return false
	}
	if hi[0] < ix.x0 || hi[1] < ix.y0 || lo[0] >= ix.x0+int64(ix.nx)<<ix.shift || lo[1] >= ix.y0+int64(ix.ny)<<ix.shift {
		return false
	}
	near := false
	tx0, tx1 := ix.clampX(lo[0]), ix.clampX(hi[0])
	ty0, ty1 := ix.clampY(lo[1]), ix.clampY(hi[1])
	for ty := ty0; ty <= ty1 && !near; ty++ {
		for tx := tx0; tx <= tx1 && !near; tx++ {
			k := ty*ix.nx + tx
			near = ix.start[k+1] > ix.start[k]
		}
	}
	return near
}

// clampX is the tile column of x, clamped to the table (compared before it is subtracted,
// so that no x overflows).
func (ix *Index) clampX(x int64) int { return clamp(x, ix.x0, ix.shift, ix.nx) }

func (ix *Index) clampY(y int64) int { return clamp(y, ix.y0, ix.shift, ix.ny) }

func clamp(v, v0 int64, shift uint, n int) int {
	switch {
	case v <= v0:
		return 0
	case v >= v0+int64(n)<<shift:
		return n - 1
	}
	return int((v - v0) >> shift)
}

// tiles calls visit for each tile of the table that the closed plane segment a → b may pass
// through, from a's end to b's (column by column, and within a column row by row, in the
// segment's direction: the walls nearest a first, where a point-origin area's segments are
// blocked most), until visit returns true; it returns whether one did. A tile holding a point
// of the segment is always visited: in each column, the tiles of the segment's y range over
// the column's closed x range.
func (ix *Index) tiles(a, b [2]int64, visit func(k int) bool) bool {
	l, r := a, b // by x
	if l[0] > r[0] {
		l, r = r, l
	}
	xlo, xhi := ix.x0, ix.x0+int64(ix.nx)<<ix.shift-1
	ylo, yhi := ix.y0, ix.y0+int64(ix.ny)<<ix.shift-1
	if r[0] < xlo || l[0] > xhi || max(l[1], r[1]) < ylo || min(l[1], r[1]) > yhi {
		return false
	}
	dx, dy := r[0]-l[0], r[1]-l[1]
	tx0, tx1 := ix.clampX(max(l[0], xlo)), ix.clampX(min(r[0], xhi))
	txStep, tyStep := 1, 1
	if a[0] > b[0] {
		tx0, tx1, txStep = tx1, tx0, -1
	}
	if a[1] > b[1] {
		tyStep = -1
	}
	for tx := tx0; ; tx += txStep {
		// The segment's part over the column's closed x range.
		cx0 := max(l[0], ix.x0+int64(tx)<<ix.shift)
		cx1 := min(r[0], ix.x0+int64(tx+1)<<ix.shift)
		y0, y1 := l[1], r[1]
		if dx != 0 {
			y0 = l[1] + floorDiv((cx0-l[0])*dy, dx)
			y1 = l[1] + floorDiv((cx1-l[0])*dy, dx)
		}
		if y0 > y1 {
			y0, y1 = y1, y0
		}
		// floorDiv rounded both ends down, each into the tile of its exact value: tile
		// edges are whole numbers.
		if y1 >= ylo && y0 <= yhi {
			ty0, ty1 := ix.clampY(y0), ix.clampY(y1)
			if tyStep < 0 {
				ty0, ty1 = ty1, ty0
			}
			for ty := ty0; ; ty += tyStep {
				if visit(ty*ix.nx + tx) {
					return true
				}
				if ty == ty1 {
					break
				}
			}
		}
		if tx == tx1 {
			return false
		}
	}
}

// floorDiv is ⌊a/b⌋ for b > 0.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
