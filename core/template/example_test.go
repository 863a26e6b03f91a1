package template_test

import (
	"fmt"

	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/template"
)

// A cone toward the caster's forward-right (SPEC §2.5): Con3NE is a right triangle of 6 cells
// off the caster's north-east corner; turned with a caster facing E (SPEC §1.3) it points SE.
func ExampleCone() {
	cone := template.Cone{Length: 3, Dir: grid.NE, Height: 1}
	for _, facing := range []grid.Dir{grid.N, grid.E} {
		p := template.Placement{Origin: grid.Cell{X: 0, Y: 0}, Facing: facing}
		in := map[grid.Cell]bool{}
		cone.Cells(p, func(c grid.Cell) { in[c] = true })
		fmt.Printf("%v facing %v: %d cells\n", cone, facing, cone.Count(p))
		for y := -3; y <= 3; y++ {
			for x := -1; x <= 3; x++ {
				switch c := (grid.Cell{X: x, Y: y}); {
				case c == p.Origin:
					fmt.Print("C")
				case in[c]:
					fmt.Print("#")
				default:
					fmt.Print(".")
				}
			}
			fmt.Println()
		}
	}
	// Output:
	// Con3NEh1 facing N: 6 cells
	// ..#..
	// ..##.
	// ..###
	// .C...
	// .....
	// .....
	// .....
	// Con3NEh1 facing E: 6 cells
	// .....
	// .....
	// .....
	// .C...
	// ..###
	// ..##.
	// ..#..
}
