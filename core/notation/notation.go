package notation

import (
	"unicode"
	"unicode/utf8"

	"github.com/aoekit/aoekit/core/internal/num"
	"github.com/aoekit/aoekit/core/template"
)

// Parse reads one template in TDGS, Draw Steel or 50 % circle notation, telling them apart by
// the start of the text (see the package comment). Surrounding white space is ignored. The
// shape has every default filled in; an error is a *SyntaxError.
func Parse(text string) (template.Shape, error) {
	var buf [32]rune
	p := newParser(text, buf[:])
	s, err := p.parse()
	if err != nil {
		err.(*SyntaxError).Text = text
		return nil, err
	}
	return s, nil
}

func (p *parser) parse() (template.Shape, error) {
	if p.i == p.end {
		return nil, p.fail(p.i, "empty text: expected a template such as Cir3, Con4N, 3 aura or circle 3")
	}
	switch r := p.r[p.i]; {
	case isDigit(r), isSign(r) && p.i+1 < p.end && isDigit(p.r[p.i+1]):
		return p.drawSteel()
	case p.isCircle50(p.letters(p.i)):
		return p.circle50()
	}
	return p.tdgs()
}

// Format returns the canonical text of s, s.String(), or "" for nil.
func Format(s template.Shape) string {
	if s == nil {
		return ""
	}
	return s.String()
}

// isCircle50 reports whether the text's first word starts a 50 % circle: "circle", or any word
// starting with "close", in any case.
func (p *parser) isCircle50(w span) bool {
	return p.is(w, "circle") || w.end-w.start >= 5 && p.is(span{w.start, w.start + 5}, "close")
}

// A parser walks the runes of one text; i and end are rune indices, end past the last rune that
// is not white space. Its errors are *SyntaxError without Text, which Parse fills in.
type parser struct {
	r      []rune
	i, end int
}

// newParser decodes text into buf, which it grows as needed.
func newParser(text string, buf []rune) parser {
	// Made to measure: a long text grown rune by rune left a trail of copies behind it (a
	// 100 000-character text cost 1.4 MB a parser, and parse tries several).
	r := buf[:0]
	if n := utf8.RuneCountInString(text); cap(r) < n {
		r = make([]rune, 0, n)
	}
	for _, c := range text {
		r = append(r, c)
	}
	lo, hi := 0, len(r)
	for lo < hi && unicode.IsSpace(r[lo]) {
		lo++
	}
	for hi > lo && unicode.IsSpace(r[hi-1]) {
		hi--
	}
	return parser{r: r, i: lo, end: hi}
}

// fail returns a syntax error at rune index i. It and the other error and white-space helpers
// are never inlined: each inlined copy adds some hundred bytes to the WebAssembly module.
//
//go:noinline
func (p *parser) fail(i int, msg string) error {
	return &SyntaxError{Pos: i + 1, Msg: msg}
}

func (p *parser) at(i int) rune {
	if i < p.end {
		return p.r[i]
	}
	return -1
}

//go:noinline
func (p *parser) skipSpace() {
	for p.i < p.end && unicode.IsSpace(p.r[p.i]) {
		p.i++
	}
}

// A span is the runes start…end-1 of the text.
type span struct{ start, end int }

// letters returns the run of letters starting at rune index i, possibly empty.
func (p *parser) letters(i int) span {
	j := i
	for j < p.end && unicode.IsLetter(p.r[j]) {
		j++
	}
	return span{i, j}
}

// word reads the run of letters at p.i.
func (p *parser) word() span {
	w := p.letters(p.i)
	p.i = w.end
	return w
}

// is reports whether the runes of s are one of words, under Unicode simple case folding.
func (p *parser) is(s span, words ...string) bool {
	for _, w := range words {
		i := s.start
		for _, c := range w {
			if i == s.end || !foldEq(p.r[i], c) {
				i = -1
				break
			}
			i++
		}
		if i == s.end {
			return true
		}
	}
	return false
}

// foldEq reports whether a and b are equal under Unicode simple case folding.
func foldEq(a, b rune) bool {
	if a == b {
		return true
	}
	for r := unicode.SimpleFold(a); r != a; r = unicode.SimpleFold(r) {
		if r == b {
			return true
		}
	}
	return false
}

// number reads a positive decimal number at p.i: no sign, no leading zero, at least 1, at most
// limit. name says what the number is and example shows it in place, for the messages.
func (p *parser) number(name string, limit int, example string) (int, error) {
	i := p.i
	r := p.at(i)
	switch {
	case isSign(r):
		return 0, p.fail(i, "the "+name+" takes no sign: expected a positive whole number, as in "+example)
	case !isDigit(r):
		return 0, p.fail(i, "expected the "+name+" (a number), as in "+example)
	}
	j, v := i, 0
	for j < p.end && isDigit(p.r[j]) {
		if v <= limit {
			v = v*10 + int(p.r[j]-'0')
		}
		j++
	}
	switch {
	case r == '0' && j-i > 1:
		return 0, p.fail(i, "the "+name+" has a leading zero")
	case v == 0:
		return 0, p.fail(i, "the "+name+" must be at least 1, not 0")
	case v > limit:
		return 0, p.fail(i, "number too large: the "+name+" is at most "+num.Itoa(limit))
	case (p.at(j) == '.' || p.at(j) == ',') && isDigit(p.at(j+1)):
		return 0, p.fail(j, "the "+name+" must be a whole number")
	}
	p.i = j
	return v, nil
}

// describe names what stands at rune index i, for "unexpected …" messages.
func (p *parser) describe(i int) string {
	r := p.r[i]
	switch {
	case unicode.IsSpace(r):
		return "white space"
	case unicode.IsLetter(r) || isDigit(r):
		j := i
		for j < p.end && j-i < maxQuoted && (unicode.IsLetter(r) && unicode.IsLetter(p.r[j]) || isDigit(r) && isDigit(p.r[j])) {
			j++
		}
		return num.GoQuote(string(p.r[i:j]))
	}
	return num.GoQuote(string(r))
}

//go:noinline
func (p *parser) unexpected(expected string) error {
	return p.fail(p.i, "unexpected "+p.describe(p.i)+": expected "+expected)
}

func isDigit(r rune) bool { return '0' <= r && r <= '9' }
func isSign(r rune) bool  { return r == '+' || r == '-' || r == '−' }
