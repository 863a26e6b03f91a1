package wire

import "github.com/aoekit/aoekit/core/engine"

// The polymorphic fields of the requests, tagged wire:"name" in core/engine/types.go, are read
// here, by d.nameField: each takes a JSON value in more than one form, or one its Go type would
// read wrong. value calls it with the field's address, or with its struct's for wire:"name,struct",
// and whether the value was null (and consumed): null is an absent field, as value has it.

// templateField reads a request's "template": notation text or a template object (TemplateRef).
func (d *decoder) templateField(t *engine.TemplateRef, null bool) (err *engine.Error) {
	*t = engine.TemplateRef{}
	switch c := d.peek(); {
	case null:
	case c == '"':
		t.Text, err = d.string()
	case c == '{':
		t.Object = new(engine.Template)
		err = d.value(t.Object) // a case of value, generated
	default:
		err = d.typeErr(`notation text or a template object`)
	}
	return err
}

// rangeField reads a request's "range": a number of squares or a keyword, "self" or "touch".
func (d *decoder) rangeField(r *engine.Range, null bool) *engine.Error {
	*r = engine.Range{}
	if null {
		return nil
	}
	if d.peek() == '"' {
		s, _ := d.string()
		switch {
		case equalFold(s, "self"):
			*r = engine.Range{Kind: "self"}
		case equalFold(s, "touch"):
			*r = engine.Range{Kind: "touch"}
		default:
			return d.fail(`expected a number of squares, "self" or "touch", got ` + Quote(s))
		}
		return nil
	}
	if c := d.peek(); c != '-' && !isDigit(c) {
		return d.typeErr(`a number of squares, "self" or "touch"`)
	}
	n, err := d.integer()
	*r = engine.Range{Kind: "squares", Squares: n}
	return err
}

// equalFold is strings.EqualFold(s, word) for a word of lower-case ASCII letters other than k,
// without linking strings.EqualFold: under Unicode simple case folding the only runes that
// match such a letter are itself, its upper case and, for s, U+017F (ſ).
func equalFold(s, word string) bool {
	for _, r := range s {
		if word == "" {
			return false
		}
		c := rune(word[0])
		if r != c && r != c-('a'-'A') && !(c == 's' && r == 'ſ') {
			return false
		}
		word = word[1:]
	}
	return word == ""
}

// sizeField reads a token's "size", given the token: a number (Size) or a size name (SizeName).
func (d *decoder) sizeField(t *engine.Token, null bool) *engine.Error {
	return d.size(&t.Size, &t.SizeName, null)
}

// attackerSizeField reads a cover request's attacker's "size", as sizeField a token's.
func (d *decoder) attackerSizeField(a *engine.Attacker, null bool) *engine.Error {
	return d.size(&a.Size, &a.SizeName, null)
}

// size reads a "size": a number into n or a size name into name.
func (d *decoder) size(n *int, name *string, null bool) (err *engine.Error) {
	switch c := d.peek(); {
	case null:
	case c == '"':
		*name, err = d.string()
	case c == '-' || isDigit(c):
		if *n, err = d.integer(); err == nil && *n == 0 { // 0 would read as a size left out (1)
			err = d.fail("expected 1 … " + itoa(engine.MaxSize) + " or a size name, got 0")
		}
	default:
		err = d.typeErr("a number or a size name")
	}
	return err
}

// seedField reads a resolve's "seed", an integer from 0 to 2^64−1: a number or, for values past
// 2^53 that JavaScript numbers cannot hold exactly, a decimal string ("18446744073709551615").
func (d *decoder) seedField(seed *uint64, null bool) (err *engine.Error) {
	switch {
	case null:
	case d.peek() != '"':
		*seed, err = d.unsigned()
	default:
		s, _ := d.string()
		v, ok := parseUint([]byte(s)) // digits only
		if !ok {
			return d.fail("expected an integer from 0 to 18446744073709551615 (a number or a decimal string), got " + Quote(s))
		}
		*seed = v
	}
	return err
}

// fillField reads an obstacle's "fill": a number, rounded to the 1/400 lattice by its decimal
// text exactly (engine.ParseFill), which reading it as a float64 first would not do.
// It is given the obstacle: a *float64 alone would not tell it from the plain numbers of a
// point or an angle.
func (d *decoder) fillField(o *engine.Obstacle, null bool) (err *engine.Error) {
	if !null {
		o.Fill, err = d.fill()
	}
	return err
}

// towardField reads a request's "toward" (SPEC §10.2): a compass name, a number of degrees
// (read to 1/400 of a degree by its text) or an aim point {"x", "y", "z"}.
func (d *decoder) towardField(t *engine.Toward, null bool) (err *engine.Error) {
	*t = engine.Toward{}
	switch c := d.peek(); {
	case null:
	case c == '"':
		t.Compass, err = d.string()
	case c == '{':
		err = d.value(&t.Aim) // a case of value, generated
	case c == '-' || isDigit(c):
		t.IsDegrees = true
		t.Degrees, err = d.coord()
	default:
		err = d.typeErr(`a compass name, a number of degrees or an aim point {"x", "y", "z"}`)
	}
	return err
}
