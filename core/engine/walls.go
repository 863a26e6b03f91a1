package engine

import (
	"math"
	"math/bits"
	"strconv"

	"github.com/aoekit/aoekit/core/board"
	"github.com/aoekit/aoekit/core/decimal"
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/internal/num"
	"github.com/aoekit/aoekit/core/los"
	"github.com/aoekit/aoekit/core/walls"
)

// A wall's coordinates and heights are rounded to the lattice as a fill is (SPEC §5.1): by
// their decimal value, to the nearest 1/400, a tie rounding up (toward +∞: −0.00125 is
// −0.5/400 → 0). coordUnits is that rule for text (the wire's doors), coordOf for a float64
// (the Go library), through the float's shortest decimal.

// coordUnits returns a number written as text, a decimal in JSON's syntax, in 1/400 of a
// square; ok is false when the text is not a number or lies past ±MaxCoord.
//
// The nearest n/400, ties up, is ⌊400x + ½⌋ = ⌊(4F + 500)/1000⌋ for F = 100000x, and that
// changes only where F passes an integer (see fillUnits). F is known from x's first five
// decimals: for x ≥ 0, F lies in [⌊F⌋, ⌊F⌋+1); for x < 0 with more decimals, in
// (−⌊|F|⌋−1, −⌊|F|⌋), where the value is the one at −⌊|F|⌋−1.
func coordUnits(text []byte) (int64, bool) {
	x, ok := decimal.Parse(text)
	if !ok {
		return 0, false
	}
	return roundLattice(x, MaxCoord)
}

// roundLattice is x in 1/400, the nearest, a tie rounding up (as coordUnits says); ok is false
// past ±limit.
func roundLattice(x decimal.Number, limit uint64) (int64, bool) {
	f, exact, small := x.Scaled(5)
	if !small || f > limit*100000 || f == limit*100000 && !exact {
		return 0, false
	}
	v := int64(f)
	if x.Neg {
		v = -v
		if !exact {
			v--
		}
	}
	return floorDiv(4*v+500, 1000), true
}

// ParseCoord reads a wall's coordinate or height written as text and returns the value
// Wall's fields hold for its lattice value n/400: float64(n)/400, which rounds back to n. ok
// is false when the text is not a number or lies past ±MaxCoord.
func ParseCoord(text []byte) (float64, bool) {
	n, ok := coordUnits(text)
	return float64(n) / los.Unit, ok
}

