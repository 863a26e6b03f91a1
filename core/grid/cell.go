package grid

import "github.com/aoekit/aoekit/core/internal/num"

// A Cell is one unit cube of the board, [X,X+1] × [Y,Y+1] × [Z,Z+1] (SPEC §1.1).
// X grows east, Y grows south, Z grows up. The zero value is the cell at the origin.
type Cell struct{ X, Y, Z int }

// C is shorthand for Cell{x, y, z}.
func C(x, y, z int) Cell { return Cell{x, y, z} }

// Add returns c moved by d.
func (c Cell) Add(d Cell) Cell { return Cell{c.X + d.X, c.Y + d.Y, c.Z + d.Z} }

// Sub returns the offset from d to c.
func (c Cell) Sub(d Cell) Cell { return Cell{c.X - d.X, c.Y - d.Y, c.Z - d.Z} }

// String formats c as "(x,y,z)".
func (c Cell) String() string {
	return "(" + num.Itoa(c.X) + "," + num.Itoa(c.Y) + "," + num.Itoa(c.Z) + ")"
}

// Less orders cells by z, then y, then x: the order of CONTRACT's cells lists.
func (c Cell) Less(d Cell) bool {
	if c.Z != d.Z {
		return c.Z < d.Z
	}
	if c.Y != d.Y {
		return c.Y < d.Y
	}
	return c.X < d.X
}

// Compare is Less as a three-way comparison, for slices.SortFunc.
func Compare(a, b Cell) int {
	switch {
	case a == b:
		return 0
	case a.Less(b):
		return -1
	}
	return 1
}

// Rot90 turns the planar offset of c by k quarter turns clockwise about the origin
// (SPEC §1.2: (dx, dy) → (−dy, dx)); Z is unchanged. k may be negative.
func (c Cell) Rot90(k int) Cell {
	switch ((k % 4) + 4) % 4 {
	case 1:
		return Cell{-c.Y, c.X, c.Z}
	case 2:
		return Cell{-c.X, -c.Y, c.Z}
	case 3:
		return Cell{c.Y, -c.X, c.Z}
	}
	return c
}

// Dist is the 3-D Chebyshev distance max(|dx|, |dy|, |dz|) between two cells (SPEC §1.4).
func Dist(a, b Cell) int {
	return max(num.Abs(a.X-b.X), num.Abs(a.Y-b.Y), num.Abs(a.Z-b.Z))
}

// Dist2 is the planar Chebyshev distance max(|dx|, |dy|), ignoring z.
func Dist2(a, b Cell) int {
	return max(num.Abs(a.X-b.X), num.Abs(a.Y-b.Y))
}
