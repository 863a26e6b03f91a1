package notation

import (
	"testing"

	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/template"
)

// §2.2 examples and the defaults of §2.6–§2.8: heights default to R, L, L, max(W, L); a line's
// width to 1.
var tdgsValid = []validCase{
	// The examples of the §2.2 table.
	{"Cir3", template.Circle{Radius: 3, Height: 3}, "Cir3"},
	{"Cir3h1", template.Circle{Radius: 3, Height: 1}, "Cir3h1"},
	{"Con4N", template.Cone{Length: 4, Dir: grid.N, Height: 4}, "Con4N"},
	{"Con4NE", template.Cone{Length: 4, Dir: grid.NE, Height: 4}, "Con4NE"},
	{"Con6Nh10", template.Cone{Length: 6, Dir: grid.N, Height: 10}, "Con6Nh10"},
	{"Lin5E", template.Line{Length: 5, Dir: grid.E, Width: 1, Height: 5}, "Lin5E"},
	{"Lin5Sw2", template.Line{Length: 5, Dir: grid.S, Width: 2, Height: 5}, "Lin5Sw2"},
	{"Lin5Ew2", template.Line{Length: 5, Dir: grid.E, Width: 2, Height: 5}, "Lin5Ew2"},
	{"Rec3x4", template.Rect{Width: 3, Length: 4, Height: 4}, "Rec3x4"},
	// The examples of the §2.2 bullets.
	{"Lin5SWw2", template.Line{Length: 5, Dir: grid.SW, Width: 2, Height: 5}, "Lin5SWw2"},
	{"cir3", template.Circle{Radius: 3, Height: 3}, "Cir3"},
	{"  Cir3\t\n", template.Circle{Radius: 3, Height: 3}, "Cir3"},
	// Shape codes in any case; directions and modifiers as written.
	{"CON4NE", template.Cone{Length: 4, Dir: grid.NE, Height: 4}, "Con4NE"},
	{"lIn7NWw3h2", template.Line{Length: 7, Dir: grid.NW, Width: 3, Height: 2}, "Lin7NWw3h2"},
	{"REC4x3", template.Rect{Width: 4, Length: 3, Height: 4}, "Rec4x3"},
	// Every direction, longest match first.
	{"Con2N", template.Cone{Length: 2, Dir: grid.N, Height: 2}, "Con2N"},
	{"Con2NE", template.Cone{Length: 2, Dir: grid.NE, Height: 2}, "Con2NE"},
	{"Con2E", template.Cone{Length: 2, Dir: grid.E, Height: 2}, "Con2E"},
	{"Con2SE", template.Cone{Length: 2, Dir: grid.SE, Height: 2}, "Con2SE"},
	{"Con2S", template.Cone{Length: 2, Dir: grid.S, Height: 2}, "Con2S"},
	{"Con2SW", template.Cone{Length: 2, Dir: grid.SW, Height: 2}, "Con2SW"},
	{"Con2W", template.Cone{Length: 2, Dir: grid.W, Height: 2}, "Con2W"},
	{"Con2NW", template.Cone{Length: 2, Dir: grid.NW, Height: 2}, "Con2NW"},
	{"Lin5Nw2", template.Line{Length: 5, Dir: grid.N, Width: 2, Height: 5}, "Lin5Nw2"},
	{"Lin5NWw2", template.Line{Length: 5, Dir: grid.NW, Width: 2, Height: 5}, "Lin5NWw2"},
	{"Lin5NEh2", template.Line{Length: 5, Dir: grid.NE, Width: 1, Height: 2}, "Lin5NEh2"},
	{"Lin5Sh2", template.Line{Length: 5, Dir: grid.S, Width: 1, Height: 2}, "Lin5Sh2"},
	// §2.8 defaults written out are dropped from the canonical text; a width of 1 too (§2.2).
	{"Cir3h3", template.Circle{Radius: 3, Height: 3}, "Cir3"},
	{"Con4Nh4", template.Cone{Length: 4, Dir: grid.N, Height: 4}, "Con4N"},
	{"Lin5Nw1", template.Line{Length: 5, Dir: grid.N, Width: 1, Height: 5}, "Lin5N"},
	{"Lin5Nw1h5", template.Line{Length: 5, Dir: grid.N, Width: 1, Height: 5}, "Lin5N"},
	{"Rec3x4h4", template.Rect{Width: 3, Length: 4, Height: 4}, "Rec3x4"},
	{"Rec4x3h4", template.Rect{Width: 4, Length: 3, Height: 4}, "Rec4x3"},
	{"Rec3x4h3", template.Rect{Width: 3, Length: 4, Height: 3}, "Rec3x4h3"},
	{"Rec2x2h1", template.Rect{Width: 2, Length: 2, Height: 1}, "Rec2x2h1"},
	// Package decisions: modifiers in either order; "×" for the x of a rectangle.
	{"Lin5Nh3w2", template.Line{Length: 5, Dir: grid.N, Width: 2, Height: 3}, "Lin5Nw2h3"},
	{"Rec3×4", template.Rect{Width: 3, Length: 4, Height: 4}, "Rec3x4"},
	// Limits (template.MaxDim, template.MaxHeight).
	{"Cir1000", template.Circle{Radius: 1000, Height: 1000}, "Cir1000"},
	{"Cir1h1000", template.Circle{Radius: 1, Height: 1000}, "Cir1h1000"},
	{"Lin1000Sw1000", template.Line{Length: 1000, Dir: grid.S, Width: 1000, Height: 1000}, "Lin1000Sw1000"},
	{"Rec1000x1000h1", template.Rect{Width: 1000, Length: 1000, Height: 1}, "Rec1000x1000h1"},
	{"Con10SEh1", template.Cone{Length: 10, Dir: grid.SE, Height: 1}, "Con10SEh1"},
}

