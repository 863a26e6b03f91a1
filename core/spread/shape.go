// Package spread is the geometry of areas that spread from a point (SPEC §10, §11): D&D 5th
// edition's spheres, cylinders, cones, cubes, lines and emanations, and Pathfinder 2nd edition's
// bursts, cones, emanations and lines. A square is in such an area when the shape covers its
// centre; every test is exact integer arithmetic on the 1/400 lattice of package los (SPEC
// §5.1, §10.1), with 128- and 192-bit products where 64 bits would not hold them.
//
// The package knows shapes, points, directions and distances. The clear path (§10.4), which
// needs the board, and the cover of §10.8 and §11.5 are the engine's.
package spread

import (
	"github.com/aoekit/aoekit/core/internal/num"
)

// Limits on a shape's sizes, in squares (SPEC §8.3): a radius, length, side, width or height.
const MaxSize = 1000

// Rules is a point-origin rule set.
type Rules uint8

// The point-origin rule sets.
const (
	DnD5e Rules = iota + 1 // dnd5e (SPEC §10)
	PF2e                   // pf2e (SPEC §11)
)

// String is the rule set's wire name: "dnd5e" or "pf2e" ("" for none).
func (r Rules) String() string {
	switch r {
	case DnD5e:
		return "dnd5e"
	case PF2e:
		return "pf2e"
	}
	return ""
}

// Kind is a shape's kind.
type Kind uint8

// The shapes. Burst is pf2e's alone; Sphere, Cylinder and Cube are dnd5e's (SPEC §11.3 lends
// cylinders and cubes to pf2e with its distance); Cone, Line and Emanation are both rule
// sets', each by its own definition.
const (
	Sphere Kind = iota + 1
	Cylinder
	Cone
	Cube
	Line
	Emanation
	Burst
)

var kindNames = [...]string{"", "sphere", "cylinder", "cone", "cube", "line", "emanation", "burst"}

// String is the kind's CONTRACT shape name.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return ""
}

// ParseKind reads a CONTRACT shape name.
func ParseKind(s string) (Kind, bool) {
	for i, n := range kindNames {
		if i > 0 && n == s {
			return Kind(i), true
		}
	}
	return 0, false
}

// A Shape is a point-origin template, its sizes in squares (5 ft each, SPEC §10.3).
type Shape struct {
	Rules Rules
	Kind  Kind
	// Size is the radius (sphere, cylinder, emanation, burst), the length (cone, line) or the
	// side (cube).
	Size int
	// Height is a cylinder's height.
	Height int
	// Width is a line's width; 0 means 1 (5 ft).
	Width int
	// Down hangs a cylinder from its top circle (SPEC §10.5).
	Down bool
	// Round bounds a cone by a sphere of its length instead of a flat base (Foundry's round cone).
	Round bool
	// Angle is a dnd5e cone's angle in 1/400 degrees (SPEC §10.5), 400 to 71 600; 0 means the
	// rule book's cone, whose half-angle has tangent ½ (53.13°).
	Angle int
}

// W is the line's width in squares: Width, or 1 when it is 0.
func (s Shape) W() int { return max(s.Width, 1) }

// An Error is a shape that is not valid: Field names the size at fault.
type Error struct {
	Field string
	Msg   string
}

func (e *Error) Error() string { return e.Field + ": " + e.Msg }

// Validate reports a shape that its rule set does not have, or a size outside 1 … MaxSize.
func (s Shape) Validate() error {
	switch {
	case s.Rules != DnD5e && s.Rules != PF2e:
		return &Error{"rules", "expected dnd5e or pf2e"}
	case s.Kind == Burst && s.Rules != PF2e:
		return &Error{"shape", "a burst is pf2e's (dnd5e: a sphere)"}
	case s.Kind == Sphere && s.Rules != DnD5e:
		return &Error{"shape", "a sphere is dnd5e's (pf2e: a burst)"}
	case s.Kind < Sphere || s.Kind > Burst:
		return &Error{"shape", "unknown shape"}
	}
	name := "radius"
	switch s.Kind {
	case Cone, Line:
		name = "length"
	case Cube:
		name = "side"
	}
	if err := checkSize(name, s.Size); err != nil {
		return err
	}
	if s.Kind == Cylinder {
		if err := checkSize("height", s.Height); err != nil {
			return err
		}
	} else if s.Height != 0 {
		return &Error{"height", "only a cylinder has a height"}
	}
	if s.Kind == Line {
		if s.Width != 0 {
			if err := checkSize("width", s.Width); err != nil {
				return err
			}
		}
	} else if s.Width != 0 {
		return &Error{"width", "only a line has a width"}
	}
	if s.Down && s.Kind != Cylinder {
		return &Error{"down", "only a cylinder hangs down"}
	}
	if (s.Round || s.Angle != 0) && s.Kind != Cone {
		return &Error{"base", "only a cone has a base or an angle"}
	}
	if s.Angle != 0 && (s.Angle < 400 || s.Angle > 179*400) {
		return &Error{"angle", "expected 1 … 179 degrees"}
	}
	if s.Angle != 0 && s.Rules == PF2e {
		return &Error{"angle", "a pf2e cone is a quarter circle: it takes no angle"}
	}
	return nil
}

func checkSize(name string, v int) error {
	if v < 1 || v > MaxSize {
		return &Error{name, "expected 1 … " + num.Itoa(MaxSize) + " squares, got " + num.Itoa(v)}
	}
	return nil
}

// String is the canonical notation (SPEC §10.3), in feet, in the form a spell's text uses:
// "20-foot-radius sphere", "10-foot-radius, 40-foot-high cylinder", "15-foot cone",
// "10-foot cube", "60-foot line" (with " 10 feet wide" when the width is not 5 ft),
// "10-foot emanation", "20-foot burst". A cylinder hung down, a round cone and a cone's angle
// have no notation: they are fields of the template object.
func (s Shape) String() string {
	ft := func(n int) string { return num.Itoa(5*n) + "-foot" }
	switch s.Kind {
	case Sphere:
		return ft(s.Size) + "-radius sphere"
	case Cylinder:
		return ft(s.Size) + "-radius, " + ft(s.Height) + "-high cylinder"
	case Line:
		if s.W() != 1 {
			return ft(s.Size) + " line " + num.Itoa(5*s.W()) + " feet wide"
		}
	}
	return ft(s.Size) + " " + s.Kind.String()
}
