package engine

// An independent brute-force reference for the point-origin areas of SPEC §10 (dnd5e) and §11
// (pf2e), written from the rule book's text alone: shape membership straight from §10.5, §10.6,
// §11.1 and §11.2 in math/big integers, and the clear path of §10.4 from §5.2 (full blocks) and
// §5.6 (thin walls, one-way walls) with exact big.Rat arithmetic. Randomized cases compare it
// with Evaluate cell for cell (TestPointRef_…); symmetry properties compare Evaluate with itself
// (TestPointProp_…), independently of the reference.
//
// Every coordinate here is an integer number of q = 1/400 of a square (SPEC §5.1, §10.1).

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// prQ is one square in lattice units (SPEC §5.1).
const prQ = 400

// The compass of SPEC §1.2, clockwise from north.
var (
	prCompass = [8]string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}
	prOffset  = [8][2]int64{{0, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}}
)

// prCompassDegrees is each compass name's angle of SPEC §10.2 (0 east, 90 south, clockwise).
var prCompassDegrees = [8]int64{270, 315, 0, 45, 90, 135, 180, 225}

func prCompassIndex(name string) int {
	for i, n := range prCompass {
		if n == name {
			return i
		}
	}
	return -1
}

// prWall is a thin wall (SPEC §5.6) in q.
type prWall struct {
	a, b        [2]int64
	bottom, top *int64 // nil: unlimited
	open        bool
	from        string // "", "left", "right"
}

// prCase is one point-origin evaluate request, in q.
type prCase struct {
	rules               Rules
	kind                string // sphere, cylinder, cone, cube, line, emanation, burst
	size, width, height int    // squares; width: a line's (1 when 0); height: a cylinder's
	down, round         bool
	angle               int64 // a dnd5e cone's angle in 1/400 degree; 0: none
	text, short         bool  // give the template as notation (short form)
	point               *[3]int64
	compass             string
	deg                 *int64 // 1/400 degree
	aim                 *[3]int64
	caster              *Token
	metric              Metric
	obst                [][3]int64
	walls               []prWall
	bounds              *Bounds
	refused             Code // the refusal the generator meant this request to get
}

func prF(q int64) float64 { return float64(q) / prQ } // exact decimal: q/400 has ≤ 4 decimals

func prFs(q int64) string { return fmt.Sprintf("%g", prF(q)) }

func prPtr(q int64) *int64 { return &q }

// notation gives the template as SPEC §10.3's text.
func (c *prCase) notation() string {
	ft := 5 * c.size
	w := c.width
	if w == 0 {
		w = 1
	}
	if c.short {
		switch c.kind {
		case "cylinder":
			return fmt.Sprintf("cylinder %d high %d", ft, 5*c.height)
		case "line":
			if w > 1 {
				return fmt.Sprintf("line %d wide %d", ft, 5*w)
			}
		}
		return fmt.Sprintf("%s %d", c.kind, ft)
	}
	switch c.kind {
	case "sphere":
		return fmt.Sprintf("%d-foot-radius sphere", ft)
	case "cylinder":
		return fmt.Sprintf("%d-foot-radius, %d-foot-high cylinder", ft, 5*c.height)
	case "line":
		if w > 1 {
			return fmt.Sprintf("%d-foot line %d feet wide", ft, 5*w)
		}
	}
	return fmt.Sprintf("%d-foot %s", ft, c.kind)
}

func (c *prCase) request() *Request {
	req := &Request{Rules: c.rules, Metric: c.metric, Bounds: c.bounds}
	if c.caster != nil {
		tk := *c.caster
		req.Caster = &tk
	}
	if c.text {
		req.Template = TemplateRef{Text: c.notation()}
	} else {
		o := &Template{Shape: c.kind, Height: c.height, Down: c.down}
		switch c.kind {
		case "cone", "line":
			o.Length = c.size
		case "cube":
			o.Side = c.size
		default:
			o.Radius = c.size
		}
		if c.kind == "line" {
			o.Width = c.width
		}
		if c.round {
			o.Base = "round"
		}
		if c.angle != 0 {
			o.Angle = prF(c.angle)
		}
		req.Template = TemplateRef{Object: o}
	}
	if c.point != nil {
		req.Point = &Point{X: prF(c.point[0]), Y: prF(c.point[1]), Z: prF(c.point[2])}
	}
	switch {
	case c.compass != "":
		req.Toward = Toward{Compass: c.compass}
	case c.deg != nil:
		req.Toward = Toward{Degrees: prF(*c.deg), IsDegrees: true}
	case c.aim != nil:
		req.Toward = Toward{Aim: &Point{X: prF(c.aim[0]), Y: prF(c.aim[1]), Z: prF(c.aim[2])}}
	}
	for _, o := range c.obst {
		req.Obstacles = append(req.Obstacles, Obstacle{X: int(o[0]), Y: int(o[1]), Z: int(o[2]), Fill: 1})
	}
	for _, w := range c.walls {
		wall := Wall{A: [2]float64{prF(w.a[0]), prF(w.a[1])}, B: [2]float64{prF(w.b[0]), prF(w.b[1])}, Open: w.open, From: w.from}
		if w.bottom != nil {
			f := prF(*w.bottom)
			wall.Bottom = &f
		}
		if w.top != nil {
			f := prF(*w.top)
			wall.Top = &f
		}
		req.Walls = append(req.Walls, wall)
	}
	return req
}

// String describes the request in the wire's terms, for a failure message.
func (c *prCase) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "rules %s, template ", c.rules)
	if c.text {
		fmt.Fprintf(&b, "%q", c.notation())
	} else {
		fmt.Fprintf(&b, "{shape %s, size %d", c.kind, c.size)
		if c.kind == "line" {
			fmt.Fprintf(&b, ", width %d", c.width)
		}
		if c.kind == "cylinder" {
			fmt.Fprintf(&b, ", height %d, down %v", c.height, c.down)
		}
		if c.round {
			b.WriteString(", base round")
		}
		if c.angle != 0 {
			fmt.Fprintf(&b, ", angle %s", prFs(c.angle))
		}
		b.WriteString("}")
	}
	if c.point != nil {
		fmt.Fprintf(&b, ", point (%s, %s, %s)", prFs(c.point[0]), prFs(c.point[1]), prFs(c.point[2]))
	}
	switch {
	case c.compass != "":
		fmt.Fprintf(&b, ", toward %s", c.compass)
	case c.deg != nil:
		fmt.Fprintf(&b, ", toward %s°", prFs(*c.deg))
	case c.aim != nil:
		fmt.Fprintf(&b, ", toward aim (%s, %s, %s)", prFs(c.aim[0]), prFs(c.aim[1]), prFs(c.aim[2]))
	}
	if c.caster != nil {
		fmt.Fprintf(&b, ", caster {x %d, y %d, z %d, size %d}", c.caster.X, c.caster.Y, c.caster.Z, c.caster.Size)
	}
	if c.metric != "" {
		fmt.Fprintf(&b, ", metric %s", c.metric)
	}
	if len(c.obst) > 0 {
		fmt.Fprintf(&b, ", obstacles (fill 1) %v", c.obst)
	}
	for _, w := range c.walls {
		fmt.Fprintf(&b, ", wall {a [%s, %s], b [%s, %s]", prFs(w.a[0]), prFs(w.a[1]), prFs(w.b[0]), prFs(w.b[1]))
		if w.bottom != nil {
			fmt.Fprintf(&b, ", bottom %s", prFs(*w.bottom))
		}
		if w.top != nil {
			fmt.Fprintf(&b, ", top %s", prFs(*w.top))
		}
		if w.open {
			b.WriteString(", open")
		}
		if w.from != "" {
			fmt.Fprintf(&b, ", from %s", w.from)
		}
		b.WriteString("}")
	}
	if c.bounds != nil {
		fmt.Fprintf(&b, ", bounds %v … %v", c.bounds.Min, c.bounds.Max)
	}
	return b.String()
}

// ---------------------------------------------------------------------------------------------
// Exact integer helpers (math/big).

func prB(x int64) *big.Int { return big.NewInt(x) }

func prMul(xs ...*big.Int) *big.Int {
	r := prB(1)
	for _, x := range xs {
		r.Mul(r, x)
	}
	return r
}

func prAdd(xs ...*big.Int) *big.Int {
	r := prB(0)
	for _, x := range xs {
		r.Add(r, x)
	}
	return r
}

func prSub(x, y *big.Int) *big.Int { return new(big.Int).Sub(x, y) }

// prRoundAway rounds half away from zero (SPEC §10.2, §10.5).
func prRoundAway(f float64) int64 { return int64(math.Round(f)) }

// prDegVec is SPEC §10.2's vector of an angle of deg/400 degrees: (round(2¹⁶·cos θ),
// round(2¹⁶·sin θ), 0), the angle taken modulo 360.
func prDegVec(deg int64) [3]int64 {
	m := ((deg % (360 * prQ)) + 360*prQ) % (360 * prQ)
	th := float64(m) / prQ * math.Pi / 180
	return [3]int64{prRoundAway(math.Cos(th) * 65536), prRoundAway(math.Sin(th) * 65536), 0}
}

