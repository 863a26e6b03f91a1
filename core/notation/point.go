package notation

import (
	"unicode"

	"github.com/aoekit/aoekit/core/internal/num"
	"github.com/aoekit/aoekit/core/spread"
)

// ParsePoint reads a point-origin template (SPEC §10.3) of the rule set rules (spread.DnD5e or
// spread.PF2e), in any case, surrounding white space ignored:
//
//   - the forms a spell's text uses: "20-foot-radius sphere", "20-foot sphere",
//     "10-foot-radius, 40-foot-high cylinder" (the comma optional), "15-foot cone",
//     "10-foot cube", "60-foot line", "100-foot line 10 feet wide", "10-foot emanation",
//     "20-foot burst";
//   - the short forms: "sphere 20", "cylinder 10 high 40", "cone 15", "cube 10", "line 60",
//     "line 100 wide 10", "emanation 10", "burst 20".
//
// The unit is ft, feet or foot, after white space, a hyphen or nothing ("20-foot", "20 ft",
// "20ft"); the spell's forms need it, the short forms may give it ("cone 15 ft"). A qualifier
// (radius, high, wide) follows the unit after a hyphen or white space. Sizes are feet, a positive
// multiple of 5 up to 5·spread.MaxSize, and the shape has them in squares; a line 5 ft wide has
// Width 0. A sphere is dnd5e's, a burst pf2e's; the other kinds are both rule sets'.
//
// The shape is valid and s.String() parses back to it. An error is a *SyntaxError wrapping
// ErrSyntax, at the position of the fault.
func ParsePoint(text string, rules spread.Rules) (spread.Shape, error) {
	var buf [32]rune
	p := newParser(text, buf[:])
	s := spread.Shape{Rules: rules}
	if err := p.point(&s); err != nil {
		err.(*SyntaxError).Text = text
		return spread.Shape{}, err
	}
	return s, nil
}

// The qualifiers a size's unit may have after it: indices into qualifiers and nouns.
const (
	qNone = iota
	qRadius
	qHigh
	qWide
)

// qualifiers are the qualifier words, and nouns what each one sizes.
var (
	qualifiers = [...]string{"", "radius", "high", "wide"}
	nouns      = [...]string{"size", "radius", "height", "width"}
)

// Each kind's examples in the messages (canonical texts; the short form of a line shows its
// width), the name of its Size, and its name with an article.
var (
	longExamples = [...]string{spread.Sphere: "20-foot-radius sphere", spread.Cylinder: cylinderEx,
		spread.Cone: "15-foot cone", spread.Cube: "10-foot cube", spread.Line: "60-foot line",
		spread.Emanation: "10-foot emanation", spread.Burst: "20-foot burst"}
	shortExamples = [...]string{spread.Sphere: "sphere 20", spread.Cylinder: "cylinder 10 high 40",
		spread.Cone: "cone 15", spread.Cube: "cube 10", spread.Line: "line 100 wide 10",
		spread.Emanation: "emanation 10", spread.Burst: "burst 20"}
	primaries = [...]string{spread.Sphere: "radius", spread.Cylinder: "radius", spread.Cone: "length",
		spread.Cube: "side", spread.Line: "length", spread.Emanation: "radius", spread.Burst: "radius"}
	aKind = [...]string{spread.Sphere: "a sphere", spread.Cylinder: "a cylinder", spread.Cone: "a cone",
		spread.Cube: "a cube", spread.Line: "a line", spread.Emanation: "an emanation", spread.Burst: "a burst"}
)

const (
	cylinderEx = "10-foot-radius, 40-foot-high cylinder"
	lineWideEx = "100-foot line 10 feet wide"
)

// point parses into s, whose Rules are set.
func (p *parser) point(s *spread.Shape) error {
	first, eg := spread.Sphere, "a template such as 20-foot-radius sphere or sphere 20"
	switch s.Rules {
	case spread.PF2e:
		first, eg = spread.Burst, "a template such as 20-foot burst or burst 20"
	case spread.DnD5e:
	default:
		return p.fail(0, "rules must be dnd5e or pf2e")
	}
	if p.i == p.end {
		return p.fail(p.i, "empty text: expected "+eg)
	}
	switch r := p.r[p.i]; {
	case isDigit(r), isSign(r) && isDigit(p.at(p.i+1)):
		return p.pointLong(s, first)
	case unicode.IsLetter(r):
		return p.pointShort(s)
	}
	return p.unexpected(eg)
}

