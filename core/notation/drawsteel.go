package notation

import "github.com/aoekit/aoekit/core/template"

// dsShapes is what a Draw Steel number may be followed by, for the messages.
const dsShapes = "aura, burst, cube, wall or A x B line"

// dsWord returns the English name of the Draw Steel shape word w, given in English or Russian
// (SPEC §3.8) in any case, or "".
func (p *parser) dsWord(w span) string {
	for _, pair := range [...][2]string{
		{"aura", "аура"}, {"burst", "взрыв"}, {"cube", "куб"}, {"line", "линия"}, {"wall", "стена"},
	} {
		if p.is(w, pair[0], pair[1]) {
			return pair[0]
		}
	}
	return ""
}

// dsPrimary returns what the first number of a Draw Steel shape is, and an example.
func dsPrimary(shape string) (name, example string) {
	switch shape {
	case "aura":
		return "radius", "3 aura"
	case "burst":
		return "radius", "2 burst"
	case "cube":
		return "side", "3 cube within 10"
	case "line":
		return "length", "5 x 1 line within 1"
	case "wall":
		return "number of squares", "10 wall within 10"
	}
	return "size", "3 aura"
}

// isX reports whether the size separator of a line stands at rune index i: "x", "X", "×" or the
// Cyrillic "х", "Х", alone (not the start of a longer word).
func (p *parser) isX(i int) bool {
	return p.at(i) == '×' || p.is(p.letters(i), "x", "х")
}

// drawSteel parses "N aura", "N burst", "N cube [within D]", "A x B line [within D]" and
// "N wall [within D]" (SPEC §3.8), white space between the tokens.
func (p *parser) drawSteel() (template.Shape, error) {
	name, example := dsPrimary(p.shapeAhead())
	n, err := p.number(name, template.MaxDim, example)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.i == p.end {
		return nil, p.fail(p.i, "expected a shape after the number: "+dsShapes+", as in 3 aura")
	}
	if p.isX(p.i) {
		p.i++
		p.skipSpace()
		w, err := p.number("width", template.MaxDim, "5 x 1 line")
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		word := p.word()
		switch s := p.dsWord(word); {
		case s == "line":
		case s != "":
			return nil, p.fail(word.start, "an A x B size is only for a line: expected line, as in 5 x 1 line")
		case word.start == p.end:
			return nil, p.fail(word.start, "expected line after the size, as in 5 x 1 line")
		default:
			p.i = word.start
			return nil, p.unexpected("line, as in 5 x 1 line")
		}
		d, err := p.within("5 x 1 line within 1")
		if err != nil {
			return nil, err
		}
		return template.DSLine{Length: n, Width: w, Within: d}, nil
	}
	word := p.word()
	switch s := p.dsWord(word); s {
	case "aura", "burst":
		p.skipSpace()
		if p.i < p.end {
			if p.withinAhead() {
				article := "a "
				if s == "aura" {
					article = "an "
				}
				return nil, p.fail(p.i, article+s+" takes no within: it is centred on the caster")
			}
			return nil, p.unexpected("the end")
		}
		if s == "aura" {
			return template.Aura{Radius: n}, nil
		}
		return template.Burst{Radius: n}, nil
	case "cube":
		d, err := p.within("3 cube within 10")
		if err != nil {
			return nil, err
		}
		return template.Cube{Side: n, Within: d}, nil
	case "wall":
		d, err := p.within("10 wall within 10")
		if err != nil {
			return nil, err
		}
		return template.Wall{Squares: n, Within: d}, nil
	case "line":
		return nil, p.fail(word.start, "a line needs its size as A x B: expected x before line, as in 5 x 1 line")
	}
	if word.start == word.end {
		return nil, p.unexpected("a shape: " + dsShapes)
	}
	return nil, p.fail(word.start, "unknown shape "+p.describe(word.start)+": expected "+dsShapes)
}

// shapeAhead returns the English name of the shape after the leading number, or "".
func (p *parser) shapeAhead() string {
	save := p.i
	defer func() { p.i = save }()
	if isSign(p.at(p.i)) {
		p.i++
	}
	for isDigit(p.at(p.i)) || (p.at(p.i) == '.' || p.at(p.i) == ',') && isDigit(p.at(p.i+1)) {
		p.i++
	}
	p.skipSpace()
	if p.isX(p.i) {
		return "line"
	}
	return p.dsWord(p.word())
}

// withinAhead reports whether "within" or "в" stands at p.i.
func (p *parser) withinAhead() bool {
	return p.is(p.letters(p.i), "within", "в")
}

// within reads an optional "within D" or "в пределах D" and the end of the text; 0 means none.
func (p *parser) within(example string) (int, error) {
	p.skipSpace()
	if p.i == p.end {
		return 0, nil
	}
	if !p.withinAhead() {
		return 0, p.unexpected("within or the end, as in " + example)
	}
	if p.is(p.word(), "в") {
		p.skipSpace()
		if w := p.word(); !p.is(w, "пределах") {
			p.i = w.start
			if p.i == p.end {
				return 0, p.fail(p.i, "expected пределах after в, as in 3 куб в пределах 10")
			}
			return 0, p.unexpected("пределах after в, as in 3 куб в пределах 10")
		}
	}
	p.skipSpace()
	d, err := p.number("distance after within", template.MaxDim, example)
	if err != nil {
		return 0, err
	}
	p.skipSpace()
	if p.i < p.end {
		return 0, p.unexpected("the end")
	}
	return d, nil
}