func TestParseTDGS_2_2(t *testing.T) { checkValid(t, tdgsValid, template.TDGS) }

// §2.2: every error names what was expected and the 1-based position where parsing failed.
var tdgsErrors = []errorCase{
	// The example of §2.2, whole.
	{"Con4", 5, "a cone needs a direction (N, NE, E, SE, S, SW, W, NW)"},
	// Empty text.
	{"", 1, "empty text: expected a template"},
	{"   ", 4, "empty text"},
	// Unknown shape.
	{"Sph3", 1, `unknown shape "Sph": expected Cir, Con, Lin or Rec`},
	{"Sphere3", 1, `unknown shape "Sphere"`},
	{"Ci3", 1, `unknown shape "Ci"`},
	{"cir", 4, "expected the radius (a number), as in Cir3"},
	{"+Cir3", 1, `unknown shape "+"`},
	{"Circ3", 4, "expected the radius (a number)"},
	// Missing number.
	{"Con", 4, "expected the length (a number)"},
	{"Cir 3", 4, "expected the radius (a number)"},
	{"Lin5Nw", 7, "expected the width (a number)"},
	{"Cir3h", 6, "expected the height (a number)"},
	{"Rec3x", 6, "expected the length (a number)"},
	{"Rec", 4, "expected the width (a number), as in Rec3x4"},
	// Zero.
	{"Cir0", 4, "the radius must be at least 1, not 0"},
	{"Con0N", 4, "the length must be at least 1, not 0"},
	{"Lin5Nw0", 7, "the width must be at least 1, not 0"},
	{"Rec0x4", 4, "the width must be at least 1, not 0"},
	{"Rec3x0", 6, "the length must be at least 1, not 0"},
	{"Cir3h0", 6, "the height must be at least 1, not 0"},
	{"Con4Nh0", 7, "the height must be at least 1, not 0"},
	// Sign.
	{"Cir-3", 4, "the radius takes no sign"},
	{"Cir+3", 4, "the radius takes no sign"},
	{"Cir−3", 4, "the radius takes no sign"},
	{"Lin5Nw-2", 7, "the width takes no sign"},
	{"Cir3h+1", 6, "the height takes no sign"},
	// Leading zero.
	{"Cir03", 4, "the radius has a leading zero"},
	{"Cir00", 4, "the radius has a leading zero"},
	{"Lin5Nw02", 7, "the width has a leading zero"},
	{"Cir3h01", 6, "the height has a leading zero"},
	// Too large: the message names the limit.
	{"Cir1001", 4, "number too large: the radius is at most 1000"},
	{"Cir99999999999999999999999999", 4, "number too large: the radius is at most 1000"},
	{"Rec3x1001", 6, "number too large: the length is at most 1000"},
	{"Lin5Nw1001", 7, "number too large: the width is at most 1000"},
	{"Cir3h1001", 6, "number too large: the height is at most 1000"},
	// Not a whole number.
	{"Cir3.5", 5, "the radius must be a whole number"},
	// Cone or line without a direction.
	{"Lin5", 5, "a line needs a direction (N, NE, E, SE, S, SW, W, NW)"},
	{"Con4h2", 5, "a cone needs a direction"},
	{"Lin5w2", 5, "a line needs a direction"},
	{"Con4X", 5, "a cone needs a direction"},
	{"Con4 N", 5, "a cone needs a direction"},
	// Lower-case directions.
	{"con4n", 5, "directions are upper case: N, not n"},
	{"Con4ne", 5, "directions are upper case: NE, not ne"},
	{"Lin5sw", 5, "directions are upper case: SW, not sw"},
	{"Lin5e", 5, "directions are upper case: E, not e"},
	// Circle or rectangle with a direction.
	{"Cir3N", 5, "a circle takes no direction"},
	{"Cir3NE", 5, "a circle takes no direction"},
	{"Cir3h2S", 7, "a circle takes no direction"},
	{"Rec3x4N", 7, "a rectangle takes no direction"},
	{"Rec3x4SW", 7, "a rectangle takes no direction"},
	// Misplaced direction.
	{"ConN4", 4, "misplaced direction: the length comes first, as in Con4N"},
	{"LinSW5", 4, "misplaced direction"},
	{"Con4h2N", 7, "misplaced direction: the direction goes right after the length"},
	{"Lin5w2h3SW", 9, "misplaced direction"},
	{"Con4NN", 6, "misplaced direction: a cone has one direction"},
	{"Con4NEE", 7, "misplaced direction"},
	{"Lin5Nw2S", 8, "misplaced direction: a line has one direction"},
	// w on a non-line.
	{"Cir3w2", 5, "a circle has no width: w is only for lines"},
	{"Con4Nw2", 6, "a cone has no width: w is only for lines"},
	{"Rec3x4w2", 7, "a rectangle has no width: w is only for lines"},
	// Repeated modifier.
	{"Lin5Nw2w3", 8, "w (width) is given twice"},
	{"Cir3h1h2", 7, "h (height) is given twice"},
	{"Lin5Nh2w3h4", 10, "h (height) is given twice"},
	// A number after a direction needs w or h.
	{"Lin5SW2", 7, "a number after a direction needs w (width) or h (height) before it"},
	{"Con4N2", 6, "a number after a direction needs h (height) before it"},
	// Upper-case modifiers.
	{"Cir3H2", 5, "modifiers are lower case: h, not H"},
	{"Lin5EW2", 6, "modifiers are lower case: w, not W"},
	// Rectangle size.
	{"Rec3", 5, "a rectangle needs its size as WxL"},
	{"Rec3X4", 5, "the x of RecWxL is lower case"},
	{"Rec3 x 4", 5, "a rectangle needs its size as WxL"},
	{"Rec3х4", 5, "a rectangle needs its size as WxL"}, // Cyrillic х
	// Trailing junk.
	{"Cir3!", 5, `unexpected "!": expected h (height) or the end`},
	{"Cir3h2!", 7, `unexpected "!": expected the end`},
	{"Lin5N?", 6, `unexpected "?": expected w (width), h (height) or the end`},
	{"Lin5Nw2x", 8, `unexpected "x": expected h (height) or the end`},
	{"Con4N h2", 6, "unexpected white space: expected h (height) or the end"},
	{"Rec3x4abc", 7, `unexpected "abc"`},
	{"Cir3 3", 5, "unexpected white space"},
	// Positions are in runes of the original text, white space included.
	{"  Con4", 7, "a cone needs a direction"},
	{"ÀÀ", 1, `unknown shape "ÀÀ"`},
	{"Cir3é", 5, `unexpected "é"`},
	{"Cir3\xff", 5, "unexpected \"\ufffd\""},
	{"\xff\xffCir", 1, "unknown shape"},
}

