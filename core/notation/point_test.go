package notation

import (
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/aoekit/aoekit/core/internal/num"
	"github.com/aoekit/aoekit/core/spread"
)

const (
	dnd = spread.DnD5e
	pf  = spread.PF2e
)

// both is the two rule sets; only5e and onlyPF one of them.
var (
	both   = []spread.Rules{dnd, pf}
	only5e = []spread.Rules{dnd}
	onlyPF = []spread.Rules{pf}
)

type pointCase struct {
	text      string
	rules     []spread.Rules
	want      spread.Shape // without Rules, which is each of rules
	canonical string
}

// The forms of SPEC §10.3 (and §11's burst), sizes in squares = feet ÷ 5.
var pointValid = []pointCase{
	// §10.3's list, every form as written there.
	{"20-foot-radius sphere", only5e, spread.Shape{Kind: spread.Sphere, Size: 4}, "20-foot-radius sphere"},
	{"20-foot sphere", only5e, spread.Shape{Kind: spread.Sphere, Size: 4}, "20-foot-radius sphere"},
	{"sphere 20", only5e, spread.Shape{Kind: spread.Sphere, Size: 4}, "20-foot-radius sphere"},
	{"15-foot cone", both, spread.Shape{Kind: spread.Cone, Size: 3}, "15-foot cone"},
	{"cone 15", both, spread.Shape{Kind: spread.Cone, Size: 3}, "15-foot cone"},
	{"10-foot cube", both, spread.Shape{Kind: spread.Cube, Size: 2}, "10-foot cube"},
	{"cube 10", both, spread.Shape{Kind: spread.Cube, Size: 2}, "10-foot cube"},
	{"10-foot-radius, 40-foot-high cylinder", both, spread.Shape{Kind: spread.Cylinder, Size: 2, Height: 8}, "10-foot-radius, 40-foot-high cylinder"},
	{"cylinder 10 high 40", both, spread.Shape{Kind: spread.Cylinder, Size: 2, Height: 8}, "10-foot-radius, 40-foot-high cylinder"},
	{"60-foot line", both, spread.Shape{Kind: spread.Line, Size: 12}, "60-foot line"},
	{"line 60", both, spread.Shape{Kind: spread.Line, Size: 12}, "60-foot line"},
	{"100-foot line 10 feet wide", both, spread.Shape{Kind: spread.Line, Size: 20, Width: 2}, "100-foot line 10 feet wide"},
	{"line 100 wide 10", both, spread.Shape{Kind: spread.Line, Size: 20, Width: 2}, "100-foot line 10 feet wide"},
	{"10-foot emanation", both, spread.Shape{Kind: spread.Emanation, Size: 2}, "10-foot emanation"},
	{"emanation 10", both, spread.Shape{Kind: spread.Emanation, Size: 2}, "10-foot emanation"},
	// §11's forms.
	{"20-foot burst", onlyPF, spread.Shape{Kind: spread.Burst, Size: 4}, "20-foot burst"},
	{"burst 20", onlyPF, spread.Shape{Kind: spread.Burst, Size: 4}, "20-foot burst"},
	// The comma between a cylinder's sizes is optional.
	{"10-foot-radius 40-foot-high cylinder", both, spread.Shape{Kind: spread.Cylinder, Size: 2, Height: 8}, "10-foot-radius, 40-foot-high cylinder"},
	{"10-foot-radius ,40-foot-high cylinder", both, spread.Shape{Kind: spread.Cylinder, Size: 2, Height: 8}, "10-foot-radius, 40-foot-high cylinder"},
	// ft, feet, foot and -foot are the same unit.
	{"20 foot sphere", only5e, spread.Shape{Kind: spread.Sphere, Size: 4}, "20-foot-radius sphere"},
	{"20 ft sphere", only5e, spread.Shape{Kind: spread.Sphere, Size: 4}, "20-foot-radius sphere"},
	{"20 feet sphere", only5e, spread.Shape{Kind: spread.Sphere, Size: 4}, "20-foot-radius sphere"},
	{"20ft sphere", only5e, spread.Shape{Kind: spread.Sphere, Size: 4}, "20-foot-radius sphere"},
	{"20-ft cone", both, spread.Shape{Kind: spread.Cone, Size: 4}, "20-foot cone"},
	{"20 ft radius sphere", only5e, spread.Shape{Kind: spread.Sphere, Size: 4}, "20-foot-radius sphere"},
	{"10 ft radius, 40 ft high cylinder", both, spread.Shape{Kind: spread.Cylinder, Size: 2, Height: 8}, "10-foot-radius, 40-foot-high cylinder"},
	{"10 feet radius 40 feet high cylinder", both, spread.Shape{Kind: spread.Cylinder, Size: 2, Height: 8}, "10-foot-radius, 40-foot-high cylinder"},
	{"100-foot line 10-foot-wide", both, spread.Shape{Kind: spread.Line, Size: 20, Width: 2}, "100-foot line 10 feet wide"},
	{"100-foot line 10 ft wide", both, spread.Shape{Kind: spread.Line, Size: 20, Width: 2}, "100-foot line 10 feet wide"},
	{"100 feet line 10 foot wide", both, spread.Shape{Kind: spread.Line, Size: 20, Width: 2}, "100-foot line 10 feet wide"},
	// A short form may give the unit.
	{"cone 15 ft", both, spread.Shape{Kind: spread.Cone, Size: 3}, "15-foot cone"},
	{"cone 15-foot", both, spread.Shape{Kind: spread.Cone, Size: 3}, "15-foot cone"},
	{"line 100 feet wide 10 ft", both, spread.Shape{Kind: spread.Line, Size: 20, Width: 2}, "100-foot line 10 feet wide"},
	{"cylinder 10ft high 40ft", both, spread.Shape{Kind: spread.Cylinder, Size: 2, Height: 8}, "10-foot-radius, 40-foot-high cylinder"},
	// The default width is 5 ft, and 5 ft given is the same line.
	{"100-foot line 5 feet wide", both, spread.Shape{Kind: spread.Line, Size: 20}, "100-foot line"},
	{"line 100 wide 5", both, spread.Shape{Kind: spread.Line, Size: 20}, "100-foot line"},
	{"5-foot line 5000-foot-wide", both, spread.Shape{Kind: spread.Line, Size: 1, Width: 1000}, "5-foot line 5000 feet wide"},
	// Any case, white space around and between the words.
	{"20-FOOT-RADIUS SPHERE", only5e, spread.Shape{Kind: spread.Sphere, Size: 4}, "20-foot-radius sphere"},
	{"Cone 15", both, spread.Shape{Kind: spread.Cone, Size: 3}, "15-foot cone"},
	{"BURST 20", onlyPF, spread.Shape{Kind: spread.Burst, Size: 4}, "20-foot burst"},
	{"10-Foot-Radius, 40-Foot-High Cylinder", both, spread.Shape{Kind: spread.Cylinder, Size: 2, Height: 8}, "10-foot-radius, 40-foot-high cylinder"},
	{"  15-foot cone \t\n", both, spread.Shape{Kind: spread.Cone, Size: 3}, "15-foot cone"},
	{"cone\t 15", both, spread.Shape{Kind: spread.Cone, Size: 3}, "15-foot cone"},
	{"cone15", both, spread.Shape{Kind: spread.Cone, Size: 3}, "15-foot cone"},
	{"15-foot\u00a0cone", both, spread.Shape{Kind: spread.Cone, Size: 3}, "15-foot cone"},
	// A size qualified as a radius where the shape has one; a cylinder's sizes in either order.
	{"20-foot-radius burst", onlyPF, spread.Shape{Kind: spread.Burst, Size: 4}, "20-foot burst"},
	{"40-foot-high, 10-foot-radius cylinder", both, spread.Shape{Kind: spread.Cylinder, Size: 2, Height: 8}, "10-foot-radius, 40-foot-high cylinder"},
	// The bounds: 5 ft (1 square) to 5000 ft (spread.MaxSize squares).
	{"5-foot cube", both, spread.Shape{Kind: spread.Cube, Size: 1}, "5-foot cube"},
	{"emanation 5", both, spread.Shape{Kind: spread.Emanation, Size: 1}, "5-foot emanation"},
	{"5000-foot line", both, spread.Shape{Kind: spread.Line, Size: 1000}, "5000-foot line"},
	{"cylinder 5000 high 5", both, spread.Shape{Kind: spread.Cylinder, Size: 1000, Height: 1}, "5000-foot-radius, 5-foot-high cylinder"},
}

