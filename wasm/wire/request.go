package wire

import "github.com/aoekit/aoekit/core/engine"

// The request types are read through tables rather than a function per type: a field list
// names an object's fields and a matching list of pointers says where each goes, and value
// reads any of those destinations by its Go type. That keeps the browser module small (one
// call site per type of field instead of one per field), without reflect.

// The field names of each object, in the order of the pointers its reader passes to object.
var (
	posFields       = []string{"x", "y", "z"}
	tokenFields     = []string{"id", "x", "y", "z", "size", "height", "facing", "side", "prone"}
	obstacleFields  = []string{"x", "y", "z", "fill"}
	boundsFields    = []string{"min", "max"}
	targetingFields = []string{"trait", "ids", "excludeCaster", "excludeCells"}
	resolveFields   = []string{"stat", "modifiers", "luck", "seed", "defence"}
	templateFields  = []string{"text", "notation", "rules", "shape", "radius", "side", "size", "length",
		"direction", "width", "height", "squares", "within", "close", "orientation"}
	requestFields = []string{"rules", "template", "caster", "origin", "originSquare", "aim", "path", "range",
		"tokens", "obstacles", "bounds", "targeting", "resolve", "orientation", "metric", "barriers", "cover",
		"applyCover"}
	moveFields = []string{"kind", "distance", "source", "target", "path", "vertical", "tokens", "obstacles", "bounds"}
)

// tokenSize is where a token's "size" goes: Size for a number, SizeName for a size name.
type tokenSize struct{ t *engine.Token }

// obstacleFill is where an obstacle's "fill" goes, rounded to the lattice (see fill).
type obstacleFill struct{ f *float64 }

// object reads an object, or reports a type error naming want when the value is not one. The
// value of the field names[k] goes to dst[k] (see value), its name on the path while it is read;
// unknown fields are skipped, and a repeated field keeps its last value.
func (d *decoder) object(want string, names []string, dst []any) *engine.Error {
	if !d.objectStart() {
		return d.typeErr(want)
	}
	return d.fields(names, dst)
}

// fields reads the fields of an object whose { is behind the cursor, as object does.
func (d *decoder) fields(names []string, dst []any) *engine.Error {
	for {
		key, ok := d.next()
		if !ok {
			return nil
		}
		k := 0
		for k < len(names) && names[k] != string(key) {
			k++
		}
		if k == len(names) {
			d.skip()
			continue
		}
		d.field(names[k])
		err := d.value(dst[k])
		d.pop()
		if err != nil {
			return err
		}
	}
}

