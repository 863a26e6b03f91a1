package wire

import (
	"strconv"
	"strings"

	"github.com/aoekit/aoekit/core/engine"
)

// Field readers: each names its field in the path while it reads, and leaves the destination
// alone when the value is null (a null field is an absent one). Unknown fields are skipped.

func (d *decoder) intField(name string, dst *int) (err *engine.Error) {
	if d.null() {
		return nil
	}
	d.field(name)
	*dst, err = d.integer()
	d.pop()
	return err
}

func (d *decoder) stringField(name string, dst *string) (err *engine.Error) {
	if d.null() {
		return nil
	}
	d.field(name)
	*dst, err = d.string()
	d.pop()
	return err
}

func (d *decoder) boolField(name string, dst *bool) (err *engine.Error) {
	if d.null() {
		return nil
	}
	d.field(name)
	*dst, err = d.boolean()
	d.pop()
	return err
}

func (d *decoder) boolPtrField(name string, dst **bool) *engine.Error {
	if d.null() {
		*dst = nil
		return nil
	}
	d.field(name)
	v, err := d.boolean()
	d.pop()
	*dst = &v
	return err
}

// posField reads {"x", "y", "z"} into a new Pos.
func (d *decoder) posField(name string, dst **engine.Pos) *engine.Error {
	if d.null() {
		*dst = nil
		return nil
	}
	d.field(name)
	p := new(engine.Pos)
	err := d.pos(p)
	d.pop()
	*dst = p
	return err
}