// prTan is SPEC §10.5's t = round(2¹⁶·tan(angle/2)) for an angle of angle/400 degrees.
func prTan(angle int64) int64 {
	return prRoundAway(math.Tan(float64(angle)/prQ/2*math.Pi/180) * 65536)
}

// prCeilSq is |w| in q rounded up to whole squares (SPEC §11.1, point to cell).
func prCeilSq(w int64) int64 {
	if w < 0 {
		w = -w
	}
	return (w + prQ - 1) / prQ
}

// prAlt is §11.1's distance on three counts: sorted s1 ≤ s2 ≤ s3, s3 + ⌊s2/2⌋.
func prAlt(s [3]int64) int64 {
	t := s[:]
	slices.Sort(t)
	return s[2] + s[1]/2
}

// ---------------------------------------------------------------------------------------------
// The reference.

// prGeom is a case's placed geometry: the origin O (the source of the clear path), the
// direction v, and the caster's space as cell ranges.
type prGeom struct {
	o, v      [3]int64
	lo, hi    [3]int64 // the caster's space, cells lo … hi inclusive
	angleT    int64
	cubeDir   [2]int64
	fullCells map[[3]int64]bool
}

// prWant is what the reference expects: an error code, or the origin point and the cells.
type prWant struct {
	code   Code
	origin [3]int64
	cells  [][3]int32
}

// prCasterCentre is the 3-D centre of the caster's space in q.
func prCasterCentre(tk *Token) [3]int64 {
	s := int64(max(tk.Size, 1))
	h := int64(tk.Height)
	if h == 0 {
		h = s
	}
	return [3]int64{int64(tk.X)*prQ + s*prQ/2, int64(tk.Y)*prQ + s*prQ/2, int64(tk.Z)*prQ + h*prQ/2}
}

// prExitPoint is SPEC §10.5's default origin: where the ray from the centre of the caster's
// space along v leaves the space's box, rounded to the lattice with ties toward +∞.
func prExitPoint(tk *Token, v [3]int64) [3]int64 {
	s := int64(max(tk.Size, 1))
	h := int64(tk.Height)
	if h == 0 {
		h = s
	}
	c := prCasterCentre(tk)
	half := [3]int64{s * prQ / 2, s * prQ / 2, h * prQ / 2}
	var t *big.Rat
	for i := range 3 {
		if v[i] == 0 {
			continue
		}
		ti := big.NewRat(half[i], prAbs(v[i]))
		if t == nil || ti.Cmp(t) < 0 {
			t = ti
		}
	}
	var p [3]int64
	for i := range 3 {
		x := new(big.Rat).Mul(t, new(big.Rat).SetInt64(v[i]))
		x.Add(x, new(big.Rat).SetInt64(c[i]))
		if prExitTie != nil && new(big.Rat).Mul(x, big.NewRat(2, 1)).IsInt() && !x.IsInt() {
			*prExitTie = true
		}
		x.Add(x, big.NewRat(1, 2)) // ties toward +∞: ⌊x + ½⌋
		p[i] = new(big.Int).Div(x.Num(), x.Denom()).Int64()
	}
	return p
}

// prExitTie, when set, records that prExitPoint met a tie (an exit coordinate half-way between
// two lattice points).
var prExitTie *bool

func prAbs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// prReference computes the expected answer by brute force over every cell of the bounds.
func prReference(c *prCase) prWant {
	g, code := prPlace(c)
	if code != "" {
		return prWant{code: code}
	}
	w := prWant{origin: g.o}
	var zs prZ
	zs.setup(c, &g)
	bd := c.bounds
	for z := bd.Min[2]; z <= bd.Max[2]; z++ {
		for y := bd.Min[1]; y <= bd.Max[1]; y++ {
			for x := bd.Min[0]; x <= bd.Max[0]; x++ {
				cell := [3]int64{int64(x), int64(y), int64(z)}
				if !prMember(c, &g, &zs, cell) {
					continue
				}
				ctr := [3]int64{cell[0]*prQ + prQ/2, cell[1]*prQ + prQ/2, cell[2]*prQ + prQ/2}
				if prClear(c, g.fullCells, g.o, ctr) {
					w.cells = append(w.cells, [3]int32{int32(x), int32(y), int32(z)})
				}
			}
		}
	}
	return w
}

// prPlace validates c and places it: the origin, the direction, the caster's space (SPEC
// §10.2, §10.5, §10.7, §11.2), or the code of the refusal the SPEC gives.
func prPlace(c *prCase) (prGeom, Code) {
	g := prGeom{fullCells: map[[3]int64]bool{}}
	for _, o := range c.obst {
		g.fullCells[o] = true
	}
	isCone, isLine := c.kind == "cone", c.kind == "line"
	var centre [3]int64
	if c.caster != nil {
		centre = prCasterCentre(c.caster)
		s := int64(max(c.caster.Size, 1))
		h := int64(c.caster.Height)
		if h == 0 {
			h = s
		}
		g.lo = [3]int64{int64(c.caster.X), int64(c.caster.Y), int64(c.caster.Z)}
		g.hi = [3]int64{g.lo[0] + s - 1, g.lo[1] + s - 1, g.lo[2] + h - 1}
	}
	// The direction (SPEC §10.2).
	if isCone || isLine {
		switch {
		case c.compass != "":
			i := prCompassIndex(c.compass)
			g.v = [3]int64{prOffset[i][0], prOffset[i][1], 0}
		case c.deg != nil:
			if c.rules == RulesPF2e && isCone && *c.deg%(45*prQ) != 0 {
				return g, CodeBadRequest // §11.2: a compass name or a multiple of 45°
			}
			g.v = prDegVec(*c.deg)
		case c.aim != nil:
			if c.rules == RulesPF2e && isCone {
				return g, CodeBadRequest // the generator only aims pf2e cones off the 45° directions
			}
			from := centre
			if c.point != nil {
				from = *c.point
			}
			g.v = [3]int64{c.aim[0] - from[0], c.aim[1] - from[1], c.aim[2] - from[2]}
		default:
			return g, CodeBadRequest // §10.2: cones and lines need toward
		}
		if isLine && g.v[2] != 0 {
			return g, CodeBadRequest // §10.5, §11.2: lines are horizontal
		}
	}
	// The origin (SPEC §10.5, §10.7).
	switch {
	case c.point != nil:
		g.o = *c.point
	case isCone || isLine:
		g.o = prExitPoint(c.caster, g.v)
	case c.kind == "emanation":
		g.o = centre
	}
	switch c.kind {
	case "burst", "cube":
		if g.o[0]%prQ != 0 || g.o[1]%prQ != 0 || g.o[2]%prQ != 0 {
			return g, CodeBadRequest // §10.5, §11.2: a grid intersection
		}
	}
	if c.kind == "cube" {
		g.cubeDir = [2]int64{1, 1}
		if c.compass != "" {
			i := prCompassIndex(c.compass)
			if i%2 == 0 {
				return g, CodeBadRequest // §10.5: NE, SE, SW or NW
			}
			g.cubeDir = prOffset[i]
		}
	}
	if c.kind == "cone" && c.angle != 0 {
		g.angleT = prTan(c.angle)
	}
	// §10.4: an origin inside solid matter is refused.
	if inside, _ := prPointBad(g.fullCells, prRat3(g.o)); inside {
		return g, CodeNoLineOfEffect
	}
	return g, ""
}

// prZ is prMember's scratch: big integers reused from cell to cell, so that the exact
// arithmetic allocates nothing once warm.
type prZ struct {
	w          [3]big.Int
	a, ww      big.Int
	x, y, k    big.Int
	sz2, vv    big.Int // r², L², s² or R² in q²; |v|²
	l2vv, w2vv big.Int // L²|v|², W²|v|²
	t2         big.Int // t² of an angled cone
	v          [3]big.Int
}

// dot sets dst = p·q.
func (z *prZ) dot(dst *big.Int, p, q *[3]big.Int) *big.Int {
	dst.Mul(&p[0], &q[0])
	z.k.Mul(&p[1], &q[1])
	dst.Add(dst, &z.k)
	z.k.Mul(&p[2], &q[2])
	return dst.Add(dst, &z.k)
}

// setup fills the per-case constants.
func (z *prZ) setup(c *prCase, g *prGeom) {
	sz := prB(int64(c.size) * prQ)
	z.sz2.Mul(sz, sz)
	for i := range 3 {
		z.v[i].SetInt64(g.v[i])
	}
	z.dot(&z.vv, &z.v, &z.v)
	z.l2vv.Mul(&z.sz2, &z.vv)
	wq := prB(int64(max(c.width, 1)) * prQ)
	z.w2vv.Mul(wq, wq)
	z.w2vv.Mul(&z.w2vv, &z.vv)
	z.t2.SetInt64(g.angleT)
	z.t2.Mul(&z.t2, &z.t2)
}

