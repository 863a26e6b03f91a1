package wire

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/engine"
)

// The CONTRACT example request, word for word.
const contractRequest = `{
  "rules": "tdgs",
  "template": "Con4NE",
  "caster": {"id": "hero", "x": 5, "y": 5, "z": 0, "size": 1, "height": 1, "facing": "N", "side": "party"},
  "origin": {"x": 9, "y": 2, "z": 0},
  "aim": {"x": 12, "y": 4, "z": 0},
  "range": 20,
  "tokens": [{"id": "g1", "x": 7, "y": 3, "z": 0, "size": 1, "height": 1, "side": "enemy", "prone": false}],
  "obstacles": [{"x": 6, "y": 3, "z": 0, "fill": 1}],
  "bounds": {"min": [0, 0, 0], "max": [59, 59, 0]},
  "targeting": {"trait": "none", "ids": [], "excludeCaster": false, "excludeCells": []},
  "resolve": {"stat": 7, "modifiers": 0, "luck": 0, "seed": 42, "defence": {"g1": 5}}
}`

func TestDecodeContractRequest(t *testing.T) {
	got, err := DecodeRequest([]byte(contractRequest))
	if err != nil {
		t.Fatal(err)
	}
	want := &engine.Request{
		Rules:     "tdgs",
		Template:  engine.TemplateRef{Text: "Con4NE"},
		Caster:    &engine.Token{ID: "hero", X: 5, Y: 5, Size: 1, Height: 1, Facing: "N", Side: "party"},
		Origin:    &engine.Pos{X: 9, Y: 2},
		Aim:       &engine.Pos{X: 12, Y: 4},
		Range:     engine.Range{Kind: "squares", Squares: 20},
		Tokens:    []engine.Token{{ID: "g1", X: 7, Y: 3, Size: 1, Height: 1, Side: "enemy"}},
		Obstacles: []engine.Obstacle{{X: 6, Y: 3, Fill: 1}},
		Bounds:    &engine.Bounds{Max: [3]int{59, 59, 0}},
		Targeting: engine.Targeting{Trait: "none", IDs: []string{}, ExcludeCells: [][3]int{}},
		Resolve:   &engine.Resolve{Stat: 7, Seed: 42, Defence: map[string]int{"g1": 5}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestDecodeShapes(t *testing.T) {
	tru := true
	for _, c := range []struct {
		in   string
		want engine.Request
	}{
		{`{}`, engine.Request{}},
		{`{"template": {"notation": "Cir3", "rules": "tdgs", "shape": "circle", "radius": 3, "height": 3, "close": true, "extra": [1, {"x": null}]}}`,
			engine.Request{Template: engine.TemplateRef{Object: &engine.Template{Notation: "Cir3", Rules: "tdgs", Shape: "circle", Radius: 3, Height: 3, Close: &tru}}}},
		{`{"range": "self"}`, engine.Request{Range: engine.Range{Kind: "self"}}},
		{`{"range": "Touch"}`, engine.Request{Range: engine.Range{Kind: "touch"}}},
		{`{"range": 0}`, engine.Request{Range: engine.Range{Kind: "squares"}}},
		{`{"range": 1e1}`, engine.Request{Range: engine.Range{Kind: "squares", Squares: 10}}},
		{`{"range": null, "caster": null, "tokens": null, "template": null}`, engine.Request{}},
		{`{"caster": {"size": "Large"}}`, engine.Request{Caster: &engine.Token{SizeName: "Large"}}},
		{`{"caster": {"size": "1T", "height": 2.0}}`, engine.Request{Caster: &engine.Token{SizeName: "1T", Height: 2}}},
		{`{"tokens": [], "obstacles": [], "path": []}`, engine.Request{Tokens: []engine.Token{}, Obstacles: []engine.Obstacle{}, Path: [][3]int{}}},
		{`{"path": [[1, 2, 3], [-4, 5e0, -0]]}`, engine.Request{Path: [][3]int{{1, 2, 3}, {-4, 5, 0}}}},
		{`{"barriers": false, "applyCover": true, "cover": "none", "metric": "manhattan", "orientation": "E"}`,
			engine.Request{Barriers: new(bool), ApplyCover: &tru, Cover: "none", Metric: "manhattan", Orientation: "E"}},
		{`{"rules": "tdgs", "rules": "drawsteel"}`, engine.Request{Rules: "drawsteel"}},
		{`{"\u0072ules": "circle50", "Rules": "x", "RULES": 5}`, engine.Request{Rules: "circle50"}},
		{`{"originSquare": {"x": 1, "y": 2}, "unknown": {"deep": [[[[]]]]}}`, engine.Request{OriginSquare: &engine.Pos{X: 1, Y: 2}}},
		{`{"resolve": {"seed": 18446744073709551615, "defence": {"a b": -3, "\u00e9": 1, "x": null}}}`,
			engine.Request{Resolve: &engine.Resolve{Seed: 1<<64 - 1, Defence: map[string]int{"a b": -3, "é": 1}}}},
		{`{"resolve": {"seed": 1e19}}`, engine.Request{Resolve: &engine.Resolve{Seed: 1e19}}},
		{`{"resolve": {"seed": "18446744073709551615"}}`, engine.Request{Resolve: &engine.Resolve{Seed: 1<<64 - 1}}},
		{`{"resolve": {"seed": "0042"}}`, engine.Request{Resolve: &engine.Resolve{Seed: 42}}},
		{`{"resolve": {"seed": -0}}`, engine.Request{Resolve: &engine.Resolve{}}},
		// Fills on the lattice (SPEC §5.1): 0.3 is 120/400; 1e-3 is 0.4/400, below 1/800: 1/400.
		{`{"obstacles": [{"x": 1, "fill": 0.3}, {"fill": 1e-3}]}`, engine.Request{Obstacles: []engine.Obstacle{{X: 1, Fill: 120.0 / 400}, {Fill: 1.0 / 400}}}},
		// 0 is a full block, as Obstacle.Fill's zero value (CONTRACT version 1 has always read it so).
		{`{"obstacles": [{"fill": 0}, {"fill": -0.0}, {"fill": 0e9}]}`, engine.Request{Obstacles: []engine.Obstacle{{}, {}, {}}}},
		{`{"tokens": [{"id": "a\"b\\c\ud83d\ude00\ud800x", "x": -2147483648, "y": 2147483647}]}`,
			engine.Request{Tokens: []engine.Token{{ID: "a\"b\\c😀\ufffdx", X: -2147483648, Y: 2147483647}}}},
		{`{"targeting": {"ids": ["a", "b"], "excludeCells": [[0, 0, 0]], "excludeCaster": true}}`,
			engine.Request{Targeting: engine.Targeting{IDs: []string{"a", "b"}, ExcludeCells: [][3]int{{0, 0, 0}}, ExcludeCaster: true}}},
	} {
		got, err := DecodeRequest([]byte(c.in))
		if err != nil {
			t.Errorf("DecodeRequest(%s): %v", c.in, err)
			continue
		}
		if !reflect.DeepEqual(*got, c.want) {
			t.Errorf("DecodeRequest(%s)\n got %+v\nwant %+v", c.in, *got, c.want)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, c := range []struct{ in, msg string }{
		{`[]`, "request: expected an object, got an array"},
		{`null`, "request: expected an object, got null"},
		{`{"rules": 3}`, "rules: expected a string, got a number"},
		{`{"template": 4}`, "template: expected notation text or a template object, got a number"},
		{`{"template": {"radius": "3"}}`, "template.radius: expected an integer, got a string"},
		{`{"template": {"close": 1}}`, "template.close: expected a boolean (true or false), got a number"},
		{`{"tokens": [{}, {}, {}, {"x": "1"}]}`, "tokens[3].x: expected an integer, got a string"},
		{`{"tokens": [{"x": 1.5}]}`, "tokens[0].x: expected an integer, got 1.5"},
		{`{"tokens": [{"x": 2147483648}]}`, "tokens[0].x: integer 2147483648 out of range (-2147483648 to 2147483647)"},
		{`{"tokens": [{"y": -2147483649}]}`, "tokens[0].y: integer -2147483649 out of range (-2147483648 to 2147483647)"},
		{`{"tokens": [{"y": 1e10}]}`, "tokens[0].y: integer 1e10 out of range (-2147483648 to 2147483647)"},
		{`{"tokens": [{"y": 1e400}]}`, "tokens[0].y: integer 1e400 out of range (-2147483648 to 2147483647)"},
		{`{"tokens": [{"y": 123456789012345678901234567890}]}`, "tokens[0].y: integer 123456789012345678901234… out of range (-2147483648 to 2147483647)"},
		{`{"tokens": [{"size": true}]}`, "tokens[0].size: expected a number or a size name, got a boolean"},
		{`{"tokens": [{"prone": "yes"}]}`, "tokens[0].prone: expected a boolean (true or false), got a string"},
		{`{"tokens": [null]}`, "tokens[0]: expected a token object, got null"},
		{`{"tokens": {}}`, "tokens: expected an array of tokens, got an object"},
		{`{"caster": []}`, "caster: expected a token object, got an array"},
		{`{"origin": 5}`, `origin: expected an object {"x", "y", "z"}, got a number`},
		{`{"origin": {"z": false}}`, "origin.z: expected an integer, got a boolean"},
		{`{"path": [[1, 2, 3], [1, 2]]}`, "path[1]: expected a cell [x, y, z], got 2 numbers"},
		{`{"path": [[1, 2, 3, 4]]}`, "path[0]: expected a cell [x, y, z], got more than 3 numbers"},
		{`{"path": [[1, "2", 3]]}`, "path[0][1]: expected an integer, got a string"},
		{`{"path": [{}]}`, "path[0]: expected a cell [x, y, z], got an object"},
		{`{"range": "far"}`, `range: expected a number of squares, "self" or "touch", got "far"`},
		{`{"range": true}`, `range: expected a number of squares, "self" or "touch", got a boolean`},
		{`{"range": 2.5}`, `range: expected an integer, got 2.5`},
		{`{"obstacles": [{"fill": "full"}]}`, "obstacles[0].fill: expected a number in (0, 1], got a string"},
		{`{"obstacles": [{"fill": 1e999}]}`, "obstacles[0].fill: expected a number in (0, 1], got 1e999"},
		{`{"obstacles": [[1, 2, 3]]}`, `obstacles[0]: expected an obstacle object {"x", "y", "z", "fill"}, got an array`},
		{`{"bounds": {"min": [0, 0]}}`, "bounds.min: expected a cell [x, y, z], got 2 numbers"},
		{`{"bounds": []}`, `bounds: expected an object {"min": [x, y, z], "max": [x, y, z]}, got an array`},
		{`{"targeting": {"ids": [1]}}`, "targeting.ids[0]: expected a string, got a number"},
		{`{"targeting": {"excludeCells": [[0, 0, 0], 7]}}`, "targeting.excludeCells[1]: expected a cell [x, y, z], got a number"},
		{`{"targeting": "none"}`, "targeting: expected a targeting object, got a string"},
		{`{"resolve": {"seed": -1}}`, "resolve.seed: expected an integer from 0 to 18446744073709551615, got -1"},
		{`{"resolve": {"seed": 18446744073709551616}}`, "resolve.seed: expected an integer from 0 to 18446744073709551615, got 18446744073709551616"},
		{`{"resolve": {"seed": 0.5}}`, "resolve.seed: expected an integer from 0 to 18446744073709551615, got 0.5"},
		{`{"resolve": {"seed": true}}`, "resolve.seed: expected an integer from 0 to 18446744073709551615, got a boolean"},
		{`{"resolve": {"seed": "-1"}}`, `resolve.seed: expected an integer from 0 to 18446744073709551615 (a number or a decimal string), got "-1"`},
		{`{"resolve": {"seed": ""}}`, `resolve.seed: expected an integer from 0 to 18446744073709551615 (a number or a decimal string), got ""`},
		{`{"resolve": {"seed": "18446744073709551616"}}`, `resolve.seed: expected an integer from 0 to 18446744073709551615 (a number or a decimal string), got "18446744073709551616"`},
		{`{"resolve": {"seed": "1e3"}}`, `resolve.seed: expected an integer from 0 to 18446744073709551615 (a number or a decimal string), got "1e3"`},
		{`{"resolve": {"defence": {"g 1": "5"}}}`, `resolve.defence["g 1"]: expected an integer, got a string`},
		{`{"resolve": {"defence": []}}`, `resolve.defence: expected an object {"<token id>": stat, …}, got an array`},
		{`{"barriers": "no"}`, "barriers: expected a boolean (true or false), got a string"},
		{`{"rules": "tdgs"`, "malformed JSON at byte 16: unexpected end of input"},
	} {
		_, err := DecodeRequest([]byte(c.in))
		if err == nil {
			t.Errorf("DecodeRequest(%s) accepted", c.in)
			continue
		}
		if err.Code != engine.CodeBadRequest || err.Message != c.msg || err.At != 0 {
			t.Errorf("DecodeRequest(%s)\n got %s %q at %d\nwant bad_request %q", c.in, err.Code, err.Message, err.At, c.msg)
		}
	}
}

// The fields CONTRACT marks required whose absence a reader would otherwise leave zero (a wall's
// ends, the bounds' corners, cover's attacker and target: //wire:required) are refused when
// missing or null, naming the field; given, they read as before.
func TestDecodeRequired(t *testing.T) {
	for _, c := range []struct {
		door, in, msg, field string
	}{
		{"evaluate", `{"walls": [{"a": [14, 10]}]}`, "walls[0].b is required", "walls[0].b"},
		{"evaluate", `{"walls": [{"b": [14, 10], "a": null}]}`, "walls[0].a is required", "walls[0].a"},
		{"evaluate", `{"walls": [{"a": [0, 0], "b": [1, 0]}, {}]}`, "walls[1].a is required", "walls[1].a"},
		{"evaluate", `{"bounds": {"min": [0, 0, 0]}}`, "bounds.max is required", "bounds.max"},
		{"evaluate", `{"bounds": {}}`, "bounds.min is required", "bounds.min"},
		{"cover", `{"attack": "ranged", "target": {"x": 3}}`, "attacker is required", "attacker"},
		{"cover", `{"attack": "ranged", "attacker": {"x": 3}, "target": null}`, "target is required", "target"},
		{"cover", `{"attack": "ranged", "attacker": {"x": 3}, "target": {}, "walls": [{"b": [1, 1]}]}`, "walls[0].a is required", "walls[0].a"},
		{"scene edit", `{"bounds": {"max": [9, 9, 0]}}`, "bounds.min is required", "bounds.min"},
		// Integers the engine would read as left out when 0 (//wire:positive; CONTRACT: 1 or
		// more): given as 0, refused, naming the field; sizes likewise.
		{"evaluate", `{"template": {"shape": "cube", "rules": "drawsteel", "side": 2, "within": 0}}`, "template.within: expected an integer of 1 or more, got 0", "template.within"},
		{"evaluate", `{"template": {"shape": "circle", "radius": 2, "height": 0}}`, "template.height: expected an integer of 1 or more, got 0", "template.height"},
		{"evaluate", `{"template": {"shape": "line", "length": 3, "width": 0}}`, "template.width: expected an integer of 1 or more, got 0", "template.width"},
		{"evaluate", `{"tokens": [{"id": "a"}, {"id": "b", "height": 0}]}`, "tokens[1].height: expected an integer of 1 or more, got 0", "tokens[1].height"},
		{"evaluate", `{"caster": {"id": "c", "size": 0}}`, "caster.size: expected 1 … 100 or a size name, got 0", "caster.size"},
		{"cover", `{"attack": "ranged", "attacker": {"height": 0}, "target": {}}`, "attacker.height: expected an integer of 1 or more, got 0", "attacker.height"},
		{"cover", `{"attack": "ranged", "attacker": {}, "target": {"size": 0}}`, "target.size: expected 1 … 100 or a size name, got 0", "target.size"},
	} {
		var err *engine.Error
		switch c.door {
		case "evaluate":
			_, err = DecodeRequest([]byte(c.in))
		case "cover":
			_, err = DecodeCover([]byte(c.in))
		default:
			_, err = DecodeSceneEdit([]byte(c.in))
		}
		if err == nil || err.Code != engine.CodeBadRequest || err.Message != c.msg || err.Field != c.field {
			t.Errorf("%s %s: %+v; want bad_request %q, field %q", c.door, c.in, err, c.msg, c.field)
		}
	}
	for _, in := range []string{`{"walls": [{"a": [0, 0], "b": [0, 1]}], "bounds": {"max": [9, 9, 0], "min": [0, 0, 0]}, "tokens": [{"height": null, "size": null}]}`} {
		if req, err := DecodeRequest([]byte(in)); err != nil || len(req.Walls) != 1 || req.Walls[0].B != [2]float64{0, 1} || req.Bounds.Max != [3]int{9, 9, 0} {
			t.Errorf("%s: %+v, %v", in, req, err)
		}
	}
	if req, err := DecodeCover([]byte(`{"attack": "melee", "attacker": {"x": 2}, "target": {"x": 3}}`)); err != nil || req.Attacker.X != 2 || req.Target.X != 3 {
		t.Errorf("a cover request with both: %+v, %v", req, err)
	}
}

func TestDecodeMove(t *testing.T) {
	got, err := DecodeMove([]byte(`{"kind": "push", "distance": 3, "source": {"x": 1, "y": 2, "z": 0}, "target": "g1",
		"path": [[3, 3, 0]], "vertical": true, "tokens": [{"id": "g1", "x": 2, "y": 3}], "obstacles": [{"x": 9, "y": 9}],
		"bounds": {"min": [0, 0, 0], "max": [9, 9, 0]}, "ignored": 1}`))
	if err != nil {
		t.Fatal(err)
	}
	want := &engine.MoveRequest{Kind: "push", Distance: 3, Source: engine.Pos{X: 1, Y: 2}, Target: "g1", Path: [][3]int{{3, 3, 0}},
		Vertical: true, Tokens: []engine.Token{{ID: "g1", X: 2, Y: 3}}, Obstacles: []engine.Obstacle{{X: 9, Y: 9}},
		Bounds: &engine.Bounds{Max: [3]int{9, 9, 0}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	if got, err := DecodeMove([]byte(`{"kind": "slide"}`)); err != nil || got.Path != nil {
		t.Errorf("no path: %+v %v (Path must stay nil: the engine picks it)", got, err)
	}
	for _, c := range []struct{ in, msg string }{
		{`{"distance": "3"}`, "distance: expected an integer, got a string"},
		{`{"source": [1, 2, 3]}`, `source: expected an object {"x", "y", "z"}, got an array`},
		{`{"target": 1}`, "target: expected a string, got a number"},
		{`{"vertical": null, "path": [[0, 0, "0"]]}`, "path[0][2]: expected an integer, got a string"},
		{`"push"`, "request: expected an object, got a string"},
	} {
		_, err := DecodeMove([]byte(c.in))
		if err == nil || err.Message != c.msg {
			t.Errorf("DecodeMove(%s) = %v, want %q", c.in, err, c.msg)
		}
	}
}

func TestDecodeParse(t *testing.T) {
	for _, c := range []struct{ in, text, msg string }{
		{`{"text": "Con4NE"}`, "Con4NE", ""},
		{`{"text": "sphere 20", "rules": "dnd5e"}`, "sphere 20", ""},
		{`{"rules": null, "text": "Cir3"}`, "Cir3", ""},
		{`{"text": "sphere 20", "rules": 5}`, "", "rules: expected a string, got a number"},
		{`{"other": 1, "text": " 3 aura "}`, " 3 aura ", ""},
		{`{"text": "\u0421\u0442\u0435\u043d\u0430"}`, "Стена", ""},
		{`{}`, "", `request: missing "text": expected {"text": "<notation>"}`},
		{`{"text": 3}`, "", "text: expected a string, got a number"},
		{`{"text": null}`, "", "text: expected a string, got null"},
		{`"Con4NE"`, "", `request: expected an object {"text": "…"}, got a string`},
		{`{"text": "Con4NE",}`, "", "malformed JSON at byte 18: expected a field name (a string)"},
	} {
		text, _, err := DecodeParse([]byte(c.in))
		switch {
		case c.msg == "" && (err != nil || text != c.text):
			t.Errorf("DecodeParse(%s) = %q, %v; want %q", c.in, text, err, c.text)
		case c.msg != "" && (err == nil || err.Message != c.msg):
			t.Errorf("DecodeParse(%s) = %q, %v; want error %q", c.in, text, err, c.msg)
		}
	}
}

// toWire is the reference encoder of a request: the CONTRACT wire form built as plain values
// for encoding/json, by reflection over the engine types' json tags — every field, zero or not;
// nil pointers, lists and maps left out, empty ones kept — with the polymorphic fields (those
// tagged wire:"…") written here as the CONTRACT describes them, apart from wire's readers.
func toWire(r *engine.Request) map[string]any {
	m := wireValue(reflect.ValueOf(r).Elem()).(map[string]any)
	m["someUnknownField"] = map[string]any{"nested": []any{1, "two", nil, true, map[string]any{"x": 1.5}}}
	return m
}

// wireValue is v on the wire, as toWire writes it.
func wireValue(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Pointer:
		return wireValue(v.Elem())
	case reflect.Struct:
		m := map[string]any{}
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			switch {
			case name == "" || name == "-":
			case f.Tag.Get("wire") != "":
				tag, _, _ := strings.Cut(f.Tag.Get("wire"), ",")
				if x, ok := polymorphic(tag, v.Addr().Interface()); ok {
					m[name] = x
				}
			case nilable(v.Field(i)) && v.Field(i).IsNil():
			case strings.Contains(f.Tag.Get("json"), ",omitempty") && v.Field(i).Kind() == reflect.Int && v.Field(i).Int() == 0:
				// 0 in Go is the field left out; given as 0, a positive one is refused (//wire:positive)
			default:
				m[name] = wireValue(v.Field(i))
			}
		}
		return m
	case reflect.Slice:
		list := []any{}
		for i := 0; i < v.Len(); i++ {
			list = append(list, wireValue(v.Index(i)))
		}
		return list
	case reflect.Map:
		m := map[string]any{}
		for _, k := range v.MapKeys() {
			m[k.String()] = wireValue(v.MapIndex(k))
		}
		return m
	}
	return v.Interface()
}

func nilable(v reflect.Value) bool {
	k := v.Kind()
	return k == reflect.Pointer || k == reflect.Slice || k == reflect.Map
}

// polymorphic is the JSON of the field tagged wire:"tag" of the struct p points to, and false
// when the field is absent.
func polymorphic(tag string, p any) (any, bool) {
	switch tag {
	case "template": // notation text or a template object
		switch t := p.(*engine.Request).Template; {
		case t.Object != nil:
			return t.Object, true // encoding/json of the Template type
		case t.Text != "":
			return t.Text, true
		}
	case "range": // a number of squares, "self" or "touch"
		switch r := p.(*engine.Request).Range; r.Kind {
		case "squares":
			return r.Squares, true
		case "self", "touch":
			return r.Kind, true
		}
	case "size": // a number or a size name
		switch t := p.(*engine.Token); {
		case t.SizeName != "":
			return t.SizeName, true
		case t.Size != 0: // 0 is a size left out; given, the wire refuses it
			return t.Size, true
		}
	case "seed": // a number, or past 2^53 a decimal string
		if s := p.(*engine.Resolve).Seed; s > 1<<53 {
			return strconv.FormatUint(s, 10), true
		}
		return p.(*engine.Resolve).Seed, true
	case "fill": // a number, read by its decimal value
		return p.(*engine.Obstacle).Fill, true
	case "toward": // a compass name, degrees or an aim point
		switch t := p.(*engine.Request).Toward; {
		case t.Aim != nil:
			return t.Aim, true
		case t.IsDegrees:
			return t.Degrees, true
		case t.Compass != "":
			return t.Compass, true
		}
	default:
		panic("toWire: no reference for wire:" + strconv.Quote(tag))
	}
	return nil, false
}

// latticeFloats are the numbers of a request, other than a wall's, that the wire reads onto
// the 1/400 lattice by their text: the point, the aim point, degrees, a cone's angle.
func latticeFloats(req *engine.Request) []*float64 {
	var out []*float64
	for _, p := range []*engine.Point{req.Point, req.Toward.Aim} {
		if p != nil {
			out = append(out, &p.X, &p.Y, &p.Z)
		}
	}
	if req.Toward.IsDegrees {
		out = append(out, &req.Toward.Degrees)
	}
	if o := req.Template.Object; o != nil {
		out = append(out, &o.Angle)
	}
	return out
}

// randomRequest draws a request whose every value the wire can carry.
func randomRequest(r *rand.Rand) *engine.Request {
	req := randomValue[engine.Request](r)
	valid := func(s string) string { return strings.ToValidUTF8(s, "\ufffd") }
	validAs := func(p *string) { *p = valid(*p) }
	small := func(v *int) { *v = int(int32(*v)) }
	validAs((*string)(&req.Rules))
	if req.Template.Object != nil {
		req.Template.Text = ""
		o := req.Template.Object
		for _, s := range []*string{&o.Text, &o.Notation, (*string)(&o.Rules), &o.Shape, &o.Direction, &o.Orientation, &o.Base} {
			*s = valid(*s)
		}
		for _, v := range []*int{&o.Radius, &o.Side, &o.Size, &o.Length, &o.Width, &o.Height, &o.Squares, &o.Within} {
			small(v)
		}
	}
	req.Template.Text = valid(req.Template.Text)
	fixToken := func(t *engine.Token) {
		for _, s := range []*string{&t.ID, &t.SizeName, &t.Facing, &t.Side} {
			*s = valid(*s)
		}
		if t.SizeName != "" {
			t.Size = 0
		}
		for _, v := range []*int{&t.X, &t.Y, &t.Z, &t.Size, &t.Height} {
			small(v)
		}
	}
	if req.Caster != nil {
		fixToken(req.Caster)
	}
	for i := range req.Tokens {
		fixToken(&req.Tokens[i])
	}
	validAs((*string)(&req.CreatureCover))
	for i := range req.Walls {
		validAs(&req.Walls[i].From)
	}
	// A toward is one of its forms on the wire: the one polymorphic sends.
	switch t := &req.Toward; {
	case t.Aim != nil:
		*t = engine.Toward{Aim: t.Aim}
	case t.IsDegrees:
		*t = engine.Toward{Degrees: t.Degrees, IsDegrees: true}
	default:
		*t = engine.Toward{Compass: valid(t.Compass)}
	}
	for _, v := range latticeFloats(req) {
		if !(math.Abs(*v) <= 1e6) {
			*v = math.Mod(*v, 1e6)
			if math.IsNaN(*v) {
				*v = 0.5
			}
		}
	}
	for i := range req.Walls { // coordinates within ±1 000 000 squares: past them is too_large
		w := &req.Walls[i]
		for _, v := range []*float64{&w.A[0], &w.A[1], &w.B[0], &w.B[1], w.Bottom, w.Top} {
			if v != nil && !(math.Abs(*v) <= 1e6) {
				*v = math.Mod(*v, 1e6)
				if math.IsNaN(*v) {
					*v = 0.5
				}
			}
		}
	}
	for _, p := range []*engine.Pos{req.Origin, req.OriginSquare, req.Aim} {
		if p != nil {
			small(&p.X)
			small(&p.Y)
			small(&p.Z)
		}
	}
	cells := func(list [][3]int) {
		for i := range list {
			for k := range 3 {
				small(&list[i][k])
			}
		}
	}
	cells(req.Path)
	cells(req.Targeting.ExcludeCells)
	for i := range req.Obstacles {
		o := &req.Obstacles[i]
		small(&o.X)
		small(&o.Y)
		small(&o.Z)
		switch r.IntN(5) { // a fill in (0, 1], or none (0: left out of the JSON)
		case 0:
			o.Fill = 0
		case 1:
			o.Fill = float64(1+r.IntN(400)) / 400
		case 2:
			o.Fill = float64(1+r.IntN(100000)) / 100000
		case 3:
			o.Fill = math.Nextafter(r.Float64(), 2) // (0, 1]
		default:
			o.Fill = math.Ldexp(1+r.Float64(), -1-r.IntN(1070))
		}
	}
	if req.Bounds != nil {
		for k := range 3 {
			small(&req.Bounds.Min[k])
			small(&req.Bounds.Max[k])
		}
	}
	switch r.IntN(4) {
	case 0:
		req.Range = engine.Range{}
	case 1:
		req.Range = engine.Range{Kind: "squares", Squares: int(int32(req.Range.Squares))}
	case 2:
		req.Range = engine.Range{Kind: "self"}
	default:
		req.Range = engine.Range{Kind: "touch"}
	}
	t := &req.Targeting
	validAs((*string)(&t.Trait))
	for i := range t.IDs {
		t.IDs[i] = valid(t.IDs[i])
	}
	if req.Resolve != nil {
		small(&req.Resolve.Stat)
		small(&req.Resolve.Modifiers)
		small(&req.Resolve.Luck)
		if req.Resolve.Defence != nil {
			d := map[string]int{}
			for k, v := range req.Resolve.Defence {
				d[valid(k)] = int(int32(v))
			}
			req.Resolve.Defence = d
		}
	}
	req.Orientation = valid(req.Orientation)
	validAs((*string)(&req.Metric))
	validAs((*string)(&req.Cover))
	return req
}

// TestDecodeMatchesReference encodes random requests with encoding/json in the CONTRACT form and
// checks that DecodeRequest gives back the very same request.
func TestDecodeMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	n := 2000
	if testing.Short() {
		n = 200
	}
	for i := 0; i < n; i++ {
		want := randomRequest(r)
		body, err := json.Marshal(toWire(want))
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 1 { // white space everywhere
			var b bytes.Buffer
			json.Indent(&b, body, " ", "\t")
			body = b.Bytes()
		}
		got, derr := DecodeRequest(body)
		if derr != nil {
			t.Fatalf("DecodeRequest(%s): %v", body, derr)
		}
		// A fill arrives as the shortest decimal of the float64 (encoding/json's) and is read
		// onto the lattice by its value (SPEC §5.1).
		for i := range want.Obstacles {
			if f := &want.Obstacles[i].Fill; *f != 0 {
				n, _ := fillWant(ratOf(t, strconv.FormatFloat(*f, 'g', -1, 64)))
				*f = float64(n) / 400
			}
		}
		// A point's, an aim's, degrees and an angle too (SPEC §10.1, §10.2).
		for _, v := range latticeFloats(want) {
			n, _ := coordWant(ratOf(t, strconv.FormatFloat(*v, 'g', -1, 64)))
			*v = float64(n) / 400
		}
		// A wall's coordinates too, by their value (SPEC §5.6).
		for i := range want.Walls {
			w := &want.Walls[i]
			for _, v := range []*float64{&w.A[0], &w.A[1], &w.B[0], &w.B[1], w.Bottom, w.Top} {
				if v != nil {
					n, _ := coordWant(ratOf(t, strconv.FormatFloat(*v, 'g', -1, 64)))
					*v = float64(n) / 400
				}
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("DecodeRequest(%s)\n got %+v\nwant %+v", body, got, want)
		}
	}
}

var fuzzSeeds = []string{
	contractRequest, `{}`, `{"template": {"shape": "cone"}}`, `{"tokens": [{"x": 1e3}]}`, `{"path": [[1,2,3]]}`,
	`{"kind": "push", "distance": 3, "source": {"x": 1}, "target": "g1", "path": [[0, 0, 0]]}`, `{"resolve": {"defence": {"a": 1}}}`,
	`[1, 2`, `{"range": "self"}`, `{"text": "Con4NE"}`,
	`{"obstacles": [{"x": 1, "fill": 0.03625}, {"fill": 3625e-5}, {"fill": 1}, {"fill": 1e-999999}, {"fill": 0}, {"fill": 1.0000001}]}`,
}

// checkDecodeError requires a decode error to be a well-formed bad_request: syntax errors exactly
// when encoding/json also finds the input malformed (or it breaks UTF-8 or the depth limit).
func checkDecodeError(t *testing.T, data []byte, err *engine.Error) {
	if err == nil {
		return
	}
	pastCoord := err.Code == engine.CodeTooLarge && strings.HasSuffix(err.Message, ": past ±1000000") // a wall's coordinate
	if err.Code != engine.CodeBadRequest && !pastCoord || err.Message == "" || Internal(err) {
		t.Fatalf("decode(%q): bad error %+v", data, err)
	}
	malformed := strings.HasPrefix(err.Message, "malformed JSON at byte ")
	if malformed == (scan(data) == nil) {
		t.Fatalf("decode(%q): %q disagrees with scan", data, err.Message)
	}
}

func FuzzDecodeEvaluate(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := DecodeRequest(data)
		checkDecodeError(t, data, err)
		if err == nil && req == nil {
			t.Fatal("nil request without an error")
		}
		if err == nil {
			checkFills(t, data, req.Obstacles)
		}
	})
}

// checkFills requires every decoded fill to be absent (0) or on the lattice, n/400 for n in
// 1 … 400 (SPEC §5.1).
func checkFills(t *testing.T, data []byte, obstacles []engine.Obstacle) {
	for i, o := range obstacles {
		n := math.Round(o.Fill * 400)
		if o.Fill != 0 && (n < 1 || n > 400 || o.Fill != n/400) {
			t.Fatalf("decode(%q): obstacles[%d].fill = %v, not n/400 for n in 1 … 400", data, i, o.Fill)
		}
	}
}

func FuzzDecodeMove(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := DecodeMove(data)
		checkDecodeError(t, data, err)
		if err == nil && req == nil {
			t.Fatal("nil request without an error")
		}
		if err == nil {
			checkFills(t, data, req.Obstacles)
		}
	})
}

func FuzzDecodeParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _, err := DecodeParse(data)
		checkDecodeError(t, data, err)
	})
}