// value reads the value at the cursor into what dst points to. A null is an absent value, as
// with encoding/json: it leaves numbers, strings, booleans, cells and struct values alone and
// makes pointers, lists and maps nil (and a range or a template reference zero).
func (d *decoder) value(dst any) (err *engine.Error) {
	null := d.null()
	switch p := dst.(type) {
	case *int:
		if !null {
			*p, err = d.integer()
		}
	case *string:
		if !null {
			*p, err = d.string()
		}
	case *bool:
		if !null {
			*p, err = d.boolean()
		}
	case **bool:
		*p = nil
		if !null {
			v := new(bool)
			*p = v
			*v, err = d.boolean()
		}
	case obstacleFill:
		if !null {
			*p.f, err = d.fill()
		}
	case *uint64:
		if !null {
			*p, err = d.seed()
		}
	case *[3]int:
		if !null {
			err = d.cell(p)
		}
	case *engine.Pos:
		if !null {
			err = d.pos(p)
		}
	case **engine.Pos:
		*p = nil
		if !null {
			v := new(engine.Pos)
			*p = v
			err = d.pos(v)
		}
	case tokenSize:
		switch c := d.peek(); {
		case null:
		case c == '"':
			p.t.SizeName, err = d.string()
		case c == '-' || isDigit(c):
			p.t.Size, err = d.integer()
		default:
			err = d.typeErr("a number or a size name")
		}
	case **engine.Token:
		*p = nil
		if !null {
			v := new(engine.Token)
			*p = v
			err = d.token(v)
		}
	case **engine.Bounds:
		*p = nil
		if !null {
			b := new(engine.Bounds)
			*p = b
			err = d.object(`an object {"min": [x, y, z], "max": [x, y, z]}`, boundsFields, []any{&b.Min, &b.Max})
		}
	case *engine.Targeting:
		if !null {
			err = d.object("a targeting object", targetingFields, []any{&p.Trait, &p.IDs, &p.ExcludeCaster, &p.ExcludeCells})
		}
	case **engine.Resolve:
		*p = nil
		if !null {
			r := new(engine.Resolve)
			*p = r
			err = d.object("a resolve object", resolveFields, []any{&r.Stat, &r.Modifiers, &r.Luck, &r.Seed, &r.Defence})
		}
	case *engine.Range:
		*p = engine.Range{}
		if !null {
			err = d.rangeValue(p)
		}
	case *engine.TemplateRef:
		*p = engine.TemplateRef{}
		switch c := d.peek(); {
		case null:
		case c == '"':
			p.Text, err = d.string()
		case d.objectStart():
			t := new(engine.Template)
			p.Object = t
			err = d.fields(templateFields, []any{&t.Text, &t.Notation, &t.Rules, &t.Shape, &t.Radius, &t.Side,
				&t.Size, &t.Length, &t.Direction, &t.Width, &t.Height, &t.Squares, &t.Within, &t.Close, &t.Orientation})
		default:
			err = d.typeErr(`notation text or a template object`)
		}
	case *map[string]int:
		*p = nil
		if !null {
			err = d.defence(p)
		}
	default: // the lists: null or [], then elements
		err = d.list(dst, null)
	}
	return err
}