// prMember is the shape test of SPEC §10.5 (dnd5e) and §11.2 (pf2e) for one cell: its centre
// C, w = C − O, a = w·v; sizes r, L, s, R, W in q.
func prMember(c *prCase, g *prGeom, z *prZ, cell [3]int64) bool {
	wi := [3]int64{cell[0]*prQ + prQ/2 - g.o[0], cell[1]*prQ + prQ/2 - g.o[1], cell[2]*prQ + prQ/2 - g.o[2]}
	for i := range 3 {
		z.w[i].SetInt64(wi[i])
	}
	width := int64(max(c.width, 1))
	pfDist := func() int64 { return prAlt([3]int64{prCeilSq(wi[0]), prCeilSq(wi[1]), prCeilSq(wi[2])}) }
	switch c.kind {
	case "sphere": // |w|² ≤ r²
		return z.dot(&z.ww, &z.w, &z.w).Cmp(&z.sz2) <= 0
	case "burst": // §11.1 distance from O ≤ R
		return pfDist() <= int64(c.size)
	case "cylinder": // w_x² + w_y² ≤ r², 0 ≤ w_z ≤ h (down: −h ≤ w_z ≤ 0)
		z.x.Mul(&z.w[0], &z.w[0])
		z.k.Mul(&z.w[1], &z.w[1])
		if z.x.Add(&z.x, &z.k).Cmp(&z.sz2) > 0 {
			return false
		}
		h := int64(c.height) * prQ
		if c.down {
			return -h <= wi[2] && wi[2] <= 0
		}
		return 0 <= wi[2] && wi[2] <= h
	case "cube": // the closed box from the corner O toward the diagonal, and up
		s := int64(c.size) * prQ
		in := func(cq, o, dir int64) bool {
			if dir > 0 {
				return o <= cq && cq <= o+s
			}
			return o-s <= cq && cq <= o
		}
		return in(cell[0]*prQ+prQ/2, g.o[0], g.cubeDir[0]) && in(cell[1]*prQ+prQ/2, g.o[1], g.cubeDir[1]) &&
			in(cell[2]*prQ+prQ/2, g.o[2], 1)
	case "emanation": // distance from the caster's space by per-axis gaps (§10.6, §11.1)
		var s [3]int64
		for i := range 3 {
			s[i] = max(0, g.lo[i]-cell[i], cell[i]-g.hi[i])
		}
		var d int64
		if c.rules == RulesPF2e || c.metric == MetricAlternating {
			d = prAlt(s)
		} else {
			d = max(s[0], s[1], s[2])
		}
		return d <= int64(c.size)
	}
	a := z.dot(&z.a, &z.w, &z.v)
	z.x.Mul(&z.w[0], &z.v[1]) // x = w_x v_y − w_y v_x
	z.k.Mul(&z.w[1], &z.v[0])
	cross := z.x.Sub(&z.x, &z.k)
	if c.kind == "line" {
		if c.rules == RulesPF2e {
			if a.Sign() <= 0 || pfDist() > int64(c.size) { // a > 0, distance ≤ R
				return false
			}
		} else if a.Sign() < 0 || z.y.Mul(a, a).Cmp(&z.l2vv) > 0 { // a ≥ 0, a² ≤ L²|v|²
			return false
		}
		z.y.Mul(cross, cross)
		if z.y.Lsh(&z.y, 2).Cmp(&z.w2vv) > 0 { // 4(w_x v_y − w_y v_x)² ≤ W²|v|²
			return false
		}
		return -width*prQ/2 < wi[2] && wi[2] <= width*prQ/2 // −W/2 < w_z ≤ W/2
	}
	// cone
	if c.rules == RulesPF2e { // a > 0, |w_x v_y − w_y v_x| ≤ a, distance ≤ R
		return a.Sign() > 0 && cross.CmpAbs(a) <= 0 && pfDist() <= int64(c.size)
	}
	if a.Sign() < 0 {
		return false
	}
	ww := z.dot(&z.ww, &z.w, &z.w)
	a2 := z.y.Mul(a, a)
	if c.round {
		if ww.Cmp(&z.sz2) > 0 { // |w|² ≤ L²
			return false
		}
	} else if a2.Cmp(&z.l2vv) > 0 { // a² ≤ L²|v|²
		return false
	}
	perp := z.x.Mul(ww, &z.vv) // |w|²|v|² − a²
	perp.Sub(perp, a2)
	if c.angle == 0 {
		return perp.Lsh(perp, 2).Cmp(a2) <= 0 // 4(|w|²|v|² − a²) ≤ a²
	}
	return perp.Lsh(perp, 32).Cmp(a2.Mul(a2, &z.t2)) <= 0 // 2³²(|w|²|v|² − a²) ≤ t²a²
}

// prClear is SPEC §10.4's clear path from P (the origin) to Q (a cell's centre).
func prClear(c *prCase, full map[[3]int64]bool, P, Q [3]int64) bool {
	for i := range c.walls {
		if prWallBlocks(&c.walls[i], P, Q) {
			if prStat != nil {
				prStat.wall++
				if c.walls[i].from != "" {
					prStat.oneWay++
				}
			}
			return false
		}
	}
	return !prSolidBlocks(full, P, Q)
}

// prWallBlocks is SPEC §5.6: the projections of P → Q and of the wall meet in exactly one point
// X (the wall's ends included, the segment's excluded), the segment's height at X is within
// [bottom, top], and a one-way wall blocks only segments that start strictly on its side.
func prWallBlocks(w *prWall, P, Q [3]int64) bool {
	if w.open {
		return false
	}
	if w.from != "" {
		k := prSub(prMul(prB(w.b[0]-w.a[0]), prB(P[1]-w.a[1])), prMul(prB(w.b[1]-w.a[1]), prB(P[0]-w.a[0])))
		if w.from == "left" && k.Sign() >= 0 || w.from == "right" && k.Sign() <= 0 {
			return false
		}
	}
	D := [2]*big.Int{prB(Q[0] - P[0]), prB(Q[1] - P[1])}
	E := [2]*big.Int{prB(w.b[0] - w.a[0]), prB(w.b[1] - w.a[1])}
	AP := [2]*big.Int{prB(w.a[0] - P[0]), prB(w.a[1] - P[1])}
	cross := func(x, y [2]*big.Int) *big.Int { return prSub(prMul(x[0], y[1]), prMul(x[1], y[0])) }
	den := cross(D, E)
	if den.Sign() == 0 {
		return false // parallel, along the wall's plane, or a vertical segment
	}
	tn, un := cross(AP, E), cross(AP, D) // t = tn/den along P → Q, u = un/den along a → b
	if den.Sign() < 0 {
		den.Neg(den)
		tn.Neg(tn)
		un.Neg(un)
	}
	if tn.Sign() <= 0 || tn.Cmp(den) >= 0 || un.Sign() < 0 || un.Cmp(den) > 0 {
		return false
	}
	zden := prAdd(prMul(prB(P[2]), den), prMul(tn, prB(Q[2]-P[2]))) // height at X, times den
	if w.bottom != nil && zden.Cmp(prMul(prB(*w.bottom), den)) < 0 {
		return false
	}
	if w.top != nil && zden.Cmp(prMul(prB(*w.top), den)) > 0 {
		return false
	}
	return true
}

func prRat3(p [3]int64) [3]*big.Rat {
	return [3]*big.Rat{new(big.Rat).SetInt64(p[0]), new(big.Rat).SetInt64(p[1]), new(big.Rat).SetInt64(p[2])}
}

// prPointBad looks at the 8 open octants around the point p (in q): each is covered when the
// cell it lies in is full. The point is inside solid matter when all 8 are covered, and it is a
// diagonal pinch (SPEC §5.2: solids meeting only at an edge or a corner) when the covered
// octants form two or more face-connected groups.
func prPointBad(full map[[3]int64]bool, p [3]*big.Rat) (inside, bad bool) {
	if len(full) == 0 {
		return false, false
	}
	var cells [3][2]int64 // per axis, the cell index on the − and + side
	q := big.NewRat(prQ, 1)
	for i := range 3 {
		x := new(big.Rat).Quo(p[i], q)
		f := new(big.Int).Div(x.Num(), x.Denom()).Int64() // ⌊x⌋: Denom > 0, Euclidean division
		if x.IsInt() {
			cells[i] = [2]int64{f - 1, f}
		} else {
			cells[i] = [2]int64{f, f}
		}
	}
	var covered [8]bool
	n := 0
	for o := range 8 {
		cell := [3]int64{cells[0][o&1], cells[1][(o>>1)&1], cells[2][(o>>2)&1]}
		if full[cell] {
			covered[o] = true
			n++
		}
	}
	if n == 8 {
		return true, true
	}
	if n < 2 {
		return false, false
	}
	// Face-connected groups: octants differing in one sign are neighbours.
	var seen [8]bool
	groups := 0
	for s := range 8 {
		if !covered[s] || seen[s] {
			continue
		}
		groups++
		stack := []int{s}
		seen[s] = true
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for b := range 3 {
				nb := u ^ (1 << b)
				if covered[nb] && !seen[nb] {
					seen[nb] = true
					stack = append(stack, nb)
				}
			}
		}
	}
	return false, groups >= 2
}