func TestParsePoint_10_3(t *testing.T) {
	for _, c := range pointValid {
		for _, r := range c.rules {
			want := c.want
			want.Rules = r
			got, err := ParsePoint(c.text, r)
			if err != nil {
				t.Errorf("ParsePoint(%q, %v): %v", c.text, r, err)
				continue
			}
			if got != want {
				t.Errorf("ParsePoint(%q, %v) = %+v, want %+v", c.text, r, got, want)
			}
			if err := got.Validate(); err != nil {
				t.Errorf("ParsePoint(%q, %v).Validate() = %v", c.text, r, err)
			}
			if s := got.String(); s != c.canonical {
				t.Errorf("ParsePoint(%q, %v).String() = %q, want %q", c.text, r, s, c.canonical)
			}
			if again, err := ParsePoint(c.canonical, r); err != nil || again != want {
				t.Errorf("ParsePoint(%q, %v) = %+v, %v; want %+v", c.canonical, r, again, err, want)
			}
		}
	}
}

type pointError struct {
	text  string
	rules []spread.Rules
	pos   int
	msg   string // a substring of Msg
}

// §10.3's errors, positions counted by hand (1-based runes).
var pointErrors = []pointError{
	{"", both, 1, "empty text: expected a template such as"},
	{"   ", both, 4, "empty text"},
	// Sizes are multiples of 5 ft, from 5 to 5000, whole, unsigned.
	{"22-foot cone", both, 1, "sizes are in 5-ft squares: 22 ft is not a multiple of 5"},
	{"cone 22", both, 6, "sizes are in 5-ft squares: 22 ft is not a multiple of 5"},
	{"3-foot cube", both, 1, "3 ft is not a multiple of 5"},
	{"cylinder 10 high 42", both, 18, "42 ft is not a multiple of 5"},
	{"10-foot-radius, 42-foot-high cylinder", both, 17, "42 ft is not a multiple of 5"},
	{"100-foot line 12 feet wide", both, 15, "12 ft is not a multiple of 5"},
	{"line 100 wide 7", both, 15, "7 ft is not a multiple of 5"},
	{"0-foot cone", both, 1, "at least 5 ft, not 0"},
	{"cone 0", both, 6, "the length must be at least 5 ft, not 0"},
	{"line 60 wide 0", both, 14, "the width must be at least 5 ft, not 0"},
	{"5005-foot cube", both, 1, "number too large: the size in feet is at most 5000"},
	{"cube 5005", both, 6, "number too large: the side in feet is at most 5000"},
	{"cube 99999999999999999999999", both, 6, "number too large"},
	{"20.5-foot sphere", both, 3, "must be a whole number"},
	{"sphere 7.5", only5e, 9, "the radius in feet must be a whole number"},
	{"-20-foot cone", both, 1, "takes no sign"},
	{"cone -15", both, 6, "the length in feet takes no sign"},
	{"cone 015", both, 6, "leading zero"},
	// A sphere is dnd5e's, a burst pf2e's.
	{"sphere 20", onlyPF, 1, "a sphere is dnd5e's: under pf2e, expected a burst"},
	{"20-foot sphere", onlyPF, 9, "a sphere is dnd5e's: under pf2e, expected a burst"},
	{"20-foot-radius sphere", onlyPF, 16, "expected a burst"},
	{"burst 20", only5e, 1, "a burst is pf2e's: under dnd5e, expected a sphere"},
	{"20-foot burst", only5e, 9, "a burst is pf2e's: under dnd5e, expected a sphere"},
	// Units.
	{"20 sphere", both, 4, `unexpected "sphere": expected the unit (ft, feet or foot)`},
	{"20", both, 3, "expected the unit (ft, feet or foot)"},
	{"20 -foot cone", both, 4, `unexpected "-": expected the unit`},
	{"20-meter cone", both, 4, `unexpected "meter": expected the unit`},
	{"cone 15-", both, 9, "expected the unit"},
	{"cone 15-metre", both, 9, `unexpected "metre": expected the unit`},
	// Shapes.
	{"20-foot", both, 8, "expected a shape"},
	{"20-foot circle", only5e, 9, `unknown shape "circle": expected sphere, cylinder, cone, cube, line or emanation`},
	{"20-foot circle", onlyPF, 9, `unknown shape "circle": expected burst, cone, emanation, line, cylinder or cube`},
	{"circle 20", both, 1, `unknown shape "circle"`},
	{"20-foot 20-foot cone", both, 9, `unexpected "20": expected a shape`},
	{"!20-foot cone", both, 1, `unexpected "!": expected a template such as`},
	{"20-foot-sphere", both, 9, `unexpected "sphere": expected radius, high or wide after the hyphen`},
	{"20-foot-", both, 9, "expected radius, high or wide after the hyphen"},
	// Qualifiers the shape does not take.
	{"15-foot-radius cone", both, 9, "a cone has no radius"},
	{"10-foot-radius emanation", both, 9, "an emanation has no radius"},
	{"10-foot-high cube", both, 9, "a cube has no height"},
	{"10-foot-wide cube", both, 9, "a cube has no width"},
	{"10-foot-radius, 40-foot-high sphere", only5e, 25, "a sphere has no height"},
	{"20-foot-radius, 30-foot sphere", only5e, 17, "the radius is given twice"},
	{"10-foot-wide line", both, 9, "a line's width goes after line"},
	// Cylinders need a radius and a height.
	{"10-foot cylinder", both, 1, "a cylinder's sizes are a radius and a height"},
	{"10-foot-radius cylinder", both, 16, "a cylinder needs a radius and a height"},
	{"40-foot-high cylinder", both, 14, "a cylinder needs a radius and a height"},
	{"10-foot-radius, 40-foot cylinder", both, 17, "a cylinder's sizes are a radius and a height"},
	{"10-foot-radius, 20-foot-radius cylinder", both, 17, "the radius is given twice"},
	{"10-foot-radius, cylinder", both, 17, "expected the size in feet (a number)"},
	{"10-foot-radius,", both, 16, "expected the size in feet (a number)"},
	{"cylinder 10", both, 12, "expected high and the height after the radius"},
	{"cylinder 10 40", both, 13, `unexpected "40": expected high`},
	{"cylinder 10 high", both, 17, "expected the height in feet (a number)"},
	// A line's width.
	{"100-foot line 10 feet", both, 22, "expected wide after the width"},
	{"100-foot line 10 feet long", both, 23, `unexpected "long": expected wide`},
	{"100-foot line 10-foot-radius", both, 23, "a line has no radius"},
	{"100-foot line 10", both, 17, "expected the unit"},
	{"60-foot line wide 10", both, 14, `unexpected "wide": expected the width`},
	{"line 100 wide", both, 14, "expected the width in feet (a number)"},
	{"line 100 x 10", both, 10, `unexpected "x": expected wide and the width`},
	// Anything left over.
	{"15-foot cone 10", both, 14, `unexpected "10": expected the end`},
	{"cone 15 north", both, 9, `unexpected "north": expected the end`},
	{"cone 15 feet feet", both, 14, `unexpected "feet": expected the end`},
	{"20-foot-radius sphere,", only5e, 22, `unexpected ",": expected the end`},
	{"line 100 wide 10 ft wide", both, 21, `unexpected "wide": expected the end`},
	{"cone", both, 5, "expected the length in feet (a number), as in cone 15"},
	{"sphere", only5e, 7, "expected the radius in feet (a number), as in sphere 20"},
}

