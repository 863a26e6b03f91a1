package template

import (
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/internal/num"
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
	return " within " + num.Itoa(d)
}

func validWithin(d int) error {
	if d == 0 {
		return nil
	}
	return checkDim("within", d, MaxDim)
}

// auraSpace is the caster's space c widened by r on every side.
func auraSpace(r int, c grid.Space) grid.Space {
	return grid.Space{Anchor: c.Min().Add(grid.Cell{X: -r, Y: -r, Z: -r}), Size: max(c.Size, 1) + 2*r, Height: max(c.Height, 1) + 2*r}
}

func (Aura) Rules() Rules                                { return DrawSteel }
func (Aura) Kind() string                                { return "aura" }
func (a Aura) String() string                            { return num.Itoa(a.Radius) + " aura" }
func (a Aura) Validate() error                           { return checkDim("radius", a.Radius, MaxDim) }
func (a Aura) Count(p Placement) int                     { return auraSpace(a.Radius, p.Caster).Count() }
func (a Aura) Cells(p Placement, visit func(grid.Cell))  { auraSpace(a.Radius, p.Caster).Cells(visit) }
func (Burst) Rules() Rules                               { return DrawSteel }
func (Burst) Kind() string                               { return "burst" }
func (b Burst) String() string                           { return num.Itoa(b.Radius) + " burst" }
func (b Burst) Validate() error                          { return checkDim("radius", b.Radius, MaxDim) }
func (b Burst) Count(p Placement) int                    { return auraSpace(b.Radius, p.Caster).Count() }
func (b Burst) Cells(p Placement, visit func(grid.Cell)) { auraSpace(b.Radius, p.Caster).Cells(visit) }

func (Cube) Rules() Rules     { return DrawSteel }
func (Cube) Kind() string     { return "cube" }
func (c Cube) String() string { return num.Itoa(c.Side) + " cube" + withinSuffix(c.Within) }
func (c Cube) Validate() error {
	if err := checkDim("side", c.Side, MaxDim); err != nil {
		return err
	}
	return validWithin(c.Within)
}
func (c Cube) Count(Placement) int { return c.Side * c.Side * c.Side }
func (c Cube) Cells(p Placement, visit func(grid.Cell)) {
	c.Space(p.Origin).Cells(visit)
}

// Space is the cube's cells with its north-west, lowest cell at anchor.
func (c Cube) Space(anchor grid.Cell) grid.Space {
	return grid.Space{Anchor: anchor, Size: c.Side, Height: c.Side}
}

// OriginSquare is the cube's cell nearest the caster's space, ties broken by lowest z, then y,
// then x (SPEC §3.4), for a cube whose north-west-lowest cell is anchor.
func (c Cube) OriginSquare(anchor grid.Cell, caster grid.Space) grid.Cell {
	cube := c.Space(anchor)
	nearest := cube.Dist(caster)
	// A cell is at distance nearest exactly when each of its coordinates is within nearest of
	// the caster's range on that axis, so the lowest z, then y, then x is the lowest value of
	// each axis that is (there is one on every axis, as nearest is at least each axis's gap).
	lo := caster.Min()
	return grid.Cell{
		X: max(anchor.X, lo.X-nearest),
		Y: max(anchor.Y, lo.Y-nearest),
		Z: max(anchor.Z, lo.Z-nearest),
	}
}

func (DSLine) Rules() Rules { return DrawSteel }
func (DSLine) Kind() string { return "line" }
func (l DSLine) W() int     { return max(l.Width, 1) }
func (l DSLine) String() string {
	return num.Itoa(l.Length) + " x " + num.Itoa(l.W()) + " line" + withinSuffix(l.Within)
}
func (l DSLine) Validate() error {
	if err := checkDim("length", l.Length, MaxDim); err != nil {
		return err
	}
	if l.Width != 0 { // 0 means 1; a negative width is an error, as for Line
		if err := checkDim("width", l.Width, MaxDim); err != nil {
			return err
		}
	}
	return validWithin(l.Within)
}
func (l DSLine) Count(p Placement) int {
	squares := p.Path
	if len(squares) == 0 {
		if p.Aim == p.Origin {
			return 0 // Cells visits nothing
		}
		return l.Length * l.W() * l.W()
	}
	across, up := l.crossSection(p)
	n := 0
	for i, c := range squares {
		n += l.W() * l.W()
		if i > 0 {
			n -= l.overlap(c.Sub(squares[i-1]), across, up)
		}
	}
	return n
}

// crossSection returns the unit offsets along which a square of the line is widened (S(Width),
// "right" of the travel) and stacked (the §2.8 levels). The travel is from the first square
// of p.Path to its last, or from p.Origin toward p.Aim; a one-square path travels toward the
// caster's facing. Travelling mainly east–west or north–south (x before y before z on a tie,
// as in Squares), "right" is south for east, north for west, east for north, west for south,
// and the stack is vertical. Travelling mainly up or down, the square is widened east–west as
// if travelling north and stacked north–south, so that the squares do not overlap.
func (l DSLine) crossSection(p Placement) (across, up grid.Cell) {
	d := p.Aim.Sub(p.Origin)
	if len(p.Path) > 0 {
		d = p.Path[len(p.Path)-1].Sub(p.Path[0])
	}
	if d == (grid.Cell{}) {
		d = p.Facing.Offset()
	}
	switch {
	case num.Abs(d.X) >= num.Abs(d.Y) && num.Abs(d.X) >= num.Abs(d.Z) && d.X != 0:
		return grid.Cell{Y: sign(d.X)}, grid.Cell{Z: 1}
	case num.Abs(d.Y) >= num.Abs(d.Z) && d.Y != 0:
		return grid.Cell{X: -sign(d.Y)}, grid.Cell{Z: 1}
	}
	return grid.Cell{X: 1}, grid.Cell{Y: 1}
}

