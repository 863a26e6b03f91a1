package engine

import (
	"strings"

	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/internal/num"
	"github.com/aoekit/aoekit/core/notation"
	"github.com/aoekit/aoekit/core/template"
)

// Parse reads template notation (SPEC §2.2, §3.8, §4) into its CONTRACT form.
func Parse(text string) (Template, error) {
	s, err := parseShape(text)
	if err != nil {
		return Template{}, err
	}
	t := templateOf(s)
	t.Text = text
	return t, nil
}

// parseShape reads template notation; its errors are bad_notation.
func parseShape(text string) (template.Shape, *Error) {
	s, err := notation.Parse(text)
	if err != nil {
		if e, ok := pointNotationHint(text); ok {
			return nil, e
		}
		// A type assertion, not errors.As: it keeps reflect out of the wasm module.
		if se, ok := err.(*notation.SyntaxError); ok {
			return nil, &Error{Code: CodeBadNotation, Message: se.Error(), At: se.Pos}
		}
		return nil, &Error{Code: CodeBadNotation, Message: err.Error()}
	}
	return s, nil
}

// fieldShape is parseShape for the notation text of a request's field: its errors name the
// field (their messages start with the text, which Parse's errors are about).
func fieldShape(field, text string) (template.Shape, *Error) {
	s, err := parseShape(text)
	if err != nil && err.Code == CodeBadNotation { // (a point-origin hint names "rules")
		err.Field = field
	}
	return s, err
}

// templateOf is the CONTRACT form of a shape.
func templateOf(s template.Shape) Template {
	t := Template{Notation: s.String(), Rules: Rules(s.Rules().String()), Shape: s.Kind()}
	switch v := s.(type) {
	case template.Circle:
		t.Radius, t.Height = v.Radius, v.EffectiveHeight()
	case template.Cone:
		t.Length, t.Direction, t.Height = v.Length, v.Dir.String(), v.EffectiveHeight()
	case template.Line:
		t.Length, t.Direction, t.Width, t.Height = v.Length, v.Dir.String(), v.W(), v.EffectiveHeight()
	case template.Rect:
		t.Width, t.Length, t.Height = v.Width, v.Length, v.EffectiveHeight()
	case template.Aura:
		t.Radius = v.Radius
	case template.Burst:
		t.Radius = v.Radius
	case template.Cube:
		t.Side, t.Within = v.Side, v.Within
	case template.DSLine:
		t.Length, t.Width, t.Within = v.Length, v.W(), v.Within
	case template.Wall:
		t.Squares, t.Within = v.Squares, v.Within
	case template.Circle50:
		c := v.Close
		t.Size, t.Close = v.Size, &c
	}
	return t
}

// shapeOf builds the shape a request's template names: notation text, or an object with
// "shape" and its fields (falling back to its "notation" or "text" when it has no "shape").
func shapeOf(ref TemplateRef) (template.Shape, *Error) {
	if ref.Object == nil {
		if strings.TrimSpace(ref.Text) == "" {
			return nil, newError(CodeBadRequest, "template is required: notation text such as \"Cir3\" or a template object")
		}
		return fieldShape("template", ref.Text)
	}
	o := ref.Object
	if o.Shape == "" {
		if o.Notation != "" {
			return fieldShape("template.notation", o.Notation)
		}
		if o.Text == "" {
			return nil, newError(CodeBadRequest, "template: an object needs \"shape\" or \"notation\"")
		}
		return fieldShape("template.text", o.Text)
	}
	rules := string(o.Rules)
	if rules == "" {
		rules = string(RulesTDGS)
	}
	dir := func() (grid.Dir, *Error) { return dirOf("template.direction", o.Direction) }
	var s template.Shape
	switch rules + "/" + o.Shape {
	case "tdgs/circle":
		s = template.Circle{Radius: o.Radius, Height: o.Height}
	case "tdgs/cone":
		d, err := dir()
		if err != nil {
			return nil, err
		}
		s = template.Cone{Length: o.Length, Dir: d, Height: o.Height}
	case "tdgs/line":
		d, err := dir()
		if err != nil {
			return nil, err
		}
		s = template.Line{Length: o.Length, Dir: d, Width: o.Width, Height: o.Height}
	case "tdgs/rectangle":
		s = template.Rect{Width: o.Width, Length: o.Length, Height: o.Height}
	case "drawsteel/aura":
		s = template.Aura{Radius: o.Radius}
	case "drawsteel/burst":
		s = template.Burst{Radius: o.Radius}
	case "drawsteel/cube":
		s = template.Cube{Side: o.Side, Within: o.Within}
	case "drawsteel/line":
		s = template.DSLine{Length: o.Length, Width: o.Width, Within: o.Within}
	case "drawsteel/wall":
		s = template.Wall{Squares: o.Squares, Within: o.Within}
	case "circle50/circle":
		s = template.Circle50{Size: o.Size, Close: o.Close != nil && *o.Close}
	default:
		return nil, newError(CodeBadRequest, "template: unknown shape "+num.Quote(o.Shape)+" for rules "+num.Quote(rules))
	}
	if err := s.Validate(); err != nil {
		return nil, templateError("template", err)
	}
	return s, nil
}

// templateError turns a core/template error into a CONTRACT error.
func templateError(where string, err error) *Error {
	code := CodeBadRequest
	if te, ok := err.(*template.Error); ok { // not errors.Is: see parseShape
		switch te.Kind {
		case template.ErrTooLarge:
			code = CodeTooLarge
		case template.ErrNotStraight:
			code = CodeNotStraight
		case template.ErrInvalidWall:
			code = CodeInvalidWall
		}
	}
	return newError(code, where+": "+err.Error())
}
