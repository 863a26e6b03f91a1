package circle50_test

import (
	"fmt"

	"github.com/aoekit/aoekit/core/circle50"
)

// Circle 3 (SPEC §4.1): 37 cells, centre marked O.
func ExampleRows() {
	const x = 3
	rows := circle50.Rows(x)
	for dy := -x; dy <= x; dy++ {
		line := ""
		for dx := -x; dx <= x; dx++ {
			switch hw := rows[max(dy, -dy)]; {
			case dx == 0 && dy == 0:
				line += "O"
			case max(dx, -dx) <= hw:
				line += "#"
			default:
				line += "."
			}
		}
		fmt.Println(line)
	}
	fmt.Println(circle50.Count(x), "cells")
	// Output:
	// ..###..
	// .#####.
	// #######
	// ###O###
	// #######
	// .#####.
	// ..###..
	// 37 cells
}
