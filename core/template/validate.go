package template

import (
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/internal/num"
)

func squareName(i int, c grid.Cell) string { return "square " + num.Itoa(i+1) + " " + c.String() }

// Straight reports whether squares form a straight line in the sense of SPEC §3.7: each step
// moves to a neighbouring square (one step on any axis, diagonals included) and never reverses
// along an axis it has already moved along. The error names the first offending square
// (1-based).
func Straight(squares []grid.Cell) error {
	var dir [3]int // the sign each axis has moved in so far
	for i := 1; i < len(squares); i++ {
		d := squares[i].Sub(squares[i-1])
		if d == (grid.Cell{}) {
			return errorf(ErrNotStraight, squareName(i, squares[i])+" repeats the square before it")
		}
		if num.Abs(d.X) > 1 || num.Abs(d.Y) > 1 || num.Abs(d.Z) > 1 {
			return errorf(ErrNotStraight, squareName(i, squares[i])+" is not next to "+squares[i-1].String())
		}
		for k, v := range [3]int{d.X, d.Y, d.Z} {
			if v == 0 {
				continue
			}
			if dir[k] == -v {
				return errorf(ErrNotStraight, squareName(i, squares[i])+" turns back along "+string("xyz"[k])+" after moving the other way")
			}
			dir[k] = v
		}
	}
	return nil
}

// FaceConnected reports whether squares form one wall (SPEC §3.6): no square repeats and every
// square shares a face (not only an edge or a corner) with another square of the wall, so
// that the whole is connected across faces. The error names the first offending square.
func FaceConnected(squares []grid.Cell) error {
	index := make(map[grid.Cell]int, len(squares))
	for i, c := range squares {
		if j, dup := index[c]; dup {
			return errorf(ErrInvalidWall, squareName(i, c)+" repeats square "+num.Itoa(j+1))
		}
		index[c] = i
	}
	if len(squares) == 0 {
		return errorf(ErrInvalidWall, "a wall needs at least one square")
	}
	seen := make([]bool, len(squares))
	seen[0] = true
	stack := []int{0}
	faces := [6]grid.Cell{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}, {Z: 1}, {Z: -1}}
	for len(stack) > 0 {
		c := squares[stack[len(stack)-1]]
		stack = stack[:len(stack)-1]
		for _, f := range faces {
			if j, ok := index[c.Add(f)]; ok && !seen[j] {
				seen[j] = true
				stack = append(stack, j)
			}
		}
	}
	for i, ok := range seen {
		if !ok {
			return errorf(ErrInvalidWall, squareName(i, squares[i])+" does not share a face with the wall through square 1")
		}
	}
	return nil
}
