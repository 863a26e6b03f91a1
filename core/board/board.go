// Package board holds the solid cells of a board in a form that answers "how full is this
// cell?" and "is this box empty?" in constant time, for boards of any size (SPEC §1.6).
package board

import (
	"iter"
	"slices"

	"github.com/aoekit/aoekit/core/grid"
)

// Full is the fill of a full block, in lattice units (1/400 of a cell, SPEC §5.1).
const Full = 400

// maxDense is the most cells the dense index covers; wider boards use a map. Past denseFree
// cells, so do boards with fewer than one solid in denseCells cells of their bounding box: two
// obstacles 255 squares apart on every axis held 16 MiB (32 with more than 255 fills), and a
// scene made that again at each edit. (At 64, a Stress board of 500 × 500 with one stack 8
// high lost its level arrays, and a scene's evaluate took twice as long.)
const (
	maxDense   = 1 << 24
	denseFree  = 1 << 20
	denseCells = 1024
)

// maxTiles bounds the table of column counts Empty reads: a board wider than about 127 × 127
// columns is counted in square tiles of 2, 4, 8, … columns, so that the table stays small
// (64 KiB) however large the board. Building and clearing a table of one count per column
// cost more on a 500 × 500 board than the whole rest of an evaluation. Boards of more than
// 4 × minTiles columns have a tile for each 4 columns or more, so that the table (4 bytes a
// tile) is no larger than the dense index (a byte a cell).
const (
	maxTiles = 1 << 14
	minTiles = 1 << 10
)

// Solids is a set of solid cells with fills in lattice units (1 … 400). The zero value is an
// empty board. It implements the los.Solids and los.Regions interfaces.
type Solids struct {
	lo, hi grid.Cell // bounding box of the solid cells (valid when n > 0)
	n      int
	nx, ny int
	dense  []uint8              // palette codes over the bounding box, x fastest, then y, then z
	wide   []uint16             // fills over the bounding box, when there are too many for a palette
	sparse map[grid.Cell]uint16 // used instead of dense and wide when the box is too large
	fills  [256]uint16          // the palette: code k is fill fills[k] (0 is empty)
	shift  uint                 // tiles are 1<<shift columns square
	tx, ty int                  // tiles across the bounding box
	cols   []int32              // 2-D prefix sums of solid cells per tile, (tx+1)×(ty+1)
}

// A Solid is one solid cell and its fill in lattice units.
type Solid struct {
	Cell grid.Cell
	Fill int
}

// New indexes the solid cells. A fill below 1 is taken as 1 and above Full as Full; when a
// cell is listed twice the larger fill wins.
func New(cells []Solid) *Solids { return FromSeq(slices.Values(cells)) }

