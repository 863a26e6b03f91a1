package engine

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/fullattack"
)

// TestRequestFields: FieldOf's top-level names are exactly the json names of every request's
// fields, so a field added to a request is one an error can name.
func TestRequestFields(t *testing.T) {
	var want []string
	for _, v := range []any{Request{}, MoveRequest{}, CoverRequest{}, SceneEdit{}, Board{}, fullattack.Request{}} {
		ty := reflect.TypeOf(v)
		for i := range ty.NumField() {
			name, _, _ := strings.Cut(ty.Field(i).Tag.Get("json"), ",")
			if name != "" && name != "-" && !slices.Contains(want, name) {
				want = append(want, name)
			}
		}
	}
	slices.Sort(want)
	got := slices.Clone(requestFields[:])
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("requestFields = %v\nthe requests' json names are %v", got, want)
	}
}

// TestFieldOf: the path a message starts with, by the grammar of CONTRACT's Errors section (a
// request field's name, then .name, [i] and ["key"]; ended by ": ", " is ", " (" or " [").
func TestFieldOf(t *testing.T) {
	for _, c := range []struct{ msg, want string }{
		{"tokens[1].x: expected an integer, got a string", "tokens[1].x"},
		{"walls[0].a[1]: past ±1000000", "walls[0].a[1]"},
		{`holding["main"]: expected an item object`, `holding["main"]`},
		{`holding["a\"]b"].kind: expected a string`, `holding["a\"]b"].kind`},
		{"caster is required for a cone", "caster"},
		{"origin [9, 9, 0] is 8 squares from the caster; the range is 6", "origin"},
		{"obstacles (packed): 3 bytes", "obstacles"},
		{"steps[12]: the primary sequence", "steps[12]"},
		{"targeting.excludeCells: past the limit", "targeting.excludeCells"},
		// No field: not a request's field, no path, or a path not ended as the grammar says.
		{"request is required", ""},
		{"request: expected an object, got an array", ""},
		{"the caster has no line of effect to the origin square [4, 0, 0]", ""},
		{"malformed JSON at byte 3: expected a value", ""},
		{"internal error: panic", ""},
		{"cancelled: context canceled", ""},
		{"Con4: a cone needs a direction", ""},
		{"tokens", ""},
		{"tokens[", ""},
		{"tokens[]: x", ""},
		{"tokens[1: x", ""},
		{"tokens.: x", ""},
		{`holding["main: x`, ""},
		{"tokens[1]x: y", ""},
		{"rangefinder: x", ""},
		{"", ""},
	} {
		if got := FieldOf(c.msg); got != c.want {
			t.Errorf("FieldOf(%q) = %q, want %q", c.msg, got, c.want)
		}
	}
}

// TestErrorField: errors of whole requests name the field at fault; errors about no one field,
// and Parse's notation errors, name none.
func TestErrorField(t *testing.T) {
	origin := &Pos{X: 5, Y: 5}
	for _, c := range []struct {
		name string
		req  Request
		want string
	}{
		{"bad notation", Request{Template: TemplateRef{Text: "Con4"}, Origin: origin}, "template"},
		{"bad notation in an object", Request{Template: TemplateRef{Object: &Template{Notation: "Cir"}}, Origin: origin}, "template.notation"},
		{"no template", Request{Origin: origin}, "template"},
		{"a token's id twice", Request{Template: TemplateRef{Text: "Cir1"}, Origin: origin,
			Tokens: []Token{{ID: "a"}, {ID: "b"}, {ID: "a"}}}, "tokens[2].id"},
		{"a wall of one point", Request{Template: TemplateRef{Text: "Cir1"}, Origin: origin,
			Walls: []Wall{{A: [2]float64{1, 1}, B: [2]float64{2, 2}}, {A: [2]float64{3, 1}, B: [2]float64{3, 1}}}}, "walls[1]"},
		{"a fill past 1", Request{Template: TemplateRef{Text: "Cir1"}, Origin: origin,
			Obstacles: []Obstacle{{X: 1, Fill: 0.5}, {X: 2, Fill: 2}}}, "obstacles[1].fill"},
		{"a cone without its caster", Request{Template: TemplateRef{Text: "Con3N"}}, "caster"},
		// CONTRACT range: 0 … 1000, held to it without a caster too (nothing then measures it).
		{"a range past its limit, no caster", Request{Template: TemplateRef{Text: "Cir1"}, Origin: origin,
			Range: Range{Kind: RangeSquares, Squares: 1001}}, "range"},
		{"a negative range, no caster", Request{Template: TemplateRef{Text: "Cir1"}, Origin: origin,
			Range: Range{Kind: RangeSquares, Squares: -1}}, "range"},
		{"out of range", Request{Template: TemplateRef{Text: "Cir1"}, Origin: &Pos{X: 30},
			Caster: &Token{ID: "c"}, Range: Range{Kind: RangeSquares, Squares: 5}}, "origin"},
		{"no line of effect to the origin", Request{Template: TemplateRef{Text: "3 cube within 10"}, Origin: &Pos{X: 4},
			Caster: &Token{ID: "c"}, Obstacles: []Obstacle{{X: 2}}}, ""},
	} {
		_, err := Evaluate(&c.req)
		e, ok := err.(*Error)
		if !ok {
			t.Errorf("%s: Evaluate = %v, want an *Error", c.name, err)
			continue
		}
		if e.Field != c.want {
			t.Errorf("%s: %s: Field %q, want %q", c.name, e.Message, e.Field, c.want)
		}
		if !strings.HasPrefix(e.Message, c.want) && e.Code != CodeBadNotation {
			t.Errorf("%s: the message %q does not start with its field %q", c.name, e.Message, c.want)
		}
	}
	if _, err := Parse("Con4"); err.(*Error).Field != "" {
		t.Errorf("Parse(Con4): Field %q, want none (at locates a notation error)", err.(*Error).Field)
	}
}