// prSolidBlocks is SPEC §5.2 with full blocks only, decided exactly: the segment P → Q is split
// at every parameter t where it crosses a grid plane; the midpoint of every open piece and
// every crossing strictly between the ends is tested by prPointBad. The ends never block
// (§10.4).
func prSolidBlocks(full map[[3]int64]bool, P, Q [3]int64) bool {
	var lo, hi [3]int64
	for i := range 3 {
		lo[i], hi[i] = min(P[i], Q[i]), max(P[i], Q[i])
	}
	// The parameter ranges where the segment lies in some full cell's closed box: a bad point
	// has a covered octant, so it lies in one of them, and no other point need be looked at.
	var near [][2]*big.Rat
	for c := range full {
		if ok, lo, hi := prSegTouchesBox(P, Q, c); ok {
			near = append(near, [2]*big.Rat{lo, hi})
		}
	}
	if len(near) == 0 {
		return false
	}
	isNear := func(t *big.Rat) bool {
		for _, iv := range near {
			if iv[0].Cmp(t) <= 0 && t.Cmp(iv[1]) <= 0 {
				return true
			}
		}
		return false
	}
	ts := []*big.Rat{new(big.Rat), big.NewRat(1, 1)}
	for i := range 3 {
		d := Q[i] - P[i]
		if d == 0 {
			continue
		}
		for n := prFloorDiv(lo[i], prQ); n*prQ <= hi[i]; n++ {
			if n*prQ < lo[i] {
				continue
			}
			ts = append(ts, big.NewRat(n*prQ-P[i], d))
		}
	}
	slices.SortFunc(ts, func(a, b *big.Rat) int { return a.Cmp(b) })
	ts = slices.CompactFunc(ts, func(a, b *big.Rat) bool { return a.Cmp(b) == 0 })
	at := func(t *big.Rat) [3]*big.Rat {
		var p [3]*big.Rat
		for i := range 3 {
			p[i] = new(big.Rat).Mul(t, new(big.Rat).SetInt64(Q[i]-P[i]))
			p[i].Add(p[i], new(big.Rat).SetInt64(P[i]))
		}
		return p
	}
	half := big.NewRat(1, 2)
	blocked, inside := false, false
	for j := 0; j+1 < len(ts); j++ {
		mid := new(big.Rat).Add(ts[j], ts[j+1])
		mid.Mul(mid, half)
		if isNear(mid) {
			if in, b := prPointBad(full, at(mid)); b {
				blocked, inside = true, inside || in
			}
		}
		if j > 0 && isNear(ts[j]) {
			if in, b := prPointBad(full, at(ts[j])); b {
				blocked, inside = true, inside || in
			}
		}
		if inside && prStat == nil {
			break
		}
	}
	if prStat != nil && blocked {
		if inside {
			prStat.solidInside++
		} else {
			prStat.solidPinchOnly++
		}
	}
	return blocked
}

// prStats counts what the random cases exercised (the cells the clear path removed, by cause).
type prStats struct {
	cells, wall, oneWay, solidInside, solidPinchOnly int
	codes                                            map[Code]int
}

var prStat *prStats // set while TestPointRef_Random runs

// prSegTouchesBox reports whether the closed segment P → Q meets the closed box of the cell c
// (the slab test, with the parameters compared as exact fractions: every magnitude here is
// below 2³², so the cross products fit an int64), and for which parameters t of P + t(Q − P).
func prSegTouchesBox(P, Q [3]int64, c [3]int64) (ok bool, tlo, thi *big.Rat) {
	lon, lod, hin, hid := int64(0), int64(1), int64(1), int64(1) // t in [lon/lod, hin/hid]
	for i := range 3 {
		lo, hi := c[i]*prQ, c[i]*prQ+prQ
		d := Q[i] - P[i]
		if d == 0 {
			if P[i] < lo || P[i] > hi {
				return false, nil, nil
			}
			continue
		}
		n1, n2, den := lo-P[i], hi-P[i], d
		if d < 0 {
			n1, n2, den = P[i]-hi, P[i]-lo, -d
		}
		if n1*lod > lon*den { // raise the lower end to n1/den
			lon, lod = n1, den
		}
		if n2*hid < hin*den { // lower the upper end to n2/den
			hin, hid = n2, den
		}
		if lon*hid > hin*lod {
			return false, nil, nil
		}
	}
	return true, big.NewRat(lon, lod), big.NewRat(hin, hid)
}

func prFloorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// ---------------------------------------------------------------------------------------------
// Comparing with Evaluate.

// prCheck evaluates c and compares with the reference; it returns a description of the first
// disagreement, or "".
func prCheck(c *prCase) string {
	want := prReference(c)
	if prStat != nil {
		prStat.codes[want.code]++
		prStat.cells += len(want.cells)
	}
	if c.refused != "" && want.code != c.refused {
		return fmt.Sprintf("reference: the generator meant %s, the reference says %q", c.refused, want.code)
	}
	res, err := Evaluate(c.request())
	if want.code != "" {
		var e *Error
		if err == nil {
			return fmt.Sprintf("want error %s, got %d cells", want.code, res.Count)
		}
		if !errors.As(err, &e) || e.Code != want.code {
			return fmt.Sprintf("want error %s, got %v", want.code, err)
		}
		return ""
	}
	if err != nil {
		return fmt.Sprintf("want %d cells, got error %v", len(want.cells), err)
	}
	got := [3]int64{prRoundQ(res.Origin.X), prRoundQ(res.Origin.Y), prRoundQ(res.Origin.Z)}
	if c.kind != "emanation" && got != want.origin {
		return fmt.Sprintf("origin: want (%s, %s, %s), got (%g, %g, %g)", prFs(want.origin[0]), prFs(want.origin[1]),
			prFs(want.origin[2]), res.Origin.X, res.Origin.Y, res.Origin.Z)
	}
	return prDiff(want.cells, res.Cells)
}

func prRoundQ(f float64) int64 { return int64(math.Round(f * prQ)) }

// prDiff compares two cell lists sorted by z, y, x.
func prDiff(want, got [][3]int32) string {
	cmp := func(a, b [3]int32) int {
		for _, i := range [3]int{2, 1, 0} {
			if a[i] != b[i] {
				return int(a[i]) - int(b[i])
			}
		}
		return 0
	}
	if !slices.IsSortedFunc(got, cmp) {
		return "engine cells not sorted by z, y, x"
	}
	i, j := 0, 0
	for i < len(want) || j < len(got) {
		switch {
		case j == len(got) || i < len(want) && cmp(want[i], got[j]) < 0:
			return fmt.Sprintf("want %d cells, got %d: first difference %v expected, missing from the engine's", len(want), len(got), want[i])
		case i == len(want) || cmp(want[i], got[j]) > 0:
			return fmt.Sprintf("want %d cells, got %d: first difference %v from the engine, not expected", len(want), len(got), got[j])
		}
		i++
		j++
	}
	return ""
}

// ---------------------------------------------------------------------------------------------
// The random cases.

// prCoord draws a coordinate in q within [lo, hi] squares: a whole number, a half or any
// multiple of 1/400.
func prCoord(r *rand.Rand, lo, hi int64) int64 {
	switch r.IntN(4) {
	case 0:
		return (lo + r.Int64N(hi-lo+1)) * prQ
	case 1:
		return (lo+r.Int64N(hi-lo))*prQ + prQ/2
	case 2:
		return (lo+r.Int64N(hi-lo))*prQ + r.Int64N(8)*prQ/8
	}
	return lo*prQ + r.Int64N((hi-lo)*prQ+1)
}

func prCoordZ(r *rand.Rand) int64 {
	switch r.IntN(5) {
	case 0, 1:
		return 0
	case 2:
		return prQ / 2
	case 3:
		return prQ
	}
	return -prQ/2 + r.Int64N(2*prQ+1)
}

func prGenWalls(r *rand.Rand, near [3]int64) []prWall {
	n := r.IntN(5) - 1
	var ws []prWall
	for range max(n, 0) {
		var w prWall
		pt := func() [2]int64 {
			if r.IntN(2) == 0 { // a grid intersection near the origin
				return [2]int64{(near[0]/prQ + r.Int64N(9) - 4) * prQ, (near[1]/prQ + r.Int64N(9) - 4) * prQ}
			}
			return [2]int64{near[0] + (r.Int64N(65)-32)*prQ/8, near[1] + (r.Int64N(65)-32)*prQ/8}
		}
		w.a = pt()
		w.b = pt()
		if w.a == w.b {
			w.b[0] += prQ
		}
		switch r.IntN(5) {
		case 0:
			w.from = "left"
		case 1:
			w.from = "right"
		}
		if r.IntN(3) == 0 {
			w.bottom = prPtr(r.Int64N(5) * prQ / 4)
		}
		if r.IntN(3) == 0 {
			top := r.Int64N(9) * prQ / 4
			if w.bottom != nil && top < *w.bottom {
				top = *w.bottom
			}
			w.top = &top
		}
		w.open = r.IntN(12) == 0
		ws = append(ws, w)
	}
	return ws
}