// coordOf is f in 1/400 of a square, rounded by its shortest decimal; ok is false for NaN,
// an infinity or a value past ±MaxCoord. A float64 that is the nearest to some n/400 is
// answered at once, as units does.
func coordOf(f float64) (int64, bool) {
	if t := math.Trunc(f); t == f && math.Abs(f) <= MaxCoord { // a whole square: most walls
		return int64(f * los.Unit), true
	}
	if n := math.Round(f * los.Unit); n/los.Unit == f && math.Abs(n) <= MaxCoord*los.Unit {
		return int64(n), true
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	var buf [32]byte
	return coordUnits(strconv.AppendFloat(buf[:0], f, 'e', -1, 64))
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// checkWalls validates the walls and puts on the lattice those that are closed and may meet
// the box of cells window (all closed walls when window is nil), in request order: no segment
// between points of those cells can meet another wall. It reads each wall once, and most with a
// few comparisons of its floats: on a board of 5 000 walls, putting each on the lattice would
// cost more than a typical evaluation. A wall those comparisons do not vouch for is checked
// exactly by wallOf (every value within ±MaxCoord, so not NaN; the ends more than 1/400 apart on
// an axis, so different once rounded: two values a square's 1/400 or more apart never round
// alike; the bottom more than 1/400 below the top).
func checkWalls(ws []Wall, window *grid.Box) ([]walls.Wall, *Error) {
	if len(ws) > MaxWalls {
		return nil, newError(CodeTooLarge, "walls: "+num.Itoa(len(ws))+" walls, past the limit of "+num.Itoa(MaxWalls))
	}
	const far = 1.0 / 256 // > 1/400, with room for the floats' error
	win := windowOf(window)
	// One pass validates every wall and marks those to put on the lattice; then they are put
	// there, into a slice made to measure.
	var marks [(MaxWalls + 63) / 64]uint64
	in := 0
	for i := range ws {
		w := &ws[i]
		ax, ay, bx, by := w.A[0], w.A[1], w.B[0], w.B[1]
		// Within range, by the sum of the magnitudes (a NaN or an infinity fails the
		// comparison; a wall far out on the board only goes to wallOf), and more than 1/400
		// apart on an axis: if |dx| + |dy| > 2 far, one of them is past far.
		plain := math.Abs(ax)+math.Abs(ay)+math.Abs(bx)+math.Abs(by) <= MaxCoord &&
			math.Abs(ax-bx)+math.Abs(ay-by) > 2*far && (w.Bottom == nil && w.Top == nil || plainHeights(w)) && w.From == ""
		if !plain {
			if _, e := wallOf(label{"walls", i}, w); e != nil {
				return nil, e
			}
		}
		// Marked when closed and its box meets the window.
		if win.meets(w) {
			marks[i/64] |= 1 << (i % 64)
			in++
		}
	}
	if in == 0 {
		return nil, nil
	}
	out := make([]walls.Wall, 0, in)
	for k, m := range marks[:(len(ws)+63)/64] {
		for ; m != 0; m &= m - 1 {
			i := 64*k + bits.TrailingZeros64(m)
			out = append(out, onLattice(&ws[i]))
		}
	}
	return out, nil
}

// A planeBox is a box of the plane in squares: a window's (windowOf) or a wall's ends'
// (boxOfWall).
type planeBox struct{ lx, ly, hx, hy float64 }

// windowOf is the plane box of the box of cells window, widened by a square's 1/100 for
// rounding (a wall whose box does not meet it meets no segment between points of the cells),
// or the whole plane when window is nil.
func windowOf(window *grid.Box) planeBox {
	if window == nil {
		return planeBox{math.Inf(-1), math.Inf(-1), math.Inf(1), math.Inf(1)}
	}
	const slack = 0.01
	return planeBox{float64(window.Min.X) - slack, float64(window.Min.Y) - slack, float64(window.Max.X+1) + slack, float64(window.Max.Y+1) + slack}
}

// meets reports whether w is closed and its box meets the window: checkWalls indexes those.
func (v planeBox) meets(w *Wall) bool { return !w.Open && v.meetsBox(boxOfWall(w)) }

// meetsBox reports whether the box of a wall's ends (boxOfWall) meets the window.
func (v planeBox) meetsBox(b planeBox) bool {
	return b.hx >= v.lx && b.lx <= v.hx && b.hy >= v.ly && b.ly <= v.hy
}

// boxOfWall is the box of w's ends (its coordinates valid: no NaN). Its ends are swapped into
// order rather than taken by Go's float min and max, which order NaN and −0 and cost more than
// the rest of a scene's look at a wall.
func boxOfWall(w *Wall) planeBox {
	b := planeBox{w.A[0], w.A[1], w.B[0], w.B[1]}
	if b.lx > b.hx {
		b.lx, b.hx = b.hx, b.lx
	}
	if b.ly > b.hy {
		b.ly, b.hy = b.hy, b.ly
	}
	return b
}

// onLattice is a valid wall on the lattice (wallOf without the checks).
func onLattice(w *Wall) walls.Wall {
	out := walls.Wall{Bottom: walls.NoBottom, Top: walls.NoTop}
	out.A[0], _ = coordOf(w.A[0])
	out.A[1], _ = coordOf(w.A[1])
	out.B[0], _ = coordOf(w.B[0])
	out.B[1], _ = coordOf(w.B[1])
	if w.Bottom != nil {
		out.Bottom, _ = coordOf(*w.Bottom)
	}
	if w.Top != nil {
		out.Top, _ = coordOf(*w.Top)
	}
	out.From, _ = sideOf(w.From)
	return out
}

// sideOf reads a wall's "from" (SPEC §5.6).
func sideOf(from string) (walls.Side, bool) {
	switch from {
	case "":
		return walls.Both, true
	case "left":
		return walls.Left, true
	case "right":
		return walls.Right, true
	}
	return walls.Both, false
}

// oneWay refuses a one-way wall for the rule sets that do not honour them: their shared line
// of effect (core/shadow) and their cover treat a segment as undirected (SPEC §5.6, our
// ruling). Only dnd5e and pf2e, whose every segment runs from a source to a target, take them.
func oneWay(ws []Wall, rules string) *Error {
	for i := range ws {
		if ws[i].From != "" {
			return oneWayError(i, rules)
		}
	}
	return nil
}

func oneWayError(i int, rules string) *Error {
	return newError(CodeBadRequest, label{"walls", i}.String()+".from: one-way walls are honoured by the dnd5e and pf2e rule sets only, not "+rules+" (SPEC §5.6)")
}

// plainHeights reports whether w's bottom and top, where given, are certainly valid by
// comparisons of its floats (as checkWalls says).
func plainHeights(w *Wall) bool {
	const far = 1.0 / 256
	if w.Bottom != nil && !(*w.Bottom >= -MaxCoord && *w.Bottom <= MaxCoord) || w.Top != nil && !(*w.Top >= -MaxCoord && *w.Top <= MaxCoord) {
		return false
	}
	return w.Bottom == nil || w.Top == nil || *w.Top-*w.Bottom > far
}

// wallOf validates one wall and puts it on the lattice.
func wallOf(where label, w *Wall) (walls.Wall, *Error) {
	out := walls.Wall{Bottom: walls.NoBottom, Top: walls.NoTop}
	for k, v := range [4]float64{w.A[0], w.A[1], w.B[0], w.B[1]} {
		n, ok := coordOf(v)
		if !ok {
			return out, coordError(where, [4]string{"a[0]", "a[1]", "b[0]", "b[1]"}[k], v)
		}
		if k < 2 {
			out.A[k] = n
		} else {
			out.B[k-2] = n
		}
	}
	if out.A == out.B {
		return out, newError(CodeBadRequest, where.String()+": a and b are the same point on the 1/400 lattice; a wall needs two ends")
	}
	if w.Bottom != nil {
		n, ok := coordOf(*w.Bottom)
		if !ok {
			return out, coordError(where, "bottom", *w.Bottom)
		}
		out.Bottom = n
	}
	if w.Top != nil {
		n, ok := coordOf(*w.Top)
		if !ok {
			return out, coordError(where, "top", *w.Top)
		}
		out.Top = n
	}
	if out.Bottom > out.Top {
		return out, newError(CodeBadRequest, where.String()+": bottom "+fmtFloat(*w.Bottom)+" is above top "+fmtFloat(*w.Top))
	}
	var ok bool
	if out.From, ok = sideOf(w.From); !ok {
		return out, newError(CodeBadRequest, where.String()+".from: expected \"left\" or \"right\", got "+num.Quote(w.From))
	}
	return out, nil
}

func coordError(where label, name string, v float64) *Error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return newError(CodeBadRequest, where.String()+"."+name+": expected a number, got "+fmtFloat(v))
	}
	return newError(CodeTooLarge, where.String()+"."+name+": past ±"+num.Itoa(MaxCoord))
}

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// A terrain is what blocks on a board: its solid cells (SPEC §1.6) and its thin walls
// (§5.6). It is a los.Solids with los.Regions and los.Walls: line of effect and cover test
// both.
type terrain struct {
	*board.Solids
	walls *walls.Index
	lines los.Prepared // the terrain with its los interfaces looked up once, for judging segments (&lines)
}

