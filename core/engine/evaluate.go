package engine

import (
	"slices"

	"github.com/aoekit/aoekit/core/board"
	"github.com/aoekit/aoekit/core/cover"
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/los"
	"github.com/aoekit/aoekit/core/template"
)

// States of a template cell while a request is evaluated.
const (
	stBarred   uint8 = 1 // in the shape, cut off by a barrier (SPEC §3.2, §4.3)
	stExcluded uint8 = 2 // in the shape, removed by targeting.excludeCells (SPEC §7.3)
	stIn       uint8 = 3 // in the area
)

// profile is the request's rule set and its columns of SPEC §6, after the request's
// overrides. It is the one place a request's rule set is decided: every rule-dependent step
// (the origin's line of effect, §3.1; the kind of line of effect, §5.3; how obstacles shape
// the area, §2.1, §3.2, §4.3; the cover grades, §5.5) reads it, never the template's own.
type profile struct {
	rules    template.Rules // the rule set: the request's "rules", or the template's own
	barriers bool           // obstacles shape the area (§3.2 or §4.3, by rules)
	cover    string         // tdgs, drawsteel or none
	apply    bool           // full cover leaves a target unaffected
}

// profileOf decides the request's rule set and its columns. The rule set is the request's
// "rules" when given, otherwise the template's own: a template's notation belongs to one rule
// set (Draw Steel's "3 burst", the 50 % circle's "circle 3"), and "tdgs (default)" of SPEC §6
// and CONTRACT is what a template without one takes (a template object without "rules"). The
// request's barriers, cover and applyCover then override one column each ("A request may
// override each column").
func profileOf(req *Request, s template.Shape) (profile, *Error) {
	r := s.Rules()
	if req.Rules != "" {
		var ok bool
		if r, ok = template.ParseRules(req.Rules); !ok {
			return profile{}, newError(CodeBadRequest, "rules: expected tdgs, drawsteel or circle50, got \""+req.Rules+"\"")
		}
	}
	p := profile{rules: r}
	switch r {
	case template.TDGS:
		p.cover, p.apply = "tdgs", true
	case template.DrawSteel:
		p.barriers, p.cover, p.apply = true, "drawsteel", true
	case template.Circle50Rules:
		p.barriers, p.cover = true, "tdgs"
	}
	if req.Barriers != nil {
		p.barriers = *req.Barriers
	}
	if req.Cover != "" {
		switch req.Cover {
		case "tdgs", "drawsteel", "none":
			p.cover = req.Cover
		default:
			return profile{}, newError(CodeBadRequest, "cover: expected tdgs, drawsteel or none, got \""+req.Cover+"\"")
		}
	}
	if req.ApplyCover != nil {
		p.apply = *req.ApplyCover
	}
	return p, nil
}

// job is one evaluate request being answered.
type job struct {
	req      *Request
	shape    template.Shape
	prof     profile
	caster   *entity
	tokens   []entity // the tokens that may be targets: those whose space meets the area's box
	solids   *board.Solids
	place    template.Placement
	origin   grid.Cell       // the origin cell (SPEC §2.9, §3.1)
	fromSelf bool            // the area is centred on the caster's space (aura, burst)
	square   grid.Cell       // Draw Steel origin square
	set      *cellSet        // the shape's cells and their states
	count    int             // the number of cells the shape visits
	measured bool            // count is within the limits and area holds the shape's box
	whole    bool            // index every obstacle and keep every token (tests compare it with the window)
	segs     []cover.Segment // storage reused by each target's cover check
	src      los.Point       // the point cover is judged from (source)
	area     box             // the box of the shape's cells (when measured and count > 0)
}

// Evaluate answers an evaluate request (CONTRACT evaluate). Errors are *Error.
func Evaluate(req *Request) (*Result, error) {
	res, err := evaluate(req, false)
	if err != nil {
		return nil, err
	}
	return res, nil
}