func prGenObstacles(r *rand.Rand, near [3]int64) [][3]int64 {
	n := r.IntN(9) - 2
	var os [][3]int64
	for range max(n, 0) {
		os = append(os, [3]int64{prFloorDiv(near[0], prQ) + r.Int64N(7) - 3, prFloorDiv(near[1], prQ) + r.Int64N(7) - 3,
			prFloorDiv(near[2], prQ) + r.Int64N(3) - 1})
	}
	if r.IntN(6) == 0 { // a diagonal pinch: two blocks meeting at an edge
		x, y, z := prFloorDiv(near[0], prQ)+r.Int64N(5)-2, prFloorDiv(near[1], prQ)+r.Int64N(5)-2, prFloorDiv(near[2], prQ)
		dx, dy := 2*r.Int64N(2)-1, 2*r.Int64N(2)-1
		os = append(os, [3]int64{x, y, z}, [3]int64{x + dx, y + dy, z})
	}
	return os
}

// prGen draws one case.
func prGen(r *rand.Rand) *prCase {
	c := &prCase{bounds: &Bounds{Min: [3]int{-2, -2, -1}, Max: [3]int{13, 13, 1}}}
	kinds := []string{"sphere", "cylinder", "cone", "cone", "cone", "cube", "line", "line", "line", "emanation"}
	c.rules = RulesDnD5e
	if r.IntN(2) == 0 {
		c.rules = RulesPF2e
		kinds[0] = "burst"
	}
	c.kind = kinds[r.IntN(len(kinds))]
	c.size = 1 + r.IntN(6)
	switch c.kind {
	case "cylinder":
		c.height = 1 + r.IntN(6)
		c.down = r.IntN(3) == 0
	case "line":
		c.width = []int{1, 1, 1, 2, 3, 0}[r.IntN(6)]
	case "cone":
		if c.rules == RulesDnD5e {
			c.round = r.IntN(3) == 0
			switch r.IntN(8) {
			case 0:
				c.angle = (1 + r.Int64N(178)) * prQ
			case 1:
				c.angle = prQ + r.Int64N(178*prQ+1)
			case 2:
				c.angle = []int64{90 * prQ, 60 * prQ, 21252, 120 * prQ, 45 * prQ}[r.IntN(5)] // 21252: 53.13°
			}
		}
	}
	if !c.round && !c.down && c.angle == 0 && r.IntN(3) == 0 { // the notation of §10.3, §11
		c.text, c.short = true, r.IntN(2) == 0
	}
	isCL := c.kind == "cone" || c.kind == "line"
	if c.kind == "emanation" || isCL && r.IntN(10) < 3 {
		s := 1 + r.IntN(3)
		c.caster = &Token{X: 1 + r.IntN(9), Y: 1 + r.IntN(9), Z: -r.IntN(2), Size: s}
		if r.IntN(4) == 0 {
			c.caster.Height = 1 + r.IntN(3)
		}
		if c.kind == "emanation" && c.rules == RulesDnD5e && r.IntN(3) == 0 {
			c.metric = MetricAlternating
		}
	} else {
		p := [3]int64{prCoord(r, 0, 12), prCoord(r, 0, 12), prCoordZ(r)}
		if c.kind == "burst" || c.kind == "cube" {
			p = [3]int64{(r.Int64N(13)) * prQ, r.Int64N(13) * prQ, r.Int64N(2) * prQ}
			if r.IntN(15) == 0 { // off the grid intersections: refused
				p[r.IntN(3)] += prQ / 2
				c.refused = CodeBadRequest
			}
		}
		c.point = &p
	}
	ref := [3]int64{}
	if c.point != nil {
		ref = *c.point
	} else {
		ref = prCasterCentre(c.caster)
	}
	if isCL {
		pf2eCone := c.rules == RulesPF2e && c.kind == "cone"
		switch k := r.IntN(20); {
		case k < 7:
			c.compass = prCompass[r.IntN(8)]
		case k < 10:
			c.deg = prPtr((r.Int64N(24) - 8) * 45 * prQ)
		case k < 15:
			d := r.Int64N(1080*prQ) - 360*prQ
			if pf2eCone && r.IntN(4) != 0 {
				d = d / (45 * prQ) * (45 * prQ)
			}
			c.deg = &d
			if pf2eCone && d%(45*prQ) != 0 {
				c.refused = CodeBadRequest
			}
		default:
			a := [3]int64{ref[0] + prCoord(r, -6, 6), ref[1] + prCoord(r, -6, 6), ref[2]}
			if c.kind == "cone" && r.IntN(3) == 0 {
				a[2] += prCoord(r, -3, 3)
			}
			if c.kind == "line" && r.IntN(12) == 0 {
				a[2] += prQ / 4 // a vertical part: refused
				c.refused = CodeBadRequest
			}
			if a[0] == ref[0] && a[1] == ref[1] {
				a[0] += prQ / 8
			}
			if pf2eCone {
				for a[0] == ref[0] || a[1] == ref[1] || prAbs(a[0]-ref[0]) == prAbs(a[1]-ref[1]) {
					a[0], a[1] = a[0]+3, a[1]+7 // off every 45° direction
				}
				a[2] = ref[2]
				c.refused = CodeBadRequest
			}
			c.aim = &a
		}
	}
	if c.kind == "cube" {
		switch k := r.IntN(12); {
		case k < 8:
			c.compass = prCompass[1+2*r.IntN(4)]
		case k == 8:
			c.compass = prCompass[2*r.IntN(4)]
			c.refused = CodeBadRequest
		}
	}
	if c.refused != "" {
		return c // no solids: the refusal is the only question
	}
	c.walls = prGenWalls(r, ref)
	c.obst = prGenObstacles(r, ref)
	if c.caster != nil { // keep the caster's space clear
		tk := c.caster
		h := tk.Height
		if h == 0 {
			h = tk.Size
		}
		c.obst = slices.DeleteFunc(c.obst, func(o [3]int64) bool {
			return o[0] >= int64(tk.X) && o[0] < int64(tk.X+tk.Size) && o[1] >= int64(tk.Y) && o[1] < int64(tk.Y+tk.Size) &&
				o[2] >= int64(tk.Z) && o[2] < int64(tk.Z+h)
		})
	}
	return c
}

// TestPointRef_Random compares Evaluate with the brute-force reference of SPEC §10.4, §10.5,
// §10.6, §11.1 and §11.2 on random requests, deterministic by seed.
func TestPointRef_Random(t *testing.T) {
	n := 4000
	if testing.Short() {
		n = 500
	}
	r := rand.New(rand.NewPCG(10, 11))
	fails := 0
	stats := map[string]int{}
	prStat = &prStats{codes: map[Code]int{}}
	defer func() { prStat = nil }()
	for i := range n {
		c := prGen(r)
		stats[string(c.rules)+" "+c.kind]++
		msg := prCheck(c)
		if msg != "" {
			fails++
			if fails <= 10 {
				t.Errorf("case %d: %s\n  request: %s", i, msg, c)
			}
		}
	}
	if fails > 0 {
		t.Errorf("%d of %d cases disagree", fails, n)
	}
	t.Logf("%d cases: %v", n, stats)
	t.Logf("refused %v; %d cells in the areas; cut by the clear path: %d by walls (%d one-way), %d by solid interiors, %d by diagonal pinches alone",
		prStat.codes, prStat.cells, prStat.wall, prStat.oneWay, prStat.solidInside, prStat.solidPinchOnly)
}

// TestPointRef_OriginInSolid checks §10.4: an origin point inside solid matter is refused with
// no_line_of_effect, while one on the outer surface, on the face or edge of a single block or
// on the edge where two blocks meet diagonally is not.
func TestPointRef_OriginInSolid(t *testing.T) {
	block := [][3]int64{{5, 5, 0}, {6, 5, 0}, {5, 6, 0}, {6, 6, 0}, {5, 5, 1}, {6, 5, 1}, {5, 6, 1}, {6, 6, 1}}
	pinch := [][3]int64{{5, 5, 0}, {6, 6, 0}}
	for _, tc := range []struct {
		obst  [][3]int64
		point [3]int64
		code  Code
	}{
		{block[:1], [3]int64{2200, 2200, 200}, CodeNoLineOfEffect}, // inside a block
		{block[:2], [3]int64{2400, 2200, 200}, CodeNoLineOfEffect}, // on the face between two blocks
		{block, [3]int64{2400, 2400, 400}, CodeNoLineOfEffect},     // the corner where eight blocks meet
		{block[:4], [3]int64{2400, 2400, 200}, CodeNoLineOfEffect}, // the edge where four blocks meet
		{block[:1], [3]int64{2400, 2200, 200}, ""},                 // on a block's face
		{block[:1], [3]int64{2400, 2400, 400}, ""},                 // on a block's corner
		{block[:3], [3]int64{2400, 2400, 200}, ""},                 // an edge three blocks share
		{pinch, [3]int64{2400, 2400, 200}, ""},                     // the edge of a diagonal pinch
	} {
		c := &prCase{rules: RulesDnD5e, kind: "sphere", size: 2, point: &tc.point, obst: tc.obst,
			bounds: &Bounds{Min: [3]int{2, 2, -2}, Max: [3]int{9, 9, 3}}}
		if got := prReference(c).code; got != tc.code {
			t.Fatalf("reference: %s: want %q, got %q", c, tc.code, got)
		}
		if msg := prCheck(c); msg != "" {
			t.Errorf("%s\n  request: %s", msg, c)
		}
		c.rules, c.kind = RulesPF2e, "cone"
		c.compass = "E"
		if msg := prCheck(c); msg != "" {
			t.Errorf("%s\n  request: %s", msg, c)
		}
	}
}

