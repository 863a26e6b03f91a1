package engine

import (
	"math"

	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/template"
)

// A cellSet maps the cells of one placed template to a state byte (0 = not in the template).
// It holds them by rows and columns, never by the template's bounding box: row y (a line of
// cells along x) has one run of columns x0 … x1 (every shape's rows are one run; a wall's
// gaps are empty columns), and column (x, y) one run of levels: a byte a cell, 8 a column
// and 20 a row. A diagonal Lin1000SE is 10⁶ cells in a box of 10⁹, in 1 000 columns: 1 MB
// here, where a map of its cells took 70; a flat circle of 10⁶ cells takes 9.
type cellSet struct {
	grid.Box            // the cells' bounding box
	rows     [][5]int32 // per y − lo.Y: the row's first x, last x, first column, lowest and top z
	z0       []int32    // per column: its lowest level
	off      []int32    // per column: its first slot; off[k+1] − off[k] is its number of levels
	st       []uint8    // the states, column after column, each from its lowest level up
}

// newCellSet makes the set of the cells of shape placed at p, whose footprint is f (within the
// limits), every cell in state v. It visits the cells once, or for shapes other than prisms
// (a Draw Steel line, a wall) two or three times: never once per cell of the box.
func newCellSet(shape template.Shape, p template.Placement, f footprint, v uint8) *cellSet {
	s := &cellSet{Box: f.box}
	if f.count == 0 {
		return s
	}
	s.rows = make([][5]int32, s.Max.Y-s.Min.Y+1)
	for i := range s.rows {
		s.rows[i] = [5]int32{math.MaxInt32, math.MinInt32, 0, math.MaxInt32, math.MinInt32}
	}
	if _, ok := template.BoxOf(shape, p); ok { // every row the box's width, every column its height
		for i := range s.rows {
			s.rows[i] = [5]int32{int32(s.Min.X), int32(s.Max.X), 0, int32(s.Min.Z), int32(s.Max.Z)}
		}
	} else {
		shape.Cells(p, func(c grid.Cell) {
			r := &s.rows[c.Y-s.Min.Y]
			r[0], r[1] = min(r[0], int32(c.X)), max(r[1], int32(c.X))
			r[3], r[4] = min(r[3], int32(c.Z)), max(r[4], int32(c.Z))
		})
	}
	cols := 0
	for i := range s.rows {
		r := &s.rows[i]
		r[2] = int32(cols)
		cols += max(0, int(r[1])-int(r[0])+1) // 0 for a row with no cell
	}
	s.z0 = make([]int32, cols)
	s.off = make([]int32, cols+1)
	prism := cols*(s.Max.Z-s.Min.Z+1) == f.count // every column on every level: no pass for levels
	for k := range s.z0 {
		s.z0[k], s.off[k+1] = math.MaxInt32, math.MinInt32 // off[k+1] holds the top level for now
		if prism {
			s.z0[k], s.off[k+1] = int32(s.Min.Z), int32(s.Max.Z)
		}
	}
	if !prism {
		shape.Cells(p, func(c grid.Cell) {
			k := s.column(c)
			s.z0[k], s.off[k+1] = min(s.z0[k], int32(c.Z)), max(s.off[k+1], int32(c.Z))
		})
	}
	for k, z := range s.z0 {
		s.off[k+1] = s.off[k] + int32(max(0, int(s.off[k+1])-int(z)+1)) // 0 for a wall's empty column
	}
	s.st = make([]uint8, s.off[cols])
	if len(s.st) == f.count { // every slot a cell of the shape: v copied over, doubling
		s.st[0] = v
		for n := 1; n < len(s.st); n *= 2 {
			copy(s.st[n:], s.st[:n])
		}
	} else {
		shape.Cells(p, func(c grid.Cell) { s.st[s.slot(c)] = v })
	}
	return s
}

// column is the column of c, which lies in a row's run.
func (s *cellSet) column(c grid.Cell) int {
	r := &s.rows[c.Y-s.Min.Y]
	return int(r[2]) + c.X - int(r[0])
}

// levels are column k's lowest level, its number of levels and its first slot.
func (s *cellSet) levels(k int) (z0, n, off int) {
	return int(s.z0[k]), int(s.off[k+1] - s.off[k]), int(s.off[k])
}

// slot is c's index in st, or −1 when no column holds c.
func (s *cellSet) slot(c grid.Cell) int {
	y := c.Y - s.Min.Y
	if uint(y) >= uint(len(s.rows)) || c.X < int(s.rows[y][0]) || c.X > int(s.rows[y][1]) {
		return -1
	}
	z0, n, off := s.levels(s.column(c))
	if z := c.Z - z0; uint(z) < uint(n) {
		return off + z
	}
	return -1
}