// evaluate answers req; whole turns off the window (see job.window), for tests.
func evaluate(req *Request, whole bool) (*Result, *Error) {
	if req == nil {
		return nil, newError(CodeBadRequest, "request is required")
	}
	s, err := shapeOf(req.Template)
	if err != nil {
		return nil, err.(*Error)
	}
	j := &job{req: req, shape: s, whole: whole}
	var e *Error
	if j.prof, e = profileOf(req, s); e != nil {
		return nil, e
	}
	if e = checkTrait(req.Targeting.Trait); e != nil {
		return nil, e
	}
	if !validMetric(req.Metric) {
		return nil, newError(CodeBadRequest, "metric: expected chebyshev, alternating, manhattan or euclidean, got \""+req.Metric+"\"")
	}
	if req.Caster != nil {
		c, e := entityOf(field("caster"), req.Caster)
		if e != nil {
			return nil, e
		}
		j.caster = &c
	}
	if e = checkTokens(req.Tokens, req.Caster, nil); e != nil {
		return nil, e
	}
	if e = j.checkBounds(); e != nil {
		return nil, e
	}
	if e = j.placeShape(); e != nil {
		return nil, e
	}
	j.measure()
	in, e := checkObstacles(req.Obstacles, j.window())
	if e != nil {
		return nil, e
	}
	j.solids = indexObstacles(req.Obstacles, in)
	if e = j.checkPlacement(); e != nil {
		return nil, e
	}
	if e = j.buildArea(); e != nil {
		return nil, e
	}
	return j.result(), nil
}

func (j *job) checkBounds() *Error {
	b := j.req.Bounds
	if b == nil {
		return nil
	}
	for a, name := range [3]string{"x", "y", "z"} {
		if b.Min[a] > b.Max[a] {
			return newError(CodeBadRequest, "bounds: min "+name+" "+itoa(b.Min[a])+" is past max "+name+" "+itoa(b.Max[a]))
		}
	}
	return nil
}

func (j *job) needCaster(what string) *Error {
	if j.caster == nil {
		return newError(CodeBadRequest, "caster is required for "+what)
	}
	return nil
}

// placeShape finds the origin and the placement of the template (SPEC §2.9, §3.1–§3.6).
func (j *job) placeShape() *Error {
	req := j.req
	if j.caster != nil {
		j.place.Facing = j.caster.facing
		j.place.Caster = j.caster.space
	}
	name, text := "orientation", req.Orientation
	if o := req.Template.Object; text == "" && o != nil {
		name, text = "template.orientation", o.Orientation
	}
	if text != "" {
		d, ok := grid.ParseDir(text)
		if !ok || d.Diagonal() {
			return newError(CodeBadRequest, name+": expected N, E, S or W, got \""+text+"\"")
		}
		j.place.Orientation = d
	}
	var origin *grid.Cell
	if req.Origin != nil {
		c := cellAt(*req.Origin)
		if e := checkCoord(field("origin"), c.X, c.Y, c.Z); e != nil {
			return e
		}
		origin = &c
	}
	var path []grid.Cell
	if req.Path != nil {
		var e *Error
		if path, e = pathOf("path", req.Path); e != nil {
			return e
		}
	}
	casterCell := func() grid.Cell { return j.caster.space.Anchor }
	switch s := j.shape.(type) {
	case template.Circle, template.Rect, template.Cube:
		switch {
		case origin != nil:
			j.origin = *origin
		case j.caster != nil:
			j.origin = casterCell()
		default:
			return newError(CodeBadRequest, "origin is required for a "+s.Kind()+" (or a caster to centre it on)")
		}
	case template.Circle50:
		switch {
		case s.Close:
			if e := j.needCaster("a close circle"); e != nil {
				return e
			}
			j.origin = casterCell()
		case origin != nil:
			j.origin = *origin
		case j.caster != nil:
			j.origin = casterCell()
		default:
			return newError(CodeBadRequest, "origin is required for a circle (or a caster to centre it on)")
		}
	case template.Cone, template.Line:
		if e := j.needCaster("a " + s.Kind() + ": it projects from the caster"); e != nil {
			return e
		}
		j.origin = casterCell()
		if origin != nil {
			j.origin = *origin
		}
	case template.Aura, template.Burst:
		if e := j.needCaster("an " + s.Kind()); e != nil {
			return e
		}
		j.origin, j.fromSelf = casterCell(), true
	case template.DSLine:
		switch {
		case len(path) > 0:
			if len(path) != s.Length {
				return newError(CodeBadRequest, "path: a "+s.String()+" needs "+itoa(s.Length)+" squares, got "+itoa(len(path)))
			}
			if err := template.Straight(path); err != nil {
				return templateError("path", err)
			}
			j.origin = path[0]
		case origin == nil:
			return newError(CodeBadRequest, "origin (the line's first square) and aim, or path, are required for a Draw Steel line")
		case req.Aim == nil:
			return newError(CodeBadRequest, "aim is required for a Draw Steel line without a path")
		default:
			j.origin = *origin
			j.place.Aim = cellAt(*req.Aim)
			if e := checkCoord(field("aim"), j.place.Aim.X, j.place.Aim.Y, j.place.Aim.Z); e != nil {
				return e
			}
			if j.place.Aim == j.origin {
				return newError(CodeBadRequest, "aim: the line points nowhere: aim is its origin "+cellText(j.origin))
			}
		}
	case template.Wall:
		if len(path) == 0 {
			return newError(CodeBadRequest, "path is required for a wall: the squares it is built of")
		}
		if len(path) > s.Squares { // name the first square too many (SPEC §3.6)
			return newError(CodeInvalidWall, "path: square "+itoa(s.Squares+1)+" "+cellText(path[s.Squares])+" is one too many: a "+s.String()+" has "+itoa(s.Squares)+" squares, the path lists "+itoa(len(path)))
		}
		if err := template.FaceConnected(path); err != nil {
			return templateError("path", err)
		}
		j.origin = path[0]
	}
	j.place.Origin = j.origin
	j.place.Path = path
	j.square = j.origin
	if c, ok := j.shape.(template.Cube); ok {
		cube := c.Space(j.origin)
		switch {
		case req.OriginSquare != nil:
			j.square = cellAt(*req.OriginSquare)
			if !cube.Contains(j.square) {
				return newError(CodeBadRequest, "originSquare: "+cellText(j.square)+" is not a square of the cube")
			}
		case j.caster != nil:
			j.square = c.OriginSquare(j.origin, j.caster.space)
		}
	}
	return nil
}

