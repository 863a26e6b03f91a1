package engine

import (
	"github.com/aoekit/aoekit/core/board"
	"github.com/aoekit/aoekit/core/grid"
)

// reachable floods the box hull from the cells of the space line of effect is traced from
// (sc.at.from) that are not full obstacles, through cells that are not full obstacles,
// stepping to any of the 26 cells around a cell that passes allows. It returns the cells
// reached, by hull.index, and the work of line of effect to the cells of set among them
// (areaCellWork), stopping as soon as that is past limit; or nil when hull holds more than
// 2n + 4096 cells, for the shape's n.
//
// No clear segment (SPEC §5.2) reaches a cell the flood does not. Let σ run clear from a
// point p of from — the centre or an inset corner of one of its cells, or its centre — to a
// point q inside a cell Q of hull (its centre or an inset corner), and so line of effect to
// Q, or to a target in it, use it (§5.3, §5.4).
//
//  1. σ lies in no grid plane (q lies in none), so it meets each plane at one point at most:
//     it crosses planes at a few points x and between them runs through the inside of
//     cells K0, K1, …, Km = Q. K0 is a cell of from: p lies in it (the cells around the
//     centre of from are from's). Every Ki lies in hull, which holds the box of from and Q.
//  2. No Ki is a full obstacle: a point inside one is inside solid matter.
//  3. At the x between A = Ki and B = Ki+1, x is not bad: the octants around it that solid
//     matter covers are not all eight and form one face-connected group. An octant is
//     covered only by the solid of the cell it looks into (a step into it lies inside that
//     cell): never by an empty cell, always by a full one. σ crosses
//     - one plane: A and B share a face, and the flood steps;
//     - two: A and B share an edge, x inside a level of the third axis (on its plane σ would
//     cross it too). Around the edge lie A, C, B, D, each sharing a face with the next,
//     each with two octants at x. If C and D are full and A and B empty, the covered
//     octants are C's and D's, which share no face: x is bad. So the flood steps unless
//     none of the four is partly filled and C and D are full. (A partly filled A may join
//     C and D: a segment grazing its top at its fill passes between the two blocks.)
//     - three: A and B meet at the corner x, one octant each. A's is not covered: if it
//     were, the points of σ just before x, in that octant, would be inside A's solid (just
//     above the floor of an upper cell with a fill, or in a full lower one). Nor is B's. The
//     other six cells ring the corner (x, xy, y, yz, z, zx of the step, each sharing a face
//     with the next) and their covered octants make as many groups as they make runs
//     round the ring: x is bad when there are two or more. So the flood steps unless none
//     of the six is partly filled (their covered octants are then their full cells') and
//     their full cells make two runs or more. (Six full cells are one run: a segment may
//     pass through the corner they ring.)
//  4. So the flood, from every cell of from that is not full, takes every step from Ki to
//     Ki+1, and reaches Q.
//
// TestReachable_NoClearSegmentLeavesTheFlood holds it to that on random boards, and
// TestReachable_5_2_Squeezes to the cases a flood refusing every diagonal squeeze between
// full obstacles gets wrong.
func (sc *scene) reachable(set *cellSet, hull grid.Box, limit int) (seen []bool, work int) {
	nx, ny := hull.Max.X-hull.Min.X+1, hull.Max.Y-hull.Min.Y+1
	if nx*ny*(hull.Max.Z-hull.Min.Z+1) > 2*sc.foot.count+4096 {
		return nil, 0
	}
	seen = make([]bool, nx*ny*(hull.Max.Z-hull.Min.Z+1))
	var stack []int
	segs := sc.prof.areaSegments(sc.at.from)
	visit := func(c grid.Cell) {
		if i := boxIndex(hull, c); !seen[i] && !sc.solids.IsFull(c) {
			seen[i] = true
			stack = append(stack, i)
			if set.get(c) != 0 {
				work += sc.areaCellWork(sc.at.from, c, segs)
			}
		}
	}
	sc.at.from.Cells(visit)
	for len(stack) > 0 && work <= limit && !sc.w.stop(len(neighbours)) {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		c := grid.Cell{X: hull.Min.X + i%nx, Y: hull.Min.Y + i/nx%ny, Z: hull.Min.Z + i/(nx*ny)}
		for _, d := range neighbours {
			if n := c.Add(d); hull.Contains(n) && !seen[boxIndex(hull, n)] && sc.passes(c, d) {
				visit(n)
			}
		}
	}
	return seen, work
}

// passes reports whether the flood of reachable steps from c to c+d, one of the 26 cells
// around it: always across a face; across an edge or a corner unless the cells around it
// hold no partly filled cell and their full cells fall into two runs or more (see
// reachable). The cells around are named by which of d's moves they take: bit 0 x, 1 y,
// 2 z; around an edge they are c+a, c+d, c+b and c itself.
func (sc *scene) passes(c, d grid.Cell) bool {
	m := 0
	for a, v := range [3]int{d.X, d.Y, d.Z} {
		if v != 0 {
			m |= 1 << a
		}
	}
	ring := []int{1, 3, 2, 6, 4, 5} // around a corner
	switch m {
	case 1, 2, 4:
		return true
	case 3, 5, 6: // around an edge: c+a, c+d, c+b, c
		ring = []int{m & -m, m, m & (m - 1), 0}
	}
	var full [6]bool
	for i, k := range ring {
		f := sc.solids.Fill(c.Add(grid.Cell{X: d.X * (k & 1), Y: d.Y * (k >> 1 & 1), Z: d.Z * (k >> 2)}))
		if f > 0 && f < board.Full {
			return true
		}
		full[i] = f == board.Full
	}
	runs := 0
	for i := range ring {
		if full[i] && !full[(i+1)%len(ring)] {
			runs++
		}
	}
	return runs < 2
}

// index is c's place in b, x fastest, then y, then z.
func boxIndex(b grid.Box, c grid.Cell) int {
	return ((c.Z-b.Min.Z)*(b.Max.Y-b.Min.Y+1)+c.Y-b.Min.Y)*(b.Max.X-b.Min.X+1) + c.X - b.Min.X
}