// A measure is a size in a spell's form: "20-foot", "20-foot-radius", "40 feet high".
type measure struct {
	sq, pos int // the size in squares, the rune index of its number
	q, qpos int // its qualifier (qNone …) and the rune index of the qualifier's word
}

// pointLong parses a spell's form: measures, the shape's name, and a line's width.
func (p *parser) pointLong(s *spread.Shape, first spread.Kind) error {
	var ms [2]measure
	n := 1
	var err error
	if ms[0], err = p.measure("size", longExamples[first]); err != nil {
		return err
	}
	p.skipSpace()
	if q := ms[0].q; q == qRadius || q == qHigh {
		comma := p.at(p.i) == ','
		if comma {
			p.i++
			p.skipSpace()
		}
		if comma || isDigit(p.at(p.i)) {
			if ms[1], err = p.measure("size", cylinderEx); err != nil {
				return err
			}
			n = 2
			p.skipSpace()
		}
	}
	name := p.letters(p.i)
	if s.Kind, err = p.kind(s.Rules, longExamples[first]); err != nil {
		return err
	}
	k := s.Kind
	ex := longExamples[k]
	for _, m := range ms[:n] {
		field, noun := &s.Size, primaries[k]
		switch {
		case m.q == qHigh && k == spread.Cylinder:
			field, noun = &s.Height, "height"
		case m.q == qRadius && (k == spread.Sphere || k == spread.Burst || k == spread.Cylinder),
			m.q == qNone && k != spread.Cylinder:
		case m.q == qNone:
			return p.failEx(m.pos, "a cylinder's sizes are a radius and a height", ex)
		case m.q == qWide && k == spread.Line:
			return p.failEx(m.qpos, "a line's width goes after line", lineWideEx)
		default:
			return p.failEx(m.qpos, aKind[k]+" has no "+nouns[m.q], ex)
		}
		if *field != 0 {
			return p.failEx(m.pos, "the "+noun+" is given twice", ex)
		}
		*field = m.sq
	}
	if k == spread.Cylinder && (s.Size == 0 || s.Height == 0) {
		return p.failEx(name.start, "a cylinder needs a radius and a height before it", ex)
	}
	end := "the end"
	if k == spread.Line {
		p.skipSpace()
		if !isDigit(p.at(p.i)) {
			end = "the width, as in " + lineWideEx + ", or the end"
		} else {
			m, err := p.measure("width", lineWideEx)
			if err != nil {
				return err
			}
			switch m.q {
			case qWide:
			case qNone:
				p.skipSpace()
				return p.expected("wide after the width", lineWideEx)
			default:
				return p.failEx(m.qpos, "a line has no "+nouns[m.q], lineWideEx)
			}
			s.Width = m.sq
		}
	}
	return p.pointEnd(s, end)
}

// pointShort parses a short form: the shape's name, its size, and a cylinder's height or a line's
// width.
func (p *parser) pointShort(s *spread.Shape) error {
	var err error
	if s.Kind, err = p.kind(s.Rules, ""); err != nil {
		return err
	}
	ex := shortExamples[s.Kind]
	p.skipSpace()
	if s.Size, err = p.shortSize(primaries[s.Kind], ex); err != nil {
		return err
	}
	end := "the end"
	if k := s.Kind; k == spread.Cylinder || k == spread.Line {
		field, q := &s.Height, qHigh
		if k == spread.Line {
			field, q = &s.Width, qWide
		}
		p.skipSpace()
		w := p.word()
		switch {
		case p.is(w, qualifiers[q]):
			p.skipSpace()
			if *field, err = p.shortSize(nouns[q], ex); err != nil {
				return err
			}
		case k == spread.Cylinder:
			p.i = w.start
			return p.expected("high and the height after the radius", ex)
		default:
			p.i = w.start
			end = "wide and the width, as in line 100 wide 10, or the end"
		}
	}
	return p.pointEnd(s, end)
}

// pointEnd checks that only white space is left, and leaves out s's width of 1 square.
func (p *parser) pointEnd(s *spread.Shape, expected string) error {
	p.skipSpace()
	if p.i < p.end {
		return p.unexpected(expected)
	}
	if s.Width == 1 {
		s.Width = 0
	}
	return nil
}