func TestParsePointErrors_10_3(t *testing.T) {
	for _, c := range pointErrors {
		for _, r := range c.rules {
			got, err := ParsePoint(c.text, r)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Errorf("ParsePoint(%q, %v) = %+v, %v; want a *SyntaxError", c.text, r, got, err)
				continue
			}
			if !errors.Is(err, ErrSyntax) {
				t.Errorf("ParsePoint(%q, %v) error does not wrap ErrSyntax", c.text, r)
			}
			if got != (spread.Shape{}) {
				t.Errorf("ParsePoint(%q, %v) returned %+v beside its error", c.text, r, got)
			}
			if se.Pos != c.pos || !strings.Contains(se.Msg, c.msg) {
				t.Errorf("ParsePoint(%q, %v) = %q at %d, want %q at %d", c.text, r, se.Msg, se.Pos, c.msg, c.pos)
			}
			if se.Text != c.text {
				t.Errorf("ParsePoint(%q, %v).Text = %q", c.text, r, se.Text)
			}
		}
	}
}

// §10.3: a point-origin notation needs rules dnd5e or pf2e.
func TestParsePointRules(t *testing.T) {
	for _, r := range []spread.Rules{0, 3, 255} {
		for _, text := range []string{"cone 15", "  20-foot-radius sphere", ""} {
			_, err := ParsePoint(text, r)
			se, ok := err.(*SyntaxError)
			if !ok || se.Pos != 1 || !strings.Contains(se.Msg, "rules must be dnd5e or pf2e") || se.Text != text {
				t.Errorf("ParsePoint(%q, %d) = %v", text, r, err)
			}
		}
	}
}

