package notation

import (
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/aoekit/aoekit/core/template"
)

// checkParse asserts what holds for every text: on success the shape is valid and its canonical
// text is a fixed point (parsing it gives ==, formatting again gives the same text); on failure
// the error is a *SyntaxError wrapping ErrSyntax with 1 ≤ Pos ≤ runes+1. White space around the
// text changes nothing but the position.
func checkParse(t *testing.T, text string) template.Shape {
	got, err := Parse(text)
	if err != nil {
		se, ok := err.(*SyntaxError)
		if !ok {
			t.Fatalf("Parse(%q) error %T %v is not a *SyntaxError", text, err, err)
		}
		if !errors.Is(err, ErrSyntax) {
			t.Fatalf("Parse(%q) error does not wrap ErrSyntax", text)
		}
		if n := utf8.RuneCountInString(text); se.Pos < 1 || se.Pos > n+1 {
			t.Fatalf("Parse(%q): position %d out of 1…%d", text, se.Pos, n+1)
		}
		if got != nil || se.Msg == "" || se.Text != text || !strings.Contains(se.Error(), " at position ") {
			t.Fatalf("Parse(%q) = %#v, %#v", text, got, se)
		}
		if strings.TrimFunc(text, unicode.IsSpace) != "" {
			_, err2 := Parse(" " + text + "\t")
			se2, ok := err2.(*SyntaxError)
			if !ok || se2.Pos != se.Pos+1 || se2.Msg != se.Msg {
				t.Fatalf("Parse(%q) = %v at %d, but with white space around it %v", text, se.Msg, se.Pos, err2)
			}
		}
		return nil
	}
	if got == nil {
		t.Fatalf("Parse(%q) = nil, nil", text)
	}
	if err := got.Validate(); err != nil {
		t.Fatalf("Parse(%q) = %#v, invalid: %v", text, got, err)
	}
	f := Format(got)
	again, err := Parse(f)
	if err != nil {
		t.Fatalf("Parse(%q) = %#v, whose canonical text %q does not parse: %v", text, got, f, err)
	}
	if again != got {
		t.Fatalf("Parse(%q) = %#v, but Parse(%q) = %#v", text, got, f, again)
	}
	if f2 := Format(again); f2 != f {
		t.Fatalf("Format is not canonical: %q then %q", f, f2)
	}
	if padded, err := Parse("\n " + text + " "); err != nil || padded != got {
		t.Fatalf("Parse(%q) = %#v, but with white space around it %#v, %v", text, got, padded, err)
	}
	return got
}

func seeds() []string {
	var s []string
	for _, cases := range [][]validCase{tdgsValid, drawSteelValid, circle50Valid} {
		for _, c := range cases {
			s = append(s, c.text)
		}
	}
	for _, cases := range [][]errorCase{tdgsErrors, drawSteelErrors, circle50Errors} {
		for _, c := range cases {
			s = append(s, c.text)
		}
	}
	return s
}

func FuzzParse(f *testing.F) {
	for _, s := range seeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) { checkParse(t, text) })
}

func FuzzParseDrawSteel(f *testing.F) {
	for _, c := range drawSteelValid {
		f.Add(c.text)
		f.Add(russian(c.canonical))
	}
	for _, c := range drawSteelErrors {
		f.Add(c.text)
	}
	for _, s := range []string{"3 Аура", "2 ВЗРЫВ", "4 х 2 ЛИНИЯ В ПРЕДЕЛАХ 7", "3 куб в  пределах\t10", "7 стена"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got := checkParse(t, text)
		if got == nil {
			return
		}
		trimmed := strings.TrimLeftFunc(text, unicode.IsSpace)
		if trimmed[0] >= '0' && trimmed[0] <= '9' {
			if got.Rules() != template.DrawSteel {
				t.Fatalf("Parse(%q) = %#v: a text starting with a digit is Draw Steel", text, got)
			}
			// §3.8: the Russian words give the same shape.
			ru := russian(Format(got))
			if again, err := Parse(ru); err != nil || again != got {
				t.Fatalf("Parse(%q) = %#v, but Parse(%q) = %#v, %v", text, got, ru, again, err)
			}
		}
	})
}
