package template

import (
	"strconv"

	"github.com/aoekit/aoekit/core/grid"
)

// Aura is Draw Steel "X aura" (SPEC §3.3): every cell within Radius of the caster's space,
// that space included (3-D Chebyshev). It moves with the caster.
type Aura struct{ Radius int }

// Burst is Draw Steel "X burst" (SPEC §3.3): the cells of an aura, resolved once.
type Burst struct{ Radius int }

// Cube is Draw Steel "X cube within D" (SPEC §3.4): Side × Side × Side cells from the
// north-west-lowest cell p.Origin. Within 0 means no "within".
type Cube struct{ Side, Within int }

// DSLine is Draw Steel "A x B line within D" (SPEC §3.5): Length squares from the origin
// square toward an aim cell, Width wide and Width high. Within 0 means no "within".
type DSLine struct{ Length, Width, Within int }

// Wall is Draw Steel "X wall within D" (SPEC §3.6): Squares face-connected squares given as a
// path. Within 0 means no "within".
type Wall struct{ Squares, Within int }

var (
	_ Shape = Aura{}
	_ Shape = Burst{}
	_ Shape = Cube{}
	_ Shape = DSLine{}
	_ Shape = Wall{}
)

func withinSuffix(d int) string {
	if d < 1 {
		return ""
	}
	return " within " + strconv.Itoa(d)
}

func validWithin(d int) error {
	if d == 0 {
		return nil
	}
	return checkDim("within", d, MaxDim)
}

func auraCount(r int, c grid.Space) int {
	w, h := max(c.Size, 1), max(c.Height, 1)
	return (w + 2*r) * (w + 2*r) * (h + 2*r)
}

func auraCells(r int, c grid.Space, visit func(grid.Cell)) {
	lo, hi := c.Min(), c.Max()
	for z := lo.Z - r; z <= hi.Z+r; z++ {
		for y := lo.Y - r; y <= hi.Y+r; y++ {
			for x := lo.X - r; x <= hi.X+r; x++ {
				visit(grid.Cell{X: x, Y: y, Z: z})
			}
		}
	}
}

func (Aura) Rules() Rules                                { return DrawSteel }
func (Aura) Kind() string                                { return "aura" }
func (a Aura) String() string                            { return strconv.Itoa(a.Radius) + " aura" }
func (a Aura) Validate() error                           { return checkDim("radius", a.Radius, MaxDim) }
func (a Aura) Count(p Placement) int                     { return auraCount(a.Radius, p.Caster) }
func (a Aura) Cells(p Placement, visit func(grid.Cell))  { auraCells(a.Radius, p.Caster, visit) }
func (Burst) Rules() Rules                               { return DrawSteel }
func (Burst) Kind() string                               { return "burst" }
func (b Burst) String() string                           { return strconv.Itoa(b.Radius) + " burst" }
func (b Burst) Validate() error                          { return checkDim("radius", b.Radius, MaxDim) }
func (b Burst) Count(p Placement) int                    { return auraCount(b.Radius, p.Caster) }
func (b Burst) Cells(p Placement, visit func(grid.Cell)) { auraCells(b.Radius, p.Caster, visit) }

func (Cube) Rules() Rules     { return DrawSteel }
func (Cube) Kind() string     { return "cube" }
func (c Cube) String() string { return strconv.Itoa(c.Side) + " cube" + withinSuffix(c.Within) }
func (c Cube) Validate() error {
	if err := checkDim("side", c.Side, MaxDim); err != nil {
		return err
	}
	return validWithin(c.Within)
}
func (c Cube) Count(Placement) int { return c.Side * c.Side * c.Side }
func (c Cube) Cells(p Placement, visit func(grid.Cell)) {
	grid.Space{Anchor: p.Origin, Size: c.Side, Height: c.Side}.Cells(visit)
}

// OriginSquare is the cube's cell nearest the caster's space, ties broken by lowest z, then y,
// then x (SPEC §3.4), for a cube whose north-west-lowest cell is anchor.
func (c Cube) OriginSquare(anchor grid.Cell, caster grid.Space) grid.Cell {
	cube := grid.Space{Anchor: anchor, Size: c.Side, Height: c.Side}
	nearest := cube.Dist(caster)
	found := anchor
	done := false
	cube.Cells(func(cell grid.Cell) { // z, y, x order: the first nearest cell wins the tie
		if !done && caster.DistCell(cell) == nearest {
			found, done = cell, true
		}
	})
	return found
}