// The examples the messages give read as what they show.
func TestParsePointExamples(t *testing.T) {
	for k := spread.Sphere; k <= spread.Burst; k++ {
		r := dnd
		if k == spread.Burst {
			r = pf
		}
		for _, text := range []string{longExamples[k], shortExamples[k]} {
			got, err := ParsePoint(text, r)
			if err != nil || got.Kind != k {
				t.Errorf("ParsePoint(%q, %v) = %+v, %v", text, r, got, err)
			}
		}
		if s, _ := ParsePoint(longExamples[k], r); s.String() != longExamples[k] {
			t.Errorf("%q is not canonical: %q", longExamples[k], s.String())
		}
	}
	for _, text := range []string{cylinderEx, lineWideEx, "line 100 wide 10"} {
		if _, err := ParsePoint(text, pf); err != nil {
			t.Errorf("ParsePoint(%q): %v", text, err)
		}
	}
}

// The whole error text, as Parse's.
func TestParsePointErrorText(t *testing.T) {
	_, err := ParsePoint("22-foot cone", dnd)
	const want = "22-foot cone: sizes are in 5-ft squares: 22 ft is not a multiple of 5 at position 1"
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %q", err, want)
	}
}

// Every shape of sizes 1 … 60 squares (and the largest), of each kind and rule set, writes a text
// that reads back as it, in the spell's form and in the short form.
func TestParsePointRoundTrip(t *testing.T) {
	kinds := map[spread.Rules][]spread.Kind{
		dnd: {spread.Sphere, spread.Cylinder, spread.Cone, spread.Cube, spread.Line, spread.Emanation},
		pf:  {spread.Burst, spread.Cone, spread.Emanation, spread.Line, spread.Cylinder, spread.Cube},
	}
	sizes := make([]int, 0, 62)
	for n := 1; n <= 60; n++ {
		sizes = append(sizes, n)
	}
	sizes = append(sizes, spread.MaxSize-1, spread.MaxSize)
	for r, ks := range kinds {
		for _, k := range ks {
			for _, n := range sizes {
				var shapes []spread.Shape
				switch k {
				case spread.Cylinder:
					shapes = append(shapes, spread.Shape{Rules: r, Kind: k, Size: n, Height: n},
						spread.Shape{Rules: r, Kind: k, Size: n, Height: 61 - min(n, 60)})
				case spread.Line:
					shapes = append(shapes, spread.Shape{Rules: r, Kind: k, Size: n},
						spread.Shape{Rules: r, Kind: k, Size: n, Width: n})
				default:
					shapes = append(shapes, spread.Shape{Rules: r, Kind: k, Size: n})
				}
				for _, s := range shapes {
					if s.Width == 1 {
						s.Width = 0 // 5 ft wide is the default
					}
					if err := s.Validate(); err != nil {
						t.Fatalf("%+v: %v", s, err)
					}
					text := s.String()
					if got, err := ParsePoint(text, r); err != nil || got != s {
						t.Fatalf("ParsePoint(%q, %v) = %+v, %v; want %+v", text, r, got, err, s)
					}
					short := k.String() + " " + num.Itoa(5*s.Size)
					switch {
					case k == spread.Cylinder:
						short += " high " + num.Itoa(5*s.Height)
					case k == spread.Line && s.Width != 0:
						short += " wide " + num.Itoa(5*s.Width)
					}
					if got, err := ParsePoint(short, r); err != nil || got != s {
						t.Fatalf("ParsePoint(%q, %v) = %+v, %v; want %+v", short, r, got, err, s)
					}
				}
			}
		}
	}
}