// terrainOf indexes the solids and the walls.
func terrainOf(s *board.Solids, ws []walls.Wall) *terrain {
	t := &terrain{Solids: s, walls: walls.New(ws)}
	t.lines = los.Prepare(t)
	return t
}

// WallBlocked reports whether a thin wall blocks the segment a → b.
func (t *terrain) WallBlocked(a, b los.Point) bool { return t.walls.Blocked(a, b) }

// Clear reports whether nothing blocks in or at the edges of the box of cells lo … hi: no
// solid cell and no wall.
func (t *terrain) Clear(b grid.Box) bool {
	return t.Solids.Empty(b) && !t.walls.Near(lattice2(b.Min), lattice2(b.Max.Add(grid.Cell{X: 1, Y: 1})))
}

// lattice2 is the north-west corner of cell c on the plane, in lattice units.
func lattice2(c grid.Cell) [2]int64 { return [2]int64{int64(c.X) * los.Unit, int64(c.Y) * los.Unit} }

// stepBlocked reports whether a wall stops a step from cell a to cell b: it blocks the
// segment between their centres, at the mid-height of their levels (SPEC §4.3, §3.7).
func (t *terrain) stepBlocked(a, b grid.Cell) bool {
	return t.walls.Len() > 0 && t.walls.Blocked(los.Centre(a), los.Centre(b))
}