func (DSLine) Rules() Rules { return DrawSteel }
func (DSLine) Kind() string { return "line" }
func (l DSLine) W() int     { return max(l.Width, 1) }
func (l DSLine) String() string {
	return strconv.Itoa(l.Length) + " x " + strconv.Itoa(l.W()) + " line" + withinSuffix(l.Within)
}
func (l DSLine) Validate() error {
	if err := checkDim("length", l.Length, MaxDim); err != nil {
		return err
	}
	if err := checkDim("width", l.W(), MaxDim); err != nil {
		return err
	}
	return validWithin(l.Within)
}
func (l DSLine) Count(p Placement) int {
	if len(p.Path) > 0 {
		return len(p.Path) * l.W() * l.W()
	}
	return l.Length * l.W() * l.W()
}

// Cells visits the line: p.Path when given (validated by the caller with Straight), otherwise
// the digital straight line of SPEC §3.5 from p.Origin toward p.Aim (see Squares). Each square
// is widened by S(Width) across the direction of travel and stacked Width high (SPEC §2.8).
// Nothing is visited when the aim is the origin.
func (l DSLine) Cells(p Placement, visit func(grid.Cell)) {
	squares := p.Path
	if len(squares) == 0 {
		squares = l.Squares(p.Origin, p.Aim)
	}
	if len(squares) == 0 {
		return
	}
	d := p.Aim.Sub(p.Origin)
	if len(p.Path) > 0 {
		d = squares[len(squares)-1].Sub(p.Origin)
		if d == (grid.Cell{}) && len(squares) > 1 {
			d = squares[len(squares)-1].Sub(squares[0])
		}
	}
	// "Right" of the travel (SPEC §2.6 S(W)): travelling east it is south; north, east.
	var right grid.Cell
	if abs(d.X) >= abs(d.Y) && d.X != 0 {
		right = grid.Cell{Y: sign(d.X)}
	} else if d.Y != 0 {
		right = grid.Cell{X: -sign(d.Y)}
	} else {
		right = grid.Cell{X: 1}
	}
	s0, s1 := band(l.W())
	for _, c := range squares {
		z0, z1 := levels(c.Z, l.W())
		for z := z0; z <= z1; z++ {
			for s := s0; s <= s1; s++ {
				visit(grid.Cell{X: c.X + s*right.X, Y: c.Y + s*right.Y, Z: z})
			}
		}
	}
}

// Squares is the digital straight line of SPEC §3.5: Length squares from origin, one per step
// along the axis of greatest travel toward aim, each the square whose centre is nearest the
// segment between the centres of origin and aim (extended past aim), ties rounding toward
// aim. It is nil when aim is origin.
func (l DSLine) Squares(origin, aim grid.Cell) []grid.Cell {
	d := aim.Sub(origin)
	ax := [3]int{d.X, d.Y, d.Z}
	m := 0
	for i := 1; i < 3; i++ {
		if abs(ax[i]) > abs(ax[m]) {
			m = i
		}
	}
	if ax[m] == 0 {
		return nil
	}
	major := abs(ax[m])
	out := make([]grid.Cell, 0, l.Length)
	for i := 0; i < l.Length; i++ {
		var off [3]int
		for k := 0; k < 3; k++ {
			if k == m {
				off[k] = i * sign(ax[k])
				continue
			}
			q := i * abs(ax[k])
			off[k] = sign(ax[k]) * ((2*q + major) / (2 * major))
		}
		out = append(out, origin.Add(grid.Cell{X: off[0], Y: off[1], Z: off[2]}))
	}
	return out
}

func (Wall) Rules() Rules     { return DrawSteel }
func (Wall) Kind() string     { return "wall" }
func (w Wall) String() string { return strconv.Itoa(w.Squares) + " wall" + withinSuffix(w.Within) }
func (w Wall) Validate() error {
	if err := checkDim("squares", w.Squares, MaxDim); err != nil {
		return err
	}
	return validWithin(w.Within)
}
func (w Wall) Count(p Placement) int { return len(p.Path) }

// Cells visits the wall's squares, p.Path (validated by the caller with FaceConnected).
func (w Wall) Cells(p Placement, visit func(grid.Cell)) {
	for _, c := range p.Path {
		visit(c)
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}
