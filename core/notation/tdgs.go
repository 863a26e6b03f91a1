package notation

import (
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/template"
)

// A tdgsKind describes one TDGS shape code for the parser and its messages.
type tdgsKind struct {
	code, name  string // "Con", "cone"
	primary     string // what the first number is
	example     string // the shortest canonical text
	heightEx    string // an example with h
	dir, width  bool   // whether it takes a direction, a width
	misplacedEx string // an example with the direction in place and a modifier after it
}

// tdgsKinds lists the TDGS shape codes. Nothing writes to it: it is a variable, laid out by the
// linker as data, rather than an array a function returns, which the module built in code, a
// field at a time, on every parse (issue 30).
var tdgsKinds = [...]tdgsKind{
	{code: "Cir", name: "circle", primary: "radius", example: "Cir3", heightEx: "Cir3h1"},
	{code: "Con", name: "cone", primary: "length", example: "Con4N", heightEx: "Con6Nh10", dir: true, misplacedEx: "Con6Nh10"},
	{code: "Lin", name: "line", primary: "length", example: "Lin5E", heightEx: "Lin5Eh2", dir: true, width: true, misplacedEx: "Lin5Sw2"},
	{code: "Rec", name: "rectangle", primary: "width", example: "Rec3x4", heightEx: "Rec3x4h2"},
}

const dirList = "(N, NE, E, SE, S, SW, W, NW)"

// tdgs parses [Shape][Primary][Direction][wWidth][hHeight] (SPEC §2.2).
func (p *parser) tdgs() (template.Shape, error) {
	start := p.i
	var k *tdgsKind
	if p.end-p.i >= 3 {
		code := span{p.i, p.i + 3}
		for i := range tdgsKinds {
			if p.is(code, tdgsKinds[i].code) {
				k = &tdgsKinds[i]
			}
		}
	}
	if k == nil {
		return nil, p.fail(start, "unknown shape "+p.describe(start)+
			": expected Cir, Con, Lin or Rec (as in Cir3), a Draw Steel area (3 aura) or circle 3")
	}
	p.i += 3

	if k.dir && isDirLetter(p.at(p.i)) {
		return nil, p.fail(p.i, "misplaced direction: the "+k.primary+" comes first, as in "+k.example)
	}
	first, err := p.number(k.primary, template.MaxDim, k.example)
	if err != nil {
		return nil, err
	}
	second := 0
	if k.code == "Rec" {
		switch p.at(p.i) {
		case 'x', '×':
			p.i++
		case 'X':
			return nil, p.fail(p.i, "the x of RecWxL is lower case, as in Rec3x4")
		default:
			return nil, p.fail(p.i, "a rectangle needs its size as WxL: expected x and the length, as in Rec3x4")
		}
		if second, err = p.number("length", template.MaxDim, "Rec3x4"); err != nil {
			return nil, err
		}
	}

	var dir grid.Dir
	dirEnd := -1
	if k.dir {
		if dir, err = p.direction(k); err != nil {
			return nil, err
		}
		dirEnd = p.i
	}

	width, height := 0, 0
	for p.i < p.end {
		r := p.r[p.i]
		switch {
		case r == 'w' && k.width:
			if width != 0 {
				return nil, p.fail(p.i, "w (width) is given twice")
			}
			p.i++
			if width, err = p.number("width", template.MaxDim, "Lin5Sw2"); err != nil {
				return nil, err
			}
		case r == 'w':
			return nil, p.fail(p.i, "a "+k.name+" has no width: w is only for lines")
		case r == 'h':
			if height != 0 {
				return nil, p.fail(p.i, "h (height) is given twice")
			}
			p.i++
			if height, err = p.number("height", template.MaxHeight, k.heightEx); err != nil {
				return nil, err
			}
		case r == 'H':
			return nil, p.fail(p.i, "modifiers are lower case: h, not H")
		case r == 'W' && k.width && isDigit(p.at(p.i+1)):
			return nil, p.fail(p.i, "modifiers are lower case: w, not W")
		case isDirLetter(r) && !k.dir:
			msg := "a " + k.name + " takes no direction"
			if k.code == "Rec" {
				msg += " (its orientation is given when it is placed)"
			}
			return nil, p.fail(p.i, msg)
		case isDirLetter(r):
			return nil, p.fail(p.i, "misplaced direction: a "+k.name+" has one direction, right after its length")
		case isDigit(r) && p.i == dirEnd:
			if k.width {
				return nil, p.fail(p.i, "a number after a direction needs w (width) or h (height) before it")
			}
			return nil, p.fail(p.i, "a number after a direction needs h (height) before it")
		default:
			return nil, p.unexpected(k.expectedAfter(width != 0, height != 0))
		}
	}

	switch k.code {
	case "Cir":
		return template.Circle{Radius: first, Height: or(height, first)}, nil
	case "Con":
		return template.Cone{Length: first, Dir: dir, Height: or(height, first)}, nil
	case "Lin":
		return template.Line{Length: first, Dir: dir, Width: or(width, 1), Height: or(height, first)}, nil
	}
	return template.Rect{Width: first, Length: second, Height: or(height, max(first, second))}, nil
}

