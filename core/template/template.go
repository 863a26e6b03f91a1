package template

import (
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/internal/num"
)

// Limits on every template dimension and on the cells one template may produce (SPEC §8.3).
const (
	MaxDim    = 1000    // largest radius, length, width, side, square count or range
	MaxHeight = 1000    // largest height
	MaxCells  = 1 << 20 // most cells one placed template may cover
)

// Rules names a rule set (SPEC §6).
type Rules uint8

// The rule sets.
const (
	TDGS Rules = iota
	DrawSteel
	Circle50Rules
)

var rulesNames = [...]string{"tdgs", "drawsteel", "circle50"}

// String returns the rule set's wire name: "tdgs", "drawsteel" or "circle50".
func (r Rules) String() string {
	if int(r) < len(rulesNames) {
		return rulesNames[r]
	}
	return ""
}

// ParseRules reads a rule set's wire name.
func ParseRules(s string) (Rules, bool) {
	for i, n := range rulesNames {
		if n == s {
			return Rules(i), true
		}
	}
	return 0, false
}

// A Placement says where a template is put on the board.
type Placement struct {
	Origin      grid.Cell   // circle centre, rectangle anchor, cone or line source, cube's north-west-lowest cell, Draw Steel line's first square
	Facing      grid.Dir    // the caster's facing; TDGS directions are relative to it (SPEC §1.3)
	Orientation grid.Dir    // a rectangle's turn: N (default), E, S or W
	Caster      grid.Space  // the caster's space: the centre of auras and bursts
	Aim         grid.Cell   // the cell a Draw Steel line points at
	Path        []grid.Cell // explicit squares of a Draw Steel line or wall
}

// A Shape is one template. The set of shapes is closed: the types of this package.
type Shape interface {
	// Rules is the rule set the shape belongs to.
	Rules() Rules
	// Kind is the CONTRACT shape name: circle, cone, line, rectangle, aura, burst, cube, wall.
	Kind() string
	// String is the canonical notation.
	String() string
	// Validate reports a dimension that is zero, negative or past the limits.
	Validate() error
	// Count is the number of cells Cells visits for p, computed without visiting them.
	Count(p Placement) int
	// Cells calls visit once for every cell of the shape placed at p.
	Cells(p Placement, visit func(grid.Cell))
}

// BoxOf is the box the cells of shape s placed at p fill, when they fill one: Cells then
// visits every cell of the box and no other (the TDGS circle, the Draw Steel aura, burst and
// cube). The engine sizes such a shape's cell set without visiting its cells.
func BoxOf(s Shape, p Placement) (b grid.Box, ok bool) {
	switch s := s.(type) {
	case Circle:
		return s.space(p).Box(), true
	case Aura:
		return auraSpace(s.Radius, p.Caster).Box(), true
	case Burst:
		return auraSpace(s.Radius, p.Caster).Box(), true
	case Cube:
		return s.Space(p.Origin).Box(), true
	}
	return b, false
}

// All returns one example of every shape type, for tests that range over the closed set (a new
// slice each time: changing it changes nothing else).
func All() []Shape {
	return []Shape{
		Circle{Radius: 3, Height: 3}, Cone{Length: 4, Dir: grid.NE, Height: 4},
		Line{Length: 5, Dir: grid.S, Width: 2, Height: 5}, Rect{Width: 3, Length: 4, Height: 4},
		Aura{Radius: 3}, Burst{Radius: 2}, Cube{Side: 3, Within: 10},
		DSLine{Length: 5, Width: 1, Within: 1}, Wall{Squares: 10, Within: 10},
		Circle50{Size: 3}, Circle50{Size: 2, Close: true},
	}
}

func checkDim(name string, v, limit int) error {
	if v < 1 {
		return errorf(ErrInvalid, name+" must be at least 1, got "+num.Itoa(v))
	}
	if v > limit {
		return errorf(ErrTooLarge, name+" "+num.Itoa(v)+" is past the limit of "+num.Itoa(limit))
	}
	return nil
}

// CheckCount returns an ErrTooLarge error when n cells are past MaxCells.
func CheckCount(n int) error {
	if n > MaxCells || n < 0 {
		return errorf(ErrTooLarge, "the template covers "+num.Itoa(n)+" cells, past the limit of "+num.Itoa(MaxCells))
	}
	return nil
}

// levels returns the z range of a prism h tall centred on z0, an even height putting its
// extra level above (SPEC §2.8).
func levels(z0, h int) (lo, hi int) {
	h = max(h, 1)
	return z0 - (h-1)/2, z0 + h/2
}

// band returns S(w) of SPEC §2.6: the offsets −⌊(w−1)/2⌋ … ⌈(w−1)/2⌉, an even width
// putting its extra column on the right.
func band(w int) (lo, hi int) {
	w = max(w, 1)
	return -(w - 1) / 2, w / 2
}