func (s *cellSet) get(c grid.Cell) uint8 {
	if i := s.slot(c); i >= 0 {
		return s.st[i]
	}
	return 0
}

// set records state v for c, a cell of the shape.
func (s *cellSet) set(c grid.Cell, v uint8) { s.st[s.slot(c)] = v }

// scan calls f for every column of the set that meets the box lo … hi, with the slots of
// the column's levels inside it, a … b (a > b: none), and stops when f returns true. It
// returns the number of rows and slots it went through, whether f stopped it or not.
func (s *cellSet) scan(box grid.Box, f func(a, b int) bool) (work int) {
	lo, hi := box.Min, box.Max
	for y := max(lo.Y, s.Min.Y); y <= min(hi.Y, s.Min.Y+len(s.rows)-1); y++ {
		r := s.rows[y-s.Min.Y]
		work++
		for x := max(lo.X, int(r[0])); x <= min(hi.X, int(r[1])); x++ {
			z0, n, off := s.levels(int(r[2]) + x - int(r[0]))
			a, b := off+max(lo.Z, z0)-z0, off+min(hi.Z, z0+n-1)-z0
			work += max(1, b-a+1)
			if f != nil && f(a, b) {
				return work
			}
		}
	}
	return work
}

// cells calls f for every cell of the set (state other than 0) inside the box b, by rows, then
// columns, then levels.
func (s *cellSet) cells(b grid.Box, f func(c grid.Cell)) {
	lo, hi := b.Min, b.Max
	for y := max(lo.Y, s.Min.Y); y <= min(hi.Y, s.Min.Y+len(s.rows)-1); y++ {
		r := s.rows[y-s.Min.Y]
		for x := max(lo.X, int(r[0])); x <= min(hi.X, int(r[1])); x++ {
			z0, n, off := s.levels(int(r[2]) + x - int(r[0]))
			for z := max(lo.Z, z0); z <= min(hi.Z, z0+n-1); z++ {
				if s.st[off+z-z0] != 0 {
					f(grid.Cell{X: x, Y: y, Z: z})
				}
			}
		}
	}
}

// best returns the highest state of any cell of sp. It goes through no more than
// s.scan(sp's box, nil) rows and slots.
func (s *cellSet) best(sp grid.Space) uint8 {
	var b uint8
	s.scan(sp.Box(), func(i, j int) bool {
		for ; i <= j && b < stIn; i++ {
			b = max(b, s.st[i])
		}
		return b == stIn // the highest state: no need to look further
	})
	return b
}

// appendCells appends the cells of state v inside clip to out, sorted by z, then y, then x,
// once each (CONTRACT's order), and returns how many there are; with a nil out it only counts
// them. It goes through the set's columns within clip, level by level.
func (s *cellSet) appendCells(out [][3]int32, clip grid.Box, v uint8) (int, [][3]int32) {
	n := 0
	st := s.st
	for z := clip.Min.Z; z <= clip.Max.Z; z++ {
		z32 := int32(z)
		for y := clip.Min.Y; y <= clip.Max.Y; y++ {
			r := s.rows[y-s.Min.Y]
			x0, x1 := max(clip.Min.X, int(r[0])), min(clip.Max.X, int(r[1]))
			if z < int(r[3]) || z > int(r[4]) || x0 > x1 {
				continue
			}
			// The row's columns x0 … x1: their lowest levels, and their slots' offsets.
			k := int(r[2]) + x0 - int(r[0])
			z0 := s.z0[k : k+x1-x0+1]
			off := s.off[k : k+len(z0)+1]
			x32, y32 := int32(x0), int32(y)
			for i, zb := range z0 {
				lo, hi := off[i], off[i+1]
				if d := z32 - zb; uint32(d) >= uint32(hi-lo) || st[lo+d] != v {
					continue
				}
				if n++; out == nil {
					continue
				}
				// Grown in place and written field by field: appending the array
				// [3]int32{x, y, z} (not SSA-able) built it in memory and copied it, and
				// took 2 x the time of the whole loop natively.
				if len(out) < cap(out) {
					out = out[:len(out)+1]
				} else {
					out = append(out, [3]int32{})
				}
				c := &out[len(out)-1]
				c[0], c[1], c[2] = x32+int32(i), y32, z32
			}
		}
	}
	return n, out
}