func TestErrorsTDGS_2_2(t *testing.T) { checkErrors(t, tdgsErrors) }

// Trailing white space is ignored (§2.2 [ruling]); interior white space in TDGS is not.
func TestSurroundingWhiteSpace_2_2(t *testing.T) {
	for _, s := range []string{"Cir3 ", "\tCir3", "\u00a0Cir3\u2003", "\nRec3x4\r\n"} {
		if _, err := Parse(s); err != nil {
			t.Errorf("Parse(%q): %v", s, err)
		}
	}
}

// §2.2: parsing the canonical text gives the same template, for every shape, size, direction,
// width and height (§2.6–§2.8).
func TestRoundTripTDGS_2_2(t *testing.T) {
	heights := func(def int) []int { return []int{1, 2, 3, def, def + 1, template.MaxHeight} }
	for _, n := range sizes {
		for _, h := range heights(n) {
			if h > template.MaxHeight {
				continue
			}
			roundTrip(t, template.Circle{Radius: n, Height: h})
			for _, d := range grid.Dirs() {
				roundTrip(t, template.Cone{Length: n, Dir: d, Height: h})
				for _, w := range []int{1, 2, 3, 4, 10, 1000} {
					roundTrip(t, template.Line{Length: n, Dir: d, Width: w, Height: h})
				}
			}
			for _, l := range []int{1, 2, 4, 1000} {
				roundTrip(t, template.Rect{Width: n, Length: l, Height: h})
				roundTrip(t, template.Rect{Width: n, Length: l, Height: max(n, l)})
			}
		}
	}
}