func (d *decoder) pos(p *engine.Pos) *engine.Error {
	if !d.object() {
		return d.typeErr(`an object {"x", "y", "z"}`)
	}
	for {
		key, ok := d.next()
		if !ok {
			return nil
		}
		var err *engine.Error
		switch string(key) {
		case "x":
			err = d.intField("x", &p.X)
		case "y":
			err = d.intField("y", &p.Y)
		case "z":
			err = d.intField("z", &p.Z)
		default:
			d.skip()
		}
		if err != nil {
			return err
		}
	}
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

// cellsField reads a list of cells; [] gives an empty, non-nil list.
func (d *decoder) cellsField(name string, dst *[][3]int) *engine.Error {
	if d.null() {
		*dst = nil
		return nil
	}
	d.field(name)
	defer d.pop()
	if !d.array() {
		return d.typeErr("an array of cells [x, y, z]")
	}
	cells := [][3]int{}
	for i := 0; d.more(); i++ {
		var c [3]int
		d.index(i)
		err := d.cell(&c)
		d.pop()
		if err != nil {
			return err
		}
		cells = append(cells, c)
	}
	*dst = cells
	return nil
}

func (d *decoder) stringsField(name string, dst *[]string) *engine.Error {
	if d.null() {
		*dst = nil
		return nil
	}
	d.field(name)
	defer d.pop()
	if !d.array() {
		return d.typeErr("an array of strings")
	}
	list := []string{}
	for i := 0; d.more(); i++ {
		d.index(i)
		s, err := d.string()
		d.pop()
		if err != nil {
			return err
		}
		list = append(list, s)
	}
	*dst = list
	return nil
}

// token reads an entity; its size is a number (Size) or a size name (SizeName).
func (d *decoder) token(t *engine.Token) *engine.Error {
	if !d.object() {
		return d.typeErr("a token object")
	}
	for {
		key, ok := d.next()
		if !ok {
			return nil
		}
		var err *engine.Error
		switch string(key) {
		case "id":
			err = d.stringField("id", &t.ID)
		case "x":
			err = d.intField("x", &t.X)
		case "y":
			err = d.intField("y", &t.Y)
		case "z":
			err = d.intField("z", &t.Z)
		case "size":
			if d.peek() == '"' {
				err = d.stringField("size", &t.SizeName)
			} else if c := d.peek(); c == '-' || isDigit(c) || c == 'n' {
				err = d.intField("size", &t.Size)
			} else {
				d.field("size")
				err = d.typeErr("a number or a size name")
			}
		case "height":
			err = d.intField("height", &t.Height)
		case "facing":
			err = d.stringField("facing", &t.Facing)
		case "side":
			err = d.stringField("side", &t.Side)
		case "prone":
			err = d.boolField("prone", &t.Prone)
		default:
			d.skip()
		}
		if err != nil {
			return err
		}
	}
}

func (d *decoder) tokenField(name string, dst **engine.Token) *engine.Error {
	if d.null() {
		*dst = nil
		return nil
	}
	d.field(name)
	t := new(engine.Token)
	err := d.token(t)
	d.pop()
	*dst = t
	return err
}

func (d *decoder) tokensField(name string, dst *[]engine.Token) *engine.Error {
	if d.null() {
		*dst = nil
		return nil
	}
	d.field(name)
	defer d.pop()
	if !d.array() {
		return d.typeErr("an array of tokens")
	}
	list := []engine.Token{}
	for i := 0; d.more(); i++ {
		var t engine.Token
		d.index(i)
		err := d.token(&t)
		d.pop()
		if err != nil {
			return err
		}
		list = append(list, t)
	}
	*dst = list
	return nil
}

func (d *decoder) obstacle(o *engine.Obstacle) *engine.Error {
	if !d.object() {
		return d.typeErr(`an obstacle object {"x", "y", "z", "fill"}`)
	}
	for {
		key, ok := d.next()
		if !ok {
			return nil
		}
		var err *engine.Error
		switch string(key) {
		case "x":
			err = d.intField("x", &o.X)
		case "y":
			err = d.intField("y", &o.Y)
		case "z":
			err = d.intField("z", &o.Z)
		case "fill":
			if !d.null() {
				d.field("fill")
				o.Fill, err = d.float()
				d.pop()
			}
		default:
			d.skip()
		}
		if err != nil {
			return err
		}
	}
}

func (d *decoder) obstaclesField(name string, dst *[]engine.Obstacle) *engine.Error {
	if d.null() {
		*dst = nil
		return nil
	}
	d.field(name)
	defer d.pop()
	if !d.array() {
		return d.typeErr("an array of obstacles")
	}
	list := []engine.Obstacle{}
	for i := 0; d.more(); i++ {
		var o engine.Obstacle
		d.index(i)
		err := d.obstacle(&o)
		d.pop()
		if err != nil {
			return err
		}
		list = append(list, o)
	}
	*dst = list
	return nil
}

func (d *decoder) boundsField(name string, dst **engine.Bounds) *engine.Error {
	if d.null() {
		*dst = nil
		return nil
	}
	d.field(name)
	defer d.pop()
	if !d.object() {
		return d.typeErr(`an object {"min": [x, y, z], "max": [x, y, z]}`)
	}
	b := new(engine.Bounds)
	*dst = b
	for {
		key, ok := d.next()
		if !ok {
			return nil
		}
		var err *engine.Error
		switch string(key) {
		case "min":
			err = d.cellField("min", &b.Min)
		case "max":
			err = d.cellField("max", &b.Max)
		default:
			d.skip()
		}
		if err != nil {
			return err
		}
	}
}

func (d *decoder) cellField(name string, dst *[3]int) *engine.Error {
	if d.null() {
		return nil
	}
	d.field(name)
	err := d.cell(dst)
	d.pop()
	return err
}

func (d *decoder) targetingField(name string, t *engine.Targeting) *engine.Error {
	if d.null() {
		return nil
	}
	d.field(name)
	defer d.pop()
	if !d.object() {
		return d.typeErr("a targeting object")
	}
	for {
		key, ok := d.next()
		if !ok {
			return nil
		}
		var err *engine.Error
		switch string(key) {
		case "trait":
			err = d.stringField("trait", &t.Trait)
		case "ids":
			err = d.stringsField("ids", &t.IDs)
		case "excludeCaster":
			err = d.boolField("excludeCaster", &t.ExcludeCaster)
		case "excludeCells":
			err = d.cellsField("excludeCells", &t.ExcludeCells)
		default:
			d.skip()
		}
		if err != nil {
			return err
		}
	}
}

func (d *decoder) resolveField(name string, dst **engine.Resolve) *engine.Error {
	if d.null() {
		*dst = nil
		return nil
	}
	d.field(name)
	defer d.pop()
	if !d.object() {
		return d.typeErr("a resolve object")
	}
	r := new(engine.Resolve)
	*dst = r
	for {
		key, ok := d.next()
		if !ok {
			return nil
		}
		var err *engine.Error
		switch string(key) {
		case "stat":
			err = d.intField("stat", &r.Stat)
		case "modifiers":
			err = d.intField("modifiers", &r.Modifiers)
		case "luck":
			err = d.intField("luck", &r.Luck)
		case "seed":
			if !d.null() {
				d.field("seed")
				r.Seed, err = d.seed()
				d.pop()
			}
		case "defence":
			err = d.defence(&r.Defence)
		default:
			d.skip()
		}
		if err != nil {
			return err
		}
	}
}

// seed reads a seed: an integer from 0 to 2^64−1, as a number or, for values past 2^53 that
// JavaScript numbers cannot hold exactly, as a decimal string ("18446744073709551615").
func (d *decoder) seed() (uint64, *engine.Error) {
	if d.peek() != '"' {
		return d.unsigned()
	}
	s, _ := d.string()
	for _, c := range []byte(s) {
		if !isDigit(c) {
			return 0, d.fail("expected an integer from 0 to 18446744073709551615 (a number or a decimal string), got " + quote(s))
		}
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, d.fail("expected an integer from 0 to 18446744073709551615 (a number or a decimal string), got " + quote(s))
	}
	return v, nil
}

// defence reads {"id": stat, …}; a repeated id keeps its last value.
func (d *decoder) defence(dst *map[string]int) *engine.Error {
	if d.null() {
		*dst = nil
		return nil
	}
	d.field("defence")
	defer d.pop()
	if !d.object() {
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

// template reads a template object as Parse returns it.
func (d *decoder) template(t *engine.Template) *engine.Error {
	for {
		key, ok := d.next()
		if !ok {
			return nil
		}
		var err *engine.Error
		switch string(key) {
		case "text":
			err = d.stringField("text", &t.Text)
		case "notation":
			err = d.stringField("notation", &t.Notation)
		case "rules":
			err = d.stringField("rules", &t.Rules)
		case "shape":
			err = d.stringField("shape", &t.Shape)
		case "radius":
			err = d.intField("radius", &t.Radius)
		case "side":
			err = d.intField("side", &t.Side)
		case "size":
			err = d.intField("size", &t.Size)
		case "length":
			err = d.intField("length", &t.Length)
		case "direction":
			err = d.stringField("direction", &t.Direction)
		case "width":
			err = d.intField("width", &t.Width)
		case "height":
			err = d.intField("height", &t.Height)
		case "squares":
			err = d.intField("squares", &t.Squares)
		case "within":
			err = d.intField("within", &t.Within)
		case "close":
			err = d.boolPtrField("close", &t.Close)
		case "orientation":
			err = d.stringField("orientation", &t.Orientation)
		default:
			d.skip()
		}
		if err != nil {
			return err
		}
	}
}

func (d *decoder) templateField(name string, dst *engine.TemplateRef) *engine.Error {
	if d.null() {
		*dst = engine.TemplateRef{}
		return nil
	}
	d.field(name)
	defer d.pop()
	switch {
	case d.peek() == '"':
		s, err := d.string()
		*dst = engine.TemplateRef{Text: s}
		return err
	case d.object():
		t := new(engine.Template)
		*dst = engine.TemplateRef{Object: t}
		return d.template(t)
	}
	return d.typeErr(`notation text or a template object`)
}

// rangeField reads a number of squares, "self" or "touch" (in any case).
func (d *decoder) rangeField(name string, dst *engine.Range) *engine.Error {
	if d.null() {
		*dst = engine.Range{}
		return nil
	}
	d.field(name)
	defer d.pop()
	if d.peek() == '"' {
		s, _ := d.string()
		switch {
		case strings.EqualFold(s, "self"):
			*dst = engine.Range{Kind: "self"}
		case strings.EqualFold(s, "touch"):
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

// request reads an evaluate request.
func (d *decoder) request(r *engine.Request) *engine.Error {
	if !d.object() {
		return d.typeErr("an object")
	}
	for {
		key, ok := d.next()
		if !ok {
			return nil
		}
		var err *engine.Error
		switch string(key) {
		case "rules":
			err = d.stringField("rules", &r.Rules)
		case "template":
			err = d.templateField("template", &r.Template)
		case "caster":
			err = d.tokenField("caster", &r.Caster)
		case "origin":
			err = d.posField("origin", &r.Origin)
		case "originSquare":
			err = d.posField("originSquare", &r.OriginSquare)
		case "aim":
			err = d.posField("aim", &r.Aim)
		case "path":
			err = d.cellsField("path", &r.Path)
		case "range":
			err = d.rangeField("range", &r.Range)
		case "tokens":
			err = d.tokensField("tokens", &r.Tokens)
		case "obstacles":
			err = d.obstaclesField("obstacles", &r.Obstacles)
		case "bounds":
			err = d.boundsField("bounds", &r.Bounds)
		case "targeting":
			err = d.targetingField("targeting", &r.Targeting)
		case "resolve":
			err = d.resolveField("resolve", &r.Resolve)
		case "orientation":
			err = d.stringField("orientation", &r.Orientation)
		case "metric":
			err = d.stringField("metric", &r.Metric)
		case "barriers":
			err = d.boolPtrField("barriers", &r.Barriers)
		case "cover":
			err = d.stringField("cover", &r.Cover)
		case "applyCover":
			err = d.boolPtrField("applyCover", &r.ApplyCover)
		default:
			d.skip()
		}
		if err != nil {
			return err
		}
	}
}

// move reads a forced-movement request.
func (d *decoder) move(m *engine.MoveRequest) *engine.Error {
	if !d.object() {
		return d.typeErr("an object")
	}
	for {
		key, ok := d.next()
		if !ok {
			return nil
		}
		var err *engine.Error
		switch string(key) {
		case "kind":
			err = d.stringField("kind", &m.Kind)
		case "distance":
			err = d.intField("distance", &m.Distance)
		case "source":
			if !d.null() {
				d.field("source")
				err = d.pos(&m.Source)
				d.pop()
			}
		case "target":
			err = d.stringField("target", &m.Target)
		case "path":
			err = d.cellsField("path", &m.Path)
		case "vertical":
			err = d.boolField("vertical", &m.Vertical)
		case "tokens":
			err = d.tokensField("tokens", &m.Tokens)
		case "obstacles":
			err = d.obstaclesField("obstacles", &m.Obstacles)
		case "bounds":
			err = d.boundsField("bounds", &m.Bounds)
		default:
			d.skip()
		}
		if err != nil {
			return err
		}
	}
}

// parseBody reads {"text": "…"}.
func (d *decoder) parseBody() (string, *engine.Error) {
	if !d.object() {
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