// kind reads a shape's name at p.i, one of rules'. example shows a template in the messages,
// when the name is missing.
func (p *parser) kind(rules spread.Rules, example string) (spread.Kind, error) {
	w := p.word()
	for k := spread.Sphere; k <= spread.Burst; k++ {
		if !p.is(w, k.String()) {
			continue
		}
		switch {
		case k == spread.Sphere && rules == spread.PF2e:
			return 0, p.fail(w.start, "a sphere is dnd5e's: under pf2e, expected a burst, as in 20-foot burst or burst 20")
		case k == spread.Burst && rules == spread.DnD5e:
			return 0, p.fail(w.start, "a burst is pf2e's: under dnd5e, expected a sphere, as in 20-foot-radius sphere or sphere 20")
		}
		return k, nil
	}
	list := "sphere, cylinder, cone, cube, line or emanation"
	if rules == spread.PF2e {
		list = "burst, cone, emanation, line, cylinder or cube"
	}
	if w.start == w.end {
		return 0, p.expected("a shape ("+list+")", example)
	}
	return 0, p.fail(w.start, "unknown shape "+p.describe(w.start)+": expected "+list)
}

// measure reads a size, its unit and its qualifier, if any: "20-foot", "20 ft radius",
// "40-foot-high".
func (p *parser) measure(name, example string) (m measure, err error) {
	m.pos = p.i
	if m.sq, err = p.feet(name, example); err != nil {
		return m, err
	}
	if err = p.unit(true, example); err != nil {
		return m, err
	}
	save := p.i
	hyphen := p.at(p.i) == '-'
	if hyphen {
		p.i++
	} else {
		p.skipSpace()
	}
	w := p.word()
	for q := qRadius; q <= qWide; q++ {
		if p.is(w, qualifiers[q]) {
			m.q, m.qpos = q, w.start
			return m, nil
		}
	}
	if hyphen {
		p.i = w.start
		return m, p.expected("radius, high or wide after the hyphen", cylinderEx)
	}
	p.i = save
	return m, nil
}

// shortSize reads a size in feet and its unit, if any.
func (p *parser) shortSize(name, example string) (int, error) {
	v, err := p.feet(name, example)
	if err == nil {
		err = p.unit(false, example)
	}
	return v, err
}

// feet reads a size in feet at p.i, a multiple of 5 from 5 to 5·spread.MaxSize, and returns it
// in squares.
func (p *parser) feet(name, example string) (int, error) {
	i := p.i
	if p.at(i) == '0' && !isDigit(p.at(i+1)) {
		return 0, p.fail(i, "the "+name+" must be at least 5 ft, not 0")
	}
	v, err := p.number(name+" in feet", 5*spread.MaxSize, example)
	if err != nil {
		return 0, err
	}
	if v%5 != 0 {
		return 0, p.fail(i, "sizes are in 5-ft squares: "+num.Itoa(v)+" ft is not a multiple of 5")
	}
	return v / 5, nil
}

// unit reads the unit after a number: a hyphen, white space or nothing, then ft, feet or foot.
// Unless need, a unit may be missing where no hyphen stands, and p.i stays.
func (p *parser) unit(need bool, example string) error {
	save := p.i
	hyphen := p.at(p.i) == '-'
	if hyphen {
		p.i++
	} else {
		p.skipSpace()
	}
	w := p.word()
	if p.is(w, "ft", "feet", "foot") {
		return nil
	}
	if !need && !hyphen {
		p.i = save
		return nil
	}
	p.i = w.start
	return p.expected("the unit (ft, feet or foot)", example)
}

// failEx fails at rune index i with msg and an example of what was expected.
//
//go:noinline
func (p *parser) failEx(i int, msg, example string) error {
	return p.fail(i, msg+": expected "+example)
}

// expected fails at p.i, where what should stand: the text ended there, or something else
// stands there. An empty example gives none.
//
//go:noinline
func (p *parser) expected(what, example string) error {
	if example != "" {
		what += ", as in " + example
	}
	if p.i == p.end {
		return p.fail(p.i, "expected "+what)
	}
	return p.unexpected(what)
}