// FromSeq is New for the cells a sequence yields, without a slice of them; it reads the
// sequence twice.
func FromSeq(cells iter.Seq[Solid]) *Solids {
	s := &Solids{}
	var used [Full + 1]bool
	// The sequence is called with a function rather than ranged over: range-over-func adds
	// state checks that cost the wasm module some hundred bytes per loop, for nothing here.
	cells(func(c Solid) bool {
		if s.n == 0 {
			s.lo, s.hi = c.Cell, c.Cell
		}
		s.n++
		used[clamp(c.Fill)] = true
		s.lo = grid.Cell{X: min(s.lo.X, c.Cell.X), Y: min(s.lo.Y, c.Cell.Y), Z: min(s.lo.Z, c.Cell.Z)}
		s.hi = grid.Cell{X: max(s.hi.X, c.Cell.X), Y: max(s.hi.Y, c.Cell.Y), Z: max(s.hi.Z, c.Cell.Z)}
		return true
	})
	if s.n == 0 {
		return s
	}
	s.nx, s.ny = s.hi.X-s.lo.X+1, s.hi.Y-s.lo.Y+1
	nz := s.hi.Z - s.lo.Z + 1
	vol := int64(s.nx) * int64(s.ny) * int64(nz)
	// Most boards have a handful of distinct fills (full blocks, low walls, steps): the dense
	// index then holds a byte per cell, a code into a palette sorted by fill, so that the
	// larger code is the larger fill.
	var code [Full + 1]uint8
	k := 0
	for f := 1; f <= Full && k < 256; f++ {
		if used[f] {
			if k++; k < 256 {
				s.fills[k], code[f] = uint16(f), uint8(k)
			}
		}
	}
	switch {
	case vol > maxDense, vol > denseFree && vol > denseCells*int64(s.n):
		s.sparse = make(map[grid.Cell]uint16, s.n)
	case k < 256:
		s.dense = make([]uint8, vol)
	default:
		s.wide = make([]uint16, vol)
	}
	for ; s.shift < 31; s.shift++ {
		s.tx, s.ty = (s.nx-1)>>s.shift+1, (s.ny-1)>>s.shift+1
		if int64(s.tx+1)*int64(s.ty+1) <= min(maxTiles, max(minTiles, int64(s.nx)*int64(s.ny)/4)) {
			break
		}
	}
	s.cols = make([]int32, (s.tx+1)*(s.ty+1))
	w := s.tx + 1
	cells(func(c Solid) bool {
		f := clamp(c.Fill)
		tile := ((c.Cell.Y-s.lo.Y)>>s.shift+1)*w + (c.Cell.X-s.lo.X)>>s.shift + 1
		switch {
		case s.dense != nil:
			i := s.index(c.Cell)
			if s.dense[i] == 0 {
				s.cols[tile]++
			}
			s.dense[i] = max(s.dense[i], code[f])
		case s.wide != nil:
			i := s.index(c.Cell)
			if s.wide[i] == 0 {
				s.cols[tile]++
			}
			s.wide[i] = max(s.wide[i], f)
		default:
			if _, seen := s.sparse[c.Cell]; !seen {
				s.cols[tile]++
			}
			s.sparse[c.Cell] = max(s.sparse[c.Cell], f)
		}
		return true
	})
	// Tile counts → 2-D prefix sums: a running row sum plus the row above.
	for y := 1; y <= s.ty; y++ {
		row, above := s.cols[y*w:(y+1)*w], s.cols[(y-1)*w:y*w]
		var run int32
		for x := 1; x < len(row) && x < len(above); x++ {
			run += row[x]
			row[x] = run + above[x]
		}
	}
	return s
}

// clamp is a fill taken into 1 … Full.
func clamp(f int) uint16 { return uint16(min(max(f, 1), Full)) }

func (s *Solids) index(c grid.Cell) int {
	return ((c.Z-s.lo.Z)*s.ny+(c.Y-s.lo.Y))*s.nx + (c.X - s.lo.X)
}

func (s *Solids) inBox(c grid.Cell) bool {
	return s.n > 0 && c.X >= s.lo.X && c.X <= s.hi.X && c.Y >= s.lo.Y && c.Y <= s.hi.Y && c.Z >= s.lo.Z && c.Z <= s.hi.Z
}

// Len is the number of cells listed when the board was made.
func (s *Solids) Len() int { return s.n }

// Fill returns the fill of c in lattice units: 0 when c is not solid, Full for a full block.
func (s *Solids) Fill(c grid.Cell) int {
	if !s.inBox(c) {
		return 0
	}
	switch {
	case s.dense != nil:
		return int(s.fills[s.dense[s.index(c)]])
	case s.wide != nil:
		return int(s.wide[s.index(c)])
	}
	return int(s.sparse[c])
}

// IsFull reports whether c is a full block (fill Full).
func (s *Solids) IsFull(c grid.Cell) bool { return s.Fill(c) == Full }

// Empty reports whether no solid cell lies in the box b. It may answer false
// for a box with no solid cell inside but solids near it: it looks at whole columns (every
// level) and, on boards wider than about 127 columns, at whole tiles of columns (see
// maxTiles). A true answer is always right.
func (s *Solids) Empty(b grid.Box) bool {
	if s.n == 0 {
		return true
	}
	lo, hi := b.Min, b.Max
	x0, y0 := max(lo.X, s.lo.X), max(lo.Y, s.lo.Y)
	x1, y1 := min(hi.X, s.hi.X), min(hi.Y, s.hi.Y)
	if x0 > x1 || y0 > y1 || hi.Z < s.lo.Z || lo.Z > s.hi.Z {
		return true
	}
	w := s.tx + 1
	ax, ay := (x0-s.lo.X)>>s.shift, (y0-s.lo.Y)>>s.shift
	bx, by := (x1-s.lo.X)>>s.shift+1, (y1-s.lo.Y)>>s.shift+1
	return s.cols[by*w+bx]-s.cols[ay*w+bx]-s.cols[by*w+ax]+s.cols[ay*w+ax] == 0
}

