package engine

import (
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/internal/num"
	"github.com/aoekit/aoekit/core/los"
	"github.com/aoekit/aoekit/core/notation"
	"github.com/aoekit/aoekit/core/spread"
	"github.com/aoekit/aoekit/core/template"
)

// Point-origin areas (SPEC §10 dnd5e, §11 pf2e): an area spreads from a point, and a square is
// in it when the shape covers its centre and the segment from the origin to that centre is
// clear (§10.4). The geometry is core/spread's; this file places the shape, reads the board,
// finds the clear path and judges the targets. Cover is pointcover.go's.

// pointRules is the request's point-origin rule set, when it has one: its "rules", or its
// template object's.
func pointRules(req *Request) (spread.Rules, bool) {
	r := req.Rules
	if r == "" && req.Template.Object != nil {
		r = req.Template.Object.Rules
	}
	return spreadRules(r)
}

func spreadRules(r Rules) (spread.Rules, bool) {
	switch r {
	case RulesDnD5e:
		return spread.DnD5e, true
	case RulesPF2e:
		return spread.PF2e, true
	}
	return 0, false
}

// ParseRules reads template notation of the rule set rules (CONTRACT parse with rules): §10.3's
// forms for dnd5e and pf2e, Parse's for the others ("" is Parse).
func ParseRules(text string, rules Rules) (Template, error) {
	r, ok := spreadRules(rules)
	if !ok {
		switch rules {
		case "", RulesTDGS, RulesDrawSteel, RulesCircle50:
			return Parse(text)
		}
		return Template{}, newError(CodeBadRequest, "rules: expected tdgs, drawsteel, circle50, dnd5e or pf2e, got "+num.Quote(string(rules)))
	}
	s, e := pointNotation("", text, r)
	if e != nil {
		return Template{}, e
	}
	t := templateOfPoint(s)
	t.Text = text
	return t, nil
}

// pointNotation reads §10.3's notation for field (its errors name it; "" for parse's text).
func pointNotation(field, text string, r spread.Rules) (spread.Shape, *Error) {
	s, err := notation.ParsePoint(text, r)
	if err != nil {
		e := &Error{Code: CodeBadNotation, Message: err.Error(), Field: field}
		if se, ok := err.(*notation.SyntaxError); ok {
			e.At = se.Pos
		}
		return s, e
	}
	return s, nil
}

// pointNotationHint is the bad_request for point-origin notation given without rules (SPEC
// §10.3): the same text means a different shape in dnd5e and in pf2e. ok is false when the
// text is no point-origin notation in either, and names no size in feet ("22-foot burst" is
// meant for a game, wrong as it is: the rules come first, then its own error).
func pointNotationHint(text string) (*Error, bool) {
	_, e5 := notation.ParsePoint(text, spread.DnD5e)
	_, e2 := notation.ParsePoint(text, spread.PF2e)
	if e5 != nil && e2 != nil && !inFeet(text) {
		return nil, false
	}
	return newError(CodeBadRequest, "rules is required: "+num.Quote(text)+" is point-origin notation (SPEC §10.3), which means a different shape in each game: give \"rules\": \"dnd5e\" or \"pf2e\""), true
}

// inFeet reports whether text has a number followed by a unit of feet ("20-foot", "20 ft",
// "20feet"), in any case: a size in feet, which only point-origin notation has.
func inFeet(text string) bool {
	for i := 0; i < len(text); i++ {
		if text[i] < '0' || text[i] > '9' {
			continue
		}
		j := i
		for j < len(text) && text[j] >= '0' && text[j] <= '9' {
			j++
		}
		for j < len(text) && (text[j] == ' ' || text[j] == '-') {
			j++
		}
		for _, unit := range [3]string{"foot", "feet", "ft"} {
			if k := j + len(unit); k <= len(text) && equalASCII(text[j:k], unit) && (k == len(text) || !isLetter(text[k])) {
				return true
			}
		}
		i = j
	}
	return false
}