// list reads a list into dst, a *[][3]int, *[]string, *[]engine.Token or *[]engine.Obstacle;
// null makes it nil and [] an empty, non-nil list.
func (d *decoder) list(dst any, null bool) *engine.Error {
	var want string
	switch p := dst.(type) { // nil, or empty until the elements come
	case *[][3]int:
		*p, want = nil, "an array of cells [x, y, z]"
		if !null {
			*p = [][3]int{}
		}
	case *[]string:
		*p, want = nil, "an array of strings"
		if !null {
			*p = []string{}
		}
	case *[]engine.Token:
		*p, want = nil, "an array of tokens"
		if !null {
			*p = []engine.Token{}
		}
	case *[]engine.Obstacle:
		*p, want = nil, "an array of obstacles"
		if !null {
			*p = []engine.Obstacle{}
		}
	default:
		panic("wire: no reader for this destination")
	}
	if null {
		return nil
	}
	if !d.array() {
		return d.typeErr(want)
	}
	for i := 0; d.more(); i++ {
		var err *engine.Error
		d.index(i)
		switch p := dst.(type) {
		case *[][3]int:
			*p = append(*p, [3]int{})
			err = d.cell(&(*p)[i])
		case *[]string:
			*p = append(*p, "")
			(*p)[i], err = d.string()
		case *[]engine.Token:
			*p = append(*p, engine.Token{})
			err = d.token(&(*p)[i])
		case *[]engine.Obstacle:
			*p = append(*p, engine.Obstacle{})
			o := &(*p)[i]
			err = d.object(`an obstacle object {"x", "y", "z", "fill"}`, obstacleFields, []any{&o.X, &o.Y, &o.Z, obstacleFill{&o.Fill}})
		}
		d.pop()
		if err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) pos(p *engine.Pos) *engine.Error {
	return d.object(`an object {"x", "y", "z"}`, posFields, []any{&p.X, &p.Y, &p.Z})
}

// token reads an entity; its size is a number (Size) or a size name (SizeName).
func (d *decoder) token(t *engine.Token) *engine.Error {
	return d.object("a token object", tokenFields, []any{&t.ID, &t.X, &t.Y, &t.Z, tokenSize{t}, &t.Height,
		&t.Facing, &t.Side, &t.Prone})
}

// cell reads [x, y, z]: exactly three integers.
func (d *decoder) cell(c *[3]int) *engine.Error {
	if !d.array() {
		return d.typeErr("a cell [x, y, z]")
	}
	n := 0
	for d.more() {
		if n == 3 {
			return d.fail("expected a cell [x, y, z], got more than 3 numbers")
		}
		d.index(n)
		v, err := d.integer()
		d.pop()
		if err != nil {
			return err
		}
		c[n] = v
		n++
	}
	if n != 3 {
		return d.fail("expected a cell [x, y, z], got " + plural(n, "number"))
	}
	return nil
}

func plural(n int, what string) string {
	s := itoa(n) + " " + what
	if n != 1 {
		s += "s"
	}
	return s
}

// seed reads a seed: an integer from 0 to 2^64−1, as a number or, for values past 2^53 that
// JavaScript numbers cannot hold exactly, as a decimal string ("18446744073709551615").
func (d *decoder) seed() (uint64, *engine.Error) {
	if d.peek() != '"' {
		return d.unsigned()
	}
	s, _ := d.string()
	v, ok := parseUint([]byte(s)) // digits only
	if !ok {
		return 0, d.fail("expected an integer from 0 to 18446744073709551615 (a number or a decimal string), got " + quote(s))
	}
	return v, nil
}

// defence reads {"id": stat, …}; a repeated id keeps its last value and a null stat is absent.
func (d *decoder) defence(dst *map[string]int) *engine.Error {
	if !d.objectStart() {
		return d.typeErr(`an object {"<token id>": stat, …}`)
	}
	m := map[string]int{}
	*dst = m
	for {
		key, ok := d.next()
		if !ok {
			return nil
		}
		id := string(key)
		if d.null() {
			continue
		}
		d.mapKey(id)
		v, err := d.integer()
		d.pop()
		if err != nil {
			return err
		}
		m[id] = v
	}
}

// rangeValue reads a number of squares, "self" or "touch" (in any case).
func (d *decoder) rangeValue(dst *engine.Range) *engine.Error {
	if d.peek() == '"' {
		s, _ := d.string()
		switch {
		case equalFold(s, "self"):
			*dst = engine.Range{Kind: "self"}
		case equalFold(s, "touch"):
			*dst = engine.Range{Kind: "touch"}
		default:
			return d.fail(`expected a number of squares, "self" or "touch", got ` + quote(s))
		}
		return nil
	}
	if c := d.peek(); c != '-' && !isDigit(c) {
		return d.typeErr(`a number of squares, "self" or "touch"`)
	}
	n, err := d.integer()
	*dst = engine.Range{Kind: "squares", Squares: n}
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

// request reads an evaluate request.
func (d *decoder) request(r *engine.Request) *engine.Error {
	return d.object("an object", requestFields, []any{&r.Rules, &r.Template, &r.Caster, &r.Origin, &r.OriginSquare,
		&r.Aim, &r.Path, &r.Range, &r.Tokens, &r.Obstacles, &r.Bounds, &r.Targeting, &r.Resolve, &r.Orientation,
		&r.Metric, &r.Barriers, &r.Cover, &r.ApplyCover})
}

// move reads a forced-movement request.
func (d *decoder) move(m *engine.MoveRequest) *engine.Error {
	return d.object("an object", moveFields, []any{&m.Kind, &m.Distance, &m.Source, &m.Target, &m.Path,
		&m.Vertical, &m.Tokens, &m.Obstacles, &m.Bounds})
}

// parseBody reads {"text": "…"}; unlike the request's fields, "text" may not be null.
func (d *decoder) parseBody() (string, *engine.Error) {
	if !d.objectStart() {
		return "", d.typeErr(`an object {"text": "…"}`)
	}
	var text string
	seen := false
	for {
		key, ok := d.next()
		if !ok {
			break
		}
		if string(key) != "text" {
			d.skip()
			continue
		}
		d.field("text")
		s, err := d.string()
		d.pop()
		if err != nil {
			return "", err
		}
		text, seen = s, true
	}
	if !seen {
		return "", d.fail(`missing "text": expected {"text": "<notation>"}`)
	}
	return text, nil
}