// measure counts the shape's cells and, when the count is within the limits, finds their
// box. (A count past the limits is reported by buildArea, after the placement's errors.)
func (j *job) measure() {
	j.count = j.shape.Count(j.place)
	if template.CheckCount(j.count) != nil {
		return
	}
	j.measured = true
	seen := false
	j.shape.Cells(j.place, func(c grid.Cell) {
		if !seen {
			j.area, seen = box{c, c}, true
		}
		j.area.grow(c, c)
	})
	if !seen {
		j.count = 0
	}
}

// window gathers the tokens that may be targets (those whose space meets the area's box)
// and returns the box of cells the board must answer for, or nil for all of them. Line of
// effect and cover only look along segments between points inside the area's cells, the
// caster's space, the origin square and those tokens' spaces (centres and inset corners,
// never on a cell's surface), and at the cells around such points: the box of those cells
// holds all of them. It is widened by 2 cells anyway, so that a Regions query (which looks
// one cell past a segment's ends) reads real solids there, and as slack. On a 500 × 500
// board with 20 000 obstacles, indexing only this window takes a fraction of the time and
// memory of indexing everything. TestWindow_SameAnswerAsWholeBoard holds it to that.
func (j *job) window() *box {
	all := !j.measured || j.whole
	w := box{j.origin, j.origin}
	w.grow(j.square, j.square)
	if j.caster != nil {
		w.grow(j.caster.space.Min(), j.caster.space.Max())
	}
	if j.count > 0 {
		w.grow(j.area.lo, j.area.hi)
	}
	tokens := j.req.Tokens
	for i := range tokens {
		e, _ := entityOf(label{"tokens", i}, &tokens[i]) // already checked
		if lo, hi := e.space.Min(), e.space.Max(); all || j.count > 0 && j.area.meets(lo, hi) {
			j.tokens = append(j.tokens, e)
			w.grow(lo, hi)
		}
	}
	if all {
		return nil
	}
	const margin = 2
	w.lo = w.lo.Add(grid.Cell{X: -margin, Y: -margin, Z: -margin})
	w.hi = w.hi.Add(grid.Cell{X: margin, Y: margin, Z: margin})
	return &w
}

