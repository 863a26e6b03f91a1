package grid

// A Box is the inclusive box of cells from Min to Max: the cells c with Min.X ≤ c.X ≤ Max.X,
// and likewise on Y and Z, in the spirit of image.Rectangle (but inclusive, as the bounds of
// SPEC §8.3 are). A box with Min past Max on some axis is empty.
type Box struct{ Min, Max Cell }

// Empty reports whether b holds no cell.
func (b Box) Empty() bool { return b.Min.X > b.Max.X || b.Min.Y > b.Max.Y || b.Min.Z > b.Max.Z }

// Contains reports whether c is a cell of b.
func (b Box) Contains(c Cell) bool {
	return b.Min.X <= c.X && c.X <= b.Max.X && b.Min.Y <= c.Y && c.Y <= b.Max.Y && b.Min.Z <= c.Z && c.Z <= b.Max.Z
}

// Meets reports whether b and o share a cell.
func (b Box) Meets(o Box) bool {
	return o.Min.X <= b.Max.X && o.Max.X >= b.Min.X && o.Min.Y <= b.Max.Y && o.Max.Y >= b.Min.Y && o.Min.Z <= b.Max.Z && o.Max.Z >= b.Min.Z
}

// Intersect is the part of b inside o (empty on an axis where they do not overlap).
func (b Box) Intersect(o Box) Box {
	return Box{
		Cell{max(b.Min.X, o.Min.X), max(b.Min.Y, o.Min.Y), max(b.Min.Z, o.Min.Z)},
		Cell{min(b.Max.X, o.Max.X), min(b.Max.Y, o.Max.Y), min(b.Max.Z, o.Max.Z)},
	}
}

// Union is the smallest box holding b and o (o alone when b is empty, and b when o is).
func (b Box) Union(o Box) Box {
	switch {
	case b.Empty():
		return o
	case o.Empty():
		return b
	}
	return Box{
		Cell{min(b.Min.X, o.Min.X), min(b.Min.Y, o.Min.Y), min(b.Min.Z, o.Min.Z)},
		Cell{max(b.Max.X, o.Max.X), max(b.Max.Y, o.Max.Y), max(b.Max.Z, o.Max.Z)},
	}
}

// Grow is b grown by n cells on every side (shrunk for a negative n).
func (b Box) Grow(n int) Box {
	d := Cell{n, n, n}
	return Box{b.Min.Sub(d), b.Max.Add(d)}
}

// Box is the box of the cells of s (never inlined: see Space.Max).
//
//go:noinline
func (s Space) Box() Box { return Box{s.Min(), s.Max()} }