// direction reads an upper-case direction at p.i, the longest that matches ("NE" before "N").
func (p *parser) direction(k *tdgsKind) (grid.Dir, error) {
	r0, r1 := p.at(p.i), p.at(p.i+1)
	if (r0 == 'N' || r0 == 'S') && (r1 == 'E' || r1 == 'W') {
		d, _ := grid.ParseDir(string([]rune{r0, r1}))
		p.i += 2
		return d, nil
	}
	if isDirLetter(r0) {
		d, _ := grid.ParseDir(string(r0))
		p.i++
		return d, nil
	}
	// A direction after the modifiers: "Con4h2N".
	j := p.i
	for j < p.end && (p.r[j] == 'w' || p.r[j] == 'h' || isDigit(p.r[j])) {
		j++
	}
	if j > p.i && isDirLetter(p.at(j)) {
		return 0, p.fail(j, "misplaced direction: the direction goes right after the length, as in "+k.misplacedEx)
	}
	msg := "a " + k.name + " needs a direction " + dirList
	if lower := lowerDir(r0, r1); lower != "" && !(r0 == 'w' && isDigit(r1)) {
		upper := []byte(lower) // ASCII: no strings.ToUpper (it adds 3 KB to the wasm module)
		for i := range upper {
			upper[i] -= 'a' - 'A'
		}
		msg += "; directions are upper case: " + string(upper) + ", not " + lower
	}
	return 0, p.fail(p.i, msg)
}

// lowerDir returns the lower-case direction spelt by r0 r1, longest first, or "".
func lowerDir(r0, r1 rune) string {
	switch {
	case (r0 == 'n' || r0 == 's') && (r1 == 'e' || r1 == 'w'):
		return string([]rune{r0, r1})
	case r0 == 'n' || r0 == 'e' || r0 == 's' || r0 == 'w':
		return string(r0)
	}
	return ""
}

// expectedAfter lists what may follow a complete shape, given the modifiers already read.
func (k *tdgsKind) expectedAfter(haveWidth, haveHeight bool) string {
	var items []string
	if k.width && !haveWidth {
		items = append(items, "w (width)")
	}
	if !haveHeight {
		items = append(items, "h (height)")
	}
	items = append(items, "the end")
	if len(items) == 1 {
		return items[0]
	}
	s := items[0] // no strings.Join: it adds 3 KB to the wasm module
	for _, item := range items[1 : len(items)-1] {
		s += ", " + item
	}
	return s + " or " + items[len(items)-1]
}

func isDirLetter(r rune) bool { return r == 'N' || r == 'E' || r == 'S' || r == 'W' }

// or returns v, or def when v is 0 (absent).
func or(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}