func equalASCII(s, lower string) bool {
	for i := range len(lower) {
		if c := s[i] | 0x20; c != lower[i] {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// templateOfPoint is the CONTRACT form of a point-origin shape.
func templateOfPoint(s spread.Shape) Template {
	t := Template{Notation: s.String(), Rules: Rules(s.Rules.String()), Shape: s.Kind.String()}
	switch s.Kind {
	case spread.Cone, spread.Line:
		t.Length = s.Size
	case spread.Cube:
		t.Side = s.Size
	default:
		t.Radius = s.Size
	}
	if s.Kind == spread.Line {
		t.Width = s.W()
	}
	t.Height, t.Down = s.Height, s.Down
	if s.Round {
		t.Base = "round"
	}
	if s.Angle != 0 {
		t.Angle = float64(s.Angle) / los.Unit
	}
	return t
}

// pointShapeOf builds a point-origin shape from a request's template: notation of the rule set
// r, or an object in squares.
func pointShapeOf(ref TemplateRef, r spread.Rules) (spread.Shape, *Error) {
	if ref.Object == nil {
		if ref.Text == "" {
			return spread.Shape{}, newError(CodeBadRequest, "template is required: notation such as \"20-foot-radius sphere\" or a template object")
		}
		return pointNotation("template", ref.Text, r)
	}
	o := ref.Object
	if o.Rules != "" && o.Rules != Rules(r.String()) {
		return spread.Shape{}, newError(CodeBadRequest, "template.rules: "+num.Quote(string(o.Rules))+" is not the request's rules "+num.Quote(r.String()))
	}
	if o.Shape == "" {
		switch {
		case o.Notation != "":
			return pointNotation("template.notation", o.Notation, r)
		case o.Text != "":
			return pointNotation("template.text", o.Text, r)
		}
		return spread.Shape{}, newError(CodeBadRequest, "template: an object needs \"shape\" or \"notation\"")
	}
	k, ok := spread.ParseKind(o.Shape)
	if !ok {
		return spread.Shape{}, newError(CodeBadRequest, "template.shape: unknown shape "+num.Quote(o.Shape)+" for rules "+num.Quote(r.String())+
			" (expected sphere, cylinder, cone, cube, line, emanation or burst)")
	}
	s := spread.Shape{Rules: r, Kind: k, Height: o.Height, Down: o.Down}
	switch k {
	case spread.Cone, spread.Line:
		s.Size = o.Length
	case spread.Cube:
		s.Size = o.Side
	default:
		s.Size = o.Radius
	}
	if k == spread.Line && o.Width != 1 {
		s.Width = o.Width
	}
	switch o.Base {
	case "", "flat":
	case "round":
		s.Round = true
	default:
		return s, newError(CodeBadRequest, "template.base: expected \"flat\" or \"round\", got "+num.Quote(o.Base))
	}
	if o.Angle != 0 {
		a, ok := coordOf(o.Angle)
		if !ok || a < 0 || a > 180*los.Unit {
			return s, newError(CodeBadRequest, "template.angle: expected 1 … 179 degrees, got "+fmtFloat(o.Angle))
		}
		if s.Angle = int(a); a == 0 {
			s.Angle = -1 // rounds to 0: Validate refuses it
		}
	}
	if err := s.Validate(); err != nil {
		if se, ok := err.(*spread.Error); ok {
			return s, newError(CodeBadRequest, "template."+se.Field+": "+se.Msg)
		}
		return s, newError(CodeBadRequest, "template: "+err.Error())
	}
	return s, nil
}

// A pointSetup is a point-origin evaluate request validated and placed.
type pointSetup struct {
	req     *Request
	shape   spread.Shape
	area    spread.Area
	caster  *entity
	given   bool      // the point was given (the caster needs line of effect to it, §10.4)
	src     los.Point // what the clear path and cover are traced from: O, or the caster's centre (emanation)
	metric  spread.Metric
	bounds  *Bounds
	board   *Scene
	barrier bool // obstacles and walls shape the area (§10.4; the request's "barriers")
	cover   bool // targets are judged for cover ("cover": "none" turns it off)
	apply   bool // total cover leaves a target unaffected
	crowd   CreatureCover
	w       *budget
	sel     selection // targeting.ids as a set (allowedPoint)
}

// pointLattice is a request's point on the lattice.
func pointLattice(where string, p *Point) (los.Point, *Error) {
	var out [3]int64
	for k, v := range [3]float64{p.X, p.Y, p.Z} {
		n, ok := coordOf(v)
		if !ok {
			return los.Point{}, coordError(label{where, -1}, [3]string{"x", "y", "z"}[k], v)
		}
		out[k] = n
	}
	return los.Point{X: out[0], Y: out[1], Z: out[2]}, nil
}

// worldText is a lattice point as "(x, y, z)" in squares, for messages.
func worldText(p los.Point) string {
	w := p.World()
	return "(" + fmtFloat(w[0]) + ", " + fmtFloat(w[1]) + ", " + fmtFloat(w[2]) + ")"
}

// pointSetupOf validates req, a point-origin request of the rule set r, in field order, and
// places its shape (SPEC §10.5, §10.7, §11.2).
func pointSetupOf(req *Request, on *Scene, r spread.Rules) (s pointSetup, _ *Error) {
	s.req, s.w, s.board = req, &budget{}, on
	if on != nil {
		if e := noBoard(req); e != nil {
			return s, e
		}
	}
	shape, e := pointShapeOf(req.Template, r)
	if e != nil {
		return s, e
	}
	s.shape = shape
	if e = checkTrait(req.Targeting.Trait); e != nil {
		return s, e
	}
	if !validMetric(req.Metric) {
		return s, newError(CodeBadRequest, "metric: expected chebyshev, alternating, manhattan or euclidean, got "+num.Quote(string(req.Metric)))
	}
	s.metric = metricOf(req.Metric, r)
	if rg := req.Range; rg.Kind == RangeSquares && (rg.Squares < 0 || rg.Squares > template.MaxDim) {
		return s, newError(CodeBadRequest, "range: expected 0 … "+num.Itoa(template.MaxDim)+", got "+num.Itoa(rg.Squares))
	}
	switch req.Cover {
	case "", CoverNone:
		s.cover = req.Cover == ""
	default:
		return s, newError(CodeBadRequest, "cover: a "+r.String()+" request grades cover by its own rules (SPEC §10.8, §11.5): expected none or nothing, got "+num.Quote(string(req.Cover)))
	}
	switch req.CreatureCover {
	case "":
		s.crowd = CreatureHalf
	case CreatureHalf, CreatureFull, CreatureNone:
		s.crowd = req.CreatureCover
	default:
		return s, newError(CodeBadRequest, "creatureCover: expected half, full or none, got "+num.Quote(string(req.CreatureCover)))
	}
	s.barrier, s.apply = true, true
	if req.Barriers != nil {
		s.barrier = *req.Barriers
	}
	if req.ApplyCover != nil {
		s.apply = *req.ApplyCover
	}
	if req.Caster != nil {
		c, e := entityOf(field("caster"), req.Caster)
		if e != nil {
			return s, e
		}
		s.caster = &c
	}
	s.bounds = req.Bounds
	if on != nil {
		if e = on.casterClash(req.Caster); e != nil {
			return s, e
		}
		s.bounds = on.bounds
	} else {
		if e = checkTokens(req.Tokens, req.Caster, nil); e != nil {
			return s, e
		}
		if e = checkBounds(req.Bounds); e != nil {
			return s, e
		}
	}
	return s, s.place()
}

// metricOf is the distance of range and emanations (SPEC §10.6, §11.1): the request's metric,
// else the rule set's (dnd5e every diagonal 5 ft, pf2e 5-10).
func metricOf(m Metric, r spread.Rules) spread.Metric {
	switch m {
	case MetricAlternating:
		return spread.Alternating
	case MetricManhattan:
		return spread.Manhattan
	case MetricEuclidean:
		return spread.Euclidean
	case MetricChebyshev:
		return spread.Chebyshev
	}
	if r == spread.PF2e {
		return spread.Alternating
	}
	return spread.Chebyshev
}

// toward reads the request's direction (SPEC §10.2): a vector, or an aim point (aim true) from
// which the caller makes one. ok is false when none was given.
func (s *pointSetup) toward() (v spread.Vec, aim los.Point, isAim, ok bool, _ *Error) {
	t := &s.req.Toward
	switch {
	case t.Aim != nil:
		p, e := pointLattice("toward", t.Aim)
		return v, p, true, true, e
	case t.IsDegrees:
		d, ok := coordOf(t.Degrees)
		if !ok {
			return v, aim, false, true, newError(CodeBadRequest, "toward: expected degrees within ±"+num.Itoa(MaxCoord)+", got "+fmtFloat(t.Degrees))
		}
		return spread.Degrees(d), aim, false, true, nil
	case t.Compass != "":
		d, e := dirOf("toward", t.Compass)
		return spread.Compass(d), aim, false, true, e
	}
	return v, aim, false, false, nil
}

// place finds the origin point, the direction and the source of the shape (SPEC §10.5, §10.7,
// §11.2) and checks the range.
func (s *pointSetup) place() *Error {
	sh := &s.shape
	a := &s.area
	a.Shape, a.T, a.Metric = *sh, spread.TangentHalf, s.metric
	if sh.Angle > 0 {
		a.T = spread.Tangent(sh.Angle)
	}
	if sh.Kind == spread.Emanation {
		if s.req.Point != nil {
			return newError(CodeBadRequest, "point: an emanation spreads from its caster's space and takes no point (SPEC §10.5)")
		}
		if e := needCaster(s.caster, "an emanation"); e != nil {
			return e
		}
		a.Space = s.caster.space
		a.O = spread.Centre(a.Space)
		s.src = a.O
		return nil
	}
	if s.req.Point != nil {
		p, e := pointLattice("point", s.req.Point)
		if e != nil {
			return e
		}
		a.O, s.given = p, true
	}
	v, aim, isAim, ok, e := s.toward()
	if e != nil {
		return e
	}
	directed := sh.Kind == spread.Cone || sh.Kind == spread.Line
	switch {
	case directed && !ok:
		return newError(CodeBadRequest, "toward is required for a "+sh.Kind.String()+": a compass name, degrees or an aim point (SPEC §10.2)")
	case !directed && sh.Kind != spread.Cube && ok:
		return newError(CodeBadRequest, "toward: a "+sh.Kind.String()+" has no direction")
	case !s.given && !directed:
		return newError(CodeBadRequest, "point is required for a "+sh.Kind.String()+": its origin (SPEC §10.7)")
	case !s.given && s.caster == nil:
		return newError(CodeBadRequest, "point, or a caster to project it from, is required for a "+sh.Kind.String()+" (SPEC §10.5)")
	}
	if isAim {
		from := a.O
		if !s.given {
			from = spread.Centre(s.caster.space)
		}
		v = spread.Vec{aim.X - from.X, aim.Y - from.Y, aim.Z - from.Z}
		if v.Zero() {
			return newError(CodeBadRequest, "toward: the aim point "+worldText(aim)+" is the point it is aimed from: no direction")
		}
	}
	switch sh.Kind {
	case spread.Cube:
		if !ok {
			v = spread.Compass(grid.SE)
		}
		if d, c := v.Compass(); !c || !d.Diagonal() {
			return newError(CodeBadRequest, "toward: a cube extends toward NE, SE, SW or NW from its corner (SPEC §10.5)")
		}
		v = spread.Vec{spread.Sign(v[0]), spread.Sign(v[1]), 0}
	case spread.Line:
		if v[2] != 0 {
			return newError(CodeBadRequest, "toward: a line is horizontal; its direction has a vertical part (SPEC §10.5)")
		}
	case spread.Cone:
		if sh.Rules == spread.PF2e {
			if _, c := v.Compass(); !c {
				return newError(CodeBadRequest, "toward: a pf2e cone aims orthogonally or diagonally: a compass name or a multiple of 45° (SPEC §11.2)")
			}
			v = spread.Vec{spread.Sign(v[0]), spread.Sign(v[1]), 0}
		}
	}
	a.V = v
	if !s.given {
		a.O = spread.Exit(s.caster.space, v)
	}
	if (sh.Kind == spread.Burst || sh.Kind == spread.Cube) && (a.O.X%los.Unit != 0 || a.O.Y%los.Unit != 0 || a.O.Z%los.Unit != 0) {
		return newError(CodeBadRequest, "point: a "+sh.Kind.String()+" starts on a grid intersection: x, y and z must be whole numbers, got "+worldText(a.O))
	}
	s.src = a.O
	return s.checkRange()
}

// checkRange holds the origin point to the request's range from the caster's space (SPEC
// §10.6, §10.7).
func (s *pointSetup) checkRange() *Error {
	rg := s.req.Range
	if s.caster == nil || rg.Kind == RangeNone || !s.given {
		return nil
	}
	n := rg.Squares
	switch rg.Kind {
	case RangeSelf:
		n = 0
	case RangeTouch:
		n = 1
	}
	if d := s.metric.Dist(spread.SpaceGaps(s.caster.space, s.area.O)); d > n {
		return newError(CodeOutOfRange, "point "+worldText(s.area.O)+" is "+num.Itoa(d)+" squares from the caster; the range is "+num.Itoa(n))
	}
	return nil
}

// A pointScene is a point setup with its board read.
type pointScene struct {
	pointSetup
	box     grid.Box // the candidate cells: the shape's box inside the bounds
	state   []uint8  // per cell of box: 0, stBarred, stExcluded or stIn
	tokens  []entity // the tokens whose space meets box
	solids  *terrain
	visible bool
}

// evaluatePoint answers a point-origin request (SPEC §10, §11).
func evaluatePoint(ctx Context, req *Request, on *Scene, r spread.Rules) (*Result, *Error) {
	s, e := pointSetupOf(req, on, r)
	if e != nil {
		return nil, e
	}
	if s.w.ctx = ctx; s.w.stop(1 << 16) {
		return nil, s.w.err
	}
	sc, e := s.read()
	if e != nil {
		return nil, e
	}
	if e = sc.checkOrigin(); e != nil {
		return nil, e
	}
	if e = sc.spread(); e != nil {
		return nil, e
	}
	if e = sc.exclude(); e != nil {
		return nil, e
	}
	return sc.result()
}

// read finds the candidate box (the shape's, inside the bounds; at most MaxCells cells), the
// tokens that meet it, and indexes the obstacles and walls near it, the caster and those
// tokens.
func (s *pointSetup) read() (*pointScene, *Error) {
	sc := &pointScene{pointSetup: *s}
	sc.box = s.area.Box()
	if s.bounds != nil {
		sc.box = sc.box.Intersect(boundsBox(s.bounds))
	}
	n := 0
	if !sc.box.Empty() {
		n = (sc.box.Max.X - sc.box.Min.X + 1) * (sc.box.Max.Y - sc.box.Min.Y + 1)
		if dz := sc.box.Max.Z - sc.box.Min.Z + 1; n > template.MaxCells || dz > template.MaxCells || n*dz > template.MaxCells {
			return nil, newError(CodeTooLarge, "template: the "+s.shape.String()+" may cover more than "+num.Itoa(template.MaxCells)+
				" cells (SPEC §8.3): give bounds, or use a smaller area")
		}
		n *= sc.box.Max.Z - sc.box.Min.Z + 1
	}
	sc.state = make([]uint8, n)
	w := sc.box
	if w.Empty() {
		w = grid.Box{Min: s.area.O.Cell(), Max: s.area.O.Cell()}
	}
	if s.caster != nil {
		w = w.Union(s.caster.space.Box())
	}
	if !sc.box.Empty() {
		if s.board != nil { // a scene's tokens are validated already: counted first, then kept
			sc.tokens = make([]entity, 0, sceneMeeting(s.board, sc.box))
		}
		for i, n := 0, boardTokens(s.req, s.board); i < n; i++ {
			e := boardEntity(s.req, s.board, i)
			if sc.box.Meets(e.space.Box()) {
				sc.tokens = append(sc.tokens, e)
			}
		}
	}
	// Cover lines run between the source and the tokens' cells; creatures in the way lie
	// inside the box of those, so the view holds every token meeting it as a blocker too.
	for i := range sc.tokens {
		w = w.Union(sc.tokens[i].space.Box())
	}
	w = w.Grow(2)
	if s.board != nil {
		// A scene's walls as the scene indexed them, whole: this path reckons its work from
		// its segments, never from the wall index (whose tiles a window would make finer only
		// on boards past some 160 squares across), and the answer is the same for any index
		// that holds the segments' walls. Indexing a window's walls anew cost a dragged frame
		// more than the rest of its work whenever the window moved.
		sc.solids = s.board.solids
		return sc, nil
	}
	in, e := checkObstacles(s.req.Obstacles, &w)
	if e != nil {
		return nil, e
	}
	ws, e := checkWalls(s.req.Walls, &w)
	if e != nil {
		return nil, e
	}
	sc.solids = terrainOf(indexObstacles(s.req.Obstacles, in), ws)
	return sc, nil
}

// checkOrigin refuses an origin inside solid matter, and a point the caster has no line of
// effect to (SPEC §10.4).
func (sc *pointScene) checkOrigin() *Error {
	sc.visible = true
	if !sc.barrier {
		return nil
	}
	if sc.solids.lines.Inside(sc.area.O) {
		return newError(CodeNoLineOfEffect, "point "+worldText(sc.area.O)+" lies inside solid matter (SPEC §10.4)")
	}
	if sc.caster == nil || !sc.given {
		return nil
	}
	// One clear segment from any inset corner of any cell of the caster's space: the cells
	// nearest the point first, each reckoned before it is walked.
	sp := sc.caster.space
	near := sp.Nearest(sc.area.O.Cell())
	if sc.anyCornerClear(near, sc.area.O) {
		return nil
	}
	var e *Error
	clear := false
	sp.Cells(func(c grid.Cell) {
		if clear || e != nil || c == near {
			return
		}
		clear = sc.anyCornerClear(c, sc.area.O)
		e = sc.w.err
	})
	if e != nil {
		return e
	}
	if !clear {
		sc.visible = false
		return newError(CodeNoLineOfEffect, "the caster has no line of effect to the point "+worldText(sc.area.O)+" (SPEC §10.4)")
	}
	return nil
}

// anyCornerClear reports whether a segment from one of the 8 inset corners of cell c to p is
// clear, each reckoned before it is walked.
func (sc *pointScene) anyCornerClear(c grid.Cell, p los.Point) bool {
	for k := range 8 {
		q := insetCorner(c, k)
		if sc.w.charge(segWork(q, p), "line of effect from the caster to the point (SPEC §10.4): use a smaller caster") != nil {
			return false
		}
		if !sc.solids.lines.OpenBlocked(q, p) {
			return true
		}
	}
	return false
}

// insetCorner is corner k of cell c (bit 0: +x, bit 1: +y, bit 2: +z), moved 1/400 toward the
// cell's centre (SPEC §5.4).
func insetCorner(c grid.Cell, k int) los.Point {
	at := func(v, bit int) int64 {
		if k&bit != 0 {
			return int64(v+1)*los.Unit - 1
		}
		return int64(v)*los.Unit + 1
	}
	return los.Point{X: at(c.X, 1), Y: at(c.Y, 2), Z: at(c.Z, 4)}
}

// sceneMeeting is how many of the scene on's tokens meet b: the capacity of a list of them,
// counted before it is filled rather than grown by append.
func sceneMeeting(on *Scene, b grid.Box) int {
	m := 0
	for i := range on.ents {
		if b.Meets(on.ents[i].space.Box()) {
			m++
		}
	}
	return m
}

// centreUnit is a cell centre's coordinate over los.Unit, truncated as segWork divides it,
// from the cell's coordinate v: v itself, or v + 1 for a negative v.
func centreUnit(v int) int {
	if v < 0 {
		return v + 1
	}
	return v
}

// segWork is the most steps the walk of the segment p → q takes (SPEC §8.3): its set-up and
// one per cell it crosses into.
func segWork(p, q los.Point) int {
	d := func(a, b int64) int { return int(num.Abs(int(a/los.Unit-b/los.Unit))) + 1 }
	return segCost + d(p.X, q.X) + d(p.Y, q.Y) + d(p.Z, q.Z)
}

// index is cell c's index in the box's states (c inside the box).
func (sc *pointScene) index(c grid.Cell) int {
	b := sc.box
	nx, ny := b.Max.X-b.Min.X+1, b.Max.Y-b.Min.Y+1
	return ((c.Z-b.Min.Z)*ny+(c.Y-b.Min.Y))*nx + (c.X - b.Min.X)
}

// spread marks the cells of the box whose centres the shape covers: in when the clear path
// holds (SPEC §10.4), barred otherwise. The walks are reckoned before any is made.
func (sc *pointScene) spread() *Error {
	if sc.box.Empty() {
		return nil
	}
	open := !sc.barrier || sc.solids.Clear(sc.box.Union(grid.Box{Min: sc.src.Cell(), Max: sc.src.Cell()}).Grow(1))
	b := sc.box
	work, i := 0, 0
	// segWork(src, centre of (x, y, z)), term by term (centreUnit).
	at := centreUnit
	sx, sy, sz := int(sc.src.X/los.Unit), int(sc.src.Y/los.Unit), int(sc.src.Z/los.Unit)
	for z := b.Min.Z; z <= b.Max.Z; z++ {
		wz := segCost + 3 + num.Abs(sz-at(z))
		for y := b.Min.Y; y <= b.Max.Y; y++ {
			wy := wz + num.Abs(sy-at(y))
			for x := b.Min.X; x <= b.Max.X; x++ {
				if sc.area.Contains(grid.Cell{X: x, Y: y, Z: z}) {
					sc.state[i] = stIn
					if !open {
						sc.state[i] = stBarred
						work += wy + num.Abs(sx-at(x))
					}
				}
				i++
			}
		}
	}
	if e := sc.w.charge(work+len(sc.state)/8, "the area's clear path (SPEC §10.4): use a smaller area, bounds, or fewer obstacles near it"); e != nil || open {
		return e
	}
	// Every segment starts at the source, and neighbouring squares are mostly shut off by the
	// same wall: the walls that blocked the last few segments are tried first, the latest
	// first, then the index.
	ix := sc.solids.walls
	all := ix.Walls()
	var recent [8]int32
	n, k := 0, 0
	i = 0
	for z := b.Min.Z; z <= b.Max.Z; z++ {
		for y := b.Min.Y; y <= b.Max.Y; y++ {
			for x := b.Min.X; x <= b.Max.X; x, i = x+1, i+1 {
				if sc.state[i] != stBarred {
					continue
				}
				if k++; k&63 == 0 && sc.w.stop(64*64) {
					return sc.w.err
				}
				c := los.Centre(grid.Cell{X: x, Y: y, Z: z})
				blocked := false
				for j, id := range recent[:n] {
					if blocked = all[id].Blocks(sc.src, c); blocked {
						for ; j > 0; j-- { // the latest first
							recent[j] = recent[j-1]
						}
						recent[0] = id
						break
					}
				}
				if !blocked {
					if id := ix.BlockedBy(sc.src, c); id >= 0 {
						n = min(n+1, len(recent))
						for j := n - 1; j > 0; j-- {
							recent[j] = recent[j-1]
						}
						recent[0], blocked = int32(id), true
					} else {
						blocked = sc.solids.lines.OpenBlockedSolids(sc.src, c)
					}
				}
				if !blocked {
					sc.state[i] = stIn
				}
			}
		}
	}
	return nil
}

// boxCells is the number of cells of b.
func boxCells(b grid.Box) int {
	if b.Empty() {
		return 0
	}
	return (b.Max.X - b.Min.X + 1) * (b.Max.Y - b.Min.Y + 1) * (b.Max.Z - b.Min.Z + 1)
}

// cellAt is the cell of index i.
func (sc *pointScene) cellAt(i int) grid.Cell {
	b := sc.box
	nx, ny := b.Max.X-b.Min.X+1, b.Max.Y-b.Min.Y+1
	return grid.Cell{X: b.Min.X + i%nx, Y: b.Min.Y + i/nx%ny, Z: b.Min.Z + i/(nx*ny)}
}

// exclude takes targeting.excludeCells out of the area (SPEC §7.3).
func (sc *pointScene) exclude() *Error {
	cells := sc.req.Targeting.ExcludeCells
	if len(cells) > MaxExclude {
		return newError(CodeTooLarge, "targeting.excludeCells: past the limit of "+num.Itoa(MaxExclude))
	}
	for _, p := range cells {
		if c := cellOf(p); sc.box.Contains(c) {
			if i := sc.index(c); sc.state[i] != 0 {
				sc.state[i] = stExcluded
			}
		}
	}
	return nil
}

// best is the best state of the cells of sp in the area: in, excluded, barred, or 0.
func (sc *pointScene) best(sp grid.Space) uint8 {
	b := sp.Box().Intersect(sc.box)
	best := uint8(0)
	for z := b.Min.Z; z <= b.Max.Z; z++ {
		for y := b.Min.Y; y <= b.Max.Y; y++ {
			for x := b.Min.X; x <= b.Max.X; x++ {
				if st := sc.state[sc.index(grid.Cell{X: x, Y: y, Z: z})]; st > best {
					if best = st; best == stIn {
						return best
					}
				}
			}
		}
	}
	return best
}

// result lists the cells and judges the targets (SPEC §7, §10.9).
func (sc *pointScene) result() (*Result, *Error) {
	o := sc.area.O.World()
	res := &Result{Template: templateOfPoint(sc.shape), Origin: Point{o[0], o[1], o[2]}, OriginVisible: sc.visible}
	if sc.req.Template.Object == nil {
		res.Template.Text = sc.req.Template.Text
	}
	if d, ok := sc.area.V.Compass(); ok && sc.shape.Kind != spread.Emanation {
		res.Direction = d.String()
	}
	res.Cells = [][3]int32{}
	for i, st := range sc.state {
		if st == stIn {
			res.Cells = append(res.Cells, cell32(sc.cellAt(i)))
		}
	}
	res.Count = len(res.Cells)
	res.Targets = sc.targets()
	return res, sc.w.err
}

// targets judges the caster, then the tokens in request order (SPEC §7.1, §10.9).
func (sc *pointScene) targets() []Target {
	out := []Target{}
	var g *rng
	if sc.req.Resolve != nil {
		g = &rng{s: sc.req.Resolve.Seed}
	}
	crowd := sc.crowdOf()
	add := func(e *entity, isCaster bool, k int) {
		if sc.w.err != nil {
			return
		}
		if sc.w.charge(boxCells(e.space.Box().Intersect(sc.box)), "the tokens in the area (SPEC §7.1): use fewer or smaller tokens") != nil {
			return
		}
		st := sc.best(e.space)
		if st == 0 {
			return
		}
		t := Target{ID: e.tok.ID, Cover: GradeNone, Lines: []Line{}}
		switch st {
		case stBarred:
			t.Reason = ReasonBarrier
		case stExcluded:
			t.Reason = ReasonTargeting
		default:
			t.InArea = true
			ok := sc.allowedPoint(e, isCaster)
			total := false
			if sc.cover {
				j := sc.judge(sc.src, e, crowd)
				if sc.w.err != nil {
					return
				}
				t.Cover, t.Blocked, t.Lines = j.grade, j.blocked, j.lines
				if sc.apply {
					t.Bonus = j.bonus
				}
				total = j.grade == GradeTotal
			}
			switch {
			case !ok:
				t.Reason = ReasonTargeting
			case total && sc.apply:
				t.Reason = ReasonCover
			default:
				t.Affected = true
			}
		}
		if g != nil && t.Affected {
			r := sc.req.Resolve
			t.Roll = roll(g, r.Stat, r.Defence[t.ID], t.Bonus, r.Modifiers, r.Luck)
		}
		out = append(out, t)
	}
	if sc.caster != nil {
		add(sc.caster, true, -1)
	}
	for i := range sc.tokens {
		add(&sc.tokens[i], false, i)
	}
	return out
}

// allowedPoint is the targeting filter (SPEC §7.3) with the emanations' rule for their
// caster (§10.5 dnd5e: only with includeCaster; §11.2 pf2e: unless excludeCaster).
func (sc *pointScene) allowedPoint(e *entity, isCaster bool) bool {
	if isCaster && sc.shape.Kind == spread.Emanation && sc.shape.Rules == spread.DnD5e && !sc.req.Targeting.IncludeCaster {
		return false
	}
	return permitted(&sc.req.Targeting, &sc.sel, sc.caster, e, isCaster)
}
