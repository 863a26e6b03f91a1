package engine

import (
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/internal/hsort"
)

// A cellSet maps the cells of one template to a state byte (0 = not in the template). It is a
// dense array over the cells' bounding box, or a map when that box is too large for memory.
type cellSet struct {
	box    // the cells' bounding box
	nx, ny int
	dense  []uint8
	sparse map[grid.Cell]uint8
}

const maxDenseSet = 1 << 24

// newCellSet makes a set for n cells whose bounding box is lo … hi (n = 0: no cells).
func newCellSet(lo, hi grid.Cell, n int) *cellSet {
	s := &cellSet{}
	if n == 0 {
		s.sparse = map[grid.Cell]uint8{}
		return s
	}
	s.box = box{lo, hi}
	s.nx, s.ny = s.hi.X-s.lo.X+1, s.hi.Y-s.lo.Y+1
	vol := int64(s.nx) * int64(s.ny) * int64(s.hi.Z-s.lo.Z+1)
	if vol <= maxDenseSet && vol <= 16*int64(n)+4096 {
		s.dense = make([]uint8, vol)
	} else {
		s.sparse = make(map[grid.Cell]uint8, n)
	}
	return s
}

func (s *cellSet) get(c grid.Cell) uint8 {
	if s.dense == nil {
		return s.sparse[c]
	}
	if !s.contains(c.X, c.Y, c.Z) {
		return 0
	}
	return s.dense[((c.Z-s.lo.Z)*s.ny+(c.Y-s.lo.Y))*s.nx+(c.X-s.lo.X)]
}

// set records state v for c, which must lie in the box the set was made for.
func (s *cellSet) set(c grid.Cell, v uint8) {
	if s.dense == nil {
		s.sparse[c] = v
		return
	}
	s.dense[((c.Z-s.lo.Z)*s.ny+(c.Y-s.lo.Y))*s.nx+(c.X-s.lo.X)] = v
}

// appendDense appends the cells of state v inside clip to out, sorted by z, then y, then x.
// The set must be dense.
func (s *cellSet) appendDense(out [][3]int32, clip box, v uint8) [][3]int32 {
	for z := clip.lo.Z; z <= clip.hi.Z; z++ {
		for y := clip.lo.Y; y <= clip.hi.Y; y++ {
			if clip.lo.X > clip.hi.X {
				break
			}
			i := ((z-s.lo.Z)*s.ny+(y-s.lo.Y))*s.nx + (clip.lo.X - s.lo.X)
			row := s.dense[i : i+clip.hi.X-clip.lo.X+1]
			for k, st := range row {
				if st == v {
					out = append(out, [3]int32{int32(clip.lo.X + k), int32(y), int32(z)})
				}
			}
		}
	}
	return out
}

// best returns the highest state of any cell of sp.
func (s *cellSet) best(sp grid.Space) uint8 {
	in := s.clip(sp.Min(), sp.Max())
	lo, hi := in.lo, in.hi
	var b uint8
	for z := lo.Z; z <= hi.Z; z++ {
		for y := lo.Y; y <= hi.Y; y++ {
			for x := lo.X; x <= hi.X; x++ {
				if b = max(b, s.get(grid.Cell{X: x, Y: y, Z: z})); b == stIn {
					return b // the highest state: no need to look further
				}
			}
		}
	}
	return b
}

// sortCells sorts cells by z, then y, then x (CONTRACT's order).
func sortCells(cells [][3]int32) {
	hsort.Sort(len(cells), func(i, j int) bool {
		a, b := cells[i], cells[j]
		if a[2] != b[2] {
			return a[2] < b[2]
		}
		if a[1] != b[1] {
			return a[1] < b[1]
		}
		return a[0] < b[0]
	}, func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
}
