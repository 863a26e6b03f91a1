package grid

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A Space is the box of cells an entity occupies (SPEC §1.5): Size × Size squares and Height
// levels, whose north-west, lowest cell is Anchor. It contains the cells c with
// Anchor.X ≤ c.X < Anchor.X+Size, Anchor.Y ≤ c.Y < Anchor.Y+Size and
// Anchor.Z ≤ c.Z < Anchor.Z+Height. A Space with Size or Height below 1 is treated as 1.
type Space struct {
	Anchor       Cell
	Size, Height int
}

// Unit is the space of a single cell.
func Unit(c Cell) Space { return Space{c, 1, 1} }

func (s Space) norm() (w, h int) { return max(s.Size, 1), max(s.Height, 1) }

// Min is the north-west, lowest cell of s.
func (s Space) Min() Cell { return s.Anchor }

// Max is the south-east, highest cell of s.
//
// Max and Box are never inlined (issue 30): callers across the engine, cover and the shapes
// call them at some 130 places, mostly once a request or once a token, and each inlined copy
// of the size's clamping added to the WebAssembly module: out of line, aoekit.wasm is 4.0 KB of
// brotli smaller, the engine's benchmarks unchanged. Box's others (Meets, Intersect, Grow) and
// Space.Dist stay inlinable: they run in the blockers' and the targets' loops (the engine's
// benchmarks were ~8 % slower with them out of line, for 1.5 KB more).
//
//go:noinline
func (s Space) Max() Cell {
	w, h := s.norm()
	return Cell{s.Anchor.X + w - 1, s.Anchor.Y + w - 1, s.Anchor.Z + h - 1}
}

// Contains reports whether c is one of the cells of s.
func (s Space) Contains(c Cell) bool {
	lo, hi := s.Min(), s.Max()
	return lo.X <= c.X && c.X <= hi.X && lo.Y <= c.Y && c.Y <= hi.Y && lo.Z <= c.Z && c.Z <= hi.Z
}

// Cells calls visit for every cell of s, ordered by z, then y, then x.
func (s Space) Cells(visit func(Cell)) {
	lo, hi := s.Min(), s.Max()
	for z := lo.Z; z <= hi.Z; z++ {
		for y := lo.Y; y <= hi.Y; y++ {
			for x := lo.X; x <= hi.X; x++ {
				visit(Cell{x, y, z})
			}
		}
	}
}

// Count is the number of cells of s.
func (s Space) Count() int {
	w, h := s.norm()
	return w * w * h
}

// gap is the distance between the integer ranges [a0,a1] and [b0,b1]: 0 when they overlap.
func gap(a0, a1, b0, b1 int) int { return max(0, b0-a1, a0-b1) }

// Gaps is the distance between s and t on each axis, between their nearest cells: 0 on an
// axis where they overlap. Every metric of SPEC §1.4 and §8.2 is a function of it.
func (s Space) Gaps(t Space) Cell {
	a0, a1, b0, b1 := s.Min(), s.Max(), t.Min(), t.Max()
	return Cell{X: gap(a0.X, a1.X, b0.X, b1.X), Y: gap(a0.Y, a1.Y, b0.Y, b1.Y), Z: gap(a0.Z, a1.Z, b0.Z, b1.Z)}
}

// Dist is the 3-D Chebyshev distance between two spaces: the least distance between any
// cell of s and any cell of t (SPEC §1.4). Overlapping spaces are at distance 0.
func (s Space) Dist(t Space) int {
	g := s.Gaps(t)
	return max(g.X, g.Y, g.Z)
}

// DistCell is the distance from the nearest cell of s to c.
func (s Space) DistCell(c Cell) int { return s.Dist(Unit(c)) }

// Nearest returns the cell of s nearest to c (each coordinate clamped into s).
func (s Space) Nearest(c Cell) Cell {
	lo, hi := s.Min(), s.Max()
	return Cell{min(max(c.X, lo.X), hi.X), min(max(c.Y, lo.Y), hi.Y), min(max(c.Z, lo.Z), hi.Z)}
}

// Overlaps reports whether s and t share a cell.
func (s Space) Overlaps(t Space) bool { return s.Dist(t) == 0 }

// SizeByName returns the footprint of a creature size name (SPEC §1.5): TDGS Tiny, Small and
// Medium are 1 (Tiny shares a square), Large 2, Huge 3, Gargantuan 4; Draw Steel 1T, 1S, 1M, 1L
// are 1. Names are matched without regard to case.
func SizeByName(name string) (int, bool) {
	// strings.ToLower, rune by rune: strings.ToLower itself adds 6 KB to the wasm module.
	var lower []byte
	for _, r := range strings.TrimSpace(name) {
		lower = utf8.AppendRune(lower, unicode.ToLower(r))
	}
	switch string(lower) {
	case "tiny", "small", "medium", "1t", "1s", "1m", "1l":
		return 1, true
	case "large":
		return 2, true
	case "huge":
		return 3, true
	case "gargantuan":
		return 4, true
	}
	return 0, false
}