// TestPointRef_SpecExamples checks the squares SPEC §10.5 and §11.2 count by hand, against the
// reference and against Evaluate.
func TestPointRef_SpecExamples(t *testing.T) {
	flat := &Bounds{Min: [3]int{-10, -10, 0}, Max: [3]int{20, 20, 0}}
	for _, tc := range []struct {
		name string
		c    *prCase
		n    int
	}{
		{"§10.5 20-foot sphere on the floor", &prCase{rules: RulesDnD5e, kind: "sphere", size: 4, point: &[3]int64{2000, 2000, 0}}, 52},
		{"§10.5 20-foot sphere at mid-height", &prCase{rules: RulesDnD5e, kind: "sphere", size: 4, point: &[3]int64{2000, 2000, 200}}, 52},
		{"§11.2 20-foot burst", &prCase{rules: RulesPF2e, kind: "burst", size: 4, point: &[3]int64{2000, 2000, 0}}, 44},
		{"§11.2 15-foot cone E", &prCase{rules: RulesPF2e, kind: "cone", size: 3, compass: "E", caster: &Token{X: 5, Y: 5}}, 7},
		{"§11.2 15-foot cone NE", &prCase{rules: RulesPF2e, kind: "cone", size: 3, compass: "NE", caster: &Token{X: 5, Y: 5}}, 6},
		{"§10.5 10-foot cube SE", &prCase{rules: RulesDnD5e, kind: "cube", size: 2, point: &[3]int64{1200, 1600, 0}}, 4},
	} {
		tc.c.bounds = flat
		w := prReference(tc.c)
		if len(w.cells) != tc.n {
			t.Errorf("%s: reference counts %d squares, SPEC %d", tc.name, len(w.cells), tc.n)
		}
		if msg := prCheck(tc.c); msg != "" {
			t.Errorf("%s: %s", tc.name, msg)
		}
	}
	// §10.5's cube: 10-foot at (3, 4, 0) covers x 3…4, y 4…5 toward SE, y 2…3 toward NE.
	for _, tc := range []struct {
		dir  string
		minY int32
	}{{"SE", 4}, {"NE", 2}} {
		c := &prCase{rules: RulesDnD5e, kind: "cube", size: 2, point: &[3]int64{1200, 1600, 0}, compass: tc.dir,
			bounds: &Bounds{Min: [3]int{-5, -5, -5}, Max: [3]int{10, 10, 5}}}
		w := prReference(c)
		want := [][3]int32{}
		for z := int32(0); z <= 1; z++ {
			for y := tc.minY; y <= tc.minY+1; y++ {
				want = append(want, [3]int32{3, y, z}, [3]int32{4, y, z})
			}
		}
		if d := prDiff(want, w.cells); d != "" {
			t.Errorf("reference, cube %s: %s", tc.dir, d)
		}
		if msg := prCheck(c); msg != "" {
			t.Errorf("cube %s: %s", tc.dir, msg)
		}
	}
}

// prCellSensitive reports whether the cell's membership (the reference's shape test alone)
// changes when one of the tweaks is applied to the placed geometry.
func prCellSensitive(c *prCase, cell [3]int64, tweaks ...func(*prGeom)) bool {
	g, code := prPlace(c)
	if code != "" {
		return false
	}
	var zs prZ
	zs.setup(c, &g)
	base := prMember(c, &g, &zs, cell)
	for _, tw := range tweaks {
		g2 := g
		tw(&g2)
		zs.setup(c, &g2)
		if prMember(c, &g2, &zs, cell) != base {
			return true
		}
	}
	return false
}

// TestPointRef_RoundingSensitive compares Evaluate with the reference where the exact rounding
// of SPEC §10.2's direction vector v = (round(2¹⁶·cos θ), round(2¹⁶·sin θ), 0) or of §10.5's cone
// tangent t = round(2¹⁶·tan(angle/2)) decides a square. Each case aims a line's edge or a
// cone's side (tan ½, or an angle) at a chosen square's centre, θ or the angle read to 1/400
// of a degree, and is kept only when moving a component of v, or t, by one unit changes that
// square; then the whole area is compared.
func TestPointRef_RoundingSensitive(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 21))
	vecTweaks := []func(*prGeom){
		func(g *prGeom) { g.v[0]++ }, func(g *prGeom) { g.v[0]-- },
		func(g *prGeom) { g.v[1]++ }, func(g *prGeom) { g.v[1]-- },
	}
	tanTweaks := []func(*prGeom){func(g *prGeom) { g.angleT++ }, func(g *prGeom) { g.angleT-- }}
	const want = 80
	found := map[string]int{}
	trials := 0
	for ; trials < 20000; trials++ {
		if found["line 5e"] >= want && found["line pf2e"] >= want && found["cone tan ½"] >= want && found["cone angle"] >= want {
			break
		}
		p := [3]int64{prCoord(r, 0, 1), prCoord(r, 0, 1), 0}
		rad := 3 + 11*r.Float64()
		phi := 2 * math.Pi * r.Float64()
		cell := [3]int64{prFloorDiv(p[0]+int64(rad*math.Cos(phi)*prQ), prQ), prFloorDiv(p[1]+int64(rad*math.Sin(phi)*prQ), prQ), 0}
		w := [3]float64{float64(cell[0]*prQ+prQ/2-p[0]) / prQ, float64(cell[1]*prQ+prQ/2-p[1]) / prQ, 0.5}
		wxy := math.Hypot(w[0], w[1])
		wn := math.Sqrt(wxy*wxy + 0.25)
		phi = math.Atan2(w[1], w[0])
		sign := float64(2*r.IntN(2) - 1)
		c := &prCase{rules: RulesDnD5e, point: &p, bounds: &Bounds{Min: [3]int{-16, -16, 0}, Max: [3]int{17, 17, 0}}}
		var theta float64
		var name string
		tweaks := vecTweaks
		switch r.IntN(4) {
		case 0, 1: // a line's edge: perpendicular distance W/2
			name = "line 5e"
			c.kind, c.width, c.size = "line", 1+r.IntN(3), int(math.Ceil(wn))+1
			if r.IntN(2) == 0 {
				name, c.rules, c.size = "line pf2e", RulesPF2e, 40
			}
			theta = phi + sign*math.Asin(float64(c.width)/2/wxy)
		case 2: // a cone's side, tan ½: cos α = 2/√5 in 3-D
			name = "cone tan ½"
			c.kind, c.size = "cone", int(math.Ceil(wn))+1
			theta = phi + sign*math.Acos(wn*2/math.Sqrt(5)/wxy)
		default: // an angled cone's side through the square: the angle is 2α
			name, tweaks = "cone angle", tanTweaks
			c.kind, c.size = "cone", int(math.Ceil(wn))+1
			theta = phi + sign*0.9*r.Float64()*math.Acos(wxy/wn) + (r.Float64()-0.5)*2.6
			v := prDegVec(int64(math.Round(theta * 180 / math.Pi * prQ)))
			cosA := (w[0]*float64(v[0]) + w[1]*float64(v[1])) / wn / math.Hypot(float64(v[0]), float64(v[1]))
			a := int64(math.Round(2 * math.Acos(cosA) * 180 / math.Pi * prQ))
			if a < prQ || a > 179*prQ {
				continue
			}
			c.angle = a
		}
		d := int64(math.Round(theta * 180 / math.Pi * prQ))
		c.deg = &d
		if found[name] >= want || !prCellSensitive(c, cell, tweaks...) {
			continue
		}
		found[name]++
		if msg := prCheck(c); msg != "" {
			t.Errorf("%s, sensitive at %v: %s\n  request: %s", name, cell, msg, c)
		}
	}
	t.Logf("%d trials, rounding-sensitive cases checked: %v", trials, found)
}

