package template

import (
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/internal/num"
)

// Circle is TDGS CirR (SPEC §2.3): every cell within Chebyshev distance Radius of the origin,
// which is affected, Height levels tall (SPEC §2.8; 0 means the default, Radius).
type Circle struct{ Radius, Height int }

// Cone is TDGS ConL DIR (SPEC §2.4–§2.5): Dir is relative to the caster's facing; the caster's
// cell is not affected. Height 0 means the default, Length.
type Cone struct {
	Length int
	Dir    grid.Dir
	Height int
}

// Line is TDGS LinL DIR wW (SPEC §2.6): Length × Width cells, Dir relative to the caster's
// facing, the caster's cell not affected. Width 0 means 1; Height 0 means the default, Length.
type Line struct {
	Length int
	Dir    grid.Dir
	Width  int
	Height int
}

// Rect is TDGS RecWxL (SPEC §2.7): Width east–west by Length north–south from its anchor, the
// south-west corner, which is affected. Height 0 means the default, max(Width, Length).
type Rect struct{ Width, Length, Height int }

var (
	_ Shape = Circle{}
	_ Shape = Cone{}
	_ Shape = Line{}
	_ Shape = Rect{}
)

func heightOr(h, def int) int {
	if h < 1 {
		return def
	}
	return h
}

func heightSuffix(h, def int) string {
	if h < 1 || h == def {
		return ""
	}
	return "h" + num.Itoa(h)
}

func validHeight(h int) error {
	if h == 0 {
		return nil
	}
	return checkDim("height", h, MaxHeight)
}

// --- Circle

func (Circle) Rules() Rules { return TDGS }
func (Circle) Kind() string { return "circle" }

// EffectiveHeight is the number of levels the circle covers (SPEC §2.8): Height, or the
// default, Radius, when Height is 0.
func (c Circle) EffectiveHeight() int { return heightOr(c.Height, c.Radius) }

func (c Circle) String() string {
	return "Cir" + num.Itoa(c.Radius) + heightSuffix(c.Height, c.Radius)
}
func (c Circle) Validate() error {
	if err := checkDim("radius", c.Radius, MaxDim); err != nil {
		return err
	}
	return validHeight(c.Height)
}
func (c Circle) Count(Placement) int {
	return (2*c.Radius + 1) * (2*c.Radius + 1) * c.EffectiveHeight()
}
func (c Circle) Cells(p Placement, visit func(grid.Cell)) { c.space(p).Cells(visit) }

// space is the block of cells the circle covers: a square of 2·Radius + 1 around the origin,
// on its levels.
func (c Circle) space(p Placement) grid.Space {
	z0, _ := levels(p.Origin.Z, c.EffectiveHeight())
	o, r := p.Origin, c.Radius
	return grid.Space{Anchor: grid.Cell{X: o.X - r, Y: o.Y - r, Z: z0}, Size: 2*r + 1, Height: c.EffectiveHeight()}
}

// --- Cone

func (Cone) Rules() Rules { return TDGS }
func (Cone) Kind() string { return "cone" }

// EffectiveHeight is the number of levels the cone covers (SPEC §2.8): Height, or the default,
// Length, when Height is 0.
func (c Cone) EffectiveHeight() int { return heightOr(c.Height, c.Length) }

func (c Cone) String() string {
	return "Con" + num.Itoa(c.Length) + c.Dir.String() + heightSuffix(c.Height, c.Length)
}
func (c Cone) Validate() error {
	if err := checkDim("length", c.Length, MaxDim); err != nil {
		return err
	}
	if !c.Dir.Valid() {
		return errorf(ErrInvalid, "a cone needs a direction")
	}
	return validHeight(c.Height)
}
func (c Cone) Count(p Placement) int {
	l := c.Length
	if c.Dir.Abs(p.Facing).Diagonal() {
		return l * (l + 1) / 2 * c.EffectiveHeight()
	}
	return l * l * c.EffectiveHeight()
}