// FuzzCover runs the cover door whole (CONTRACT cover: decode, judge, encode) on fuzzed bodies:
// a well-formed decode error or an answer, never an internal error (a recovered panic), and
// the answer JSON.
func FuzzCover(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	for _, s := range []string{
		`{"attack": "ranged", "attacker": {"x": 0, "y": 0, "z": 0}, "target": {"x": 3, "y": 1, "z": 0}, "obstacles": [{"x": 2, "y": 1, "z": 0, "fill": 0.5}]}`,
		`{"rules": "drawsteel", "attack": "melee", "attacker": {"x": 0, "y": 0, "size": 2}, "target": {"x": 2, "y": 0, "prone": true}}`,
		`{"rules": "dnd35", "attack": "reach", "attacker": {"x": 0, "y": 0, "z": 1, "flying": true}, "target": {"x": 2, "y": 2, "z": 0, "size": "Large"}, "walls": [{"a": [1, 0], "b": [1, 3], "top": 0.5}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := DecodeCover(data); err != nil {
			checkDecodeError(t, data, err)
		}
		out, err := Cover(data)
		switch {
		case err != nil && (Internal(err) || err.Message == ""):
			t.Fatalf("Cover(%q): %+v", data, err)
		case err == nil && !json.Valid(out):
			t.Fatalf("Cover(%q) = %q, not JSON", data, out)
		}
	})
}

// TestDecodeBounded: the decoder's work is linear in the body, whatever its shape.
func TestDecodeBounded(t *testing.T) {
	for _, body := range [][]byte{
		[]byte(`{"obstacles": [` + strings.Repeat(`{"x": 1, "y": 2, "z": 3, "fill": 0.5},`, 50000) + `{}]}`),
		[]byte(`{"x": ` + strings.Repeat(`[`, 64) + strings.Repeat(`]`, 64) + `}`),
		[]byte(`{"x": "` + strings.Repeat(`\u00e9`, 200000) + `"}`),
		[]byte(strings.Repeat(`[`, 1<<20)),
	} {
		_, err := DecodeRequest(body)
		if err != nil && Internal(err) {
			t.Fatal(err)
		}
	}
}

// equalFold must be strings.EqualFold for the range words.
func TestEqualFold(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	const runes = "sSſeElLfFtToOuUcChHkKK \x00é"
	pool := []rune(runes)
	for _, word := range []string{"self", "touch"} {
		cases := []string{"", word, strings.ToUpper(word), "ſelf", "SELF", "ſELF", "self ", "sel", "selff", "\xffself", "touc\xff"}
		for i := 0; i < 200000; i++ {
			b := []rune(word)
			if r.IntN(4) == 0 {
				b = b[:r.IntN(len(b)+1)]
			}
			for j := range b {
				if r.IntN(3) == 0 {
					b[j] = pool[r.IntN(len(pool))]
				}
			}
			s := string(b)
			if r.IntN(20) == 0 {
				s += string(pool[r.IntN(len(pool))])
			}
			cases = append(cases, s)
		}
		for _, s := range cases {
			if got, want := equalFold(s, word), strings.EqualFold(s, word); got != want {
				t.Fatalf("equalFold(%q, %q) = %v, strings.EqualFold %v", s, word, got, want)
			}
		}
	}
}

// TestErrorsEchoLittle: an error answer does not echo a request's long text. A map key is cut
// past 64 bytes in field and message (a 1 MiB resolve.defence key of U+2028, each written
// \u2028, answered 4.9 MB), and a duplicate token id is named by its length (the engine's
// messages). Each answer is held to 2 KiB, whatever the body's size.
func TestErrorsEchoLittle(t *testing.T) {
	const n = 200000
	for _, c := range []struct {
		name, body, field string
	}{
		{"a long defence key", `{"template":"Cir1","origin":{"x":0,"y":0},"resolve":{"stat":1,"defence":{"` + strings.Repeat("\u2028", n) + `":"x"}}}`, `resolve.defence["` + strings.Repeat(`\u2028`, 21) + `…"]`},
		{"a long key of quotes", `{"template":"Cir1","origin":{"x":0,"y":0},"resolve":{"stat":1,"defence":{"` + strings.Repeat(`\"`, n) + `":"x"}}}`, `resolve.defence["` + strings.Repeat(`\"`, 64) + `…"]`},
		{"a long duplicate id", `{"template":"Cir1","origin":{"x":0,"y":0},"tokens":[{"id":"` + strings.Repeat("a", n) + `","x":0,"y":0},{"id":"` + strings.Repeat("a", n) + `","x":1,"y":0}]}`, "tokens[1].id"},
		{"a long id, the caster's", `{"template":"Cir1","origin":{"x":0,"y":0},"caster":{"id":"` + strings.Repeat("é", n) + `","x":5,"y":5},"tokens":[{"id":"` + strings.Repeat("é", n) + `","x":1,"y":0}]}`, "tokens[0].id"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := Evaluate([]byte(c.body))
			if err == nil {
				t.Fatalf("answered %.200s", out)
			}
			answer := Error(err)
			if len(answer) > 2048 { // 64 bytes shown in field and message, each escaped in the key and again in the answer
				t.Errorf("a %d-byte body answered a %d-byte error: %.300s", len(c.body), len(answer), answer)
			}
			if err.Field != c.field || !strings.HasPrefix(err.Message, c.field) {
				t.Errorf("field %q, message %.200q; want field %q", err.Field, err.Message, c.field)
			}
		})
	}
}

// TestEnginesMessagesEchoLittle: the engine's own messages name a long value by its length
// (num.Quote), through every door: an unknown id to remove or push, a cover's duplicate id, and
// the enumerations (metric, rules, cover, trait, a size's name, a facing, a move's kind).
func TestEnginesMessagesEchoLittle(t *testing.T) {
	long := strings.Repeat("\u2028", 200000)
	const tpl = `"template":"Cir1","origin":{"x":0,"y":0}`
	doors := []struct {
		name string
		call func() *engine.Error
	}{
		{"metric", func() *engine.Error {
			_, e := Evaluate([]byte(`{` + tpl + `,"range":3,"caster":{"id":"c","x":0,"y":0},"metric":"` + long + `"}`))
			return e
		}},
		{"rules", func() *engine.Error { _, e := Evaluate([]byte(`{` + tpl + `,"rules":"` + long + `"}`)); return e }},
		{"cover", func() *engine.Error { _, e := Evaluate([]byte(`{` + tpl + `,"cover":"` + long + `"}`)); return e }},
		{"trait", func() *engine.Error {
			_, e := Evaluate([]byte(`{` + tpl + `,"targeting":{"trait":"` + long + `"}}`))
			return e
		}},
		{"size name", func() *engine.Error {
			_, e := Evaluate([]byte(`{` + tpl + `,"tokens":[{"id":"a","x":0,"y":0,"size":"` + long + `"}]}`))
			return e
		}},
		{"facing", func() *engine.Error {
			_, e := Evaluate([]byte(`{` + tpl + `,"caster":{"id":"c","x":0,"y":0,"facing":"` + long + `"}}`))
			return e
		}},
		{"move kind", func() *engine.Error {
			_, e := Move([]byte(`{"kind":"` + long + `","distance":1,"source":{"x":0,"y":0},"target":"a","tokens":[{"id":"a","x":1,"y":0}]}`))
			return e
		}},
		{"move target", func() *engine.Error {
			_, e := Move([]byte(`{"kind":"push","distance":1,"source":{"x":0,"y":0},"target":"` + long + `","tokens":[{"id":"a","x":1,"y":0}]}`))
			return e
		}},
		{"cover ids", func() *engine.Error {
			_, e := Cover([]byte(`{"attack":"melee","attacker":{"id":"` + long + `","x":0,"y":0},"target":{"id":"` + long + `","x":1,"y":0}}`))
			return e
		}},
		{"scene remove", func() *engine.Error {
			s, e := NewScene([]byte(`{}`), nil)
			if e != nil {
				return e
			}
			return s.Update([]byte(`{"remove":["`+long+`"]}`), nil)
		}},
	}
	for _, d := range doors {
		err := d.call()
		if err == nil {
			t.Errorf("%s: no error", d.name)
			continue
		}
		if answer := Error(err); len(answer) > 2048 {
			t.Errorf("%s: a %d-byte error: %.200s", d.name, len(answer), answer)
		}
	}
}