// overlap is the number of cells the cross-sections of two squares off apart share.
func (l DSLine) overlap(off, across, up grid.Cell) int {
	a, b := dot3(off, across), dot3(off, up)
	rest := grid.Cell{X: off.X - a*across.X - b*up.X, Y: off.Y - a*across.Y - b*up.Y, Z: off.Z - a*across.Z - b*up.Z}
	if rest != (grid.Cell{}) {
		return 0
	}
	return max(0, l.W()-num.Abs(a)) * max(0, l.W()-num.Abs(b))
}

func dot3(a, b grid.Cell) int { return a.X*b.X + a.Y*b.Y + a.Z*b.Z }

// Cells visits the line: p.Path when given (validated by the caller with Straight), otherwise
// the digital straight line of SPEC §3.5 from p.Origin toward p.Aim (see Squares). Each square
// is widened by S(Width) to the right of the travel and stacked Width high (SPEC §2.8), as
// crossSection says. A cell the previous square already covered (a path may step sideways) is
// not visited again. Nothing is visited when the aim is the origin.
func (l DSLine) Cells(p Placement, visit func(grid.Cell)) {
	squares := p.Path
	if len(squares) == 0 {
		squares = l.Squares(p.Origin, p.Aim)
	}
	if len(squares) == 0 {
		return
	}
	across, up := l.crossSection(p)
	s0, s1 := band(l.W())
	t0, t1 := levels(0, l.W())
	for i, c := range squares {
		// Only a square whose cross-section meets the previous one's (a sideways step of a
		// path) can repeat cells; decided once a square, not once a cell.
		shared := i > 0 && l.overlap(c.Sub(squares[i-1]), across, up) > 0
		for t := t0; t <= t1; t++ {
			for s := s0; s <= s1; s++ {
				cell := grid.Cell{X: c.X + s*across.X + t*up.X, Y: c.Y + s*across.Y + t*up.Y, Z: c.Z + s*across.Z + t*up.Z}
				// In a straight path (SPEC §3.7) the squares sharing a cross-section plane are
				// consecutive, and a square's cross-section meets those of the earlier ones
				// only where it meets the previous one's.
				if shared && l.covers(squares[i-1], cell, across, up, s0, s1, t0, t1) {
					continue
				}
				visit(cell)
			}
		}
	}
}

// covers reports whether cell lies in the cross-section of square c.
func (l DSLine) covers(c, cell, across, up grid.Cell, s0, s1, t0, t1 int) bool {
	off := cell.Sub(c)
	a, b := dot3(off, across), dot3(off, up)
	rest := grid.Cell{X: off.X - a*across.X - b*up.X, Y: off.Y - a*across.Y - b*up.Y, Z: off.Z - a*across.Z - b*up.Z}
	return rest == (grid.Cell{}) && s0 <= a && a <= s1 && t0 <= b && b <= t1
}

// Squares is the digital straight line of SPEC §3.5: Length squares from origin, one per step
// along the axis of greatest travel toward aim (x before y before z on a tie), each the square
// whose centre is nearest the segment between the centres of origin and aim (extended past
// aim), ties rounding toward aim (away from the origin). With two minor axes (a line that also
// climbs) nearest is taken on each minor axis separately, in its plane with the major axis:
// the cell nearest the 3-D segment would not always make a straight line (SPEC §3.7). It is
// nil when aim is origin.
func (l DSLine) Squares(origin, aim grid.Cell) []grid.Cell {
	d := aim.Sub(origin)
	ax := [3]int{d.X, d.Y, d.Z}
	m := 0
	for i := 1; i < 3; i++ {
		if num.Abs(ax[i]) > num.Abs(ax[m]) {
			m = i
		}
	}
	if ax[m] == 0 {
		return nil
	}
	major := num.Abs(ax[m])
	out := make([]grid.Cell, 0, l.Length)
	for i := 0; i < l.Length; i++ {
		var off [3]int
		for k := 0; k < 3; k++ {
			if k == m {
				off[k] = i * sign(ax[k])
				continue
			}
			q := i * num.Abs(ax[k])
			off[k] = sign(ax[k]) * ((2*q + major) / (2 * major))
		}
		out = append(out, origin.Add(grid.Cell{X: off[0], Y: off[1], Z: off[2]}))
	}
	return out
}

func (Wall) Rules() Rules     { return DrawSteel }
func (Wall) Kind() string     { return "wall" }
func (w Wall) String() string { return num.Itoa(w.Squares) + " wall" + withinSuffix(w.Within) }
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

func sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}
