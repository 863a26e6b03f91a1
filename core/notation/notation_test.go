package notation

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/template"
)

type validCase struct {
	text      string
	want      template.Shape
	canonical string
}

func checkValid(t *testing.T, cases []validCase, rules template.Rules) {
	t.Helper()
	for _, c := range cases {
		got, err := Parse(c.text)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.text, err)
			continue
		}
		if got != c.want {
			t.Errorf("Parse(%q) = %#v, want %#v", c.text, got, c.want)
		}
		if got.Rules() != rules {
			t.Errorf("Parse(%q).Rules() = %v, want %v", c.text, got.Rules(), rules)
		}
		if f := Format(got); f != c.canonical {
			t.Errorf("Format(Parse(%q)) = %q, want %q", c.text, f, c.canonical)
		}
		if err := got.Validate(); err != nil {
			t.Errorf("Parse(%q).Validate() = %v", c.text, err)
		}
	}
}

type errorCase struct {
	text string
	pos  int
	msg  string // a substring of Msg
}

func checkErrors(t *testing.T, cases []errorCase) {
	t.Helper()
	for _, c := range cases {
		got, err := Parse(c.text)
		if err == nil {
			t.Errorf("Parse(%q) = %#v, want an error", c.text, got)
			continue
		}
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) error %T is not a *SyntaxError", c.text, err)
			continue
		}
		if !errors.Is(err, ErrSyntax) {
			t.Errorf("Parse(%q) error does not wrap ErrSyntax", c.text)
		}
		if got != nil {
			t.Errorf("Parse(%q) returned %#v beside its error", c.text, got)
		}
		if se.Pos != c.pos || !strings.Contains(se.Msg, c.msg) {
			t.Errorf("Parse(%q) = %q at %d, want %q at %d", c.text, se.Msg, se.Pos, c.msg, c.pos)
		}
		if se.Text != c.text {
			t.Errorf("Parse(%q).Text = %q", c.text, se.Text)
		}
		if n := utf8.RuneCountInString(c.text); se.Pos < 1 || se.Pos > n+1 {
			t.Errorf("Parse(%q): position %d out of 1…%d", c.text, se.Pos, n+1)
		}
	}
}

func TestFormat(t *testing.T) {
	if Format(nil) != "" {
		t.Errorf("Format(nil) = %q", Format(nil))
	}
	for _, s := range template.All() {
		got, err := Parse(Format(s))
		if err != nil || got != s {
			t.Errorf("Parse(Format(%#v)) = %#v, %v", s, got, err)
		}
	}
	// Shapes with defaults left at zero format the same as with them filled in (§2.2), and
	// parse to the filled-in shape.
	zero := []struct{ in, want template.Shape }{
		{template.Circle{Radius: 3}, template.Circle{Radius: 3, Height: 3}},
		{template.Cone{Length: 4, Dir: grid.SW}, template.Cone{Length: 4, Dir: grid.SW, Height: 4}},
		{template.Line{Length: 5, Dir: grid.E}, template.Line{Length: 5, Dir: grid.E, Width: 1, Height: 5}},
		{template.Rect{Width: 3, Length: 4}, template.Rect{Width: 3, Length: 4, Height: 4}},
		{template.DSLine{Length: 5}, template.DSLine{Length: 5, Width: 1}},
	}
	for _, z := range zero {
		if Format(z.in) != Format(z.want) {
			t.Errorf("Format(%#v) = %q, want %q", z.in, Format(z.in), Format(z.want))
		}
		if got, err := Parse(Format(z.in)); err != nil || got != z.want {
			t.Errorf("Parse(Format(%#v)) = %#v, %v; want %#v", z.in, got, err, z.want)
		}
	}
}

var sizes = []int{1, 2, 3, 4, 5, 7, 9, 10, 11, 42, 99, 100, 101, 500, 999, 1000}

// roundTrip checks parse(format(t)) == t and that format(parse(format(t))) is format(t).
func roundTrip(t *testing.T, s template.Shape) {
	t.Helper()
	text := Format(s)
	got, err := Parse(text)
	if err != nil {
		t.Fatalf("Parse(Format(%#v)) = Parse(%q): %v", s, text, err)
	}
	if got != s {
		t.Fatalf("Parse(%q) = %#v, want %#v", text, got, s)
	}
	if again := Format(got); again != text {
		t.Fatalf("Format(Parse(%q)) = %q", text, again)
	}
}

// The rule set is told apart by the start of the text (package comment).
func TestDetection(t *testing.T) {
	for _, c := range []struct {
		text  string
		rules template.Rules
	}{
		{"Cir3", template.TDGS}, {"circle 3", template.Circle50Rules}, {"Circle3", template.Circle50Rules},
		{"close circle 3", template.Circle50Rules}, {"3 aura", template.DrawSteel},
		{" \t5 x 1 line", template.DrawSteel},
	} {
		got, err := Parse(c.text)
		if err != nil || got.Rules() != c.rules {
			t.Errorf("Parse(%q) = %v, %v; want rules %v", c.text, got, err, c.rules)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	texts := []string{"Cir3", "Con4NE", "Lin5SWw2h3", "Rec3x4", "5 x 1 line within 1", "3 куб в пределах 10", "close circle 3", "Con4"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_, _ = Parse(texts[i%len(texts)])
	}
}