// Cells visits the cone toward the absolute direction Dir.Abs(p.Facing) from p.Origin.
func (c Cone) Cells(p Placement, visit func(grid.Cell)) {
	d := c.Dir.Abs(p.Facing)
	k := int(d) / 2 // quarter turns from N (cardinal) or from NE (diagonal)
	z0, z1 := levels(p.Origin.Z, c.EffectiveHeight())
	l := c.Length
	for z := z0; z <= z1; z++ {
		base := grid.Cell{X: p.Origin.X, Y: p.Origin.Y, Z: z}
		if d.Diagonal() {
			for i := 1; i <= l; i++ {
				for j := 1; i+j <= l+1; j++ {
					visit(base.Add(grid.Cell{X: i, Y: -j}.Rot90(k)))
				}
			}
			continue
		}
		for dd := 1; dd <= l; dd++ {
			for s := -(dd - 1); s <= dd-1; s++ {
				visit(base.Add(grid.Cell{X: s, Y: -dd}.Rot90(k)))
			}
		}
	}
}

// --- Line

func (Line) Rules() Rules { return TDGS }
func (Line) Kind() string { return "line" }

// EffectiveHeight is the number of levels the line covers (SPEC §2.8): Height, or the default,
// Length, when Height is 0.
func (l Line) EffectiveHeight() int { return heightOr(l.Height, l.Length) }

// W is the width, 1 when unset.
func (l Line) W() int { return max(l.Width, 1) }
func (l Line) String() string {
	s := "Lin" + num.Itoa(l.Length) + l.Dir.String()
	if l.W() != 1 {
		s += "w" + num.Itoa(l.W())
	}
	return s + heightSuffix(l.Height, l.Length)
}
func (l Line) Validate() error {
	if err := checkDim("length", l.Length, MaxDim); err != nil {
		return err
	}
	if !l.Dir.Valid() {
		return errorf(ErrInvalid, "a line needs a direction")
	}
	if l.Width != 0 {
		if err := checkDim("width", l.Width, MaxDim); err != nil {
			return err
		}
	}
	return validHeight(l.Height)
}
func (l Line) Count(Placement) int { return l.Length * l.W() * l.EffectiveHeight() }

// Cells visits the line toward the absolute direction Dir.Abs(p.Facing) from p.Origin.
func (l Line) Cells(p Placement, visit func(grid.Cell)) {
	d := l.Dir.Abs(p.Facing)
	k := int(d) / 2
	z0, z1 := levels(p.Origin.Z, l.EffectiveHeight())
	s0, s1 := band(l.W())
	n := l.Length
	for z := z0; z <= z1; z++ {
		base := grid.Cell{X: p.Origin.X, Y: p.Origin.Y, Z: z}
		for s := s0; s <= s1; s++ {
			if d.Diagonal() {
				// i − j = s with 1 ≤ max(i, j) ≤ n (SPEC §2.6 [ruling]).
				for m := 1; m <= n; m++ {
					i, j := m, m-s
					if s < 0 {
						i, j = m+s, m
					}
					visit(base.Add(grid.Cell{X: i, Y: -j}.Rot90(k)))
				}
				continue
			}
			for dd := 1; dd <= n; dd++ {
				visit(base.Add(grid.Cell{X: s, Y: -dd}.Rot90(k)))
			}
		}
	}
}

// --- Rect

func (Rect) Rules() Rules { return TDGS }
func (Rect) Kind() string { return "rectangle" }

// EffectiveHeight is the number of levels the rectangle covers (SPEC §2.8): Height, or the
// default, max(Width, Length), when Height is 0.
func (r Rect) EffectiveHeight() int { return heightOr(r.Height, max(r.Width, r.Length)) }

func (r Rect) String() string {
	return "Rec" + num.Itoa(r.Width) + "x" + num.Itoa(r.Length) + heightSuffix(r.Height, max(r.Width, r.Length))
}
func (r Rect) Validate() error {
	if err := checkDim("width", r.Width, MaxDim); err != nil {
		return err
	}
	if err := checkDim("length", r.Length, MaxDim); err != nil {
		return err
	}
	return validHeight(r.Height)
}
func (r Rect) Count(Placement) int { return r.Width * r.Length * r.EffectiveHeight() }

// Cells visits the rectangle from its anchor p.Origin, turned by p.Orientation (N, E, S or W;
// a diagonal orientation is rounded down to the cardinal before it).
func (r Rect) Cells(p Placement, visit func(grid.Cell)) {
	k := int(p.Orientation) / 2
	z0, z1 := levels(p.Origin.Z, r.EffectiveHeight())
	for z := z0; z <= z1; z++ {
		base := grid.Cell{X: p.Origin.X, Y: p.Origin.Y, Z: z}
		for j := 0; j < r.Length; j++ {
			for i := 0; i < r.Width; i++ {
				visit(base.Add(grid.Cell{X: i, Y: -j}.Rot90(k)))
			}
		}
	}
}
