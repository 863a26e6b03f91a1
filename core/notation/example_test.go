package notation_test

import (
	"fmt"

	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/notation"
	"github.com/aoekit/aoekit/core/template"
)

func ExampleParse() {
	for _, text := range []string{"cir3", "Lin5Sw2", "Con6Nh10", "3 куб в пределах 10", "close circle 3", "Con4", "Lin5SW2"} {
		s, err := notation.Parse(text)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s → %s (%s %s)\n", text, notation.Format(s), s.Rules(), s.Kind())
	}
	s, _ := notation.Parse("Lin5Sw2")
	fmt.Printf("%#v\n", s)
	// Output:
	// cir3 → Cir3 (tdgs circle)
	// Lin5Sw2 → Lin5Sw2 (tdgs line)
	// Con6Nh10 → Con6Nh10 (tdgs cone)
	// 3 куб в пределах 10 → 3 cube within 10 (drawsteel cube)
	// close circle 3 → close circle 3 (circle50 circle)
	// Con4: a cone needs a direction (N, NE, E, SE, S, SW, W, NW) at position 5
	// Lin5SW2: a number after a direction needs w (width) or h (height) before it at position 7
	// template.Line{Length:5, Dir:0x4, Width:2, Height:5}
}

func ExampleFormat() {
	fmt.Println(notation.Format(template.Line{Length: 5, Dir: grid.SW, Width: 2}))
	fmt.Println(notation.Format(template.Rect{Width: 3, Length: 4, Height: 4}))
	fmt.Println(notation.Format(template.DSLine{Length: 5, Width: 1, Within: 1}))
	// Output:
	// Lin5SWw2
	// Rec3x4
	// 5 x 1 line within 1
}
