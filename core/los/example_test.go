package los_test

import (
	"fmt"

	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/los"
)

// solids is the simplest board: a map from cell to fill in lattice units.
type solids map[grid.Cell]int

func (s solids) Fill(c grid.Cell) int { return s[c] }

func ExampleBlocked() {
	// A full block at (1,0,0), a low wall (fill 200, half a cell) at (1,2,0),
	// and two blocks meeting only at a corner: (3,0,0) and (4,1,0).
	s := solids{grid.C(1, 0, 0): los.Unit, grid.C(1, 2, 0): 200, grid.C(3, 0, 0): los.Unit, grid.C(4, 1, 0): los.Unit}
	seg := func(a, b los.Point) { fmt.Println(a.World(), b.World(), los.Blocked(a, b, s)) }
	seg(los.Centre(grid.C(0, 0, 0)), los.Centre(grid.C(2, 0, 0)))                // through the block
	seg(los.Point{X: 200, Y: 400, Z: 200}, los.Point{X: 1000, Y: 400, Z: 200})   // along its face
	seg(los.Centre(grid.C(0, 2, 0)), los.Centre(grid.C(2, 2, 0)))                // grazing the wall's top
	seg(los.Point{X: 200, Y: 1000, Z: 100}, los.Point{X: 1000, Y: 1000, Z: 100}) // through the wall
	seg(los.Centre(grid.C(3, 1, 0)), los.Centre(grid.C(4, 0, 0)))                // through the corner pinch
	// Output:
	// [0.5 0.5 0.5] [2.5 0.5 0.5] true
	// [0.5 1 0.5] [2.5 1 0.5] false
	// [0.5 2.5 0.5] [2.5 2.5 0.5] false
	// [0.5 2.5 0.25] [2.5 2.5 0.25] true
	// [3.5 1.5 0.5] [4.5 0.5 0.5] true
}