// checkPlacement applies range, "within" and line of effect to the origin (SPEC §2.9, §3.1)
// and the rules of walls (SPEC §3.6).
func (j *job) checkPlacement() *Error {
	if _, ok := j.shape.(template.Wall); ok {
		for i, c := range j.place.Path {
			if j.solids.Fill(c) > 0 {
				return newError(CodeInvalidWall, "path: square "+itoa(i+1)+" "+cellText(c)+" is an obstacle")
			}
			if j.caster != nil && j.caster.space.Contains(c) {
				return newError(CodeInvalidWall, "path: square "+itoa(i+1)+" "+cellText(c)+" is occupied by the caster")
			}
			for _, t := range j.tokens {
				if t.space.Contains(c) {
					return newError(CodeInvalidWall, "path: square "+itoa(i+1)+" "+cellText(c)+" is occupied by "+t.tok.ID)
				}
			}
		}
	}
	if j.caster == nil || j.fromSelf {
		return nil
	}
	rng, kind := j.req.Range.Squares, j.req.Range.Kind
	within := 0
	switch s := j.shape.(type) {
	case template.Cube:
		within = s.Within
	case template.DSLine:
		within = s.Within
	case template.Wall:
		within = s.Within
	}
	if within > 0 && kind == "" {
		rng, kind = within, "squares"
	}
	target := grid.Unit(j.square)
	switch kind {
	case "":
	case "self":
		if !j.caster.space.Contains(j.square) {
			return newError(CodeOutOfRange, "origin "+cellText(j.square)+" is not the caster's own square (range self)")
		}
	case "touch", "squares":
		if kind == "touch" {
			rng = 1
		}
		if rng < 0 || rng > template.MaxDim {
			return newError(CodeBadRequest, "range: expected 0 … "+itoa(template.MaxDim)+", got "+itoa(rng))
		}
		if d := metricDist(j.req.Metric, j.caster.space, target); d > rng {
			return newError(CodeOutOfRange, "origin "+cellText(j.square)+" is "+itoa(d)+" squares from the caster; the range is "+itoa(rng))
		}
	default:
		return newError(CodeBadRequest, "range: expected a number of squares, \"self\" or \"touch\"")
	}
	if j.prof.rules == template.DrawSteel && !j.seesOrigin() {
		return newError(CodeNoLineOfEffect, "the caster has no line of effect to the origin square "+cellText(j.square))
	}
	return nil
}

// seesOrigin reports whether the caster has line of effect to the origin square, of the
// request's rule set (SPEC §5.3): Draw Steel's from any corner of its space to any corner of
// the square, TDGS's centre to centre from its cell nearest the square. The 50 % circle,
// whose cover is judged as TDGS's (§6), sees as TDGS does.
func (j *job) seesOrigin() bool {
	if j.prof.rules == template.DrawSteel {
		return cover.CornerLine(j.caster.space, grid.Unit(j.square), j.solids)
	}
	return cover.CentreLine(j.caster.space.Nearest(j.square), j.square, j.solids)
}

// buildArea marks each cell of the shape in, barred or excluded. The cells are not stored:
// the shape visits them again whenever they are needed (cheaper than a list of a million).
// Where obstacles shape the area (SPEC §6), the rule set says how: circle50 by §4.3's fill,
// the others by §3.2's line of effect.
func (j *job) buildArea() *Error {
	if err := template.CheckCount(j.count); err != nil {
		return templateError("template", err)
	}
	j.set = newCellSet(j.area.lo, j.area.hi, j.count)
	j.src = j.source()
	_, isWall := j.shape.(template.Wall)
	circle50 := j.prof.rules == template.Circle50Rules
	state := stBarred
	if isWall || !j.prof.barriers || !circle50 && j.open() {
		state = stIn // nothing cuts the area
	}
	j.shape.Cells(j.place, func(c grid.Cell) { j.set.set(c, state) })
	switch {
	case state == stIn:
	case circle50:
		j.fill()
	default:
		j.lineOfEffectFilter()
	}
	if len(j.req.Targeting.ExcludeCells) > MaxExclude {
		return newError(CodeTooLarge, "targeting.excludeCells: past the limit of "+itoa(MaxExclude))
	}
	for _, p := range j.req.Targeting.ExcludeCells {
		if c := cellOf(p); j.set.get(c) != 0 {
			j.set.set(c, stExcluded)
		}
	}
	return nil
}

