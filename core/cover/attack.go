package cover

import (
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/los"
)

// FromSpace judges t from an attacker whose space is a (SPEC §5.7): from the cell of a that
// leaves t the least cover — the smallest blocked fraction, each cell judged by FromCellOf —
// ties going to the first cell in z, y, x order. A Melee attack is made only from the cells
// of a adjacent to t's space (distance 1, SPEC §1.4). Cells inside t's space are never used
// (they show no face). It returns that cell's result and the cell; ok is false when no cell
// qualifies (a Melee attacker with no cell adjacent to t, or a inside t).
func FromSpace(kind Kind, a grid.Space, t Target, standing bool, s los.Solids) (r Result, from grid.Cell, ok bool) {
	a.Cells(func(c grid.Cell) {
		if ok && r.Blocked == 0 {
			return // nothing leaves less cover than none: the first such cell stays
		}
		if t.Space.Contains(c) || kind == Melee && t.Space.DistCell(c) != 1 {
			return
		}
		if cr := FromCellOf(kind, a, c, t, standing, s); !ok || cr.less(r) {
			r, from, ok = cr, c, true
		}
	})
	return r, from, ok
}

// SegmentBound is an upper bound on the segments FromSpace(kind, a, t, standing, …) judges:
// per usable cell of a, its source points (every corner turned toward t for Ranged and Reach,
// each judged in turn; one point for Area) times the corners of t turned toward it, before
// the low-point boost or a melee target's fills (ruling R1) drop any. It stops counting once
// the count passes limit, and then returns a number above limit: callers use it to refuse a
// request too large to answer (SPEC §8.3) before any segment is judged.
func SegmentBound(kind Kind, a grid.Space, t grid.Space, standing bool, limit int64) int64 {
	tb := t.Box()
	n := int64(0)
	amin, amax := a.Min(), a.Max()
	for z := amin.Z; z <= amax.Z; z++ {
		for y := amin.Y; y <= amax.Y; y++ {
			for x := amin.X; x <= amax.X; x++ {
				c := grid.C(x, y, z)
				if t.Contains(c) || kind == Melee && t.DistCell(c) != 1 {
					continue
				}
				cb := grid.Box{Min: c, Max: c}
				tf := facesFromBox(tb, cb) // t's faces turned toward c
				src := int64(1)
				if kind != Area {
					f := facesFromBox(cb, tb)
					if kind == Melee && tb.Max.Z < c.Z && standing && (f[0] != 0 || f[1] != 0) {
						f[2] = 0
					}
					src = onFaces(cb, f)
				}
				if n += src * onFaces(tb, tf); n > limit {
					return n
				}
			}
		}
	}
	return n
}

// onFaces is the number of inset corners of the box b on the faces named by faces: of
// the (2nx)(2ny)(2nz) inset corners of its cells, those not on any turned face are a box of
// (2nx − [x turned]) × … corners.
func onFaces(b grid.Box, faces [3]int) int64 {
	l, h := axes(b)
	all, off := int64(1), int64(1)
	for k := range 3 {
		p := 2 * int64(h[k]-l[k]+1)
		all *= p
		if faces[k] != 0 {
			p--
		}
		off *= p
	}
	return all - off
}
