package wire

import (
	"math/bits"

	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/core/fullattack"
)

// The request types are read through tables rather than a function per type: a field list
// names an object's fields and a matching list of pointers says where each goes, and value
// reads any of those destinations by its Go type. That keeps the browser module small (one
// call site per type of field instead of one per field), without reflect. The tables, the
// readers of the engine's types and value are generated from core/engine's types
// (codec_gen.go, go generate ./wasm/wire); what is here reads the leaves and the objects.

// object reads an object, or reports a type error naming want when the value is not one. The
// value of the field names[k] goes to dst[k] (see value), its name on the path while it is read;
// unknown fields are skipped, and a repeated field keeps its last value.
func (d *decoder) object(want string, names []string, dst []any) *engine.Error {
	return d.needed(want, names, dst, 0, 0)
}

// needed is object for an object whose fields names[k] for the bits k of need must be there,
// and not null (//wire:required): without one it is an error naming it ("walls[0].b is
// required"), where object would leave its destination zero; and whose integer fields for the
// bits of positive, when given, must not be 0 (//wire:positive), which the engine would take
// for a field left out (its default) rather than refuse.
func (d *decoder) needed(want string, names []string, dst []any, need, positive uint64) *engine.Error {
	if !d.objectStart() {
		return d.typeErr(want)
	}
	seen, err := d.fields(names, dst, positive)
	if miss := need &^ seen; err == nil && miss != 0 {
		d.field(names[bits.TrailingZeros64(miss)])
		where := d.where()
		d.pop()
		err = &engine.Error{Code: engine.CodeBadRequest, Message: where + " is required", Field: engine.FieldOf(where + ": ")}
	}
	return err
}

// fields reads the fields of an object whose { is behind the cursor, as object does, and
// returns which of the first 64 names came with a value other than null (bit k: names[k]).
// An integer field of the bits of positive given as 0 is an error.
func (d *decoder) fields(names []string, dst []any, positive uint64) (seen uint64, err *engine.Error) {
	for {
		key, ok := d.next()
		if !ok {
			return seen, nil
		}
		k := indexOf(names, key)
		if k == len(names) {
			d.skip()
			continue
		}
		if k < 64 && d.peek() != 'n' {
			seen |= 1 << k
		}
		d.field(names[k])
		err := d.value(dst[k])
		if positive&(1<<k) != 0 && seen&(1<<k) != 0 && err == nil {
			if p, ok := dst[k].(*int); ok && *p == 0 {
				err = d.fail("expected an integer of 1 or more, got 0")
			}
		}
		d.pop()
		if err != nil {
			return seen, err
		}
	}
}

// indexOf returns the index of key in names, or len(names): a search kept out of fields, whose
// loop it would make longer to run (plainRun says why that matters).
func indexOf(names []string, key []byte) int {
	k := 0
	for k < len(names) && names[k] != string(key) {
		k++
	}
	return k
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

// planePoint reads a point of the plane, [x, y], each a number of squares rounded to the
// 1/400 lattice by its text (engine.ParseCoord), as a wall's ends are (SPEC §5.6).
func (d *decoder) planePoint(p *[2]float64) *engine.Error {
	if !d.array() {
		return d.typeErr("a point [x, y]")
	}
	n := 0
	for d.more() {
		if n == 2 {
			return d.fail("expected a point [x, y], got more than 2 numbers")
		}
		d.index(n)
		v, err := d.coord()
		d.pop()
		if err != nil {
			return err
		}
		p[n] = v
		n++
	}
	if n != 2 {
		return d.fail("expected a point [x, y], got " + plural(n, "number"))
	}
	return nil
}

// coord reads a wall's coordinate or height: a number, rounded to the 1/400 lattice by its
// text (engine.ParseCoord).
func (d *decoder) coord() (float64, *engine.Error) {
	tok := d.numberToken()
	if tok == nil {
		return 0, d.typeErr("a number")
	}
	f, ok := engine.ParseCoord(tok)
	if !ok {
		where := d.where()
		return 0, &engine.Error{Code: engine.CodeTooLarge, Message: where + ": past ±" + itoa(engine.MaxCoord), Field: engine.FieldOf(where + ": ")}
	}
	return f, nil
}

func plural(n int, what string) string {
	s := itoa(n) + " " + what
	if n != 1 {
		s += "s"
	}
	return s
}

// intMap reads {"id": stat, …} (a resolve's defence); a repeated id keeps its last value and a
// null stat is absent.
func (d *decoder) intMap(dst *map[string]int) *engine.Error {
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

// itemMap reads a full attack's holding, {"<hand>": item, …}, as intMap reads the defence: a
// repeated hand keeps its last item and a null item is absent. (Hand-written as intMap is: the
// generator reads a map as a leaf, and this is the one map of structs.)
func (d *decoder) itemMap(dst *map[string]fullattack.Item) *engine.Error {
	if !d.objectStart() {
		return d.typeErr(`an object {"<hand>": item, …}`)
	}
	m := map[string]fullattack.Item{}
	*dst = m
	for {
		key, ok := d.next()
		if !ok {
			return nil
		}
		hand := string(key)
		if d.null() {
			continue
		}
		d.mapKey(hand)
		var it fullattack.Item
		err := d.value(&it)
		d.pop()
		if err != nil {
			return err
		}
		m[hand] = it
	}
}

// A parseRequest is the body of parse: {"text": "…", "rules": "…"}, rules optional (the rule set
// whose notation the text is: needed for dnd5e's and pf2e's, SPEC §10.3).
type parseRequest struct{ text, rules string }

// parseBody reads {"text": "…", "rules": "…"}; unlike the request's fields, "text" may not be
// null ("rules" may, as an absent one).
func (d *decoder) parseBody(p *parseRequest) *engine.Error {
	if !d.objectStart() {
		return d.typeErr(`an object {"text": "…"}`)
	}
	seen := false
	for {
		key, ok := d.next()
		if !ok {
			break
		}
		k := string(key)
		if k != "text" && k != "rules" {
			d.skip()
			continue
		}
		d.field(k)
		var err *engine.Error
		switch {
		case k == "text":
			p.text, err = d.string()
			seen = true
		case !d.null():
			p.rules, err = d.string()
		}
		d.pop()
		if err != nil {
			return err
		}
	}
	if !seen {
		return d.fail(`missing "text": expected {"text": "<notation>"}`)
	}
	return nil
}