// TestPointRef_DefaultOriginTies checks SPEC §10.5's default origin where its rounding ties:
// cones and lines aimed from a caster at points whose ray leaves the caster's space half-way
// between two lattice points on some axis; the tie goes toward +∞ on every axis.
func TestPointRef_DefaultOriginTies(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 31))
	found := 0
	for trial := 0; trial < 20000 && found < 150; trial++ {
		s := 1 + r.IntN(3)
		tk := &Token{X: 3 + r.IntN(4), Y: 3 + r.IntN(4), Z: -r.IntN(2), Size: s}
		if r.IntN(3) == 0 {
			tk.Height = 1 + r.IntN(3)
		}
		ctr := prCasterCentre(tk)
		h := int64(tk.Height)
		if h == 0 {
			h = int64(s)
		}
		half := [3]int64{int64(s) * prQ / 2, int64(s) * prQ / 2, h * prQ / 2}
		// The ray leaves through the face of axis i (|v_i| = 2·half_i, the others smaller):
		// there the other coordinates move by v_j/2, a tie when v_j is odd.
		var v [3]int64
		i := r.IntN(2)
		v[i] = 2 * half[i] * (2*r.Int64N(2) - 1)
		v[1-i] = 2*r.Int64N(2*half[1-i]) - 2*half[1-i] + 1
		c := &prCase{rules: RulesDnD5e, kind: "cone", size: 1 + r.IntN(6), caster: tk,
			bounds: &Bounds{Min: [3]int{-2, -2, -1}, Max: [3]int{13, 13, 1}}}
		switch r.IntN(3) {
		case 0:
			c.kind, c.width = "line", 1+r.IntN(2)
		case 1:
			c.rules, c.kind = RulesPF2e, "line"
		default:
			if r.IntN(2) == 0 {
				v[2] = 2*r.Int64N(2*half[2]) - 2*half[2] + 1
			}
			if r.IntN(3) == 0 { // or through the top or the bottom
				v[0], v[2] = v[2], v[0]
				if prAbs(v[0]) >= 2*half[0] {
					v[0] = 1
				}
				v[2] = 2 * half[2] * (2*r.Int64N(2) - 1)
			}
		}
		k := 1 + 2*r.Int64N(3) // any odd multiple aims the same way
		v = [3]int64{k * v[0], k * v[1], k * v[2]}
		tie := false
		prExitTie = &tie
		prExitPoint(tk, v)
		prExitTie = nil
		if !tie {
			continue
		}
		found++
		c.aim = &[3]int64{ctr[0] + v[0], ctr[1] + v[1], ctr[2] + v[2]}
		if msg := prCheck(c); msg != "" {
			t.Errorf("%s\n  request: %s", msg, c)
		}
	}
	if found < 150 {
		t.Errorf("only %d tie cases found", found)
	}
}

// ---------------------------------------------------------------------------------------------
// Properties: Evaluate compared with itself on transformed scenes.

// prMap is an isometry p ↦ O + M(p − O) of the board, M a signed permutation matrix that maps
// cell centres to cell centres (O on the half-lattice).
type prMap struct {
	o [3]int64
	m [3][3]int64
}

func (t prMap) point(p [3]int64) [3]int64 {
	var r [3]int64
	for i := range 3 {
		r[i] = t.o[i]
		for j := range 3 {
			r[i] += t.m[i][j] * (p[j] - t.o[j])
		}
	}
	return r
}

func (t prMap) cell(c [3]int64) [3]int64 {
	p := t.point([3]int64{c[0]*prQ + prQ/2, c[1]*prQ + prQ/2, c[2]*prQ + prQ/2})
	for _, x := range p {
		if prFloorDiv(x, prQ)*prQ+prQ/2 != x {
			panic(fmt.Sprintf("prMap: cell %v maps to %v, not a centre", c, p))
		}
	}
	return [3]int64{prFloorDiv(p[0], prQ), prFloorDiv(p[1], prQ), prFloorDiv(p[2], prQ)}
}

// flips reports whether the map reverses orientation on the plane (one-way walls change side).
func (t prMap) flips() bool { return t.m[0][0]*t.m[1][1]-t.m[0][1]*t.m[1][0] < 0 }

// scene maps c's scene — origin, aim, compass, obstacles, walls, a cylinder's direction — by t.
func (t prMap) scene(c *prCase) *prCase {
	d := *c
	if c.point != nil {
		p := t.point(*c.point)
		d.point = &p
	}
	if c.aim != nil {
		a := t.point(*c.aim)
		d.aim = &a
	}
	if c.compass != "" {
		off := prOffset[prCompassIndex(c.compass)]
		q := t.point([3]int64{t.o[0] + off[0], t.o[1] + off[1], t.o[2]})
		for i, o := range prOffset {
			if o == [2]int64{q[0] - t.o[0], q[1] - t.o[1]} {
				d.compass = prCompass[i]
			}
		}
	}
	d.obst = nil
	for _, o := range c.obst {
		d.obst = append(d.obst, t.cell(o))
	}
	d.walls = nil
	for _, w := range c.walls {
		a := t.point([3]int64{w.a[0], w.a[1], 0})
		b := t.point([3]int64{w.b[0], w.b[1], 0})
		w.a, w.b = [2]int64{a[0], a[1]}, [2]int64{b[0], b[1]}
		if t.flips() {
			w.from = map[string]string{"": "", "left": "right", "right": "left"}[w.from]
		}
		if t.m[2][2] < 0 {
			var bottom, top *int64
			if w.top != nil {
				bottom = prPtr(2*t.o[2] - *w.top)
			}
			if w.bottom != nil {
				top = prPtr(2*t.o[2] - *w.bottom)
			}
			w.bottom, w.top = bottom, top
		}
		d.walls = append(d.walls, w)
	}
	if t.m[2][2] < 0 && c.kind == "cylinder" {
		d.down = !c.down
	}
	return &d
}

// prCells evaluates c: its cells, or the error.
func prCells(c *prCase) ([][3]int32, error) {
	res, err := Evaluate(c.request())
	if err != nil {
		return nil, err
	}
	return res.Cells, nil
}

// prMapCells maps a cell list by t and sorts it by z, y, x.
func prMapCells(t prMap, cells [][3]int32) [][3]int32 {
	out := make([][3]int32, 0, len(cells))
	for _, c := range cells {
		m := t.cell([3]int64{int64(c[0]), int64(c[1]), int64(c[2])})
		out = append(out, [3]int32{int32(m[0]), int32(m[1]), int32(m[2])})
	}
	slices.SortFunc(out, func(a, b [3]int32) int {
		for _, i := range [3]int{2, 1, 0} {
			if a[i] != b[i] {
				return int(a[i]) - int(b[i])
			}
		}
		return 0
	})
	return out
}

// prSceneNear draws a few full obstacles and walls around the point p, on the lattice of
// 1/8 square relative to it.
func prSceneNear(r *rand.Rand, c *prCase, p [3]int64) {
	c.walls = prGenWalls(r, p)
	c.obst = prGenObstacles(r, p)
}

// prPropOrigin draws an origin on a square's centre or a grid intersection in the plane (any
// height on the lattice unless whole is set).
func prPropOrigin(r *rand.Rand, whole bool) [3]int64 {
	h := r.Int64N(2) * prQ / 2 // both on a centre or both on a grid line
	p := [3]int64{(4+r.Int64N(5))*prQ + h, (4+r.Int64N(5))*prQ + h, prCoordZ(r)}
	if whole {
		p[2] = r.Int64N(2)*prQ + r.Int64N(2)*prQ/2
	}
	return p
}

func prRot90(o [3]int64) prMap { // a quarter turn clockwise on screen: (dx, dy) ↦ (−dy, dx)
	return prMap{o: o, m: [3][3]int64{{0, -1, 0}, {1, 0, 0}, {0, 0, 1}}}
}

// prPropDirected draws a random cone or line scene for the direction properties.
func prPropDirected(r *rand.Rand) *prCase {
	c := &prCase{rules: RulesDnD5e, size: 1 + r.IntN(6)}
	switch r.IntN(5) {
	case 0:
		c.kind = "cone"
		c.round = r.IntN(2) == 0
		if r.IntN(3) == 0 {
			c.angle = prQ + r.Int64N(178*prQ+1)
		}
	case 1:
		c.kind, c.width = "line", 1+r.IntN(3)
	case 2:
		c.rules, c.kind = RulesPF2e, "cone"
	default:
		c.rules, c.kind, c.width = RulesPF2e, "line", 1+r.IntN(3)
	}
	p := prPropOrigin(r, false)
	c.point = &p
	prSceneNear(r, c, p)
	return c
}

// TestPointProp_CompassRotations checks SPEC §1.2 and §10.2: the eight compass directions of a
// dnd5e cone or line and of a pf2e cone or line, from a square's centre or a grid intersection,
// give cell sets that are quarter turns of each other about the origin (N → E → S → W,
// NE → SE → SW → NW), the obstacles and walls turned with them.
func TestPointProp_CompassRotations(t *testing.T) {
	r := rand.New(rand.NewPCG(40, 41))
	n := 0
	for range 150 {
		c := prPropDirected(r)
		rot := prRot90(*c.point)
		for d := range 8 {
			c.compass = prCompass[d]
			a, errA := prCells(c)
			c2 := rot.scene(c)
			if c2.compass != prCompass[(d+2)%8] {
				t.Fatalf("rotation maps %s to %s", prCompass[d], c2.compass)
			}
			b, errB := prCells(c2)
			if errA != nil || errB != nil {
				if (errA == nil) != (errB == nil) {
					t.Errorf("%s: %v, turned %v", c, errA, errB)
				}
				continue
			}
			n++
			if msg := prDiff(prMapCells(rot, a), b); msg != "" {
				t.Errorf("%s, turned a quarter toward %s: %s (turned cells as want)", c, c2.compass, msg)
			}
		}
	}
	t.Logf("%d pairs", n)
}