// fill is SPEC §4.3: the cells of the shape that are not full obstacles and are reached from
// the origin through such cells, moving across shared sides. The fill starts in losFrom (the
// origin square, or the caster's space for an area centred on the caster), where a full
// obstacle stops it; a cone or a line starts in the caster's cell, which is not a cell of the
// shape but is passed through all the same.
//
// The 50 % circle is flat and §4.3 names its sides: 4-connected. A shape of several levels
// (a template of another rule set under circle50 rules) is filled across the shared faces of
// its cells, up and down as well. Some shapes have cells that meet only along an edge or at a
// corner, with no path across faces through the shape between them (a diagonal cone's first
// cell and the caster's, the squares of a diagonal line one square wide): §4.3 does not speak
// of them, no disc having such cells, and without a step between them the fill would leave
// out cells that no obstacle closes off, even on an empty board. See joined for that step.
func (j *job) fill() {
	var stack []grid.Cell
	j.losFrom().Cells(func(c grid.Cell) {
		if j.solids.IsFull(c) {
			return
		}
		if j.set.get(c) != 0 {
			j.set.set(c, stIn)
		}
		stack = append(stack, c)
	})
	steps := neighbours[:6] // the faces
	switch {
	case j.meetsAtCorners():
		steps = neighbours[:]
	case j.set.lo.Z == j.set.hi.Z:
		steps = neighbours[:4] // the faces on the set's one level
	}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for i, d := range steps {
			if n := c.Add(d); j.set.get(n) == stBarred && !j.solids.IsFull(n) && (i < 6 || j.joined(c, d)) {
				j.set.set(n, stIn)
				stack = append(stack, n)
			}
		}
	}
}

// neighbours are the steps from a cell to the 26 around it: first the 6 that share a face,
// then those that share an edge or a corner only.
var neighbours = [26]grid.Cell{
	{X: 1}, {X: -1}, {Y: 1}, {Y: -1}, {Z: 1}, {Z: -1},
	{X: 1, Y: 1}, {X: 1, Y: -1}, {X: -1, Y: 1}, {X: -1, Y: -1},
	{X: 1, Z: 1}, {X: 1, Z: -1}, {X: -1, Z: 1}, {X: -1, Z: -1},
	{Y: 1, Z: 1}, {Y: 1, Z: -1}, {Y: -1, Z: 1}, {Y: -1, Z: -1},
	{X: 1, Y: 1, Z: 1}, {X: 1, Y: 1, Z: -1}, {X: 1, Y: -1, Z: 1}, {X: 1, Y: -1, Z: -1},
	{X: -1, Y: 1, Z: 1}, {X: -1, Y: 1, Z: -1}, {X: -1, Y: -1, Z: 1}, {X: -1, Y: -1, Z: -1},
}

// meetsAtCorners reports whether the fill may need joined's steps along edges and across
// corners: only for a cone or a line that runs diagonally (after the caster's facing) and a
// Draw Steel line. Every other shape is a box of cells (circle, rectangle, cube, aura, burst),
// a flat disc (the 50 % circle, see joined), or a stack of a cardinal cone's or line's rows:
// for any two of its cells, or the caster's cell and one of them, that meet along an edge or
// at a corner, a path across faces runs through cells of the shape, so joined refuses the
// step and leaving the test out changes no answer.
func (j *job) meetsAtCorners() bool {
	var d grid.Dir
	switch s := j.shape.(type) {
	case template.Cone:
		d = s.Dir
	case template.Line:
		d = s.Dir
	case template.DSLine:
		return true
	default:
		return false
	}
	return d.Abs(j.place.Facing).Diagonal()
}

// axisOrders lists the orders in which a path across faces may take the axes of a step that
// changes two (the first two orders) or three coordinates.
var axisOrders = [6][3]uint8{{0, 1, 2}, {1, 0, 2}, {0, 2, 1}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}

// joined reports whether the fill steps from c to c+d, a cell of the shape that is not a full
// obstacle and meets c only along an edge or at a corner (across a face the fill always steps,
// SPEC §4.3). It does when no path across faces from one to the other, in the block of cells
// between them, runs through cells of the shape (where one does, the fill must take it, and a
// full obstacle on it closes the way, as §4.3 says), and some such path runs through cells
// that are not full obstacles (no squeezing between solids that meet only diagonally, as §5.2
// says of line of effect). That step is the engine's reading, not the SPEC's: §4.3 never
// meets such cells. No 50 % circle takes such a step: whether a cell is
// in the disc depends only on |dx| and |dy| from the centre, and never gains as either grows;
// of two cells that meet at a corner, A and B, one of the two cells beside both is no farther
// out than A, or than B, on either axis, so it is in the disc too and joins them by faces.
func (j *job) joined(c, d grid.Cell) bool {
	var steps [3]grid.Cell // d's move along each axis it changes: 2 or 3 of them
	k := 0
	for a, v := range [3]int{d.X, d.Y, d.Z} {
		if v != 0 {
			var u [3]int
			u[a] = v
			steps[k] = grid.Cell{X: u[0], Y: u[1], Z: u[2]}
			k++
		}
	}
	orders := axisOrders[:2]
	if k == 3 {
		orders = axisOrders[:]
	}
	open := false
	for _, o := range orders {
		p, inShape, clear := c, true, true
		for _, a := range o[:k-1] {
			p = p.Add(steps[a])
			inShape = inShape && j.set.get(p) != 0
			clear = clear && !j.solids.IsFull(p)
		}
		if inShape {
			return false
		}
		open = open || clear
	}
	return open
}

