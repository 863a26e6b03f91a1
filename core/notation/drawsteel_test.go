package notation

import (
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/template"
)

// §3.8 examples, the Russian words of the source, and white space between tokens.
var drawSteelValid = []validCase{
	{"3 aura", template.Aura{Radius: 3}, "3 aura"},
	{"2 burst", template.Burst{Radius: 2}, "2 burst"},
	{"3 cube within 10", template.Cube{Side: 3, Within: 10}, "3 cube within 10"},
	{"5 x 1 line within 1", template.DSLine{Length: 5, Width: 1, Within: 1}, "5 x 1 line within 1"},
	{"10 wall within 10", template.Wall{Squares: 10, Within: 10}, "10 wall within 10"},
	{"5 × 1 line within 1", template.DSLine{Length: 5, Width: 1, Within: 1}, "5 x 1 line within 1"},
	{"3 аура", template.Aura{Radius: 3}, "3 aura"},
	{"3 Аура", template.Aura{Radius: 3}, "3 aura"},
	{"2 взрыв", template.Burst{Radius: 2}, "2 burst"},
	{"2 ВЗРЫВ", template.Burst{Radius: 2}, "2 burst"},
	{"3 куб в пределах 10", template.Cube{Side: 3, Within: 10}, "3 cube within 10"},
	{"5 x 1 линия в пределах 1", template.DSLine{Length: 5, Width: 1, Within: 1}, "5 x 1 line within 1"},
	{"5 х 1 линия в пределах 1", template.DSLine{Length: 5, Width: 1, Within: 1}, "5 x 1 line within 1"}, // Cyrillic х
	{"10 стена в пределах 10", template.Wall{Squares: 10, Within: 10}, "10 wall within 10"},
	{"10 Стена В Пределах 10", template.Wall{Squares: 10, Within: 10}, "10 wall within 10"},
	// "within" is optional on cubes, lines and walls.
	{"3 cube", template.Cube{Side: 3}, "3 cube"},
	{"5 x 2 line", template.DSLine{Length: 5, Width: 2}, "5 x 2 line"},
	{"4 wall", template.Wall{Squares: 4}, "4 wall"},
	{"3 куб", template.Cube{Side: 3}, "3 cube"},
	// Any amount of white space, any case, mixed languages.
	{"  3\t aura \n", template.Aura{Radius: 3}, "3 aura"},
	{"3   CUBE   WITHIN   10", template.Cube{Side: 3, Within: 10}, "3 cube within 10"},
	{"5X2 LINE", template.DSLine{Length: 5, Width: 2}, "5 x 2 line"},
	{"5x1line", template.DSLine{Length: 5, Width: 1}, "5 x 1 line"},
	{"3aura", template.Aura{Radius: 3}, "3 aura"},
	{"3 cube within10", template.Cube{Side: 3, Within: 10}, "3 cube within 10"},
	{"3 куб within 10", template.Cube{Side: 3, Within: 10}, "3 cube within 10"},
	{"6 x 2 line\u00a0в\u00a0пределах\u00a05", template.DSLine{Length: 6, Width: 2, Within: 5}, "6 x 2 line within 5"},
	{"1000 wall within 1000", template.Wall{Squares: 1000, Within: 1000}, "1000 wall within 1000"},
}

func TestParseDrawSteel_3_8(t *testing.T) { checkValid(t, drawSteelValid, template.DrawSteel) }

// §3.8: Draw Steel errors.
var drawSteelErrors = []errorCase{
	{"3", 2, "expected a shape after the number: aura, burst, cube, wall or A x B line"},
	{"3 ", 2, "expected a shape after the number"},
	{"3 sphere", 3, `unknown shape "sphere": expected aura, burst, cube, wall or A x B line`},
	{"3 !", 3, `unexpected "!": expected a shape`},
	{"3 4 aura", 3, `unexpected "4"`},
	{"0 aura", 1, "the radius must be at least 1, not 0"},
	{"03 aura", 1, "the radius has a leading zero"},
	{"-3 aura", 1, "the radius takes no sign"},
	{"+3 cube", 1, "the side takes no sign"},
	{"1001 burst", 1, "number too large: the radius is at most 1000"},
	{"1001 wall", 1, "number too large: the number of squares is at most 1000"},
	{"1001 x 1 line", 1, "number too large: the length is at most 1000"},
	{"5 x 1001 line", 5, "number too large: the width is at most 1000"},
	{"3 cube within 1001", 15, "number too large: the distance after within is at most 1000"},
	{"3.5 aura", 2, "the radius must be a whole number"},
	// "within" only on cubes, lines and walls.
	{"3 aura within 5", 8, "an aura takes no within"},
	{"2 burst within 5", 9, "a burst takes no within"},
	{"3 аура в пределах 5", 8, "an aura takes no within"},
	{"3 aura 5", 8, `unexpected "5": expected the end`},
	{"3 cube within", 14, "expected the distance after within (a number)"},
	{"3 cube within 0", 15, "the distance after within must be at least 1, not 0"},
	{"3 cube within -2", 15, "the distance after within takes no sign"},
	{"3 cube within 10 more", 18, `unexpected "more": expected the end`},
	{"3 cube 10", 8, `unexpected "10": expected within or the end`},
	{"3 cube в 10", 10, `unexpected "10": expected пределах after в`},
	{"3 cube в", 9, "expected пределах after в"},
	{"3 cubewithin 10", 3, `unknown shape "cubewithin"`},
	// A line needs A x B.
	{"5 line", 3, "a line needs its size as A x B"},
	{"5 линия", 3, "a line needs its size as A x B"},
	{"5 x line", 5, "expected the width (a number)"},
	{"5 x", 4, "expected the width (a number)"},
	{"5 x 0 line", 5, "the width must be at least 1, not 0"},
	{"5 x 1", 6, "expected line after the size"},
	{"5 x 1 cube", 7, "an A x B size is only for a line"},
	{"5 x 1 lines", 7, `unexpected "lines": expected line`},
	{"5 xx 1 line", 3, `unknown shape "xx"`},
	{"5 * 1 line", 3, `unexpected "*": expected a shape`},
}

func TestErrorsDrawSteel_3_8(t *testing.T) { checkErrors(t, drawSteelErrors) }

// russian renders canonical Draw Steel text with the Russian words of §3.8.
func russian(s string) string {
	return strings.NewReplacer(" x ", " х ", "aura", "аура", "burst", "взрыв", "cube", "куб",
		"line", "линия", "wall", "стена", "within", "в пределах").Replace(s)
}

// §3.8: the same for Draw Steel, in English and Russian.
func TestRoundTripDrawSteel_3_8(t *testing.T) {
	for _, n := range sizes {
		var shapes []template.Shape
		shapes = append(shapes, template.Aura{Radius: n}, template.Burst{Radius: n})
		for _, d := range []int{0, 1, 2, 10, 1000} {
			shapes = append(shapes, template.Cube{Side: n, Within: d}, template.Wall{Squares: n, Within: d})
			for _, w := range []int{1, 2, 3, 1000} {
				shapes = append(shapes, template.DSLine{Length: n, Width: w, Within: d})
			}
		}
		for _, s := range shapes {
			roundTrip(t, s)
			ru := russian(Format(s))
			if got, err := Parse(ru); err != nil || got != s {
				t.Fatalf("Parse(%q) = %#v, %v; want %#v", ru, got, err, s)
			}
		}
	}
}