// TestPointProp_DegreeRotations checks §10.2's vector under a quarter turn: θ + 90° is v turned
// exactly ((−v_y, v_x) as round(2¹⁶·cos), round(2¹⁶·sin) are odd functions), so the area of
// θ + 90° on the turned scene is the turned area; an aim point turned with the scene likewise.
func TestPointProp_DegreeRotations(t *testing.T) {
	r := rand.New(rand.NewPCG(50, 51))
	n := 0
	for range 600 {
		c := prPropDirected(r)
		if c.rules == RulesPF2e && c.kind == "cone" {
			c.rules = RulesDnD5e
		}
		rot := prRot90(*c.point)
		c2 := rot.scene(c)
		if r.IntN(2) == 0 {
			d := r.Int64N(720*prQ) - 360*prQ
			c.deg = &d
			d2 := d + 90*prQ
			c2.deg = &d2
		} else {
			a := [3]int64{c.point[0] + prCoord(r, -5, 5), c.point[1] + prCoord(r, -5, 5), c.point[2]}
			if c.kind == "cone" && r.IntN(2) == 0 {
				a[2] += prCoord(r, -3, 3)
			}
			if a[0] == c.point[0] && a[1] == c.point[1] {
				continue
			}
			c.aim = &a
			c2 = rot.scene(c)
		}
		a, errA := prCells(c)
		b, errB := prCells(c2)
		if errA != nil || errB != nil {
			if (errA == nil) != (errB == nil) {
				t.Errorf("%s: %v, turned %v", c, errA, errB)
			}
			continue
		}
		n++
		if msg := prDiff(prMapCells(rot, a), b); msg != "" {
			t.Errorf("%s, turned a quarter (%s): %s (turned cells as want)", c, c2, msg)
		}
	}
	t.Logf("%d pairs", n)
}

// TestPointProp_DegreesAsCompass checks §10.2: a multiple of 45° gives exactly the compass
// direction (−90 and 630 mean north), and an aim point straight along a compass direction gives
// the same area as its name.
func TestPointProp_DegreesAsCompass(t *testing.T) {
	r := rand.New(rand.NewPCG(60, 61))
	n := 0
	for range 120 {
		c := prPropDirected(r)
		for d := range 8 {
			c.compass, c.deg, c.aim = prCompass[d], nil, nil
			want, err := prCells(c)
			if err != nil {
				t.Errorf("%s: %v", c, err)
				continue
			}
			c.compass = ""
			for _, k := range []int64{-360, 0, 360} {
				deg := (prCompassDegrees[d] + k) * prQ
				c.deg = &deg
				got, err := prCells(c)
				n++
				if err != nil {
					t.Errorf("%s: %v", c, err)
				} else if msg := prDiff(want, got); msg != "" {
					t.Errorf("%s (compass %s): %s", c, prCompass[d], msg)
				}
			}
			c.deg = nil
			if c.rules == RulesPF2e && c.kind == "cone" {
				continue // §11.2 names compass names and multiples of 45° only
			}
			m := 1 + r.Int64N(3)*prQ/2 + r.Int64N(2)*prQ
			c.aim = &[3]int64{c.point[0] + m*prOffset[d][0], c.point[1] + m*prOffset[d][1], c.point[2]}
			got, err := prCells(c)
			n++
			if err != nil {
				t.Errorf("%s: %v", c, err)
			} else if msg := prDiff(want, got); msg != "" {
				t.Errorf("%s (compass %s): %s", c, prCompass[d], msg)
			}
		}
	}
	t.Logf("%d comparisons", n)
}

// TestPointProp_Mirrors checks that spheres (§10.5), bursts (§11.2) and cylinders are symmetric:
// mirrored in the vertical planes x = O_x and y = O_y, in the diagonal plane through O, and
// (up ↔ down for a cylinder) in the horizontal plane z = O_z, the obstacles and walls mirrored
// with them (a one-way wall's side swaps under a mirror of the plane).
func TestPointProp_Mirrors(t *testing.T) {
	r := rand.New(rand.NewPCG(70, 71))
	n := 0
	for range 250 {
		c := &prCase{rules: RulesDnD5e, kind: "sphere", size: 1 + r.IntN(6)}
		whole := false
		switch r.IntN(4) {
		case 0:
			c.rules, c.kind, whole = RulesPF2e, "burst", true
		case 1:
			c.kind, c.height, c.down = "cylinder", 1+r.IntN(5), r.IntN(2) == 0
			if r.IntN(2) == 0 {
				c.rules = RulesPF2e
			}
		}
		p := prPropOrigin(r, true)
		if whole {
			p = [3]int64{prFloorDiv(p[0], prQ) * prQ, prFloorDiv(p[1], prQ) * prQ, prFloorDiv(p[2], prQ) * prQ}
		}
		c.point = &p
		prSceneNear(r, c, p)
		a, errA := prCells(c)
		for _, m := range [][3][3]int64{
			{{-1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, // x ↦ 2O_x − x
			{{1, 0, 0}, {0, -1, 0}, {0, 0, 1}}, // y ↦ 2O_y − y
			{{0, 1, 0}, {1, 0, 0}, {0, 0, 1}},  // x ↔ y about O
			{{1, 0, 0}, {0, 1, 0}, {0, 0, -1}}, // z ↦ 2O_z − z
		} {
			mir := prMap{o: p, m: m}
			c2 := mir.scene(c)
			b, errB := prCells(c2)
			if errA != nil || errB != nil {
				if (errA == nil) != (errB == nil) {
					t.Errorf("%s: %v, mirrored %v", c, errA, errB)
				}
				continue
			}
			n++
			if msg := prDiff(prMapCells(mir, a), b); msg != "" {
				t.Errorf("%s, mirrored by %v (%s): %s (mirrored cells as want)", c, m, c2, msg)
			}
		}
	}
	t.Logf("%d pairs", n)
}

// TestPointRef_DiagonalPinch aims at SPEC §5.2's second clause, through §10.4: two full blocks
// meeting only along an edge (or at a corner) close the gap between them. Each case places such
// a pair (in a horizontal or a vertical plane, or corner to corner) and an origin on a line
// through the shared edge or corner, so that segments to the squares beyond pass exactly
// through it, and compares a sphere's cells with the reference.
func TestPointRef_DiagonalPinch(t *testing.T) {
	r := rand.New(rand.NewPCG(80, 81))
	prStat = &prStats{codes: map[Code]int{}}
	defer func() { prStat = nil }()
	for range 200 {
		e := [3]int64{5 + r.Int64N(3), 5 + r.Int64N(3), r.Int64N(2)} // the shared edge's or corner's grid point
		perm := [][3]int{{0, 1, 2}, {0, 2, 1}, {1, 2, 0}}[r.IntN(3)] // the pinch's plane: axes perm[0], perm[1]
		corner := r.IntN(4) == 0
		flip := int64(2*r.IntN(2) - 1) // which diagonal pair
		var a, b [3]int64
		a[perm[0]], a[perm[1]] = e[perm[0]]-1, e[perm[1]]-1
		b[perm[0]], b[perm[1]] = e[perm[0]], e[perm[1]]
		if flip < 0 {
			a[perm[1]], b[perm[1]] = e[perm[1]], e[perm[1]]-1
		}
		a[perm[2]] = e[perm[2]] - 1 + r.Int64N(2) // an edge: both blocks on one level of its axis
		b[perm[2]] = a[perm[2]]
		if corner {
			a[perm[2]], b[perm[2]] = e[perm[2]]-1, e[perm[2]]
		}
		// The origin, on a line through the edge or corner that crosses between the two blocks.
		var dir [3]int64
		dir[perm[0]], dir[perm[1]] = 1+2*r.Int64N(3), -flip*(1+2*r.Int64N(3))
		if corner {
			dir[perm[2]] = -flip * (1 + 2*r.Int64N(3))
		}
		j := 1 + r.Int64N(16)
		var o [3]int64
		for i := range 3 {
			o[i] = e[i]*prQ - dir[i]*j*prQ/8
		}
		if !corner { // anywhere along the edge's own axis
			o[perm[2]] = e[perm[2]]*prQ - prQ + r.Int64N(2*prQ+1)
		}
		c := &prCase{rules: RulesDnD5e, kind: "sphere", size: 6, point: &o, obst: [][3]int64{a, b},
			bounds: &Bounds{Min: [3]int{1, 1, -2}, Max: [3]int{11, 11, 3}}}
		if r.IntN(2) == 0 {
			c.rules, c.kind = RulesPF2e, "burst"
			c.point = &[3]int64{prFloorDiv(o[0], prQ) * prQ, prFloorDiv(o[1], prQ) * prQ, prFloorDiv(o[2], prQ) * prQ}
		}
		if msg := prCheck(c); msg != "" {
			t.Errorf("%s\n  request: %s", msg, c)
		}
	}
	if prStat.solidPinchOnly < 100 {
		t.Errorf("only %d squares cut by a pinch alone", prStat.solidPinchOnly)
	}
	t.Logf("squares cut by a pinch alone: %d, by solid interiors: %d", prStat.solidPinchOnly, prStat.solidInside)
}