// checkPoint asserts what holds for every text and rule set: on success the shape has the rule
// set, is valid and is what its String() reads back as; on failure the error is a *SyntaxError
// wrapping ErrSyntax with 1 ≤ Pos ≤ runes+1. White space around the text changes nothing but the
// position.
func checkPoint(t *testing.T, text string, rules spread.Rules) (spread.Shape, bool) {
	got, err := ParsePoint(text, rules)
	if err != nil {
		se, ok := err.(*SyntaxError)
		if !ok {
			t.Fatalf("ParsePoint(%q, %v) error %T %v is not a *SyntaxError", text, rules, err, err)
		}
		if !errors.Is(err, ErrSyntax) {
			t.Fatalf("ParsePoint(%q, %v) error does not wrap ErrSyntax", text, rules)
		}
		if n := utf8.RuneCountInString(text); se.Pos < 1 || se.Pos > n+1 {
			t.Fatalf("ParsePoint(%q, %v): position %d out of 1…%d", text, rules, se.Pos, n+1)
		}
		if got != (spread.Shape{}) || se.Msg == "" || se.Text != text || !strings.Contains(se.Error(), " at position ") {
			t.Fatalf("ParsePoint(%q, %v) = %+v, %#v", text, rules, got, se)
		}
		if strings.TrimFunc(text, unicode.IsSpace) != "" {
			_, err2 := ParsePoint(" "+text+"\t", rules)
			se2, ok := err2.(*SyntaxError)
			if !ok || se2.Pos != se.Pos+1 || se2.Msg != se.Msg {
				t.Fatalf("ParsePoint(%q, %v) = %v at %d, but with white space around it %v", text, rules, se.Msg, se.Pos, err2)
			}
		}
		return got, false
	}
	if got.Rules != rules {
		t.Fatalf("ParsePoint(%q, %v) = %+v: wrong rules", text, rules, got)
	}
	if err := got.Validate(); err != nil {
		t.Fatalf("ParsePoint(%q, %v) = %+v, invalid: %v", text, rules, got, err)
	}
	s := got.String()
	if again, err := ParsePoint(s, rules); err != nil || again != got {
		t.Fatalf("ParsePoint(%q, %v) = %+v, but ParsePoint(%q) = %+v, %v", text, rules, got, s, again, err)
	}
	if padded, err := ParsePoint("\n "+text+" ", rules); err != nil || padded != got {
		t.Fatalf("ParsePoint(%q, %v) = %+v, but with white space around it %+v, %v", text, rules, got, padded, err)
	}
	return got, true
}

func FuzzParsePoint(f *testing.F) {
	for _, c := range pointValid {
		f.Add(c.text)
		f.Add(c.canonical)
	}
	for _, c := range pointErrors {
		f.Add(c.text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		a, okA := checkPoint(t, text, dnd)
		b, okB := checkPoint(t, text, pf)
		// The rule sets read the same text alike but for dnd5e's spheres and pf2e's bursts.
		switch {
		case okA && okB:
			a.Rules = pf
			if a != b {
				t.Fatalf("ParsePoint(%q): dnd5e %+v, pf2e %+v", text, a, b)
			}
		case okA && a.Kind != spread.Sphere, okB && b.Kind != spread.Burst:
			t.Fatalf("ParsePoint(%q): dnd5e %+v, %v; pf2e %+v, %v", text, a, okA, b, okB)
		}
	})
}