// lineOfEffectFilter is SPEC §3.2: a cell belongs to the area when the origin square (the
// caster's space for an area centred on the caster) has line of effect to it, of the rule
// set's kind (§5.3): corner to corner for Draw Steel; centre to centre for TDGS (barriers
// asked for), from the area's cover source (the origin square's centre, or the centre of the
// caster's space). Cells in full obstacles never belong.
func (j *job) lineOfEffectFilter() {
	from, corners := j.losFrom(), j.prof.rules == template.DrawSteel
	j.shape.Cells(j.place, func(c grid.Cell) {
		if j.solids.IsFull(c) {
			return
		}
		if corners && cover.CornerLine(from, grid.Unit(c), j.solids) || !corners && !los.Blocked(j.src, los.Centre(c), j.solids) {
			j.set.set(c, stIn)
		}
	})
}

// losFrom is the space line of effect to the area's cells is traced from (SPEC §3.2): the
// origin square, or the caster's space for an area centred on the caster.
func (j *job) losFrom() grid.Space {
	if j.fromSelf {
		return j.caster.space
	}
	return grid.Unit(j.square)
}

// open reports whether no solid lies in or next to the area and losFrom: every cell of the
// area then has line of effect.
func (j *job) open() bool {
	from := j.losFrom()
	b := j.area
	b.grow(from.Min(), from.Max())
	return j.solids.Empty(b.lo.Add(grid.Cell{X: -1, Y: -1, Z: -1}), b.hi.Add(grid.Cell{X: 1, Y: 1, Z: 1}))
}

// checkTrait reports a smart-targeting trait that SPEC §7.3 does not know, whether or not
// anything is in the area.
func checkTrait(trait string) *Error {
	switch trait {
	case "", "none", "alliesExcluded", "enemiesOnly", "selective":
		return nil
	}
	return newError(CodeBadRequest, "targeting.trait: expected none, alliesExcluded, enemiesOnly or selective, got \""+trait+"\"")
}

// allowed applies the smart-targeting trait (SPEC §7.3, checked by checkTrait) to an entity.
func (j *job) allowed(e *entity, isCaster bool) bool {
	t := j.req.Targeting
	if isCaster && t.ExcludeCaster {
		return false
	}
	side := ""
	if j.caster != nil {
		side = j.caster.tok.Side
	}
	switch t.Trait {
	case "alliesExcluded":
		return !isCaster && e.tok.Side != side
	case "enemiesOnly":
		return !isCaster && e.tok.Side != "" && e.tok.Side != side
	case "selective":
		return slices.Contains(t.IDs, e.tok.ID)
	}
	return true
}

// source is the point cover is judged from, for every target (SPEC §5.4: the centre of the
// area's origin cell). For an area centred on the caster (aura, burst) the origin is the
// caster's space (SPEC §3.2) and the SPEC names no single cell of it: the point is the
// centre of that space, "the caster, who is at its centre" (SPEC §3.1). For a one-square
// caster that is its cell's centre. (A nearest-cell rule would need a tie-break between
// equally near cells, and any fixed tie-break, such as one from the anchor, makes the answer
// change when the board is turned.)
func (j *job) source() los.Point {
	if j.fromSelf {
		lo, hi := j.caster.space.Min(), j.caster.space.Max()
		mid := func(a, b int) int64 { return int64(a+b+1) * los.Unit / 2 }
		return los.Point{X: mid(lo.X, hi.X), Y: mid(lo.Y, hi.Y), Z: mid(lo.Z, hi.Z)}
	}
	return los.Centre(j.square)
}