// Layer returns level z of the palette index as los.Layers describes it, for a walk that
// reads it directly: fills is nil when the board keeps no palette index (one too large, or
// with more than 255 distinct fills).
func (s *Solids) Layer(z int) (codes []uint8, nx int, org grid.Cell, fills []uint16) {
	if s.n > 0 && s.dense == nil {
		return nil, 0, org, nil
	}
	fills = s.fills[:1]
	for k := 1; k < len(s.fills) && s.fills[k] != 0; k++ {
		fills = s.fills[:k+1]
	}
	if s.n == 0 || z < s.lo.Z || z > s.hi.Z {
		return nil, 0, org, fills
	}
	i := s.index(grid.Cell{X: s.lo.X, Y: s.lo.Y, Z: z})
	return s.dense[i : i+s.nx*s.ny], s.nx, grid.Cell{X: s.lo.X, Y: s.lo.Y, Z: z}, fills
}

// Edit changes the fills of cells in place, each Solid's Fill its new fill (0 clears the cell;
// a cell listed twice takes the last), when the index can hold every change as it stands:
// each cell inside its bounding box and, for a palette index, each fill in the palette or room
// in it (a new fill takes its place in order, and the codes above it move up one, in place).
// It reports false, changing nothing, otherwise: the caller indexes the board anew.
// A change costs the tiles' prefix sums (at most maxTiles) when it fills or empties a cell:
// an edit of a few cells on a board of 250 000 costs microseconds, not a rebuild. Len is left
// as it was (an upper bound of the solid cells).
func (s *Solids) Edit(cells []Solid) bool {
	if s.n == 0 {
		return len(cells) == 0
	}
	for _, c := range cells {
		if !s.inBox(c.Cell) {
			return false
		}
	}
	codes := make([]uint8, len(cells))
	if s.dense != nil {
		used := 1 // codes in use, 0 included
		for used < len(s.fills) && s.fills[used] != 0 {
			used++
		}
		var fresh []uint16 // fills not in the palette yet
		for _, c := range cells {
			if f := clamp(c.Fill); c.Fill > 0 && !slices.Contains(s.fills[1:used], f) && !slices.Contains(fresh, f) {
				fresh = append(fresh, f)
			}
		}
		if used+len(fresh) > len(s.fills) {
			return false
		}
		for _, f := range fresh {
			s.addFill(f, used)
			used++
		}
		for i, c := range cells {
			if c.Fill > 0 {
				codes[i] = uint8(slices.Index(s.fills[1:used], clamp(c.Fill)) + 1)
			}
		}
	}
	for i, c := range cells {
		var was bool
		f := uint16(0)
		if c.Fill > 0 {
			f = clamp(c.Fill)
		}
		switch {
		case s.dense != nil:
			j := s.index(c.Cell)
			was, s.dense[j] = s.dense[j] != 0, codes[i]
		case s.wide != nil:
			j := s.index(c.Cell)
			was, s.wide[j] = s.wide[j] != 0, f
		default:
			_, was = s.sparse[c.Cell]
			if f == 0 {
				delete(s.sparse, c.Cell)
			} else {
				s.sparse[c.Cell] = f
			}
		}
		switch now := f != 0; {
		case now && !was:
			s.count(c.Cell, 1)
		case was && !now:
			s.count(c.Cell, -1)
		}
	}
	return true
}

// addFill puts fill f into the palette (of used codes, 0 included), in order: the codes of
// the larger fills move up one, in the palette and in every cell that holds one.
func (s *Solids) addFill(f uint16, used int) {
	k := 1
	for k < used && s.fills[k] < f {
		k++
	}
	if k < used {
		for i, c := range s.dense {
			if int(c) >= k {
				s.dense[i] = c + 1
			}
		}
	}
	copy(s.fills[k+1:used+1], s.fills[k:used])
	s.fills[k] = f
}

// count adds d to the solid cells of c's tile in the prefix sums: to every sum whose rectangle
// holds that tile.
func (s *Solids) count(c grid.Cell, d int32) {
	w := s.tx + 1
	tx, ty := (c.X-s.lo.X)>>s.shift+1, (c.Y-s.lo.Y)>>s.shift+1
	for y := ty; y <= s.ty; y++ {
		row := s.cols[y*w : (y+1)*w]
		for x := tx; x < len(row); x++ {
			row[x] += d
		}
	}
}
