package los

import "github.com/aoekit/aoekit/core/grid"

// Unit is the number of lattice points per cell edge (SPEC §5.1).
const Unit = 400

// MaxCoord bounds the coordinates Blocked decides: every coordinate of both endpoints must
// satisfy |v| ≤ MaxCoord (2^29 lattice units, about 1.34 million cells either side of the
// origin). Inside that bound every product Blocked forms stays below 2^62, so int64 never
// overflows.
const MaxCoord = 1 << 29

// A Point is a point on the 1/400 lattice: its world coordinates times Unit. The cell
// (x, y, z) spans [400x, 400x+400] on the X axis, and likewise on Y and Z.
type Point struct{ X, Y, Z int64 }

// Centre is the centre of cell c: (400x+200, 400y+200, 400z+200).
func Centre(c grid.Cell) Point {
	return Point{int64(c.X)*Unit + Unit/2, int64(c.Y)*Unit + Unit/2, int64(c.Z)*Unit + Unit/2}
}

// Vertex is the north-west, lowest corner of cell c: (400x, 400y, 400z).
func Vertex(c grid.Cell) Point {
	return Point{int64(c.X) * Unit, int64(c.Y) * Unit, int64(c.Z) * Unit}
}

// Add returns p moved by q.
func (p Point) Add(q Point) Point { return Point{p.X + q.X, p.Y + q.Y, p.Z + q.Z} }

// Sub returns the offset from q to p.
func (p Point) Sub(q Point) Point { return Point{p.X - q.X, p.Y - q.Y, p.Z - q.Z} }

// Cell is the cell whose half-open box [400x, 400x+400) × … contains p: a point on a
// grid plane belongs to the cell above it.
func (p Point) Cell() grid.Cell {
	return grid.Cell{X: int(floorDiv(p.X, Unit)), Y: int(floorDiv(p.Y, Unit)), Z: int(floorDiv(p.Z, Unit))}
}

// World is p in cells (p / 400), for output.
func (p Point) World() [3]float64 {
	return [3]float64{float64(p.X) / Unit, float64(p.Y) / Unit, float64(p.Z) / Unit}
}

// InRange reports whether every coordinate of p lies within ±MaxCoord.
func (p Point) InRange() bool {
	return inRange(p.X) && inRange(p.Y) && inRange(p.Z)
}

func inRange(v int64) bool { return -MaxCoord <= v && v <= MaxCoord }

// floorDiv is ⌊a/b⌋ for b > 0.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// ceilDiv is ⌈a/b⌉ for b > 0.
func ceilDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a > 0 {
		q++
	}
	return q
}