// target fills in *t for entity e when the area meets its space, and reports whether it does.
func (j *job) target(t *Target, e *entity, isCaster bool) bool {
	state := j.set.best(e.space)
	if state == 0 {
		return false
	}
	*t = Target{ID: e.tok.ID, Cover: "none", Lines: []Line{}}
	switch state {
	case stBarred:
		t.Reason = "barrier"
		return true
	case stExcluded:
		t.Reason = "targeting"
		return true
	}
	t.InArea = true
	ok := j.allowed(e, isCaster)
	if j.prof.cover != "none" {
		r := cover.AppendFromPoint(j.segs[:0], j.src, cover.Target{Space: e.space, Prone: e.tok.Prone}, j.solids)
		j.segs = r.Segments
		var g cover.Grade
		if j.prof.cover == "drawsteel" {
			g = cover.DrawSteel(r.Blocked, r.Total())
		} else {
			g = cover.TDGS(r.Blocked, r.Total())
		}
		t.Cover, t.Blocked = g.Name, r.Blocked
		if j.prof.apply {
			t.Bonus = g.Bonus
		}
		t.Lines = make([]Line, len(r.Segments))
		for i, sg := range r.Segments {
			t.Lines[i] = Line{From: sg.From.World(), To: sg.To.World(), Blocked: sg.Blocked}
		}
		if g.Full && j.prof.apply && ok {
			t.Reason = "cover"
			return true
		}
	}
	if !ok {
		t.Reason = "targeting"
		return true
	}
	t.Affected = true
	return true
}

func (j *job) result() *Result {
	res := &Result{Template: templateOf(j.shape), Origin: posOf(j.origin), OriginVisible: true, Targets: make([]Target, 0, len(j.tokens)+1)}
	if j.req.Template.Object == nil {
		res.Template.Text = j.req.Template.Text
	}
	if _, ok := j.shape.(template.Rect); ok && j.place.Orientation != grid.N {
		res.Template.Orientation = j.place.Orientation.String()
	}
	switch s := j.shape.(type) {
	case template.Cone:
		res.Direction = s.Dir.Abs(j.place.Facing).String()
	case template.Line:
		res.Direction = s.Dir.Abs(j.place.Facing).String()
	}
	if j.caster != nil && !j.fromSelf {
		res.OriginVisible = j.seesOrigin()
	}
	res.Cells = j.cells()
	res.Count = len(res.Cells)
	// Targets: the caster first, then the tokens in request order (SPEC §7.4).
	var g *rng
	if j.req.Resolve != nil {
		g = &rng{s: j.req.Resolve.Seed}
	}
	add := func(e *entity, isCaster bool) {
		res.Targets = append(res.Targets, Target{})
		t := &res.Targets[len(res.Targets)-1]
		if !j.target(t, e, isCaster) {
			res.Targets = res.Targets[:len(res.Targets)-1]
			return
		}
		if g != nil && t.Affected {
			r := j.req.Resolve
			t.Roll = roll(g, r.Stat, r.Defence[t.ID], t.Bonus, r.Modifiers, r.Luck)
		}
	}
	if j.caster != nil {
		add(j.caster, true)
	}
	for i := range j.tokens {
		add(&j.tokens[i], false)
	}
	return res
}

// cells lists the cells in the area and inside the bounds, sorted by z, y, x, once each.
func (j *job) cells() [][3]int32 {
	b := j.req.Bounds
	clip := j.set.box
	if b != nil {
		clip = clip.clip(cellOf(b.Min), cellOf(b.Max))
	}
	out := make([][3]int32, 0, j.count)
	if j.set.dense != nil { // read in order: sorted and once each already
		return j.set.appendDense(out, clip, stIn)
	}
	j.shape.Cells(j.place, func(c grid.Cell) {
		if j.set.get(c) == stIn && clip.contains(c.X, c.Y, c.Z) {
			out = append(out, cell32(c))
		}
	})
	if !sorted(out) { // most shapes list their cells in order already
		sortCells(out)
	}
	return slices.Compact(out)
}

// sorted reports whether cells are in CONTRACT order: by z, then y, then x.
func sorted(cells [][3]int32) bool {
	for i := 1; i < len(cells); i++ {
		a, b := &cells[i-1], &cells[i]
		if a[2] > b[2] || a[2] == b[2] && (a[1] > b[1] || a[1] == b[1] && a[0] > b[0]) {
			return false
		}
	}
	return true
}
